"""Partitioned counting: the theme terms of a corpus counted where its partitions are.

Each partition counts its own terms (:func:`helpers.analysis.themes.vocabulary.theme_counts`); the
vocabulary is those counts summed by term, one reducer per bucket, cut as the whole corpus would be (the
:data:`MAX_TERMS` most frequent terms in at least ``min_df`` and at most :data:`MAX_DF` of the abstracts).
Each partition's counts stay where they were counted (:class:`_PartitionedCounts`): only the rows a fit
uses come to this process. Every abstract is then weighted by the fitted model in blocks of
:data:`TRANSFORM_BLOCK` consecutive ``paper_id`` ranks, whatever the partitions (:func:`_transform_blocks`).
The TF-IDF weights (:func:`_tfidf`, :func:`_tfidf_rows`) are those of scikit-learn's ``TfidfTransformer``.
"""

from __future__ import annotations

import operator
import warnings
from functools import reduce
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

if TYPE_CHECKING:
    from sklearn.decomposition import NMF

from helpers.analysis.cooccurrence.counting import (PartitionCandidates, bucket_counts, partition_changed,
                                                    partition_edited, partition_summary)
from helpers.analysis._parallel import MAX_CHUNK_ITEMS, partition_bounds, reduce_tree
from helpers.analysis.text.tokens import TokenizedCorpus
from helpers.analysis.themes.vocabulary import ThemesError, theme_counts
from helpers.analysis.text.vocabulary import VocabularyEdits

__all__ = ["MIN_DOCUMENTS", "MAX_DF", "MAX_TERMS", "TRANSFORM_BLOCK", "THEME_COUNT_COLUMNS"]

MIN_DOCUMENTS = 4
MAX_DF = 0.6
MAX_TERMS = 20_000


#: Abstracts weighted by one ``NMF.transform`` call: scikit-learn's transform stops when the whole call
#: has converged, so the papers of a call are fixed (consecutive ``paper_id`` ranks), never a partition.
TRANSFORM_BLOCK = MAX_CHUNK_ITEMS
THEME_COUNT_COLUMNS = ["term", "n_papers", "occurrences"]


def _tfidf(counts: sparse.csr_matrix) -> sparse.csr_matrix:
    """Sublinear TF-IDF weights of term counts (scikit-learn's ``TfidfTransformer``)."""
    from sklearn.feature_extraction.text import TfidfTransformer  # lazy: slow to import

    return TfidfTransformer(sublinear_tf=True).fit_transform(counts)


def _partition_theme_terms(tokens: TokenizedCorpus) -> PartitionCandidates:
    """One partition's :func:`theme_counts` with every term it holds (a partition of stop words only: none)."""
    try:
        counts, terms = theme_counts(tokens)
    except ThemesError:
        return PartitionCandidates(sparse.csr_matrix((len(tokens), 0)), np.array([], dtype=object))
    return PartitionCandidates(counts, terms)


def _top_theme_terms(table: pd.DataFrame, max_terms: int) -> pd.DataFrame:
    """``table`` (``term, n_papers, occurrences``) sorted by term and cut to the ``max_terms`` most frequent
    (ties: alphabetically first), as :func:`alphabetical_top_terms` cuts.

    Examples
    --------
    >>> table = pd.DataFrame({"term": ["b", "c", "a"], "n_papers": [1, 2, 2], "occurrences": [5, 2, 2]})
    >>> _top_theme_terms(table, 2)["term"].tolist()
    ['a', 'b']
    """
    table = table.iloc[np.argsort(table["term"].to_numpy().astype(str), kind="stable")].reset_index(drop=True)
    if len(table) > max_terms:
        chosen = np.sort(np.argsort(-table["occurrences"].to_numpy(), kind="stable")[:max_terms])
        table = table.iloc[chosen].reset_index(drop=True)
    return table


def _reduce_theme_bucket(min_df: int, max_documents: float, max_terms: int, *parts: pd.DataFrame) -> pd.DataFrame:
    """One bucket's theme terms summed over the partitions: those in ``min_df`` to ``max_documents``
    abstracts, at most the ``max_terms`` most frequent (the corpus's cut keeps none beyond them).

    Examples
    --------
    >>> one = pd.DataFrame({"term": ["a", "b"], "n_papers": [2, 1], "occurrences": [3, 1]})
    >>> two = pd.DataFrame({"term": ["b", "c"], "n_papers": [1, 4], "occurrences": [2, 4]})
    >>> _reduce_theme_bucket(2, 3.0, 10, one, two).values.tolist()
    [['a', 2, 3], ['b', 2, 3]]
    """
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=THEME_COUNT_COLUMNS)
    summed = table.groupby("term", sort=False)[["n_papers", "occurrences"]].sum().reset_index()
    kept = summed[(summed["n_papers"] >= min_df) & (summed["n_papers"] <= max_documents)]
    kept = kept.astype({"term": object, "n_papers": np.int64, "occurrences": np.int64})
    return _top_theme_terms(kept[THEME_COUNT_COLUMNS], max_terms)


