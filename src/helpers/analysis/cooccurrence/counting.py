"""The term map's counts, partition by partition: what each partition counts and how the counts are reduced.

:func:`helpers.analysis.cooccurrence.analyse.analyse_partitions` runs these steps on a
:class:`helpers.analysis._parallel.PartitionRunner`, so the local engine and a Dask cluster count
the same way and no step needs every abstract's tokens in one process:

1. :func:`partition_definitions`: the acronyms each partition's abstracts define (a few rows per abstract);
2. :func:`partition_candidates`: each partition's candidate terms (:func:`candidate_term_matrix`),
   kept where they were counted;
3. :func:`bucket_counts`, then :func:`reduce_bucket`: the candidates' abstracts and occurrences,
   summed over the partitions by term, each bucket of terms on its own reducer; only the candidates
   frequent enough for the map (:func:`helpers.analysis.cooccurrence.selection.candidate_min_papers`)
   come back;
4. :func:`partition_columns`: each partition's binary papers x frequent candidates matrix ``X_p``,
   which replaces its candidates (most candidates are rare, so ``X_p`` is a fraction of their size);
5. :func:`summed_gram`: the partitions' ``X_p.T @ X_p`` (:func:`column_gram`) as one running sum per
   reduction bucket (one per worker), then those sums summed (:func:`sum_matrices`): the selection and
   the pairs need nothing else (:func:`helpers.analysis.cooccurrence.selection.select_from_gram`);
6. :func:`take_columns`: each partition's papers x map terms matrix (a few hundred columns of ``X_p``).

Counts are integers, so the sums are exact whatever the partitions: the results are the same as
counting the corpus in one piece (a tested equivalence).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence.acronyms import acronym_definitions
from helpers.analysis.cooccurrence.candidates import candidate_term_matrix
from helpers.analysis.text.tokens import TokenizedCorpus
from helpers.analysis.text.vocabulary import VocabularyEdits

__all__ = ["PartitionCandidates", "partition_definitions", "partition_candidates", "bucket_counts",
           "reduce_bucket", "partition_columns", "column_gram", "summed_gram", "take_columns", "sum_matrices",
           "partition_summary", "partition_edited", "partition_changed"]

COUNT_COLUMNS = ["term", "n_papers", "occurrences"]


@dataclass(frozen=True)
class PartitionCandidates:
    """One partition's candidate terms.

    Attributes
    ----------
    counts : csr_matrix of int64
        The partition's texts x ``terms``: occurrences of each term in each text.
    terms : ndarray of str
        The terms the partition's texts hold, sorted.

    Examples
    --------
    >>> found = PartitionCandidates(sparse.csr_matrix(np.array([[2, 1]])), np.array(["broiler", "feed"], dtype=object))
    >>> found.counts.toarray().tolist(), found.terms.tolist()
    ([[2, 1]], ['broiler', 'feed'])
    """

    counts: sparse.csr_matrix
    terms: np.ndarray


def partition_summary(tokens: TokenizedCorpus) -> tuple[list[str], int]:
    """The partition's paper ids and its number of words (boundaries left out).

    Parameters
    ----------
    tokens : TokenizedCorpus
        One partition's tokens.

    Returns
    -------
    list of str, int

    Examples
    --------
    >>> from helpers.analysis.text.tokens import tokenize_corpus
    >>> partition_summary(tokenize_corpus(["heat stress", "feed intake of broilers"], ["a", "b"]))
    (['a', 'b'], 6)
    """
    return [str(p) for p in tokens.paper_ids], int(np.count_nonzero(tokens.token_ids))


def partition_definitions(texts: list[str] | pd.Series) -> pd.DataFrame:
    """:func:`helpers.analysis.cooccurrence.acronyms.acronym_definitions` of one partition's stored texts
    (``row`` counts from the partition's first text).

    Parameters
    ----------
    texts : list of str or Series
        The partition's abstracts as written.

    Returns
    -------
    DataFrame
        ``row, acronym, long_form``.

    Examples
    --------
    >>> partition_definitions(["Feed intake.", "Heat stress (HS) in broilers."]).values.tolist()
    [[1, 'hs', 'heat stress']]
    """
    return acronym_definitions(list(texts))


def partition_candidates(tokens: TokenizedCorpus, merges: dict[str, str],
                         paper_merges: pd.DataFrame) -> PartitionCandidates:
    """One partition's :func:`candidate_term_matrix` (occurrences), with the merges of its own rows.

    Parameters
    ----------
    tokens : TokenizedCorpus
        One partition's tokens.
    merges : dict of str to str
        The merges of every abstract (the thesaurus and the corpus-wide acronyms).
    paper_merges : DataFrame
        ``row, from, to``: the acronyms of single abstracts, rows counted from the partition's first.

    Returns
    -------
    PartitionCandidates
        Occurrences, not only presence: the burstiness of a term needs them.

    Examples
    --------
    >>> from helpers.analysis.text.tokens import tokenize_corpus
    >>> none = pd.DataFrame(columns=["row", "from", "to"])
    >>> found = partition_candidates(tokenize_corpus(["graph kernels", "a graph"], ["a", "b"]), {}, none)
    >>> found.terms.tolist(), found.counts.toarray().tolist()
    (['graph', 'graph kernel', 'kernel'], [[0, 1, 1], [1, 0, 0]])
    """
    counts, terms = candidate_term_matrix(tokens, merges, paper_merges=paper_merges, counts=True)
    return PartitionCandidates(counts, terms)


def _bucket_of(terms: np.ndarray, n_buckets: int) -> np.ndarray:
    """A bucket for each term, the same in every process (a fixed-key hash of the text)."""
    if n_buckets == 1:
        return np.zeros(len(terms), dtype=np.int64)
    hashes = pd.util.hash_array(np.asarray(terms, dtype=object))
    return (hashes % np.uint64(n_buckets)).astype(np.int64)


def bucket_counts(found: PartitionCandidates, n_buckets: int) -> list[pd.DataFrame]:
    """The partition's ``term, n_papers, occurrences``, cut into ``n_buckets`` by term (hash).

    Parameters
    ----------
    found : PartitionCandidates
        The partition's candidates.
    n_buckets : int
        How many reducers share the terms.

    Returns
    -------
    list of DataFrame
        One table a bucket.

    Examples
    --------
    >>> found = PartitionCandidates(sparse.csr_matrix(np.array([[2, 1], [1, 0]])), np.array(["a", "b"], dtype=object))
    >>> bucket_counts(found, 1)[0].values.tolist()
    [['a', 2, 3], ['b', 1, 1]]
    """
    table = pd.DataFrame({
        "term": found.terms.astype(object),
        "n_papers": found.counts.getnnz(axis=0).astype(np.int64),
        "occurrences": np.asarray(found.counts.sum(axis=0)).ravel().astype(np.int64),
    })
    if n_buckets == 1:
        return [table]
    bucket = _bucket_of(found.terms, n_buckets)
    return [table[bucket == b].reset_index(drop=True) for b in range(n_buckets)]


def reduce_bucket(min_papers: int, *parts: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """One bucket's counts summed over the partitions: the terms in ``min_papers`` abstracts or more
    (sorted), and how many distinct terms the bucket holds.

    Parameters
    ----------
    min_papers : int
        The fewest abstracts a term needs to come back.
    *parts : DataFrame
        The bucket's ``term, n_papers, occurrences`` of each partition (:func:`bucket_counts`).

    Returns
    -------
    DataFrame, int

    Examples
    --------
    >>> one = pd.DataFrame({"term": ["a", "b"], "n_papers": [2, 1], "occurrences": [3, 1]})
    >>> two = pd.DataFrame({"term": ["b"], "n_papers": [1], "occurrences": [2]})
    >>> frequent, n_terms = reduce_bucket(2, one, two)
    >>> frequent.values.tolist(), n_terms
    ([['a', 2, 3], ['b', 2, 3]], 2)
    """
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=COUNT_COLUMNS)
    summed = table.groupby("term", sort=False)[["n_papers", "occurrences"]].sum()
    frequent = summed[summed["n_papers"] >= min_papers]
    frequent = frequent.reset_index().astype({"term": object, "n_papers": np.int64, "occurrences": np.int64})
    order = np.argsort(frequent["term"].to_numpy().astype(str), kind="stable")
    return frequent.iloc[order].reset_index(drop=True)[COUNT_COLUMNS], int(len(summed))


def _binary_columns(found: PartitionCandidates, terms: pd.Index) -> sparse.csr_matrix:
    """The partition's binary texts x ``terms`` matrix (a term it lacks: an empty column)."""
    position = terms.get_indexer(found.terms.astype(object))
    present = np.flatnonzero(position >= 0)
    selected = found.counts[:, present].tocoo()
    return sparse.csr_matrix((np.ones(len(selected.data), dtype=np.int64),
                              (selected.row, position[present][selected.col])),
                             shape=(found.counts.shape[0], len(terms)))


def partition_columns(found: PartitionCandidates, terms: np.ndarray) -> sparse.csr_matrix:
    """The partition's binary texts x ``terms`` matrix, columns in the order of ``terms`` (a term it lacks:
    an empty column).

    Parameters
    ----------
    found : PartitionCandidates
        The partition's candidates.
    terms : ndarray of str
        The frequent candidates of the whole corpus.

    Returns
    -------
    scipy.sparse.csr_matrix

    Examples
    --------
    >>> found = PartitionCandidates(sparse.csr_matrix(np.array([[2, 1], [1, 0]])), np.array(["a", "b"], dtype=object))
    >>> partition_columns(found, np.array(["b", "a", "c"], dtype=object)).toarray().tolist()
    [[1, 1, 0], [0, 1, 0]]
    """
    binary = _binary_columns(found, pd.Index(np.asarray(terms, dtype=object)))
    binary.sort_indices()
    return binary


def column_gram(columns: sparse.csr_matrix) -> sparse.csr_matrix:
    """``X_p.T @ X_p`` of a partition's binary papers x terms matrix (:func:`partition_columns`).

    Parameters
    ----------
    columns : scipy.sparse.csr_matrix
        A partition's binary papers x terms matrix.

    Returns
    -------
    scipy.sparse.csr_matrix
        Terms x terms: the abstracts holding both.

    Examples
    --------
    >>> column_gram(sparse.csr_matrix(np.array([[1, 1], [0, 1]]))).toarray().tolist()
    [[1, 1], [1, 2]]
    """
    return (columns.T @ columns).tocsr()


def summed_gram(*columns: sparse.csr_matrix) -> sparse.csr_matrix:
    """The sum of :func:`column_gram` over partitions' matrices, one product at a time, so at most the running
    sum and one partition's product are in memory (not one product per partition), in canonical form.

    Parameters
    ----------
    *columns : scipy.sparse.csr_matrix
        Partitions' binary papers x terms matrices, with the same columns.

    Returns
    -------
    scipy.sparse.csr_matrix

    Examples
    --------
    >>> parts = [sparse.csr_matrix(np.array([[1, 1], [0, 1]])), sparse.csr_matrix(np.array([[1, 0]]))]
    >>> summed_gram(*parts).toarray().tolist()
    [[2, 1], [1, 2]]
    """
    total = column_gram(columns[0])
    for matrix in columns[1:]:
        total = total + column_gram(matrix)
    return sum_matrices(total)


def take_columns(columns: sparse.csr_matrix, positions: np.ndarray) -> sparse.csr_matrix:
    """The ``positions`` columns of a partition's papers x terms matrix, in that order (sorted indices).

    Parameters
    ----------
    columns : scipy.sparse.csr_matrix
        A partition's papers x terms matrix.
    positions : ndarray of int
        The columns to take, in the order wanted.

    Returns
    -------
    scipy.sparse.csr_matrix

    Examples
    --------
    >>> take_columns(sparse.csr_matrix(np.array([[1, 0, 1], [0, 1, 0]])), np.array([2, 0])).toarray().tolist()
    [[1, 1], [0, 0]]
    """
    taken = sparse.csr_matrix(columns[:, np.asarray(positions, dtype=np.int64)])
    taken.sort_indices()
    return taken


def sum_matrices(*matrices: sparse.csr_matrix) -> sparse.csr_matrix:
    """The sum of sparse matrices of one shape, in canonical form (sorted indices, no duplicates).

    Parameters
    ----------
    *matrices : scipy.sparse matrix
        At least one matrix; all of one shape.

    Returns
    -------
    scipy.sparse.csr_matrix

    Examples
    --------
    >>> sum_matrices(sparse.csr_matrix([[1, 0]]), sparse.csr_matrix([[2, 3]])).toarray().tolist()
    [[3, 3]]
    """
    total = matrices[0].copy().tocsr()
    for matrix in matrices[1:]:
        total = total + matrix
    total = sparse.csr_matrix(total)
    total.sum_duplicates()
    total.sort_indices()
    return total


def partition_edited(found: PartitionCandidates, edits: VocabularyEdits) -> PartitionCandidates:
    """One partition's candidates with the researcher's thesaurus and stop terms applied
    (:meth:`helpers.analysis.text.vocabulary.VocabularyEdits.edit_columns`: removed terms dropped, merged terms summed).

    Parameters
    ----------
    found : PartitionCandidates
        The partition's candidates.
    edits : VocabularyEdits
        The researcher's thesaurus and stop terms.

    Returns
    -------
    PartitionCandidates

    Examples
    --------
    >>> found = PartitionCandidates(sparse.csr_matrix(np.array([[2, 1, 1]])), np.array(["a", "b", "c"], dtype=object))
    >>> edited = partition_edited(found, VocabularyEdits(frozenset({"c"}), {"a": "b"}))
    >>> edited.terms.tolist(), edited.counts.toarray().tolist()
    (['b'], [[3]])
    """
    counts, terms = edits.edit_columns(found.counts, found.terms)
    return PartitionCandidates(counts.astype(found.counts.dtype), terms)


def partition_changed(found: PartitionCandidates, edits: VocabularyEdits) -> list[str]:
    """The partition's candidate terms the edits remove or replace (sorted).

    Parameters
    ----------
    found : PartitionCandidates
        The partition's candidates (:func:`partition_candidates`).
    edits : VocabularyEdits
        The researcher's thesaurus and stop terms.

    Returns
    -------
    list of str

    Examples
    --------
    >>> found = PartitionCandidates(sparse.csr_matrix(np.array([[2, 1, 1]])), np.array(["a", "b", "c"], dtype=object))
    >>> partition_changed(found, VocabularyEdits(frozenset({"c"}), {"a": "b"}))
    ['a', 'c']
    """
    return list(edits.changed(found.terms.astype(str).tolist()))
