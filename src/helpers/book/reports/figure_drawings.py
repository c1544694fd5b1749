"""Every figure the book shows, drawn as its page draws it, for the test and the benchmark of figure text sizes.

The chapters (and :mod:`helpers.book.pages`) draw their figures cell by cell; :func:`draw_figures` makes the same
calls for one analysis, so ``tests/book/test_figure_text.py`` and ``benchmarks/figure_text.py`` measure every figure a
book of that corpus shows (:func:`helpers.book.reports.figure_index.book_figures`) without running the notebooks.
A figure added to the book needs its line here: the test compares the two lists.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Collection, Iterator

from helpers.book.reports import change as change_report
from helpers.book.reports import corpus as corpus_report
from helpers.book.reports import findings
from helpers.book.reports import keywords as keywords_report
from helpers.book.reports import links as links_report
from helpers.book.reports import performance as performance_report
from helpers.book.reports import themes as themes_report
from helpers.book.reports.figure_index import book_figures
from helpers.book.title import figure_label

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from helpers.analysis.pipeline import Analysis

__all__ = ["figure_drawers", "draw_figures"]

def figure_drawers(analysis: Analysis, bench: Path | None = None
                   ) -> dict[str, Callable[[], tuple[Figure, pd.DataFrame]]]:
    """How each figure of the book is drawn for ``analysis``: label -> a call giving ``(figure, data)``, as the
    pages call it (``bench``: the folder of the Performance page's result files, default the book's
    ``benchmarks/``)."""
    from helpers.book import network_figures as nf  # lazy: matplotlib
    from helpers.book.settings import config

    bench = bench or config().root / "benchmarks"

    model, message, label, papers = analysis.themes.model, analysis.themes.message, figure_label(analysis), analysis.papers
    network = analysis.cooccurrence
    theme_labels = dict(zip(model.themes["theme"], model.themes["label"])) if model is not None else {}
    drawers: dict[str, Callable[[], tuple[Figure, pd.DataFrame]]] = {
        "fig-intro-overview": lambda: findings.overview_figure(analysis),
        "fig-corpus-lengths": lambda: corpus_report.length_figure(analysis.corpus.papers, label),
        "fig-themes-top-terms": lambda: themes_report.top_terms_figure(model, label, message),
        "fig-themes-map": lambda: themes_report.paper_map_figure(model, papers, label, analysis.settings.seed, message),
        "fig-themes-wordclouds": lambda: themes_report.wordcloud_figure(model, label, message),
        "fig-themes-by-source": lambda: themes_report.by_source_figure(model, papers, label, message),
        "fig-themes-model-selection": lambda: themes_report.selection_figure(model, label, message),
        "fig-cooccurrence-network": lambda: nf.term_map_figure(network, corpus_label=label),
        "fig-cooccurrence-density": lambda: nf.density_figure(network, corpus_label=label),
        "fig-cooccurrence-ego": lambda: nf.ego_figure(network, corpus_label=label),
        "fig-cooccurrence-themes": lambda: nf.community_theme_figure(
            network, papers.set_index("paper_id")["theme"], theme_labels, corpus_label=label),
        "fig-cooccurrence-keywords": lambda: keywords_report.keyword_map_figure(analysis, label),
        "fig-links-shares": lambda: links_report.shares_figure(links_report.shares_table(papers, analysis.themes.labels),
                                                               label),
        "fig-links-host-kinds": lambda: links_report.host_kinds_figure(analysis.links.links, label),
        "fig-performance-stages": lambda: performance_report.stages_figure(
            performance_report.read_results(bench / "results.csv")),
    }
    result = analysis.change
    if result is not None:
        drawers |= {
            "fig-change-prevalence": lambda: change_report.prevalence_figure(result, label),
            "fig-change-thematic-map": lambda: change_report.thematic_map_figure(result, label),
            "fig-change-overlay": lambda: change_report.overlay_figure(analysis),
            "fig-change-links": lambda: change_report.links_figure(result, label),
        }
    return drawers


def draw_figures(analysis: Analysis, folder: Path, bench: Path | None = None, *,
                 only: Collection[str] | None = None) -> Iterator[str]:
    """Draw and save (:func:`helpers.book.figures.save_figure`) every figure a book of ``analysis`` shows (those
    of ``only``, where given), into ``folder``; yields each label once its files are written. A shown figure
    without a drawer is an error."""
    import matplotlib.pyplot as plt  # lazy: slow to import

    from helpers.book.figures import figure_space, save_figure

    drawers = figure_drawers(analysis, bench)
    for shown, _, _ in book_figures(analysis):
        if only is not None and shown not in only:
            continue
        if shown not in drawers:
            raise KeyError(f"{shown}: a figure of the book without a drawer in figure_drawings.figure_drawers")
        figure, data = drawers[shown]()
        save_figure(figure, data, shown, folder=folder, width=figure_space(shown))
        plt.close(figure)
        yield shown
