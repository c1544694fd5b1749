"""The term map counted in partitions (helpers.analysis.cooccurrence.counting): the same as in one piece."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pandas as pd
import pytest

from tests.support import SEED_DIR
from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence, analyse_partitions
from helpers.analysis.cooccurrence.counting import (bucket_counts, partition_candidates, partition_columns, reduce_bucket,
                                                    summed_gram)
from helpers.analysis.corpus import read_corpus
from helpers.analysis._parallel import LocalPartitions, partition_bounds
from helpers.analysis.text.tokens import TokenPartitions, tokenize_corpus


class BucketedPartitions(LocalPartitions):
    """The local runner with the reduction cut into several buckets, as on a cluster of three workers."""

    n_buckets = 3


@pytest.fixture(scope="module")
def seed():
    papers = read_corpus(SEED_DIR).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    return papers["text"].reset_index(drop=True), tokens


@pytest.fixture(scope="module")
def whole(seed):
    texts, tokens = seed
    return analyse_cooccurrence(texts, tokens)


def _in_parts(seed, bounds, runner):
    texts, tokens = seed
    return analyse_partitions(runner, TokenPartitions(tokens, bounds),
                              [texts.iloc[start:stop].tolist() for start, stop in bounds])


@pytest.mark.parametrize("n_parts, runner", [(1, BucketedPartitions()), (2, LocalPartitions()),
                                             (5, BucketedPartitions()), (57, BucketedPartitions())])
def test_partitions_count_what_the_whole_counts(seed, whole, n_parts, runner):
    # 57 partitions of one abstract: every term is below the threshold in every partition, so the
    # threshold must apply after the sum.
    parts = _in_parts(seed, partition_bounds(len(seed[1]), n_parts), runner)
    for name in ("terms", "pairs", "communities", "below_cut", "acronyms", "merges"):
        pd.testing.assert_frame_equal(getattr(parts, name), getattr(whole, name), check_dtype=True)
    assert parts.settings == whole.settings
    assert parts.paper_ids == whole.paper_ids
    assert (parts.paper_terms != whole.paper_terms).nnz == 0
    assert parts.paper_terms.shape == whole.paper_terms.shape == (57, len(whole.terms))
    assert len(whole.terms) == 50 and whole.settings.n_candidates == 2142


def test_an_acronym_defined_in_one_partition_renames_only_there():
    texts = pd.Series(["An adaptive robust method (ARM) wins. ARM is fast.", "The arm of a bandit.",
                       "A bandit arm and an arm."])
    tokens = tokenize_corpus(texts.tolist(), ["a", "b", "c"], clean=True)
    bounds = [(0, 1), (1, 3)]
    options = dict(min_occurrences=1, relevant_share=1.0, thesaurus={})
    parts = analyse_partitions(LocalPartitions(), TokenPartitions(tokens, bounds),
                               [texts.iloc[a:b].tolist() for a, b in bounds], TermMapOptions(**options))
    whole = analyse_cooccurrence(texts, tokens, TermMapOptions(**options))
    pd.testing.assert_frame_equal(parts.terms, whole.terms)
    pd.testing.assert_frame_equal(parts.merges, whole.merges)
    # ARM is renamed in the abstract that defines it (row 0 of the first partition) only, not in
    # row 0 of the second: a bandit's arm stays an arm there (merged into "bandit arm").
    assert dict(zip(parts.terms["term"], parts.terms["n_papers"])) == {
        "adaptive robust method": 1, "bandit": 1, "bandit arm": 1}


def test_buckets_sum_by_term_and_filter_after_the_sum():
    tokens = tokenize_corpus(["graph kernels", "graph kernels and bandits", "bandits"], ["a", "b", "c"])
    none = pd.DataFrame(columns=["row", "from", "to"])
    found = [partition_candidates(tokens.rows(start, stop), {}, none) for start, stop in [(0, 1), (1, 3)]]
    buckets = [bucket_counts(part, 2) for part in found]
    reduced = [reduce_bucket(2, *(pieces[b] for pieces in buckets)) for b in range(2)]
    frequent = pd.concat([table for table, _ in reduced]).sort_values("term")
    # "graph kernel" is in one abstract of each partition: 2 in all, so it passes only after the sum.
    assert frequent.values.tolist() == [["bandit", 2, 2], ["graph kernel", 2, 2], ["kernel", 2, 2]]
    assert sum(n for _, n in reduced) == 3
    assert np.array_equal(np.sort(np.concatenate([t["term"].to_numpy() for t, _ in reduced])),
                          frequent["term"].to_numpy())


class CandidateWatcher(LocalPartitions):
    """The local runner, noting each partition's candidates and how many are still alive when the pair
    counts start."""

    def __init__(self):
        self.candidates, self.alive_at_gram, self.gram_groups = [], None, 0

    def map(self, function, *iterables):
        # The first step after the counts by term and the frequent columns: the pair counts.
        if self.candidates and function not in (bucket_counts, partition_columns) and self.alive_at_gram is None:
            gc.collect()
            self.alive_at_gram = sum(ref() is not None for ref in self.candidates)
        results = super().map(function, *iterables)
        if function is partition_candidates:
            self.candidates = [weakref.ref(found) for found in results]
        return results

    def submit(self, function, *args):
        if function is summed_gram:
            if self.alive_at_gram is None:
                gc.collect()
                self.alive_at_gram = sum(ref() is not None for ref in self.candidates)
            self.gram_groups += 1
        return super().submit(function, *args)


def test_the_candidates_leave_memory_once_the_frequent_columns_are_made(seed, whole):
    watcher = CandidateWatcher()
    parts = _in_parts(seed, partition_bounds(len(seed[1]), 3), watcher)
    assert len(watcher.candidates) == 3 and watcher.alive_at_gram == 0
    assert watcher.gram_groups == 1  # the local runner's one bucket: one running sum over the three partitions
    pd.testing.assert_frame_equal(parts.pairs, whole.pairs)
    assert (parts.paper_terms != whole.paper_terms).nnz == 0
