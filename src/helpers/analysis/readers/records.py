"""What every reader returns: one :class:`Record` per entry of a file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

__all__ = ["METADATA_FIELDS", "Record", "ReaderError", "parse_year", "json_type", "text_value", "clean_field"]

#: The metadata columns a record may carry (all text but ``year``), in the order papers show them.
METADATA_FIELDS = ("title", "authors", "year", "venue", "doi", "url", "software")

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d|21\d\d)(?!\d)")
#: The years a number may give: the same as a year found in text (:data:`_YEAR`).
YEARS = range(1500, 2200)


#: What databases write where a record names no author: Scopus's "[No author name available]", Web of Science's
#: "[Anonymous]". Such a record has no authors (never an author of that name).
_NO_AUTHOR = re.compile(r"\[?\s*(?:no author name available|anonymous)\s*\]?", re.IGNORECASE)


def without_placeholder_authors(authors: str) -> str:
    """``authors`` (``First Last; First Last``) without the placeholders databases write for no author.

    Parameters
    ----------
    authors : str
        ``First Last; First Last``.

    Returns
    -------
    str
        The list without ``[No author name available]`` and its kind.

    Examples
    --------
    >>> without_placeholder_authors("[No author name available]"), without_placeholder_authors("Jane Doe; [Anonymous]")
    ('', 'Jane Doe')
    >>> without_placeholder_authors("Anonymous Bosch; Jane Doe")
    'Anonymous Bosch; Jane Doe'
    """
    if "anonymous" not in authors.lower() and "no author" not in authors.lower():
        return authors
    return "; ".join(name for name in (n.strip() for n in authors.split(";")) if name and not _NO_AUTHOR.fullmatch(name))


class ReaderError(ValueError):
    """A malformed file: what is wrong, and where.

    Attributes
    ----------
    line : int or None
        The line it fails on (1-based), ``None`` for the whole file.

    Examples
    --------
    >>> error = ReaderError("unclosed brace", line=12)
    >>> error.line, str(error)
    (12, 'line 12: unclosed brace')
    """

    def __init__(self, message: str, line: int | None = None):
        self.line, self.message = line, message
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass(frozen=True)
class Record:
    """One entry of a bibliographic file.

    Attributes
    ----------
    first_line, last_line : int
        The entry's lines in the file (1-based).
    abstract : str or None
        ``None`` when the entry has no abstract (kind ``no-abstract`` in the parse report).
    key : str
        The entry's key or id (BibTeX key, RIS ``ID``, a ``key`` or ``id`` column), ``""`` without one.
    kind : str
        ``"entry"``, ``"proceedings"`` (a volume's own entry) or ``"other"`` (a ``@string`` or comment block).
    title, authors, venue, doi, url, software : str
        ``""`` when missing; authors as ``First Last; First Last``; ``doi`` normalised
        (:func:`helpers.analysis.readers.identity.normalise_doi`).
    keywords : str
        The authors' keywords (or the database's subject headings), ``; `` between them; ``""`` without.
    subjects : str
        The subjects the database gives the record, ``; `` between them (Web of Science categories ``WC``, else
        research areas ``SC``; PubMed's MeSH major topics, the ``MH`` headings marked ``*``); ``""`` without.
    year : int or None
    fields : mapping
        The entry's other named fields, as text (for ``--group-by COLUMN``).

    Examples
    --------
    >>> Record(first_line=1, last_line=4, abstract="We count crashes.", title="Roads").kind
    'entry'
    """

    first_line: int
    last_line: int
    abstract: str | None
    key: str = ""
    kind: str = "entry"
    title: str = ""
    authors: str = ""
    year: int | None = None
    venue: str = ""
    doi: str = ""
    url: str = ""
    software: str = ""
    keywords: str = ""
    subjects: str = ""
    #: What the reader noticed and tolerated (``extra-field``: a row with one field more than its header).
    notes: tuple[str, ...] = ()
    fields: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Every reader's authors: a database's placeholder for "no author" is no author (frozen: set once here).
        object.__setattr__(self, "authors", without_placeholder_authors(self.authors))


def parse_year(value: object) -> int | None:
    """The year in ``value``: a whole number, or the first four-digit year in a text; else ``None``.

    Parameters
    ----------
    value : object
        A year field (a number or a text such as ``2024 Mar``).

    Returns
    -------
    int or None
        The year.

    Raises
    ------
    ReaderError
        For a number outside :data:`YEARS` (a year in text is only found in that range).

    Examples
    --------
    >>> parse_year(2024), parse_year("2023-07-23"), parse_year("2025/"), parse_year("n.d."), parse_year(None)
    (2024, 2023, 2025, None, None)
    >>> parse_year(10**30)
    Traceback (most recent call last):
    ...
    helpers.analysis.readers.records.ReaderError: year of 31 digits is out of range (1500 to 2199)
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float):
        if not value.is_integer():  # also NaN and infinity: no year
            return None
        value = int(value)
    if isinstance(value, int):
        if value not in YEARS:
            digits = len(str(abs(value))) if value.bit_length() < 10_000 else int(value.bit_length() * 0.30103) + 1
            shown = str(value) if digits <= 20 else f"of {digits:,} digits"
            raise ReaderError(f"year {shown} is out of range ({YEARS.start} to {YEARS.stop - 1})")
        return value
    match = _YEAR.search(str(value))
    return int(match.group(1)) if match else None


def json_type(value: object) -> str:
    """What a JSON value is, as an error names it.

    Parameters
    ----------
    value : object
        A value decoded from JSON.

    Returns
    -------
    str
        ``an object``, ``a list``, ``text``, ``a number``, ``true or false`` or ``null``.

    Examples
    --------
    >>> json_type({}), json_type([1]), json_type("x"), json_type(True), json_type(2.5), json_type(None)
    ('an object', 'an array', 'text', 'true or false', 'a number', 'null')
    """
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "text"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    return "null" if value is None else type(value).__name__


def text_value(value: object, name: str) -> object:
    """``value`` when it can stand for text (text, a number or null), for the field ``name``.

    Parameters
    ----------
    value : object
        A value decoded from JSON.
    name : str
        The field it is (named in the error).

    Returns
    -------
    object
        ``value`` itself.

    Raises
    ------
    ValueError
        When ``value`` is an object, a list or a boolean.

    Raises
    ------
    ReaderError
        For an object, an array, or true or false.

    Examples
    --------
    >>> text_value("A title", "title"), text_value(3, "title"), text_value(None, "doi")
    ('A title', 3, None)
    >>> text_value(["a"], "title")
    Traceback (most recent call last):
    ...
    helpers.analysis.readers.records.ReaderError: field 'title' is an array, expected text
    """
    if value is None or (isinstance(value, (str, int, float)) and not isinstance(value, bool)):
        return value
    raise ReaderError(f"field '{name}' is {json_type(value)}, expected text")


def clean_field(value: object) -> str:
    """A field as one line of text: white space runs become one space; ``None`` gives ``""``.

    Parameters
    ----------
    value : object
        A field's value.

    Returns
    -------
    str
        The value as one line.

    Examples
    --------
    >>> clean_field("  a\\n  b\\t c "), clean_field(None), clean_field(3)
    ('a b c', '', '3')
    """
    return "" if value is None else " ".join(str(value).split())
