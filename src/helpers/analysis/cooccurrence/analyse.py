"""The term map's steps in order, from the abstracts to a :class:`CooccurrenceResult`.

Each step is a function of its own module; this one only runs them, partition by partition where the
abstracts are (:func:`analyse_partitions`, the same function on one machine or a Dask cluster), and puts
together what comes back: the acronyms the abstracts define, the candidate terms counted and edited, the
selection, the network, and the tables of what was left out.
"""

from __future__ import annotations

import operator
from typing import Any, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence.acronyms import acronym_merges, acronym_table
from helpers.analysis.cooccurrence.candidates import merge_table, read_thesaurus
from helpers.analysis.cooccurrence.communities import community_table
from helpers.analysis.cooccurrence.counting import (
    bucket_counts,
    partition_candidates,
    partition_changed,
    partition_columns,
    partition_definitions,
    partition_edited,
    partition_summary,
    reduce_bucket,
    sum_matrices,
    summed_gram,
    take_columns,
)
from helpers.analysis.cooccurrence.network import MAX_LINKS_PER_TERM, map_network
from helpers.analysis.cooccurrence.options import CooccurrenceSettings, TermMapOptions
from helpers.analysis.cooccurrence.result import CHANGE_COLUMNS, GENERIC_TERM, LEFT_OUT_COLUMNS, CooccurrenceResult
from helpers.analysis.cooccurrence.selection import (
    BELOW_CUT_ROWS,
    MAX_MAP_TERMS,
    TermSelection,
    candidate_min_papers,
    default_min_occurrences,
    select_from_gram,
)
from helpers.analysis.cooccurrence.termhood import RELEVANCE_SMOOTHING, RELEVANCE_TOPICS
from helpers.analysis._parallel import LocalPartitions, PartitionRunner, partition_bounds, reduce_tree
from helpers.analysis.text.noun_phrases import MAX_TERM_WORDS
from helpers.analysis.text.tokens import TokenizedCorpus, analysis_texts_to_tokens
from helpers.analysis.text.cleaning import analysis_text
from helpers.analysis.text.vocabulary import BUILT_IN_STOP_WORD, VocabularyEdits, add_up_left_out, left_out_words


def analyse_cooccurrence(raw_texts: pd.Series, analysis_texts: TokenizedCorpus | pd.Series,
                         options: TermMapOptions = TermMapOptions()) -> CooccurrenceResult:
    """Find terms, keep the relevant ones, count pairs and build the term network.

    Parameters
    ----------
    raw_texts : Series
        Stored text of each paper, in the order of ``analysis_texts`` (acronym
        definitions are found in their original case and applied by row). When
        indexed by ``paper_id`` (labels, not positions), the ids must be those of
        ``analysis_texts`` in that order.
    analysis_texts : TokenizedCorpus or Series
        :func:`helpers.analysis.text.tokens.tokenize_corpus` of the analysis texts, or the
        analysis texts indexed by ``paper_id``.
    options : TermMapOptions
        The thresholds, ranking, seed and vocabulary of the map (checked where they were built).

    Returns
    -------
    CooccurrenceResult

    Raises
    ------
    ValueError
        When ``raw_texts`` and ``analysis_texts`` are not the same papers in the same order.

    Examples
    --------
    >>> raw = pd.Series({"p1": "Litter moisture and footpad dermatitis.", "p2": "Footpad dermatitis in turkeys.",
    ...                  "p3": "Litter moisture in turkey houses.", "p4": "Turkeys on wet litter."})
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(min_occurrences=2, thesaurus={}))
    >>> sorted(result.terms["term"])
    ['footpad dermatitis', 'litter moisture', 'turkey']
    """
    tokens = analysis_texts_to_tokens(analysis_texts)
    _check_same_papers(raw_texts, tokens)
    return analyse_partitions(LocalPartitions(), [tokens], [raw_texts.tolist()], options)


