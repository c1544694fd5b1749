"""RIS (``.ris``) with rispy: one :class:`Record` per ``TY`` ... ``ER`` record.

rispy drops a record that never reaches its ``ER`` line without a word, and skips text outside
records; so the file's structure is checked first, line by line, and either is an error naming the
line. Fields: ``TI``/``T1`` title, ``AU``/``A1`` authors (``Last, First`` becomes ``First Last``),
``PY``/``Y1``/``DA`` year, ``AB``/``N2`` abstract, ``T2``/``JO``/``JF``/``BT`` venue, ``DO`` doi,
``UR`` url (the first), ``KW`` keywords, ``ID`` key; the DOI normalised.
"""

from __future__ import annotations

import re

from helpers.analysis.readers.identity import normalise_doi
from helpers.analysis.readers.latex import latex_to_text
from helpers.analysis.readers.records import Record, ReaderError, clean_field, parse_year

__all__ = ["read_ris"]

_TAG = re.compile(r"^([A-Z][A-Z0-9])  -( |$)")


def _record_lines(text: str) -> list[tuple[int, int]]:
    """The first and last line of each record; raises for a record left open or text outside records."""
    spans, start = [], None
    for number, line in enumerate(text.split("\n"), start=1):
        match = _TAG.match(line)
        tag = match.group(1) if match else None
        if start is None:
            if tag == "TY":
                start = number
            elif line.strip():
                raise ReaderError(f"text outside a RIS record (a record starts with 'TY  - '): {line.strip()[:40]!r}",
                                  number)
        elif tag == "TY":
            raise ReaderError(f"a new record starts before the record of line {start} ended ('ER  - ')", number)
        elif tag == "ER":
            spans.append((start, number))
            start = None
    if start is not None:
        raise ReaderError("this record has no end ('ER  - ' line)", start)
    if not spans:
        raise ReaderError("has no RIS records (no 'TY  - ' line)")
    return spans


def _first(record: dict, *names: str) -> str:
    for name in names:
        value = record.get(name)
        if isinstance(value, list):
            value = next((v for v in value if str(v).strip()), None)
        if value is not None and str(value).strip():
            return str(value)
    return ""


def _person(name: str) -> str:
    last, _, first = name.partition(",")
    return " ".join(f"{first.strip()} {last.strip()}".split()) if first.strip() else name.strip()


def read_ris(text: str) -> tuple[None, list[Record]]:
    """The records of a RIS file's text (no header).

    Parameters
    ----------
    text : str
        A RIS file, decoded.

    Returns
    -------
    header : None
        RIS has no header line.
    records : list of Record
        One per ``TY`` ... ``ER`` record, with its lines.

    Examples
    --------
    >>> _, records = read_ris("TY  - CONF\\nTI  - A Title\\nAU  - Doe, Jane\\nPY  - 2024\\n"
    ...                       "AB  - One two three four five.\\nER  - \\n")
    >>> [(r.first_line, r.last_line, r.title, r.authors, r.year, r.abstract) for r in records]
    [(1, 6, 'A Title', 'Jane Doe', 2024, 'One two three four five.')]
    """
    import rispy

    spans = _record_lines(text)
    parsed = rispy.loads(text)
    if len(parsed) != len(spans):  # pragma: no cover - the structure check above makes them agree
        raise ReaderError(f"rispy read {len(parsed)} records where the file has {len(spans)}")
    records = []
    for (first, last), record in zip(spans, parsed):
        abstract = _first(record, "abstract", "notes_abstract")
        authors = record.get("authors") or record.get("first_authors") or []
        known = {"abstract", "notes_abstract", "authors", "first_authors", "title", "primary_title", "year",
                 "publication_year", "date", "secondary_title", "journal_name", "alternate_title3", "doi", "urls",
                 "id", "unknown_tag", "keywords"}
        records.append(Record(
            first_line=first, last_line=last, key=_first(record, "id"),
            abstract=latex_to_text(abstract) if abstract.strip() else None,
            title=latex_to_text(_first(record, "title", "primary_title")),
            authors="; ".join(latex_to_text(_person(a)) for a in authors if str(a).strip()),
            year=parse_year(_first(record, "year", "publication_year", "date")),
            venue=latex_to_text(_first(record, "secondary_title", "journal_name", "alternate_title3")),
            doi=normalise_doi(_first(record, "doi")), url=clean_field(_first(record, "urls")),
            keywords="; ".join(clean_field(k) for k in record.get("keywords") or [] if clean_field(k)),
            fields={k: clean_field(v if not isinstance(v, list) else "; ".join(map(str, v)))
                    for k, v in record.items() if k not in known},
        ))
    return None, records
