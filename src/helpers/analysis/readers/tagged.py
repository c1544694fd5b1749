"""Tagged exports: Web of Science plain text and PubMed MEDLINE (``.txt``, ``.nbib``).

Both write one field per tag at the start of a line, a value continued on indented lines, and one record
after another; each record becomes a :class:`Record`, its line range kept.

- **Web of Science** ("Plain text file", "Full record"): an ``FN``/``VR`` file header, two-letter tags
  (``PT J``), three-space continuation lines, ``ER`` ending each record and ``EF`` the file. Read: ``TI``
  title, ``AF`` (else ``AU``) authors one per line, ``PY`` year (else ``EA``), ``SO`` venue, ``DI`` doi,
  ``AB`` abstract, ``DE`` author keywords, ``WC`` categories (else ``SC`` research areas) as subjects, ``UT`` key.
- **MEDLINE** (PubMed "Save", format "PubMed"): four-character tags and a dash (``PMID- ``, ``TI  - ``),
  six-space continuation lines, records separated by blank lines, each starting with ``PMID-``. Read:
  ``TI``, ``FAU`` (else ``AU``), ``DP`` year, ``JT`` (else ``TA``) venue, the ``LID``/``AID`` marked
  ``[doi]``, ``AB``, ``OT`` keywords (else ``MH`` MeSH headings), the MeSH major topics (``MH`` headings
  with a ``*``) as subjects, ``PMID`` key.

A line that belongs to no record is an error naming it; so is a record left open.
"""

from __future__ import annotations

import re
from typing import Iterator

from helpers.analysis.readers.identity import normalise_doi
from helpers.analysis.readers.records import Record, ReaderError, parse_year

__all__ = ["read_wos", "read_medline", "join_wrapped", "major_topics"]

_WOS_TAG = re.compile(r"^([A-Z][A-Z0-9])(?: (.*))?$")
_MEDLINE_TAG = re.compile(r"^([A-Z][A-Z0-9 ]{3})- ?(.*)$")
# A line that ends inside a URL (after "http://www." or a "/"): the next line continues the URL.
_BROKEN_URL = re.compile(r"https?://\S*[./:_-]$|https?://$")
# Web of Science hyphenates a wrapped word with " -": inside a URL the space goes.
_URL_HYPHEN = re.compile(r"(https?://\S+) -(?=\w)")


def join_wrapped(lines: list[str]) -> str:
    """Wrapped lines as one text: lines joined by a space, except where a line ends inside a URL, which is
    joined to the next line without one (so is Web of Science's " -" inside a URL).

    Parameters
    ----------
    lines : list of str
        A field's lines, without their tags and indentation.

    Returns
    -------
    str
        One line of text.

    Examples
    --------
    >>> join_wrapped(["We present the Decision Deck (DD) project (http://www.", "decision -deck.org/) which aims"])
    'We present the Decision Deck (DD) project (http://www.decision-deck.org/) which aims'
    >>> join_wrapped(["a line", "and the next"])
    'a line and the next'
    """
    parts: list[str] = []
    for index, line in enumerate(lines):
        line = line.strip()
        if index and not (parts and _BROKEN_URL.search(parts[-1])):
            parts.append(" ")
        parts.append(line)
    text = "".join(parts)
    return _URL_HYPHEN.sub(r"\1-", text) if "http" in text else text


def _person(name: str) -> str:
    """``Last, First`` as ``First Last``."""
    last, _, first = name.partition(",")
    return " ".join(f"{first.strip()} {last.strip()}".split()) if first.strip() else name.strip()


