"""Two grains of themes: the fine themes grouped into a few broad themes, and each paper's top two themes.

The hierarchy (:data:`HIERARCHY_RULE`):

1. Each theme's *term profile* is the term map's terms in its papers, each paper counted by its share of the
   theme (papers x terms, binary, weighted by the papers' theme weights), as shares of the profile's total
   (:func:`theme_profiles`). A theme's profile holds every term of its papers, not only its own top terms,
   so themes that share vocabulary (``language model`` and ``diffusion model`` papers both say
   ``generative``) are near; the themes' own top terms hardly overlap (NMF keeps them apart).
2. The profiles, scaled to unit length, are joined by a Ward tree (scipy): between unit vectors the
   Euclidean distance is ``sqrt(2 * cosine distance)``, so the nearest themes by cosine join first, and
   Ward's rule keeps the groups of comparable size where average linkage leaves outlying themes alone
   beside one group of all the others. The tree is cut into :func:`n_broad_themes` groups: the rounded
   square root of the number of themes, at least 2 and at most the number of themes (:func:`broad_groups`).
3. Broad themes are lettered ``A, B, ...`` by their papers (most first; ties to the group holding the
   lowest theme number); each is named so that its label describes every one of its themes (:func:`~helpers.analysis.themes.broad_labels.broad_labels`,
   :data:`~helpers.analysis.themes.broad_labels.BROAD_LABEL_RULE`): a term for each theme, a term shared by several themes covering them all at once.

A paper's broad theme is the broad theme of its strongest theme, so the two grains nest: every paper of
a theme is in that theme's broad theme. A paper is *mixed* when its strongest theme holds less than half
of its theme weight (:func:`paper_grains`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Collection, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.themes.broad_labels import N_POOLED_TERMS, _pooled_terms, broad_labels

__all__ = ["HIERARCHY_RULE", "MIXED_SHARE", "ThemeHierarchy", "n_broad_themes", "broad_ids",
           "theme_profiles", "broad_groups", "theme_hierarchy", "paper_grains"]

#: A paper whose strongest theme holds less than this share of its theme weight is mixed.
MIXED_SHARE = 0.5
HIERARCHY_RULE = (
    "each theme's profile is the term map's terms in its papers, each paper counted by its share of the theme; "
    "a Ward tree on the unit-length profiles (nearness by cosine), cut into round(√k) broad themes for k themes "
    "(at least 2, at most k); broad themes lettered by their papers, most first; a paper's broad theme is that "
    "of its strongest theme"
)


def n_broad_themes(k: int) -> int:
    """The number of broad themes for ``k`` themes: ``round(sqrt(k))``, at least 2, at most ``k``.

    Parameters
    ----------
    k : int
        The number of themes.

    Returns
    -------
    int
        The number of broad themes.

    Examples
    --------
    >>> [n_broad_themes(k) for k in (1, 2, 3, 6, 7, 12, 13, 20, 21)]
    [1, 2, 2, 2, 3, 3, 4, 4, 5]
    """
    return min(int(k), max(2, int(math.floor(math.sqrt(k) + 0.5))))


def broad_ids(n: int) -> list[str]:
    """The names of ``n`` broad themes: ``A`` to ``Z``, then ``AA``, ``AB``, ...

    Parameters
    ----------
    n : int
        The number of broad themes.

    Returns
    -------
    list of str
        Their names, in order.

    Examples
    --------
    >>> broad_ids(3), broad_ids(28)[-3:]
    (['A', 'B', 'C'], ['Z', 'AA', 'AB'])
    """
    names = []
    for i in range(n):
        name, i = "", i + 1
        while i:
            i, rest = divmod(i - 1, 26)
            name = chr(ord("A") + rest) + name
        names.append(name)
    return names


def theme_profiles(weights: np.ndarray, paper_terms: sparse.spmatrix) -> np.ndarray:
    """Themes x terms: each term's papers summed with their theme weights (``weights``: papers x themes;
    ``paper_terms``: papers x terms, any count becomes 1), each row as shares of its total (zeros stay zeros).

    Parameters
    ----------
    weights : ndarray
        Papers x themes.
    paper_terms : sparse matrix
        Papers x terms (the term map's).

    Returns
    -------
    ndarray
        Themes x terms, each row summing to 1 (or 0).

    Examples
    --------
    >>> weights = np.array([[1.0, 0.0], [0.5, 0.5]])
    >>> theme_profiles(weights, sparse.csr_matrix([[1, 0, 2], [0, 1, 1]])).round(3).tolist()
    [[0.333, 0.167, 0.5], [0.0, 0.5, 0.5]]
    """
    binary = sparse.csr_matrix(paper_terms, dtype=np.float64)
    binary.data = np.ones_like(binary.data)
    profiles = np.asarray((binary.T @ np.asarray(weights, dtype=np.float64)).T)
    totals = profiles.sum(axis=1, keepdims=True)
    return np.divide(profiles, totals, out=np.zeros_like(profiles), where=totals > 0)


def broad_groups(profiles: np.ndarray, n_groups: int) -> np.ndarray:
    """Each theme's group (1-based, in scipy's order): a Ward tree on the rows scaled to unit length (their
    Euclidean distances are ``sqrt(2 * cosine distance)``) cut into ``n_groups``; a row of zeros stays zeros.

    Parameters
    ----------
    profiles : ndarray
        Themes x terms (:func:`theme_profiles`).
    n_groups : int
        The number of broad themes.

    Returns
    -------
    ndarray of int
        One group per theme.

    Examples
    --------
    >>> profiles = np.array([[1.0, 0.1, 0], [0.9, 0.2, 0], [0, 0.1, 1], [0, 0.2, 0.8]])
    >>> broad_groups(profiles, 2).tolist()
    [1, 1, 2, 2]
    """
    from scipy.cluster.hierarchy import fcluster, linkage  # lazy: slow to import

    k = len(profiles)
    if k < 2 or n_groups >= k:
        return np.arange(1, k + 1)
    norms = np.linalg.norm(profiles, axis=1, keepdims=True)
    unit = np.divide(profiles, norms, out=np.zeros_like(profiles, dtype=np.float64), where=norms > 0)
    unit = np.round(unit, 12)  # rounded: the same tree on every machine
    return fcluster(linkage(unit, method="ward"), n_groups, criterion="maxclust")


@dataclass(frozen=True)
class ThemeHierarchy:
    """The broad themes and their themes.

    Attributes
    ----------
    table : DataFrame
        ``broad_theme, broad_label, broad_top_terms, broad_n_papers, theme, label, n_papers``: one row per
        theme, by broad theme then theme (``theme_hierarchy.csv``).
    rule : str
        :data:`HIERARCHY_RULE`.

    Examples
    --------
    >>> table = pd.DataFrame({"broad_theme": ["A", "A"], "broad_label": ["roads"] * 2, "broad_top_terms": ["road"] * 2,
    ...                       "broad_n_papers": [5, 5], "theme": [1, 2], "label": ["crash", "speed"], "n_papers": [3, 2]})
    >>> ThemeHierarchy(table).broad_of
    {1: 'A', 2: 'A'}
    """

    table: pd.DataFrame
    rule: str = HIERARCHY_RULE

    @property
    def broad_of(self) -> dict[int, str]:
        """Theme number to its broad theme's name."""
        return {int(t): str(b) for t, b in zip(self.table["theme"], self.table["broad_theme"])}

    @property
    def broad(self) -> pd.DataFrame:
        """``broad_theme, broad_label, broad_top_terms, broad_n_papers, themes`` (the themes' numbers), one row
        per broad theme in order."""
        grouped = self.table.groupby("broad_theme", sort=False)
        first = grouped[["broad_label", "broad_top_terms", "broad_n_papers"]].first()
        return first.assign(themes=grouped["theme"].apply(lambda t: [int(x) for x in t])).reset_index()


