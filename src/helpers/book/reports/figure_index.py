"""The figure index, generated from the figure registry (:data:`helpers.book.figures.FIGURES` and, when the build has
groups, :data:`~helpers.book.figures.GROUP_FIGURES`): per figure a thumbnail, its number and title, its chapter,
the download links and its citation, in the book's order.

The index is MyST Markdown for ``{glue:md}`` with ``:format: myst``, so that Sphinx numbers each ``{numref}`` as
it numbers the figure; the thumbnail and the links are raw HTML, which the PDF book leaves out.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from helpers.book.display import markdown_cell
from helpers.book.figures import BOOK_TITLE, FIGURE_FORMATS, FIGURES, GROUP_FIGURES, THUMBNAIL_DIR, figure_citation
from helpers.book.inputs import page_input
from helpers.book.reports.links import FEW_LINKS_FIGURES, few_links
from helpers.book.reports.themes import ONE_FILE_FIGURES, one_file

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["chapter_order", "in_book_order", "figure_entry", "figure_index", "collapsed"]

TOC_FILE = "_toc.yml"
THUMBNAIL_WIDTH = 200  # CSS pixels: the saved PNG, scaled down when it was saved (helpers.book.figures.scaled_copies)
#: The index's layout: compact paragraphs beside each thumbnail, the citation in smaller type.
INDEX_STYLE = ("<style>.figure-index-text p { margin: 0 0 0.4rem 0; } "
               ".figure-index-text p:last-child { font-size: 0.9em; color: var(--pst-color-text-muted); }</style>")


def chapter_order(root: Path | None = None) -> list[str]:
    """The pages of the book's table of contents (a page input), by file stem, root first.

    Parameters
    ----------
    root : Path, optional
        The book's root (default: the book's own), whose :data:`TOC_FILE` is read.

    Returns
    -------
    list of str

    Examples
    --------
    >>> chapter_order()[:2]
    ['intro', 'corpus']
    """
    import yaml  # lazy: only where a YAML file is read

    toc = yaml.safe_load(page_input(TOC_FILE, root=root).read_text(encoding="utf-8")) or {}
    files = [toc.get("root", "")] + [chapter["file"] for part in toc.get("parts", []) for chapter in part["chapters"]]
    return [Path(name).stem for name in files if name]


def in_book_order(figures: Sequence[tuple[str, str, str]], order: Sequence[str]) -> list[tuple[str, str, str]]:
    """``figures`` sorted by their chapter's place in ``order`` (chapters not in it last), the registry's order
    within a chapter: the order Sphinx numbers them in.

    Parameters
    ----------
    figures : sequence of (label, chapter, title)
        The figures, in the registry's order.
    order : sequence of str
        The pages in the book's order (:func:`chapter_order`).

    Returns
    -------
    list of (label, chapter, title)

    Examples
    --------
    >>> figures = [("fig-a-1", "a", "A"), ("fig-c-1", "c", "C"), ("fig-b-1", "b", "B"), ("fig-a-2", "a", "A2")]
    >>> [label for label, _, _ in in_book_order(figures, ["a", "b", "c"])]
    ['fig-a-1', 'fig-a-2', 'fig-b-1', 'fig-c-1']
    """
    place = {chapter: i for i, chapter in enumerate(order)}
    return [figure for _, figure in sorted(enumerate(figures), key=lambda item: (place.get(item[1][1], len(place)),
                                                                                   item[0]))]


def _page_from_index(chapter: str) -> str:
    """A chapter's page seen from the figure index (``chapters/figures.html``)."""
    return "../intro.html" if chapter == "intro" else f"{chapter}.html"


