"""A small Sphinx extension for the offline book.

- The book is named after its corpus: the HTML title, the sidebar and the landing page's heading
  (``{{ book_title }}``, a MyST substitution) read :func:`helpers.book.build.title.book_title` of the book's
  analysis (computed once per build key; ``BOOK_TITLE`` replaces it). The title comes from the input, so it is
  text everywhere: a MyST literal in the substitution, escaped HTML wherever the themes' templates print it
  unescaped (:mod:`helpers.book.escaping`).
- Every page carries a Content-Security-Policy ``<meta>`` (:data:`CONTENT_SECURITY_POLICY`): scripts only from
  the book's own files or inline ``<script>`` elements (the themes, MathJax's settings, the term map and
  the explorer need those), never an event-handler attribute (but the theme's two header buttons', by hash), a
  plug-in, a ``<base>`` or a form sent elsewhere.
- A chapter that does not apply to the corpus (What changed with one group) is left out of the
  build's table of contents (:mod:`helpers.book.build.toc`).
- The book's authors come from ``CITATION.cff`` (:mod:`helpers.book.build.citation`), so every page's
  "By ..." line names the authors the How to cite page names; its ``repository-code``, when set, gives every
  chapter a Binder launch button.
- The landing page's ``<title>`` names the book once (``templates/layout.html``), not "X — X".
- Where fewer than :data:`helpers.book.reports.links.MIN_LINKED_PAPERS` papers give a link, the links chapter's
  sections of shares, tables and figures (:data:`~helpers.book.reports.links.FEW_LINKS_SECTIONS`) are left out
  of the page as it is read, before figures are numbered; its paragraph says why. Without any link, so are
  the sections on repairing and checking links.
- Without a keyword map (no paper gives keywords, or fewer than two reach the map), the co-occurrence chapter's
  keyword map sections (:data:`~helpers.book.reports.keywords.KEYWORD_MAP_SECTIONS`) are left out the same way;
  its sentence says why.
- Numbered references read each target page once per build (:mod:`helpers.book.build.numrefs`).
- The book's own style sheet (``static/book.css``: tables that fit the column, wrapped code).
- Jupyter Book 1.x always loads sphinx-thebe, whose page set-up runs twice and declares ``THEBE_JS_URL``
  twice, an error in every page's console. The book has no live code cells, so this extension unhooks
  sphinx-thebe's page set-up.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path
from typing import Any, Iterator

from docutils import nodes

from helpers.book.build.citation import launch_options, read_citation
from helpers.book.escaping import html_literal, myst_literal
from helpers.book.settings import analysis, config as book_config
from helpers.book.build.title import book_title
from helpers.book.build.toc import left_out, write_build_toc

STATIC_DIR = Path(__file__).parents[1] / "static"
#: The book's template overrides (``layout.html``: the landing page's ``<title>`` names the book once).
TEMPLATES_DIR = Path(__file__).parents[1] / "templates"
STYLE_FILE = "book.css"
LINKS_CHAPTER = "chapters/links"
CHANGE_CHAPTER = "chapters/change"
THEMES_CHAPTER = "chapters/themes"
COOCCURRENCE_CHAPTER = "chapters/cooccurrence"
#: The only event-handler attributes a page may run: sphinx-book-theme's header buttons (print, full screen), by
#: their exact text (CSP's 'unsafe-hashes'); an injected handler never matches. A build whose theme adds another
#: fails (:func:`_page_context`).
THEME_HANDLERS = ("window.print()", "toggleFullScreen()")


def csp_hash(source: str) -> str:
    """A CSP source expression for one exact script text.

    Parameters
    ----------
    source
        The script's text, exactly as the page holds it (one changed character changes the hash).

    Returns
    -------
    str
        ``'sha256-...'``, quoted as a policy writes it.

    Examples
    --------
    >>> csp_hash("window.print()")
    "'sha256-MguIPR6qNR8D3B+eAlK+bIRTZe8t3wkOY4B/56Me9FU='"
    """
    return f"'sha256-{base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()}'"


#: The policy of every page (a ``<meta http-equiv>``, so ``frame-ancestors``, ``report-uri`` and ``sandbox`` cannot
#: be set; a web server's header can add them). ``script-src-attr`` forbids ``onerror=``-style handlers (all but
#: :data:`THEME_HANDLERS`, by hash) even though inline ``<script>`` elements run ('unsafe-inline' for
#: elements: the theme's mode switch, sphinx-togglebutton's and Sphinx's page options, MathJax's settings,
#: the term map's and the explorer's programs are inline scripts of the build). Styles may be inline (the
#: themes and MathJax's output set them); images and fonts may be ``data:`` URLs. ``javascript:`` links are
#: not blocked by the policy (inline scripts are allowed); the escaping keeps them out of the pages.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "script-src-elem 'self' 'unsafe-inline'",
    "script-src-attr 'unsafe-hashes' " + " ".join(csp_hash(handler) for handler in THEME_HANDLERS),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
])
#: The template values that are plain text but printed as HTML by a theme (see :func:`_page_context`).
TEXT_CONTEXT = ("docstitle", "shorttitle", "root_title", "pagetitle", "page_description")
CSP_META = f'<meta http-equiv="Content-Security-Policy" content="{html.escape(CONTENT_SECURITY_POLICY)}" />'


def _drop_thebe_listeners(app) -> None:
    for event in ("env-before-read-docs", "doctree-resolved"):
        for listener in list(app.events.listeners.get(event, [])):
            if getattr(listener.handler, "__module__", "") == "sphinx_thebe":
                app.events.listeners[event].remove(listener)


def _name_the_book(app, config) -> None:
    """The corpus's title everywhere; the table of contents of this build (:mod:`helpers.book.build.toc`)."""
    book_analysis = analysis()
    title = book_title(book_analysis)
    config.html_title = config.project = " ".join(title.split())  # HTML-escaped per page (_page_context)
    config.myst_substitutions = {**(config.myst_substitutions or {}), "book_title": myst_literal(title)}
    if left_out(book_analysis):
        config.external_toc_path = str(write_build_toc(book_config().root, book_analysis, Path(app.outdir).parent))


