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

from helpers.analysis.readers.latex import latex_to_text
from helpers.analysis.readers.records import Record, ReaderError, clean_field, parse_year

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


def _fields(entry) -> dict[str, str]:
    return {key.lower(): str(field.value) for key, field in entry.fields_dict.items()}


def _lines(block) -> tuple[int, int]:
    first = (block.start_line or 0) + 1
    raw = (block.raw or "").rstrip("\n")
    return first, first + raw.count("\n")


def _paper(entry, fields: Mapping[str, str], parents: Mapping[str, Mapping[str, str]],
           proceedings: Mapping[str, str] | None) -> Record:
    parent = parents.get(fields.get("crossref", "").strip().lower()) or proceedings or {}
    year = parse_year(fields["year"]) if "year" in fields else parse_year(parent.get("year"))
    venue = fields.get("booktitle") or fields.get("journal") or parent.get("shortname") or parent.get("booktitle", "")
    abstract = fields.get("abstract")
    first, last = _lines(entry)
    return Record(
        first_line=first, last_line=last, key=entry.key,
        abstract=latex_to_text(abstract) if abstract is not None and abstract.strip() else None,
        title=latex_to_text(fields.get("title", "")), authors=authors_text(fields.get("author", "")),
        year=year, venue=latex_to_text(venue), doi=clean_field(fields.get("doi")),
        url=clean_field(fields.get("url")), software=clean_field(fields.get("software")),
        fields={key: clean_field(value) for key, value in fields.items() if key not in _OWN_FIELDS},
    )


def read_bibtex(text: str) -> tuple[str | None, list[Record]]:
    """The records of a BibTeX file's text; the header is its one ``@Proceedings`` entry's booktitle.

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
    from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock

    with _quiet_parser():
        library = bibtexparser.parse_string(text)
    blocks = []
    for block in library.blocks:
        if isinstance(block, DuplicateBlockKeyBlock):  # a key used twice: still an entry of its own
            block = block.ignore_error_block
        elif isinstance(block, ParsingFailedBlock):
            raise ReaderError(f"malformed BibTeX entry: {_reason(block.error)}", (block.start_line or 0) + 1)
        blocks.append(block)
    entries = [b for b in blocks if isinstance(b, Entry)]
    if not entries:
        raise ReaderError("has no BibTeX entries")
    parents = {e.key.lower(): _fields(e) for e in entries}
    all_proceedings = [_fields(e) for e in entries if e.entry_type.lower() in PROCEEDINGS_TYPES]
    proceedings = all_proceedings[0] if len(all_proceedings) == 1 else None
    records = []
    for block in blocks:
        if not isinstance(block, Entry):
            first, last = _lines(block)
            records.append(Record(first_line=first, last_line=last, abstract=None, kind="other"))
        elif block.entry_type.lower() in PROCEEDINGS_TYPES:
            first, last = _lines(block)
            fields = _fields(block)
            records.append(Record(first_line=first, last_line=last, abstract=None, key=block.key,
                                  kind="proceedings", year=parse_year(fields.get("year"))))
        else:
            records.append(_paper(block, _fields(block), parents, proceedings))
    header = latex_to_text(proceedings["booktitle"]) if proceedings and proceedings.get("booktitle") else None
    return header, records
