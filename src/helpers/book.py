"""Small utilities the chapters share: load the cached analysis, glue numbers, show figures."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from helpers.pipeline import cached_pipeline


def analysis() -> dict[str, Any]:
    """The analysis of the book's corpus (``$BOOK_CORPUS``), computed once per build."""
    return cached_pipeline()


def plain(value: Any) -> Any:
    """numpy scalars to Python numbers, so ``glue`` shows them as written."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def glue_all(values: Mapping[str, Any]) -> None:
    """``myst_nb.glue`` every value without displaying it."""
    from myst_nb import glue

    for name, value in values.items():
        glue(name, plain(value), display=False)


def figure_downloads(figure, data, label: str) -> None:
    """Save a figure's files for citing and display the download links under it."""
    from IPython.display import HTML, display

    from helpers.figures import download_links_html, save_figure

    save_figure(figure, data, label)
    display(HTML(download_links_html(label)))


def glue_figure(name: str, figure) -> None:
    """``glue`` a matplotlib figure for a ``{glue:figure}`` directive."""
    from myst_nb import glue

    glue(name, figure, display=False)


def table_html(table, *, precision: int = 3, html_columns: tuple[str, ...] = ()) -> str:
    """A table as HTML, no index, every cell HTML-escaped (abstract text is untrusted).

    ``html_columns`` hold HTML built by :func:`paper_links` (already escaped) and are not escaped again.
    """
    escaped = [c for c in table.columns if c not in html_columns]
    styler = table.style.format(escape="html", precision=precision, subset=escaped)
    if html_columns:
        styler = styler.format(lambda v: v, subset=list(html_columns))
    return styler.hide(axis="index").to_html()


def show_table(table, *, precision: int = 3, html_columns: tuple[str, ...] = ()) -> None:
    """Display :func:`table_html`."""
    from IPython.display import HTML, display

    display(HTML(table_html(table, precision=precision, html_columns=html_columns)))


def paper_links(paper_ids, titles) -> str:
    """Escaped links from each paper to its row in the explorer, joined with ``; ``.

    Examples
    --------
    >>> paper_links(["p1"], ["<b>T</b>"])
    '<a href="explorer.html#paper-p1">&lt;b&gt;T&lt;/b&gt;</a>'
    """
    import html

    return "; ".join(
        f'<a href="explorer.html#paper-{html.escape(str(i), quote=True)}">{html.escape(str(t))}</a>'
        for i, t in zip(paper_ids, titles))
