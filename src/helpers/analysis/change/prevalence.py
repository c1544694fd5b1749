"""Theme prevalence per group with bootstrap intervals, and each theme's change from the first to the last group
(Newcombe's interval at the level that matches the Benjamini-Hochberg correction, and the test it inverts)."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from helpers.analysis.change.group_order import group_numbers
from helpers.analysis.statistics import trend_test

__all__ = ["ALPHA", "adjusted_level", "N_BOOTSTRAP", "PREVALENCE_COLUMNS", "THEME_CHANGE_COLUMNS", "theme_prevalence", "theme_change"]

#: Bootstrap resamples per group.
N_BOOTSTRAP = 2000
PREVALENCE_COLUMNS = ["group", "theme", "label", "n_group", "n_papers", "share", "ci_low", "ci_high"]
THEME_CHANGE_COLUMNS = ["theme", "label", "first_group", "last_group", "n_first", "n_last", "share_first",
                        "share_last", "change", "ci_low", "ci_high", "ci_level", "p_value", "q_value", "trend_slope",
                        "trend_z", "trend_p", "trend_q"]
#: The false discovery rate at which a theme's change is claimed (BH-adjusted p below it).
ALPHA = 0.05


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
    group_codes, theme_codes = group_numbers(papers, groups), _theme_codes(papers, themes)
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
    totals = np.bincount(group_numbers(papers, groups)[group_numbers(papers, groups) >= 0], minlength=len(groups))
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


def adjusted_level(q_values: np.ndarray, alpha: float = ALPHA) -> float:
    """The confidence of intervals that agree with Benjamini-Hochberg at false discovery rate ``alpha``:
    ``1 - R alpha / m`` for ``R`` of ``m`` tests rejected (Benjamini and Yekutieli 2005), ``1 - alpha / m``
    when none is. NaN q-values (no test run) count in neither.

    BH rejects a test exactly when its p-value is at most ``R alpha / m``, so an interval that inverts the
    test at this level excludes 0 exactly for the rejected tests.

    Examples
    --------
    >>> adjusted_level(np.array([0.01, 0.04, 0.3, 0.6]))
    0.975
    >>> adjusted_level(np.array([0.2, 0.2, float("nan")]))
    0.975
    >>> adjusted_level(np.array([]))
    0.95
    """
    tested = q_values[~np.isnan(q_values)]
    rejected = int((tested < alpha).sum())
    return round(1 - max(rejected, 1) * alpha / max(len(tested), 1), 10)


def _benjamini_hochberg(p_values: np.ndarray) -> np.ndarray:
    """BH-adjusted p-values of the tests run; NaN (no test) stays NaN and is not counted."""
    from scipy.stats import false_discovery_control  # lazy: slow to import

    adjusted = np.full(len(p_values), np.nan)
    tested = ~np.isnan(p_values)
    if tested.any():
        adjusted[tested] = false_discovery_control(p_values[tested], method="bh")
    return adjusted


def theme_change(papers: pd.DataFrame, groups: Sequence[str], labels: Mapping[int, str]) -> pd.DataFrame:
    """Each theme's change in share from the first to the last group, its interval and its test, which agree.

    ``change`` is ``share_last - share_first``; ``p_value`` the two-sided test that Newcombe's hybrid score
    interval of the difference inverts (:func:`~helpers.analysis.statistics.newcombe_test`) and
    ``q_value`` its Benjamini-Hochberg adjusted p-value over the themes tested (NaN for a theme in no paper
    of either group, or in every one: no test is run); ``ci_low, ci_high`` Newcombe's interval at the
    confidence ``ci_level`` that matches the correction (:func:`adjusted_level`), so that the interval
    excludes 0 exactly when ``q_value`` is below :data:`ALPHA`. ``trend_slope, trend_z, trend_p`` are the
    Cochran-Armitage test for trend over every group (:func:`trend_test`) and ``trend_q`` its adjusted
    p-value over all themes. Rows: largest rise first (ties by theme number).

    Examples
    --------
    >>> papers = pd.DataFrame({"group": ["a"] * 10 + ["b"] * 10, "theme": [1] * 9 + [2] + [1] + [2] * 9})
    >>> table = theme_change(papers, ["a", "b"], {1: "x", 2: "y"})
    >>> table[["theme", "change", "ci_low", "ci_high", "ci_level", "q_value"]].round(4)
       theme  change  ci_low  ci_high  ci_level  q_value
    0      2     0.8  0.3699   0.9161      0.95   0.0001
    1      1    -0.8 -0.9161  -0.3699      0.95   0.0001
    """
    from helpers.analysis.statistics import newcombe_interval, newcombe_test

    themes = sorted(int(t) for t in labels)
    if not themes:
        return pd.DataFrame(columns=THEME_CHANGE_COLUMNS)
    codes = group_numbers(papers, groups)
    theme_codes = _theme_codes(papers, themes)
    counts = np.stack([np.bincount(theme_codes[codes == index], minlength=len(themes) + 1)[:len(themes)]
                       for index in range(len(groups))])
    totals = np.bincount(codes[codes >= 0], minlength=len(groups))
    n_first, n_last = int(totals[0]), int(totals[-1])
    rows = []
    for column, theme in enumerate(themes):
        k_first, k_last = int(counts[0, column]), int(counts[-1, column])
        tested = n_first > 0 and n_last > 0 and 0 < k_first + k_last < n_first + n_last
        share_first = k_first / n_first if n_first else float("nan")
        share_last = k_last / n_last if n_last else float("nan")
        rows.append(dict(theme=theme, label=labels[theme], first_group=groups[0], last_group=groups[-1],
                         n_first=k_first, n_last=k_last, share_first=round(share_first, 6),
                         share_last=round(share_last, 6), change=round(share_last - share_first, 6),
                         p_value=newcombe_test(k_first, n_first, k_last, n_last)[1] if tested else float("nan")))
        trend = trend_test(counts[:, column], totals)
        rows[-1].update(trend_slope=trend.slope, trend_z=trend.z, trend_p=trend.p_value)
    table = pd.DataFrame(rows)
    table["q_value"] = _benjamini_hochberg(table["p_value"].to_numpy(dtype=float))
    level = adjusted_level(table["q_value"].to_numpy(dtype=float))
    bounds = [newcombe_interval(int(k1), n_first, int(k2), n_last, level)
              for k1, k2 in zip(table["n_first"], table["n_last"])]
    table["ci_low"] = [round(low, 6) for low, _ in bounds]
    table["ci_high"] = [round(high, 6) for _, high in bounds]
    table["ci_level"] = level
    table["trend_q"] = _benjamini_hochberg(table["trend_p"].to_numpy(dtype=float)).round(8)
    table["p_value"], table["q_value"] = table["p_value"].round(8), table["q_value"].round(8)
    return table.sort_values(["change", "theme"], ascending=[False, True], kind="mergesort").reset_index(
        drop=True)[THEME_CHANGE_COLUMNS]

