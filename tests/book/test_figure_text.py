"""Every figure's text is legible where the reader sees it: at a 1280 px window, smallest text >= 8 CSS px
and median >= 10 px; in the PDF book, smallest text >= 6 pt. Measured from each saved figure's SVG
(:mod:`helpers.book.figure_text`), for every figure a book of the corpus shows, on the seed corpus and on a corpus
written here with many themes, three years and enough links that every grid and every figure of the book is drawn.
"""

from __future__ import annotations

import csv
import json

import matplotlib
import pytest

from helpers.book.figures import FIGURES, GROUP_FIGURES
from helpers.book.figure_text import (MIN_MEDIAN_PX, MIN_PRINT_PT, MIN_PX, figure_size, folder_text_sizes, svg_texts,
                                      text_sizes)
from tests.support import benchmark_results

matplotlib.use("Agg")

# Twenty-four subjects of many fields, six terms each: one theme per subject.
SUBJECTS = [
    "catalyst selectivity zeolite pore acidity conversion", "crash severity intersection driver speed injury",
    "broiler chicken feed conversion gut microbiota", "groundwater nitrate aquifer recharge leaching well",
    "perovskite solar cell efficiency stability film", "hospital readmission heart failure cohort mortality",
    "wheat drought tolerance yield genotype root", "bridge fatigue crack steel girder inspection",
    "soil carbon tillage cover crop organic matter", "polymer membrane gas separation permeability selectivity",
    "pedestrian crossing signal timing visibility collision", "dairy cow mastitis milk yield lactation",
    "coral reef bleaching temperature recovery larvae", "battery cathode lithium capacity cycling electrolyte",
    "urban heat island vegetation surface temperature canopy", "vaccine uptake survey hesitancy trust region",
    "wastewater sludge anaerobic digestion biogas methane", "forest fire severity burn area satellite",
    "enzyme kinetics substrate inhibition binding mutant", "rail track geometry ballast settlement maintenance",
    "fish stock recruitment spawning biomass harvest", "asphalt pavement rutting binder aging mixture",
    "malaria vector mosquito net transmission village", "wind turbine blade wake power output",
]
YEARS = [2019, 2020, 2021]


def many_theme_corpus(folder):
    """A CSV corpus: 24 subjects x 3 years x 3 abstracts, a code link in every fourth abstract, three authors'
    keywords each (so the keyword map is drawn, not its note)."""
    rows = []
    for subject_index, subject in enumerate(SUBJECTS):
        words = subject.split()
        for year in YEARS:
            for copy in range(3):
                n = len(rows)
                turn = words[copy:] + words[:copy]
                text = (f"We study {turn[0]} {turn[1]} and {turn[2]} {turn[3]} in {year}. "
                        f"The {turn[4]} {turn[5]} changed with {turn[0]} {turn[1]} across {copy + 3} sites. "
                        f"Measured {turn[2]} {turn[3]} and {turn[4]} {turn[5]} agreed with the {turn[0]} model.")
                if n % 4 == 0:
                    text += f" Code and data are available at https://github.com/lab{n}/study{subject_index}."
                rows.append({"title": f"{turn[0].title()} {turn[1]} study {n}", "abstract": text, "year": year,
                             "venue": "Journal of Applied Studies", "authors": f"Author {n}",
                             "keywords": f"{turn[0]} {turn[1]}; {turn[2]}; {turn[4]} {turn[5]}"})
    path = folder / "papers.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def measure_book_figures(analysis, folder):
    from helpers.book.reports.figure_drawings import draw_figures
    from helpers.book.reports.figure_index import book_figures

    drawn = list(draw_figures(analysis, folder))
    shown = [label for label, _, _ in book_figures(analysis)]
    assert drawn == shown  # every figure the book shows, none skipped
    measured = folder_text_sizes(folder)
    assert sorted(measured) == sorted(shown)
    return measured


@pytest.fixture(scope="module")
def seed_figures(seed_analysis, tmp_path_factory):
    return measure_book_figures(seed_analysis, tmp_path_factory.mktemp("seed-figures"))


