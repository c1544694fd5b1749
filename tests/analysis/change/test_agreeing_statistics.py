"""Statistics that agree: every interval the book prints and the test beside it come from one method, a rise or a
fall is named only when its corrected test holds, and no test is run on counts that are all zero."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from helpers.analysis.change import (adjusted_level, link_change, newcombe_interval, newcombe_test,
                                     proportion_change, theme_change)
from helpers.book.reports import change as report, change_tables


def test_a_share_from_none_of_35_to_5_of_106_is_no_change_beyond_chance():
    # The interval of 0 of 35 is Wilson's [0, z^2 / (35 + z^2)], never of zero width; with 5 of 106 Newcombe's
    # interval holds 0 and the test it inverts finds nothing, together.
    z = 1.959963984540054
    low, high = newcombe_interval(0, 35, 5, 106)
    assert high == pytest.approx(_wilson(5, 106)[1], abs=1e-9)  # 5/106 + (its Wilson top - 5/106) + 0
    assert low == pytest.approx(5 / 106 - math.sqrt((5 / 106 - _wilson(5, 106)[0]) ** 2 + (z * z / (35 + z * z)) ** 2),
                                abs=1e-9)
    assert (round(low, 4), round(high, 4)) == (-0.0553, 0.1057)
    assert [round(v, 4) for v in newcombe_test(0, 35, 5, 106)] == [1.2511, 0.2109]


def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    centre, half = k / n + z * z / (2 * n), z * math.sqrt(k / n * (1 - k / n) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def test_the_interval_excludes_zero_exactly_when_the_test_holds_on_every_small_table():
    # Every 2 x 2 table with up to 12 papers a group, at three levels: not one disagreement.
    disagreements, tables = 0, 0
    for n1 in (3, 7, 12):
        for n2 in (4, 9, 12):
            for k1 in range(n1 + 1):
                for k2 in range(n2 + 1):
                    if k1 * n2 == k2 * n1:
                        continue
                    _, p = newcombe_test(k1, n1, k2, n2)
                    for level in (0.95, 0.99, 0.9875):
                        low, high = newcombe_interval(k1, n1, k2, n2, level)
                        tables += 1
                        disagreements += (low > 0 or high < 0) != (p < 1 - level)
    assert (tables, disagreements) == (1986, 0)


def test_the_level_matches_benjamini_hochberg():
    # 2 of 4 tests held at a false discovery rate of 0.05: intervals at 1 - 2 x 0.05 / 4.
    assert adjusted_level(np.array([0.01, 0.04, 0.3, 0.6])) == 0.975
    assert adjusted_level(np.array([0.2, 0.3])) == 0.975  # none held: 1 - 0.05 / 2
    assert adjusted_level(np.array([0.01, float("nan")])) == 0.95


def _corpus(first: dict[int, int], last: dict[int, int]) -> pd.DataFrame:
    themes = [t for t, n in first.items() for _ in range(n)] + [t for t, n in last.items() for _ in range(n)]
    groups = ["2010"] * sum(first.values()) + ["2013"] * sum(last.values())
    return pd.DataFrame({"group": groups, "theme": themes})


def test_no_largest_rise_is_named_when_no_change_holds_its_test():
    # Theme 1 from 0 of 35 papers to 5 of 106: it rose most, but not beyond chance.
    papers = _corpus({1: 0, 2: 20, 3: 15}, {1: 5, 2: 56, 3: 45})
    table = theme_change(papers, ["2010", "2013"], {1: "capillary · sieving", 2: "x", 3: "y"})
    row = table.set_index("theme").loc[1]
    assert (row["share_first"], row["share_last"], row["change"]) == (0.0, 0.04717, 0.04717)
    assert row["ci_level"] == round(1 - 0.05 / 3, 10) and row["ci_low"] < 0 < row["ci_high"]
    assert ((table["ci_low"] > 0) | (table["ci_high"] < 0)).sum() == (table["q_value"] < 0.05).sum() == 0
    change = SimpleNamespace(groups=("2010", "2013"), theme_change=table)
    assert report.rise_and_fall(change) == (None, None)
    assert report.shift_sentence(change, str) == (
        "no theme's share changed beyond chance: none of the 3 themes has a BH-adjusted p below 0.05 "
        f"(the smallest is {table['q_value'].min():.3g})")


def test_a_rise_and_a_fall_that_hold_are_named_with_intervals_of_the_matching_level():
    # 2 of 40 papers to 30 of 60 (a rise), 19 of 40 to 29 of 60 (steady), 19 of 40 to 1 of 60 (a fall): two of
    # three changes hold at a false discovery rate of 0.05, so the intervals are at 1 - 2 x 0.05 / 3.
    papers = _corpus({1: 2, 2: 19, 3: 19}, {1: 30, 2: 29, 3: 1})
    table = theme_change(papers, ["2010", "2013"], {1: "rise", 2: "steady", 3: "fall"})
    level = round(1 - 2 * 0.05 / 3, 10)
    assert table["theme"].tolist() == [1, 2, 3] and set(table["ci_level"]) == {level}
    assert (table["q_value"] < 0.05).tolist() == [True, False, True]
    assert ((table["ci_low"] > 0) | (table["ci_high"] < 0)).tolist() == [True, False, True]
    expected = [newcombe_interval(2, 40, 30, 60, level), newcombe_interval(19, 40, 29, 60, level),
                newcombe_interval(19, 40, 1, 60, level)]
    assert table[["ci_low", "ci_high"]].values.tolist() == [[round(lo, 6), round(hi, 6)] for lo, hi in expected]
    assert [round(v, 4) for v in expected[0]] == [0.2651, 0.5877]
    sentence = report.shift_sentence(SimpleNamespace(groups=("2010", "2013"), theme_change=table), str)
    assert sentence == (
        "2 of 3 themes changed beyond chance (BH-adjusted p below 0.05): the largest rise is *rise* (5.0% of 2010 to "
        "50.0% of 2013, +45.0 points, 96.667% interval +26.5 to +58.8 points, BH-adjusted p < 0.001); the largest "
        "fall is *fall* (47.5% of 2010 to 1.7% of 2013, -45.8 points, 96.667% interval -62.1 to -28.1 points, "
        "BH-adjusted p < 0.001)")


def test_no_test_is_run_when_no_paper_links_in_any_group():
    papers = pd.DataFrame({"group": ["2010"] * 35 + ["2013"] * 106, "link_state": "none"})
    links = link_change(papers, ["2010", "2013"])
    difference = proportion_change(links["n_linked"], links["n_papers"], ["2010", "2013"])
    assert [math.isnan(v) for v in (difference.z, difference.p_value, difference.chi2, difference.p_all,
                                    difference.trend_z, difference.trend_p)] == [True] * 6
    change = SimpleNamespace(groups=("2010", "2013"), links=links, link_difference=difference)
    sentence = report.links_sentence(change, str)
    assert sentence == "no paper linked in any group (0 of 141 papers), so no share is compared and no test is run"
    assert "z =" not in sentence and "p =" not in sentence


def test_first_and_last_without_links_are_not_compared_but_the_groups_are():
    papers = pd.DataFrame({"group": ["a"] * 10 + ["b"] * 10 + ["c"] * 10,
                           "link_state": ["none"] * 10 + ["linked"] * 4 + ["none"] * 16})
    links = link_change(papers, ["a", "b", "c"])
    difference = proportion_change(links["n_linked"], links["n_papers"], ["a", "b", "c"])
    assert math.isnan(difference.p_value) and difference.dof == 2 and not math.isnan(difference.p_all)
    sentence = report.links_sentence(SimpleNamespace(groups=("a", "b", "c"), links=links,
                                                     link_difference=difference), str)
    assert sentence.startswith("0.0% (0 of 10, 95% interval 0.0% to 27.8%) in a and 0.0% (0 of 10, 95% interval "
                               "0.0% to 27.8%) in c (Wilson intervals); no paper linked in either a or c, so the two "
                               "are not compared. Over every group the share's trend is +0.0 points a group, z = 0.00")


def test_the_thematic_map_settles_a_side_only_beyond_noise():
    from scipy import sparse

    from helpers.analysis.change import thematic_map

    # Three papers outside the compared group give the terms their themes: 0-2 theme 1, 3-4 theme 2, 5 theme 3.
    # The group's four papers all use the six terms, so every resample gives the same map: every equivalence
    # index is 1; theme 1 has 3 links inside (density 100 x 3 / 3) and 9 out (centrality 90), theme 2 1 and 8
    # (50, 80), theme 3 0 and 5 (0, 50). Medians 80 and 50: theme 2 sits on both, within noise.
    rows = [[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 0], [0, 0, 0, 0, 0, 1]] + [[1] * 6] * 4
    papers = pd.DataFrame({"paper_id": [f"p{i}" for i in range(7)], "group": ["z"] * 3 + ["a"] * 4,
                           "theme": pd.array([1, 2, 3] + [None] * 4, dtype="Int64")})
    table = thematic_map(papers, ["a", "b"], {1: "x", 2: "y", 3: "w"}, sparse.csr_matrix(np.array(rows)),
                         papers["paper_id"].tolist(), n_bootstrap=50)
    table = table[table["group"] == "a"]
    assert table[["centrality", "density", "quadrant"]].values.tolist() == [
        [90.0, 100.0, "motor"], [80.0, 50.0, "motor"], [50.0, 0.0, "emerging or declining"]]
    assert table[["centrality_margin_low", "centrality_margin_high", "density_margin_low",
                  "density_margin_high"]].values.tolist() == [[10.0, 10.0, 50.0, 50.0], [0.0, 0.0, 0.0, 0.0],
                                                              [-30.0, -30.0, -50.0, -50.0]]
    assert table[["centrality_side", "density_side"]].values.tolist() == [
        ["high", "high"], ["border", "border"], ["low", "low"]]


def _map_row(group: str, quadrant: str, centrality: float, density: float, margins: tuple[float, ...],
             sides: tuple[str, str]) -> dict:
    return dict(group=group, theme=1, label="foundation model · vision", n_papers=38, centrality=centrality,
                density=density, quadrant=quadrant, centrality_margin_low=margins[0], centrality_margin_high=margins[1],
                density_margin_low=margins[2], density_margin_high=margins[3], centrality_side=sides[0],
                density_side=sides[1])


def test_a_density_a_hair_below_the_median_is_no_quadrant_change():
    # Motor in 2023; in 2025 its density 12.907 is below the median 12.912 by less than the noise.
    others = [dict(_map_row(g, "niche", 100.0, d, (-5.0, -1.0, 1.0, 9.0), ("low", "high")), theme=2, label="y")
              for g, d in (("2023", 20.0), ("2025", 12.917))]
    table = pd.DataFrame([_map_row("2023", "motor", 172.4, 25.0, (2.0, 120.0, 1.0, 20.0), ("high", "high")),
                          _map_row("2025", "basic", 172.4, 12.907, (2.6, 117.9, -4.3, 6.5), ("high", "border")),
                          *others])
    change = SimpleNamespace(groups=("2023", "2025"), thematic_map=table)
    assert report.quadrant_moves(change, str) == (
        "none beyond noise: 1 theme is in another quadrant by the medians alone, but its centrality or density lies "
        "within noise of a median in 2023 or 2025")
    settled = table.assign(density_side=["high", "low", "high", "high"], density_margin_high=[20.0, -0.5, 9.0, 9.0])
    assert report.quadrant_moves(SimpleNamespace(groups=("2023", "2025"), thematic_map=settled), str) == (
        "*foundation model · vision*, motor in 2023, is basic in 2025: its centrality 172.40 is above the median "
        "136.20 of 2025 (the difference's 95% bootstrap interval +2.60 to +117.90) and its density 12.907 below the "
        "median 12.912 (-4.30 to -0.50)")


def test_two_groups_are_compared_by_one_test_only():
    # Over two groups the Cochran-Armitage trend and the chi-square test the same two shares as Newcombe's test
    # (and may disagree with it near 0.05): the page gives the one test.
    papers = pd.DataFrame({"group": ["2010"] * 40 + ["2013"] * 60,
                           "theme": [1] * 2 + [2] * 38 + [1] * 30 + [2] * 30,
                           "link_state": ["linked"] * 4 + ["none"] * 36 + ["linked"] * 15 + ["none"] * 45})
    groups = ("2010", "2013")
    links = link_change(papers, list(groups))
    difference = proportion_change(links["n_linked"], links["n_papers"], list(groups))
    change = SimpleNamespace(groups=groups, links=links, link_difference=difference,
                             theme_change=theme_change(papers, list(groups), {1: "x", 2: "y"}))
    assert report.trend_sentence(change, str) == (
        "with two groups, a trend is the change from 2010 to 2013, tested once below")
    low, high = newcombe_interval(4, 40, 15, 60)
    assert report.links_sentence(change, str) == (
        f"10.0% (4 of 40, 95% interval {100 * links['ci_low'][0]:.1f}% to {100 * links['ci_high'][0]:.1f}%) in 2010 "
        f"and 25.0% (15 of 60, 95% interval {100 * links['ci_low'][1]:.1f}% to {100 * links['ci_high'][1]:.1f}%) in "
        f"2013 (Wilson intervals), a change of +15.0 points (95% interval {100 * low:+.1f} to {100 * high:+.1f} "
        f"points, Newcombe; p = {newcombe_test(4, 40, 15, 60)[1]:.3g}, the test this interval inverts)")
    assert list(change_tables.theme_change_table(change).columns) == [
        "theme", "first group", "last group", "change, points (95% interval)", "p (BH)", "explorer"]
