"""What the chapters share for display: glue, figures and their citations, tables for the web and the PDF book.

Anything taken from the corpus is untrusted: every table cell is HTML-escaped (:func:`table_html`) or
Markdown-escaped (:func:`markdown_cell`).
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np
import pandas as pd
from helpers import __version__
from helpers.analysis.spreadsheet import write_csv

from helpers.book.formatting import MISSING, count, display_table, number
from helpers.book.lab.page_values import page
from helpers.book.settings import config
from helpers.book.build.title import citation_title

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis


def plain(value: Any) -> Any:
    """numpy scalars to Python numbers, so ``glue`` shows them as written.

    Parameters
    ----------
    value : Any

    Returns
    -------
    Any
        ``value``, a Python number when it was a numpy scalar.

    Examples
    --------
    >>> plain(np.int64(3)), plain("a")
    (3, 'a')
    """
    if isinstance(value, np.generic):
        return value.item()
    return value


def glued_text(name: str, value: Any) -> Any:
    """A value as ``{glue:text}`` shows it: integers, large floats and booleans through
    :func:`helpers.book.formatting.number` (a name holding "year" keeps its digits); other values as given.

    Examples
    --------
    >>> glued_text("n_terms", 17625), glued_text("first_year", 2023), glued_text("share", 0.25)
    ('17,625', 2023, 0.25)
    >>> glued_text("peak_mib", 2590.0), glued_text("met", True)
    ('2,590', 'yes')
    """
    value = plain(value)
    if "year" in name.lower() or isinstance(value, str):
        return value
    if isinstance(value, bool) or isinstance(value, int) or (isinstance(value, float) and abs(value) >= 1000):
        return number(value)
    return value


#: The MIME prefix of a value glued without being displayed (myst-nb's ``GLUE_PREFIX``).
GLUE_PREFIX = "application/papermill.record/"


def glue(name: str, variable: Any, display: bool = True) -> None:
    """Glue ``variable`` under ``name`` for ``{glue}`` roles and directives: the same output as
    ``myst_nb.glue`` (its display data, with ``{"scrapbook": {"name", "mime_prefix"}}`` metadata, every MIME
    type behind :data:`GLUE_PREFIX` when not displayed), written here because importing ``myst_nb.glue``
    imports nbformat and jsonschema, about a second per page where JupyterLab's extras are installed.
    """
    from IPython.core.formatters import format_display_data  # lazy: Jupyter only
    from IPython.display import display as ipython_display  # lazy: Jupyter only

    mimebundle, metadata = format_display_data(variable)
    mime_prefix = "" if display else GLUE_PREFIX
    metadata["scrapbook"] = dict(name=name, mime_prefix=mime_prefix)
    ipython_display({mime_prefix + key: value for key, value in mimebundle.items()}, raw=True, metadata=metadata)


def glue_all(values: Mapping[str, Any]) -> None:
    """:func:`glue` every value without displaying it, and keep it for the page's notebook
    (:mod:`helpers.book.lab.page_values`). In a notebook whose prose is not filled in by ``make lab``
    (:attr:`helpers.book.settings.BookConfig.lab_prose`), the values are shown under the cell as a table.

    Parameters
    ----------
    values : Mapping
        Glue name -> value.

    Examples
    --------
    >>> glue_all({"n_hens": 12000})
    >>> page.text("n_hens")
    '12,000'
    """

    texts = {name: glued_text(name, value) for name, value in values.items()}
    for name, text in texts.items():
        glue(name, text, display=False)
        page.record_text(name, text)
    if config().cells_show_values and texts:
        rows = "\n".join(f"| `{name}` | {markdown_cell(text)} |" for name, text in texts.items())
        show_markdown(f"Values this page's text shows (`{{glue:text}}` names):\n\n| name | value |\n| --- | --- |\n{rows}")


def glue_markdown(values: Mapping[str, str]) -> None:
    """:func:`glue` Markdown sentences for ``{glue:md}`` (rendered inline, with emphasis and links); in a
    notebook they are shown under the cell, each after its name.

    Anything taken from the corpus must be escaped first (:func:`markdown_cell`).

    Parameters
    ----------
    values : Mapping of str to str
        Glue name -> Markdown sentence.

    Examples
    --------
    >>> glue_markdown({"hens_sentence": "Hens *lay*."})
    >>> page.md("hens_sentence")
    'Hens lay.'
    """
    from IPython.display import Markdown  # lazy: Jupyter only

    for name, value in values.items():
        glue(name, Markdown(value), display=False)
        page.record_markdown(name, notebook_links(value))
    if config().cells_show_values:
        for name, value in values.items():
            if value:
                show_markdown(f"`{name}`: {notebook_links(value)}")


def notebook_links(text: str, *, folder: Path | None = None) -> str:
    """Links of the web book made to work in a notebook: the figures folder (``../figures/``, ``figures/``)
    becomes the notebook's own (``folder``, default :func:`helpers.book.figures.figure_dir`), seen from the
    notebook's folder; links into the book's explorer become their text (the explorer is a page of the built
    book). Outside a notebook ``text`` is returned as it is.

    Examples
    --------
    >>> import os
    >>> os.environ["BOOK_NOTEBOOK"] = "1"
    >>> notebook_links('<a href="../figures/x.csv" download>x</a>, <a href="explorer.html#paper-1">T</a>',
    ...                folder=Path.cwd() / "_build" / "nb" / "figures")
    '<a href="_build/nb/figures/x.csv" download>x</a>, T'
    >>> del os.environ["BOOK_NOTEBOOK"]
    >>> notebook_links('<a href="../figures/x.csv">x</a>')
    '<a href="../figures/x.csv">x</a>'
    """
    if not config().notebook:
        return text
    from helpers.book.figures import figure_dir  # lazy: at the top it would load matplotlib and PIL

    relative = Path(os.path.relpath(folder or figure_dir(), Path.cwd())).as_posix()
    text = _BOOK_FIGURES.sub(lambda m: f'{m.group(1)}{relative}/', text)
    text = _EXPLORER_LINK.sub(lambda m: m.group(1), text)
    return _EXPLORER_MARKDOWN_LINK.sub(lambda m: m.group(1), text)


_BOOK_FIGURES = re.compile(r'((?:href|src)=")(?:\.\./)?figures/')
_EXPLORER_LINK = re.compile(r'<a href="explorer\.html[^"]*">(.*?)</a>', re.DOTALL)
_EXPLORER_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\(explorer\.html[^)]*\)")


def glue_name(label: str) -> str:
    """The glue name of a figure label.

    Parameters
    ----------
    label : str

    Returns
    -------
    str

    Examples
    --------
    >>> glue_name("fig-themes-map")
    'fig_themes_map'
    """
    return label.replace("-", "_")


def publish_figure(label: str, figure, data) -> None:
    """Save a figure's files for citing (PNG, SVG, PDF and the CSV of ``data``; its space and size recorded,
    :func:`helpers.book.figures.save_figure`), ``glue`` it under :func:`glue_name` for a ``{glue:figure}``
    directive (the saved PNG at screen resolution), then close it.

    Parameters
    ----------
    label : str
        The figure's label.
    figure : matplotlib.figure.Figure
    data : pandas.DataFrame
        What the figure shows, saved as its CSV.

    Examples
    --------
    >>> import tempfile, matplotlib.pyplot as plt
    >>> os.environ["BOOK_FIGURE_DIR"] = tempfile.mkdtemp()
    >>> publish_figure("fig-a-b", plt.figure(), pd.DataFrame({"x": [1]}))
    >>> sorted(path.name for path in config().figure_dir.glob("fig-a-b.*"))
    ['fig-a-b.csv', 'fig-a-b.pdf', 'fig-a-b.png', 'fig-a-b.svg']
    >>> del os.environ["BOOK_FIGURE_DIR"]
    """
    import matplotlib.pyplot as plt  # lazy: slow to import
    from IPython.display import Image  # lazy: Jupyter only

    # Lazy: at the top it would load matplotlib and PIL.
    from helpers.book.figures import figure_title, save_figure, screen_png

    png_path = save_figure(figure, data, label)[0]
    png = screen_png(png_path)
    image = Image(data=png, format="png")
    glue(glue_name(label), image, display=False)
    page.record_figure(glue_name(label), png, figure_title(label))
    plt.close(figure)
    if config().cells_show_values:
        from IPython.display import display  # lazy: Jupyter only

        display(image)
        show_markdown(f"*Figure `{label}`* (its caption is in the text below; files in "
                      f"`{Path(os.path.relpath(png_path.parent, Path.cwd())).as_posix()}/`)")


def figure_citations(analysis: "Analysis", chapter: str) -> dict[str, str]:
    """The citation of each figure of ``chapter``, glued as ``<glue name>_cite`` (Markdown) for its caption: the
    title names the corpus, so it is escaped (:func:`markdown_cell`).

    Parameters
    ----------
    analysis : Analysis
    chapter : str
        The chapter's page name (``themes``).

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> os.environ["BOOK_TITLE"] = "Hens"
    >>> list(figure_citations(SimpleNamespace(corpus=SimpleNamespace(sha256="0" * 64)), "themes"))[0]
    'fig_themes_top_terms_cite'
    >>> del os.environ["BOOK_TITLE"]
    """
    # Lazy: at the top it would load matplotlib and PIL.
    from helpers.book.figures import FIGURES, GROUP_FIGURES, figure_citation
    title = markdown_cell(citation_title(analysis))
    return {f"{glue_name(label)}_cite": figure_citation(label, chapter, version=__version__,
                                                        corpus_sha256=analysis.corpus.sha256,
                                                        base_url=config().base_url, title=title)
            for label, figure_chapter, _ in FIGURES + GROUP_FIGURES if figure_chapter == chapter}


def bibtex_blocks(corpus_sha256: str, year: str, figures: list[tuple[str, str, str]] | None = None, *,
                  book_title: str | None = None) -> tuple[str, str]:
    """One BibTeX entry per figure of the book (``figures``, default ``FIGURES``), as HTML (a wrapped
    ``<pre>`` each) and as Markdown.

    Parameters
    ----------
    corpus_sha256, year : str
        The corpus's SHA-256 and the year the entries give.
    figures : list of (label, chapter, title), optional
    book_title : str, optional
        The book's title (default ``BOOK_TITLE`` of :mod:`helpers.book.figures`).

    Returns
    -------
    tuple of str
        The HTML and the Markdown.

    Examples
    --------
    >>> as_html, as_markdown = bibtex_blocks("0" * 64, "2026", [("fig-a-b", "a", "A")], book_title="B")
    >>> as_html.count("<pre"), as_markdown.splitlines()[:2]
    (1, ['```bibtex', '@misc{fig_a_b,'])
    """
    # Lazy: at the top it would load matplotlib and PIL.
    from helpers.book.figures import BOOK_TITLE, FIGURES, figure_bibtex
    entries = [figure_bibtex(label, chapter, title, version=__version__, corpus_sha256=corpus_sha256, year=year,
                             base_url=config().base_url, title=book_title or BOOK_TITLE)
               for label, chapter, title in (FIGURES if figures is None else figures)]
    as_html = "".join(f'<pre class="bibtex" style="white-space: pre-wrap">{html.escape(e)}</pre>' for e in entries)
    as_markdown = "\n\n".join(f"```bibtex\n{e}\n```" for e in entries)
    return as_html, as_markdown


def show_downloads(label: str, *, base: str = "../figures") -> None:
    """Display the download links of a figure saved by :func:`publish_figure`.

    Parameters
    ----------
    label : str
    base : str
        The figures folder seen from the page (``figures`` from the landing page).

    Examples
    --------
    >>> show_downloads("fig-a-b")  # doctest: +ELLIPSIS
    Files of this figure in the web book: `figures/fig-a-b.png`, ...
    """
    # Lazy: at the top it would load matplotlib and PIL.
    from helpers.book.figures import FIGURE_FORMATS, download_links_html, figure_record, size_text

    record = figure_record(label)
    size = None if record is None else (float(record["width_in"]), float(record["height_in"]))
    files = ", ".join(f"`figures/{label}.{extension}`" for extension in FIGURE_FORMATS)
    stated = "" if size is None else f" ({size_text(*size)})"
    show_html(download_links_html(label, base=base, size=size), f"Files of this figure in the web book: {files}{stated}.")


#: Column names a reader reads differently from their machine form (the CSV downloads keep the machine names).
HEADER_NAMES = {"f1": "F1", "jaccard": "Jaccard"}


def column_header(name: Any) -> str:
    """A table column's header as a reader reads it: a machine name (``n_papers``, ``top_terms``) in words, a
    header already in words kept as it is. The CSV downloads keep the machine names.

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


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|$~])")
_TAG = re.compile(r"<[^>]*>")


