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
   lowest theme number); each is named so that its label describes every one of its themes (:func:`broad_labels`,
   :data:`BROAD_LABEL_RULE`): a term for each theme, a term shared by several themes covering them all at once.

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

from helpers.analysis.text.noun_phrases import is_noun_phrase
from helpers.analysis.themes.labels import Concept, _stock_terms, label_parts, same_concept

__all__ = ["BROAD_LABEL_RULE", "N_COVER_TERMS", "HIERARCHY_RULE", "MIXED_SHARE", "N_POOLED_TERMS", "ThemeHierarchy", "n_broad_themes", "broad_ids",
           "theme_profiles", "broad_groups", "broad_labels", "theme_hierarchy", "paper_grains", "GRAIN_COLUMNS"]

#: A paper whose strongest theme holds less than this share of its theme weight is mixed.
MIXED_SHARE = 0.5
#: Terms a broad theme's label is chosen from: the strongest of its themes' pooled shown terms.
N_POOLED_TERMS = 10
#: A theme is described by a term among its label's parts and its first this many shown top terms.
N_COVER_TERMS = 5
BROAD_LABEL_RULE = (
    "a broad theme of one theme takes that theme's label; otherwise the fewest of its pooled top terms such that "
    f"each of its themes has one of them among its label's parts or first {N_COVER_TERMS} shown top terms (a term "
    "shared by several themes first, then the strongest), one concept each, at least two, strongest first"
)
HIERARCHY_RULE = (
    "each theme's profile is the term map's terms in its papers, each paper counted by its share of the theme; "
    "a Ward tree on the unit-length profiles (nearness by cosine), cut into round(√k) broad themes for k themes "
    "(at least 2, at most k); broad themes lettered by their papers, most first; a paper's broad theme is that "
    "of its strongest theme"
)
#: The columns :func:`paper_grains` adds to the papers table, after ``theme`` and ``theme_weight``.
GRAIN_COLUMNS = ("second_theme", "second_theme_weight", "mixed", "broad_theme", "broad_theme_weight")


def n_broad_themes(k: int) -> int:
    """The number of broad themes for ``k`` themes: ``round(sqrt(k))``, at least 2, at most ``k``.

    Examples
    --------
    >>> [n_broad_themes(k) for k in (1, 2, 3, 6, 7, 12, 13, 20, 21)]
    [1, 2, 2, 2, 3, 3, 4, 4, 5]
    """
    return min(int(k), max(2, int(math.floor(math.sqrt(k) + 0.5))))