def analyse_partitions(runner: PartitionRunner, token_parts: Sequence[Any], text_parts: Sequence[Any],
                       options: TermMapOptions = TermMapOptions()) -> CooccurrenceResult:
    """:func:`analyse_cooccurrence` of a corpus in consecutive partitions, counted where they are.

    Only counts come back from the partitions: acronym definitions, the frequent candidates' abstracts and
    occurrences, their summed ``X.T @ X`` and the papers x map terms matrix. The result is the same for any
    cut into partitions (a tested equivalence).

    Parameters
    ----------
    runner : PartitionRunner
        Runs the per-partition steps of :mod:`helpers.analysis.cooccurrence.counting` and their reductions
        (:class:`helpers.analysis._parallel.LocalPartitions` in this process, or a Dask cluster's).
    token_parts : sequence
        Handles (values, or Dask futures) of each partition's :class:`helpers.analysis.text.tokens.TokenizedCorpus`,
        in corpus order.
    text_parts : sequence
        Handles of each partition's stored texts (a list of str), in the same order.
    options : TermMapOptions
        The thresholds, ranking, seed and vocabulary of the map.

    Returns
    -------
    CooccurrenceResult
        The same as :func:`analyse_cooccurrence` of the whole corpus.

    Examples
    --------
    >>> from helpers.analysis.text.tokens import tokenize_corpus
    >>> texts = ["Heat stress lowers feed intake.", "Heat stress and feed intake in broilers.",
    ...          "Broilers under heat stress."]
    >>> tokens = tokenize_corpus(texts, pd.Series(["p1", "p2", "p3"]))
    >>> result = analyse_partitions(LocalPartitions(), [tokens], [texts], TermMapOptions(min_occurrences=2))
    >>> result.paper_ids, result.settings.n_papers
    (['p1', 'p2', 'p3'], 3)
    """
    summaries = runner.gather(runner.map(partition_summary, token_parts))
    paper_ids = [paper for ids, _ in summaries for paper in ids]
    bounds = np.cumsum([0] + [len(ids) for ids, _ in summaries])
    n_papers, n_tokens = len(paper_ids), sum(words for _, words in summaries)
    min_occurrences = default_min_occurrences(n_papers) if options.min_occurrences is None else int(
        options.min_occurrences)
    thesaurus = read_thesaurus() if options.thesaurus is None else options.thesaurus
    acronyms, merges, local_merges, local_parts = _acronym_step(runner, text_parts, bounds, thesaurus)
    shared_merges = runner.share(merges)
    # The boilerplate nouns the texts use (never terms), counted before the candidates take memory.
    built_in = add_up_left_out(*runner.gather(runner.map(left_out_words, token_parts)))
    found = runner.map(partition_candidates, token_parts, [shared_merges] * len(token_parts), local_parts)
    found, changes, changed_by_file = _edit_step(runner, found, options.edits)
    frequent, n_candidates = _frequent_candidates(runner, found, candidate_min_papers(min_occurrences,
                                                                                       options.ranking))
    vocabulary = frequent["term"].to_numpy().astype(str).astype(object)
    # Each partition's candidates give way to its binary papers x frequent candidates matrix: the
    # rare candidates (most of them) leave memory here, not at the end of the stage.
    columns = runner.map(partition_columns, found, [runner.share(vocabulary)] * len(found))
    del found
    gram = _summed_gram(runner, columns)
    selection = select_from_gram(gram, vocabulary, min_occurrences=min_occurrences,
                                 relevant_share=options.relevant_share, seed=options.seed, ranking=options.ranking,
                                 n_tokens=n_tokens or int(frequent["n_papers"].sum()),
                                 generic_terms=options.generic_terms, occurrences=frequent["occurrences"].to_numpy())
    papers_per_term = np.asarray(gram.diagonal()).ravel()
    kept_terms = _term_rows(vocabulary, papers_per_term, selection, selection.kept)
    kept = selection.kept
    drawn = map_network(kept_terms, gram[kept][:, kept], min_pair_papers=options.min_pair_papers, seed=options.seed,
                        resolution=options.resolution)
    message = ""
    if drawn.terms.empty:
        message = f"no term occurs in at least {min_occurrences} abstracts"
    elif not drawn.graph.number_of_edges():
        message = (f"no pair of terms shares at least {drawn.min_pair_papers} abstracts, so the network has no "
                   "links")
    shown_terms = (drawn.terms if len(drawn.terms) else kept_terms)["term"].to_numpy().astype(object)
    paper_terms = _paper_terms(runner, columns, pd.Index(vocabulary).get_indexer(shown_terms))
    kept_set = set(selection.kept.tolist())
    below = [c for c in selection.ranked if c not in kept_set][:BELOW_CUT_ROWS]
    settings = CooccurrenceSettings(
        min_occurrences=min_occurrences, relevant_share=options.relevant_share,
        min_pair_papers=drawn.min_pair_papers, louvain_seed=options.seed, resolution=options.resolution,
        n_papers=n_papers, n_candidates=int(n_candidates), n_eligible=selection.n_eligible,
        relevance_smoothing=RELEVANCE_SMOOTHING, relevance_topics=RELEVANCE_TOPICS, max_map_terms=MAX_MAP_TERMS,
        max_term_words=MAX_TERM_WORDS, max_links_per_term=MAX_LINKS_PER_TERM, ranking=options.ranking,
        n_tokens=n_tokens, n_generic=int(len(selection.generic)), n_nested=len(selection.nested))
    return CooccurrenceResult(
        terms=drawn.terms, pairs=drawn.pairs, graph=drawn.graph,
        communities=community_table(drawn.terms, drawn.pairs, paper_terms),
        acronyms=_kept_acronyms(acronyms, options.edits),
        merges=_with_nested(merge_table(acronyms, local_merges, thesaurus), selection.nested), paper_terms=paper_terms,
        paper_ids=paper_ids, modularity=drawn.modularity, message=message, settings=settings,
        below_cut=_term_rows(vocabulary, papers_per_term, selection, below),
        left_out=_left_out(built_in, vocabulary, papers_per_term, selection.generic),
        vocabulary_changes=changes, vocabulary_changed=changed_by_file,
    )


