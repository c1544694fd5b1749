"""JSON Lines and JSON files: one :class:`Record` per object, read as the tables' rows are (:mod:`.tables`).

JSON asks for checks a table does not: a value that is no object, keys that differ only in case, strings with a
lone UTF-16 surrogate (which no UTF-8 output can write) and values nested deeper than Python's parser goes are
each an error naming the line. Objects that are OpenAlex works are read as such (:mod:`.openalex`), an API page
(``{"results": [...]}``) as its works.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable, Iterator

from helpers.analysis.readers.openalex import is_openalex_work, openalex_record
from helpers.analysis.readers.records import Record, ReaderError, json_type
from helpers.analysis.readers.tables import _at_line, _record, _refuse_repeated_columns

__all__ = ["TOO_DEEP", "read_jsonl", "read_json"]

#: A JSON escape of a UTF-16 surrogate: only where one is written can a string hold a lone one.
_SURROGATE_ESCAPE = re.compile(r"\\ud[89a-f]", re.IGNORECASE)
#: What the JSON readers say of a value nested deeper than Python's parser goes.
TOO_DEEP = "JSON nested too deeply to read (arrays or objects inside each other about 1,000 levels deep or more)"


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
