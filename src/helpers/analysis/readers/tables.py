"""Tables with named columns: CSV, TSV, JSON Lines and JSON, one :class:`Record` per row, line or object.

Column names are matched case-insensitively. The header chooses the column map
(:func:`helpers.analysis.readers.columns.column_map`): a database's export (Scopus, IEEE Xplore, Lens,
Dimensions, Web of Science tab-delimited) by its own column names, else the project's: ``abstract``
(required), ``title``, ``authors``, ``year``, ``venue``, ``doi``, ``url``, ``software``, and ``key`` or
``id``. Every other column is kept as a field (``--group-by COLUMN``). LaTeX is decoded in titles, authors
and abstracts. A line before the header that is no header (Dimensions' "About the data") is an ``other``
record; a database row with one field more than its header (Scopus) is read, the extra field noted
(``extra-field``). JSON objects that are OpenAlex works are read as such (:mod:`.openalex`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any, Callable, Iterable, Iterator, Literal, Mapping

from helpers.analysis.readers.columns import GENERIC, ColumnMap, column_map, split_authors
from helpers.analysis.readers.identity import normalise_doi
from helpers.analysis.readers.latex import latex_to_text
from helpers.analysis.readers.openalex import is_openalex_work, openalex_record
from helpers.analysis.readers.records import (METADATA_FIELDS, Record, ReaderError, clean_field, json_type,
                                              parse_year, text_value)

__all__ = ["read_csv", "read_tsv", "read_jsonl", "read_json"]

KEY_COLUMNS = ("key", "id")
#: A JSON escape of a UTF-16 surrogate: only where one is written can a string hold a lone one.
_SURROGATE_ESCAPE = re.compile(r"\\ud[89a-f]", re.IGNORECASE)
#: What the JSON readers say of a value nested deeper than Python's parser goes.
TOO_DEEP = "JSON nested too deeply to read (arrays or objects inside each other about 1,000 levels deep or more)"


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


def _object_records(spans: Iterable[tuple[int, int, Any]], noun: str) -> list[Record]:
    """The records of JSON objects, each with its first and last line (an OpenAlex work read as one); ``noun``
    ("line", "object") names a JSON value in the errors: not an object, none at all, none with an abstract."""
    records, has_abstract = [], False
    for first, last, value in spans:
        if not isinstance(value, dict):
            raise ReaderError(f"expected a JSON object, got {json_type(value)}", first)
        if is_openalex_work(value):
            records.append(_at_line(lambda: openalex_record(value, first, last), first))
            has_abstract = True
            continue
        values = {str(k).strip().lower(): v for k, v in value.items()}
        if len(values) < len(value):  # two keys that differ only in case or spaces: one would be lost
            _refuse_repeated_columns(list(value), first, "key", "in one object")
        has_abstract = has_abstract or "abstract" in values
        records.append(_at_line(lambda: _record(values, first, last), first))
    if not records:
        raise ReaderError(f"has no JSON {noun}s")
    if not has_abstract:
        raise ReaderError(f"has no 'abstract' field in any {noun}")
    return records


class _JsonDecoder(json.JSONDecoder):
    """Python's JSON decoder that remembers, of each object it makes, a key given twice (Python keeps the last)."""

    def __init__(self) -> None:
        super().__init__(object_pairs_hook=self._object)
        self.repeated: dict[int, str] = {}

    def _object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(pairs)
        if len(value) < len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    self.repeated[id(value)] = key
                    break
                seen.add(key)
        return value

    def refuse_repeated(self, value: Any, line: int) -> None:
        """A :class:`ReaderError` when the object ``value`` (a record) gave a key twice.

        Examples
        --------
        >>> decoder = _JsonDecoder()
        >>> decoder.refuse_repeated(decoder.decode('{"a": {"b": 1, "b": 2}}'), 1)
        >>> decoder.refuse_repeated(decoder.decode('{"abstract": "x", "abstract": "y"}'), 7)
        Traceback (most recent call last):
        ...
        helpers.analysis.readers.records.ReaderError: line 7: key 'abstract' appears twice in one object; remove one
        """
        key = self.repeated.get(id(value))
        if key is not None:
            raise ReaderError(f"key '{key}' appears twice in one object; remove one", line)


