"""What changed between groups: the statistics on hand-made tables, and a three-year corpus whose glued
numbers are recomputed from the CSVs ``analyse`` writes."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from helpers.analysis.change import (
    kleinberg_states,
    link_change,
    ordered_groups,
    proportion_change,
    software_coverage,
    term_bursts,
    term_change,
    theme_change,
    theme_prevalence,
)
from helpers.analysis.pipeline import run_pipeline, write_outputs
from helpers.analysis.pipeline.stages import analyse_group_change
from helpers.analysis.settings import AnalysisSettings
from helpers.book.reports import change as report, change_figures

from tests.support import SEED_DIR

# --- Kleinberg's two-state burst model, on series computed by hand -------------------------------------


def test_burst_in_the_middle_batch():
    # p0 = 1/3, p1 = 2/3: batch 2 gains 10 ln 2 in the burst state, more than ln 3 to enter it.
    states, gain = kleinberg_states(np.array([[0, 10, 0]]), np.array([10, 10, 10]))
    assert states.tolist() == [[0, 1, 0]]
    assert gain[0, 1] == pytest.approx(10 * math.log(2))
    assert gain[0, 0] == pytest.approx(-10 * math.log(2))


def test_a_steady_series_has_no_burst():
    states, _ = kleinberg_states(np.array([[3, 3, 3]]), np.array([10, 10, 10]))
    assert states.tolist() == [[0, 0, 0]]


def test_the_cost_of_entering_decides_a_small_burst():
    # p0 = 0.1, p1 = 0.2; batch 2 (16 of 100) gains 16 ln 2 - 84 ln(0.9 / 0.8) = 1.1966,
    # more than gamma ln 3 = 1.0986 for gamma 1, less than 1.3183 for gamma 1.2.
    counts, totals = np.array([[9, 16, 5]]), np.array([100, 100, 100])
    states, gain = kleinberg_states(counts, totals)
    assert gain[0, 1] == pytest.approx(16 * math.log(2) - 84 * math.log(0.9 / 0.8))
    assert states.tolist() == [[0, 1, 0]]
    assert kleinberg_states(counts, totals, gamma=1.2)[0].tolist() == [[0, 0, 0]]


def test_a_burst_stays_while_it_pays_and_two_bursts_are_two_rows():
    # [0, 10, 10, 0]: p0 = 1/2, p1 = 1 - 1e-9: one burst of two batches, weight 2 x 10 ln 2 (to 1e-6).
    # [10, 0, 10]: p0 = 2/3; the empty middle batch is far cheaper in the base state: two bursts.
    X = sparse.csr_matrix(np.array([[0] * 10 + [1] * 20 + [0] * 10, [1] * 10 + [0] * 10 + [1] * 10 + [0] * 10]).T)
    papers = pd.DataFrame({"paper_id": [f"p{i}" for i in range(40)], "group": np.repeat(["1", "2", "3", "4"], 10)})
    ids = papers["paper_id"].tolist()
    one = term_bursts(papers, ["1", "2", "3", "4"], ["steady"], X[:, [0]].tocsr(), ids)
    assert one[["term", "start_group", "end_group", "n_groups", "n_papers"]].values.tolist() == [
        ["steady", "2", "3", 2, 20]]
    assert one["weight"].iloc[0] == pytest.approx(20 * math.log(2), abs=1e-4)
    three = papers.iloc[:30]
    two = term_bursts(three, ["1", "2", "3"], ["twice"], X[:30, [1]].tocsr(), ids[:30])
    assert two[["start_group", "end_group", "n_papers"]].values.tolist() == [["1", "1", 10], ["3", "3", 10]]
    assert two["weight"].tolist() == pytest.approx([-10 * math.log(2 / 3)] * 2, abs=1e-4)


# --- themes, terms and links on hand-made tables ----------------------------------------------------------


def test_theme_change_newcombe_and_benjamini_hochberg():
    papers = pd.DataFrame({"group": ["a"] * 10 + ["b"] * 10, "theme": [1] * 9 + [2] + [1] + [2] * 9})
    table = theme_change(papers, ["a", "b"], {1: "x", 2: "y"})
    assert table["theme"].tolist() == [2, 1]
    assert table["change"].tolist() == [0.8, -0.8]
    # Both themes' 2 x 2 tables are [[9, 1], [1, 9]]: the same p, so BH leaves it; both held, so R / m = 1 and
    # the intervals are at 95%, Newcombe's from the Wilson intervals of 1/10 and 9/10.
    z = 1.959963984540054
    low_9 = ((0.9 + z * z / 20) - z * math.sqrt(0.09 / 10 + z * z / 400)) / (1 + z * z / 10)
    high_1 = 1 - low_9  # Wilson's interval of 1/10 mirrors that of 9/10
    assert table["ci_level"].tolist() == [0.95, 0.95]
    assert table.loc[0, "ci_low"] == pytest.approx(0.8 - math.sqrt((0.9 - low_9) ** 2 + (high_1 - 0.1) ** 2), abs=1e-6)
    assert table["p_value"].tolist() == table["q_value"].tolist() == [round(table["p_value"].iloc[0], 8)] * 2
    assert table["q_value"].iloc[0] < 0.05 and table.loc[0, "ci_low"] > 0 and table.loc[1, "ci_high"] < 0


def test_theme_shares_have_wilson_intervals_never_of_zero_width():
    # Group a: 0 of 35 papers in theme 1; Wilson's interval of 0/35 is [0, z^2 / (35 + z^2)].
    papers = pd.DataFrame({"group": ["a"] * 35 + ["b"] * 10, "theme": [2] * 35 + [1] * 4 + [2] * 6})
    table = theme_prevalence(papers, ["a", "b"], {1: "x", 2: "y"})
    z2 = 1.959963984540054 ** 2
    assert table[["group", "theme", "n_papers", "share"]].values.tolist() == [
        ["a", 1, 0, 0.0], ["a", 2, 35, 1.0], ["b", 1, 4, 0.4], ["b", 2, 6, 0.6]]
    assert table.loc[0, ["ci_low", "ci_high"]].tolist() == [0.0, round(z2 / (35 + z2), 6)] == [0.0, 0.098901]
    assert table.loc[1, ["ci_low", "ci_high"]].tolist() == [round(35 / (35 + z2), 6), 1.0]


def test_papers_without_a_theme_count_in_the_group():
    papers = pd.DataFrame({"group": ["a", "a", "b", "b"], "theme": pd.array([1, pd.NA, 1, 1], dtype="Int64")})
    table = theme_prevalence(papers, ["a", "b"], {1: "x"})
    assert table[["n_group", "n_papers", "share"]].values.tolist() == [[2, 1, 0.5], [2, 2, 1.0]]


def test_new_terms_and_mean_year_from_a_year_column():
    X = sparse.csr_matrix(np.array([[1, 0], [1, 0], [1, 1]]))
    papers = pd.DataFrame({"paper_id": ["a", "b", "c"], "group": ["ICML", "ICML", "NeurIPS"],
                           "year": pd.array([2023, 2024, 2025], dtype="Int64")})
    table = term_change(papers, ["ICML", "NeurIPS"], ["model", "agent"], X, ["a", "b", "c"])
    assert table[["term", "mean_year", "mean_position", "new_in_latest"]].values.tolist() == [
        ["model", 2024.0, round(4 / 3, 6), False], ["agent", 2025.0, 2.0, True]]


def test_link_shares_and_the_difference():
    papers = pd.DataFrame({"group": ["2023"] * 50 + ["2024"] * 50 + ["2025"] * 50,
                           "link_state": ["linked"] * 10 + ["none"] * 40 + ["linked"] * 18 + ["none"] * 32
                           + ["linked"] * 25 + ["dangling"] * 25})
    table = link_change(papers, ["2023", "2024", "2025"])
    assert table["n_linked"].tolist() == [10, 18, 25]
    change = proportion_change(table["n_linked"], table["n_papers"], ["2023", "2024", "2025"])
    assert change.difference == 0.3
    # The test Newcombe's interval inverts: its 1 - p interval reaches 0 (3.154811, where the pooled z is 3.1449).
    assert (change.z, change.p_value) == (3.154811, 0.00160602)
    # Newcombe (1998, method 10) from the closed-form Wilson intervals of 10/50 and 25/50.
    def wilson(k, n, z=1.959963984540054):
        centre, half = (k / n + z * z / (2 * n)), z * math.sqrt(k / n * (1 - k / n) / n + z * z / (4 * n * n))
        return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)

    (l1, u1), (l2, u2) = wilson(10, 50), wilson(25, 50)
    assert change.ci_low == pytest.approx(0.3 - math.sqrt((0.5 - l2) ** 2 + (u1 - 0.2) ** 2), abs=1e-6)
    assert change.ci_high == pytest.approx(0.3 + math.sqrt((u2 - 0.5) ** 2 + (0.2 - l1) ** 2), abs=1e-6)
    assert change.dof == 2


def test_software_field_against_the_abstract():
    papers = pd.DataFrame({"paper_id": list("abcd"), "group": ["2023", "2025", "2025", "2025"],
                           "software": ["", "https://github.com/x/y", "lab.github.io", "."]})
    links = pd.DataFrame({"paper_id": ["b", "c", "d"], "kind": ["code", "paper", "project page"]})
    table = software_coverage(papers, links, ["2023", "2025"])
    assert table[["group", "n_papers", "n_software", "n_abstract_code", "n_software_abstract_code",
                  "abstract_share"]].values.tolist() == [["2025", 3, 2, 2, 1, 0.5]]
    assert software_coverage(papers.drop(columns="software"), links, ["2023", "2025"]).empty


def test_groups_in_year_order():
    assert ordered_groups(pd.Series(["2025", "2023", "2024"])) == ("2023", "2024", "2025")


# --- a three-year corpus: the glued numbers are those of the CSVs ----------------------------------------


@pytest.fixture(scope="module")
def three_years(tmp_path_factory):
    """The seed's three files as the papers of 2023, 2024 and 2025, in one JSON Lines file with a year each
    (grouped by year, the default); every other 2025 paper gave the venue a code link (``software``)."""
    import json

    from helpers.analysis.corpus import read_corpus

    folder = tmp_path_factory.mktemp("three-years")
    lines = []
    for year, path in zip((2023, 2024, 2025), sorted(SEED_DIR.glob("*.txt"))):
        for number, text in enumerate(read_corpus([path]).papers["text"]):
            record = {"key": f"p{year}-{number}", "title": f"Paper {number} of {year}", "year": year,
                      "abstract": text}
            if year == 2025 and number % 2 == 0:
                record["software"] = f"https://github.com/lab/p{number}"
            lines.append(json.dumps(record))
    (folder / "icml.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # 19 papers a year: merged by default (fewer than 30 a year), so grouped by year as asked.
    analysis = run_pipeline([folder], AnalysisSettings(group_by="year"), n_jobs=1)
    out = tmp_path_factory.mktemp("out")
    write_outputs(analysis, out)
    return analysis, out


def test_the_change_tables_are_written(three_years):
    _, out = three_years
    analysis, _ = three_years
    assert (analysis.group_by, analysis.group_order) == ("year", ("2023", "2024", "2025"))
    assert analysis.change.groups == analysis.group_order
    assert "change" in analysis.timings
    for name in ("theme_change", "theme_prevalence", "thematic_map", "term_change", "term_bursts", "link_change",
                 "link_change_test", "software_links"):
        assert (out / f"{name}.csv").exists(), name


def test_the_change_page_shows_every_value_it_glues_for_groups(three_years):
    """The other half of the glue contract for the page whose chapter run (tests/chapters/test_notebooks.py) has one group:
    with three groups, every value, sentence and figure it glues is shown in chapters/change.md's text."""
    from helpers.book.page_figures import figure_citations, glue_name
    from helpers.book.figures import GROUP_FIGURES

    from tests.support import ROOT
    from tests.support.chapters import glue_names

    analysis, _ = three_years
    glued = {*report.change_values(analysis), *figure_citations(analysis, "change"),
             *(glue_name(label) for label, chapter, _ in GROUP_FIGURES if chapter == "change")}
    shown = glue_names((ROOT / "chapters" / "change.md").read_text(encoding="utf-8"))
    assert len(glued) > 20 and glued - shown == set()


