"""The thematic map of each group: Callon's centrality and density of every theme, and its quadrant."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.change.group_order import group_numbers, paper_rows

__all__ = ["QUADRANTS", "MAP_COLUMNS", "N_MAP_BOOTSTRAP", "term_themes", "thematic_map", "settled_quadrant"]

#: Quadrants of the thematic map, by (high centrality, high density).
QUADRANTS = {(True, True): "motor", (False, True): "niche", (False, False): "emerging or declining",
             (True, False): "basic"}
MAP_COLUMNS = ["group", "theme", "label", "n_terms", "n_papers", "centrality", "density", "quadrant",
               "centrality_margin_low", "centrality_margin_high", "density_margin_low", "density_margin_high",
               "centrality_side", "density_side"]
#: Bootstrap resamples of a group's papers for the noise of each theme's distance to the group's medians.
N_MAP_BOOTSTRAP = 200


def term_themes(paper_terms: sparse.csr_matrix, paper_themes: np.ndarray, themes: Sequence[int]) -> np.ndarray:
    """Each term's theme: the strongest theme of most of its papers (ties: the lower number; -1: none).

    ``paper_themes`` holds each row's theme number or -1.

    Parameters
    ----------
    paper_terms : csr_matrix
        Binary papers x terms.
    paper_themes : ndarray of int
        Each row's strongest theme number, -1 for none.
    themes : sequence of int
        The theme numbers.

    Returns
    -------
    ndarray of int
        One theme number per term (-1: none of its papers has a theme).

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1], [1, 0], [0, 1]]))
    >>> term_themes(X, np.array([1, 2, 2]), [1, 2])
    array([1, 1])
    """
    position = {int(t): i for i, t in enumerate(themes)}
    member = np.array([position.get(int(t), -1) for t in paper_themes], dtype=np.int64)
    keep = np.flatnonzero(member >= 0)
    indicator = sparse.csr_matrix((np.ones(len(keep)), (keep, member[keep])),
                                  shape=(paper_terms.shape[0], max(len(themes), 1)))
    votes = (paper_terms.T.astype(float) @ indicator).toarray()
    best = votes.argmax(axis=1)
    result = np.asarray(themes, dtype=np.int64)[best] if len(themes) else np.full(paper_terms.shape[1], -1)
    return np.where(votes.max(axis=1) > 0, result, -1)


def _callon(matrix: sparse.csr_matrix, weights: np.ndarray, indicator: sparse.csr_matrix, n_terms: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """Callon centrality and density of every theme, each paper (row of ``matrix``) counted ``weights`` times."""
    weighted = sparse.diags(weights) @ matrix
    together = (matrix.T @ weighted).tocoo()
    occurrences = np.asarray(weighted.sum(axis=0)).ravel()
    off = together.row != together.col
    i, j, c = together.row[off], together.col[off], together.data[off]
    equivalence = sparse.csr_matrix((c ** 2 / (occurrences[i] * occurrences[j]), (i, j)), shape=together.shape)
    between = (indicator.T @ equivalence @ indicator).toarray()  # both directions of every link
    internal = np.diag(between) / 2
    external = between.sum(axis=1) - np.diag(between)
    return 10 * external, 100 * internal / np.maximum(n_terms, 1)


def _side(low: float, high: float) -> str:
    """``high`` or ``low`` when the interval of a distance to the median excludes 0, else ``border``."""
    return "high" if low > 0 else "low" if high < 0 else "border"


def settled_quadrant(centrality_side: str, density_side: str) -> str | None:
    """The quadrant of a theme whose centrality and density both differ from the medians beyond noise, else None.

    Parameters
    ----------
    centrality_side, density_side : str
        ``high``, ``low`` or ``border``: where the theme stands against the group's median, beyond noise or not.

    Returns
    -------
    str or None
        One of :data:`QUADRANTS`, else ``None``.

    Examples
    --------
    >>> settled_quadrant("high", "low"), settled_quadrant("border", "low")
    ('basic', None)
    """
    if "border" in (centrality_side, density_side):
        return None
    return QUADRANTS[(centrality_side == "high", density_side == "high")]


def thematic_map(papers: pd.DataFrame, groups: Sequence[str], labels: Mapping[int, str],
                 paper_terms: sparse.csr_matrix, paper_ids: Sequence[str], *, seed: int = 0,
                 n_bootstrap: int = N_MAP_BOOTSTRAP) -> pd.DataFrame:
    """Callon centrality and density of each theme in each group, its quadrant, and whether it is beyond noise.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id, group, theme``.
    paper_terms : csr_matrix
        Binary rows of ``paper_ids`` x the term map's terms.
    seed, n_bootstrap : int
        The bootstrap of each group's papers (``numpy.random.default_rng((seed, group number))``).

    Returns
    -------
    DataFrame
        :data:`MAP_COLUMNS`: ``n_terms`` the theme's terms, ``n_papers`` the group's papers using one of
        them; themes without terms are left out. Quadrants split at the group's medians (a value equal
        to the median counts as high). ``centrality_margin_low, centrality_margin_high`` (and the same
        for density) are the 95% percentile interval of the theme's value minus the group's median over
        ``n_bootstrap`` resamples of the group's papers (the map recomputed on each); ``centrality_side``
        and ``density_side`` are ``high`` or ``low`` where that interval excludes 0, else ``border``
        (within noise of the median). Only the first and the last group, whose quadrants are compared,
        are resampled; the others' margins are NaN and their sides empty.

    Examples
    --------
    Two themes of two terms each; in the group, the terms of theme 1 always go together:

    >>> X = sparse.csr_matrix(np.array([[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1]]))
    >>> papers = pd.DataFrame({"paper_id": list("abcde"), "group": "g", "theme": [1, 1, 2, 2, 2]})
    >>> thematic_map(papers, ["g"], {1: "x", 2: "y"}, X, list("abcde"))[["theme", "centrality", "density"]]
       theme  centrality    density
    0      1    1.666667  33.333333
    1      2    1.666667  12.500000
    """
    themes = sorted(int(t) for t in labels)
    if not themes or paper_terms.shape[1] == 0:
        return pd.DataFrame(columns=MAP_COLUMNS)
    rows_of_papers = paper_rows(paper_ids, papers)
    present = rows_of_papers >= 0
    row_themes = np.full(paper_terms.shape[0], -1, dtype=np.int64)
    theme_values = papers["theme"].astype("Int64").fillna(-1).to_numpy(dtype=np.int64)
    row_themes[rows_of_papers[present]] = theme_values[present]
    term_theme = term_themes(paper_terms, row_themes, themes)
    group_codes = group_numbers(papers, groups)
    records = []
    assigned = np.flatnonzero(term_theme >= 0)
    position = {t: i for i, t in enumerate(themes)}
    columns = [position[int(t)] for t in term_theme[assigned]]
    indicator = sparse.csr_matrix((np.ones(len(assigned)), (assigned, columns)),
                                  shape=(paper_terms.shape[1], max(len(themes), 1)))
    n_terms = np.asarray(indicator.sum(axis=0)).ravel()
    kept = n_terms > 0
    for index, group in enumerate(groups):
        rows = rows_of_papers[(group_codes == index) & present]
        matrix = paper_terms[rows].astype(float).tocsr()
        centrality, density = _callon(matrix, np.ones(len(rows)), indicator, n_terms)
        uses = (matrix @ indicator).toarray() > 0
        frame = pd.DataFrame({"group": group, "theme": themes, "label": [labels[t] for t in themes],
                              "n_terms": n_terms.astype(np.int64), "n_papers": uses.sum(axis=0).astype(np.int64),
                              "centrality": np.round(centrality, 6), "density": np.round(density, 6)})
        frame = frame[kept]
        high_c = frame["centrality"] >= frame["centrality"].median()
        high_d = frame["density"] >= frame["density"].median()
        frame["quadrant"] = [QUADRANTS[(bool(a), bool(b))] for a, b in zip(high_c, high_d)]
        compared = index in (0, len(groups) - 1)  # the quadrants of the first and the last group are compared
        margins = _bootstrap_margins(matrix, indicator, n_terms, kept, np.random.default_rng([seed, index]),
                                     n_bootstrap if compared else 0)
        for name, (low, high) in zip(("centrality", "density"), margins):
            frame[f"{name}_margin_low"], frame[f"{name}_margin_high"] = np.round(low, 6), np.round(high, 6)
            frame[f"{name}_side"] = [_side(a, b) if compared else None for a, b in zip(low, high)]
        records.append(frame)
    if not records:
        return pd.DataFrame(columns=MAP_COLUMNS)
    return pd.concat(records, ignore_index=True)[MAP_COLUMNS]


def _bootstrap_margins(matrix: sparse.csr_matrix, indicator: sparse.csr_matrix, n_terms: np.ndarray,
                       kept: np.ndarray, rng: np.random.Generator, n_bootstrap: int
                       ) -> list[tuple[np.ndarray, np.ndarray]]:
    """95% percentile intervals of each kept theme's centrality and density minus the group's median, over
    resamples of the group's papers (each drawn as multinomial counts of the papers)."""
    n = matrix.shape[0]
    if n_bootstrap == 0:
        unknown = np.full(int(kept.sum()), np.nan)
        return [(unknown, unknown), (unknown, unknown)]
    if n == 0:
        empty = np.zeros(int(kept.sum()))
        return [(empty, empty), (empty, empty)]
    draws: list[list[np.ndarray]] = [[], []]
    for weights in rng.multinomial(n, np.full(n, 1 / n), size=n_bootstrap):
        for values, sink in zip(_callon(matrix, weights.astype(float), indicator, n_terms), draws):
            values = values[kept]
            sink.append(values - np.median(values))
    return [(np.percentile(np.array(d), 2.5, axis=0), np.percentile(np.array(d), 97.5, axis=0)) for d in draws]
