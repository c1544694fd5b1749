"""The chapters' figure and value functions: each returns a figure and the data it plots, with and without a model."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from helpers.book.reports import corpus as corpus_report, findings, performance, theme_figures, theme_paper_figures, themes as theme_report  # noqa: E402
from helpers.book.figures import save_figure  # noqa: E402
from helpers.book import with_titles  # noqa: E402
from helpers.analysis.pipeline import run_pipeline  # noqa: E402
from tests.support.corpus_files import write_software_bib  # noqa: E402


@pytest.fixture(scope="module")
def seed(seed_analysis):
    return seed_analysis


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "a.txt").write_text("Header\n\nWe study galaxies with a new telescope survey today.\n")
    return run_pipeline([folder])


def rows(result):
    figure, data = result
    # It plots something exactly when it has rows to plot (else it says why in words).
    assert any(axis.has_data() for axis in figure.axes) == (len(data) > 0)
    plt.close(figure)
    return len(data)


def test_theme_figures_return_their_data(seed):
    model, label, papers = seed.themes.model, seed.corpus_label, seed.papers
    assert rows(theme_figures.selection_figure(model, label)) == 5  # one row per k searched: 3 to 7 (two under the size floor)
    assert rows(theme_figures.top_terms_figure(model, label)) == 3 * theme_report.N_BAR_TERMS
    assert rows(theme_figures.wordcloud_figure(model, label)) == 3 * 25
    assert rows(theme_paper_figures.paper_map_figure(model, papers, label)) == 57
    assert rows(theme_paper_figures.by_source_figure(model, papers, label)) == 3 * 3  # one row per theme and file


def test_themes_by_source_are_shares_of_each_file(seed):
    """A file of many papers does not swamp the figure: each file's column sums to 100% of its papers with a theme."""
    figure, data = theme_paper_figures.by_source_figure(seed.themes.model, seed.papers, seed.corpus_label)
    plt.close(figure)
    assert list(data.columns) == ["theme", "source_file", "papers", "share"]
    totals = data.groupby("source_file")["share"].sum().round(4)
    assert set(totals) == {1.0}
    assert data["papers"].sum() == int(seed.papers["theme"].notna().sum())


def test_theme_figures_without_a_model_say_why(tiny):
    for function in (theme_figures.selection_figure, theme_figures.top_terms_figure, theme_figures.wordcloud_figure):
        figure, data = function(None, tiny.corpus_label, tiny.themes.message)
        assert data.empty
        assert "themes need at least 4 abstracts" in figure.axes[0].texts[0].get_text()
        plt.close(figure)
    assert theme_report.theme_table(None).empty
    assert theme_report.representative_papers(None, tiny.papers).empty


def test_theme_findings_count_mixed_and_unassigned_separately(seed):
    values = theme_report.theme_findings(seed)
    assert (values["themes_k"], values["themes_largest"]) == (3, 25)
    assert values["themes_mixed_n"] + values["themes_unassigned_n"] == int((seed.papers["theme_weight"] < 0.5).sum())
    assert values["themes_unassigned_n"] == int(seed.papers["theme"].isna().sum()) == 0
    assert values["themes_max_df"] == "60%"


def test_representative_papers_escape_titles(seed):
    papers = with_titles(seed.papers).assign(display_title="<b>x</b>")
    table = theme_report.representative_papers(seed.themes.model, papers)
    assert len(table) == 3
    assert table["papers"].str.count("<a href").tolist() == [theme_report.N_REPRESENTATIVE] * 3
    assert table["papers"].str.contains("&lt;b&gt;x&lt;/b&gt;").all()


def test_theme_palette_is_distinct_up_to_30():
    for n in (1, 10, 11, 15, 30):
        assert len(set(theme_figures.theme_palette(n))) == n


def test_corpus_and_overview_figures(seed, tiny):
    assert rows(corpus_report.length_figure(seed.corpus.papers, seed.corpus_label)) == 57
    assert rows(findings.overview_figure(seed)) == 3 + 4
    assert rows(findings.overview_figure(tiny)) == 4
    assert corpus_report.corpus_findings(seed)["length_bins"] == corpus_report.LENGTH_BINS


def test_key_findings_on_the_seed_corpus(seed):
    values = findings.key_findings(seed)
    assert values["intro_themes_sentence"].startswith("3 themes; the largest is *language models · preference* with 25 papers.")
    assert values["intro_themes_sentence"].endswith(
        " At a coarser grain, 2 broad themes: *language models · neural networks* (43) and *complexity · gradient* (14).")
    assert values["intro_linked_sentence"] == (
        "16 of 57 papers (28%, 95% interval 18% to 41%) link code, data or a project page; 2 more say their code or "
        "data are available but give no usable link, and 0 only promise it for later")
    assert values["intro_pairs_sentence"].count(" papers, such as “") == findings.N_FINDING_PAIRS