def test_glued_numbers_are_those_of_the_csvs(three_years):
    analysis, out = three_years
    values = report.change_values(analysis)
    themes = pd.read_csv(out / "theme_change.csv")
    links = pd.read_csv(out / "link_change.csv", dtype={"group": str})
    test = pd.read_csv(out / "link_change_test.csv", dtype={"first_group": str, "last_group": str})
    terms = pd.read_csv(out / "term_change.csv")
    bursts = pd.read_csv(out / "term_bursts.csv")
    assert len(links) == 3 and values["change_note"].startswith(
        "The 57 papers form 3 groups: 2023 (19 papers); 2024 (19 papers); 2025 (19 papers).")
    assert (values["change_first"], values["change_last"]) == ("2023", "2025")
    held = themes[themes["q_value"] < 0.05]
    assert len(held) == 0 and values["change_n_themes"] == len(themes)
    # No theme's change holds its corrected test on the seed's 19 papers a year: no rise or fall is named.
    assert values["change_shift_sentence"] == (
        f"no theme's share changed beyond chance: none of the {len(themes)} themes has a BH-adjusted p below 0.05 "
        f"(the smallest is {themes['q_value'].min():.3g})")
    assert ((themes["ci_low"] > 0) | (themes["ci_high"] < 0)).sum() == 0
    assert set(themes["ci_level"]) == {round(1 - 0.05 / len(themes), 10)}
    first, last = links.iloc[0], links.iloc[-1]
    row = test.iloc[0]
    assert values["change_links_sentence"] == (
        f"{100 * first['share']:.1f}% ({first['n_linked']} of {first['n_papers']}, 95% interval "
        f"{100 * first['ci_low']:.1f}% to {100 * first['ci_high']:.1f}%) in 2023 and {100 * last['share']:.1f}% "
        f"({last['n_linked']} of {last['n_papers']}, 95% interval {100 * last['ci_low']:.1f}% to "
        f"{100 * last['ci_high']:.1f}%) in 2025 (Wilson intervals), a change of {100 * row['difference']:+.1f} points "
        f"(95% interval {100 * row['ci_low']:+.1f} to {100 * row['ci_high']:+.1f} points, Newcombe; "
        f"p = {row['p_value']:.3g}, the test this interval inverts). Over every group the share's trend is "
        f"{100 * row['trend_slope']:+.1f} points a group, z = {row['trend_z']:.2f}, p = {row['trend_p']:.3g} "
        f"(Cochran–Armitage), and a chi-square test of equal shares gives chi-square = {row['chi2']:.2f} with "
        f"{row['dof']} degrees of freedom, p = {row['p_all']:.3g}")
    assert values["change_n_terms"] == len(terms)
    assert values["change_n_new"] == int(terms["new_in_latest"].sum())
    # Three groups: no burst is looked for (MIN_BURST_GROUPS), and the page says why.
    assert bursts.empty
    assert values["change_burst_sentence"] == ("Bursts are looked for over 4 groups or more; over 3 groups a burst "
                                               "cannot stand apart from the first or the last group.")
    # Two themes cross a median from 2023 to 2025, but on 19 papers a year neither crossing is beyond noise:
    # each has a side within its bootstrap interval of the median (``border``) in one of the two groups.
    themes_map = pd.read_csv(out / "thematic_map.csv", dtype={"group": str})
    first_map = themes_map[themes_map["group"] == "2023"].set_index("theme")
    last_map = themes_map[themes_map["group"] == "2025"].set_index("theme")
    moved = [t for t in first_map.index if first_map.loc[t, "quadrant"] != last_map.loc[t, "quadrant"]]
    assert len(moved) == 2
    assert all(any("border" in (frame.loc[t, "centrality_side"], frame.loc[t, "density_side"])
                   for frame in (first_map, last_map)) for t in moved)
    assert values["change_quadrant_sentence"] == (
        "none beyond noise: 2 themes are in another quadrant by the medians alone, but each has a centrality or "
        "density within noise of a median in 2023 or 2025")
    trending = themes[themes["trend_q"] < 0.05]
    verb = "follows" if len(trending) == 1 else "follow"
    assert values["change_trend_sentence"].startswith(f"{len(trending)} of {len(themes)} themes {verb} a trend")
    software = pd.read_csv(out / "software_links.csv", dtype={"group": str}).iloc[0]
    assert software["group"] == "2025" and software["n_software"] == (software["n_papers"] + 1) // 2
    landing = report.landing_block(analysis)
    for name in ("change_shift_sentence", "change_trend_sentence", "change_links_sentence"):
        assert values[name] in landing