def theme_hierarchy(themes: pd.DataFrame, top_terms: pd.DataFrame, weights: pd.DataFrame,
                    paper_ids: Sequence[str] = (), paper_terms: sparse.spmatrix | None = None,
                    same_thing: Collection[frozenset[str]] = ()) -> ThemeHierarchy:
    """The broad themes of a theme model by :data:`HIERARCHY_RULE`.

    Parameters
    ----------
    themes : DataFrame
        ``theme, label, n_papers`` (:attr:`helpers.analysis.themes.ThemeModel.themes`).
    top_terms : DataFrame
        ``theme, rank, term, weight`` (:attr:`helpers.analysis.themes.ThemeModel.top_terms`).
    weights : DataFrame
        ``paper_id`` and ``theme_<n>`` columns (:attr:`helpers.analysis.themes.ThemeModel.weights`).
    paper_ids, paper_terms : optional
        The term map's papers and their terms (papers x terms); without them, or when some theme has no
        term of the map, the profiles are the themes' top-term weights.
    same_thing : collection of frozenset, optional
        Pairs of terms the corpus defines as one thing (a term and its abbreviation), for the broad labels.

    Returns
    -------
    ThemeHierarchy
        Its table (``theme_hierarchy.csv``) and rule.

    Examples
    --------
    >>> themes = pd.DataFrame({"theme": [1, 2, 3], "label": ["a", "b", "c"], "n_papers": [2, 1, 1]})
    >>> top = pd.DataFrame({"theme": [1, 2, 3], "rank": [1, 1, 1], "term": ["graph", "node", "regret"],
    ...                     "weight": [1.0, 1.0, 1.0]})
    >>> weights = pd.DataFrame({"paper_id": list("wxyz"), "theme_1": [1.0, 0.6, 0.4, 0.0],
    ...                         "theme_2": [0.0, 0.4, 0.6, 0.0], "theme_3": [0.0, 0.0, 0.0, 1.0]})
    >>> terms = sparse.csr_matrix([[1, 1, 0], [1, 1, 0], [1, 0, 0], [0, 0, 1]])
    >>> hierarchy = theme_hierarchy(themes, top, weights, list("wxyz"), terms)
    >>> hierarchy.table[["broad_theme", "theme", "broad_n_papers"]].values.tolist()
    [['A', 1, 3], ['A', 2, 3], ['B', 3, 1]]
    """
    numbers = [int(t) for t in themes["theme"]]
    columns = [f"theme_{t}" for t in numbers]
    profiles = None
    if paper_terms is not None and len(paper_ids) and paper_terms.shape[1]:
        matrix = weights.set_index("paper_id").reindex([str(p) for p in paper_ids])[columns].fillna(0.0)
        profiles = theme_profiles(matrix.to_numpy(), paper_terms)
        if not (profiles.sum(axis=1) > 0).all():
            profiles = None
    if profiles is None:  # too few terms on the map: the themes' own top terms
        vocabulary = sorted(set(top_terms["term"].astype(str)))
        column = {term: i for i, term in enumerate(vocabulary)}
        profiles = np.zeros((len(numbers), len(vocabulary)))
        row = {t: i for i, t in enumerate(numbers)}
        for theme, term, weight in zip(top_terms["theme"], top_terms["term"], top_terms["weight"]):
            profiles[row[int(theme)], column[str(term)]] = float(weight)
    groups = broad_groups(profiles, n_broad_themes(len(numbers)))
    n_papers = dict(zip(numbers, (int(n) for n in themes["n_papers"])))
    members: dict[int, list[int]] = {}
    for theme, group in zip(numbers, groups):
        members.setdefault(int(group), []).append(theme)
    ordered = sorted(members.values(), key=lambda ts: (-sum(n_papers[t] for t in ts), min(ts)))
    masses = weights[columns].sum(axis=0).to_numpy()
    labels = broad_labels(ordered, top_terms, masses, [str(label) for label in themes["label"]], same_thing)
    shown = top_terms[top_terms["rank"] <= N_POOLED_TERMS]
    label_of = dict(zip(numbers, themes["label"].astype(str)))
    rows = []
    for name, label, group in zip(broad_ids(len(ordered)), labels, ordered):
        pooled = _pooled_terms(shown, group, masses)
        for theme in sorted(group):
            rows.append(dict(broad_theme=name, broad_label=label, broad_top_terms=", ".join(pooled),
                             broad_n_papers=sum(n_papers[t] for t in group), theme=theme, label=label_of[theme],
                             n_papers=n_papers[theme]))
    columns_out = ["broad_theme", "broad_label", "broad_top_terms", "broad_n_papers", "theme", "label", "n_papers"]
    return ThemeHierarchy(pd.DataFrame(rows, columns=columns_out))



