"""Intervals and tests for proportions, shared by the link and the change analyses.

* :func:`wilson_interval`: Wilson's score interval for one proportion (scipy's ``binomtest``).
* :func:`newcombe_interval`: Newcombe's hybrid score interval for a difference of two proportions.
* :func:`newcombe_test`: the test that interval inverts (its p-value is below ``alpha`` exactly when the
  ``1 - alpha`` interval excludes 0), so an interval and its test never disagree.
* :func:`trend_test`: the Cochran-Armitage test for trend in proportions over ordered groups (:class:`Trend`).
* :func:`proportion_change`: first against last group (difference, Newcombe's interval and its test),
  a chi-square test over every group and the trend (:class:`ProportionChange`); no test on counts without
  spread (no paper, or every paper, with the property).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

__all__ = ["wilson_interval", "newcombe_interval", "newcombe_test", "Trend", "trend_test", "ProportionChange", "proportion_change"]


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (scipy's ``binomtest(...).proportion_ci``).

    Parameters
    ----------
    successes, trials : int
        Papers with the property, and papers.
    confidence : float
        The interval's coverage.

    Returns
    -------
    tuple of float
        The interval's low and high end (NaN without a paper).

    Examples
    --------
    >>> [round(v, 4) for v in wilson_interval(16, 57)]
    [0.1808, 0.4083]
    >>> wilson_interval(0, 0)
    (nan, nan)
    """
    if trials == 0:
        return float("nan"), float("nan")
    from scipy.stats import binomtest  # lazy: slow to import

    interval = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return float(interval.low), float(interval.high)


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
        The test Newcombe's interval inverts (:func:`newcombe_test`), two-sided: the interval excludes 0
        exactly when ``p_value < 0.05``. NaN when neither group has a paper with the property, or every
        paper of both has it: no test is run on such counts.
    chi2, dof, p_all : float, int, float
        Chi-square test that every group has the same proportion (all groups, not only the two); NaN
        when no paper of any group has the property, or every paper has it.
    trend_slope, trend_z, trend_p : float
        The Cochran-Armitage test for trend over every group, in order (:func:`trend_test`); NaN as ``p_all``.

    Examples
    --------
    >>> proportion_change([1, 4], [10, 10], ["2023", "2024"]).last_group
    '2024'
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
class Trend:
    """The Cochran-Armitage test for trend in proportions over ordered groups (:func:`trend_test`).

    Attributes
    ----------
    slope : float
        The least-squares line through the groups' shares (each weighted by its papers), per step of
        score: the change of the share from one group to the next.
    z, p_value : float
        The test statistic (positive: the share rises) and its two-sided p-value.

    Examples
    --------
    >>> Trend(0.15, 3.138042, 0.00170081).p_value < 0.05
    True
    """

    slope: float
    z: float
    p_value: float


def trend_test(successes: Sequence[int] | np.ndarray, trials: Sequence[int] | np.ndarray,
               scores: Sequence[float] | None = None) -> Trend:
    r"""The Cochran-Armitage test for trend in proportions (Cochran 1954; Armitage 1955).

    Group :math:`i` has :math:`k_i` of :math:`n_i` papers with the property and score :math:`s_i`
    (default: its position, 0, 1, 2, ...). With :math:`N = \sum n_i` and :math:`\bar p = \sum k_i / N`,

    .. math:: T = \sum s_i (k_i - n_i \bar p), \quad S = \sum n_i s_i^2 - (\sum n_i s_i)^2 / N,
              \quad z = T / \sqrt{\bar p (1 - \bar p) S},

    two-sided :math:`p = 2 (1 - \Phi(|z|))`; :math:`T / S` is the slope of the least-squares line through
    the shares :math:`k_i / n_i` weighted by :math:`n_i`. With two groups, :math:`z` is the pooled
    two-proportion z. Without spread (one group, or every paper alike) ``Trend(0.0, 0.0, 1.0)``.

    Parameters
    ----------
    successes, trials : sequence of int
        Papers with the property, and papers, in each group, in order.
    scores : sequence of float, optional
        Each group's score (default: 0, 1, 2, ...).

    Returns
    -------
    Trend
        Slope, ``z`` and two-sided p-value.

    Examples
    --------
    >>> trend_test([10, 18, 25], [50, 50, 50])
    Trend(slope=0.15, z=3.138042, p_value=0.00170081)
    """
    from scipy.stats import norm  # lazy: slow to import

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


def _wilson_bounds(successes: int, trials: int, z: float) -> tuple[float, float]:
    """Wilson's score interval at normal deviate ``z`` in closed form (Wilson 1927), as ``binomtest`` gives it."""
    share, spread = successes / trials, z * z / trials
    centre = share + spread / 2
    half = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials))
    return max((centre - half) / (1 + spread), 0.0), min((centre + half) / (1 + spread), 1.0)


def _newcombe_at(k1: int, n1: int, k2: int, n2: int, z: float) -> tuple[float, float]:
    p1, p2 = k1 / n1, k2 / n2
    low1, high1 = _wilson_bounds(k1, n1, z)
    low2, high2 = _wilson_bounds(k2, n2, z)
    difference = p2 - p1
    return (difference - math.sqrt((p2 - low2) ** 2 + (high1 - p1) ** 2),
            difference + math.sqrt((high2 - p2) ** 2 + (p1 - low1) ** 2))