def _drop_sections(app, doctree) -> None:
    """Leave the links chapter's sections of shares, tables and figures out when few papers give a link, and those
    on repairing and checking links when there is none (:func:`helpers.book.reports.links.left_out_sections`);
    What changed's section of the linked share per group too when few papers give a link, and the themes
    chapter's section of themes by source file in a book of one file, and the co-occurrence chapter's keyword map
    sections when no keyword map can be drawn (:func:`helpers.book.reports.keywords.left_out_sections`)."""
    from helpers.book.reports.links import FEW_LINKS_CHANGE_SECTIONS, few_links, left_out_sections  # lazy: pandas
    from helpers.book.reports.keywords import left_out_sections as keyword_sections  # lazy: pandas
    from helpers.book.reports.themes import ONE_FILE_SECTIONS, one_file  # lazy: pandas

    if app.env.docname not in (LINKS_CHAPTER, CHANGE_CHAPTER, THEMES_CHAPTER, COOCCURRENCE_CHAPTER):
        return
    book_analysis = analysis()
    if app.env.docname == LINKS_CHAPTER:
        left_out = set(left_out_sections(book_analysis.papers, book_analysis.links.links))
    elif app.env.docname == THEMES_CHAPTER:
        left_out = set(ONE_FILE_SECTIONS if one_file(book_analysis.papers) else ())
    elif app.env.docname == COOCCURRENCE_CHAPTER:
        left_out = set(keyword_sections(book_analysis))
    else:
        left_out = set(FEW_LINKS_CHANGE_SECTIONS if few_links(book_analysis.papers) else ())
    for section in list(doctree.findall(nodes.section)):
        if set(section["ids"]) & left_out and section.parent is not None:
            section.parent.remove(section)


def _authors_from_citation(app, config) -> None:
    if (Path(app.srcdir) / "CITATION.cff").is_file():
        config.author = ", ".join(read_citation(Path(app.srcdir)).author_names)


def _launch_buttons(app, config) -> None:
    """A Binder launch button on every chapter when ``CITATION.cff`` gives ``repository-code``
    (:func:`helpers.book.build.citation.launch_options`); none without it (the How to cite page says how to set it)."""
    if not (Path(app.srcdir) / "CITATION.cff").is_file():
        return
    options = launch_options(read_citation(Path(app.srcdir)).repository_code)
    if options:
        theme_options = dict(config.html_theme_options or {})
        launch = {**(theme_options.get("launch_buttons") or {}), **options.pop("launch_buttons")}
        config.html_theme_options = {**theme_options, **options, "launch_buttons": launch}


def _add_style(app, config) -> None:
    config.html_static_path = [*config.html_static_path, str(STATIC_DIR)]
    config.templates_path = [*config.templates_path, str(TEMPLATES_DIR)]


def _text(markup: Any) -> str:
    """Text of a title as a template holds it (HTML or plain), tags dropped, entities read, spaces collapsed.

    Examples
    --------
    >>> _text("ICML 2024: 57 abstracts"), _text("A &amp; <em>B</em>  C")
    ('ICML 2024: 57 abstracts', 'A & B C')
    """
    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", str(markup))).split())


def title_is_book_title(title: Any, book_title: Any) -> bool:
    """Whether a page's title is the book's own (the landing page's heading), so its ``<title>`` names the book once
    instead of "X — X" (``templates/layout.html``).

    Parameters
    ----------
    title
        The page's title, as the theme's context gives it (HTML-escaped).
    book_title
        The book's title (``docstitle``).

    Returns
    -------
    bool
        Whether the two are one text once unescaped and their spaces collapsed.

    Examples
    --------
    >>> title_is_book_title("ICML 2024: 57 abstracts", "ICML 2024: 57 abstracts"), title_is_book_title("Themes", "X")
    (True, False)
    >>> title_is_book_title("A &amp; B", "A & B"), title_is_book_title("", "")
    (True, False)
    """
    return bool(_text(book_title)) and _text(title) == _text(book_title)


