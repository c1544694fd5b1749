"""Which database wrote a table, from its header, and where each of its columns goes.

A CSV or TSV export names its columns in its database's words: Scopus "Source title", IEEE Xplore
"Document Title", Lens "Author/s", Dimensions "PubYear", Web of Science's tab-delimited export its field
tags. :func:`column_map` chooses the map by the header (the first database whose signature columns are
all present, else the project's own names), so one place decides the format of every table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence

__all__ = ["ColumnMap", "COLUMN_MAPS", "GENERIC", "column_map", "split_authors"]


@dataclass(frozen=True)
class ColumnMap:
    """A database's table and how to read it (:func:`column_map`).

    Attributes
    ----------
    name : str
        The database, as the parse report names it.
    signature : tuple of str
        The columns (lower case) that identify its tables.
    columns : mapping of str to tuple of str
        For each field the papers carry (``title, authors, year, venue, doi, url, abstract, keywords, subjects,
        key``), its columns in order of preference.
    authors_style : str
        How its author lists are written (:func:`split_authors`).

    Examples
    --------
    >>> column_map(["pt", "ti", "ab", "ut", "af"]).authors_style
    'last-first'
    """

    name: str
    signature: tuple[str, ...]
    columns: Mapping[str, tuple[str, ...]]
    authors_style: str = "semicolon"


GENERIC = ColumnMap("table", ("abstract",), {
    "title": ("title",), "authors": ("authors",), "year": ("year",), "venue": ("venue",), "doi": ("doi",),
    "url": ("url",), "software": ("software",), "abstract": ("abstract",), "keywords": ("keywords", "author keywords"),
    "key": ("key", "id"),
}, authors_style="as-is")

#: The databases' column maps, most specific first.
COLUMN_MAPS: tuple[ColumnMap, ...] = (
    ColumnMap("Web of Science (tab-delimited)", ("pt", "ti", "ab", "ut"), {
        "title": ("ti",), "authors": ("af", "au"), "year": ("py", "ea"), "venue": ("so",), "doi": ("di",),
        "url": (), "abstract": ("ab",), "keywords": ("de",), "subjects": ("wc", "sc"), "key": ("ut",)},
        authors_style="last-first"),
    ColumnMap("Scopus", ("source title", "abstract", "eid"), {
        "title": ("title",), "authors": ("author full names", "authors"), "year": ("year",),
        "venue": ("source title",), "doi": ("doi",), "url": ("link",), "abstract": ("abstract",),
        "keywords": ("author keywords",), "subjects": ("index keywords",), "key": ("eid",)}, authors_style="scopus"),
    ColumnMap("IEEE Xplore", ("document title", "publication title", "abstract"), {
        "title": ("document title",), "authors": ("authors",), "year": ("publication year",),
        "venue": ("publication title",), "doi": ("doi",), "url": ("pdf link",), "abstract": ("abstract",),
        "keywords": ("author keywords",), "key": ("doi",)}),
    ColumnMap("Lens", ("lens id", "title", "abstract"), {
        "title": ("title",), "authors": ("author/s",), "year": ("publication year",), "venue": ("source title",),
        "doi": ("doi",), "url": ("external url",), "abstract": ("abstract",), "keywords": ("keywords",),
        "key": ("lens id",)}),
    ColumnMap("Dimensions", ("publication id", "title", "abstract", "source title"), {
        "title": ("title",), "authors": ("authors",), "year": ("pubyear", "publication date"),
        "venue": ("source title", "anthology title"), "doi": ("doi",), "url": ("dimensions url",),
        "abstract": ("abstract",), "keywords": ("mesh terms",), "key": ("publication id",)},
        authors_style="last-first"),
)


def column_map(names: Sequence[str]) -> ColumnMap | None:
    """The map of a header (names in lower case): a database's when its signature columns are all
    there, else :data:`GENERIC` when it has an ``abstract`` column, else ``None``.

    Parameters
    ----------
    names : sequence of str
        A table's header, in lower case.

    Returns
    -------
    ColumnMap or None
        The map to read its rows with.

    Examples
    --------
    >>> column_map(["authors", "title", "year", "source title", "abstract", "eid"]).name
    'Scopus'
    >>> column_map(["title", "abstract"]).name, column_map(["about the data: exported"])
    ('table', None)
    """
    present = set(names)
    for candidate in COLUMN_MAPS:
        if set(candidate.signature) <= present:
            return candidate
    return GENERIC if "abstract" in present else None


_SCOPUS_ID = re.compile(r"\s*\(\d+\)\s*$")
_INITIALS = re.compile(r"(?<=\.),\s+")


def _first_last(name: str) -> str:
    last, _, first = name.partition(",")
    return " ".join(f"{first.strip()} {last.strip()}".split()) if first.strip() else name.strip()


def split_authors(value: str, style: str) -> str:
    """An author list as ``First Last; First Last`` (or as written, for names without a comma).

    ``style``: ``semicolon`` (``A B; C D``), ``last-first`` (``Last, First; Last, First``), ``scopus``
    (``Last, First (id); ...``, or the older ``Last F., Last G.``), ``as-is``.

    Parameters
    ----------
    value : str
        An authors cell.
    style : str
        How the database writes it (a :class:`ColumnMap`'s ``authors_style``).

    Returns
    -------
    str
        ``First Last; First Last``.

    Examples
    --------
    >>> split_authors("Gao, Yuan (57196280682); Hu, Yimei (56580618100)", "scopus")
    'Yuan Gao; Yimei Hu'
    >>> split_authors("Gao Y., Hu Y., Liu X.", "scopus"), split_authors("Doe, Jane; Roe, R.", "last-first")
    ('Gao Y.; Hu Y.; Liu X.', 'Jane Doe; R. Roe')
    >>> split_authors("Jane Doe; Rick Roe", "semicolon"), split_authors("a, b", "as-is")
    ('Jane Doe; Rick Roe', 'a, b')
    """
    value = " ".join(value.split())
    if not value or style == "as-is":
        return value
    if style == "scopus":
        if ";" in value:
            return "; ".join(_first_last(_SCOPUS_ID.sub("", name)) for name in value.split(";") if name.strip())
        return "; ".join(name.strip() for name in _INITIALS.split(value) if name.strip())
    names = [name.strip() for name in value.split(";") if name.strip()]
    return "; ".join(_first_last(name) if style == "last-first" else name for name in names)