def newcombe_interval(k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``k2/n2 - k1/n1`` (Newcombe 1998, method 10), from Wilson intervals.

    Parameters
    ----------
    k1, n1 : int
        Papers with the property, and papers, in the first group.
    k2, n2 : int
        The same in the second group.
    confidence : float
        The interval's coverage.

    Returns
    -------
    tuple of float
        The interval's low and high end.

    Examples
    --------
    >>> [round(v, 4) for v in newcombe_interval(10, 50, 25, 50)]
    [0.1134, 0.4597]
    >>> [round(v, 4) for v in newcombe_interval(0, 35, 5, 106)]
    [-0.0553, 0.1057]
    """
    if n1 == 0 or n2 == 0:
        return float("nan"), float("nan")
    from scipy.stats import norm  # lazy: slow to import

    return _newcombe_at(k1, n1, k2, n2, float(norm.isf((1 - confidence) / 2)))


def newcombe_test(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """The test that Newcombe's interval inverts: the normal deviate ``z`` at which the interval's nearer
    end reaches 0 (signed as the difference) and the two-sided ``p = 2 (1 - Phi(|z|))``.

    The interval at confidence ``1 - alpha`` (:func:`newcombe_interval`) excludes 0 exactly when
    ``p < alpha``, so the interval and the test cannot disagree. No difference: ``(0.0, 1.0)``; an empty
    group: ``(nan, nan)``.

    Parameters
    ----------
    k1, n1 : int
        Papers with the property, and papers, in the first group.
    k2, n2 : int
        The same in the second group (the difference is the second's share minus the first's).

    Returns
    -------
    tuple of float
        ``z`` and the two-sided p-value.

    Examples
    --------
    >>> [round(v, 4) for v in newcombe_test(10, 50, 25, 50)]
    [3.1548, 0.0016]
    >>> [round(v, 4) for v in newcombe_test(0, 35, 5, 106)]
    [1.2511, 0.2109]
    >>> newcombe_test(3, 10, 3, 10)
    (0.0, 1.0)
    """
    if n1 == 0 or n2 == 0:
        return float("nan"), float("nan")
    from scipy.optimize import brentq  # lazy: slow to import
    from scipy.stats import norm

    difference = k2 / n2 - k1 / n1
    if difference == 0:
        return 0.0, 1.0
    # The near end of the interval moves away from the difference as z grows, strictly, and passes 0 (the
    # Wilson intervals tend to [0, 1]); so it reaches 0 at one z.
    if difference > 0:
        def near(z: float) -> float:
            return _newcombe_at(k1, n1, k2, n2, z)[0]
    else:
        def near(z: float) -> float:
            return -_newcombe_at(k1, n1, k2, n2, z)[1]
    high = 8.0
    while near(high) > 0 and high < 1e6:
        high *= 2
    z = float(brentq(near, 0.0, high, xtol=1e-12, rtol=1e-12))
    return math.copysign(z, difference), float(2 * norm.sf(z))


def proportion_change(successes: Sequence[int], trials: Sequence[int], groups: Sequence[str]) -> ProportionChange:
    """First against last group: difference, Newcombe's interval and the test it inverts (:func:`newcombe_test`);
    chi-square and the Cochran-Armitage trend (:func:`trend_test`) over all groups.

    No test is run on counts without spread: the first-to-last test needs a paper with the property, and
    one without, in the two groups; the tests over all groups the same in all groups. Otherwise their
    values are NaN.

    Parameters
    ----------
    successes, trials : sequence of int
        Papers with the property, and papers, in each group, in order.
    groups : sequence of str
        The groups' names, in the same order.

    Returns
    -------
    ProportionChange
        The change and its tests.

    Examples
    --------
    >>> change = proportion_change([10, 18, 25], [50, 50, 50], ["2023", "2024", "2025"])
    >>> round(change.difference, 2), round(change.z, 4), round(change.p_value, 4), change.dof
    (0.3, 3.1548, 0.0016, 2)
    >>> none = proportion_change([0, 0, 0], [20, 30, 40], ["a", "b", "c"])
    >>> none.difference, none.p_value, none.p_all, none.trend_p
    (0.0, nan, nan, nan)
    """
    from scipy.stats import chi2_contingency  # lazy: slow to import

    successes, trials = [int(k) for k in successes], [int(n) for n in trials]
    k1, n1, k2, n2 = successes[0], trials[0], successes[-1], trials[-1]
    low, high = newcombe_interval(k1, n1, k2, n2)
    difference = k2 / n2 - k1 / n1 if n1 and n2 else float("nan")
    nan = float("nan")
    z, p_value = newcombe_test(k1, n1, k2, n2) if 0 < k1 + k2 < n1 + n2 else (nan, nan)
    table = np.array([[int(k), int(n) - int(k)] for k, n in zip(successes, trials)])
    used = table[:, 0] + table[:, 1] > 0
    table = table[used]
    spread = bool((table.sum(axis=0) > 0).all()) if len(table) else False
    if table.shape[0] >= 2 and spread:
        result = chi2_contingency(table, correction=False)
        chi2, dof, p_all = float(result.statistic), int(result.dof), float(result.pvalue)
        trend = trend_test(successes, trials)
    else:
        chi2, dof, p_all = nan, max(table.shape[0] - 1, 0), nan
        trend = Trend(nan, nan, nan)
    return ProportionChange(first_group=str(groups[0]), last_group=str(groups[-1]), n_first=n1, n_last=n2,
                            k_first=k1, k_last=k2, difference=round(difference, 6), ci_low=round(low, 6),
                            ci_high=round(high, 6), z=round(z, 6), p_value=round(p_value, 8),
                            chi2=round(chi2, 6), dof=dof, p_all=round(p_all, 8), trend_slope=trend.slope,
                            trend_z=trend.z, trend_p=trend.p_value)