def test_performance_figure_with_and_without_results():
    assert rows(performance.stages_figure(None)) == 0
    table = pd.DataFrame({"corpus": "synthetic", "n_abstracts": [10, 100], "stage": ["parse", "parse"],
                          "seconds": [1.0, 9.0]})
    assert rows(performance.stages_figure(table)) == 2
    assert performance.performance_findings(None)["perf_largest"] == "(not measured)"


def test_performance_targets_hold_the_command_to_lda_tfidf_and_book_limits():
    total, tfidf, lda = performance.TOTAL, performance.BASELINE, performance.LDA_REFERENCE
    results = pd.DataFrame({
        "corpus": ["icml-2023-2025"] * 3 + ["synthetic"] * 6,
        "n_abstracts": [751] * 3 + [20_000] * 3 + [100_000] * 3,
        "stage": [total, tfidf, lda] + ["parse", total, tfidf] * 2,
        "seconds": [4.5, 0.2, 1.5, 1.0, 12.0, 2.5, 5.0, 40.0, 13.8],
        "ratio_to_baseline": [22.5, 1.0, 7.5, 0.4, 4.8, 1.0, 0.36, 2.9, 1.0],
        "ratio_to_lda": [3.0, 0.133, 1.0] + [None] * 6,
        "peak_rss_mib": [400.0] * 6 + [2000.0] * 3})
    book = pd.DataFrame({"corpus": ["seed corpus", "seed corpus"], "n_abstracts": [57, 57],
                         "measure": ["cold book build (s)", "warm book build (s)"], "value": [25.0, 3.0],
                         "limit": [30.0, None]})
    checks = performance.targets(results, book=book)
    assert checks.values.tolist()[:4] == [
        ["analyse / one LDA fit, ICML 2023–2025 (751 abstracts)", 3.0, 2.5, False],
        ["analyse / TF-IDF pass, 20,000 abstracts", 4.8, 4.0, False],
        ["analyse / TF-IDF pass, 100,000 abstracts", 2.9, 3.0, True],
        ["cold book build (s), the seed corpus (57 abstracts)", 25.0, 30.0, True]]
    assert performance.headline(results, book) == (
        "`analyse` took 4.5 s from start to exit on ICML 2023–2025 (751 abstracts), **3.0 times** one LDA fit of "
        "the same abstracts (1.50 s; target 2.5, missed). `analyse` took 12.0 s on 20,000 synthetic abstracts, "
        "**4.8 times** a TF-IDF pass (2.5 s; target 4, missed). `analyse` took 40.0 s on 100,000 synthetic "
        "abstracts, **2.9 times** a TF-IDF pass (13.8 s; target 3, met). A cold `make book` took 25 s on the seed "
        "corpus (57 abstracts; target 30 s, met).")


def test_figure_files_are_byte_identical_across_runs(seed, tmp_path):
    for run in ("a", "b"):
        figure, data = theme_figures.top_terms_figure(seed.themes.model, seed.corpus_label)
        save_figure(figure, data, "fig-test-bars", folder=tmp_path / run)
        plt.close(figure)
    for extension in ("png", "svg", "pdf", "csv"):
        name = f"fig-test-bars.{extension}"
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_link_figures_and_tables(seed):
    from helpers.book.reports import links as link_report

    shares = link_report.shares_table(seed.papers, seed.themes.labels)
    assert sorted(set(shares["grouping"])) == ["all", "source file", "theme"]
    assert len(shares) == 4 * (1 + 3 + 3)
    assert rows(link_report.shares_figure(shares, seed.corpus_label)) == len(shares)
    assert rows(link_report.host_kinds_figure(seed.links.links, seed.corpus_label)) == 5
    quoted = link_report.quoted_claims(seed, with_titles(seed.papers))
    assert quoted["statement"].tolist() == ["dangling", "dangling"]
    counts = link_report.link_counts(seed)
    assert (counts.n_papers, counts.n_linked, counts.n_dangling, counts.n_promised, counts.n_none) == (57, 16, 2, 0, 39)


def test_link_health_table_puts_problems_first():
    from helpers.book.reports import links as link_report

    health = pd.DataFrame({"url": ["https://a.org", "https://b.org"], "status": ["ok", "broken"],
                           "http_code": [200, 404], "final_url": ["", ""], "checked_at": ["t", "t"]})
    links = pd.DataFrame({"url": ["https://a.org", "https://b.org"], "kind": ["code", "other"]})
    assert link_report.health_table(health, links)["url"].tolist() == ["https://b.org", "https://a.org"]


def test_tables_show_a_dash_for_missing_values_and_scroll_when_wide():
    import numpy as np
    import pandas as pd

    from helpers.book.display import markdown_cell
    from helpers.book.page_tables import table_html

    table = pd.DataFrame({"run": ["a"], "ratio": [np.nan], "note": [None]})
    html_text = table_html(table)
    assert "nan" not in html_text and html_text.count("\u2014") == 2
    assert html_text.startswith('<div class="table-scroll" style="overflow-x: auto; max-width: 100%">')
    assert (markdown_cell(np.nan), markdown_cell(None), markdown_cell(0.5)) == ("\u2014", "\u2014", "0.500")