def broad_ids(n: int) -> list[str]:
    """The names of ``n`` broad themes: ``A`` to ``Z``, then ``AA``, ``AB``, ...

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


def _names(term: str, other: str, same_thing: Collection[frozenset[str]]) -> bool:
    """Whether ``term`` names what ``other`` says: the same term or one concept
    (:func:`helpers.analysis.themes.labels.same_concept`; an acronym names its expansion, ``llm`` a
    ``language model``).

    Examples
    --------
    >>> [_names(a, b, ()) for a, b in [("llm", "language model"), ("privacy", "private"), ("graph", "node")]]
    [True, True, False]
    """
    return term == other or same_concept(term, other, same_thing)


def _label(terms: list[str], weight: dict[str, float], pooled: Sequence[str],
           same_thing: Collection[frozenset[str]]) -> str:
    """Terms joined by `` · ``, the strongest first, each acronym by its expansion among the ``pooled`` terms (the one
    of most words), as a concept is named (:class:`helpers.analysis.themes.labels.Concept`).

    Examples
    --------
    >>> _label(["rl", "regret"], {"rl": 3.0, "regret": 5.0}, ["regret", "rl", "reinforcement learning"], ())
    'regret · reinforcement learning'
    """
    def name(term: str) -> str:
        members = [term] + [other for other in pooled if other != term and _names(term, other, same_thing)]
        return Concept(tuple(members)).name

    return " · ".join(name(t) for t in sorted(terms, key=lambda t: -weight.get(t, 0.0)))


def broad_labels(members: Sequence[Sequence[int]], top_terms: pd.DataFrame, masses: Sequence[float],
                 labels: Sequence[str] | None = None, same_thing: Collection[frozenset[str]] = ()) -> list[str]:
    """One label per broad theme by :data:`BROAD_LABEL_RULE`: it names every one of the broad theme's themes.

    A broad theme's pooled terms are its themes' shown top terms (``top_terms``: ``theme, rank, term, weight``, the
    first :data:`N_POOLED_TERMS` of each theme), each weighted by its weight in each theme (as a share of that
    theme's strongest) times the theme's papers (``masses``, by 1-based theme); stock terms and word pairs that
    are no noun phrase are left out. ``labels`` are the themes' labels (by 1-based theme); ``same_thing`` the pairs
    the corpus defines as one thing (:func:`helpers.analysis.themes.labels.same_concept`).

    Examples
    --------
    >>> top = pd.DataFrame({"theme": [1, 1, 2, 2, 3, 3], "rank": [1, 2] * 3,
    ...                     "term": ["language model", "llm", "diffusion model", "image", "regret", "bandit"],
    ...                     "weight": [1.0, 0.8, 1.0, 0.5, 1.0, 0.9]})
    >>> broad_labels([[1, 2], [3]], top, [10, 5, 8], ["language model · llm", "diffusion model · image",
    ...                                               "regret · bandit"])
    ['language model · diffusion model', 'regret · bandit']
    """
    shown = top_terms[top_terms["rank"] <= N_POOLED_TERMS]
    stock = _stock_terms()
    strongest = shown.groupby("theme")["weight"].transform("max")
    relative = (shown["weight"] / strongest.where(strongest > 0, 1.0)).to_numpy()
    mass = np.array([float(masses[int(t) - 1]) for t in shown["theme"]])
    terms_of: dict[int, list[str]] = {}
    for theme, term in zip(shown["theme"], shown["term"]):
        terms_of.setdefault(int(theme), []).append(str(term))
    result = []
    for group in members:
        pooled: dict[str, float] = {}
        for theme, term, value in zip(shown["theme"], shown["term"], relative * mass):
            if int(theme) in group:
                pooled[str(term)] = pooled.get(str(term), 0.0) + float(value)
        if len(group) == 1 and labels is not None:
            result.append(str(labels[group[0] - 1]))
            continue
        usable = [t for t in pooled if t not in stock and (" " not in t or is_noun_phrase(t))] or list(pooled)
        order = sorted(usable, key=lambda t: (-round(pooled[t], 9), usable.index(t)))
        described = {}
        for theme in group:
            own = [t for t in terms_of.get(theme, []) if t in usable][:N_COVER_TERMS]
            described[theme] = set(own) | set(label_parts(str(labels[theme - 1])) if labels is not None else [])

        def covers(term: str, theme: int) -> bool:
            return any(_names(term, other, same_thing) for other in described[theme])

        chosen: list[str] = []
        uncovered = set(group)
        while uncovered:
            options = [t for t in order if not any(_names(t, c, same_thing) for c in chosen)]
            gains = [(sum(covers(t, theme) for theme in uncovered), -i) for i, t in enumerate(options)]
            if not gains or max(gains)[0] == 0:
                break
            best = options[-max(gains)[1]]
            chosen.append(best)
            uncovered = {theme for theme in uncovered if not covers(best, theme)}
        spare = [t for t in order if not any(_names(t, c, same_thing) for c in chosen)]
        while spare and (len(chosen) < 2 or _label(chosen, pooled, order, same_thing) in result):
            chosen.append(spare.pop(0))
            spare = [t for t in spare if not any(_names(t, c, same_thing) for c in chosen)]
        label = _label(chosen, pooled, order, same_thing)
        result.append(label if label not in result else f"{label} ({len(result) + 1})")
    return result


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


def _pooled_terms(shown: pd.DataFrame, group: Sequence[int], masses: np.ndarray) -> list[str]:
    """A broad theme's pooled top terms, as :func:`broad_labels` ranks them."""
    part = shown[shown["theme"].isin(list(group))]
    strongest = part.groupby("theme")["weight"].transform("max")
    value = part["weight"] / strongest.where(strongest > 0, 1.0) * part["theme"].map(lambda t: masses[int(t) - 1])
    totals: dict[str, float] = {}
    for term, v in zip(part["term"].astype(str), value):
        totals[term] = totals.get(term, 0.0) + float(v)
    order = list(totals)
    return sorted(order, key=lambda t: (-round(totals[t], 9), order.index(t)))[:N_POOLED_TERMS]


def paper_grains(weights: pd.DataFrame, broad_of: dict[int, str], threshold: float = MIXED_SHARE) -> pd.DataFrame:
    """Each paper at both grains (:data:`GRAIN_COLUMNS`): ``paper_id``, its second theme and that theme's
    share of its theme weight (``<NA>`` and 0 with one theme or none), ``mixed`` (its strongest theme
    holds less than ``threshold``; never for a paper without theme weight), its broad theme (that of its
    strongest theme; ``""`` without one) and the broad theme's share (its themes' shares summed).

    Ties go to the lower theme number, as the strongest theme's do.

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
