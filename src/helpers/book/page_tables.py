"""Tables on a page: escaped for the web (HTML) and for the PDF book (Markdown), with human column names, and the
long ones cut to their top rows with the whole table as a CSV download.

Anything taken from the corpus is untrusted: every cell is HTML-escaped (:func:`table_html`) or Markdown-escaped
(:func:`helpers.book.display.markdown_cell`).
"""

from __future__ import annotations

import html
import os  # noqa: F401 (the examples)
import re
from typing import Any

import pandas as pd  # noqa: F401 (the examples)
from helpers.analysis.spreadsheet import write_csv
from helpers.book.display import markdown_cell, show_html
from helpers.book.formatting import MISSING, count, display_table, number

__all__ = ["HEADER_NAMES", "column_header", "table_html", "table_markdown", "show_table", "rows_note", "show_top"]


HEADER_NAMES = {"f1": "F1", "jaccard": "Jaccard"}


def column_header(name: Any) -> str:
    """A table column's header as a reader reads it: a machine name (``n_papers``, ``top_terms``) in words, a
    header already in words kept as it is. The CSV downloads keep the machine names.

    Parameters
    ----------
    name : object
        A column's name (a string, or anything pandas allows).

    Returns
    -------
    str
        The header shown (:data:`HEADER_NAMES` for names words would misspell).

    Examples
    --------
    >>> [column_header(c) for c in ["n_terms", "n_papers", "top_terms", "long_form", "f1", "papers shown", "SHA-256"]]
    ['terms', 'papers', 'top terms', 'long form', 'F1', 'papers shown', 'SHA-256']
    """
    text = str(name)
    if text in HEADER_NAMES:
        return HEADER_NAMES[text]
    return re.sub(r"^n_", "", text).replace("_", " ")


def table_html(table, *, precision: int = 3, html_columns: tuple[str, ...] = ()) -> str:
    """A table as HTML, no index, every cell HTML-escaped (abstract text is untrusted), its headers in words
    (:func:`column_header`).

    Parameters
    ----------
    table : pandas.DataFrame
    precision : int
        Decimals of floats.
    html_columns : tuple of str
        Columns of HTML built by :func:`paper_links` (already escaped), not escaped again.

    Returns
    -------
    str

    Examples
    --------
    >>> "&lt;b&gt;" in table_html(pd.DataFrame({"a": ["<b>"]}))
    True
    """
    table = display_table(table, precision=precision)
    escaped = [c for c in table.columns if c not in html_columns]
    styler = table.style.format(escape="html", precision=precision, subset=escaped, na_rep=MISSING)
    if html_columns:
        styler = styler.format(lambda v: v, subset=list(html_columns))
    styler = styler.relabel_index([html.escape(column_header(c)) for c in table.columns], axis="columns")
    # The theme's table style (borders, striped rows) applies to class "table"; a table wider than the
    # column scrolls inside its own box instead of being cut off at the column's edge.
    table_text = styler.hide(axis="index").set_table_attributes('class="table"').to_html()
    return f'<div class="table-scroll" style="overflow-x: auto; max-width: 100%">{table_text}</div>'


def table_markdown(table, *, precision: int = 3, html_columns: tuple[str, ...] = ()) -> str:
    r"""A table as a GitHub-flavoured Markdown pipe table, every cell escaped (see :func:`markdown_cell`). A table
    without rows has one row of dashes: a header alone is a table without a body, which stops Sphinx's LaTeX builder.

    Parameters
    ----------
    table : pandas.DataFrame
    precision : int
    html_columns : tuple of str
        Columns of HTML (:func:`markdown_cell` with ``is_html``).

    Returns
    -------
    str

    Examples
    --------
    >>> print(table_markdown(pd.DataFrame({"a": [1], "b|c": ["<b>"]})))
    | a | b\|c |
    | --- | --- |
    | 1 | &lt;b&gt; |
    >>> print(table_markdown(pd.DataFrame({"host": []})))
    | host |
    | --- |
    | — |
    """
    table = display_table(table, precision=precision)
    header = "| " + " | ".join(markdown_cell(column_header(c)) for c in table.columns) + " |"
    rows = ["| " + " | ".join(markdown_cell(v, precision=precision, is_html=c in html_columns)
                              for c, v in zip(table.columns, row)) + " |"
            for row in table.itertuples(index=False)] or ["| " + " | ".join(MISSING for _ in table.columns) + " |"]
    return "\n".join([header, "| " + " | ".join("---" for _ in table.columns) + " |", *rows])