@pytest.fixture(scope="module")
def many_theme_figures(tmp_path_factory):
    from helpers.analysis.pipeline import AnalysisSettings, run_pipeline

    folder = tmp_path_factory.mktemp("many-themes")
    analysis = run_pipeline([many_theme_corpus(folder)], AnalysisSettings(themes=24), n_jobs=1)
    assert analysis.change is not None and len(analysis.themes.model.themes) == 24 and analysis.has_keywords
    return measure_book_figures(analysis, tmp_path_factory.mktemp("many-theme-figures"))


def test_every_figure_of_the_book_is_measured_on_both_corpora(seed_figures, many_theme_figures):
    assert len(seed_figures) == 14  # one group: no figures of "What changed"; no keywords: no keyword map
    assert "fig-cooccurrence-keywords" not in seed_figures and "fig-cooccurrence-keywords" in many_theme_figures
    assert len(many_theme_figures) == 18  # one file: no themes by source file
    assert set(seed_figures) | set(many_theme_figures) == {label for label, _, _ in FIGURES + GROUP_FIGURES}


#: Figures still drawn too large for their space (issue 48): each must fail the test below (strict xfail), so
#: a figure leaves this set when it is redrawn, and no figure joins it.
NOT_YET_LEGIBLE: set[str] = set()  # every figure is drawn for its space


@pytest.mark.parametrize("label", [label for label, _, _ in FIGURES + GROUP_FIGURES])
def test_each_figure_is_legible_on_the_page_and_in_print(label, seed_figures, many_theme_figures, request):
    if label in NOT_YET_LEGIBLE:
        request.applymarker(pytest.mark.xfail(strict=True, reason="drawn too large for its space (issue 48)"))
    found = {f"{corpus}: {label}": sizes.problems()
             for corpus, measured in (("seed", seed_figures), ("many themes", many_theme_figures))
             for sizes in [measured.get(label)] if sizes is not None and sizes.problems()}
    assert found == {}


def test_every_figure_fits_a_printed_page_with_its_caption(seed_figures, many_theme_figures):
    """The PDF prints a figure at most the text width wide (6.5 in); with an inch left for its caption it must fit
    the 9 in text height, else LaTeX pushes it over the footer (the ego networks were 17 pt too tall)."""
    from helpers.book.figure_text import PRINT_HEIGHT_IN, PRINT_WIDTH_IN

    printed = {f"{corpus}: {label}": round(sizes.height_in * min(1.0, PRINT_WIDTH_IN / sizes.width_in), 2)
               for corpus, measured in (("seed", seed_figures), ("many themes", many_theme_figures))
               for label, sizes in measured.items()}
    assert {name: height for name, height in printed.items() if height > PRINT_HEIGHT_IN - 1.0} == {}


def test_save_figure_records_the_space_and_size_and_states_it(tmp_path):
    import matplotlib.pyplot as plt
    import pandas as pd

    from helpers.book.figures import download_links_html, figure_record, save_figure

    figure, axis = plt.subplots(figsize=figure_size(height_ratio=0.5))
    axis.plot([0, 1], [0, 1])
    save_figure(figure, pd.DataFrame({"x": [0, 1]}), "fig-a-line", folder=tmp_path)
    plt.close(figure)
    record = figure_record("fig-a-line", tmp_path)
    assert record is not None and record["space"] == "column" and 5.0 < record["width_in"] <= 6.72
    assert json.loads((tmp_path / "sizes" / "fig-a-line.json").read_text())["label"] == "fig-a-line"
    from PIL import Image

    with Image.open(tmp_path / "fig-a-line.png") as png:  # 300 dpi at the stated size
        assert round(png.width / 300, 2) == pytest.approx(record["width_in"], abs=0.01)
    line = download_links_html("fig-a-line", size=(record["width_in"], record["height_in"]))
    assert f"{record['width_in']:.1f} × " in line and "PNG at 300 dpi" in line
    with pytest.raises(ValueError, match="figure width must be one of"):
        save_figure(figure, pd.DataFrame(), "fig-a-b", folder=tmp_path, width="page")


