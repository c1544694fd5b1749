"""What every page shares for display: values glued for the text, Markdown and HTML shown in the page, and corpus
text made safe for Markdown (:func:`markdown_cell`). Figures on a page are in :mod:`helpers.book.page_figures`,
tables in :mod:`helpers.book.page_tables`.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np
import pandas as pd

from helpers.book.formatting import MISSING, number
from helpers.book.lab.page_values import page
from helpers.book.settings import config

if TYPE_CHECKING:
    pass


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
    >>> from unittest import mock
    >>> with mock.patch("IPython.display.display") as shown:  # what the page is given
    ...     show_html("<b>x</b>", "**x**")
    >>> shown.call_args.args[0]["text/markdown"], shown.call_args.args[0]["text/html"]
    ('**x**', '<b>x</b>')
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
