"""BibTeX (``.bib``) with bibtexparser 2: every block of the file becomes a :class:`Record`.

A paper's fields: ``title``, ``author`` (``Last, First and ...`` becomes ``First Last; ...``),
``abstract``, ``year``, venue (``booktitle`` or ``journal``), ``doi``, ``url`` and ``software`` (PMLR's
code link). An entry without a year takes its ``crossref``'s, else the file's one ``@Proceedings``
entry's; without a venue, the proceedings' ``shortname`` (PMLR) or ``booktitle``. LaTeX is decoded
(:func:`helpers.analysis.readers.latex.latex_to_text`).
"""

from __future__ import annotations

import logging
import re
from contextlib import contextmanager
from typing import Iterator, Mapping

from helpers.analysis.readers.identity import normalise_doi
from helpers.analysis.readers.latex import latex_to_text
from helpers.analysis.readers.records import Record, ReaderError, clean_field, parse_year
from helpers.analysis.readers.tagged import join_wrapped

__all__ = ["read_bibtex", "authors_text"]

PROCEEDINGS_TYPES = ("proceedings",)
_OWN_FIELDS = {"title", "author", "abstract", "year", "booktitle", "journal", "doi", "url", "software"}


@contextmanager
def _quiet_parser() -> Iterator[None]:
    """bibtexparser logs each failed block; the reader raises a one-line error instead."""
    logger = logging.getLogger("bibtexparser")
    level, logger.level = logger.level, logging.CRITICAL + 1
    try:
        yield
    finally:
        logger.setLevel(level)


_TILDE_ACCENT = re.compile(r"\\~(?:\{[A-Za-z]\}|[A-Za-z])")


def authors_text(value: str) -> str:
    """BibTeX's ``Last, First and First Last`` as ``First Last; First Last``, LaTeX decoded.

    Parameters
    ----------
    value : str
        A BibTeX ``author`` field.

    Returns
    -------
    str
        The names, ``; `` between them.

    Examples
    --------
    >>> authors_text(r"A. Mancisidor, Rogelio and Mitrovi\\'{c}, Marko and Jane {van der} Berg")
    'Rogelio A. Mancisidor; Marko Mitrović; Jane van der Berg'
    """
    from bibtexparser.middlewares.names import (InvalidNameError, parse_single_name_into_parts,
                                                split_multiple_persons_names)

    # The name parser reads every "~" as a tie (a space), the tilde accent's too: decode that accent first.
    value = _TILDE_ACCENT.sub(lambda match: latex_to_text(match.group()), value)
    names = []
    for name in split_multiple_persons_names(value):
        try:
            names.append(parse_single_name_into_parts(name, strict=False).merge_first_name_first)
        except InvalidNameError:
            names.append(name)
    return "; ".join(latex_to_text(name) for name in names if name.strip())


def _reason(error: Exception) -> str:
    """bibtexparser's reason for a failed block, on one line (its own line numbers start at 0, so left out)."""
    text = getattr(error, "abort_reason", "") or getattr(error, "message", "") or str(error)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "cannot parse this block"


_MONTHS = {m: m.capitalize() for m in ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                         "dec")}