def _tagged_records(text: str, tag_pattern: re.Pattern[str], indent: str, expected: str, *,
                    starts: tuple[str, ...] = (), ends: tuple[str, ...] = (), blank_ends: bool = False,
                    first_tag: tuple[str, str] | None = None
                    ) -> Iterator[tuple[int, int, dict[str, list[list[str]]]]]:
    """Each record's first and last line and its fields: tag to the list of its values, each value its lines.

    A record ends before a tag of ``starts``, after a tag of ``ends`` (Web of Science: ``PT``; ``ER``, ``EF``), or at
    a blank line where ``blank_ends`` (MEDLINE); a line neither tagged nor an ``indent`` continuation is a
    :class:`ReaderError` saying what was ``expected``, and so is a record not starting with ``first_tag``'s tag
    (the tag and the error's text).
    """
    fields: dict[str, list[list[str]]] = {}
    first = last = 0
    current: list[str] | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip()
        if not line:
            if blank_ends and fields:
                yield first, last, fields
                fields = {}
            current = None
            continue
        if line.startswith(indent) and current is not None:
            current.append(line.strip())
            last = number
            continue
        match = tag_pattern.match(line)
        if match is None:
            raise ReaderError(f"not a {expected}: {line.strip()[:40]!r}", number)
        tag, value = match.group(1).strip(), (match.group(2) or "").strip()
        if tag in starts and fields:  # the file header (FN, VR) ends where the first record starts
            yield first, last, fields
            fields = {}
        if not fields:
            if first_tag is not None and tag != first_tag[0]:
                raise ReaderError(f"{first_tag[1]}, not {tag!r}", number)
            first = number
        current = [value]
        fields.setdefault(tag, []).append(current)
        last = number
        if tag in ends:
            yield first, last, fields
            fields, current = {}, None
    if fields:
        yield first, last, fields


def _value(fields: dict[str, list[list[str]]], *tags: str) -> str:
    for tag in tags:
        for lines in fields.get(tag, []):
            text = join_wrapped(lines)
            if text:
                return text
    return ""


def _items(fields: dict[str, list[list[str]]], tag: str) -> list[str]:
    """Every line of every value of ``tag``, one item each (Web of Science writes an author per line)."""
    return [line.strip() for lines in fields.get(tag, []) for line in lines if line.strip()]


def _keywords(text: str) -> str:
    return "; ".join(k.strip() for k in text.split(";") if k.strip())


def major_topics(headings: list[str]) -> str:
    """The MeSH major topics of a record's ``MH`` headings: the descriptor of each heading marked ``*`` (on the
    descriptor or on one of its qualifiers), once each, ``; `` between them.

    Parameters
    ----------
    headings : list of str
        The ``MH`` lines of one record.

    Returns
    -------
    str
        The major topics, ``""`` without any.

    Examples
    --------
    >>> major_topics(["Humans", "*Decision Support Techniques", "Decision Making/*methods/standards", "*Humans"])
    'Decision Support Techniques; Decision Making; Humans'
    """
    topics: list[str] = []
    for heading in headings:
        if "*" in heading:
            descriptor = heading.split("/")[0].replace("*", "").strip()
            if descriptor and descriptor not in topics:
                topics.append(descriptor)
    return "; ".join(topics)


def read_wos(text: str) -> tuple[str | None, list[Record]]:
    """The records of a Web of Science plain-text export; the header is the ``FN`` line's text.

    Parameters
    ----------
    text : str
        A Web of Science plain-text export, decoded.

    Returns
    -------
    header : str or None
        The ``FN`` line's text.
    records : list of Record
        One per ``PT`` ... ``ER`` record, with its lines.

    Raises
    ------
    ReaderError
        For a line outside the tagged structure, a record without its ``ER`` line, or no record at all.

    Examples
    --------
    >>> header, records = read_wos("FN Clarivate Analytics Web of Science\\nVR 1.0\\nPT J\\nAU Doe, J\\n"
    ...     "AF Doe, Jane\\n   Roe, Rick\\nTI A Title on\\n   two lines\\nSO J OF X\\nPY 2024\\nDI 10.1/X\\n"
    ...     "AB One two three four five.\\nDE alpha; beta\\n   gamma\\nWC Engineering, Civil; Transportation\\n"
    ...     "SC Engineering; Transportation\\nUT WOS:1\\nER\\n\\nEF\\n")
    >>> header, [(r.first_line, r.last_line, r.title, r.authors, r.year, r.venue, r.key, r.keywords) for r in records]
    ('Clarivate Analytics Web of Science', [(3, 18, 'A Title on two lines', 'Jane Doe; Rick Roe', 2024, 'J OF X', 'WOS:1', 'alpha; beta gamma')])
    >>> records[0].subjects
    'Engineering, Civil; Transportation\'
    """
    header: str | None = None
    records: list[Record] = []
    for first, last, fields in _tagged_records(
            text, _WOS_TAG, "   ", "tagged line (a tag, or an indented continuation, expected)",
            starts=("PT",), ends=("ER", "EF")):
        if "PT" not in fields:  # the file's own lines: FN, VR, EF
            unknown = set(fields) - {"FN", "VR", "EF"}
            if unknown:
                raise ReaderError(f"a record without its 'PT' line (tags {', '.join(sorted(unknown))})", first)
            header = header or _value(fields, "FN") or None
            continue
        if "ER" not in fields:
            raise ReaderError("this record has no end ('ER' line)", first)
        abstract = _value(fields, "AB")
        authors = _items(fields, "AF") or _items(fields, "AU")
        records.append(Record(
            first_line=first, last_line=last, key=_value(fields, "UT"), abstract=abstract or None,
            title=_value(fields, "TI"), authors="; ".join(_person(a) for a in authors),
            year=parse_year(_value(fields, "PY") or _value(fields, "EA")), venue=_value(fields, "SO"),
            doi=normalise_doi(_value(fields, "DI")), keywords=_keywords(_value(fields, "DE")),
            subjects=_keywords(_value(fields, "WC") or _value(fields, "SC")),
            fields={tag.lower(): _value(fields, tag) for tag in ("DT", "LA", "PU", "ID") if tag in fields},
        ))
    if not records:
        raise ReaderError("has no Web of Science records (no 'PT' line)")
    return header, records


