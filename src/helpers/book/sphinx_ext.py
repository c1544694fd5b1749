"""A small Sphinx extension for the offline book.

- The book is named after its corpus: the HTML title, the sidebar and the landing page's heading
  (``{{ book_title }}``, a MyST substitution) read :func:`helpers.book.title.book_title` of the book's
  analysis (computed once per build key; ``BOOK_TITLE`` replaces it).
- A chapter that does not apply to the corpus (What changed with one group) is left out of the
  build's table of contents (:mod:`helpers.book.toc`).
- The book's authors come from ``CITATION.cff`` (:mod:`helpers.book.citation`), so every page's
  "By ..." line names the authors the How to cite page names.
- Where fewer than :data:`helpers.book.reports.links.MIN_LINKED_PAPERS` papers give a link, the links chapter's
  sections of shares, tables and figures (:data:`~helpers.book.reports.links.FEW_LINKS_SECTIONS`) are left out
  of the page as it is read, before figures are numbered; its paragraph says why. Without any link, so are
  the sections on repairing and checking links.
- The book's own style sheet (``static/book.css``: tables that fit the column, wrapped code).
- Jupyter Book 1.x always loads sphinx-thebe, whose page set-up runs twice and declares ``THEBE_JS_URL``
  twice, an error in every page's console. The book has no live code cells, so this extension unhooks
  sphinx-thebe's page set-up.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes

from helpers.book.citation import read_citation
from helpers.book.settings import analysis, config as book_config
from helpers.book.title import book_title
from helpers.book.toc import left_out, write_build_toc

STATIC_DIR = Path(__file__).parent / "static"
STYLE_FILE = "book.css"
LINKS_CHAPTER = "chapters/links"


def _drop_thebe_listeners(app) -> None:
    for event in ("env-before-read-docs", "doctree-resolved"):
        for listener in list(app.events.listeners.get(event, [])):
            if getattr(listener.handler, "__module__", "") == "sphinx_thebe":
                app.events.listeners[event].remove(listener)


def _name_the_book(app, config) -> None:
    """The corpus's title everywhere; the table of contents of this build (:mod:`helpers.book.toc`)."""
    book_analysis = analysis()
    title = book_title(book_analysis)
    config.html_title = title
    config.project = title
    config.myst_substitutions = {**(config.myst_substitutions or {}), "book_title": title}
    if left_out(book_analysis):
        config.external_toc_path = str(write_build_toc(book_config().root, book_analysis, Path(app.outdir).parent))


def _drop_sections(app, doctree) -> None:
    """Leave the links chapter's sections of shares, tables and figures out when few papers give a link, and those
    on repairing and checking links when there is none (:func:`helpers.book.reports.links.left_out_sections`)."""
    from helpers.book.reports.links import left_out_sections  # lazy: loads pandas

    if app.env.docname != LINKS_CHAPTER:
        return
    book_analysis = analysis()
    left_out = set(left_out_sections(book_analysis.papers, book_analysis.links.links))
    for section in list(doctree.findall(nodes.section)):
        if set(section["ids"]) & left_out and section.parent is not None:
            section.parent.remove(section)


def _authors_from_citation(app, config) -> None:
    if (Path(app.srcdir) / "CITATION.cff").is_file():
        config.author = ", ".join(read_citation(Path(app.srcdir)).author_names)


def _add_style(app, config) -> None:
    config.html_static_path = [*config.html_static_path, str(STATIC_DIR)]


def setup(app):
    app.connect("config-inited", _add_style)
    app.connect("config-inited", _name_the_book)
    app.connect("config-inited", _authors_from_citation)
    app.add_css_file(STYLE_FILE)
    app.connect("builder-inited", _drop_thebe_listeners)
    app.connect("doctree-read", _drop_sections, priority=100)  # before the collectors read the page (its contents)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
