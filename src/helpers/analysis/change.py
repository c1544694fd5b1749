"""What changed between groups of papers (years, venues, files): themes, terms and links.

Every function takes plain tables (``papers`` with a ``group`` column, the term map's paper x term
matrix) and returns tables with documented columns, so each can be tested on a DataFrame built by
hand; :func:`analyse_change` runs them all and returns one frozen :class:`ChangeResult`.

* **Theme prevalence** is the share of a group's papers whose strongest theme it is (``theme`` of
  :attr:`helpers.analysis.pipeline.Analysis.papers`), with a 95% percentile interval from a
  bootstrap over the group's papers (:data:`N_BOOTSTRAP` resamples, ``numpy.random.default_rng``
  seeded with ``(seed, group number)``). Resampling ``n`` papers with replacement and counting their
  strongest themes is a multinomial draw with the observed shares, which is how it is drawn.
* **Change** between the first and the last group is the difference of those shares, with the
  bootstrap interval of the difference; each theme is tested with Fisher's exact test (two-sided) on
  the 2 x 2 table of papers with and without it as strongest theme in the two groups, and the
  p-values are corrected for testing every theme with Benjamini and Hochberg's false discovery rate
  (``scipy.stats.false_discovery_control``).
* **Trend** over every group, in order: the Cochran-Armitage test for trend in proportions
  (:func:`trend_test`; Cochran 1954, Armitage 1955) with the groups' positions as scores, for each
  theme's share (Benjamini-Hochberg corrected over the themes) and for the share of papers linking.
* **Thematic map** (Cobo et al. 2011, bibliometrix's ``thematicMap``): each term of the term map
  belongs to the theme most of its papers have as strongest theme; in each group, Callon's
  *centrality* of a theme is ``10 x`` the sum of the equivalence indices ``e_ij = c_ij^2 / (c_i c_j)``
  of links from its terms to other themes' terms and its *density* ``100 x`` the sum over links among
  its own terms divided by its number of terms (Callon et al. 1991). The medians of the group split
  the quadrants: motor (both high), niche (dense, peripheral), emerging or declining (both low), basic
  (central, not dense).
* **Terms**: the mean year (or group position) of the papers using each map term (VOSviewer's
  overlay), the terms that appear in the latest group only, and bursts (:func:`kleinberg_states`) when
  there are at least :data:`MIN_BURST_GROUPS` groups (over fewer, a burst cannot stand apart from the
  first or the last group).
* **Links**: the share of papers in state ``linked`` per group with Wilson 95% intervals, a
  chi-square test of equal shares across the groups, and the first-to-last difference with
  Newcombe's interval and a two-proportion z-test, and the trend over every group (:func:`proportion_change`).
  Where papers carry a
  ``software`` field (a code link the authors gave the venue), the share of those papers whose
  abstract also gives a code link (:func:`software_coverage`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.links import wilson_interval

__all__ = ["ChangeResult", "ProportionChange", "analyse_change", "ordered_groups", "theme_prevalence",
           "theme_change", "thematic_map", "term_change", "kleinberg_states", "term_bursts", "link_change",
           "proportion_change", "software_coverage", "newcombe_interval", "Trend", "trend_test", "N_BOOTSTRAP", "BURST_SCALE",
           "BURST_GAMMA", "QUADRANTS", "MIN_BURST_GROUPS"]

#: Bootstrap resamples per group.
N_BOOTSTRAP = 2000
#: Kleinberg's two-state model: the burst state's rate is this many times the base rate (CiteSpace: 2).
BURST_SCALE = 2.0
#: Kleinberg's cost of entering the burst state, ``gamma * ln(number of groups)`` (CiteSpace: 1).
BURST_GAMMA = 1.0
#: Bursts are detected over at least this many groups.
MIN_BURST_GROUPS = 4
#: Quadrants of the thematic map, by (high centrality, high density).
QUADRANTS = {(True, True): "motor", (False, True): "niche", (False, False): "emerging or declining",
             (True, False): "basic"}
PREVALENCE_COLUMNS = ["group", "theme", "label", "n_group", "n_papers", "share", "ci_low", "ci_high"]
THEME_CHANGE_COLUMNS = ["theme", "label", "first_group", "last_group", "n_first", "n_last", "share_first",
                        "share_last", "change", "ci_low", "ci_high", "p_value", "q_value", "trend_slope", "trend_z",
                        "trend_p", "trend_q"]
MAP_COLUMNS = ["group", "theme", "label", "n_terms", "n_papers", "centrality", "density", "quadrant"]
TERM_COLUMNS = ["term", "n_papers", "first_group", "mean_position", "mean_year", "balanced_year", "n_latest",
                "new_in_latest"]
BURST_COLUMNS = ["term", "start_group", "end_group", "n_groups", "n_papers", "weight"]
LINK_COLUMNS = ["group", "n_papers", "n_linked", "share", "ci_low", "ci_high"]
#: Link kinds that count as the abstract giving code: code hosts and project pages (``software`` fields hold both).
SOFTWARE_KINDS = ("code", "project page")
SOFTWARE_COLUMNS = ["group", "n_papers", "n_software", "software_share", "n_abstract_code",
                    "n_software_abstract_code", "abstract_share", "ci_low", "ci_high"]


@dataclass(frozen=True)
class ProportionChange:
    """A proportion in the first and the last group, their difference and tests of it.

    Attributes
    ----------
    first_group, last_group : str
    n_first, n_last : int
        Papers in each group.
    k_first, k_last : int
        Papers with the property.
    difference : float
        ``k_last / n_last - k_first / n_first``.
    ci_low, ci_high : float
        Newcombe's 95% interval of the difference (:func:`newcombe_interval`).
    z, p_value : float
        Two-proportion z-test (pooled), two-sided.
    chi2, dof, p_all : float, int, float
        Chi-square test that every group has the same proportion (all groups, not only the two).
    trend_slope, trend_z, trend_p : float
        The Cochran-Armitage test for trend over every group, in order (:func:`trend_test`).
    """

    first_group: str
    last_group: str
    n_first: int
    n_last: int
    k_first: int
    k_last: int
    difference: float
    ci_low: float
    ci_high: float
    z: float
    p_value: float
    chi2: float
    dof: int
    p_all: float
    trend_slope: float = 0.0
    trend_z: float = 0.0
    trend_p: float = 1.0

    def as_frame(self) -> pd.DataFrame:
        """One row with every attribute, for a CSV."""
        return pd.DataFrame([{name: getattr(self, name) for name in self.__dataclass_fields__}])


@dataclass(frozen=True)
class ChangeResult:
    """What changed between the groups (:func:`analyse_change`).

    Attributes
    ----------
    groups : tuple of str
        The groups, in order (years ascending); at least two.
    theme_prevalence : DataFrame
        :func:`theme_prevalence`.
    theme_change : DataFrame
        :func:`theme_change`.
    thematic_map : DataFrame
        :func:`thematic_map`.
    terms : DataFrame
        :func:`term_change`.
    bursts : DataFrame
        :func:`term_bursts` (empty, with its columns, under :data:`MIN_BURST_GROUPS` groups).
    links : DataFrame
        :func:`link_change`.
    link_difference : ProportionChange
        The linked share, first against last group.
    software : DataFrame
        :func:`software_coverage` (empty when no paper has a ``software`` field).
    settings : dict
        ``n_bootstrap, seed, burst_scale, burst_gamma`` and the tests' names.
    """

    groups: tuple[str, ...]
    theme_prevalence: pd.DataFrame
    theme_change: pd.DataFrame
    thematic_map: pd.DataFrame
    terms: pd.DataFrame
    bursts: pd.DataFrame
    links: pd.DataFrame
    link_difference: ProportionChange
    software: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        """The CSV outputs, by file stem (``software_links`` only where papers carry a software field)."""
        tables = {"theme_change": self.theme_change, "theme_prevalence": self.theme_prevalence,
                  "thematic_map": self.thematic_map, "term_change": self.terms, "term_bursts": self.bursts,
                  "link_change": self.links, "link_change_test": self.link_difference.as_frame()}
        if len(self.software):
            tables["software_links"] = self.software
        return tables


@dataclass(frozen=True)
class Trend:
    """The Cochran-Armitage test for trend in proportions over ordered groups (:func:`trend_test`).

    Attributes
    ----------
    slope : float
        The least-squares line through the groups' shares (each weighted by its papers), per step of
        score: the change of the share from one group to the next.
    z, p_value : float
        The test statistic (positive: the share rises) and its two-sided p-value.
    """

    slope: float
    z: float
    p_value: float


def trend_test(successes: Sequence[int], trials: Sequence[int], scores: Sequence[float] | None = None) -> Trend:
    r"""The Cochran-Armitage test for trend in proportions (Cochran 1954; Armitage 1955).

    Group :math:`i` has :math:`k_i` of :math:`n_i` papers with the property and score :math:`s_i`
    (default: its position, 0, 1, 2, ...). With :math:`N = \sum n_i` and :math:`ar p = \sum k_i / N`,

    .. math:: T = \sum s_i (k_i - n_i ar p), \quad S = \sum n_i s_i^2 - (\sum n_i s_i)^2 / N,
              \quad z = T / \sqrt{ar p (1 - ar p) S},

    two-sided :math:`p = 2 (1 - \Phi(|z|))`; :math:`T / S` is the slope of the least-squares line through
    the shares :math:`k_i / n_i` weighted by :math:`n_i`. With two groups, :math:`z` is the pooled
    two-proportion z. Without spread (one group, or every paper alike) ``Trend(0.0, 0.0, 1.0)``.

    Examples
    --------
    >>> trend_test([10, 18, 25], [50, 50, 50])
    Trend(slope=0.15, z=3.138042, p_value=0.00170081)
    """
    from scipy.stats import norm

    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    s = np.arange(len(n), dtype=float) if scores is None else np.asarray(scores, dtype=float)
    total = n.sum()
    if total == 0:
        return Trend(0.0, 0.0, 1.0)
    mean = k.sum() / total
    spread = float((n * s * s).sum() - (n * s).sum() ** 2 / total)
    variance = mean * (1 - mean) * spread
    if spread <= 1e-12 or variance <= 0:
        return Trend(0.0, 0.0, 1.0)
    statistic = float((s * (k - n * mean)).sum())
    z = statistic / math.sqrt(variance)
    return Trend(slope=round(statistic / spread, 6) + 0.0, z=round(z, 6) + 0.0,
                 p_value=round(float(2 * norm.sf(abs(z))), 8))


def ordered_groups(groups: pd.Series) -> tuple[str, ...]:
    """The distinct groups in order: by number when every group is a whole number (years), else by name.

    Examples
    --------
    >>> ordered_groups(pd.Series(["2025", "2023", "2024", "2023"]))
    ('2023', '2024', '2025')
    >>> ordered_groups(pd.Series(["b.bib", "a.bib", "10.bib"]))
    ('10.bib', 'a.bib', 'b.bib')
    """
    names = sorted({str(g) for g in groups})
    if names and all(n.lstrip("-").isdigit() for n in names):
        return tuple(sorted(names, key=int))
    return tuple(names)


def _group_codes(papers: pd.DataFrame, groups: Sequence[str]) -> np.ndarray:
    """Each paper's group number (0-based, in ``groups`` order; -1 for a group not listed)."""
    position = {g: i for i, g in enumerate(groups)}
    return papers["group"].astype(str).map(position).fillna(-1).to_numpy(dtype=np.int64)


