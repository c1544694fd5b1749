"""Readers of bibliographic files: BibTeX, RIS, CSV/TSV and JSON Lines, chosen by file extension.

Each reader turns a file's decoded text into :class:`Record` rows, one per entry (and, for
BibTeX, one per ``@Proceedings``, ``@string`` or comment block), each with its line range, so
that :func:`helpers.analysis.corpus.read_corpus` accounts for every entry. A malformed file raises
:class:`ReaderError` with the line it fails on. The package is a leaf: it imports nothing of the
corpus module, which calls it.
"""

from __future__ import annotations

from typing import Callable

from helpers.analysis.readers.bibtex import read_bibtex
from helpers.analysis.readers.records import METADATA_FIELDS, Record, ReaderError
from helpers.analysis.readers.ris import read_ris
from helpers.analysis.readers.tables import read_csv, read_jsonl, read_tsv

__all__ = ["METADATA_FIELDS", "READERS", "Record", "ReaderError", "RECORD_SUFFIXES", "read_records"]

#: The reader of each record format, by lower-case file extension (``.txt`` is the seed format).
READERS: dict[str, Callable[[str], tuple[str | None, list[Record]]]] = {
    ".bib": read_bibtex, ".ris": read_ris, ".csv": read_csv, ".tsv": read_tsv, ".jsonl": read_jsonl,
}
RECORD_SUFFIXES = tuple(READERS)


def read_records(suffix: str, text: str) -> tuple[str | None, list[Record]]:
    """The header (a BibTeX file's proceedings title, else ``None``) and records of ``text``.

    Raises
    ------
    ReaderError
        When the text is malformed (with the line), or when a table has no abstract column.
    KeyError
        When ``suffix`` has no reader.
    """
    return READERS[suffix.lower()](text)
