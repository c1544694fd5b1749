"""Tables with named columns: CSV and TSV (and the rows of JSON, :mod:`.json_files`), one :class:`Record` per row.

Column names are matched case-insensitively. The header chooses the column map
(:func:`helpers.analysis.readers.columns.column_map`): a database's export (Scopus, IEEE Xplore, Lens,
Dimensions, Web of Science tab-delimited) by its own column names, else the project's: ``abstract``
(required), ``title``, ``authors``, ``year``, ``venue``, ``doi``, ``url``, ``software``, and ``key`` or
``id``. Every other column is kept as a field (``--group-by COLUMN``). LaTeX is decoded in titles, authors
and abstracts. A line before the header that is no header (Dimensions' "About the data") is an ``other``
record; a database row with one field more than its header (Scopus) is read, the extra field noted
(``extra-field``).
"""

from __future__ import annotations

import csv
import io
from typing import Any, Callable, Literal, Mapping

from helpers.analysis.readers.columns import GENERIC, ColumnMap, column_map, split_authors
from helpers.analysis.readers.identity import normalise_doi
from helpers.analysis.readers.latex import latex_to_text
from helpers.analysis.readers.records import (METADATA_FIELDS, Record, ReaderError, clean_field, parse_year, text_value)

__all__ = ["read_csv", "read_tsv"]

KEY_COLUMNS = ("key", "id")


def _checked_authors(value: Any) -> Any:
    """The ``authors`` field: text, a number, null, or an array of those."""
    if isinstance(value, list):
        for author in value:
            text_value(author, "authors")
        return value
    return text_value(value, "authors")


def _at_line(build: Callable[[], Record], line: int) -> Record:
    """``build()``, a :class:`ReaderError` without a line given ``line``."""
    try:
        return build()
    except ReaderError as error:
        if error.line is None:
            raise ReaderError(error.message, line) from None
        raise


def _record(values: Mapping[str, Any], first: int, last: int) -> Record:
    """One row as a record; ``values`` has lower-case names. The project's own fields must be text, numbers or
    null (``authors`` also an array of them): an object or an array there is a :class:`ReaderError`."""
    own = ("abstract", *METADATA_FIELDS, *KEY_COLUMNS)
    for name in own:
        if name != "authors":
            text_value(values.get(name), name)

    def text(name: str) -> str:
        return clean_field(values.get(name))

    abstract = values.get("abstract")
    abstract = "" if abstract is None else str(abstract)
    keywords = next((_keyword_text(values[name], name) for name in KEYWORD_COLUMNS if values.get(name)), "")
    authors = _checked_authors(values.get("authors"))
    authors = "; ".join(clean_field(a) for a in authors) if isinstance(authors, list) else clean_field(authors)
    return Record(
        first_line=first, last_line=last, key=next((text(k) for k in KEY_COLUMNS if text(k)), ""),
        abstract=latex_to_text(abstract) if abstract.strip() else None,
        title=latex_to_text(text("title")), authors=latex_to_text(authors),
        year=parse_year(values.get("year")), venue=text("venue"), doi=normalise_doi(text("doi")), url=text("url"),
        software=text("software"), keywords=keywords,
        fields={name: clean_field(value) for name, value in values.items() if name not in (*own, *KEYWORD_COLUMNS)},
    )


#: A plain table's columns of authors' keywords, first given first (as :data:`GENERIC` maps them).
KEYWORD_COLUMNS = GENERIC.columns["keywords"]


def _keyword_text(value: Any, name: str) -> str:
    """A keywords cell as ``"; "``-separated text: text split on ``;``, or (JSON) an array of texts.

    Examples
    --------
    >>> _keyword_text("broiler;  feed efficiency ;", "keywords"), _keyword_text(["crash risk", "hazmat"], "keywords")
    ('broiler; feed efficiency', 'crash risk; hazmat')
    """
    items = value if isinstance(value, list) else [value]
    words = [clean_field(text_value(item, name)) for item in items]
    return "; ".join(k.strip() for word in words for k in word.split(";") if k.strip())


#: What databases write in an abstract cell when there is none.
NO_ABSTRACT = ("[no abstract available]", "no abstract available")


def _mapped_record(values: Mapping[str, Any], columns: ColumnMap, first: int, last: int,
                   notes: tuple[str, ...] = ()) -> Record:
    """One row of a database's table as a record, by its column map; ``values`` has lower-case names."""
    def text(name: str) -> str:
        return next((clean_field(values[c]) for c in columns.columns.get(name, ()) if clean_field(values.get(c))), "")

    used = {c for names in columns.columns.values() for c in names}
    abstract = text("abstract")
    if abstract.lower() in NO_ABSTRACT:
        abstract = ""
    return Record(
        first_line=first, last_line=last, key=text("key"), abstract=latex_to_text(abstract) if abstract else None,
        title=latex_to_text(text("title")), authors=split_authors(text("authors"), columns.authors_style),
        year=parse_year(text("year")), venue=text("venue"), doi=normalise_doi(text("doi")), url=text("url"),
        keywords="; ".join(k.strip() for k in text("keywords").split(";") if k.strip()), notes=notes,
        subjects="; ".join(k.strip() for k in text("subjects").split(";") if k.strip()),
        fields={name: clean_field(value) for name, value in values.items() if name not in used and name},
    )