def test_the_change_csvs_are_byte_identical_on_a_second_run(three_years, tmp_path):
    analysis, out = three_years
    again = analyse_group_change(analysis.papers, analysis.change.groups, analysis.themes, analysis.cooccurrence,
                                 analysis.links, analysis.settings)
    write_outputs(dataclasses.replace(analysis, change=again), tmp_path)
    for name in ("theme_change", "theme_prevalence", "thematic_map", "term_change", "term_bursts", "link_change"):
        assert (tmp_path / f"{name}.csv").read_bytes() == (out / f"{name}.csv").read_bytes(), name


def test_one_group_changes_nothing(tmp_path, seed_analysis):
    analysis = seed_analysis
    assert analysis.change is None
    assert "change" not in analysis.timings
    written = write_outputs(analysis, tmp_path)
    assert not any(name.startswith(("theme_change", "term_change", "term_bursts", "link_change")) for name in written)
    assert report.landing_block(analysis) == ""
    assert {report.pointer(analysis, chapter) for chapter in report.POINTERS} == {""}
    assert report.change_values(analysis)["change_note"].startswith("All 57 papers of this corpus form one group")


def test_groups_without_themes_or_map_terms(tmp_path):
    (tmp_path / "a2023.txt").write_text("We study galaxies with a new telescope survey today. Code at "
                                        "https://github.com/a/b.\n\nQuantum kernels for galaxy clusters.\n")
    (tmp_path / "b2024.txt").write_text("Galaxy clusters and quantum kernels again.\n")
    analysis = run_pipeline([tmp_path], n_jobs=1)
    assert analysis.themes.model is None
    papers = analysis.papers.assign(group=analysis.papers["source_file"].str.slice(1, 5))
    change = analyse_group_change(papers, ("2023", "2024"), analysis.themes, analysis.cooccurrence,
                                  analysis.links, analysis.settings)
    assert change.theme_change.empty and change.thematic_map.empty
    assert change.links[["group", "n_papers", "n_linked"]].values.tolist() == [["2023", 2, 1], ["2024", 1, 0]]
    values = report.change_values(dataclasses.replace(analysis, papers=papers, change=change))
    assert (values["change_shift_sentence"], values["change_n_themes"]) == ("there is no theme to compare", 0)


