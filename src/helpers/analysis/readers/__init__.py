"""Readers of bibliographic files and database exports, the format decided in one place (:mod:`.detect`).

BibTeX, RIS, CSV/TSV (by the database's column names: Scopus, IEEE Xplore, Lens, Dimensions, Web of
Science tab-delimited, or the project's own), JSON Lines and JSON (OpenAlex works among them), Web of
Science plain text and PubMed MEDLINE. Each reader turns a file's decoded text into :class:`Record` rows,
one per entry (and, for BibTeX, one per ``@Proceedings``, ``@string`` or comment block), each with its
line range, so that :func:`helpers.analysis.corpus.read_corpus` accounts for every entry. A malformed file
raises :class:`ReaderError` with the line it fails on. The package is a leaf: it imports nothing of the
corpus module, which calls it.
"""

from __future__ import annotations

from typing import Callable

from helpers.analysis.readers.bibtex import read_bibtex
from helpers.analysis.readers.detect import FORMAT_NAMES, SUFFIX_FORMATS, corpus_suffix, file_format, tagged_export_name
from helpers.analysis.readers.records import METADATA_FIELDS, Record, ReaderError
from helpers.analysis.readers.ris import read_ris
from helpers.analysis.readers.json_files import read_json, read_jsonl
from helpers.analysis.readers.tables import read_csv, read_tsv
from helpers.analysis.readers.tagged import read_medline, read_wos

__all__ = ["FORMAT_NAMES", "METADATA_FIELDS", "READERS", "Record", "ReaderError", "RECORD_SUFFIXES",
           "corpus_suffix", "file_format", "read_records", "tagged_export_name"]

#: The reader of each record format (:data:`helpers.analysis.readers.detect.FORMAT_NAMES`; ``seed`` is the
#: corpus module's).
READERS: dict[str, Callable[[str], tuple[str | None, list[Record]]]] = {
    "bibtex": read_bibtex, "ris": read_ris, "csv": read_csv, "tsv": read_tsv, "jsonl": read_jsonl,
    "json": read_json, "wos": read_wos, "medline": read_medline,
}
#: Extensions that always mean a record format (``.txt`` is decided by its content).
RECORD_SUFFIXES = tuple(SUFFIX_FORMATS)


def read_records(file_format: str, text: str) -> tuple[str | None, list[Record]]:
    """The header (a BibTeX file's proceedings title, a Web of Science file's ``FN`` line, else ``None``)
    and records of ``text`` in ``file_format`` (a key of :data:`READERS`).

    Parameters
    ----------
    file_format : str
        A key of :data:`READERS`.
    text : str
        The file's decoded text.

    Returns
    -------
    header : str or None
        What the file says it holds.
    records : list of Record
        One per entry.

    Raises
    ------
    ReaderError
        When the text is malformed (with the line), or when a table has no abstract column.
    KeyError
        When ``file_format`` has no reader.

    Examples
    --------
    >>> header, records = read_records("ris", "TY  - JOUR\\nTI  - Roads\\nAB  - We count crashes.\\nER  - \\n")
    >>> header, [(r.title, r.abstract) for r in records]
    (None, [('Roads', 'We count crashes.')])
    """
    return READERS[file_format](text)
