"""A small Sphinx extension for the offline book.

- The book is named after its corpus: the HTML title, the sidebar and the landing page's heading
  (``{{ book_title }}``, a MyST substitution) read :func:`helpers.book.title.book_title` of the book's
  analysis (computed once per build key; ``BOOK_TITLE`` replaces it). The title comes from the input, so it is
  text everywhere: a MyST literal in the substitution (:func:`myst_literal`), escaped HTML in the theme's
  templates (:func:`html_literal`).
- Every page carries a Content-Security-Policy ``<meta>`` (:data:`CONTENT_SECURITY_POLICY`): scripts only from
  the book's own files or inline ``<script>`` elements (the theme, MathJax's settings, itables and the
  term map need those), never an event-handler attribute, a plug-in, a ``<base>`` or a form sent elsewhere.
- A chapter that does not apply to the corpus (What changed with one group) is left out of the
  build's table of contents (:mod:`helpers.book.toc`).
- The book's authors come from ``CITATION.cff`` (:mod:`helpers.book.citation`), so every page's
  "By ..." line names the authors the How to cite page names.
- The book's own style sheet (``static/book.css``: tables that fit the column, wrapped code).
- Jupyter Book 1.x always loads sphinx-thebe, whose page set-up runs twice and declares ``THEBE_JS_URL``
  twice, an error in every page's console. The book has no live code cells, so this extension unhooks
  sphinx-thebe's page set-up.
"""

from __future__ import annotations

import html
import re
import string
from pathlib import Path

from markupsafe import Markup

from helpers.book.citation import read_citation
from helpers.book.settings import analysis, config as book_config
from helpers.book.title import book_title
from helpers.book.toc import left_out, write_build_toc

STATIC_DIR = Path(__file__).parent / "static"
STYLE_FILE = "book.css"
_PUNCTUATION = re.compile(f"([{re.escape(string.punctuation)}])")
#: The policy of every page (a ``<meta http-equiv>``, so ``frame-ancestors``, ``report-uri`` and ``sandbox`` cannot
#: be set; a web server's header can add them). ``script-src-attr 'none'`` forbids ``onerror=``-style handlers
#: even though inline ``<script>`` elements run ('unsafe-inline' for elements: the theme's mode switch, MathJax's
#: settings, itables' tables and the term map's data are inline scripts of the build). Styles may be inline
#: (the theme, MathJax's CHTML output and itables set them); images and fonts may be ``data:`` URLs.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "script-src-elem 'self' 'unsafe-inline'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
])
CSP_META = f'<meta http-equiv="Content-Security-Policy" content="{html.escape(CONTENT_SECURITY_POLICY)}" />'


def myst_literal(text: str) -> str:
    r"""``text`` as MyST Markdown that renders as exactly that text on one line: every ASCII punctuation character
    backslash-escaped (CommonMark allows it for all of them), so no HTML, role, substitution, math or link starts.

    Examples
    --------
    >>> print(myst_literal("<img src=x onerror=alert(1)> {{ env }}  {raw}`html`"))
    \<img src\=x onerror\=alert\(1\)\> \{\{ env \}\} \{raw\}\`html\`
    """
    return _PUNCTUATION.sub(r"\\\1", " ".join(str(text).split()))


def html_literal(text: str) -> Markup:
    """``text`` escaped for HTML, as :class:`markupsafe.Markup` so that the theme's templates print it as it is
    whether they escape it (``{{ docstitle|e }}``) or not (``{{ docstitle }}``).

    Examples
    --------
    >>> html_literal('<b onclick="x">A & B</b>')
    Markup('&lt;b onclick=&#34;x&#34;&gt;A &amp; B&lt;/b&gt;')
    >>> str(html_literal("ICML 2024")) + " - Home"
    'ICML 2024 - Home'
    """
    return Markup.escape(" ".join(str(text).split()))


def _drop_thebe_listeners(app) -> None:
    for event in ("env-before-read-docs", "doctree-resolved"):
        for listener in list(app.events.listeners.get(event, [])):
            if getattr(listener.handler, "__module__", "") == "sphinx_thebe":
                app.events.listeners[event].remove(listener)


def _name_the_book(app, config) -> None:
    """The corpus's title everywhere; the table of contents of this build (:mod:`helpers.book.toc`)."""
    book_analysis = analysis()
    title = book_title(book_analysis)
    config.html_title = config.project = " ".join(title.split())  # HTML-escaped per page (_page_context)
    config.myst_substitutions = {**(config.myst_substitutions or {}), "book_title": myst_literal(title)}
    if left_out(book_analysis):
        config.external_toc_path = str(write_build_toc(book_config().root, book_analysis, Path(app.outdir).parent))


def _authors_from_citation(app, config) -> None:
    if (Path(app.srcdir) / "CITATION.cff").is_file():
        config.author = ", ".join(read_citation(Path(app.srcdir)).author_names)


def _add_style(app, config) -> None:
    config.html_static_path = [*config.html_static_path, str(STATIC_DIR)]


def _page_context(app, pagename, templatename, context, doctree) -> None:
    """The policy first in ``<head>``; the title as escaped HTML (the theme prints ``docstitle`` unescaped in its
    navbar and the search page's ``<title>``; Sphinx's type check keeps ``html_title`` itself a plain string)."""
    context["metatags"] = CSP_META + context.get("metatags", "")
    for name in ("docstitle", "shorttitle"):
        if context.get(name):
            context[name] = html_literal(context[name])


def setup(app):
    app.connect("html-page-context", _page_context)
    app.connect("config-inited", _add_style)
    app.connect("config-inited", _name_the_book)
    app.connect("config-inited", _authors_from_citation)
    app.add_css_file(STYLE_FILE)
    app.connect("builder-inited", _drop_thebe_listeners)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