def test_group_names_are_escaped(three_years):
    analysis, _ = three_years
    hostile = "<b>*{ref}`x`*</b>"
    papers = analysis.papers.assign(group=analysis.papers["group"].replace({"2023": hostile}))
    change = analyse_group_change(papers, (hostile, "2024", "2025"), analysis.themes, analysis.cooccurrence,
                                  analysis.links, analysis.settings)
    shown = dataclasses.replace(analysis, papers=papers, change=change)
    escaped = r"&lt;b&gt;\*\{ref\}\`x\`\*&lt;/b&gt;"
    for text in (report.landing_block(shown), report.pointer(shown, "links"),
                 report.change_values(shown)["change_note"]):
        assert hostile not in text and escaped in text


def test_thematic_map_panels_share_axes_and_carry_a_key(three_years):
    import matplotlib

    from helpers.book.reports.change_figures import KEY_CHARACTERS
    from helpers.book.reports.drawing import shorten

    matplotlib.use("Agg")
    analysis, _ = three_years
    figure, data = change_figures.thematic_map_figure(analysis.change, analysis.corpus_label)
    panels = [axis for axis in figure.axes if axis.get_label() == "group"]
    assert [axis.get_title() for axis in panels] == ["2023", "2024", "2025"]
    assert len({axis.get_xlim() for axis in panels}) == len({axis.get_ylim() for axis in panels}) == 1
    key = [axis for axis in figure.axes if axis.get_label() == "key"]
    shown = " ".join(text.get_text() for text in key[0].texts)
    themes = data.drop_duplicates("theme").sort_values("theme")
    for theme, label in zip(themes["theme"], themes["label"]):
        assert f"{theme}  {shorten(label, KEY_CHARACTERS)}" in shown  # cut to its third of the column
    numbers = [text for axis in panels for text in axis.texts if text.get_text().isdigit()]
    assert len(numbers) == len(data) and {text.get_fontsize() for text in numbers} == {change_figures.MAP_NUMBER_SIZE}
    # quadrant names are outside the axes (no point sits under them)
    quadrants = [text for axis in panels for text in axis.texts if not text.get_text().isdigit()]
    figure.canvas.draw()
    assert len(quadrants) == 4 * len(panels)
    assert not any(text.get_window_extent().overlaps(axis.get_window_extent())
                   for axis in panels for text in axis.texts if not text.get_text().isdigit())
    matplotlib.pyplot.close(figure)