#: The abstracts of :func:`example_term_map`: heat stress, feed intake and broilers, in three abstracts.
EXAMPLE_ABSTRACTS = {"p1": "Heat stress lowers feed intake.", "p2": "Heat stress and feed intake in broilers.",
                     "p3": "Broilers under heat stress."}


def example_term_map() -> CooccurrenceResult:
    """The term map of three short abstracts (:data:`EXAMPLE_ABSTRACTS`), for examples and quick checks.

    Returns
    -------
    CooccurrenceResult
        Three terms (``broiler``, ``feed intake``, ``heat stress``, each in at least two abstracts) and the two
        pairs that share two abstracts drawn as links.

    Examples
    --------
    >>> result = example_term_map()
    >>> result.terms[["term", "n_papers"]].values.tolist()
    [['broiler', 2], ['feed intake', 2], ['heat stress', 3]]
    >>> sorted(result.graph.edges)
    [('broiler', 'heat stress'), ('feed intake', 'heat stress')]
    """
    raw = pd.Series(EXAMPLE_ABSTRACTS)
    return analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(min_occurrences=2))


def _acronym_step(runner: PartitionRunner, text_parts: Sequence[Any], bounds: np.ndarray, thesaurus: dict[str, str]
                  ) -> tuple[pd.DataFrame, dict[str, str], pd.DataFrame, list[pd.DataFrame]]:
    """The acronyms the texts define: their table, the corpus-wide merges (with the thesaurus), the merges of
    single abstracts, and those cut by partition (rows counted from each partition's first)."""
    definitions = pd.concat([part.assign(row=part["row"] + int(first)) for part, first in
                             zip(runner.gather(runner.map(partition_definitions, text_parts)), bounds)],
                            ignore_index=True).astype({"row": "int64", "acronym": object, "long_form": object})
    corpus_merges, local_merges = acronym_merges(definitions, thesaurus)
    rows = local_merges["row"].to_numpy()
    local_parts = [local_merges[(rows >= first) & (rows < last)].assign(row=lambda t, first=first: t["row"] - first)
                   .reset_index(drop=True) for first, last in zip(bounds[:-1].tolist(), bounds[1:].tolist())]
    return acronym_table(definitions), {**corpus_merges, **thesaurus}, local_merges, local_parts


def _edit_step(runner: PartitionRunner, found: list[Any], edits: VocabularyEdits | None
               ) -> tuple[list[Any], pd.DataFrame, tuple[int, ...]]:
    """The researcher's files at the edge of the stage: each abstract's candidates edited before any sum; the
    changed terms' table and each file's count of them."""
    if edits is None or edits.empty:
        return found, pd.DataFrame(columns=CHANGE_COLUMNS), ()
    shared_edits = runner.share(edits)
    changed = sorted(set().union(*runner.gather(runner.map(partition_changed, found, [shared_edits] * len(found)))))
    changes, changed_by_file = _change_table(edits, changed), tuple(edits.changed_by_file(changed))
    return runner.map(partition_edited, found, [shared_edits] * len(found)), changes, changed_by_file


def _frequent_candidates(runner: PartitionRunner, found: list[Any], threshold: int) -> tuple[pd.DataFrame, int]:
    """The candidates' counts summed by term, of those in at least ``threshold`` abstracts (``term, n_papers,
    occurrences``, by term), and how many candidates there were."""
    pieces = runner.map(bucket_counts, found, [runner.n_buckets] * len(found))
    reduced = runner.gather([runner.submit(reduce_bucket, threshold,
                                           *(runner.submit(operator.getitem, piece, bucket) for piece in pieces))
                             for bucket in range(runner.n_buckets)])
    frequent = pd.concat([table for table, _ in reduced], ignore_index=True)
    frequent = frequent.iloc[np.argsort(frequent["term"].to_numpy().astype(str), kind="stable")]
    return frequent, sum(count for _, count in reduced)