def show_table(table, *, precision: int = 3, html_columns: tuple[str, ...] = ()) -> None:
    """Display a table: HTML in the web book (:func:`table_html`), Markdown in the PDF book.

    Parameters
    ----------
    table : pandas.DataFrame
    precision : int
    html_columns : tuple of str
        As :func:`table_html`.

    Examples
    --------
    >>> from unittest import mock
    >>> with mock.patch("helpers.book.page_tables.show_html") as shown:  # what the page is given
    ...     show_table(pd.DataFrame({"a": [1]}))
    >>> print(shown.call_args.args[1])
    | a |
    | --- |
    | 1 |
    """
    show_html(table_html(table, precision=precision, html_columns=html_columns),
              table_markdown(table, precision=precision, html_columns=html_columns))


def rows_note(shown: int, total: int) -> str:
    """What a table shows of its rows, before the name of the CSV that holds them all, agreeing with the counts.

    Parameters
    ----------
    shown : int
        The rows the page shows.
    total : int
        The rows of the whole table (its CSV).

    Returns
    -------
    str
        The note, a sentence's start (the link to the CSV follows it).

    Examples
    --------
    >>> rows_note(20, 32), rows_note(1, 1), rows_note(5, 5), rows_note(0, 0)
    ('20 of 32 rows shown; all rows', 'The row as CSV', 'All 5 rows as CSV', 'No rows; the column names as CSV')
    """
    if total == 0:
        return "No rows; the column names as CSV"
    if shown == total:
        return "The row as CSV" if total == 1 else f"All {count(total, 'row')} as CSV"
    return f"{number(shown)} of {count(total, 'row')} shown; all rows"


def show_top(table, name: str, n_rows: int, *, precision: int = 3, html_columns: tuple[str, ...] = (),
             csv_columns: list[str] | None = None) -> None:
    """Show the first ``n_rows`` of ``table`` and offer all its rows as ``figures/<name>.csv``.

    A long table never makes the page grow with the corpus. ``csv_columns`` picks the columns written
    to the CSV (default: every column not in ``html_columns``).

    Parameters
    ----------
    table : pandas.DataFrame
    name : str
        The CSV's name.
    n_rows, precision : int
    html_columns : tuple of str
    csv_columns : list of str, optional

    Examples
    --------
    >>> import tempfile
    >>> from unittest import mock
    >>> os.environ["BOOK_FIGURE_DIR"] = tempfile.mkdtemp()
    >>> with mock.patch("helpers.book.page_tables.show_html") as shown:  # what the page is given
    ...     show_top(pd.DataFrame({"a": []}), "hens", 5)
    >>> shown.call_args.args[1]
    'No rows; the column names as CSV: `figures/hens.csv` in the web book.'
    >>> del os.environ["BOOK_FIGURE_DIR"]
    """
    from helpers.book.figures import figure_dir  # lazy: at the top it would load matplotlib and PIL

    folder = figure_dir()
    folder.mkdir(parents=True, exist_ok=True)
    columns = csv_columns or [c for c in table.columns if c not in html_columns]
    write_csv(table[columns], folder / f"{name}.csv")
    if len(table):  # a table of no rows is only its note
        show_table(table.head(n_rows), precision=precision, html_columns=html_columns)
    note = rows_note(min(n_rows, len(table)), len(table))
    show_html(f'<p class="table-download">{note}: <a href="../figures/{html.escape(name)}.csv" download>'
              f"{html.escape(name)}.csv</a></p>", f"{note}: `figures/{name}.csv` in the web book.")
