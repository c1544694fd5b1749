"""Theme prevalence per group with Wilson intervals, and each theme's change from the first to the last group
(Newcombe's interval at the level that matches the Benjamini-Hochberg correction, and the test it inverts)."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from helpers.analysis.change.group_order import group_numbers
from helpers.analysis.statistics import trend_test

__all__ = ["ALPHA", "adjusted_level", "PREVALENCE_COLUMNS", "THEME_CHANGE_COLUMNS", "theme_counts", "theme_prevalence",
           "theme_change"]

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


def theme_counts(papers: pd.DataFrame, groups: Sequence[str], themes: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Papers per group (``groups``) and per group and theme (``groups x themes``) whose strongest theme it is.

    Parameters
    ----------
    papers : DataFrame
        ``group`` and ``theme`` (nullable: a paper without a theme counts in its group only).
    groups : sequence of str
        The groups, in order.
    themes : sequence of int
        The theme numbers, in the order of the columns returned.

    Returns
    -------
    n_group : ndarray of int
        Papers per group.
    counts : ndarray of int, shape (groups, themes)
        Papers per group whose strongest theme is each theme.

    Examples
    --------
    >>> papers = pd.DataFrame({"group": ["a", "a", "b"], "theme": pd.array([1, None, 2], dtype="Int64")})
    >>> [v.tolist() for v in theme_counts(papers, ["a", "b"], [1, 2])]
    [[2, 1], [[1, 0], [0, 1]]]
    """
    codes, theme_codes = group_numbers(papers, groups), _theme_codes(papers, themes)
    counts = np.stack([np.bincount(theme_codes[codes == index], minlength=len(themes) + 1)[:len(themes)]
                       for index in range(len(groups))]) if len(groups) else np.zeros((0, len(themes)), np.int64)
    return np.bincount(codes[codes >= 0], minlength=len(groups)), counts


def theme_prevalence(papers: pd.DataFrame, groups: Sequence[str], labels: Mapping[int, str]) -> pd.DataFrame:
    """Share of each group's papers whose strongest theme is each theme, with Wilson 95% intervals.

    Wilson's score interval never has zero width (0 of 35 papers: 0% to 9.9%), and Newcombe's interval of a
    change (:func:`theme_change`) is built from these intervals.

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
    >>> theme_prevalence(papers, ["a", "b"], {1: "x", 2: "y"})[["group", "theme", "n_papers", "share", "ci_low"]]
      group  theme  n_papers  share    ci_low
    0     a      1         1    0.5  0.094531
    1     a      2         1    0.5  0.094531
    2     b      1         0    0.0  0.000000
    3     b      2         2    1.0  0.342380
    """
    from helpers.analysis.statistics import wilson_interval

    themes = sorted(int(t) for t in labels)
    totals, counts = theme_counts(papers, groups, themes)
    rows = []
    for index, group in enumerate(groups):
        total = int(totals[index])
        for column, theme in enumerate(themes):
            k = int(counts[index, column])
            low, high = wilson_interval(k, total)
            rows.append(dict(group=group, theme=theme, label=labels[theme], n_group=total, n_papers=k,
                             share=round(k / total, 6) if total else float("nan"),
                             ci_low=round(low, 6), ci_high=round(high, 6)))
    return pd.DataFrame(rows, columns=PREVALENCE_COLUMNS)


def adjusted_level(q_values: np.ndarray, alpha: float = ALPHA) -> float:
    """The confidence of intervals that agree with Benjamini-Hochberg at false discovery rate ``alpha``:
    ``1 - R alpha / m`` for ``R`` of ``m`` tests rejected (Benjamini and Yekutieli 2005), ``1 - alpha / m``
    when none is. NaN q-values (no test run) count in neither.

    BH rejects a test exactly when its p-value is at most ``R alpha / m``, so an interval that inverts the
    test at this level excludes 0 exactly for the rejected tests.

    Parameters
    ----------
    q_values : ndarray
        The Benjamini-Hochberg adjusted p-values of the tests (NaN: no test).
    alpha : float
        The false discovery rate.

    Returns
    -------
    float
        The confidence level of the intervals.

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

    Parameters
    ----------
    papers : DataFrame
        ``group`` and ``theme`` of each paper.
    groups : sequence of str
        At least two, in order.
    labels : mapping
        Theme number to label: the themes compared.

    Returns
    -------
    DataFrame
        One row per theme, columns :data:`THEME_CHANGE_COLUMNS`.

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
    totals, counts = theme_counts(papers, groups, themes)
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

