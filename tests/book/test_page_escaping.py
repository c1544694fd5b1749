"""Text from the corpus stays text where the book's Sphinx extension places it: the ``book_title`` MyST
substitution, the theme's ``docstitle``, every page's Content-Security-Policy, and the PDF's tables."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest
from docutils.core import publish_parts
from myst_parser.parsers.docutils_ import Parser

from helpers.book.build import sphinx_ext
from helpers.book.escaping import myst_literal
from helpers.book.page_tables import table_markdown

HOSTILE_TITLE = ("<img src=x onerror=alert('v1')> <script>alert(1)</script> [x](javascript:alert(2)) {raw}`html` "
                 "{{ env }} {{ book_title }} $\\input{/etc/passwd}$ \\def\\x{y} } @misc{k, *em* & &amp; ```{note}")


def rendered_heading(title: str) -> str:
    """The landing page's heading (``# {{ book_title }}``) rendered by MyST with the book's substitution."""
    settings = {"myst_enable_extensions": ["substitution", "dollarmath", "amsmath", "colon_fence", "deflist"],
                "myst_substitutions": {"book_title": myst_literal(title)},
                "report_level": 2, "halt_level": 2}
    return publish_parts("# {{ book_title }}\n\nText.\n", parser=Parser(), writer_name="html5",
                         settings_overrides=settings)["title"]


def test_book_title_substitution_renders_as_exactly_its_text():
    # Without the escape, the <img> is live HTML and {{ env }} a Jinja expression evaluated at build time.
    expected = (HOSTILE_TITLE.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    assert rendered_heading(HOSTILE_TITLE).replace("&#64;", "@") == expected  # docutils writes @ as &#64;
    assert rendered_heading("ICML 2023–2025: 751 abstracts") == "ICML 2023–2025: 751 abstracts"


def test_book_title_on_two_lines_is_one_line_of_text():
    assert rendered_heading("A\n# B\n\n- c") == "A # B - c"


def test_name_the_book_puts_the_title_in_as_text(monkeypatch):
    monkeypatch.setattr(sphinx_ext, "analysis", lambda: None)
    monkeypatch.setattr(sphinx_ext, "book_title", lambda _analysis: "<b>T</b>\n& {{ x }}")
    monkeypatch.setattr(sphinx_ext, "left_out", lambda _analysis: False)
    config = SimpleNamespace(html_title=None, project=None, myst_substitutions={"other": "kept"})
    sphinx_ext._name_the_book(SimpleNamespace(outdir="."), config)
    assert config.html_title == config.project == "<b>T</b> & {{ x }}"  # plain strings: Sphinx's type check
    assert config.myst_substitutions == {"other": "kept", "book_title": r"\<b\>T\<\/b\> \& \{\{ x \}\}"}


@pytest.mark.parametrize("template", ["{{ docstitle }}", "{{ docstitle|e }}", "{{ '%s - Home' % docstitle }}"])
def test_page_context_title_is_escaped_html_whether_the_template_escapes_or_not(template):
    import jinja2

    # sphinx-book-theme's own values (root_title: the sidebar's home link; pagetitle: the printed page's <h1>) are
    # the pages' titles as plain text, printed unescaped as docstitle is.
    context = {"docstitle": "<img src=x onerror=alert(1)> \"A\" & B", "shorttitle": "<i>s</i>", "metatags": "<m>",
               "root_title": "<svg onload=x>", "pagetitle": "<u>p</u>", "page_description": "a <b>", "title": "<b>x</b>"}
    sphinx_ext._page_context(None, "intro", "page.html", context, None)
    shown = jinja2.Environment(autoescape=False).from_string(template).render(context)
    assert shown.removesuffix(" - Home") == "&lt;img src=x onerror=alert(1)&gt; &#34;A&#34; &amp; B"
    assert [context[name] for name in ["shorttitle", "root_title", "pagetitle", "page_description", "title"]] == [
        "&lt;i&gt;s&lt;/i&gt;", "&lt;svg onload=x&gt;", "&lt;u&gt;p&lt;/u&gt;", "a &lt;b&gt;", "<b>x</b>"]


def test_every_page_starts_its_head_with_the_content_security_policy():
    context = {"metatags": '<meta name="x" content="y" />'}
    sphinx_ext._page_context(None, "search", "search.html", context, None)
    assert context["metatags"] == sphinx_ext.CSP_META + '<meta name="x" content="y" />'
    assert sphinx_ext.CONTENT_SECURITY_POLICY.split("; ") == [
        "default-src 'self'", "script-src 'self' 'unsafe-inline'", "script-src-elem 'self' 'unsafe-inline'",
        "script-src-attr 'unsafe-hashes' 'sha256-MguIPR6qNR8D3B+eAlK+bIRTZe8t3wkOY4B/56Me9FU=' "
        "'sha256-VwzZ5SOy5UAXcNOSG7d3gmH7pMYCtE8xHYlRiqNvhzI='",
        "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "font-src 'self' data:", "connect-src 'self'",
        "object-src 'none'", "base-uri 'self'", "form-action 'self'"]
    assert sphinx_ext.CSP_META.startswith('<meta http-equiv="Content-Security-Policy" content="default-src &#x27;')


def test_a_theme_button_with_another_handler_stops_the_build():
    buttons = [{"type": "group", "buttons": [{"type": "javascript", "javascript": "window.print()"}]},
               {"type": "javascript", "javascript": "toggleFullScreen()"}]
    sphinx_ext._page_context(None, "intro", "page.html", {"header_buttons": buttons}, None)
    buttons[1]["buttons"] = [{"type": "javascript", "javascript": "launch()"}]
    with pytest.raises(ValueError, match=r"intro: header buttons with handlers .* \['launch\(\)'\]"):
        sphinx_ext._page_context(None, "intro", "page.html", {"header_buttons": buttons}, None)


def test_empty_table_has_a_body_row_for_the_pdf():
    # A Markdown table with a header and no row is a docutils table without a body: Sphinx's LaTeX builder stops
    # with StopIteration (a corpus without links has an empty table of link hosts).
    markdown = table_markdown(pd.DataFrame({"host": [], "links": []}))
    assert markdown == "| host | links |\n| --- | --- |\n| — | — |"
    parts = publish_parts(markdown, parser=Parser(), writer_name="html5", settings_overrides={"report_level": 2})
    assert "<tbody>" in parts["body"]


def test_figure_citations_escape_the_corpus_title(monkeypatch):
    import helpers.book.page_figures as display

    monkeypatch.setattr(display, "citation_title", lambda _analysis: "<img src=x onerror=alert(1)> {{ x }}")
    analysis = SimpleNamespace(corpus=SimpleNamespace(sha256="ab" * 32))
    citations = display.figure_citations(analysis, "themes")
    assert citations and all(c.startswith(r"&lt;img src=x onerror=alert\(1\)&gt; \{\{ x \}\}, version ")
                             for c in citations.values())
