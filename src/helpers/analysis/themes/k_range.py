"""The candidate numbers of themes: the range searched, the range extended when the best is at its top, and the
size a theme must reach to compete.

The selection (:mod:`helpers.analysis.themes.selection`) fits and scores these candidates; the rules for which
ones it searches, and for how small a theme may be, are kept apart here so the page and the benchmarks can state
them without fitting anything.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["MAX_CANDIDATES", "MIN_THEME_PAPERS", "MIN_THEME_SHARE", "min_theme_papers", "theme_sizes", "more_ks",
           "k_at_top", "candidate_ks"]

#: The most candidate numbers of themes searched at first.
MAX_CANDIDATES = 10
#: No theme may hold fewer papers than this ...
MIN_THEME_PAPERS = 5
#: ... or than this share of the papers (:func:`min_theme_papers`).
MIN_THEME_SHARE = 0.01


def min_theme_papers(n_documents: int) -> int:
    """The fewest papers a theme may hold: ``max(5, ceil(1% of the papers))``.

    Parameters
    ----------
    n_documents : int
        The corpus's abstracts.

    Returns
    -------
    int
        The size floor of a theme.

    Examples
    --------
    >>> [min_theme_papers(n) for n in (57, 497, 501, 10_000)]
    [5, 5, 6, 100]
    """
    return max(MIN_THEME_PAPERS, math.ceil(round(MIN_THEME_SHARE * n_documents, 9)))


def theme_sizes(document_weights: np.ndarray) -> np.ndarray:
    """Papers per theme: each paper in its strongest theme (ties to the first), a paper without weight in none.

    Parameters
    ----------
    document_weights : ndarray
        Papers x themes weights.

    Returns
    -------
    ndarray
        The papers of each theme.

    Examples
    --------
    >>> theme_sizes(np.array([[0.9, 0.1, 0.0], [0.2, 0.8, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 0.0]])).tolist()
    [2, 1, 0]
    """
    weights = np.asarray(document_weights, dtype=np.float64)
    k = weights.shape[1]
    assigned = weights.sum(axis=1) > 0
    return np.bincount(weights[assigned].argmax(axis=1), minlength=k)[:k]


def more_ks(ks: list[int], n_documents: int, n_terms: int) -> list[int]:
    """The candidates above ``ks`` searched when the rule's best is their largest: up to half of
    :data:`MAX_CANDIDATES` more at the same step, no more themes than the size floor allows
    (``n_documents // min_theme_papers``) nor than terms.

    Parameters
    ----------
    ks : list of int
        The candidates searched, ascending.
    n_documents, n_terms : int
        The corpus's abstracts and terms.

    Returns
    -------
    list of int
        The further candidates (none when the floor or the terms allow none).

    Examples
    --------
    >>> more_ks([3, 6, 9, 12, 15, 18, 21, 24, 27, 30], 5000, 4000)
    [33, 36, 39, 42, 45]
    >>> more_ks([3, 5, 6, 8, 10, 11, 13, 15, 16, 18], 128, 900), more_ks([3, 4, 5], 20, 100)
    ([20, 22, 24], [])
    """
    step = max(1, ks[-1] - ks[-2]) if len(ks) > 1 else 1
    largest = min(n_documents // min_theme_papers(n_documents), n_terms)
    return [k for k in range(ks[-1] + step, ks[-1] + step * (MAX_CANDIDATES // 2) + 1, step) if k <= largest]


def k_at_top(ks: list[int], chosen_k: int, k_given: bool) -> bool:
    """Whether the chosen number of themes is the largest of several candidates searched, so the rule's best
    may lie beyond the range (never for a given ``k``).

    Parameters
    ----------
    ks : list of int
        The candidates searched.
    chosen_k : int
        The number of themes fitted.
    k_given : bool
        Whether the researcher gave it.

    Returns
    -------
    bool
        Whether the page must not call ``chosen_k`` chosen.

    Examples
    --------
    >>> k_at_top([3, 6, 9], 9, False), k_at_top([3, 6, 9], 6, False), k_at_top([9], 9, True)
    (True, False, False)
    """
    return not k_given and len(ks) > 1 and chosen_k == max(ks)


def candidate_ks(n_documents: int) -> list[int]:
    """Candidate numbers of themes for a corpus size, at most :data:`MAX_CANDIDATES` values.

    From 2 (3 for 40 abstracts or more) to ``1.6 * sqrt(n)``, capped at 30 and
    at a fifth of the corpus.

    Parameters
    ----------
    n_documents : int
        The number of abstracts the themes are fitted on.

    Returns
    -------
    list of int
        The candidates, ascending.

    Examples
    --------
    >>> candidate_ks(57)
    [3, 4, 5, 6, 7, 8, 9, 10, 11]
    >>> candidate_ks(20)
    [2, 3, 4]
    >>> candidate_ks(100_000)
    [3, 6, 9, 12, 15, 18, 21, 24, 27, 30]
    """
    k_min = 3 if n_documents >= 40 else 2
    k_max = int(min(30, 1.6 * math.sqrt(n_documents), max(n_documents // 5, k_min + 1)))
    k_max = max(k_max, k_min + 1)
    values = np.unique(np.round(np.linspace(k_min, k_max, min(MAX_CANDIDATES, k_max - k_min + 1))).astype(int))
    return [int(v) for v in values]