def markdown_cell(value: Any, *, precision: int = 3, is_html: bool = False) -> str:
    r"""One table cell as escaped GitHub-flavoured Markdown text (the PDF book's form of a table cell).

    Parameters
    ----------
    value : Any
    precision : int
        Decimals of a float.
    is_html : bool
        Whether ``value`` is HTML (its tags dropped, its entities read).

    Returns
    -------
    str

    Examples
    --------
    >>> print(markdown_cell("a|b <script>*x*</script>"))
    a\|b &lt;script&gt;\*x\*&lt;/script&gt;
    >>> markdown_cell('<a href="x">T &amp; U</a>', is_html=True), markdown_cell(0.12345)
    ('T &amp; U', '0.123')
    """
    if is_html:
        value = html.unescape(_TAG.sub("", str(value)))
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        text = MISSING
    elif isinstance(value, float):
        text = f"{value:.{precision}f}"
    else:
        text = str(plain(value))
    text = " ".join(text.split())
    return html.escape(_MARKDOWN_SPECIAL.sub(r"\\\1", text), quote=False)


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
    >>> show_table(pd.DataFrame({"a": [1]}))
    | a |
    | --- |
    | 1 |
    """
    show_html(table_html(table, precision=precision, html_columns=html_columns),
              table_markdown(table, precision=precision, html_columns=html_columns))


def rows_note(shown: int, total: int) -> str:
    """What a table shows of its rows, before the name of the CSV that holds them all, agreeing with the counts.

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
    >>> os.environ["BOOK_FIGURE_DIR"] = tempfile.mkdtemp()
    >>> show_top(pd.DataFrame({"a": []}), "hens", 5)
    No rows; the column names as CSV: `figures/hens.csv` in the web book.
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