def read_medline(text: str) -> tuple[None, list[Record]]:
    """The records of a MEDLINE file (PubMed's "PubMed" format, ``.txt`` or ``.nbib``); no header.

    Parameters
    ----------
    text : str
        A MEDLINE file, decoded.

    Returns
    -------
    header : None
        MEDLINE has no header line.
    records : list of Record
        One per ``PMID-`` record, with its lines.

    Raises
    ------
    ReaderError
        For a line outside the tagged structure, a record that does not start with ``PMID-``, or none.

    Examples
    --------
    >>> _, records = read_medline("PMID- 1\\nTI  - A Title on\\n      two lines.\\nFAU - Doe, Jane\\nAU  - Doe J\\n"
    ...     "DP  - 2022 Jun\\nJT  - Journal of X\\nLID - 10.3389/X.1 [doi]\\nAB  - BACKGROUND: One two three\\n"
    ...     "      four five.\\nOT  - alpha\\nOT  - beta\\nMH  - Humans\\nMH  - *Poultry\\n\\nPMID- 2\\nTI  - No abstract\\n")
    >>> [(r.first_line, r.last_line, r.key, r.title, r.authors, r.year, r.venue, r.doi, r.keywords) for r in records]
    [(1, 14, '1', 'A Title on two lines.', 'Jane Doe', 2022, 'Journal of X', '10.3389/x.1', 'alpha; beta'), (16, 17, '2', 'No abstract', '', None, '', '', '')]
    >>> records[0].abstract, records[1].abstract, records[0].subjects
    ('BACKGROUND: One two three four five.', None, 'Poultry')
    """
    records: list[Record] = []
    blocks = _tagged_records(
        text, _MEDLINE_TAG, "      ", "MEDLINE line (a tag such as 'TI  - ', or a six-space continuation, expected)",
        blank_ends=True, first_tag=("PMID", "a MEDLINE record starts with 'PMID- '"))
    for first, last, fields in blocks:
        dois = [join_wrapped(v) for tag in ("LID", "AID") for v in fields.get(tag, [])
                if join_wrapped(v).endswith("[doi]")]
        authors = _items(fields, "FAU") or _items(fields, "AU")
        # Without OT, the MeSH descriptors stand in: no major-topic star, no qualifiers ("/therapy").
        keywords = [join_wrapped(v) for v in fields.get("OT", [])] or [
            join_wrapped(v).split("/")[0].replace("*", "").strip() for v in fields.get("MH", [])]
        abstract = _value(fields, "AB")
        records.append(Record(
            first_line=first, last_line=last, key=_value(fields, "PMID"), abstract=abstract or None,
            title=_value(fields, "TI"), authors="; ".join(_person(a) for a in authors),
            year=parse_year(_value(fields, "DP")), venue=_value(fields, "JT", "TA"),
            doi=normalise_doi(dois[0].removesuffix("[doi]")) if dois else "", keywords="; ".join(keywords),
            subjects=major_topics([join_wrapped(v) for v in fields.get("MH", [])]),
            fields={name: _value(fields, tag) for name, tag in (("pt", "PT"), ("la", "LA")) if tag in fields},
        ))
    if not records:
        raise ReaderError("has no MEDLINE records (no 'PMID- ' line)")
    return None, records