def _read_delimited(text: str, delimiter: str) -> tuple[None, list[Record]]:
    # TSV (as IANA defines it) has no quoting: a quote in a title is a quote; CSV quotes as RFC 4180 does.
    quoting: Literal[0, 3] = csv.QUOTE_MINIMAL if delimiter == "," else csv.QUOTE_NONE  # the csv stubs' literals
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True, quoting=quoting)
    records: list[Record] = []
    try:
        header = next(reader, None)
        if header is None:
            raise ReaderError("has no header row")
        names = [name.strip().lower() for name in header]
        columns = column_map(names)
        if columns is None and sum(bool(cell.strip()) for cell in header) == 1:
            # One line before the header (Dimensions: "About the data: Exported on ..."), kept as an "other" record.
            preamble_end = reader.line_num
            second = next(reader, None) or []
            second_names = [name.strip().lower() for name in second]
            if column_map(second_names) is not None:
                records.append(Record(first_line=1, last_line=preamble_end, abstract=None, kind="other"))
                header, names, columns = second, second_names, column_map(second_names)
        if columns is None:
            raise ReaderError(f"has no 'abstract' column (columns: {', '.join(h.strip() for h in header)})", 1)
        last_line = reader.line_num
        _refuse_repeated_columns(header, last_line)
        for row in reader:
            first, last_line = last_line + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            notes: tuple[str, ...] = ()
            # Scopus (and Web of Science's tab-delimited file) end most rows with one field more than the header.
            if len(row) == len(names) + 1 and columns is not GENERIC:
                row, notes = row[:-1], ("extra-field",)
            if len(row) != len(names):
                raise ReaderError(f"has {len(row)} fields where the header has {len(names)}", first)
            values = dict(zip(names, row))
            records.append(_at_line(lambda: _record(values, first, last_line), first) if columns is GENERIC
                           else _mapped_record(values, columns, first, last_line, notes))
    except csv.Error as error:
        raise ReaderError(f"malformed {'CSV' if delimiter == ',' else 'TSV'} ({error})", reader.line_num) from None
    if not any(record.kind == "entry" for record in records):
        raise ReaderError("has a header but no rows")
    return None, records


def _refuse_repeated_columns(header: list[str], line: int, noun: str = "column", where: str = "in the header"
                             ) -> None:
    """A header naming one column twice (case and spaces ignored) is a :class:`ReaderError`: a row's value
    for that name would be one of them, silently (``noun`` and ``where`` name them otherwise: JSON keys).

    Examples
    --------
    >>> _refuse_repeated_columns(["Abstract", "title", "abstract "], 1)
    Traceback (most recent call last):
    ...
    helpers.analysis.readers.records.ReaderError: line 1: column 'abstract' appears twice in the header \
(columns 1 and 3); rename or remove one
    """
    seen: dict[str, int] = {}
    for position, cell in enumerate(header, start=1):
        name = cell.strip().lower()
        if name and name in seen:
            raise ReaderError(f"{noun} '{cell.strip()}' appears twice {where} ({noun}s {seen[name]} and"
                              f" {position}); rename or remove one", line)
        seen.setdefault(name, position)


def read_csv(text: str) -> tuple[None, list[Record]]:
    """The rows of a CSV file with a header row.

    Parameters
    ----------
    text : str
        A CSV file's decoded text, its first row the header.

    Returns
    -------
    header : None
        A table has no header line.
    records : list of Record
        One per row, its line numbers those of the row (a quoted cell may span lines).

    Examples
    --------
    >>> _, records = read_csv('title,abstract,year\\n"A, B",One two three four five.,2024\\n')
    >>> [(r.first_line, r.title, r.year, r.abstract) for r in records]
    [(2, 'A, B', 2024, 'One two three four five.')]
    """
    return _read_delimited(text, ",")


def read_tsv(text: str) -> tuple[None, list[Record]]:
    """The rows of a tab-separated file with a header row; no quoting (a field holds no tab or line end).

    Parameters
    ----------
    text : str
        A tab-separated file's decoded text, its first row the header.

    Returns
    -------
    header : None
        No tab-separated file has one.
    records : list of Record
        One per row after the header, each on its own line.

    Examples
    --------
    >>> _, records = read_tsv('title\\tabstract\\n"Quoted" title\\tOne two three four five.\\n')
    >>> [(r.title, r.abstract) for r in records]
    [('"Quoted" title', 'One two three four five.')]
    """
    return _read_delimited(text, "\t")
