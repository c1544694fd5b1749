"""Tables with named columns: CSV, TSV and JSON Lines, one :class:`Record` per row or line.

Column names are matched case-insensitively: ``abstract`` (required), ``title``, ``authors``,
``year``, ``venue``, ``doi``, ``url``, ``software``, and ``key`` or ``id``; every other column is kept
as a field (``--group-by COLUMN``). LaTeX is decoded in titles, authors and abstracts.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Mapping

from helpers.analysis.readers.latex import latex_to_text
from helpers.analysis.readers.records import METADATA_FIELDS, Record, ReaderError, clean_field, parse_year

KEY_COLUMNS = ("key", "id")


def _record(values: Mapping[str, Any], first: int, last: int) -> Record:
    """One row as a record; ``values`` has lower-case names."""
    def text(name: str) -> str:
        return clean_field(values.get(name))

    abstract = values.get("abstract")
    abstract = "" if abstract is None else str(abstract)
    authors = values.get("authors")
    authors = "; ".join(clean_field(a) for a in authors) if isinstance(authors, list) else clean_field(authors)
    own = {"abstract", *METADATA_FIELDS, *KEY_COLUMNS}
    return Record(
        first_line=first, last_line=last, key=next((text(k) for k in KEY_COLUMNS if text(k)), ""),
        abstract=latex_to_text(abstract) if abstract.strip() else None,
        title=latex_to_text(text("title")), authors=latex_to_text(authors),
        year=parse_year(values.get("year")), venue=text("venue"), doi=text("doi"), url=text("url"),
        software=text("software"),
        fields={name: clean_field(value) for name, value in values.items() if name not in own},
    )


def _read_delimited(text: str, delimiter: str) -> tuple[None, list[Record]]:
    # TSV (as IANA defines it) has no quoting: a quote in a title is a quote; CSV quotes as RFC 4180 does.
    quoting = csv.QUOTE_MINIMAL if delimiter == "," else csv.QUOTE_NONE
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True, quoting=quoting)
    try:
        header = next(reader, None)
        if header is None:
            raise ReaderError("has no header row")
        names = [name.strip().lower() for name in header]
        if "abstract" not in names:
            raise ReaderError(f"has no 'abstract' column (columns: {', '.join(h.strip() for h in header)})", 1)
        records, last_line = [], reader.line_num
        for row in reader:
            first, last_line = last_line + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(names):
                raise ReaderError(f"has {len(row)} fields where the header has {len(names)}", first)
            records.append(_record(dict(zip(names, row)), first, last_line))
    except csv.Error as error:
        raise ReaderError(f"malformed {'CSV' if delimiter == ',' else 'TSV'} ({error})", reader.line_num) from None
    if not records:
        raise ReaderError("has a header but no rows")
    return None, records


def read_csv(text: str) -> tuple[None, list[Record]]:
    """The rows of a CSV file with a header row.

    Examples
    --------
    >>> _, records = read_csv('title,abstract,year\\n"A, B",One two three four five.,2024\\n')
    >>> [(r.first_line, r.title, r.year, r.abstract) for r in records]
    [(2, 'A, B', 2024, 'One two three four five.')]
    """
    return _read_delimited(text, ",")


def read_tsv(text: str) -> tuple[None, list[Record]]:
    """The rows of a tab-separated file with a header row; no quoting (a field holds no tab or line end).

    Examples
    --------
    >>> _, records = read_tsv('title\\tabstract\\n"Quoted" title\\tOne two three four five.\\n')
    >>> [(r.title, r.abstract) for r in records]
    [('"Quoted" title', 'One two three four five.')]
    """
    return _read_delimited(text, "\t")


def read_jsonl(text: str) -> tuple[None, list[Record]]:
    """One JSON object per non-blank line.

    Raises
    ------
    ReaderError
        For a line that is not a JSON object, or a file where no object has an ``abstract``.

    Examples
    --------
    >>> _, records = read_jsonl('{"key": "a1", "title": "T", "year": 2024, "abstract": "One two three four five."}\\n')
    >>> [(r.first_line, r.key, r.title, r.year) for r in records]
    [(1, 'a1', 'T', 2024)]
    """
    records, has_abstract = [], False
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise ReaderError(f"invalid JSON ({error.msg}, column {error.colno})", number) from None
        if not isinstance(value, dict):
            raise ReaderError(f"expected a JSON object, got {type(value).__name__}", number)
        values = {str(k).strip().lower(): v for k, v in value.items()}
        has_abstract = has_abstract or "abstract" in values
        records.append(_record(values, number, number))
    if not records:
        raise ReaderError("has no JSON lines")
    if not has_abstract:
        raise ReaderError("has no 'abstract' field in any line")
    return None, records