def _theme_codes(papers: pd.DataFrame, themes: Sequence[int]) -> np.ndarray:
    """Each paper's strongest theme as a column number of ``themes``; ``len(themes)`` for none."""
    position = {int(t): i for i, t in enumerate(themes)}
    values = papers["theme"].astype("Int64")
    return np.array([len(themes) if pd.isna(v) else position.get(int(v), len(themes)) for v in values],
                    dtype=np.int64)


def _bootstrap_shares(codes: np.ndarray, n_categories: int, rng: np.random.Generator, n_bootstrap: int
                      ) -> np.ndarray:
    """``n_bootstrap x n_categories`` shares of papers resampled with replacement (a multinomial draw)."""
    n = len(codes)
    if n == 0:
        return np.zeros((n_bootstrap, n_categories))
    observed = np.bincount(codes, minlength=n_categories + 1)[:n_categories + 1] / n
    return rng.multinomial(n, observed, size=n_bootstrap)[:, :n_categories] / n


def _percentiles(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.percentile(values, 2.5, axis=0), np.percentile(values, 97.5, axis=0)


def _bootstraps(papers: pd.DataFrame, groups: Sequence[str], themes: Sequence[int], *, seed: int,
                n_bootstrap: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Observed theme counts (groups x themes) and each group's bootstrap shares."""
    group_codes, theme_codes = _group_codes(papers, groups), _theme_codes(papers, themes)
    counts = np.zeros((len(groups), len(themes)), dtype=np.int64)
    draws = []
    for index in range(len(groups)):
        members = theme_codes[group_codes == index]
        counts[index] = np.bincount(members, minlength=len(themes) + 1)[:len(themes)]
        draws.append(_bootstrap_shares(members, len(themes), np.random.default_rng([seed, index]), n_bootstrap))
    return counts, draws


def theme_prevalence(papers: pd.DataFrame, groups: Sequence[str], labels: Mapping[int, str], *, seed: int = 0,
                     n_bootstrap: int = N_BOOTSTRAP) -> pd.DataFrame:
    """Share of each group's papers whose strongest theme is each theme, with bootstrap 95% intervals.

    Parameters
    ----------
    papers : DataFrame
        ``group`` and ``theme`` (nullable: papers without a theme count in ``n_group`` only).
    groups : sequence of str
        The groups, in order.
    labels : mapping
        Theme number to label: the themes reported, in number order.

    Returns
    -------
    DataFrame
        :data:`PREVALENCE_COLUMNS`, groups in order, then themes by number.

    Examples
    --------
    >>> papers = pd.DataFrame({"group": ["a", "a", "b", "b"], "theme": [1, 2, 2, 2]})
    >>> theme_prevalence(papers, ["a", "b"], {1: "x", 2: "y"})[["group", "theme", "n_papers", "share"]]
      group  theme  n_papers  share
    0     a      1         1    0.5
    1     a      2         1    0.5
    2     b      1         0    0.0
    3     b      2         2    1.0
    """
    themes = sorted(int(t) for t in labels)
    counts, draws = _bootstraps(papers, groups, themes, seed=seed, n_bootstrap=n_bootstrap)
    totals = np.bincount(_group_codes(papers, groups)[_group_codes(papers, groups) >= 0], minlength=len(groups))
    rows = []
    for index, group in enumerate(groups):
        low, high = _percentiles(draws[index])
        for column, theme in enumerate(themes):
            total = int(totals[index])
            rows.append(dict(group=group, theme=theme, label=labels[theme], n_group=total,
                             n_papers=int(counts[index, column]),
                             share=round(counts[index, column] / total, 6) if total else float("nan"),
                             ci_low=round(float(low[column]), 6), ci_high=round(float(high[column]), 6)))
    return pd.DataFrame(rows, columns=PREVALENCE_COLUMNS)


def theme_change(papers: pd.DataFrame, groups: Sequence[str], labels: Mapping[int, str], *, seed: int = 0,
                 n_bootstrap: int = N_BOOTSTRAP) -> pd.DataFrame:
    """Each theme's change in share from the first to the last group, tested and corrected.

    ``change`` is ``share_last - share_first``; ``ci_low, ci_high`` the bootstrap 95% interval of it
    (the resamples of :func:`theme_prevalence`); ``p_value`` Fisher's exact test (two-sided) of the
    2 x 2 table (papers with / without the theme as strongest theme, first / last group) and
    ``q_value`` the Benjamini-Hochberg adjusted p-value over all themes. ``trend_slope, trend_z,
    trend_p`` are the Cochran-Armitage test for trend over every group (:func:`trend_test`) and
    ``trend_q`` its adjusted p-value over all themes. Rows: largest rise first (ties by theme number).

    Examples
    --------
    >>> papers = pd.DataFrame({"group": ["a"] * 10 + ["b"] * 10, "theme": [1] * 9 + [2] + [1] + [2] * 9})
    >>> table = theme_change(papers, ["a", "b"], {1: "x", 2: "y"})
    >>> table[["theme", "change", "p_value", "q_value"]].round(4)
       theme  change  p_value  q_value
    0      2     0.8   0.0011   0.0011
    1      1    -0.8   0.0011   0.0011
    """
    from scipy.stats import false_discovery_control, fisher_exact

    themes = sorted(int(t) for t in labels)
    if not themes:
        return pd.DataFrame(columns=THEME_CHANGE_COLUMNS)
    counts, draws = _bootstraps(papers, groups, themes, seed=seed, n_bootstrap=n_bootstrap)
    codes = _group_codes(papers, groups)
    totals = np.bincount(codes[codes >= 0], minlength=len(groups))
    n_first, n_last = int(totals[0]), int(totals[-1])
    low, high = _percentiles(draws[-1] - draws[0])
    rows = []
    for column, theme in enumerate(themes):
        k_first, k_last = int(counts[0, column]), int(counts[-1, column])
        p_value = fisher_exact([[k_first, n_first - k_first], [k_last, n_last - k_last]]).pvalue
        share_first = k_first / n_first if n_first else float("nan")
        share_last = k_last / n_last if n_last else float("nan")
        rows.append(dict(theme=theme, label=labels[theme], first_group=groups[0], last_group=groups[-1],
                         n_first=k_first, n_last=k_last, share_first=round(share_first, 6),
                         share_last=round(share_last, 6), change=round(share_last - share_first, 6),
                         ci_low=round(float(low[column]), 6), ci_high=round(float(high[column]), 6),
                         p_value=float(p_value)))
        trend = trend_test(counts[:, column], totals)
        rows[-1].update(trend_slope=trend.slope, trend_z=trend.z, trend_p=trend.p_value)
    table = pd.DataFrame(rows)
    table["q_value"] = false_discovery_control(table["p_value"].to_numpy(), method="bh")
    table["trend_q"] = false_discovery_control(table["trend_p"].to_numpy(), method="bh").round(8)
    table["p_value"], table["q_value"] = table["p_value"].round(8), table["q_value"].round(8)
    return table.sort_values(["change", "theme"], ascending=[False, True], kind="mergesort").reset_index(
        drop=True)[THEME_CHANGE_COLUMNS]


def _rows_of(paper_ids: Sequence[str], papers: pd.DataFrame) -> np.ndarray:
    """Row of each paper of ``papers`` in ``paper_ids`` (-1 when absent)."""
    row_of = {str(p): i for i, p in enumerate(paper_ids)}
    return papers["paper_id"].astype(str).map(row_of).fillna(-1).to_numpy(dtype=np.int64)


def term_themes(paper_terms: sparse.csr_matrix, paper_themes: np.ndarray, themes: Sequence[int]) -> np.ndarray:
    """Each term's theme: the strongest theme of most of its papers (ties: the lower number; -1: none).

    ``paper_themes`` holds each row's theme number or -1.

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


def thematic_map(papers: pd.DataFrame, groups: Sequence[str], labels: Mapping[int, str],
                 paper_terms: sparse.csr_matrix, paper_ids: Sequence[str]) -> pd.DataFrame:
    """Callon centrality and density of each theme in each group, and its quadrant.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id, group, theme``.
    paper_terms : csr_matrix
        Binary rows of ``paper_ids`` x the term map's terms.

    Returns
    -------
    DataFrame
        :data:`MAP_COLUMNS`: ``n_terms`` the theme's terms, ``n_papers`` the group's papers using one of
        them; themes without terms are left out. Quadrants split at the group's medians (a value equal
        to the median counts as high).

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
    rows_of_papers = _rows_of(paper_ids, papers)
    present = rows_of_papers >= 0
    row_themes = np.full(paper_terms.shape[0], -1, dtype=np.int64)
    theme_values = papers["theme"].astype("Int64").fillna(-1).to_numpy(dtype=np.int64)
    row_themes[rows_of_papers[present]] = theme_values[present]
    term_theme = term_themes(paper_terms, row_themes, themes)
    group_codes = _group_codes(papers, groups)
    records = []
    assigned = np.flatnonzero(term_theme >= 0)
    position = {t: i for i, t in enumerate(themes)}
    columns = [position[int(t)] for t in term_theme[assigned]]
    indicator = sparse.csr_matrix((np.ones(len(assigned)), (assigned, columns)),
                                  shape=(paper_terms.shape[1], max(len(themes), 1)))
    n_terms = np.asarray(indicator.sum(axis=0)).ravel()
    for index, group in enumerate(groups):
        rows = rows_of_papers[(group_codes == index) & present]
        matrix = paper_terms[rows].astype(float)
        together = (matrix.T @ matrix).tocoo()
        occurrences = np.asarray(matrix.sum(axis=0)).ravel()
        off = together.row != together.col
        i, j, c = together.row[off], together.col[off], together.data[off]
        equivalence = sparse.csr_matrix((c ** 2 / (occurrences[i] * occurrences[j]), (i, j)),
                                        shape=together.shape)
        between = (indicator.T @ equivalence @ indicator).toarray()  # both directions of every link
        internal = np.diag(between) / 2
        external = between.sum(axis=1) - np.diag(between)
        uses = (matrix @ indicator).toarray() > 0
        frame = pd.DataFrame({"group": group, "theme": themes, "label": [labels[t] for t in themes],
                              "n_terms": n_terms.astype(np.int64), "n_papers": uses.sum(axis=0).astype(np.int64),
                              "centrality": np.round(10 * external, 6),
                              "density": np.round(100 * internal / np.maximum(n_terms, 1), 6)})
        frame = frame[frame["n_terms"] > 0]
        high_c = frame["centrality"] >= frame["centrality"].median()
        high_d = frame["density"] >= frame["density"].median()
        frame["quadrant"] = [QUADRANTS[(bool(a), bool(b))] for a, b in zip(high_c, high_d)]
        records.append(frame)
    if not records:
        return pd.DataFrame(columns=MAP_COLUMNS)
    return pd.concat(records, ignore_index=True)[MAP_COLUMNS]


def _term_group_counts(papers: pd.DataFrame, groups: Sequence[str], paper_terms: sparse.csr_matrix,
                       paper_ids: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Papers using each term per group (terms x groups) and papers per group."""
    rows = _rows_of(paper_ids, papers)
    codes = _group_codes(papers, groups)
    keep = (rows >= 0) & (codes >= 0)
    indicator = sparse.csr_matrix((np.ones(int(keep.sum())), (rows[keep], codes[keep])),
                                  shape=(paper_terms.shape[0], len(groups)))
    counts = (paper_terms.T.astype(float) @ indicator).toarray().round().astype(np.int64)
    totals = np.bincount(codes[codes >= 0], minlength=len(groups)).astype(np.int64)
    return counts, totals


def term_change(papers: pd.DataFrame, groups: Sequence[str], terms: Sequence[str],
                paper_terms: sparse.csr_matrix, paper_ids: Sequence[str]) -> pd.DataFrame:
    """Per map term: its papers, first group, mean group position and mean year, and whether it is new.

    ``mean_position`` is the mean over the term's papers of their group's number (1 = first group);
    ``mean_year`` the mean of their ``year`` (a column of ``papers``; else the group as a number when
    every group is a year; else empty): VOSviewer's overlay colour. ``balanced_year`` weighs the groups
    alike instead of their papers: the mean of the groups' years (a group's year: the mean year of its
    papers) weighted by the share of each group's papers using the term, so one large group does not
    pull every term to its year (the book's overlay colour; empty without years). ``new_in_latest``:
    used in the latest group and in no earlier one. Rows by ``n_papers`` (most first), then term.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 0], [1, 0], [1, 1]]))
    >>> papers = pd.DataFrame({"paper_id": ["a", "b", "c"], "group": ["2023", "2024", "2025"]})
    >>> table = term_change(papers, ["2023", "2024", "2025"], ["model", "agent"], X, ["a", "b", "c"])
    >>> table[["term", "n_papers", "first_group", "mean_year", "new_in_latest"]]
        term  n_papers first_group  mean_year  new_in_latest
    0  model         3        2023     2024.0          False
    1  agent         1        2025     2025.0           True

    Three papers of 2023 and one of 2025, the term in one of each: its papers' mean year is 2024.0, but
    it is in a third of 2023's papers and all of 2025's, so weighed alike the groups give
    ``(2023 / 3 + 2025) / (1 / 3 + 1) = 2024.5``:

    >>> X = sparse.csr_matrix(np.array([[1], [0], [0], [1]]))
    >>> papers = pd.DataFrame({"paper_id": list("abcd"), "group": ["2023"] * 3 + ["2025"]})
    >>> term_change(papers, ["2023", "2025"], ["agent"], X, list("abcd"))[["mean_year", "balanced_year"]]
       mean_year  balanced_year
    0     2024.0         2024.5
    """
    counts, totals = _term_group_counts(papers, groups, paper_terms, paper_ids)
    n_papers = counts.sum(axis=1)
    positions = np.arange(1, len(groups) + 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_position = (counts @ positions) / n_papers
    group_years = np.full(len(groups), np.nan)
    if "year" in papers and papers["year"].notna().any():
        codes = _group_codes(papers, groups)
        known = pd.to_numeric(papers["year"], errors="coerce").to_numpy(dtype=float)
        for index in range(len(groups)):
            inside = known[(codes == index) & ~np.isnan(known)]
            group_years[index] = inside.mean() if len(inside) else np.nan
        rows = _rows_of(paper_ids, papers)
        years = pd.to_numeric(papers["year"], errors="coerce").to_numpy(dtype=float)
        keep = (rows >= 0) & ~np.isnan(years)
        year_of_row = np.zeros(paper_terms.shape[0])
        has_year = np.zeros(paper_terms.shape[0])
        year_of_row[rows[keep]], has_year[rows[keep]] = years[keep], 1.0
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_year = (paper_terms.T @ year_of_row) / (paper_terms.T @ has_year)
    elif all(str(g).lstrip("-").isdigit() for g in groups):
        group_years = np.array([int(g) for g in groups], dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_year = (counts @ group_years) / n_papers
    else:
        mean_year = np.full(len(terms), np.nan)
    dated = ~np.isnan(group_years) & (totals > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = counts[:, dated] / totals[dated]
        balanced_year = (shares @ group_years[dated]) / shares.sum(axis=1) if dated.any() else np.full(len(terms),
                                                                                                         np.nan)
    first = np.where(n_papers > 0, (counts > 0).argmax(axis=1), -1)
    table = pd.DataFrame({
        "term": [str(t) for t in terms], "n_papers": n_papers.astype(np.int64),
        "first_group": [groups[f] if f >= 0 else "" for f in first],
        "mean_position": np.round(mean_position.astype(float), 6),
        "mean_year": np.round(np.asarray(mean_year, dtype=float), 6),
        "balanced_year": np.round(np.asarray(balanced_year, dtype=float), 6),
        "n_latest": counts[:, -1].astype(np.int64),
        "new_in_latest": (counts[:, -1] > 0) & (counts[:, :-1].sum(axis=1) == 0),
    })
    return table.sort_values(["n_papers", "term"], ascending=[False, True], kind="mergesort").reset_index(drop=True)


def kleinberg_states(counts: np.ndarray, totals: np.ndarray, *, scale: float = BURST_SCALE,
                     gamma: float = BURST_GAMMA) -> tuple[np.ndarray, np.ndarray]:
    r"""Kleinberg's two-state burst model over batches, for many series at once.

    Kleinberg, J. (2002). Bursty and hierarchical structure in streams. *Proc. KDD 2002*, 91-101
    (section 4, "enumerating bursts" over batches of documents; CiteSpace's burst detection). Batch
    ``t`` has ``d_t`` documents (``totals``) of which ``r_t`` use the term (``counts``). The base state
    emits relevant documents at the overall rate ``p_0 = sum r / sum d``, the burst state at
    ``p_1 = min(scale * p_0, 1 - 1e-9)``. A state's cost in batch ``t`` is
    :math:`\sigma_i(t) = -\ln\left[\binom{d_t}{r_t} p_i^{r_t} (1 - p_i)^{d_t - r_t}\right]`; entering the
    burst state costs :math:`\gamma \ln n` (``n`` batches), leaving it nothing, and the series starts in
    the base state. The Viterbi algorithm finds the state sequence of least total cost. A burst is a
    maximal run of burst states; its weight is :math:`\sum_t \sigma_0(t) - \sigma_1(t)` over the run
    (the binomial coefficient cancels and is left out).

    Parameters
    ----------
    counts : array of shape (n_series, n_batches)
        ``r_t`` of each series (term).
    totals : array of shape (n_batches,)
        ``d_t``, the same for every series.

    Returns
    -------
    states : int array like ``counts``
        0 (base) or 1 (burst).
    gain : float array like ``counts``
        :math:`\sigma_0(t) - \sigma_1(t)`, for the bursts' weights.

    Examples
    --------
    Ten documents a batch; the term is in all ten of the middle batch and none of the others, so
    ``p_0 = 1/3`` and ``p_1 = 2/3``; the middle batch gains ``10 ln 2 = 6.93`` in the burst state, more
    than the ``ln 3 = 1.10`` of entering it; the others are cheaper in the base state:

    >>> states, gain = kleinberg_states(np.array([[0, 10, 0], [3, 3, 3]]), np.array([10, 10, 10]))
    >>> states
    array([[0, 1, 0],
           [0, 0, 0]])
    >>> round(float(gain[0, 1]), 4)
    6.9315
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    totals = np.asarray(totals, dtype=float)
    n_series, n_batches = counts.shape
    if n_batches == 0 or n_series == 0:
        return np.zeros(counts.shape, dtype=np.int64), np.zeros(counts.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        base = np.clip(counts.sum(axis=1) / totals.sum(), 1e-12, 1 - 1e-9)[:, None]
    burst = np.minimum(scale * base, 1 - 1e-9)
    misses = totals[None, :] - counts

    def cost(rate: np.ndarray) -> np.ndarray:
        return -(counts * np.log(rate) + misses * np.log1p(-rate))

    cost0, cost1 = cost(base), cost(burst)
    enter = gamma * math.log(n_batches) if n_batches > 1 else gamma * 0.0
    # Viterbi with two states: best total cost ending in each state, and where it came from.
    total0, total1 = cost0[:, 0].copy(), cost1[:, 0] + enter
    from1 = np.zeros((n_series, n_batches), dtype=bool)  # base at t reached from burst at t - 1
    stay1 = np.zeros((n_series, n_batches), dtype=bool)  # burst at t reached from burst at t - 1
    for t in range(1, n_batches):
        from1[:, t] = total1 < total0
        stay1[:, t] = total1 <= total0 + enter
        new0 = np.minimum(total0, total1) + cost0[:, t]
        new1 = np.where(stay1[:, t], total1, total0 + enter) + cost1[:, t]
        total0, total1 = new0, new1
    states = np.zeros((n_series, n_batches), dtype=np.int64)
    state = (total1 < total0).astype(np.int64)
    for t in range(n_batches - 1, -1, -1):
        states[:, t] = state
        if t:
            state = np.where(state == 1, stay1[:, t], from1[:, t]).astype(np.int64)
    return states, cost0 - cost1


def term_bursts(papers: pd.DataFrame, groups: Sequence[str], terms: Sequence[str], paper_terms: sparse.csr_matrix,
                paper_ids: Sequence[str], *, scale: float = BURST_SCALE, gamma: float = BURST_GAMMA
                ) -> pd.DataFrame:
    """Every burst of every map term over the groups (:func:`kleinberg_states`).

    Returns :data:`BURST_COLUMNS`: the first and last group of the burst, its length in groups, the
    papers using the term in it, and its weight; strongest first (ties: term, then start).

    Examples
    --------
    The term is in both papers of group 2 and in none of the others (``p_0 = 1/3``, ``p_1 = 2/3``):
    group 2 gains ``2 ln 2 = 1.386`` in the burst state, more than the ``ln 3`` of entering it.

    >>> X = sparse.csr_matrix(np.array([[0], [0], [1], [1], [0], [0]]))
    >>> papers = pd.DataFrame({"paper_id": list("abcdef"), "group": ["1", "1", "2", "2", "3", "3"]})
    >>> term_bursts(papers, ["1", "2", "3"], ["agent"], X, list("abcdef"))
        term start_group end_group  n_groups  n_papers    weight
    0  agent           2         2         1         2  1.386294
    """
    counts, totals = _term_group_counts(papers, groups, paper_terms, paper_ids)
    states, gain = kleinberg_states(counts, totals, scale=scale, gamma=gamma)
    rows = []
    for index in np.flatnonzero(states.any(axis=1)):
        run_start = None
        for t in range(len(groups) + 1):
            inside = t < len(groups) and states[index, t] == 1
            if inside and run_start is None:
                run_start = t
            elif not inside and run_start is not None:
                rows.append(dict(term=str(terms[index]), start_group=groups[run_start], end_group=groups[t - 1],
                                 n_groups=t - run_start, n_papers=int(counts[index, run_start:t].sum()),
                                 weight=round(float(gain[index, run_start:t].sum()), 6), start=run_start))
                run_start = None
    if not rows:
        return pd.DataFrame(columns=BURST_COLUMNS)
    table = pd.DataFrame(rows).sort_values(["weight", "term", "start"], ascending=[False, True, True],
                                           kind="mergesort")
    return table[BURST_COLUMNS].reset_index(drop=True)


def newcombe_interval(k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``k2/n2 - k1/n1`` (Newcombe 1998, method 10), from Wilson intervals.

    Examples
    --------
    >>> [round(v, 4) for v in newcombe_interval(10, 50, 25, 50)]
    [0.1134, 0.4597]
    """
    if n1 == 0 or n2 == 0:
        return float("nan"), float("nan")
    p1, p2 = k1 / n1, k2 / n2
    low1, high1 = wilson_interval(k1, n1, confidence)
    low2, high2 = wilson_interval(k2, n2, confidence)
    difference = p2 - p1
    return (difference - math.sqrt((p2 - low2) ** 2 + (high1 - p1) ** 2),
            difference + math.sqrt((high2 - p2) ** 2 + (p1 - low1) ** 2))


def proportion_change(successes: Sequence[int], trials: Sequence[int], groups: Sequence[str]) -> ProportionChange:
    """First against last group: difference, Newcombe interval, two-proportion z-test; chi-square and the
    Cochran-Armitage trend (:func:`trend_test`) over all groups.

    Examples
    --------
    >>> change = proportion_change([10, 18, 25], [50, 50, 50], ["2023", "2024", "2025"])
    >>> round(change.difference, 2), round(change.z, 4), round(change.p_value, 4), change.dof
    (0.3, 3.1449, 0.0017, 2)
    """
    from scipy.stats import chi2_contingency, norm

    successes, trials = [int(k) for k in successes], [int(n) for n in trials]
    k1, n1, k2, n2 = successes[0], trials[0], successes[-1], trials[-1]
    low, high = newcombe_interval(k1, n1, k2, n2)
    pooled = (k1 + k2) / (n1 + n2) if n1 + n2 else float("nan")
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2)) if n1 and n2 else 0.0
    difference = k2 / n2 - k1 / n1 if n1 and n2 else float("nan")
    z = difference / spread if spread else 0.0
    p_value = float(2 * norm.sf(abs(z))) if spread else 1.0
    table = np.array([[int(k), int(n) - int(k)] for k, n in zip(successes, trials)])
    used = table[:, 0] + table[:, 1] > 0
    table = table[used]
    if table.shape[0] >= 2 and (table.sum(axis=0) > 0).all():
        result = chi2_contingency(table, correction=False)
        chi2, dof, p_all = float(result.statistic), int(result.dof), float(result.pvalue)
    else:
        chi2, dof, p_all = 0.0, max(table.shape[0] - 1, 0), 1.0
    trend = trend_test(successes, trials)
    return ProportionChange(first_group=str(groups[0]), last_group=str(groups[-1]), n_first=n1, n_last=n2,
                            k_first=k1, k_last=k2, difference=round(difference, 6), ci_low=round(low, 6),
                            ci_high=round(high, 6), z=round(z, 6), p_value=round(p_value, 8),
                            chi2=round(chi2, 6), dof=dof, p_all=round(p_all, 8), trend_slope=trend.slope,
                            trend_z=trend.z, trend_p=trend.p_value)


def link_change(papers: pd.DataFrame, groups: Sequence[str]) -> pd.DataFrame:
    """Share of papers in state ``linked`` per group, with Wilson 95% intervals (:data:`LINK_COLUMNS`).

    Examples
    --------
    >>> papers = pd.DataFrame({"group": ["a", "a", "b"], "link_state": ["linked", "none", "linked"]})
    >>> link_change(papers, ["a", "b"])[["group", "n_papers", "n_linked", "share"]]
      group  n_papers  n_linked  share
    0     a         2         1    0.5
    1     b         1         1    1.0
    """
    codes = _group_codes(papers, groups)
    linked = (papers["link_state"] == "linked").to_numpy()
    rows = []
    for index, group in enumerate(groups):
        n, k = int((codes == index).sum()), int((linked & (codes == index)).sum())
        low, high = wilson_interval(k, n)
        rows.append(dict(group=group, n_papers=n, n_linked=k, share=round(k / n, 6) if n else float("nan"),
                         ci_low=round(low, 6), ci_high=round(high, 6)))
    return pd.DataFrame(rows, columns=LINK_COLUMNS)


def software_coverage(papers: pd.DataFrame, links: pd.DataFrame, groups: Sequence[str]) -> pd.DataFrame:
    """Where papers carry a ``software`` field: how many of those papers' abstracts also give a code link.

    ``n_software`` papers have a link in ``software`` (the code link given to the venue: a host name,
    with or without a scheme and a path; ``"."`` is no link);
    ``n_abstract_code`` papers have a link of a kind in :data:`SOFTWARE_KINDS` (a code host or a
    project page, what a software field holds) in their abstract (``links``: ``paper_id, kind``);
    ``abstract_share = n_software_abstract_code / n_software`` with its Wilson interval, how far the
    abstract falls short of the metadata. Only groups with a software field on some paper;
    empty without a ``software`` column.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["a", "b", "c"], "group": "2025",
    ...                        "software": ["https://github.com/x/y", "lab.github.io", "."]})
    >>> links = pd.DataFrame({"paper_id": ["a"], "kind": ["code"]})
    >>> table = software_coverage(papers, links, ["2025"])
    >>> table[["group", "n_software", "n_software_abstract_code", "abstract_share"]]
      group  n_software  n_software_abstract_code  abstract_share
    0  2025           2                         1             0.5
    """
    if "software" not in papers:
        return pd.DataFrame(columns=SOFTWARE_COLUMNS)
    # A link: a host name with a dot, with or without a scheme and a path (PMLR's ``software = {.}`` is none).
    software = papers["software"].fillna("").astype(str)
    has_software = software.str.contains(r"[\w-]+(?:\.[\w-]+)+", regex=True).to_numpy()
    code_papers = set(links.loc[links["kind"].isin(SOFTWARE_KINDS), "paper_id"].astype(str))
    abstract_code = papers["paper_id"].astype(str).isin(code_papers).to_numpy()
    codes = _group_codes(papers, groups)
    rows = []
    for index, group in enumerate(groups):
        members = codes == index
        n_software = int((has_software & members).sum())
        if not n_software:
            continue
        n, both = int(members.sum()), int((has_software & abstract_code & members).sum())
        low, high = wilson_interval(both, n_software)
        rows.append(dict(group=group, n_papers=n, n_software=n_software, software_share=round(n_software / n, 6),
                         n_abstract_code=int((abstract_code & members).sum()), n_software_abstract_code=both,
                         abstract_share=round(both / n_software, 6), ci_low=round(low, 6), ci_high=round(high, 6)))
    return pd.DataFrame(rows, columns=SOFTWARE_COLUMNS)


def analyse_change(papers: pd.DataFrame, groups: Sequence[str], labels: Mapping[int, str], *,
                   terms: Sequence[str], paper_terms: sparse.csr_matrix, paper_ids: Sequence[str],
                   links: pd.DataFrame, seed: int = 0, n_bootstrap: int = N_BOOTSTRAP) -> ChangeResult:
    """Every comparison between the groups, as one :class:`ChangeResult`.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id, group, theme, link_state`` (and ``year``, ``software`` where the input has them).
    groups : sequence of str
        At least two, in order (years ascending).
    labels : mapping
        Theme number to label (empty without a theme model).
    terms, paper_terms, paper_ids
        The term map's terms and binary paper x term matrix
        (:class:`helpers.analysis.cooccurrence.CooccurrenceResult`).
    links : DataFrame
        ``paper_id, kind``: the links found in the abstracts.

    Raises
    ------
    ValueError
        With fewer than two groups.
    """
    groups = tuple(str(g) for g in groups)
    if len(groups) < 2:
        raise ValueError(f"a comparison needs at least two groups, got {len(groups)}")
    successes = link_change(papers, groups)
    return ChangeResult(
        groups=groups,
        theme_prevalence=theme_prevalence(papers, groups, labels, seed=seed, n_bootstrap=n_bootstrap),
        theme_change=theme_change(papers, groups, labels, seed=seed, n_bootstrap=n_bootstrap),
        thematic_map=thematic_map(papers, groups, labels, paper_terms, paper_ids),
        terms=term_change(papers, groups, terms, paper_terms, paper_ids),
        bursts=(term_bursts(papers, groups, terms, paper_terms, paper_ids) if len(groups) >= MIN_BURST_GROUPS
                else pd.DataFrame(columns=BURST_COLUMNS)),
        links=successes,
        link_difference=proportion_change(successes["n_linked"], successes["n_papers"], groups),
        software=software_coverage(papers, links, groups),
        settings=dict(n_bootstrap=n_bootstrap, seed=seed, burst_scale=BURST_SCALE, burst_gamma=BURST_GAMMA,
                      min_burst_groups=MIN_BURST_GROUPS,
                      prevalence="share of the group's papers whose strongest theme it is",
                      theme_test="Fisher's exact test, two-sided, Benjamini-Hochberg corrected",
                      trend_test="Cochran-Armitage test for trend over the groups in order (scores 0, 1, 2, ...)",
                      link_test="two-proportion z-test (first vs last group); chi-square and Cochran-Armitage "
                                "trend over all groups"),
    )