def _summed_gram(runner: PartitionRunner, columns: list[Any]) -> sparse.csr_matrix:
    """``X.T @ X`` of the whole corpus's binary papers x frequent candidates: one running sum of the partitions'
    products per reduction bucket (worker), not one product per partition, then those sums summed."""
    sums = [runner.submit(summed_gram, *columns[start:stop])
            for start, stop in partition_bounds(len(columns), runner.n_buckets)]
    return sum_matrices(reduce_tree(runner, sum_matrices, sums))


def _paper_terms(runner: PartitionRunner, columns: list[Any], positions: np.ndarray) -> sparse.csr_matrix:
    """The binary papers x map terms matrix: the ``positions`` columns of each partition's matrix, stacked."""
    shown = runner.share(positions)
    return sparse.vstack(runner.gather(runner.map(take_columns, columns, [shown] * len(columns))),
                         format="csr").astype(np.int64)


def _term_rows(vocabulary: np.ndarray, papers_per_term: np.ndarray, selection: TermSelection,
               columns: np.ndarray | list[int]) -> pd.DataFrame:
    """``term, n_papers, relevance, score`` of the candidate ``columns``."""
    return pd.DataFrame({
        "term": vocabulary[columns].astype(str),
        "n_papers": papers_per_term[columns].astype(np.int64),
        "relevance": np.round(selection.relevance[columns], 6),
        "score": np.round(selection.score[columns], 6),
    })


def _left_out(built_in: pd.DataFrame, vocabulary: np.ndarray, papers_per_term: np.ndarray,
              generic: np.ndarray) -> pd.DataFrame:
    """``term, n_papers, rule``: the boilerplate nouns the texts use and the generic terms, most used first."""
    generic_rows = pd.DataFrame({"term": vocabulary[generic].astype(str),
                                 "n_papers": papers_per_term[generic].astype(np.int64), "rule": GENERIC_TERM})
    left_out = pd.concat([built_in.assign(rule=BUILT_IN_STOP_WORD), generic_rows], ignore_index=True)
    left_out = left_out.sort_values(["n_papers", "term"], ascending=[False, True], kind="stable")
    return left_out[LEFT_OUT_COLUMNS].reset_index(drop=True)


def _kept_acronyms(acronyms: pd.DataFrame, edits: VocabularyEdits | None) -> pd.DataFrame:
    """The acronym table without the acronyms whose long form the researcher removed (a removed term appears nowhere)."""
    if edits is None or edits.empty or not len(acronyms):
        return acronyms
    kept = [edits.apply(str(long)) is not None and edits.apply(str(short).lower()) is not None
            for short, long in zip(acronyms["acronym"], acronyms["long_form"])]
    return acronyms[kept].reset_index(drop=True)


def _change_table(vocabulary: VocabularyEdits, changed: Sequence[str]) -> pd.DataFrame:
    """``term, becomes, file`` of the changed candidate terms (``becomes`` empty: removed)."""
    rows = []
    for term in changed:
        becomes = vocabulary.apply(term)
        source = next((s.name for s in vocabulary.sources if term in s.labels), "")
        rows.append((term, becomes or "", source))
    return pd.DataFrame(rows, columns=CHANGE_COLUMNS).astype(object)


def _with_nested(merges: pd.DataFrame, nested: dict[str, str]) -> pd.DataFrame:
    """The merge table with the nested terms merged into longer ones (``source`` = ``nested``)."""
    if not nested:
        return merges
    rows = pd.DataFrame({"from": sorted(nested), "to": [nested[t] for t in sorted(nested)], "source": "nested"})
    return pd.concat([merges, rows.astype(object)], ignore_index=True)


def _check_same_papers(raw_texts: pd.Series, tokens: TokenizedCorpus) -> None:
    """Acronyms found in ``raw_texts`` row ``i`` rename terms in text ``i``: the rows must be the same papers."""
    if len(raw_texts) != len(tokens):
        raise ValueError(f"raw_texts has {len(raw_texts)} texts, analysis_texts {len(tokens)}")
    if pd.api.types.is_integer_dtype(raw_texts.index.dtype):
        return  # positions, not paper ids
    ids = raw_texts.index.astype(str)
    differ = np.flatnonzero(ids.to_numpy() != tokens.paper_ids.astype(str))
    if len(differ):
        row = int(differ[0])
        raise ValueError(f"raw_texts and analysis_texts differ in paper order: row {row} is {ids[row]}, "
                         f"not {tokens.paper_ids[row]}")
