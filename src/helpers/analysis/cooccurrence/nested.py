"""Nested terms: a term that is a run of a longer term's words, and the longer term it merges into.

:func:`contained_pairs` finds the pairs; :func:`nested_merges` folds a term into the longer term that holds at
least :data:`NESTED_SHARE` of its abstracts; ``_nested_terms_of_gram`` finds the terms that never occur
outside one longer term (:func:`helpers.analysis.cooccurrence.selection.select_terms` uses both).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

__all__ = ["NESTED_SHARE", "contained_pairs", "nested_merges", "nested_merges_of_gram"]

#: A term merges into a longer eligible term that holds at least this share of its abstracts.
NESTED_SHARE = 0.5


def _pair_values(gram: sparse.csr_matrix, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``gram[rows[i], columns[i]]`` for every ``i``."""
    if not len(rows):
        return np.zeros(0, dtype=gram.dtype)
    return np.asarray(gram[rows, columns]).ravel()


def contained_pairs(terms: np.ndarray) -> list[tuple[int, int]]:
    """``(shorter, longer)`` positions of every pair of ``terms`` where one is a run of the other's words.

    Parameters
    ----------
    terms : ndarray of str
        The terms.

    Returns
    -------
    list of tuple of int

    Examples
    --------
    >>> contained_pairs(np.array(["network", "neural network", "graph", "deep neural network"]))
    [(0, 1), (0, 3), (1, 3)]
    """
    index = {str(term): position for position, term in enumerate(terms)}
    pairs: set[tuple[int, int]] = set()
    for long_position, term in enumerate(terms):
        words = str(term).split()
        for length in range(1, len(words)):
            for start in range(len(words) - length + 1):
                short = index.get(" ".join(words[start:start + length]))
                if short is not None:
                    pairs.add((short, long_position))
    return sorted(pairs)


def nested_merges(terms: np.ndarray, binary: sparse.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """Terms that mostly occur inside one longer term: ``(positions, positions of the longer term)``.

    A term merges into the longer term (one that contains it as a run of words)
    that shares the most of its abstracts, when that is at least
    :data:`NESTED_SHARE` of them (ties: the more frequent, then alphabetically
    first longer term).

    Parameters
    ----------
    terms : ndarray of str
        The terms, in column order.
    binary : scipy.sparse.csr_matrix
        Binary papers x terms.

    Returns
    -------
    ndarray of int, ndarray of int

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [1, 0, 1], [0, 0, 1]]))
    >>> nested_merges(np.array(["language model", "large language model", "graph"]), X)
    (array([0]), array([1]))
    """
    binary = sparse.csr_matrix(binary, dtype=np.int64)
    return nested_merges_of_gram(terms, (binary.T @ binary).tocsr())


def nested_merges_of_gram(terms: np.ndarray, gram: sparse.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """:func:`nested_merges` from ``gram = X.T @ X`` of the binary papers x terms matrix ``X``.

    Parameters
    ----------
    terms : ndarray of str
        The terms, in row order.
    gram : scipy.sparse.csr_matrix
        ``X.T @ X`` (the diagonal: each term's abstracts).

    Returns
    -------
    ndarray of int, ndarray of int

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1], [1, 1], [1, 0]]))
    >>> nested_merges_of_gram(np.array(["heat stress", "acute heat stress"]), (X.T @ X).tocsr())
    (array([0]), array([1]))
    """
    pairs = contained_pairs(terms)
    if not pairs:
        empty = np.array([], dtype=np.int64)
        return empty, empty
    short, long = (np.array(side, dtype=np.int64) for side in zip(*pairs))
    gram = sparse.csr_matrix(gram)
    papers = np.asarray(gram.diagonal()).ravel()
    both = _pair_values(gram, short, long)
    share = both / np.maximum(papers[short], 1)
    names = np.asarray(terms).astype(str)
    order = np.lexsort((names[long], -papers[long], -both, short))
    short, long, share = short[order], long[order], share[order]
    first = np.r_[True, short[1:] != short[:-1]]
    merge = first & (share >= NESTED_SHARE)
    return short[merge], long[merge]


def _nested_terms_of_gram(vocabulary: np.ndarray, gram: sparse.csr_matrix) -> np.ndarray:
    """Positions of terms that only ever occur inside one longer term (``tangent`` in ``tangent kernel``).

    ``gram = X.T @ X`` of the binary papers x terms matrix ``X``. Such a term occurs in exactly the papers of
    the longer term, so it adds nothing to the map. Every (shorter, longer) pair is tested at once: same
    number of papers, and as many papers holding both.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 1], [1, 0, 0], [0, 1, 1]]))
    >>> _nested_terms_of_gram(np.array(["graph", "kernel", "tangent kernel"]), (X.T @ X).tocsr()).tolist()
    [1]
    """
    pairs = contained_pairs(vocabulary)
    short_columns, long_columns = (np.array([pair[side] for pair in pairs], dtype=np.int64) for side in (0, 1))
    papers = np.asarray(gram.diagonal()).ravel()
    same = papers[short_columns] == papers[long_columns]
    short_columns, long_columns = short_columns[same], long_columns[same]
    if not len(short_columns):
        return np.array([], dtype=int)
    both = _pair_values(gram, short_columns, long_columns)
    return np.unique(short_columns[both == papers[short_columns]]).astype(int)
