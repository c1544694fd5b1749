"""The book layer: settings, the cached analysis, glue and display (:mod:`.settings`, :mod:`.cache`,
:mod:`.display`, :mod:`.page_figures`, :mod:`.page_tables`), figures, and one report module per chapter (:mod:`.reports`); a chapter re-run as a notebook in
JupyterLab (:mod:`.lab`) and the build around the pages (:mod:`.build`: the prebuild, the Sphinx extension, the
title) in packages of their own.

The chapters import this package as ``book`` and call the names below.
"""

import importlib

from helpers.book.display import glue_all, glue_markdown, markdown_cell, paper_links, plain, show_html, show_markdown
from helpers.book.page_figures import bibtex_blocks, figure_citations, glue_name, publish_figure, show_downloads
from helpers.book.page_tables import show_table, show_top, table_html, table_markdown
from helpers.book.settings import BookConfig, analysis, book_root, config, with_titles
from helpers.book.build.title import citation_title, figure_label

__all__ = ["BookConfig", "analysis", "citation_title", "figure_label", "book_root", "config", "with_titles", "bibtex_blocks",
           "figure_citations", "glue_all", "glue_markdown", "glue_name", "markdown_cell", "paper_links", "plain",
           "publish_figure", "show_downloads", "show_html", "show_markdown", "show_table", "show_top", "table_html",
           "table_markdown"]

# The files the pages read besides the corpus: one list, in the build key, read through page_input.
from helpers.book.inputs import PAGE_INPUTS, page_input  # noqa: E402
from helpers.book.lab.notebook import install_error_handler as _install_error_handler  # noqa: E402
# The page's values for its notebook in JupyterLab (the Markdown's {eval} expressions ask book.page).
from helpers.book.lab.page_values import page  # noqa: E402

__all__ += ["PAGE_INPUTS", "page", "page_input", "pages"]


def __getattr__(name: str):
    # book.pages (what each chapter glues and draws) imports every report: only when a chapter asks for it.
    if name == "pages":
        return importlib.import_module("helpers.book.pages")
    raise AttributeError(f"module 'helpers.book' has no attribute {name!r}")

_install_error_handler()