def figure_entry(label: str, chapter: str, title: str, citation: str, *, folder: str = "../figures") -> str:
    """One figure of the index as MyST Markdown: a linked thumbnail, ``{numref}`` and title with its chapter,
    the download links and the citation; every text escaped.

    Parameters
    ----------
    label : str
        The figure's label (``fig-<chapter>-<slug>``).
    chapter : str
        Its page's file stem.
    title : str
        Its title, as its caption opens.
    citation : str
        How to cite it (:func:`helpers.book.figures.figure_citation`).
    folder : str, optional
        The figure files' folder, seen from the index.

    Returns
    -------
    str
        MyST Markdown.

    Examples
    --------
    >>> entry = figure_entry("fig-a-b", "a", "Shares <b>", "Book, version 1, chapters/a.html#fig-a-b")
    >>> print(entry.split("\\n\\n")[1])
    **{numref}`fig-a-b`** Shares &lt;b&gt; ({doc}`a`)
    >>> 'alt="Thumbnail of the figure: Shares &lt;b&gt;"' in entry, 'href="../figures/fig-a-b.csv" download' in entry
    (True, True)
    """
    escaped = html.escape(title, quote=True)
    page = f"{_page_from_index(chapter)}#{label}"
    thumbnail = (f'<a href="{html.escape(page, quote=True)}"><img src="{folder}/{THUMBNAIL_DIR}/{label}.png" '
                 f'alt="Thumbnail of the figure: {escaped}" width="{THUMBNAIL_WIDTH}" '
                 f'style="border: 1px solid #ddd; max-width: none"></a>')
    links = " · ".join(f'<a href="{folder}/{label}.{extension}" download>{extension.upper()}</a>'
                       for extension in FIGURE_FORMATS)
    document = "../intro" if chapter == "intro" else chapter
    return "\n\n".join([
        f'<div class="figure-index-entry" id="index-{label}" style="display: flex; gap: 1rem; '
        f'align-items: flex-start; margin-bottom: 1.5rem">\n{thumbnail}\n<div class="figure-index-text">',
        f"**{{numref}}`{label}`** {markdown_cell(title)} ({{doc}}`{document}`)",
        f'<p class="figure-downloads">Download: {links}</p>',
        f"Cite: {markdown_cell(citation)}",
        "</div>\n</div>",
    ])


def figure_index(figures: Sequence[tuple[str, str, str]], *, version: str, corpus_sha256: str,
                 order: Sequence[str] = (), title: str = BOOK_TITLE, base_url: str | None = None) -> str:
    """The whole index as MyST Markdown: one :func:`figure_entry` per figure, in the book's ``order``.

    Parameters
    ----------
    figures : sequence of (label, chapter, title)
        The figures this build draws (:func:`book_figures`).
    version, corpus_sha256, title, base_url
        As for :func:`helpers.book.figures.figure_citation`.
    order : sequence of str
        The pages in the book's order (:func:`chapter_order`).

    Returns
    -------
    str
        MyST Markdown: the index's style, then the entries.

    Examples
    --------
    >>> text = figure_index([("fig-b-x", "b", "X"), ("fig-a-y", "a", "Y")], version="1", corpus_sha256="0" * 64,
    ...                     order=["a", "b"], title="Book")
    >>> text.index("fig-a-y") < text.index("fig-b-x"), text.count("{numref}")
    (True, 2)
    """
    def citation(label: str, chapter: str) -> str:
        return figure_citation(label, chapter, version=version, corpus_sha256=corpus_sha256, title=title,
                               base_url=base_url)

    return "\n\n".join([INDEX_STYLE] + [figure_entry(label, chapter, caption, citation(label, chapter))
                                        for label, chapter, caption in in_book_order(figures, order)])


def collapsed(html_text: str, summary: str) -> str:
    """``html_text`` in a closed ``<details>`` block under ``summary`` (escaped).

    Parameters
    ----------
    html_text : str
        HTML, shown when opened.
    summary : str
        Text of the always visible line.

    Returns
    -------
    str
        HTML.

    Examples
    --------
    >>> collapsed("<pre>x</pre>", "3 entries & more")
    '<details><summary>3 entries &amp; more</summary><pre>x</pre></details>'
    """
    return f"<details><summary>{html.escape(summary)}</summary>{html_text}</details>"


#: The figures a corpus without a keyword map leaves out.
NO_KEYWORDS_FIGURES = ("fig-cooccurrence-keywords",)


def book_figures(analysis: "Analysis") -> list[tuple[str, str, str]]:
    """The figures this build shows: every one of ``FIGURES``, and ``GROUP_FIGURES`` when there are groups, but
    those of links (per file, host or group) when few papers give a link (:func:`helpers.book.reports.links.few_links`)
    and themes by source file in a book of one file (:func:`helpers.book.reports.themes.one_file`), and the keyword
    map where there is none (:func:`helpers.book.reports.keywords.has_keyword_map`: its page drops its section)."""
    from helpers.book.reports.keywords import has_keyword_map  # lazy: keeps this module's import light

    left_out = ((FEW_LINKS_FIGURES if few_links(analysis.papers) else ())
                + (ONE_FILE_FIGURES if one_file(analysis.papers) else ())
                + (NO_KEYWORDS_FIGURES if not has_keyword_map(analysis) else ()))
    shown = FIGURES + (GROUP_FIGURES if analysis.change is not None else [])
    return [f for f in shown if f[0] not in left_out]
