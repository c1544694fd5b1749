"""A figure on a page: saved for citing, glued for the page, with its citation, BibTeX and download links.

Each chapter draws its figures with the report modules; these functions are what every page then does with a
figure, so a figure reads, downloads and cites the same on every page.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd  # noqa: F401 (the examples)

from helpers import __version__
from helpers.book.build.title import citation_title
from helpers.book.display import glue, markdown_cell, show_html, show_markdown
from helpers.book.lab.page_values import page
from helpers.book.settings import config

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["glue_name", "publish_figure", "figure_citations", "bibtex_blocks", "show_downloads"]


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
    from helpers.book.figures import figure_title, save_page_figure

    saved = save_page_figure(figure, data, label)
    png_path, png = saved.files[0], saved.screen_png
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
    >>> from unittest import mock
    >>> with mock.patch("helpers.book.page_figures.show_html") as shown:  # what the page is given
    ...     show_downloads("fig-a-b")
    >>> shown.call_args.args[1]  # doctest: +ELLIPSIS
    'Files of this figure in the web book: `figures/fig-a-b.png`, ...'
    """
    # Lazy: at the top it would load matplotlib and PIL.
    from helpers.book.figures import FIGURE_FORMATS, download_links_html, figure_record, size_text

    record = figure_record(label)
    size = None if record is None else (float(record["width_in"]), float(record["height_in"]))
    files = ", ".join(f"`figures/{label}.{extension}`" for extension in FIGURE_FORMATS)
    stated = "" if size is None else f" ({size_text(*size)})"
    show_html(download_links_html(label, base=base, size=size), f"Files of this figure in the web book: {files}{stated}.")


#: Column names a reader reads differently from their machine form (the CSV downloads keep the machine names).