def test_prevalence_panels_are_legible_at_column_width(three_years):
    import matplotlib

    from helpers.book.reports import drawing

    matplotlib.use("Agg")
    analysis, _ = three_years
    figure, _ = change_figures.prevalence_figure(analysis.change, analysis.corpus_label)
    panels = [axis for axis in figure.axes if axis.axison]
    columns = {round(axis.get_position().x0, 3) for axis in panels}
    assert len(columns) <= change_figures.PREVALENCE_COLUMNS == 3 and figure.get_size_inches()[0] <= drawing.COLUMN_INCHES
    assert {axis.title.get_fontsize() for axis in panels} == {drawing.PANEL_TITLE_PT}
    assert {label.get_fontsize() for axis in panels for label in axis.get_xticklabels()} == {drawing.SMALL_PT}
    matplotlib.pyplot.close(figure)


# --- sparse years merged into periods (the default grouping), on corpora written here ---------------------


def _papers_of_years(counts: dict[int, int], missing: int = 0) -> pd.DataFrame:
    years = [y for y, n in counts.items() for _ in range(n)] + [None] * missing
    return pd.DataFrame({"paper_id": [f"p{i}" for i in range(len(years))], "source_file": "x.txt",
                         "year": pd.array(years, dtype="Int64")})


def test_sparse_years_merge_into_periods_of_at_least_thirty_papers():
    from helpers.analysis.corpus.groups import merge_years, paper_groups, period_size

    # 112 papers: 5% is 5.6, so a period needs 30. Left to right: 1990-1993 (4 + 10 + 6 + 12 = 32),
    # 1994 alone (40), then 1995-1996 (8 + 10 = 18) is too small and joins the period before it.
    counts = {1990: 4, 1991: 10, 1992: 6, 1993: 12, 1994: 40, 1995: 8, 1996: 10}
    assert period_size(112) == 30
    assert merge_years(counts, 30) == [(1990, 1993), (1994, 1996)]
    groups = paper_groups(_papers_of_years(counts), pd.DataFrame({"paper_id": []}), None)
    assert groups.by == "year" and groups.min_papers == 30
    assert groups.order == ("1990–1993", "1994–1996")
    assert groups.names.value_counts().to_dict() == {"1990–1993": 32, "1994–1996": 58}
    # Asked for by year, every year stays its own group.
    assert len(paper_groups(_papers_of_years(counts), pd.DataFrame({"paper_id": []}), "year").order) == 7