def _partition_theme_counts(found: PartitionCandidates, vocabulary: np.ndarray) -> sparse.csr_matrix:
    """The partition's counts in the columns of the corpus's theme ``vocabulary`` (sorted indices)."""
    position = pd.Index(np.asarray(vocabulary, dtype=object)).get_indexer(found.terms.astype(object))
    present = np.flatnonzero(position >= 0)
    selected = found.counts[:, present].tocoo()
    counts = sparse.csr_matrix((selected.data.astype(np.float64), (selected.row, position[present][selected.col])),
                               shape=(found.counts.shape[0], len(vocabulary)))
    counts.sum_duplicates()
    counts.sort_indices()
    return counts


def _take_rows(counts: sparse.csr_matrix, rows: np.ndarray) -> sparse.csr_matrix:
    return counts[rows]


def _idf(document_frequency: np.ndarray, n_documents: int) -> np.ndarray:
    """Smoothed IDF as scikit-learn's ``TfidfTransformer.fit`` computes it, from the document frequencies."""
    df = document_frequency.astype(np.float64) + 1.0
    idf = np.full_like(df, fill_value=n_documents + 1, dtype=np.float64)
    idf /= df
    np.log(idf, out=idf)
    idf += 1.0
    return idf


def _tfidf_rows(counts: sparse.csr_matrix, idf: np.ndarray) -> sparse.csr_matrix:
    """Sublinear TF-IDF of some rows with the corpus's ``idf``: the rows of :func:`_tfidf` of every abstract
    (``TfidfTransformer.transform``, row by row)."""
    from sklearn.preprocessing import normalize  # lazy: slow to import

    tfidf = counts.astype(np.float64, copy=True).tocsr()
    np.log(tfidf.data, tfidf.data)
    tfidf.data += 1.0
    tfidf.data *= idf[tfidf.indices]
    return normalize(tfidf, norm="l2", copy=False)


@dataclass(frozen=True)
class _PartitionedCounts:
    """The theme counts of every abstract, each partition's kept where it was counted.

    ``parts`` are handles (on ``runner``) of each partition's texts x ``vocabulary`` counts, in corpus
    order, starting at the rows ``bounds``; themes take the abstracts in ``paper_id`` order, whose
    corpus rows are ``order`` (position ``i`` is corpus row ``order[i]``).
    """

    runner: Any
    parts: list[Any]
    bounds: np.ndarray
    order: np.ndarray
    paper_ids: np.ndarray
    vocabulary: np.ndarray
    document_frequency: np.ndarray
    min_df: int
    vocabulary_changed: tuple[int, ...] = ()

    @property
    def n_documents(self) -> int:
        return len(self.order)

    def rows(self, positions: np.ndarray) -> sparse.csr_matrix:
        """The counts of the abstracts at ``positions`` (of the ``paper_id`` order), in that order."""
        corpus_rows = self.order[positions]
        part_of = np.searchsorted(self.bounds, corpus_rows, side="right") - 1
        handles, wanted = [], []
        for part in np.unique(part_of):
            mask = part_of == part
            handles.append(self.runner.submit(_take_rows, self.parts[part], corpus_rows[mask] - self.bounds[part]))
            wanted.append(np.flatnonzero(mask))
        stacked = sparse.vstack(self.runner.gather(handles), format="csr")
        return stacked[np.argsort(np.concatenate(wanted), kind="stable")]


def _partitioned_counts(runner: Any, token_parts: Sequence[Any], edits: VocabularyEdits | None = None
                        ) -> _PartitionedCounts:
    """The theme vocabulary of the corpus in partitions, from their counts summed by term, and each
    partition's counts in its columns (left where they were counted); the researcher's ``edits`` applied to
    each partition's counts first (:func:`helpers.analysis.cooccurrence.counting.partition_edited`)."""
    summaries = runner.gather(runner.map(partition_summary, token_parts))
    paper_ids = np.array([paper for ids, _ in summaries for paper in ids], dtype=object)
    n_documents = len(paper_ids)
    if n_documents < MIN_DOCUMENTS:
        raise ThemesError(
            f"themes need at least {MIN_DOCUMENTS} abstracts; this corpus has {n_documents}")
    min_df = 2 if n_documents >= 20 else 1
    found = runner.map(_partition_theme_terms, token_parts)
    changed: tuple[int, ...] = ()
    if edits is not None and not edits.empty:
        shared_edits = runner.share(edits)
        terms_changed = set().union(*runner.gather(runner.map(partition_changed, found, [shared_edits] * len(found))))
        changed = tuple(edits.changed_by_file(terms_changed))
        found = runner.map(partition_edited, found, [shared_edits] * len(found))
    pieces = runner.map(bucket_counts, found, [runner.n_buckets] * len(found))
    reduced = runner.gather([runner.submit(_reduce_theme_bucket, min_df, MAX_DF * n_documents, MAX_TERMS,
                                           *(runner.submit(operator.getitem, piece, bucket) for piece in pieces))
                             for bucket in range(runner.n_buckets)])
    del pieces
    table = _top_theme_terms(pd.concat(reduced, ignore_index=True), MAX_TERMS)
    if not len(table):  # only the corpus's own lack of terms is a note
        raise ThemesError("no terms left to model after stop words (no terms remain after min_df and max_df)")
    vocabulary = table["term"].to_numpy().astype(str).astype(object)
    shared = runner.share(vocabulary)
    parts = runner.map(_partition_theme_counts, found, [shared] * len(found))
    bounds = np.cumsum([0] + [len(ids) for ids, _ in summaries])
    # Fit in paper_id order, so reordering the input files cannot change any theme.
    order = np.argsort(paper_ids, kind="stable")
    return _PartitionedCounts(runner, parts, bounds, order, paper_ids[order], vocabulary,
                              table["n_papers"].to_numpy(np.int64), min_df, changed)


