"""Theme scores: what model selection weighs, each a thing a reader can check.

* **coherence**: mean NPMI of each theme's top 10 terms, from document
  co-occurrence in the same corpus (-1 never together, 0 independent, 1 always);
* **diversity**: share of unique terms among all themes' top 25 terms;
* **stability**: mean best-match cosine similarity of the themes of two runs
  with different seeds (1 means every seed finds the same themes).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from scipy import sparse

__all__ = ["N_COHERENCE_TERMS", "N_DIVERSITY_TERMS", "npmi_coherence", "npmi_of_counts", "topic_diversity",
           "stability"]

N_COHERENCE_TERMS = 10
N_DIVERSITY_TERMS = 25


def npmi_coherence(top_indices: list[list[int]], binary: sparse.spmatrix) -> list[float]:
    """Mean NPMI over the pairs of each theme's top terms.

    ``binary`` is the document x term presence matrix. A pair never seen
    together scores -1.

    Parameters
    ----------
    top_indices : list of list of int
        Each theme's top terms, as columns of ``binary``.
    binary : sparse matrix
        Documents x terms, presence.

    Returns
    -------
    list of float
        One coherence per theme, between -1 and 1.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1], [0, 1, 1]]))
    >>> [round(v, 3) for v in npmi_coherence([[0, 1], [0, 2]], X)]
    [0.415, -1.0]
    """
    binary = sparse.csc_matrix(binary)
    columns = _coherence_columns(top_indices)
    sub = binary[:, columns]
    return npmi_of_counts(top_indices, columns, (sub.T @ sub).toarray(), binary.shape[0])


def _coherence_columns(top_indices: list[list[int]]) -> np.ndarray:
    """The distinct term indices of ``top_indices``, sorted."""
    arrays = [np.asarray(t, dtype=np.int64) for t in top_indices] or [np.empty(0, dtype=np.int64)]
    return np.unique(np.concatenate(arrays)).astype(np.int64)


def npmi_of_counts(top_indices: list[list[int]], columns: np.ndarray, together: np.ndarray,
                   n_documents: int) -> list[float]:
    """:func:`npmi_coherence` from co-occurrence counts: ``together[i, j]`` documents hold both
    ``columns[i]`` and ``columns[j]`` (its diagonal: each term's documents); ``columns`` sorted, holding
    every index of ``top_indices``.

    Parameters
    ----------
    top_indices : list of list of int
        Each theme's top terms, as term indices.
    columns : ndarray of int
        The term indices of ``together``'s rows and columns, sorted.
    together : ndarray
        Documents holding both terms of each pair of ``columns``.
    n_documents : int
        The documents counted.

    Returns
    -------
    list of float
        As :func:`npmi_coherence`.

    Examples
    --------
    >>> together = np.array([[2, 2, 0], [2, 3, 1], [0, 1, 2]])
    >>> [round(v, 3) for v in npmi_of_counts([[0, 1], [0, 2]], np.arange(3), together, 4)]
    [0.415, -1.0]
    """
    together_all = np.asarray(together).astype(float)
    scores = []
    for indices in top_indices:
        if len(indices) < 2:
            scores.append(0.0)
            continue
        local = np.searchsorted(columns, np.asarray(indices, dtype=np.int64))
        together = together_all[np.ix_(local, local)]
        p_single = np.diag(together) / n_documents
        first, second = np.triu_indices(len(indices), 1)
        p_joint = together[first, second] / n_documents
        inside = (p_joint > 0) & (p_joint < 1)
        safe = np.where(inside, p_joint, 0.5)
        with np.errstate(divide="ignore", invalid="ignore"):  # pairs outside (0, 1) are replaced below
            npmi = np.log(safe / (p_single[first] * p_single[second])) / -np.log(safe)
        values = np.where(p_joint == 0, -1.0, np.where(p_joint == 1, 1.0, npmi))
        scores.append(float(np.mean(values)))
    return scores


def topic_diversity(top_terms: list[list[str]]) -> float:
    """Share of unique terms among all themes' top terms.

    Parameters
    ----------
    top_terms : list of list of str
        Each theme's top terms.

    Returns
    -------
    float
        Between 0 (every theme the same terms) and 1 (no term shared).

    Examples
    --------
    >>> topic_diversity([["a", "b"], ["b", "c"]])
    0.75
    """
    all_terms = [t for terms in top_terms for t in terms]
    return len(set(all_terms)) / len(all_terms) if all_terms else 0.0


def _cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    return a @ b.T


def stability(components: list[np.ndarray]) -> float:
    """Mean best-match cosine similarity of themes over all pairs of runs (Hungarian matching).

    Parameters
    ----------
    components : list of ndarray
        Each run's themes x terms weights, one array per seed.

    Returns
    -------
    float
        Between 0 and 1 (1 with a single run).

    Examples
    --------
    >>> run = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> stability([run, run[::-1]])
    1.0
    """
    from scipy.optimize import linear_sum_assignment  # lazy: slow to import

    values = []
    for first, second in combinations(components, 2):
        similarity = _cosine_rows(first, second)
        rows, cols = linear_sum_assignment(-similarity)
        values.append(float(similarity[rows, cols].mean()))
    return float(np.mean(values)) if values else 1.0


def _top(component: np.ndarray, n: int) -> list[int]:
    """Indices of the ``n`` largest weights, equal weights in vocabulary order (determinism).

    The same as ``np.argsort(-component, kind="stable")[:n]``, sorting only the weights
    that reach the n-th largest.

    Examples
    --------
    >>> _top(np.array([0.1, 0.5, 0.5, 0.0, 0.9]), 3)
    [4, 1, 2]
    """
    if n >= len(component):
        return [int(i) for i in np.argsort(-component, kind="stable")[:n]]
    threshold = np.partition(component, len(component) - n)[len(component) - n]
    candidates = np.flatnonzero(component >= threshold)
    order = np.argsort(-component[candidates], kind="stable")[:n]
    return [int(i) for i in candidates[order]]


def _scores(components: np.ndarray, vocabulary: np.ndarray, binary: sparse.spmatrix) -> tuple[list[float], float]:
    """Per-theme NPMI coherence and the diversity of a set of themes."""
    coherence = npmi_coherence([_top(c, N_COHERENCE_TERMS) for c in components], binary)
    diversity = topic_diversity([[vocabulary[i] for i in _top(c, N_DIVERSITY_TERMS)] for c in components])
    return coherence, diversity