def test_periods_hold_five_percent_of_a_large_corpus_and_big_years_stay_alone():
    from helpers.analysis.corpus.groups import merge_years, paper_groups, period_size

    # 751 papers (ICML 2023-2025): 5% is 37.55, so a period needs 38; each year has more and stays a year.
    assert period_size(751) == 38 and period_size(600) == 30
    groups = paper_groups(_papers_of_years({2023: 132, 2024: 495, 2025: 124}), pd.DataFrame({"paper_id": []}), None)
    assert groups.order == ("2023", "2024", "2025")
    # 1,000 papers: 50 a period; the years of 20 papers pair up.
    assert merge_years({2001: 20, 2002: 30, 2003: 900, 2004: 25, 2005: 25}, period_size(1000)) == [
        (2001, 2002), (2003, 2003), (2004, 2005)]


def test_too_few_papers_for_two_periods_make_one_group():
    from helpers.analysis.corpus.groups import paper_groups

    # 25 records over ten years (an IEEE export): no two periods of 30, so one period and nothing compared.
    counts = {2015 + i: n for i, n in enumerate([1, 2, 3, 5, 1, 2, 4, 3, 2, 2])}
    groups = paper_groups(_papers_of_years(counts, missing=2), pd.DataFrame({"paper_id": []}), None)
    assert groups.order == ("2015–2024", "(none)")
    assert groups.names.value_counts().to_dict() == {"2015–2024": 25, "(none)": 2}