def _top_level_parts(value: str) -> list[str]:
    """A BibTeX value split at its ``#`` outside braces and quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for index, char in enumerate(value):
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            parts.append(value[start:index])
            start = index + 1
    parts.append(value[start:])
    return [part.strip() for part in parts]


# A part of a concatenation: a braced or quoted string, or a name (an @string's, a month) or a number.
_CONCATENATED = re.compile(r'\{.*\}|".*"|[A-Za-z0-9_:.+-]+', re.DOTALL)


def _unenclosed(part: str) -> str:
    if len(part) >= 2 and ((part[0] == "{" and part[-1] == "}") or (part[0] == '"' and part[-1] == '"')):
        return part[1:-1]
    return part


def field_value(value: str, strings: Mapping[str, str], enclosed: bool = False) -> str:
    """A field's value with its ``#`` concatenation resolved (``@string`` names and months replaced);
    ``enclosed``: the value still has its outer braces or quotes (bibtexparser leaves them on an entry it
    flags, such as one with a repeated field or key).

    Parameters
    ----------
    value : str
        The field as bibtexparser gives it.
    strings : mapping of str to str
        The file's ``@string`` names (lower case) to their values.
    enclosed : bool
        Whether the value still has its outer braces or quotes.

    Returns
    -------
    str
        The value, concatenated.

    Examples
    --------
    >>> field_value('icmlproc # ", Workshop Track"', {"icmlproc": "Proc. of ICML"})
    'Proc. of ICML, Workshop Track'
    >>> field_value("{Doe, Jane and Roe, Rick}", {}, enclosed=True), field_value("{B}ayes", {})
    ('Doe, Jane and Roe, Rick', '{B}ayes')
    >>> field_value("Learning C# code", {"code": "x"}), field_value('{Learning C# code}', {}, enclosed=True)
    ('Learning C# code', 'Learning C# code')
    """
    parts = _top_level_parts(value)
    if len(parts) == 1 or not all(_CONCATENATED.fullmatch(part) for part in parts):  # "C# code" is no concatenation
        return _unenclosed(value.strip()) if enclosed else value
    resolved = []
    for part in parts:
        if part[:1] in "{\"":
            resolved.append(_unenclosed(part))
        else:
            resolved.append(strings.get(part.lower(), _MONTHS.get(part.lower(), part)))
    return "".join(resolved)


def _fields(entry, strings: Mapping[str, str] | None = None, enclosed: bool = False) -> dict[str, str]:
    """An entry's fields by lower-case name; a field given more than once (Scopus' ``funding_details``)
    keeps its values joined by ``; ``."""
    fields: dict[str, str] = {}
    for field in entry.fields:
        key = field.key.lower()
        value = field_value(str(field.value), strings or {}, enclosed)
        fields[key] = f"{fields[key]}; {value}" if key in fields else value
    return fields


def _lines(block) -> tuple[int, int]:
    first = (block.start_line or 0) + 1
    raw = (block.raw or "").rstrip("\n")
    return first, first + raw.count("\n")


def _paper(entry, fields: Mapping[str, str], parents: Mapping[str, Mapping[str, str]],
           proceedings: Mapping[str, str] | None) -> Record:
    parent = parents.get(fields.get("crossref", "").strip().lower()) or proceedings or {}
    year = parse_year(fields["year"]) if "year" in fields else parse_year(parent.get("year"))
    for name in ("abstract", "title"):  # a URL that the export broke across lines (Web of Science) joined again
        if name in fields and "http" in fields[name]:
            fields = dict(fields, **{name: join_wrapped(fields[name].split("\n"))})
    venue = fields.get("booktitle") or fields.get("journal") or parent.get("shortname") or parent.get("booktitle", "")
    abstract = fields.get("abstract")
    first, last = _lines(entry)
    return Record(
        first_line=first, last_line=last, key=entry.key,
        abstract=latex_to_text(abstract) if abstract is not None and abstract.strip() else None,
        title=latex_to_text(fields.get("title", "")), authors=authors_text(fields.get("author", "")),
        year=year, venue=latex_to_text(venue), doi=normalise_doi(fields.get("doi")),
        url=clean_field(fields.get("url")), software=clean_field(fields.get("software")),
        # Decoded as the subjects are: Web of Science writes {{a; b}}, and a keyword may wrap across lines.
        keywords="; ".join(" ".join(k.split()) for k in latex_to_text(fields.get("author_keywords")
                                                                      or fields.get("keywords") or "").split(";")
                           if k.strip()),
        subjects="; ".join(k.strip() for k in latex_to_text(fields.get("web-of-science-categories")
                                                           or fields.get("research-areas") or "").split(";")
                           if k.strip()),
        fields={key: clean_field(value) for key, value in fields.items() if key not in _OWN_FIELDS},
    )


def read_bibtex(text: str) -> tuple[str | None, list[Record]]:
    """The records of a BibTeX file's text; the header is its one ``@Proceedings`` entry's booktitle.

    Parameters
    ----------
    text : str
        A BibTeX file, decoded.

    Returns
    -------
    header : str or None
        The booktitle of the file's one ``@Proceedings`` entry.
    records : list of Record
        One per entry, ``@string`` or comment block, with its lines.

    Raises
    ------
    ReaderError
        For a block bibtexparser cannot parse (its first line), or a file with no entry at all.

    Examples
    --------
    >>> header, records = read_bibtex('''@Proceedings{P, booktitle = {Proc. of X}, shortname = {X}, year = {2023}}
    ...
    ... @InProceedings{a1, title = {A {B}ayesian Study}, author = {Doe, Jane},
    ...   abstract = {One two three four five.}}
    ... ''')
    >>> header, [(r.kind, r.first_line, r.last_line, r.title, r.year, r.venue) for r in records]
    ('Proc. of X', [('proceedings', 1, 1, '', 2023, ''), ('entry', 3, 4, 'A Bayesian Study', 2023, 'X')])
    """
    import bibtexparser
    from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry, ParsingFailedBlock, String

    with _quiet_parser():
        library = bibtexparser.parse_string(text)
    blocks = []
    # Entries bibtexparser flags (a key used twice, a field given twice) are still entries of their own, but
    # reach the reader with their values' outer braces on.
    flagged: set[int] = set()
    for block in library.blocks:
        if isinstance(block, (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock)):
            duplicate = block.ignore_error_block
            assert duplicate is not None  # both duplicate blocks are always built around the block they flag
            block = duplicate
            flagged.add(id(block))
        elif isinstance(block, ParsingFailedBlock):
            raise ReaderError(f"malformed BibTeX entry: {_reason(block.error)}", (block.start_line or 0) + 1)
        blocks.append(block)
    entries = [b for b in blocks if isinstance(b, Entry)]
    if not entries:
        raise ReaderError("has no BibTeX entries")
    strings = {b.key.lower(): _unenclosed(str(b.value)) for b in blocks if isinstance(b, String)}

    def fields_of(entry) -> dict[str, str]:
        return _fields(entry, strings, id(entry) in flagged)

    parents = {e.key.lower(): fields_of(e) for e in entries}
    all_proceedings = [fields_of(e) for e in entries if e.entry_type.lower() in PROCEEDINGS_TYPES]
    proceedings = all_proceedings[0] if len(all_proceedings) == 1 else None
    records = []
    for block in blocks:
        if not isinstance(block, Entry):
            first, last = _lines(block)
            records.append(Record(first_line=first, last_line=last, abstract=None, kind="other"))
        elif block.entry_type.lower() in PROCEEDINGS_TYPES:
            first, last = _lines(block)
            fields = fields_of(block)
            records.append(Record(first_line=first, last_line=last, abstract=None, key=block.key,
                                  kind="proceedings", year=parse_year(fields.get("year"))))
        else:
            records.append(_paper(block, fields_of(block), parents, proceedings))
    header = latex_to_text(proceedings["booktitle"]) if proceedings and proceedings.get("booktitle") else None
    return header, records
