"""Pairs of kept terms: how many abstracts each pair shares, and VOSviewer's association strength.

Every count comes from one sparse product ``X.T @ X`` of the binary papers x terms matrix (or a sum of the
partitions' products), so no Python loop runs over pairs and the table is the same however the corpus was cut.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence.nested import contained_pairs

#: The columns of :func:`pair_table`.
PAIR_COLUMNS = ["source", "target", "n_papers", "association_strength", "jaccard"]


def pair_table(binary: sparse.csr_matrix, terms: list[str]) -> pd.DataFrame:
    """Every unordered pair of terms that share at least one paper, except where one term contains the other.

    Columns ``source, target`` (alphabetical within the pair), ``n_papers``
    (papers with both), ``association_strength`` (VOSviewer's normalisation
    ``2 m c_ij / (k_i k_j)``, with ``k_i`` the total co-occurrences of term i
    and ``m`` the total over all pairs) and ``jaccard`` (``c_ij / (c_i + c_j -
    c_ij)`` with ``c_i`` the papers of term i). No Python loop over pairs. A term
    and a longer term that contains it (``network``, ``neural network``) are no
    pair: they co-occur by construction, and their co-occurrence counts in no
    ``k_i`` or ``m``.

    Parameters
    ----------
    binary : scipy.sparse.csr_matrix
        Binary papers x terms.
    terms : list of str
        The terms, in column order.

    Returns
    -------
    DataFrame
        One row per pair, by ``source`` then ``target``.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]]))
    >>> pair_table(X, ["a", "b", "c"])
      source target  n_papers  association_strength   jaccard
    0      a      b         2              1.666667  0.666667
    1      a      c         1              1.111111  0.333333
    2      b      c         2              1.666667  0.666667
    """
    binary = sparse.csr_matrix(binary, dtype=np.int64)
    return pair_table_of_gram((binary.T @ binary).tocsr(), terms)


def pair_table_of_gram(gram: sparse.csr_matrix, terms: list[str], *, skip_contained: bool = True) -> pd.DataFrame:
    """:func:`pair_table` from ``gram = X.T @ X`` of the binary papers x terms matrix ``X`` (a sum of the
    partitions' products: no per-paper data needed). ``skip_contained=False`` keeps a term and a longer term
    containing it as a pair (authors' keywords: a paper gives both by choice, not by construction).

    Parameters
    ----------
    gram : scipy.sparse.csr_matrix
        Terms x terms: the abstracts holding both (the diagonal: each term's abstracts).
    terms : list of str
        The terms, in row order.
    skip_contained : bool
        Leave out a term and a longer term that contains it.

    Returns
    -------
    DataFrame
        ``source, target, n_papers, association_strength, jaccard``, by ``source`` then ``target``.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1], [1, 1], [0, 1]]))
    >>> pair_table_of_gram((X.T @ X).tocsr(), ["broiler", "broiler house"], skip_contained=False).values.tolist()
    [['broiler', 'broiler house', 2, 2.0, 0.666667]]
    >>> len(pair_table_of_gram((X.T @ X).tocsr(), ["broiler", "broiler house"]))
    0
    """
    together = sparse.csr_matrix(gram, dtype=np.int64)
    papers_per_term = np.asarray(together.diagonal()).ravel()
    nested = contained_pairs(np.asarray(terms, dtype=object)) if skip_contained else []
    if nested:  # one term inside the other ("language model", "large language model") is no pair
        rows, columns = (np.array(side, dtype=np.int64) for side in zip(*nested))
        mask = sparse.csr_matrix((np.ones(2 * len(rows)), (np.r_[rows, columns], np.r_[columns, rows])),
                                 shape=together.shape)
        together = (together - together.multiply(mask)).tocsr()
        together.eliminate_zeros()
    upper = sparse.triu(together, k=1).tocoo()
    c_ij = upper.data.astype(float)
    link_strength = np.asarray(together.sum(axis=1)).ravel() - papers_per_term
    m = c_ij.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        strength = 2 * m * c_ij / (link_strength[upper.row] * link_strength[upper.col])
    jaccard = c_ij / (papers_per_term[upper.row] + papers_per_term[upper.col] - c_ij)
    names = np.asarray(terms, dtype=object)
    first, second = names[upper.row], names[upper.col]
    swap = first > second
    source = np.where(swap, second, first)
    target = np.where(swap, first, second)
    table = pd.DataFrame({
        "source": source.astype(str), "target": target.astype(str), "n_papers": upper.data.astype(np.int64),
        "association_strength": np.round(strength, 6), "jaccard": np.round(jaccard, 6),
    })
    return table.sort_values(["source", "target"], ignore_index=True)