def test_text_sizes_follow_the_width_shown_and_printed(tmp_path):
    import matplotlib.pyplot as plt

    # Drawn at the column's width: shown and printed (6.5 in of 6.72) at about its own size.
    figure = plt.figure(figsize=figure_size(height_ratio=0.5))
    figure.text(0.1, 0.5, "small", fontsize=6)
    figure.text(0.5, 0.5, "large", fontsize=12)
    figure.text(0.9, 0.5, "   ")  # only spaces: nothing drawn, nothing measured
    figure.savefig(tmp_path / "column.svg")
    figure.set_size_inches(13.44, 3.36)  # twice as wide: shown at half the size
    figure.savefig(tmp_path / "double.svg")
    plt.close(figure)
    column, double = text_sizes(tmp_path / "column.svg"), text_sizes(tmp_path / "double.svg")
    assert (column.n_texts, column.smallest_text, column.smallest_pt, column.median_pt) == (2, "small", 6.0, 9.0)
    assert (column.smallest_px, column.median_px, column.smallest_print_pt) == (8.33, 12.5, 5.8)
    assert (double.smallest_px, double.median_px, double.smallest_print_pt) == (4.17, 6.25, 2.9)
    assert text_sizes(tmp_path / "double.svg", window=800).smallest_px == 4.46  # 720 px of 1344
    assert column.problems() == [f"smallest printed text 5.8 pt < {MIN_PRINT_PT:g}"]
    assert double.problems() == [f"smallest text 4.2 px < {MIN_PX:g} ('small')", f"median text 6.2 px < {MIN_MEDIAN_PX:g}",
                                 f"smallest printed text 2.9 pt < {MIN_PRINT_PT:g}"]


def test_text_drawn_with_an_outline_is_counted_as_unsized_never_skipped(tmp_path):
    import matplotlib.patheffects as effects
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(3, 2))
    figure.text(0.5, 0.5, "outlined", path_effects=[effects.withStroke(linewidth=2, foreground="white")])
    figure.savefig(tmp_path / "outlined.svg")
    plt.close(figure)
    assert svg_texts(tmp_path / "outlined.svg")[2:] == ([], 1)
    assert text_sizes(tmp_path / "outlined.svg").problems() == [
        "1 text(s) drawn with path effects, whose size the SVG does not give"]


def test_a_file_that_is_not_svg_is_a_one_line_error(tmp_path):
    path = tmp_path / "x.svg"
    path.write_text("<svg", encoding="utf-8")
    with pytest.raises(ValueError, match=r"x\.svg: not an SVG file"):
        svg_texts(path)
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="wide"/>', encoding="utf-8")
    with pytest.raises(ValueError, match=r"x\.svg: the SVG's width 'wide' is not a length"):
        svg_texts(path)


def test_the_files_for_writing_have_the_stated_size_and_are_byte_identical(tmp_path):
    import re

    import matplotlib.pyplot as plt
    import pandas as pd
    from PIL import Image

    from helpers.book.figures import figure_record, save_figure

    for run in ("a", "b"):
        figure, axis = plt.subplots(figsize=figure_size(height_ratio=0.6), layout="constrained")
        axis.bar(["crash", "injury"], [3, 5])
        axis.set_title("Crashes by severity")
        save_figure(figure, pd.DataFrame({"severity": ["crash", "injury"], "n": [3, 5]}), "fig-a-bars",
                    folder=tmp_path / run)
        plt.close(figure)
    written = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert [p.as_posix() for p in written] == ["fig-a-bars.csv", "fig-a-bars.pdf", "fig-a-bars.png", "fig-a-bars.svg",
                                               "sizes/fig-a-bars.json", "thumbnails/fig-a-bars.png"]
    assert all((tmp_path / "a" / p).read_bytes() == (tmp_path / "b" / p).read_bytes() for p in written)
    record = figure_record("fig-a-bars", tmp_path / "a")
    assert record is not None and record["width_in"] == pytest.approx(6.72, abs=0.02)  # drawn at the column's width
    pdf = (tmp_path / "a" / "fig-a-bars.pdf").read_bytes()
    box = [float(v) for v in re.search(rb"/MediaBox \[\s*0 0 ([0-9.]+) ([0-9.]+)\s*\]", pdf).groups()]
    assert box == pytest.approx([record["width_in"] * 72, record["height_in"] * 72], abs=0.5)
    with Image.open(tmp_path / "a" / "fig-a-bars.png") as png:
        assert [round(v) for v in png.info["dpi"]] == [300, 300]
        assert png.width == pytest.approx(record["width_in"] * 300, abs=2)
    sizes = text_sizes(tmp_path / "a" / "fig-a-bars.svg")
    assert (sizes.smallest_pt, sizes.median_pt) == (10.0, 10.0) and sizes.problems() == []  # the tick labels


