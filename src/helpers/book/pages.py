"""What a chapter glues and draws before its prose, one call per page (``book.pages.themes(analysis)``).

Each function glues the values and sentences its page's text names (``{glue:...}``), saves the page's files and
publishes its figures, so a chapter's cells only show tables and figures; what the later cells need is returned.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

import pandas as pd

from helpers.book.page_figures import figure_citations, publish_figure, show_downloads
from helpers.book.display import glue_all, glue_markdown, show_html
from helpers.book.figures import figure_dir
from helpers.book.settings import METADATA_FILE
from helpers.book.reports import change as change_report, change_figures
from helpers.book.reports import cooccurrence as cooccurrence_report
from helpers.book.reports import examples
from helpers.book.reports import explorer as explorer_report
from helpers.book.reports import keywords as keywords_report
from helpers.book.reports import link_context, links as links_report
from helpers.book.reports import performance as performance_report, performance_checks
from helpers.book.reports import theme_grains, theme_naming, validation as validation_report
from helpers.book.reports import reproduce as reproduce_report
from helpers.book.reports.benchmark_targets import read_results
from helpers.book.reports import term_map_quality
from helpers.book.reports import theme_figures, theme_paper_figures, themes as themes_report
from helpers.book.build.title import figure_label
from helpers.web.explorer import PAGE_SIZE
from helpers.web.explorer_data import explorer_data, write_explorer_data

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["glue_split", "themes", "cooccurrence", "term_map_view", "keyword_views", "change", "links", "ExplorerPage",
           "explorer", "ValidationTables", "validation", "PerformanceTables", "performance"]


def glue_split(values: Mapping[str, Any], markdown: tuple[str, ...]) -> None:
    """Glue ``values``: those named in ``markdown`` (or ending with one of its suffixes) as Markdown sentences
    (``{glue:md}``), the others as values (``{glue:text}``).

    Parameters
    ----------
    values : Mapping
        Glue name -> value.
    markdown : tuple of str
        Names, or name endings (``"_sentence"``), glued as Markdown.

    Returns
    -------
    None

    Examples
    --------
    >>> from helpers.book.lab.page_values import page
    >>> glue_split({"hens_sentence": "Hens *lay*.", "n_hens": 12000}, ("_sentence",))
    >>> page.text("n_hens")
    '12,000'
    """
    is_markdown = {name: name in markdown or name.endswith(markdown) for name in values}
    glue_all({name: value for name, value in values.items() if not is_markdown[name]})
    glue_markdown({name: value for name, value in values.items() if is_markdown[name]})


def themes(analysis: Analysis) -> None:
    """The themes page: findings, broad themes, its lead and pointer, the starter theme file and its five figures.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (:func:`helpers.book.analysis`): its themes, their grains and the term map's examples.

    Returns
    -------
    None
        The values are glued and the figures published in the running notebook.
    """
    model, message, label = analysis.themes.model, analysis.themes.message, figure_label(analysis)
    glue_all(themes_report.theme_findings(analysis))
    changed = model.settings.vocabulary_changed if model is not None else []
    glue_all({"themes_own_vocabulary": reproduce_report.vocabulary_sentence(analysis.settings, changed)})
    glue_split(theme_grains.grain_findings(analysis), ("themes_grains_lead",))
    glue_markdown({**figure_citations(analysis, "themes"), **themes_report.chapter_lead(analysis),
                   **examples.theme_examples(analysis.cooccurrence),
                   "themes_change_pointer": change_report.pointer(analysis, "themes")})
    papers, seed = analysis.papers, analysis.settings.seed
    theme_naming.write_starter(analysis, figure_dir())  # the starter theme file the page offers
    publish_figure("fig-themes-top-terms", *theme_figures.top_terms_figure(model, label, message))
    publish_figure("fig-themes-map", *theme_paper_figures.paper_map_figure(model, papers, label, seed, message))
    publish_figure("fig-themes-wordclouds", *theme_figures.wordcloud_figure(model, label, message))
    publish_figure("fig-themes-by-source", *theme_paper_figures.by_source_figure(model, papers, label, message))
    publish_figure("fig-themes-model-selection", *theme_figures.selection_figure(model, label, message))


def cooccurrence(analysis: Analysis) -> None:
    """The co-occurrence page: its values, lead and pointer, and the network files it offers.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (:func:`helpers.book.analysis`): its term map and keyword map.

    Returns
    -------
    None
        The values are glued, the network files written and the keyword map published.
    """
    network = analysis.cooccurrence
    glue_all(cooccurrence_report.chapter_values(network))
    glue_all(cooccurrence_report.vocabulary_values(analysis))
    glue_markdown({**figure_citations(analysis, "cooccurrence"), **cooccurrence_report.chapter_lead(analysis),
                   **examples.term_examples(network),
                   "cooccurrence_change_pointer": change_report.pointer(analysis, "cooccurrence")})
    cooccurrence_report.write_chapter_files(network, figure_dir())
    # The authors' keywords: their map's values and lead, and its files when there is a map.
    glue_all(keywords_report.keyword_values(analysis))
    glue_markdown(keywords_report.keywords_lead(analysis))
    keywords_report.write_keyword_files(analysis, figure_dir())
    publish_figure("fig-cooccurrence-keywords", *keywords_report.keyword_map_figure(analysis, figure_label(analysis)))


def _interactive_map(network, noun: str, explorer_filter: str = "term") -> None:
    """The interactive map of ``network`` (its clicks open the explorer's ``explorer_filter``), with the sentence
    that stands for it outside the web book."""
    from helpers.analysis.cooccurrence.exporters import vosviewer_document  # lazy: at the top it would load networkx
    from helpers.web.term_map import term_map_html

    show_html(term_map_html(vosviewer_document(network), community_terms=cooccurrence_report.community_terms(network),
                            empty_message=network.message or f"no {noun} on the map",
                            explorer_filter=explorer_filter),
              f"The interactive {noun} map is in the web book; the static map above shows the same {noun}s.")


def term_map_view(analysis: Analysis) -> None:
    """The interactive term map, under the static maps.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (:func:`helpers.book.analysis`): its term map.

    Returns
    -------
    None
        The map is shown in the running notebook (a sentence outside the web book).
    """
    _interactive_map(analysis.cooccurrence, "term")


def keyword_views(analysis: Analysis) -> None:
    """Under the keyword map's figure: its download links, its files (:data:`helpers.book.reports.keywords.KEYWORD_FILES`)
    and the interactive keyword map, whose clicks open the explorer's keyword filter.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (:func:`helpers.book.analysis`): its keyword map.

    Returns
    -------
    None
        The links and the map are shown in the running notebook.
    """
    show_downloads("fig-cooccurrence-keywords")
    show_html(keywords_report.downloads_html(),
              "Keyword map files in the web book: " + ", ".join(keywords_report.KEYWORD_FILES) + ".")
    _interactive_map(keywords_report.keyword_network(analysis), "keyword", "keyword")


def change(analysis: Analysis) -> None:
    """What changed: its values and sentences, and its four figures when the papers form groups.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (:func:`helpers.book.analysis`): its groups' change, None with one group.

    Returns
    -------
    None
        The values are glued and the figures published in the running notebook.
    """
    glue_split(change_report.change_values(analysis), ("_sentence", "_note"))
    glue_markdown({**figure_citations(analysis, "change"), **link_context.change_context(analysis)})
    result, label = analysis.change, figure_label(analysis)
    if result is not None:
        publish_figure("fig-change-prevalence", *change_figures.prevalence_figure(result, label))
        publish_figure("fig-change-thematic-map", *change_figures.thematic_map_figure(result, label))
        publish_figure("fig-change-overlay", *change_figures.overlay_figure(analysis))
        publish_figure("fig-change-links", *change_figures.links_figure(result, label))


def links(analysis: Analysis) -> pd.DataFrame:
    """The link availability page: findings, lead and pointer. Returns the shares table its figure draws.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (:func:`helpers.book.analysis`): its papers' link states and links.

    Returns
    -------
    DataFrame
        The linked shares per file, theme and group (:func:`helpers.book.reports.links.shares_table`).
    """
    glue_all(links_report.link_findings(analysis))
    glue_markdown({**figure_citations(analysis, "links"), **links_report.chapter_lead(analysis),
                   "links_change_pointer": link_context.change_pointer(analysis),
                   "links_context": link_context.context_paragraph(analysis),
                   "links_references": link_context.references(analysis)})
    return links_report.shares_table(analysis.papers, analysis.themes.labels)


class ExplorerPage(NamedTuple):
    """The papers the explorer shows (a seeded sample of large corpora) and the data it is given.

    Attributes
    ----------
    shown : DataFrame
        The papers in the explorer.
    data : dict
        The explorer's data (:func:`helpers.web.explorer_data.explorer_data`).

    Examples
    --------
    >>> ExplorerPage._fields
    ('shown', 'data')
    """

    shown: pd.DataFrame
    data: dict[str, Any]


def explorer(analysis: Analysis, papers: pd.DataFrame) -> ExplorerPage:
    """The explorer page: its data file (and the whole table when it shows a sample) and its values.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (:func:`helpers.book.analysis`): its links, themes and term map.
    papers : DataFrame
        The papers with their display titles (:func:`helpers.book.with_titles`).

    Returns
    -------
    ExplorerPage
    """
    # A seeded sample beyond MAX_EXPLORER_PAPERS papers; only its abstracts' texts are read.
    shown = explorer_report.explorer_papers(papers, texts=analysis.texts)
    hierarchy = analysis.hierarchy.table if analysis.hierarchy is not None else None
    data = explorer_data(shown, analysis.links.links, analysis.links.statements, analysis.themes.labels,
                         analysis.cooccurrence, group_order=analysis.group_order, corpus_papers=len(papers),
                         headers=analysis.corpus.headers, hierarchy=hierarchy,
                         keyword_variants=keywords_report.explorer_variants(analysis))
    write_explorer_data(data, figure_dir())
    if len(shown) < len(papers):
        explorer_report.write_full_table(papers, figure_dir())
    glue_all({"explorer_page_size": PAGE_SIZE, "explorer_max_papers": f"{explorer_report.MAX_EXPLORER_PAPERS:,}"})
    glue_markdown({"explorer_titles_sentence": explorer_report.titles_sentence(analysis, papers, METADATA_FILE)})
    return ExplorerPage(shown, data)


class ValidationTables(NamedTuple):
    """The tables of the Validation page, in its order.

    Attributes
    ----------
    term_quality, yardstick, intrusion, claims, claim_errors, fields, figure_text : DataFrame
        Each measurement's table (empty when it was not measured).

    Examples
    --------
    >>> ValidationTables._fields[:2]
    ('term_quality', 'yardstick')
    """

    term_quality: pd.DataFrame
    yardstick: pd.DataFrame
    intrusion: pd.DataFrame
    claims: pd.DataFrame
    claim_errors: pd.DataFrame
    fields: pd.DataFrame
    figure_text: pd.DataFrame


def validation(root: Path) -> ValidationTables:
    """The Validation page: the package's own measurements, read from the book's result files.

    Parameters
    ----------
    root : Path
        The book's root, whose ``benchmarks/results/`` and ``tests/evaluation/`` hold the measurements.

    Returns
    -------
    ValidationTables

    Examples
    --------
    >>> from helpers.book.lab.page_values import page
    >>> tables = validation(Path("/nonexistent"))
    >>> tables.yardstick.empty, page.text("co_q_corpus")
    (True, '(not measured: run benchmarks/term_quality.py)')
    """
    quality_table, quality_values = term_map_quality.term_quality(term_map_quality.read_term_quality(root))
    yardstick_table, yardstick_values = validation_report.theme_yardstick(root)
    intrusion_table, intrusion_values = validation_report.word_intrusion(root)
    claim_table, claim_errors, claim_values = validation_report.claim_scores(root)
    field_table, field_values = validation_report.field_reading(root)
    figure_table, figure_values = validation_report.figure_legibility(root)
    glue_all({**quality_values, **yardstick_values, **claim_values})
    glue_split({**intrusion_values, **field_values, **figure_values},
               ("intrusion_sentence", "field_sentence", "figure_text_sentence"))
    return ValidationTables(quality_table, yardstick_table, intrusion_table, claim_table, claim_errors, field_table,
                            figure_table)


class PerformanceTables(NamedTuple):
    """The benchmark results the Performance page shows, and the sentence it prints where one is missing.

    Attributes
    ----------
    benchmark : DataFrame or None
        ``benchmarks/results.csv`` (None: not run).
    targets, selection, build_checks, explorer, large, one_file, search : DataFrame
        Each benchmark's table as the page shows it.
    summaries : dict
        The sentences glued in place of a missing table.

    Examples
    --------
    >>> PerformanceTables._fields[-2:]
    ('summaries', 'search')
    """

    benchmark: pd.DataFrame | None
    targets: pd.DataFrame
    selection: pd.DataFrame
    build_checks: pd.DataFrame
    explorer: pd.DataFrame
    large: pd.DataFrame
    one_file: pd.DataFrame
    summaries: dict[str, Any]
    search: pd.DataFrame


def performance(bench: Path, analysis: Analysis) -> PerformanceTables:
    """The Performance page: every value and sentence it glues from the result files of ``bench``, and its figure.

    Parameters
    ----------
    bench : Path
        The folder of the benchmarks' result files (``benchmarks/``).
    analysis : Analysis
        The corpus analysed (for the figure's citation).

    Returns
    -------
    PerformanceTables
    """
    read = read_results
    benchmark, book_builds = read(bench / "results.csv"), read(bench / "book_results.csv")
    glue_all(performance_report.performance_findings(benchmark, book=book_builds))
    glue_markdown({"perf_headline": performance_report.headline(benchmark, book_builds),
                   **figure_citations(analysis, "performance")})
    targets = performance_report.targets_shown(benchmark, book_builds)
    publish_figure("fig-performance-stages", *performance_report.stages_figure(benchmark))
    selection, selection_values = performance_checks.selection_evidence(read(bench / "selection_results.csv"))
    build_checks, build_values = performance_checks.book_build_checks(book_builds)
    explorer, explorer_values = performance_checks.explorer_readiness(read(bench / "explorer_results.csv"))
    large, large_values = performance_report.large_runs(read(bench / "large_results.csv"))
    one_file, one_file_values = performance_report.one_file_runs(read(bench / "large_file_results.csv"),
                                                                 read(bench / "large_results.csv"))
    glue_markdown(selection_values)
    glue_all({**build_values, **explorer_values, **performance_checks.group_cost(read(bench / "group_results.csv")),
              **large_values, **one_file_values})
    summaries = {**selection_values, **build_values, **explorer_values, **large_values}
    search = performance_checks.selection_search(read(bench / "results" / "selection_search.csv"))
    return PerformanceTables(benchmark, targets, selection, build_checks, explorer, large, one_file, summaries, search)
