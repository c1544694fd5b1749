"""Every figure the book shows, drawn as its page draws it, for the test and the benchmark of figure text sizes.

The chapters (and :mod:`helpers.book.pages`) draw their figures cell by cell; :func:`draw_figures` makes the same
calls for one analysis, so ``tests/book/test_figure_text.py`` and ``benchmarks/figure_text.py`` measure every figure a
book of that corpus shows (:func:`helpers.book.reports.figure_index.book_figures`) without running the notebooks.
A figure added to the book needs its line here: the test compares the two lists.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Collection, Iterator

from helpers.book.reports import change_figures
from helpers.book.reports import corpus as corpus_report
from helpers.book.reports import findings
from helpers.book.reports import keywords as keywords_report
from helpers.book.reports import links as links_report
from helpers.book.reports import performance as performance_report
from helpers.book.reports.benchmark_targets import read_results
from helpers.book.reports import theme_figures, theme_paper_figures
from helpers.book.reports.figure_index import book_figures
from helpers.book.build.title import figure_label

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from helpers.analysis.pipeline import Analysis

__all__ = ["figure_drawers", "draw_figures"]

def figure_drawers(analysis: Analysis, bench: Path | None = None
                   ) -> dict[str, Callable[[], tuple[Figure, pd.DataFrame]]]:
    """How each figure of the book is drawn for ``analysis``: label -> a call giving ``(figure, data)``, as the
    pages call it (``bench``: the folder of the Performance page's result files, default the book's
    ``benchmarks/``).

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed.
    bench : Path, optional
        The folder of the Performance page's result files.

    Returns
    -------
    dict
        Figure label -> a call that draws it.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> drawers = figure_drawers(run_pipeline([write_corpus({"a.txt": "Laying hens in barns lay eggs of good quality."})]))
    >>> "fig-cooccurrence-network" in drawers, "fig-change-prevalence" in drawers
    (True, False)
    """
    from helpers.book.reports import community_figures, network_figures as nf  # lazy: matplotlib
    from helpers.book.settings import config

    bench = bench or config().root / "benchmarks"

    model, message, label, papers = analysis.themes.model, analysis.themes.message, figure_label(analysis), analysis.papers
    network = analysis.cooccurrence
    theme_labels = dict(zip(model.themes["theme"], model.themes["label"])) if model is not None else {}
    drawers: dict[str, Callable[[], tuple[Figure, pd.DataFrame]]] = {
        "fig-intro-overview": lambda: findings.overview_figure(analysis),
        "fig-corpus-lengths": lambda: corpus_report.length_figure(analysis.corpus.papers, label),
        "fig-themes-top-terms": lambda: theme_figures.top_terms_figure(model, label, message),
        "fig-themes-map": lambda: theme_paper_figures.paper_map_figure(model, papers, label, analysis.settings.seed, message),
        "fig-themes-wordclouds": lambda: theme_figures.wordcloud_figure(model, label, message),
        "fig-themes-by-source": lambda: theme_paper_figures.by_source_figure(model, papers, label, message),
        "fig-themes-model-selection": lambda: theme_figures.selection_figure(model, label, message),
        "fig-cooccurrence-network": lambda: nf.term_map_figure(network, corpus_label=label),
        "fig-cooccurrence-density": lambda: nf.density_figure(network, corpus_label=label),
        "fig-cooccurrence-ego": lambda: community_figures.ego_figure(network, corpus_label=label),
        "fig-cooccurrence-themes": lambda: community_figures.community_theme_figure(
            network, papers.set_index("paper_id")["theme"], theme_labels, corpus_label=label),
        "fig-cooccurrence-keywords": lambda: keywords_report.keyword_map_figure(analysis, label),
        "fig-links-shares": lambda: links_report.shares_figure(links_report.shares_table(papers, analysis.themes.labels),
                                                               label),
        "fig-links-host-kinds": lambda: links_report.host_kinds_figure(analysis.links.links, label),
        "fig-performance-stages": lambda: performance_report.stages_figure(
            read_results(bench / "results.csv")),
    }
    result = analysis.change
    if result is not None:
        drawers |= {
            "fig-change-prevalence": lambda: change_figures.prevalence_figure(result, label),
            "fig-change-thematic-map": lambda: change_figures.thematic_map_figure(result, label),
            "fig-change-overlay": lambda: change_figures.overlay_figure(analysis),
            "fig-change-links": lambda: change_figures.links_figure(result, label),
        }
    return drawers


def draw_figures(analysis: Analysis, folder: Path, bench: Path | None = None, *,
                 only: Collection[str] | None = None) -> Iterator[str]:
    """Draw and save (:func:`helpers.book.figures.save_figure`) every figure a book of ``analysis`` shows (those
    of ``only``, where given), into ``folder``; yields each label once its files are written. A shown figure
    without a drawer is an error.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed.
    folder : Path
        Where the figures' files go.
    bench : Path, optional
        The folder of the Performance page's result files.
    only : collection of str, optional
        The labels to draw.

    Yields
    ------
    str
        Each figure's label, once its files are written.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> analysis = run_pipeline([write_corpus({"a.txt": "Laying hens in barns lay eggs of good quality."})])
    >>> list(draw_figures(analysis, Path(tempfile.mkdtemp()), only={"fig-corpus-lengths"}))
    ['fig-corpus-lengths']
    """
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
