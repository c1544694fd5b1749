"""What a chapter glues and draws before its prose, one call per page (``book.pages.themes(analysis)``).

Each function glues the values and sentences its page's text names (``{glue:...}``), saves the page's files and
publishes its figures, so a chapter's cells only show tables and figures; what the later cells need is returned.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

import pandas as pd

from helpers.book.display import (figure_citations, glue_all, glue_markdown, publish_figure, show_downloads,
                                  show_html)
from helpers.book.figures import figure_dir
from helpers.book.settings import METADATA_FILE
from helpers.book.reports import change as change_report
from helpers.book.reports import cooccurrence as cooccurrence_report
from helpers.book.reports import examples
from helpers.book.reports import explorer as explorer_report
from helpers.book.reports import keywords as keywords_report
from helpers.book.reports import links as links_report
from helpers.book.reports import performance as performance_report
from helpers.book.reports import theme_grains, theme_naming, validation as validation_report
from helpers.book.reports import reproduce as reproduce_report
from helpers.book.reports import themes as themes_report
from helpers.book.build.title import figure_label
from helpers.web.explorer import PAGE_SIZE
from helpers.web.explorer_data import explorer_data, write_explorer_data

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis


def glue_split(values: Mapping[str, Any], markdown: tuple[str, ...]) -> None:
    """Glue ``values``: those named in ``markdown`` (or ending with one of its suffixes) as Markdown sentences
    (``{glue:md}``), the others as values (``{glue:text}``)."""
    is_markdown = {name: name in markdown or name.endswith(markdown) for name in values}
    glue_all({name: value for name, value in values.items() if not is_markdown[name]})
    glue_markdown({name: value for name, value in values.items() if is_markdown[name]})


def themes(analysis: Analysis) -> None:
    """The themes page: findings, broad themes, its lead and pointer, the starter theme file and its five figures."""
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
    publish_figure("fig-themes-top-terms", *themes_report.top_terms_figure(model, label, message))
    publish_figure("fig-themes-map", *themes_report.paper_map_figure(model, papers, label, seed, message))
    publish_figure("fig-themes-wordclouds", *themes_report.wordcloud_figure(model, label, message))
    publish_figure("fig-themes-by-source", *themes_report.by_source_figure(model, papers, label, message))
    publish_figure("fig-themes-model-selection", *themes_report.selection_figure(model, label, message))


def cooccurrence(analysis: Analysis) -> None:
    """The co-occurrence page: its values, lead and pointer, and the network files it offers."""
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


def keyword_views(analysis: Analysis) -> None:
    """Under the keyword map's figure: its download links, its files (:data:`helpers.book.reports.keywords.KEYWORD_FILES`)
    and the interactive keyword map, whose clicks open the explorer's keyword filter."""
    from helpers.analysis.cooccurrence.exporters import vosviewer_document  # lazy: at the top it would load networkx
    from helpers.web.term_map import term_map_html

    show_downloads("fig-cooccurrence-keywords")
    show_html(keywords_report.downloads_html(),
              "Keyword map files in the web book: " + ", ".join(keywords_report.KEYWORD_FILES) + ".")
    network = keywords_report.keyword_network(analysis)
    show_html(term_map_html(vosviewer_document(network), community_terms=cooccurrence_report.community_terms(network),
                            empty_message=network.message or "no keyword on the map", explorer_filter="keyword"),
              "The interactive keyword map is in the web book; the static map above shows the same keywords.")


def change(analysis: Analysis) -> None:
    """What changed: its values and sentences, and its four figures when the papers form groups."""
    glue_split(change_report.change_values(analysis), ("_sentence", "_note"))
    glue_markdown({**figure_citations(analysis, "change"), **links_report.change_context(analysis)})
    result, label = analysis.change, figure_label(analysis)
    if result is not None:
        publish_figure("fig-change-prevalence", *change_report.prevalence_figure(result, label))
        publish_figure("fig-change-thematic-map", *change_report.thematic_map_figure(result, label))
        publish_figure("fig-change-overlay", *change_report.overlay_figure(analysis))
        publish_figure("fig-change-links", *change_report.links_figure(result, label))


def links(analysis: Analysis) -> pd.DataFrame:
    """The link availability page: findings, lead and pointer. Returns the shares table its figure draws."""
    glue_all(links_report.link_findings(analysis))
    glue_markdown({**figure_citations(analysis, "links"), **links_report.chapter_lead(analysis),
                   "links_change_pointer": links_report.change_pointer(analysis),
                   "links_context": links_report.context_paragraph(analysis),
                   "links_references": links_report.references(analysis)})
    return links_report.shares_table(analysis.papers, analysis.themes.labels)


class ExplorerPage(NamedTuple):
    """The papers the explorer shows (a seeded sample of large corpora) and the data it is given."""

    shown: pd.DataFrame
    data: dict[str, Any]


def explorer(analysis: Analysis, papers: pd.DataFrame) -> ExplorerPage:
    """The explorer page: its data file (and the whole table when it shows a sample) and its values."""
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
    """The tables of the Validation page, in its order."""

    term_quality: pd.DataFrame
    yardstick: pd.DataFrame
    intrusion: pd.DataFrame
    claims: pd.DataFrame
    claim_errors: pd.DataFrame
    fields: pd.DataFrame
    figure_text: pd.DataFrame


def validation(root: Path) -> ValidationTables:
    """The Validation page: the package's own measurements, read from the book's result files."""
    quality_table, quality_values = cooccurrence_report.term_quality(cooccurrence_report.read_term_quality(root))
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
    """The benchmark results the Performance page shows, and the sentence it prints where one is missing."""

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
    """The Performance page: every value and sentence it glues from the result files of ``bench``, and its figure."""
    read = performance_report.read_results
    benchmark, book_builds = read(bench / "results.csv"), read(bench / "book_results.csv")
    glue_all(performance_report.performance_findings(benchmark, book=book_builds))
    glue_markdown({"perf_headline": performance_report.headline(benchmark, book_builds),
                   **figure_citations(analysis, "performance")})
    targets = performance_report.targets_shown(benchmark, book_builds)
    publish_figure("fig-performance-stages", *performance_report.stages_figure(benchmark))
    selection, selection_values = performance_report.selection_evidence(read(bench / "selection_results.csv"))
    build_checks, build_values = performance_report.book_build_checks(book_builds)
    explorer, explorer_values = performance_report.explorer_readiness(read(bench / "explorer_results.csv"))
    large, large_values = performance_report.large_runs(read(bench / "large_results.csv"))
    one_file, one_file_values = performance_report.one_file_runs(read(bench / "large_file_results.csv"),
                                                                 read(bench / "large_results.csv"))
    glue_markdown(selection_values)
    glue_all({**build_values, **explorer_values, **performance_report.group_cost(read(bench / "group_results.csv")),
              **large_values, **one_file_values})
    summaries = {**selection_values, **build_values, **explorer_values, **large_values}
    search = performance_report.selection_search(read(bench / "results" / "selection_search.csv"))
    return PerformanceTables(benchmark, targets, selection, build_checks, explorer, large, one_file, summaries, search)