def paper_grains(weights: pd.DataFrame, broad_of: dict[int, str], threshold: float = MIXED_SHARE) -> pd.DataFrame:
    """Each paper at both grains: ``paper_id``, its second theme and that theme's
    share of its theme weight (``<NA>`` and 0 with one theme or none), ``mixed`` (its strongest theme
    holds less than ``threshold``; never for a paper without theme weight), its broad theme (that of its
    strongest theme; ``""`` without one) and the broad theme's share (its themes' shares summed).

    Ties go to the lower theme number, as the strongest theme's do.

    Parameters
    ----------
    weights : DataFrame
        ``paper_id`` and ``theme_<n>`` columns.
    broad_of : dict of int to str
        Each theme's broad theme (:attr:`ThemeHierarchy.broad_of`).
    threshold : float
        The strongest theme's share below which a paper is mixed.

    Returns
    -------
    DataFrame
        ``paper_id, second_theme, second_theme_weight, mixed, broad_theme, broad_theme_weight``, one row per paper.

    Examples
    --------
    >>> weights = pd.DataFrame({"paper_id": ["p", "q", "r"], "theme_1": [0.7, 0.4, 0.0],
    ...                         "theme_2": [0.3, 0.35, 0.0], "theme_3": [0.0, 0.25, 0.0]})
    >>> paper_grains(weights, {1: "A", 2: "B", 3: "A"}).values.tolist()
    [['p', 2, 0.3, False, 'A', 0.7], ['q', 2, 0.35, True, 'A', 0.65], ['r', <NA>, 0.0, False, '', 0.0]]
    """
    columns = [c for c in weights.columns if c != "paper_id"]
    numbers = np.array([int(c.split("_")[-1]) for c in columns])
    matrix = weights[columns].to_numpy(dtype=np.float64)
    n = len(matrix)
    has = matrix.sum(axis=1) > 0 if n else np.zeros(0, dtype=bool)
    order = np.argsort(-matrix, axis=1, kind="stable") if len(columns) else np.zeros((n, 0), dtype=int)
    first = order[:, 0] if len(columns) else np.zeros(n, dtype=int)
    first_share = matrix[np.arange(n), first] if len(columns) else np.zeros(n)
    if len(columns) > 1:
        second = order[:, 1]
        second_share = matrix[np.arange(n), second]
    else:
        second, second_share = np.zeros(n, dtype=int), np.zeros(n)
    has_second = has & (second_share > 0)
    broad = [broad_of.get(int(numbers[f]), "") if h else "" for f, h in zip(first, has)]
    broad_names = np.array([broad_of.get(int(t), "") for t in numbers])
    broad_share = [float(matrix[i, broad_names == b].sum()) if b else 0.0 for i, b in enumerate(broad)]
    return pd.DataFrame({
        "paper_id": weights["paper_id"].to_numpy(),
        "second_theme": pd.array([int(numbers[s]) if h else pd.NA for s, h in zip(second, has_second)],
                                 dtype="Int64"),
        "second_theme_weight": np.round(np.where(has_second, second_share, 0.0), 6),
        "mixed": has & (np.round(first_share, 6) < threshold),
        "broad_theme": broad,
        "broad_theme_weight": np.round(broad_share, 6),
    })
