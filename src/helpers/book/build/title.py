"""The book's title, its figures' corpus label and its citation's title, from the analysed corpus's name
(:mod:`helpers.book.build.corpus_name`), or the title the reader gives (``BOOK_TITLE``, read by
:class:`helpers.book.settings.BookConfig`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from helpers.book.build.corpus_name import DATABASE_KEYS, DATABASE_NAMES, CorpusName, corpus_name
from helpers.book.settings import config

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["analysis_name", "export_databases", "file_formats", "given_title", "book_title", "figure_label",
           "citation_title"]


def given_title(title: str | None = None) -> str | None:
    """The title the reader gave: ``title`` (blank: none), by default the book's ``BOOK_TITLE``
    (:attr:`helpers.book.settings.BookConfig.title`).

    Parameters
    ----------
    title
        A title, or ``None`` for the book's setting.

    Returns
    -------
    str or None
        The title without surrounding space, ``None`` when none is given.

    Examples
    --------
    >>> given_title("  Birds on farms "), given_title("")
    ('Birds on farms', None)
    """
    if title is None:
        return config().title
    return title.strip() or None


def book_title(analysis: "Analysis", title: str | None = None) -> str:
    """The book's title: the reader's (:func:`given_title`), else :func:`corpus_name`'s title of the analysed
    corpus.

    Parameters
    ----------
    analysis
        The book's analysis.
    title
        The reader's title (default: the book's ``BOOK_TITLE``; blank: none).

    Returns
    -------
    str
        The title.

    Examples
    --------
    >>> book_title(None, "Broiler welfare")  # a given title needs no analysis
    'Broiler welfare'
    """
    return given_title(title) or analysis_name(analysis).title


def file_formats(analysis: "Analysis") -> list[str]:
    """The format of each corpus file that can still be read (:func:`helpers.analysis.readers.detect.format_of_file`:
    ``seed``, ``bibtex``, ``wos``, ...), in the files' order.

    Parameters
    ----------
    analysis
        An analysis whose ``corpus.files`` lists the files' paths.

    Returns
    -------
    list of str
        One format per readable file.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import pandas as pd
    >>> files = pd.DataFrame({"path": ["data/raw/000_2e4aa40cf9124fb1.txt", "gone.txt", "farms.bib"]})
    >>> file_formats(SimpleNamespace(corpus=SimpleNamespace(files=files)))  # a text file is read to know it
    ['seed', 'bibtex']
    """
    from helpers.analysis.readers.detect import format_of_file  # lazy: keeps this module's import light

    formats = []
    for path in analysis.corpus.files.get("path", []):
        try:
            formats.append(format_of_file(path))
        except OSError:
            continue
    return formats


def export_databases(analysis: "Analysis") -> list[str]:
    """Each readable corpus file's database (``wos``, ``medline``, ``scopus``) where its format or its records' keys
    name one (a Scopus CSV's EIDs, a Web of Science BibTeX file's accession numbers), else its format.

    Parameters
    ----------
    analysis
        An analysis: its corpus's files and their blocks (the records' keys).

    Returns
    -------
    list of str
        One database or format per readable file.

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> blocks = pd.DataFrame({"source_file": ["a.csv"], "kind": ["abstract"], "key": ["2-s2.0-85100000001"]})
    >>> files = pd.DataFrame({"path": ["a.csv"], "source_file": ["a.csv"]})
    >>> export_databases(SimpleNamespace(corpus=SimpleNamespace(files=files, blocks=blocks)))
    ['scopus']
    """
    from helpers.analysis.readers.detect import format_of_file  # lazy: keeps this module's import light

    blocks = analysis.corpus.blocks
    databases = []
    for row in analysis.corpus.files.itertuples():
        try:
            database = format_of_file(row.path)
        except OSError:
            continue
        if "key" in blocks and database not in DATABASE_NAMES:
            keys = blocks.loc[(blocks["source_file"] == row.source_file) & (blocks["kind"] == "abstract"), "key"]
            database = next((name for name, pattern in DATABASE_KEYS.items()
                             if len(keys) and keys.astype(str).str.match(pattern).all()), database)
        databases.append(database)
    return databases


def analysis_name(analysis: "Analysis") -> CorpusName:
    """:func:`corpus_name` of an analysis (its files' formats, or their records' keys, name a database export).

    Parameters
    ----------
    analysis
        The book's analysis.

    Returns
    -------
    CorpusName
        :func:`corpus_name` of its papers, headers and databases.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import pandas as pd
    >>> papers = pd.DataFrame({"venue": ["Accident Analysis and Prevention"] * 2, "year": [2019, 2021]})
    >>> corpus = SimpleNamespace(headers={}, files=pd.DataFrame(columns=["path"]), blocks=pd.DataFrame())
    >>> analysis_name(SimpleNamespace(papers=papers, corpus=corpus)).title
    'Accident Analysis and Prevention 2019, 2021: 2 abstracts'
    """
    return corpus_name(analysis.papers, analysis.corpus.headers, export_databases(analysis))


def figure_label(analysis: "Analysis", title: str | None = None) -> str:
    """The corpus as a figure's title names it: "ICML 2024: 57 abstracts", "Web of Science 1991–2018: 729
    abstracts" (short enough for a figure's title line: without the subjects the book's title names;
    the reader's title when given: :func:`given_title`).

    Parameters
    ----------
    analysis, title
        As :func:`book_title` takes them.

    Returns
    -------
    str
        The figure's corpus label.

    Examples
    --------
    >>> figure_label(None, "Traffic safety, 2010–2020")
    'Traffic safety, 2010–2020'
    """
    return given_title(title) or replace(analysis_name(analysis), subjects=()).title


def citation_title(analysis: "Analysis", title: str | None = None) -> str:
    """The title a citation of this build gives: "Themes, co-occurring terms and link availability in 751
    abstracts of ICML 2023–2025" (the reader's title when given: :func:`given_title`).

    Parameters
    ----------
    analysis
        The analysis whose corpus the citation names.
    title
        A title to give instead (:func:`given_title`).

    Returns
    -------
    str
        The citation's title.

    Examples
    --------
    >>> citation_title(None, "Dairy cows on pasture")
    'Dairy cows on pasture'
    """
    given = given_title(title)
    return given or f"Themes, co-occurring terms and link availability in {analysis_name(analysis).sentence_subject}"