# --- the Cochran-Armitage test for trend, on tables written here and computed by hand ------------------------


def test_trend_test_on_a_three_group_table_by_hand():
    from helpers.analysis.change import trend_test

    # Scores 0, 1, 2; 10/50, 18/50, 25/50. N = 150, R = 53, p = 53/150.
    # T = sum s (k - n p) = 1 (18 - 53/3) + 2 (25 - 53/3) = 15; S = sum n s^2 - (sum n s)^2 / N = 250 - 150 = 100;
    # Var T = p (1 - p) S = (53 x 97 / 150^2) x 100; z = 15 / sqrt(Var T) = 3.138042; slope T / S = 0.15 a group.
    trend = trend_test([10, 18, 25], [50, 50, 50])
    z = 15 / math.sqrt(53 * 97 / 150 ** 2 * 100)
    assert trend.slope == 0.15
    assert trend.z == round(z, 6) == 3.138042
    assert trend.p_value == round(math.erfc(z / math.sqrt(2)), 8)


def test_trend_test_with_unequal_groups_and_a_fall():
    from helpers.analysis.change import trend_test

    # 12/30, 5/20, 1/10 (a fall). N = 60, R = 18, p = 0.3; sum n s = 40, sum n s^2 = 60, S = 60 - 1600/60 = 100/3;
    # T = 0 + 1 (5 - 6) + 2 (1 - 3) = -5; z = -5 / sqrt(0.21 x 100/3); slope = -5 / (100/3) = -0.15.
    trend = trend_test([12, 5, 1], [30, 20, 10])
    z = -5 / math.sqrt(0.21 * 100 / 3)
    assert (trend.slope, trend.z) == (-0.15, round(z, 6))
    assert trend.p_value == round(math.erfc(abs(z) / math.sqrt(2)), 8)


def test_trend_over_two_groups_is_the_two_proportion_test_and_no_spread_gives_none():
    from helpers.analysis.change import trend_test

    two = trend_test([10, 25], [50, 50])
    # Pooled two-proportion z: 0.15 / sqrt(0.35 x 0.65 x 2 / 50).
    assert two.z == round(0.3 / math.sqrt(0.35 * 0.65 * 2 / 50), 6) == proportion_change([10, 25], [50, 50],
                                                                                       ["a", "b"]).trend_z
    assert trend_test([0, 0, 0], [5, 5, 5]) == trend_test([5, 5], [5, 5]) == trend_test([3], [9])
    assert (trend_test([0, 0, 0], [5, 5, 5]).z, trend_test([0, 0, 0], [5, 5, 5]).p_value) == (0.0, 1.0)


def test_theme_and_link_tables_carry_the_trend():
    # Theme 1 in 2/10, 5/10, 8/10 papers of three groups: T = 1 (5 - 5) + 2 (8 - 5) = 6, S = 50 - 900/30 = 20,
    # p = 0.5, z = 6 / sqrt(0.25 x 20) = 2.683282; theme 2 mirrors it.
    papers = pd.DataFrame({"group": np.repeat(["a", "b", "c"], 10),
                           "theme": [1] * 2 + [2] * 8 + [1] * 5 + [2] * 5 + [1] * 8 + [2] * 2,
                           "link_state": ["linked"] * 2 + ["none"] * 8 + ["linked"] * 5 + ["none"] * 5
                           + ["linked"] * 8 + ["none"] * 2})
    table = theme_change(papers, ["a", "b", "c"], {1: "x", 2: "y"}).set_index("theme")
    z = 6 / math.sqrt(0.25 * 20)
    assert table.loc[1, ["trend_slope", "trend_z"]].tolist() == [0.3, round(z, 6)]
    assert table.loc[2, ["trend_slope", "trend_z"]].tolist() == [-0.3, round(-z, 6)]
    assert table["trend_q"].tolist() == table["trend_p"].tolist() == [round(math.erfc(z / math.sqrt(2)), 8)] * 2
    links = link_change(papers, ["a", "b", "c"])
    change = proportion_change(links["n_linked"], links["n_papers"], ["a", "b", "c"])
    assert (change.trend_slope, change.trend_z) == (0.3, round(z, 6))
    assert {"trend_slope", "trend_z", "trend_p"} <= set(change.as_frame().columns)