def test_counted_phrases_agree_with_their_number():
    from helpers.book.formatting import count, number, plural

    assert [count(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert count(1, "linked paper") == "1 linked paper" and count(17625, "term") == "17,625 terms"
    assert plural("analysis", 3) == "analyses" and plural("pass", 2) == "passes" and plural("query", 2) == "queries"
    assert number(3166) == "3,166" and number(17625) == "17,625" and number(2590.0) == "2,590"
    assert number(False) == "no" and number(float("nan")) == "\u2014"


def test_book_title_names_the_corpus():
    import pandas as pd

    from helpers.book.build.corpus_name import corpus_name, venue_short_name

    three_years = pd.DataFrame({"venue": ["ICML"] * 4, "year": [2023, 2024, 2024, 2025]})
    assert corpus_name(three_years, {}).title == "ICML 2023\u20132025: 4 abstracts"
    assert corpus_name(pd.DataFrame({"x": range(57)}), {"a.txt": "ICML 2024 Papers", "b.txt": "ICML 2024 论文列表"}
                       ).title == "ICML 2024: 57 abstracts"
    assert corpus_name(pd.DataFrame({"x": [1]}), {"a.txt": None}).title == "1 abstract"
    assert venue_short_name("Proceedings of the 42nd International Conference on Machine Learning") == "ICML"
    mixed = pd.DataFrame({"venue": ["A", "B", "C", "D"], "year": [2010, 2012, 2014, 2016]})
    assert corpus_name(mixed, {}).title == "4 venues 2010\u20132016: 4 abstracts"


def test_a_chapter_that_needs_groups_is_left_out_with_one_group(seed):
    from helpers.book.build.toc import build_toc, left_out
    from helpers.book.settings import book_root

    assert left_out(seed) == ("chapters/change",)
    files = [c["file"] for part in build_toc(book_root(), seed)["parts"] for c in part["chapters"]]
    assert "chapters/change" not in files and "chapters/themes" in files


VENUE_PAPERS = pd.DataFrame({
    "group": ["2023", "2023", "2025", "2025", "2025", "2025"],
    "venue_code_field": [False, False, True, True, True, True],
    "venue_code": [False, False, True, True, True, False],
    "link_state": ["linked", "none", "linked", "none", "promised", "none"],
})


def test_venue_code_sentence_states_both_shares_with_intervals():
    """Issue 38: the code link given to the venue and the abstract's link, over the papers with a code field."""
    from helpers.book.reports.links import venue_code_sentence

    assert venue_code_sentence(VENUE_PAPERS) == (
        "Of the 4 papers whose metadata has a code field (in 2025), **3 (75%, 95% Wilson interval 30% to 95%) gave the venue "
        "a code link**, and the abstracts of 1 (25%, 95% Wilson interval 5% to 70%) link code, data or a project "
        "page; 1 of the 3 papers with a code link given to the venue says nothing about code or data in its "
        "abstract.")
    assert venue_code_sentence(VENUE_PAPERS.drop(columns=["venue_code_field", "venue_code"])) == ""


def test_venue_code_table_per_group_links_the_explorer():
    from helpers.book.reports.links import venue_code_table

    table = venue_code_table(VENUE_PAPERS, "group")
    assert table.columns.tolist() == [
        "group", "papers with a code field", "code link given to the venue (share; 95% Wilson interval)",
        "abstract links code, data or a project page (share; 95% Wilson interval)",
        "code link given to the venue, abstract silent", "explorer"]
    assert table.drop(columns="explorer").values.tolist() == [
        ["2025", 4, "3 (75%; 30% to 95%)", "1 (25%; 5% to 70%)", 1]]
    assert table["explorer"].iloc[0] == '<a href="explorer.html?group=2025&amp;venue_code=given">the 3 papers</a>'
    assert venue_code_table(VENUE_PAPERS.drop(columns=["venue_code_field", "venue_code"]), "group").empty


def test_landing_page_states_the_venue_share_only_where_there_is_a_code_field(tmp_path, seed):
    write_software_bib(tmp_path)
    sentence = findings.key_findings(run_pipeline([tmp_path]))["intro_linked_sentence"]
    assert sentence.endswith(
        "Of the 3 papers whose metadata has a code field, 2 (67%, 95% Wilson interval 21% to 94%) gave the venue a "
        "code link, and the abstracts of 1 (33%, 95% Wilson interval 6% to 79%) link code, data or a project page")
    assert "venue" not in findings.key_findings(seed)["intro_linked_sentence"]


def test_overview_counts_stay_inside_their_panel(seed):
    """Traffic safety (Web of Science, 729 abstracts): the count '725' beside the longest bar crossed the panel's frame."""
    figure, _ = findings.overview_figure(seed)
    figure.canvas.draw()
    links_axis = figure.axes[1]
    frame = links_axis.get_window_extent()
    labels = [text for text in links_axis.texts if text.get_text().strip().isdigit()]
    assert len(labels) == 4
    assert all(text.get_window_extent().x1 <= frame.x1 for text in labels)
    plt.close(figure)