def show_markdown(text: str) -> None:
    """Show ``text`` as Markdown (escape anything taken from the corpus first); nothing at all for ``""``.

    Parameters
    ----------
    text : str

    Examples
    --------
    >>> show_markdown("")
    """
    if text:
        from IPython.display import Markdown, display  # lazy: Jupyter only

        display(Markdown(text))


def show_html(html_text: str, markdown_text: str) -> None:
    """Display HTML in the web book and its Markdown form in the PDF book (LaTeX never shows HTML).

    Parameters
    ----------
    html_text, markdown_text : str

    Examples
    --------
    >>> show_html("<b>x</b>", "**x**")  # outside a notebook, the plain text
    **x**
    """
    from IPython.display import display  # lazy: Jupyter only

    html_text = notebook_links(html_text)
    display({"text/html": html_text, "text/markdown": markdown_text, "text/plain": markdown_text}, raw=True)


def paper_links(paper_ids, titles) -> str:
    """Escaped links from each paper to its row in the explorer, joined with ``; ``.

    Parameters
    ----------
    paper_ids, titles : iterable

    Returns
    -------
    str

    Examples
    --------
    >>> paper_links(["p1"], ["<b>T</b>"])
    '<a href="explorer.html#paper-p1">&lt;b&gt;T&lt;/b&gt;</a>'
    """
    return "; ".join(
        f'<a href="explorer.html#paper-{html.escape(str(i), quote=True)}">{html.escape(str(t))}</a>'
        for i, t in zip(paper_ids, titles))
