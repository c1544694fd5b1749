"""What a page's cells glued, kept for the notebook that shows the page in JupyterLab (``make lab``).

:func:`helpers.book.glue_all`, :func:`helpers.book.glue_markdown` and :func:`helpers.book.publish_figure` record
each value here as they glue it; the chapter's Markdown, shown by :mod:`helpers.book.lab.markdown`, asks for them
through ``{eval}`` expressions (``book.page.text("n_papers")``), so the notebook's prose carries the same numbers,
sentences and figures as the built page. A value not computed yet reads as a short note to run the cells above.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from markdown_it import MarkdownIt

NOT_YET = "[{name}: run the cells above]"


@dataclass(frozen=True)
class InlineHTML:
    """HTML shown in place inside a sentence (``{eval}`` output), with its text for plain displays.

    Attributes
    ----------
    html
        The HTML a notebook shows.
    text
        The same as plain text.

    Examples
    --------
    >>> InlineHTML("<em>3</em> themes", "3 themes")
    3 themes
    """

    html: str
    text: str

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text


@dataclass
class PageValues:
    """The values of the page being run, by glue name.

    Attributes
    ----------
    texts, markdown, figures
        The values recorded so far, by glue name: plain text, Markdown, and figures (PNG and caption).

    Examples
    --------
    >>> page = PageValues()
    >>> page.record_text("n_papers", "1,204")
    >>> page.text("n_papers"), page.text("n_themes")
    ('1,204', '[n_themes: run the cells above]')
    >>> page.record_markdown("lead", "The *papers* fall into 3 themes ({numref}`fig-themes-map`).")
    >>> page.md("lead")
    'The papers fall into 3 themes (the figure Map of the papers by theme weights).'
    >>> page.record_markdown("cite", "[the paper](https://example.org/a?b=1&c=2)")
    >>> page.md("cite").html
    '<a href="https://example.org/a?b=1&amp;c=2">the paper</a>'
    """

    texts: dict[str, Any] = field(default_factory=dict)
    markdown: dict[str, str] = field(default_factory=dict)
    figures: dict[str, tuple[bytes, str]] = field(default_factory=dict)

    def record_text(self, name: str, value: Any) -> None:
        self.texts[name] = value

    def record_markdown(self, name: str, value: str) -> None:
        self.markdown[name] = value

    def record_figure(self, name: str, png: bytes, title: str) -> None:
        self.figures[name] = (png, title)

    def text(self, name: str) -> str:
        """A ``{glue:text}`` value as the page prints it."""
        return str(self.texts[name]) if name in self.texts else NOT_YET.format(name=name)

    def value(self, name: str) -> str:
        """A ``{glue}`` value (shown as its text, as ``{glue:text}``)."""
        return self.text(name)

    def md(self, name: str) -> InlineHTML | str:
        """A ``{glue:md}`` sentence inside the sentence around it: as HTML where it holds a link, else as its
        text (JupyterLab sets HTML apart from the words around it)."""
        source = self.markdown.get(name)
        if source is None:
            return NOT_YET.format(name=name)
        rendered = _markdown().renderInline(plain_references(source))
        if "<a " in rendered:
            return InlineHTML(rendered, source)
        return html.unescape(_TAG.sub("", rendered))

    def block(self, name: str) -> InlineHTML:
        """A ``glue:md`` block: its paragraphs, lists and tables."""
        source = self.markdown.get(name)
        if source is None:
            return InlineHTML(html.escape(NOT_YET.format(name=name)), NOT_YET.format(name=name))
        return InlineHTML(_markdown().render(plain_references(source)), source)

    def figure(self, name: str) -> InlineHTML:
        """A ``glue:figure``: its PNG at full column width."""
        if name not in self.figures:
            return InlineHTML(html.escape(NOT_YET.format(name=name)), NOT_YET.format(name=name))
        png, title = self.figures[name]
        source = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        return InlineHTML(f'<img src="{source}" alt="{html.escape(title, quote=True)}" '
                          'style="display: block; height: auto; width: 860px; max-width: 100%">', title)


@cache
def _markdown() -> MarkdownIt:
    # The glued Markdown is built by the reports, with anything from the corpus escaped (display.markdown_cell);
    # its HTML (download links) is kept.
    return MarkdownIt("commonmark", {"html": True}).enable("table")


_TAG = re.compile(r"<[^>]*>")
_REFERENCE = re.compile(r"\{(numref|ref|doc)\}`(?:([^`<]*?)\s*<)?([^`>]+)>?`")


def plain_references(markdown: str) -> str:
    """The book's cross-references as words: a figure by its title, a section or page by its label or its given
    text (a notebook has no numbered figures or pages of the book to point at).

    Parameters
    ----------
    markdown
        Markdown holding the book's ``{numref}``, ``{ref}`` and ``{doc}`` roles.

    Returns
    -------
    str
        The Markdown with each role as words.

    Examples
    --------
    >>> plain_references("see {numref}`fig-themes-map` and {doc}`the explorer <explorer>`")
    'see the figure *Map of the papers by theme weights* and the explorer'
    >>> plain_references("in {ref}`sec-corpus-parse-report`")
    'in the section *corpus parse report*'
    """
    from helpers.book.figures import figure_title  # matplotlib: only where a figure is named

    def words(match: re.Match) -> str:
        kind, text, target = match[1], match[2], match[3]
        if text:
            return text
        if kind == "numref":
            return f"the figure *{figure_title(target)}*"
        words = target.rsplit("/", 1)[-1].removeprefix("sec-").replace("-", " ")
        return f"the {'page' if kind == 'doc' else 'section'} *{words}*"

    return _REFERENCE.sub(words, markdown)


#: The page being run: one per kernel, as a notebook runs one page.
page = PageValues()