def test_bursts_need_four_groups(three_years):
    analysis, out = three_years
    assert analysis.change.bursts.empty and list(analysis.change.bursts.columns) == [
        "term", "start_group", "end_group", "n_groups", "n_papers", "weight"]
    assert pd.read_csv(out / "term_bursts.csv").empty
    values = report.change_values(analysis)
    assert values["change_burst_sentence"] == (
        "Bursts are looked for over 4 groups or more; over 3 groups a burst cannot stand apart from the "
        "first or the last group.")


def test_balanced_year_weighs_groups_alike_and_periods_by_their_papers_years():
    # Period 2010–2011 (papers of 2010, 2011, 2011: its year 2010 + 2/3) and 2012 (two papers).
    # The term is in 1 of 3 papers of the period and 2 of 2 of 2012:
    # ((1/3) (2010 + 2/3) + 1 x 2012) / (1/3 + 1); its papers' plain mean year is (2010 + 2 x 2012) / 3.
    X = sparse.csr_matrix(np.array([[1], [0], [0], [1], [1]]))
    papers = pd.DataFrame({"paper_id": list("abcde"), "group": ["2010–2011"] * 3 + ["2012"] * 2,
                           "year": pd.array([2010, 2011, 2011, 2012, 2012], dtype="Int64")})
    table = term_change(papers, ["2010–2011", "2012"], ["agent"], X, list("abcde"))
    assert table["balanced_year"].iloc[0] == round((1 / 3 * (2010 + 2 / 3) + 2012) / (4 / 3), 6)
    assert table["mean_year"].iloc[0] == round((2010 + 2 * 2012) / 3, 6)


def test_period_names_under_the_links_figure_never_overlap():
    import matplotlib
    from types import SimpleNamespace

    matplotlib.use("Agg")
    names = ["1990–2009", "2010–2012", "2013–2014", "2015–2016", "2017–2018", "2019–2020", "2021", "2022–2023"]
    links = link_change(pd.DataFrame({"group": np.repeat(names, 3), "link_state": ["linked", "none", "none"] * 8}),
                        names)
    figure, _ = change_figures.links_figure(SimpleNamespace(links=links, software=pd.DataFrame()), "test")
    figure.canvas.draw()
    boxes = [label.get_window_extent() for label in figure.axes[0].get_xticklabels()]
    assert [label.get_text() for label in figure.axes[0].get_xticklabels()] == names
    assert not any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))
    matplotlib.pyplot.close(figure)


def test_long_theme_labels_do_not_run_into_the_next_panel():
    import matplotlib
    from types import SimpleNamespace

    matplotlib.use("Agg")
    labels = {1: "contaminated sediment · remediation", 2: "irrigation water · landslide", 3: "rare disease · criterion"}
    papers = pd.DataFrame({"group": np.repeat(["a", "b"], 6), "theme": [1, 2, 3] * 4})
    change = SimpleNamespace(groups=("a", "b"), theme_change=theme_change(papers, ["a", "b"], labels),
                             theme_prevalence=theme_prevalence(papers, ["a", "b"], labels))
    figure, _ = change_figures.prevalence_figure(change, "test")
    figure.canvas.draw()
    titles = sorted((axis.title for axis in figure.axes if axis.axison), key=lambda t: t.get_window_extent().x0)
    boxes = [title.get_window_extent() for title in titles]
    assert len(boxes) == 3 and not any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))
    matplotlib.pyplot.close(figure)