def _button_handlers(buttons: Any) -> Iterator[str]:
    """The ``javascript`` of sphinx-book-theme's header buttons, in button groups too."""
    for button in buttons if isinstance(buttons, list) else []:
        if isinstance(button, dict):
            if button.get("type") == "javascript":
                yield str(button.get("javascript"))
            yield from _button_handlers(button.get("buttons"))


def _page_context(app, pagename, templatename, context, doctree) -> None:
    """The policy first in ``<head>``; the titles as escaped HTML. The themes print them unescaped: ``docstitle``
    in the navbar and the search page's ``<title>`` (Sphinx's type check keeps ``html_title`` itself a plain
    string), and sphinx-book-theme's own ``root_title`` (the sidebar's home link), ``pagetitle`` (the printed
    page's ``<h1>``) and ``page_description`` are the pages' titles and text as plain text. Runs after the themes'
    handlers (priority 900)."""
    context["metatags"] = CSP_META + context.get("metatags", "")
    context["title_is_book_title"] = title_is_book_title(context.get("title", ""), context.get("docstitle", ""))
    handlers = set(_button_handlers(context.get("header_buttons", []))) - set(THEME_HANDLERS)
    if handlers:
        raise ValueError(f"{pagename}: header buttons with handlers the Content-Security-Policy does not allow: "
                         f"{sorted(handlers)} (add them to THEME_HANDLERS)")
    for name in TEXT_CONTEXT:
        if context.get(name):
            context[name] = html_literal(context[name])
    _escape_search_titles(getattr(getattr(app, "builder", None), "indexer", None), pagename)


def _escape_search_titles(indexer: Any, pagename: str) -> None:
    """This page's section titles in the search index as HTML. Sphinx's ``searchtools.js`` shows a matching title
    with ``innerHTML``, and its index keeps section titles (``alltitles``) as plain text, a landing heading named
    after the corpus too (document titles, ``titles``, are HTML already). The page was indexed just before
    ``html-page-context`` (``write_doc_serialized``); a page not written again keeps its escaped titles.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> indexer = SimpleNamespace(_all_titles={"intro": [("<img src=x> & B", None)], "other": [("<i>", "a")]})
    >>> _escape_search_titles(indexer, "intro"); indexer._all_titles
    {'intro': [('&lt;img src=x&gt; &amp; B', None)], 'other': [('<i>', 'a')]}
    """
    titles = getattr(indexer, "_all_titles", None)
    if isinstance(titles, dict) and pagename in titles:
        titles[pagename] = [(html.escape(title, quote=False), anchor) for title, anchor in titles[pagename]]


def _wait_for_figures(app, exception) -> None:
    """Wait until the figure files the pages' kernels still write in the background are in place
    (:func:`helpers.book.figure_writers.wait_for_writers`), so the build ends with every download written."""
    if exception is not None:
        return
    from helpers.book.figure_writers import wait_for_writers  # lazy: the build's end only
    from helpers.book.settings import config  # lazy: the build's end only

    wait_for_writers(config().figure_dir)


def setup(app):
    """Connect the extension's steps to Sphinx's events (the book's title, its authors, the launch buttons, the
    style sheet, the sections a corpus leaves out, the page's security policy).

    Parameters
    ----------
    app
        Sphinx's application (``extensions:`` in ``_config.yml`` names this module).

    Returns
    -------
    dict
        The extension's metadata: safe to read and write pages in parallel.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> hooks = []
    >>> app = SimpleNamespace(connect=lambda event, *_, **__: hooks.append(event), add_css_file=lambda name: None,
    ...                       setup_extension=hooks.append)
    >>> setup(app)["parallel_read_safe"], sorted(set(hooks))
    (True, ['build-finished', 'builder-inited', 'config-inited', 'doctree-read', 'helpers.book.build.numrefs', 'html-page-context'])
    """
    app.connect("html-page-context", _page_context, priority=900)
    app.connect("config-inited", _add_style)
    app.connect("config-inited", _name_the_book)
    app.connect("config-inited", _authors_from_citation)
    app.connect("config-inited", _launch_buttons)
    app.add_css_file(STYLE_FILE)
    app.connect("builder-inited", _drop_thebe_listeners)
    app.connect("doctree-read", _drop_sections, priority=100)  # before the collectors read the page (its contents)
    app.connect("build-finished", _wait_for_figures)
    app.setup_extension("helpers.book.build.numrefs")  # each numbered reference's page read once per build
    return {"parallel_read_safe": True, "parallel_write_safe": True}