def _refuse_lone_surrogates(value: Any, line: int) -> None:
    r"""A JSON string holding half of a UTF-16 pair (``"\udfff"`` alone) is no text: a :class:`ReaderError`.

    Examples
    --------
    >>> _refuse_lone_surrogates(json.loads('{"a": "\\ud83d\\ude00 ok"}'), 1)
    >>> _refuse_lone_surrogates(json.loads('{"a": ["x \\udfff"]}'), 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    helpers.analysis.readers.records.ReaderError: line 4: a lone UTF-16 surrogate (\udfff) in a JSON string, ...
    """
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        escape = f"\\u{ord(error.object[error.start]):04x}"
        raise ReaderError(f"a lone UTF-16 surrogate ({escape}) in a JSON string, which is no text; write the"
                          " character itself or its full pair", line) from None


def _json_problem(error: ValueError) -> str:
    """What is wrong with JSON that Python's parser refused with ``error`` (not a syntax error)."""
    if "digits" in str(error):  # Python reads whole numbers of at most 4,300 digits
        return "a whole number of more than 4,300 digits"
    return f"invalid JSON ({error})"


def read_jsonl(text: str) -> tuple[None, list[Record]]:
    """One JSON object per non-blank line.

    Parameters
    ----------
    text : str
        A JSON Lines file's decoded text, one object a line.

    Returns
    -------
    header : None
        Nor has a JSON Lines file.
    records : list of Record
        One per object, on the object's line.

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
    decoder = _JsonDecoder()

    def lines() -> Iterator[tuple[int, int, Any]]:
        for number, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            decoder.repeated.clear()  # the ids of the objects of earlier lines may be reused
            try:
                value = decoder.decode(line)
            except json.JSONDecodeError as error:
                raise ReaderError(f"invalid JSON ({error.msg}, column {error.colno})", number) from None
            except RecursionError:
                raise ReaderError(TOO_DEEP, number) from None
            except ValueError as error:
                raise ReaderError(_json_problem(error), number) from None
            decoder.refuse_repeated(value, number)
            if _SURROGATE_ESCAPE.search(line):
                _refuse_lone_surrogates(value, number)
            yield number, number, value

    return None, _object_records(lines(), "line")


def read_json(text: str) -> tuple[None, list[Record]]:
    """A JSON file: an array of objects, an OpenAlex API page (``{"results": [...]}``) or one object.

    Each object of a top-level array carries its own lines; the objects of an API page all carry the
    file's lines.

    Parameters
    ----------
    text : str
        A JSON file's decoded text.

    Returns
    -------
    header : None
        A JSON file has none.
    records : list of Record
        One per object of the array (or of ``results``), on the lines the object spans.

    Raises
    ------
    ReaderError
        For invalid JSON (line and column), or objects of which none has an abstract.

    Examples
    --------
    >>> _, records = read_json('[{"title": "T", "abstract": "One two three four five."},\\n'
    ...                        ' {"id": "https://openalex.org/W1", "abstract_inverted_index": {"Six": [0]}}]')
    >>> [(r.first_line, r.last_line, r.title, r.abstract) for r in records]
    [(1, 1, 'T', 'One two three four five.'), (2, 2, '', 'Six')]
    """
    decoder = _JsonDecoder()
    stripped = text.lstrip()
    offset = len(text) - len(stripped)
    spans: list[tuple[int, int, Any]] = []
    index = offset
    try:
        if stripped.startswith("["):
            index = offset + 1
            while True:
                while index < len(text) and text[index] in " \t\r\n,":
                    index += 1
                if index >= len(text):
                    raise ReaderError("a JSON array without its closing ']'", text.count("\n") + 1)
                if text[index] == "]":
                    break
                value, end = decoder.raw_decode(text, index)
                spans.append((text.count("\n", 0, index) + 1, text.count("\n", 0, end) + 1, value))
                index = end
        else:
            value = decoder.decode(text)
            results = value.get("results") if isinstance(value, dict) else None
            items = results if isinstance(results, list) else [value]
            last = text.rstrip().count("\n") + 1
            spans = [(1, last, item) for item in items]
    except ReaderError:
        raise
    except json.JSONDecodeError as error:
        raise ReaderError(f"invalid JSON ({error.msg}, column {error.colno})", error.lineno) from None
    except RecursionError:
        raise ReaderError(TOO_DEEP, text.count("\n", 0, index) + 1) from None
    except ValueError as error:
        raise ReaderError(_json_problem(error), text.count("\n", 0, index) + 1) from None
    for first, _, value in spans:  # every value is alive in spans: their ids are their own
        decoder.refuse_repeated(value, first)
    if _SURROGATE_ESCAPE.search(text):
        for first, _, value in spans:
            _refuse_lone_surrogates(value, first)
    return None, _object_records(spans, "object")