def _assignment(document_weights: np.ndarray) -> np.ndarray:
    """Each paper's strongest theme (1-based), 0 for a paper without any theme weight."""
    totals = document_weights.sum(axis=1)
    return np.where(totals > 0, document_weights.argmax(axis=1) + 1, 0)


def _block_pieces(counts: sparse.csr_matrix, positions: np.ndarray, block_of: np.ndarray, n_blocks: int
                  ) -> list[tuple[np.ndarray, sparse.csr_matrix] | None]:
    """A partition's rows cut by transform block: ``(positions, counts)`` for each block (``None``: none)."""
    pieces: list[tuple[np.ndarray, sparse.csr_matrix] | None] = [None] * n_blocks
    for block in np.unique(block_of):
        rows = np.flatnonzero(block_of == block)
        pieces[int(block)] = (positions[rows], counts[rows])
    return pieces


@dataclass(frozen=True)
class _BlockStatistics:
    """What the theme tables need of every abstract, summed over blocks: each theme's term counts (theme x
    term) and the co-occurrence counts of the coherence terms."""

    class_terms: np.ndarray
    together: np.ndarray


def _transform_block(fitted: tuple["NMF", np.ndarray, np.ndarray, np.ndarray],
                     *pieces: tuple[np.ndarray, sparse.csr_matrix]) -> tuple[np.ndarray, _BlockStatistics]:
    """One transform block: its abstracts' theme weights (``paper_id`` order) and statistics."""
    from sklearn.exceptions import ConvergenceWarning  # lazy: slow to import

    model, idf, columns, coherence_columns = fitted
    positions = np.concatenate([piece[0] for piece in pieces])
    order = np.argsort(positions, kind="stable")
    counts = sparse.vstack([piece[1] for piece in pieces], format="csr")[order]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        weights = model.transform(_tfidf_rows(counts, idf)[:, columns])
    assignment = _assignment(weights)
    class_terms = np.vstack([np.asarray(counts[assignment == t + 1].sum(axis=0)).ravel()
                             for t in range(weights.shape[1])])
    present = (counts[:, coherence_columns] > 0).astype(np.int64)
    return weights, _BlockStatistics(class_terms, (present.T @ present).toarray())


def _add_statistics(*parts: _BlockStatistics) -> _BlockStatistics:
    """The sum of blocks' statistics (whole numbers: exact in any order)."""
    return _BlockStatistics(reduce(operator.add, (part.class_terms for part in parts)),
                            reduce(operator.add, (part.together for part in parts)))


def _transform_blocks(terms: _PartitionedCounts, model: "NMF", idf: np.ndarray, columns: np.ndarray,
                      coherence_columns: np.ndarray) -> tuple[np.ndarray, _BlockStatistics]:
    """Every abstract's theme weights (``paper_id`` order), in blocks of :data:`TRANSFORM_BLOCK` consecutive
    ranks whatever the partitions: each partition sends its rows to their blocks, each block is one
    ``transform`` on the runner, and only the weights and the summed statistics come back."""
    runner, n_documents = terms.runner, terms.n_documents
    blocks = partition_bounds(n_documents, -(-n_documents // TRANSFORM_BLOCK))
    starts = np.array([start for start, _ in blocks])
    position = np.empty(n_documents, dtype=np.int64)
    position[terms.order] = np.arange(n_documents)
    fitted = runner.share((model, idf, columns, coherence_columns))
    cut, touches = [], []
    for part, (first, last) in zip(terms.parts, zip(terms.bounds[:-1], terms.bounds[1:])):
        block_of = np.searchsorted(starts, position[first:last], side="right") - 1
        cut.append(runner.submit(_block_pieces, part, position[first:last], block_of, len(blocks)))
        touches.append(set(np.unique(block_of).tolist()))
    done = [runner.submit(_transform_block, fitted, *(runner.submit(operator.getitem, pieces, block)
                                                      for pieces, touched in zip(cut, touches) if block in touched))
            for block in range(len(blocks))]
    weights = np.vstack(runner.gather([runner.submit(operator.itemgetter(0), result) for result in done]))
    statistics = reduce_tree(runner, _add_statistics, [runner.submit(operator.itemgetter(1), result) for result in done])
    return weights, statistics