def test_the_drawings_measured_call_what_the_pages_call():
    """figure_drawings repeats the pages' calls: each figure is drawn by the function its page calls."""
    import inspect
    import re

    from tests.support import ROOT
    from helpers.book import pages
    from helpers.book.reports import figure_drawings

    pages_text = "\n".join(path.read_text(encoding="utf-8") for path in [ROOT / "intro.md",
                                                                        *sorted((ROOT / "chapters").glob("*.md"))])
    pages_text += inspect.getsource(pages)
    called = dict(re.findall(r'publish_figure\(\s*"(fig-[a-z-]+)",\s*\*?[\w.]*?(\w+)\(', pages_text))
    called["fig-cooccurrence-network"] = re.search(r"map_figure, map_data = nf\.(\w+)\(", pages_text).group(1)
    drawers = inspect.getsource(figure_drawings.figure_drawers)
    drawn = {label: re.search(rf'"{label}": lambda: [\w.]*?(\w+)\(', drawers).group(1) for label in called}
    assert sorted(called) == sorted(label for label, _, _ in FIGURES + GROUP_FIGURES)
    assert drawn == called


def test_every_label_of_the_network_figures_stays_inside_its_axes(seed_analysis):
    import matplotlib.pyplot as plt

    from helpers.book.reports import community_figures, network_figures as nf

    network = seed_analysis.cooccurrence
    for draw in (nf.term_map_figure, nf.density_figure, community_figures.ego_figure):
        figure, _ = draw(network, corpus_label="ICML 2024: 57 abstracts")
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        for axis in figure.axes:
            inside = axis.get_window_extent(renderer).expanded(1.0, 1.0)
            outside = [text.get_text() for text in axis.texts
                       if not inside.contains(*text.get_window_extent(renderer).min)
                       or not inside.contains(*text.get_window_extent(renderer).max)]
            assert (draw.__name__, outside) == (draw.__name__, [])
            assert len(axis.texts) >= 3
        plt.close(figure)


def test_the_validation_page_sums_up_the_measured_figures(tmp_path):
    from helpers.book.reports.validation import figure_legibility

    results = benchmark_results(tmp_path)
    (results / "figure_text.csv").write_text(
        "corpus,figure,space,width_in,height_in,n_texts,smallest_px,median_px,smallest_pt,median_pt,smallest_px_800,"
        "unsized,meets\n"
        "pubmed-mcda,fig-a,column,6.72,4,10,8.31,12.5,6.2,9,8.9,0,True\n"
        "pubmed-mcda,fig-b,column,6.72,4,10,7.5,10.1,5.4,7,8.0,0,False\n"
        "wos-x,fig-a,column,6.72,4,10,9.0,11.0,6.5,8,9.5,0,True\n", encoding="utf-8")
    table, values = figure_legibility(tmp_path)
    assert table.values.tolist() == [
        ["decision analysis in health (PubMed)", "2", "1 of 2", "7.5", "10.1", "5.4", "fig-b"],
        ["wos-x", "1", "1 of 1", "9.0", "11.0", "6.5", "fig-a"]]
    assert values["figure_text_sentence"] == (
        "On 2 corpora, 2 of 3 figures (67%) have their smallest text at 8 CSS px or more and their median text at "
        "10 px or more on the page at a 1280 px window, and their smallest text at 6 pt or more in print; the "
        "smallest text of any figure is 7.5 px on the page and 5.4 pt in print.")
