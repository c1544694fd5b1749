"""The corpus tables: their columns and kinds, :class:`Corpus` that holds them, and :class:`CorpusError`.

One module names every column and block kind, so that the readers, the assembly, the parse report and the
output files agree on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from helpers.analysis.corpus.hashes import corpus_sha256
from helpers.analysis.readers import METADATA_FIELDS, RECORD_SUFFIXES
from helpers.analysis.errors import CorpusError  # noqa: F401 (re-exported: corpus.CorpusError)

__all__ = ["Corpus", "CorpusError", "MIN_ABSTRACT_WORDS", "BLOCK_KINDS", "RECORD_KINDS", "METADATA_COLUMNS",
           "CORPUS_SUFFIXES", "PAPER_COLUMNS", "BLOCK_COLUMNS", "FILE_COLUMNS", "MERGE_COLUMNS", "CLEANING_COLUMNS"]

#: A block of fewer words is ``too-short``, not an abstract.
MIN_ABSTRACT_WORDS = 5
#: The kinds of every file's blocks: a file's header line, an abstract, the same abstract again, a short block.
BLOCK_KINDS = ("header", "abstract", "duplicate", "too-short")
#: Kinds of bibliographic files only: an entry without an abstract, an entry whose abstract is only publisher
#: boilerplate (a copyright statement), a proceedings volume's own record (a BibTeX ``@Proceedings`` entry, or
#: a record listing the volume's papers), any other block (``@string``, ``@preamble``, comments).
RECORD_KINDS = ("no-abstract", "boilerplate-only", "proceedings", "other")
#: The metadata columns of :attr:`Corpus.papers` when any file is bibliographic.
METADATA_COLUMNS = list(METADATA_FIELDS)
#: File extensions and their format; any other file given by name is read as the seed format.
CORPUS_SUFFIXES = (".txt", *RECORD_SUFFIXES)
#: The columns of :attr:`Corpus.papers` (before the metadata columns).
PAPER_COLUMNS = [
    "paper_id",
    "source_file",
    "position",
    "text",
    "n_words",
    "n_chars",
    "has_latex",
    "has_markdown",
    "occurrences",
    "locations",
    "text_sha1",
]
#: The columns of :attr:`Corpus.blocks` (``key`` follows when any file is bibliographic).
BLOCK_COLUMNS = [
    "source_file",
    "block",
    "position",
    "first_line",
    "last_line",
    "n_words",
    "kind",
    "paper_id",
]
#: The columns of :attr:`Corpus.files`.
FILE_COLUMNS = ["source_file", "path", "status", "header", "n_blocks", "sha256", "problem"]
#: One row per record merged into another paper (same DOI, or same title and year): the paper kept, where
#: it and the merged record come from, and by what they matched.
MERGE_COLUMNS = ["paper_id", "kept", "merged", "matched_by"]
#: What the parse report counts besides the block kinds, per file (columns only when some count is not 0);
#: ``merged_records``: records of another text merged into a paper (by DOI, or title and year).
CLEANING_COLUMNS = ["boilerplate_sentences", "structured_headings", "extra_fields", "merged_records"]


@dataclass
class Corpus:
    """A parsed corpus.

    Attributes
    ----------
    papers : DataFrame
        One row per unique abstract: ``paper_id, source_file, position, text,
        n_words, n_chars, has_latex, has_markdown, occurrences, locations,
        text_sha1`` (first occurrence wins for ``source_file``, ``position`` and metadata; of records
        that are the same paper, the richest), then, when any file is bibliographic, ``title, authors,
        year, venue, doi, url, software`` (text, ``""`` when missing; ``year`` nullable ``Int64``), and
        ``keywords`` (the authors' keywords), ``subjects`` (the database's subject categories of the record:
        Web of Science ``WC``/``SC``, PubMed's MeSH major topics) and ``published_text`` (the abstract as published, where
        publisher boilerplate was left out of ``text``; else ``""``) when some paper has them.
    blocks : DataFrame
        One row per non-blank block (entry) of every file read: ``source_file, block,
        position, first_line, last_line, n_words, kind, paper_id``, plus ``key`` (the entry's
        key) when any file is bibliographic.
    files : DataFrame
        One row per input file: ``source_file, path, status`` (``ok`` or
        ``skipped``), ``header, n_blocks, sha256, problem``.
    problems : list of str
        The problems of the files skipped (``skip_bad``), one line each.
    fields : DataFrame
        Each paper's other named fields of its entry (``paper_id`` and one text column per field name;
        empty for the seed format), for ``--group-by COLUMN``.
    merges : DataFrame
        Records merged into a paper from another record of it (:data:`MERGE_COLUMNS`), in reading order.
    cleaning : DataFrame
        Per file (``source_file`` and :data:`CLEANING_COLUMNS`): publisher sentences and headings left out of
        the analysed texts, rows with an extra field, records merged into a paper; empty when all are 0.

    Examples
    --------
    >>> from helpers.analysis.corpus import read_corpus, write_corpus
    >>> corpus = read_corpus(write_corpus({"a.txt": "Soil 2024\\n\\nCover crops kept more water in the soil.\\n"}))
    >>> corpus.headers, corpus.summary()["unique_papers"], len(corpus.sha256)
    ({'a.txt': 'Soil 2024'}, 1, 64)
    """

    papers: pd.DataFrame
    blocks: pd.DataFrame
    files: pd.DataFrame
    problems: list[str] = field(default_factory=list)
    #: Each paper's other named fields of its entry (``paper_id`` and one text column per field name;
    #: empty for the seed format), for ``--group-by COLUMN``.
    fields: pd.DataFrame = field(default_factory=lambda: pd.DataFrame({"paper_id": pd.Series(dtype=str)}))
    #: Records merged into a paper from another record of it (:data:`MERGE_COLUMNS`), in reading order.
    merges: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=MERGE_COLUMNS))
    #: Per file (``source_file`` and :data:`CLEANING_COLUMNS`): publisher sentences and headings left out of
    #: the analysed texts, rows with an extra field, records merged into a paper; empty when all are 0.
    cleaning: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["source_file", *CLEANING_COLUMNS]))

    @property
    def headers(self) -> dict[str, str | None]:
        """The header of each file read (``None`` when the file has none)."""
        ok = self.files[self.files["status"] == "ok"]
        # pandas keeps a missing header as NaN in a text column: read it back as None.
        return {row.source_file: row.header if isinstance(row.header, str) else None for row in ok.itertuples()}

    @property
    def sha256(self) -> str:
        """Order-independent SHA-256 of the files that were read."""
        ok = self.files[self.files["status"] == "ok"]
        return corpus_sha256(ok["sha256"])

    @property
    def skipped_files(self) -> list[str]:
        """The files skipped, by name."""
        return self.files.loc[self.files["status"] == "skipped", "source_file"].tolist()

    def summary(self) -> dict[str, object]:
        """Counts for ``summary.json``: every block is in exactly one count."""
        kinds = self.blocks["kind"].value_counts()
        record_counts = {kind.replace("-", "_"): int(kinds[kind]) for kind in RECORD_KINDS if kind in kinds}
        record_counts |= {name: int(self.cleaning[name].sum()) for name in CLEANING_COLUMNS
                          if len(self.cleaning) and int(self.cleaning[name].sum())}
        return record_counts | {
            "files": int((self.files["status"] == "ok").sum()),
            "skipped_files": len(self.skipped_files),
            "blocks": int(len(self.blocks)),
            "headers": int(kinds.get("header", 0)),
            "abstracts": int(kinds.get("abstract", 0) + kinds.get("duplicate", 0)),
            "unique_papers": int(len(self.papers)),
            "duplicates": int(kinds.get("duplicate", 0)),
            "too_short": int(kinds.get("too-short", 0)),
            "corpus_sha256": self.sha256,
        }
