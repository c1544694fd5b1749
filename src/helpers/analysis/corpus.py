"""Read a corpus of abstracts into tidy tables.

The seed format (``.txt``, :mod:`helpers.analysis.readers.seed`) is plain UTF-8 text: an optional
one-line header, then one abstract per block, blocks separated by blank lines. Bibliographic files and
database exports are read by their reader (:mod:`helpers.analysis.readers`: BibTeX, RIS, CSV/TSV by the
database's column names, JSON and JSON Lines with OpenAlex works, Web of Science plain text, MEDLINE), the
format decided in one place (:func:`helpers.analysis.readers.file_format`), one block per entry. Publisher
boilerplate is left out of the analysed texts of entries (:mod:`helpers.analysis.readers.boilerplate`), and
the same paper from two records is one paper (by abstract, DOI, or title and year). Every non-blank
block (every entry) of every file ends up as one row of
:attr:`Corpus.blocks`, so nothing is dropped without a row saying why; unique abstracts become
rows of :attr:`Corpus.papers`, with the entries' metadata (:data:`METADATA_COLUMNS`) when any
file is bibliographic.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Sequence

import pandas as pd

from helpers.analysis.engine.file_pieces import FilePiece, ParsedPiece, file_sha256, join_pieces, piece_bytes, split_file
from helpers.analysis.readers import (FORMAT_NAMES, METADATA_FIELDS, RECORD_SUFFIXES, Record, ReaderError,
                                      corpus_suffix, file_format, read_records, tagged_export_name)
from helpers.analysis.readers.boilerplate import strip_boilerplate
from helpers.analysis.readers.identity import normalise_doi, title_key
from helpers.analysis.readers.seed import MAX_HEADER_WORDS, is_header, join_lines, split_blocks

__all__ = [
    "Corpus",
    "CorpusError",
    "read_corpus",
    "normalise_text",
    "split_blocks",
    "paper_id_for",
    "corpus_sha256",
    "files_sha256",
    "MIN_ABSTRACT_WORDS",
    "MAX_HEADER_WORDS",
    "parse_report",
    "papers_per_header",
]

MIN_ABSTRACT_WORDS = 5

BLOCK_KINDS = ("header", "abstract", "duplicate", "too-short")
#: Kinds of bibliographic files only: an entry without an abstract, a BibTeX ``@Proceedings``
#: entry, any other block (``@string``, ``@preamble``, comments).
RECORD_KINDS = ("no-abstract", "proceedings", "other")
#: The metadata columns of :attr:`Corpus.papers` when any file is bibliographic.
METADATA_COLUMNS = list(METADATA_FIELDS)
#: File extensions and their format; any other file given by name is read as the seed format.
CORPUS_SUFFIXES = (".txt", *RECORD_SUFFIXES)
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
FILE_COLUMNS = ["source_file", "path", "status", "header", "n_blocks", "sha256", "problem"]
#: One row per record merged into another paper (same DOI, or same title and year): the paper kept, where
#: it and the merged record come from, and by what they matched.
MERGE_COLUMNS = ["paper_id", "kept", "merged", "matched_by"]
#: What the parse report counts besides the block kinds, per file (columns only when some count is not 0);
#: ``merged_records``: records of another text merged into a paper (by DOI, or title and year).
CLEANING_COLUMNS = ["boilerplate_sentences", "structured_headings", "extra_fields", "merged_records"]


class CorpusError(ValueError):
    """Bad corpus input. ``problems`` holds one line per problem, each naming its file."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


# Characters that become a plain space: tabs, no-break and all other Unicode
# space separators. Zero-width characters and soft hyphens are removed.
_SPACE_CHARS = ["\t", "\v", "\f", "\x85"] + [
    chr(c) for c in range(0x80, 0x3001) if unicodedata.category(chr(c)) == "Zs"
]
_REMOVED_CHARS = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e"]
_REPLACEMENTS = {c: " " for c in _SPACE_CHARS}
_REPLACEMENTS.update({c: "" for c in _REMOVED_CHARS})
_REPLACEMENTS.update({"\u2028": "\n", "\u2029": "\n"})
# One regex pass with a character class is about 20 times faster than str.translate with a dict.
_SPECIAL_CHARS = re.compile("[" + re.escape("".join(_REPLACEMENTS)) + "]")
_SPACE_RUN = re.compile(r" {2,}")
_NEWLINES = re.compile(r"\r\n?")

_LATEX = re.compile(r"\$[^$]+\$|\\\(|\\\[|\\[A-Za-z]+\{")
_MARKDOWN = re.compile(
    r"\*\*[^*\s][^*]*\*\*|(?<![\w*])\*[^*\s][^*]*\*(?![\w*])|(?<!\w)_[^_\s][^_]*_(?!\w)"
    r"|\[[^\]]+\]\([^)\s]+\)|`[^`]+`"
)


def _has_latex(text: str) -> bool:
    # The cheap substring tests skip the regex for most abstracts.
    return ("$" in text or "\\" in text) and bool(_LATEX.search(text))


def _has_markdown(text: str) -> bool:
    return any(mark in text for mark in "*_[`") and bool(_MARKDOWN.search(text))


def normalise_text(text: str) -> str:
    """Normalise line ends and white space as the corpus contract says.

    CRLF and CR become LF; tabs, no-break and other Unicode spaces become
    spaces; zero-width characters and soft hyphens are removed; runs of spaces
    collapse to one. Everything else (LaTeX, Markdown, URLs) is kept.

    Examples
    --------
    >>> normalise_text("a\\u00a0b\\t\\tc\\r\\nd\\u200be")
    'a b c\\nde'
    """
    text = _NEWLINES.sub("\n", text)
    text = _SPECIAL_CHARS.sub(lambda match: _REPLACEMENTS[match.group()], text)
    return _SPACE_RUN.sub(" ", text) if "  " in text else text


def dedup_key(text: str) -> str:
    """The text two abstracts must share to count as duplicates.

    Case, spaces and Unicode compatibility variants (NFKC: ligatures such as "\ufb01", full-width
    digits) are ignored.

    Examples
    --------
    >>> dedup_key("E\ufb03cient  Filters") == dedup_key("efficient filters")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def paper_id_for(text: str) -> str:
    """A stable id from the abstract's normalised text: ``p`` + 12 hex digits of its SHA-1.

    Examples
    --------
    >>> paper_id_for("Some  Abstract") == paper_id_for("some abstract")
    True
    >>> paper_id_for("x")
    'p11f6ad8ec52a'
    """
    return "p" + hashlib.sha1(dedup_key(text).encode("utf-8")).hexdigest()[:12]


def corpus_sha256(file_hashes: Iterable[str]) -> str:
    """One SHA-256 for a set of files, independent of the order they were given in."""
    digest = hashlib.sha256()
    for file_hash in sorted(file_hashes):
        digest.update(file_hash.encode("ascii"))
    return digest.hexdigest()


def files_sha256(paths: Sequence[str | Path] | str | Path) -> str:
    """:attr:`Corpus.sha256` of the corpus at ``paths``, from the files' bytes alone (no parsing).

    Raises
    ------
    CorpusError
        When a path does not exist or a directory has no ``.txt`` files.
    """
    files, problems = expand_paths([paths] if isinstance(paths, (str, Path)) else paths)
    if problems:
        raise CorpusError(problems)
    return corpus_sha256(hashlib.sha256(path.read_bytes()).hexdigest() for path in files)


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
        ``keywords`` (the authors' keywords) and ``published_text`` (the abstract as published, where
        publisher boilerplate was left out of ``text``; else ``""``) when some paper has them.
    blocks : DataFrame
        One row per non-blank block (entry) of every file read: ``source_file, block,
        position, first_line, last_line, n_words, kind, paper_id``, plus ``key`` (the entry's
        key) when any file is bibliographic.
    files : DataFrame
        One row per input file: ``source_file, path, status`` (``ok`` or
        ``skipped``), ``header, n_blocks, sha256, problem``.
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


def directory_files(folder: Path) -> list[Path]:
    """A directory's corpus files, sorted by name: its ``*.txt`` files when it has any (the seed
    format, as always), else its bibliographic files (``*.bib``, ``*.ris``, ``*.csv``, ``*.tsv``, ``*.jsonl``).

    A folder of text abstracts may keep a CSV of metadata beside them; it is not read as abstracts.
    """
    files = sorted((p for p in folder.iterdir() if p.is_file() and corpus_suffix(p) in CORPUS_SUFFIXES),
                   key=lambda p: p.name)
    text_files = [p for p in files if corpus_suffix(p) == ".txt"]
    return text_files or files


def expand_paths(paths: Sequence[str | Path]) -> tuple[list[Path], list[str]]:
    """Turn path arguments into files: a directory means :func:`directory_files`."""
    files: list[Path] = []
    problems: list[str] = []
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = directory_files(path)
            if not found:
                problems.append(f"{path}: directory has no .txt files (nor {', '.join(RECORD_SUFFIXES)} files)")
            candidates = found
        elif path.is_file():
            candidates = [path]
        else:
            problems.append(f"{path}: no such file or directory")
            candidates = []
        for candidate in candidates:
            resolved = candidate.resolve()
            if resolved not in seen:
                seen.add(resolved)
                files.append(candidate)
    return files, problems


def decode_file(path: Path, data: bytes) -> str:
    """Decode bytes as strict UTF-8, dropping a BOM (a ``.gz`` file decompressed first); errors name line and
    byte offset."""
    if corpus_suffix(path).endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise CorpusError([f"{path}: not a gzip file ({error})"]) from None
    if not data.strip():
        raise CorpusError([f"{path}: file is empty"])
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line = data.count(b"\n", 0, offset) + 1
        raise CorpusError(
            [f"{path}: line {line}, byte {offset}: binary file (NUL byte); expected UTF-8 text"]
        )
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[bom:].decode("utf-8", errors="strict")
    except UnicodeDecodeError as error:
        offset = bom + error.start
        line = data.count(b"\n", 0, offset) + 1
        raise CorpusError(
            [
                f"{path}: line {line}, byte {offset}: invalid UTF-8 (byte 0x{data[offset]:02x});"
                " re-save the file as UTF-8"
            ]
        ) from None


def record_row(record: Record, block: int, position: object) -> dict:
    """One entry's block row, with its metadata (``paper_id`` filled later)."""
    if record.kind != "entry":
        text, n_words, kind = "", 0, record.kind
    elif record.abstract is None:
        text, n_words, kind = "", 0, "no-abstract"
    else:
        published = " ".join(normalise_text(record.abstract).split())
        cleaned = strip_boilerplate(published)
        text = cleaned.text
        n_words = len(text.split())
        kind = "abstract" if n_words >= MIN_ABSTRACT_WORDS else "too-short"
    row = dict(block=block, position=position, first_line=record.first_line, last_line=record.last_line,
               n_words=n_words, kind=kind, text=text, key=record.key, fields=dict(record.fields))
    row.update({name: getattr(record, name) for name in METADATA_COLUMNS})
    if record.keywords:
        row["keywords"] = record.keywords
    if record.notes:
        row["notes"] = record.notes
    if kind in ("abstract", "too-short") and (cleaned.sentences or cleaned.headings):
        row.update(published_text=published, boilerplate=cleaned.sentences, headings=cleaned.headings)
    return row


def _record_rows(fmt: str, text: str, source_file: str) -> tuple[str | None, list[dict]]:
    """The header and block rows of a bibliographic text in format ``fmt`` (line ends already LF); raises
    ReaderError."""
    header, records = read_records(fmt, text)
    rows, position = [], 0
    for index, record in enumerate(records, start=1):
        if record.kind == "entry":
            position += 1
        row = record_row(record, index, position if record.kind == "entry" else pd.NA)
        row["source_file"] = source_file
        rows.append(row)
    return header, rows


def parse_records_file(path: Path, source_file: str, text: str, fmt: str) -> tuple[str | None, list[dict]]:
    """Parse a bibliographic file's decoded text in format ``fmt`` (:mod:`helpers.analysis.readers`) into block
    rows."""
    try:
        header, rows = _record_rows(fmt, _NEWLINES.sub("\n", text), source_file)
    except ReaderError as error:
        raise CorpusError([f"{path}: {error}"]) from None
    if not any(row["kind"] == "abstract" for row in rows):
        entries = sum(row["kind"] != "proceedings" and row["kind"] != "other" for row in rows)
        raise CorpusError([f"{path}: has no abstracts ({entries} entries, none with an abstract of at least"
                           f" {MIN_ABSTRACT_WORDS} words)"])
    return header, rows


def _seed_rows(text: str, source_file: str, first_block_may_be_header: bool = True
               ) -> tuple[str | None, list[dict]]:
    """The header and block rows of normalised seed-format text."""
    header: str | None = None
    rows: list[dict] = []
    position = 0
    for index, (first_line, last_line, lines) in enumerate(split_blocks(text), start=1):
        if index == 1 and first_block_may_be_header and is_header(lines):
            header = lines[0]
            rows.append(
                dict(block=index, position=pd.NA, first_line=first_line, last_line=last_line,
                     n_words=len(header.split()), kind="header", text=header, source_file=source_file)
            )
            continue
        position += 1
        block_text = join_lines(lines)
        n_words = len(block_text.split())
        kind = "abstract" if n_words >= MIN_ABSTRACT_WORDS else "too-short"
        rows.append(
            dict(block=index, position=position, first_line=first_line, last_line=last_line,
                 n_words=n_words, kind=kind, text=block_text, source_file=source_file)
        )
    return header, rows


def parse_file(path: Path, source_file: str, data: bytes) -> tuple[str | None, list[dict]]:
    """Parse one file's bytes into its header and block rows (``paper_id`` filled later), in the format
    :func:`helpers.analysis.readers.file_format` decides.

    Raises
    ------
    CorpusError
        For a malformed file, a file without abstracts, or text blocks that are a tagged export.
    """
    text = decode_file(path, data)
    fmt = file_format(path, text[:4096])
    if fmt != "seed":
        return parse_records_file(path, source_file, text, fmt)
    text = normalise_text(text)
    tagged = tagged_export_name(text)
    if tagged is not None:
        raise CorpusError([f"{path}: line 1: looks like a {FORMAT_NAMES[tagged]} export, not abstracts as text"
                           " blocks; give the export as it was saved (its first line a record's first tag)"])
    header, rows = _seed_rows(text, source_file)
    if not any(row["kind"] == "abstract" for row in rows):
        if header is not None and len(rows) == 1:
            raise CorpusError([f"{path}: has a header ({header!r}) but no abstracts"])
        raise CorpusError(
            [f"{path}: has no abstracts (no block of at least {MIN_ABSTRACT_WORDS} words)"]
        )
    return header, rows


def read_piece(piece: FilePiece) -> ParsedPiece:
    """Parse one piece of a file (:func:`helpers.analysis.engine.file_pieces.split_file`) as :func:`parse_file`
    parses a whole file, numbering its blocks and lines from the piece's start.

    A byte that is not UTF-8, a NUL byte or a malformed record gives a piece with ``problem`` set and no
    rows (:func:`helpers.analysis.engine.file_pieces.join_pieces` then gives up and the file is read whole,
    which names the place).
    """
    data = piece_bytes(piece)
    if piece.start == 0 and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data:
        return ParsedPiece(None, [], 0, "NUL byte")
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return ParsedPiece(None, [], 0, "invalid UTF-8")
    del data
    fmt = file_format(piece.path, "")  # only formats known by name are read in pieces (large_files)
    if fmt == "seed":
        text = normalise_text(text)
        header, rows = _seed_rows(text, piece.name, first_block_may_be_header=piece.start == 0)
        return ParsedPiece(header, rows, text.count("\n"))
    text = _NEWLINES.sub("\n", text)
    n_lines = text.count("\n")
    if not text.strip():
        return ParsedPiece(None, [], n_lines)
    try:
        header, rows = _record_rows(fmt, text, piece.name)
    except ReaderError as error:
        return ParsedPiece(None, [], n_lines, str(error))
    return ParsedPiece(header, rows, n_lines)


def source_names(files: Sequence[Path]) -> list[str]:
    """File names as shown in tables: the base name, or the given path when names clash."""
    counts = Counter(f.name for f in files)
    return [f.as_posix() if counts[f.name] > 1 else f.name for f in files]


def read_corpus(paths: Sequence[str | Path] | str | Path, *, skip_bad: bool = False) -> Corpus:
    """Read abstracts from files and directories, each file by its extension.

    Parameters
    ----------
    paths : path or sequence of paths
        Files (``.bib``, ``.ris``, ``.csv``, ``.tsv``, ``.jsonl`` by their reader, anything else in the
        seed format), or directories whose corpus files are read in name order (:func:`directory_files`).
    skip_bad : bool, default False
        Continue with the good files when some are bad; the bad ones are listed
        in ``Corpus.files`` with status ``skipped`` and the problem.

    Returns
    -------
    Corpus

    Raises
    ------
    CorpusError
        Listing every problem found (all bad files, not only the first), each
        line naming the file; raised also with ``skip_bad`` when no file is good.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("My Header\\n\\nOne two three four five six.\\n")
    >>> corpus = read_corpus(folder)
    >>> corpus.blocks["kind"].tolist(), len(corpus.papers)
    (['header', 'abstract'], 1)
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    files, problems = expand_paths(paths)
    return assemble_corpus([read_one_file(path, name) for path, name in zip(files, source_names(files))],
                           problems, skip_bad=skip_bad)


def read_one_file(path: Path, name: str, piece_size: int | None = None) -> tuple[dict, list[dict], list[str]]:
    """One corpus file, read and parsed on its own: its ``files`` row, its block rows (with text, no
    ``paper_id`` yet) and its problems (empty when it is good). :func:`read_corpus` is
    :func:`assemble_corpus` of these, file by file in reading order (the dask engine reads them on its workers).

    A file of more than ``piece_size`` bytes (default :data:`helpers.analysis.engine.file_pieces.PIECE_BYTES`) is
    read one piece at a time (:mod:`helpers.analysis.engine.file_pieces`): the same result, without its whole bytes
    and text in memory at once.
    """
    pieces = split_file(path, name, piece_size)
    if len(pieces) > 1:
        joined = join_pieces(path, name, [read_piece(piece) for piece in pieces], file_sha256(path))
        if joined is not None:
            return joined
    return read_whole_file(path, name)


def read_whole_file(path: Path, name: str) -> tuple[dict, list[dict], list[str]]:
    """:func:`read_one_file` of a file read whole."""
    data = path.read_bytes()
    sha256 = hashlib.sha256(data).hexdigest()
    try:
        header, rows = parse_file(path, name, data)
    except CorpusError as error:
        return (dict(source_file=name, path=str(path), status="skipped", header=None,
                     n_blocks=0, sha256=sha256, problem=error.problems[0]), [], error.problems)
    return (dict(source_file=name, path=str(path), status="ok", header=header,
                 n_blocks=len(rows), sha256=sha256, problem=""), rows, [])


def assemble_corpus(parsed: Sequence[tuple[dict, list[dict], list[str]]], problems: Sequence[str] = (), *,
                    skip_bad: bool = False) -> Corpus:
    """The :class:`Corpus` of :func:`read_one_file` results in reading order (``problems``: those found before,
    such as missing paths); duplicates are found across all files.

    Raises
    ------
    CorpusError
        As :func:`read_corpus`.
    """
    problems = list(problems)
    file_rows: list[dict] = []
    block_rows: list[dict] = []
    for file_row, rows, file_problems in parsed:
        problems.extend(file_problems)
        file_rows.append(file_row)
        block_rows.extend(rows)
    ok_files = [row for row in file_rows if row["status"] == "ok"]
    if problems and (not skip_bad or not ok_files):
        if skip_bad:
            problems.append("no readable corpus file left after skipping the bad ones")
        raise CorpusError(problems)

    # Every row of a bibliographic file (any format but the seed's) carries its entry's key.
    with_records = any("key" in row for row in block_rows)
    merges: list[dict] = []
    papers = _papers_from_blocks(block_rows, with_records, merges)
    block_columns = BLOCK_COLUMNS + (["key"] if with_records else [])
    blocks = pd.DataFrame(block_rows, columns=block_columns)
    blocks["position"] = blocks["position"].astype("Int64")
    if with_records:
        blocks["key"] = blocks["key"].fillna("").astype(str)
    files_table = pd.DataFrame(file_rows, columns=FILE_COLUMNS)
    return Corpus(papers=papers, blocks=blocks, files=files_table, problems=problems,
                  fields=_paper_fields(block_rows), merges=pd.DataFrame(merges, columns=MERGE_COLUMNS),
                  cleaning=_cleaning_counts(block_rows, merges))


def _cleaning_counts(block_rows: list[dict], merges: list[dict]) -> pd.DataFrame:
    """Per file, the :data:`CLEANING_COLUMNS` counts; an empty table when every count is 0."""
    counts: dict[str, dict[str, int]] = {}

    def add(source_file: str, name: str, value: int) -> None:
        if value:
            per_file = counts.setdefault(source_file, dict.fromkeys(CLEANING_COLUMNS, 0))
            per_file[name] += value

    for row in block_rows:
        add(row["source_file"], "boilerplate_sentences", row.get("boilerplate", 0))
        add(row["source_file"], "structured_headings", row.get("headings", 0))
        add(row["source_file"], "extra_fields", int("extra-field" in row.get("notes", ())))
    for merge in merges:  # the same abstract twice is already a "duplicate" block: only the records that differ
        if merge["matched_by"] != "same abstract":
            add(merge["merged"].rsplit(":", 1)[0], "merged_records", 1)
    table = pd.DataFrame([dict(source_file=name, **values) for name, values in counts.items()],
                         columns=["source_file", *CLEANING_COLUMNS])
    return table.astype({name: "int64" for name in CLEANING_COLUMNS})


def _paper_fields(block_rows: list[dict]) -> pd.DataFrame:
    """``paper_id`` and each other field name of the papers' entries (first occurrence), as text."""
    rows = [dict(row["fields"], paper_id=row["paper_id"]) for row in block_rows
            if row["kind"] == "abstract" and row.get("fields")]
    if not rows:
        return pd.DataFrame({"paper_id": pd.Series(dtype=str)})
    table = pd.DataFrame(rows)
    columns = ["paper_id"] + sorted(c for c in table.columns if c != "paper_id")
    return table[columns].fillna("").astype(str)


def abstract_facts(text: str) -> dict[str, object]:
    """What the papers table records of an abstract's text: ``paper_id`` (:func:`paper_id_for`), ``dedup_sha1``
    (the SHA-1 of its :func:`dedup_key`, which duplicates share), ``n_chars``, ``has_latex``, ``has_markdown``
    and ``text_sha1`` (of the text as written).

    Examples
    --------
    >>> facts = abstract_facts("Some  Abstract with $x$")
    >>> facts["paper_id"] == paper_id_for("some abstract with $x$"), facts["n_chars"], facts["has_latex"]
    (True, 23, True)
    """
    digest = hashlib.sha1(dedup_key(text).encode("utf-8")).hexdigest()
    return dict(paper_id="p" + digest[:12], dedup_sha1=digest, n_chars=len(text), has_latex=_has_latex(text),
                has_markdown=_has_markdown(text), text_sha1=hashlib.sha1(text.encode("utf-8")).hexdigest())


def light_rows(rows: Sequence[dict]) -> list[dict]:
    """Block rows without their texts: each abstract block carries its :func:`abstract_facts` and
    ``opening`` (:func:`helpers.analysis.metadata.short_text`) instead, which is all
    :func:`assemble_corpus` needs (the dask engine's workers keep the texts).

    Examples
    --------
    >>> rows = light_rows([dict(kind="abstract", text="One two three.")])
    >>> "text" in rows[0], rows[0]["facts"]["n_chars"], rows[0]["facts"]["opening"]
    (False, 14, 'One two three.')
    """
    from helpers.analysis.metadata import short_text

    light = []
    for row in rows:
        row = dict(row)
        text = row.pop("text", "")
        if row["kind"] == "abstract":
            row["facts"] = dict(abstract_facts(text), opening=short_text(text))
        light.append(row)
    return light


def without_texts(parsed: tuple[dict, list[dict], list[str]]) -> tuple[dict, list[dict], list[str]]:
    """A :func:`read_one_file` result with :func:`light_rows`."""
    file_row, rows, problems = parsed
    return file_row, light_rows(rows), problems


def light_piece(piece: ParsedPiece) -> ParsedPiece:
    """A :func:`read_piece` result with :func:`light_rows`."""
    return replace(piece, rows=light_rows(piece.rows))


def _richness(row: dict) -> tuple[int, int]:
    """How much a record tells: its metadata fields that are filled, then its abstract's words."""
    filled = sum(bool(row.get(name)) and not pd.isna(row.get(name)) for name in (*METADATA_COLUMNS, "keywords"))
    return filled, int(row.get("n_words") or 0)


def _identity_keys(row: dict) -> tuple[str, str]:
    """A record's normalised DOI and its title-and-year key (``""`` without either)."""
    doi = normalise_doi(row.get("doi"))
    title, year = title_key(row.get("title")), row.get("year")
    has_year = year is not None and not pd.isna(year)
    return doi, (f"{title}|{int(year)}" if title and has_year and len(title.split()) >= 3 else "")


def _paper_row(row: dict, facts: dict, location: str, with_metadata: bool) -> dict:
    """A paper of the papers table from its abstract block and the block's :func:`abstract_facts`."""
    paper = dict(
        paper_id=facts["paper_id"],
        source_file=row["source_file"],
        position=row["position"],
        text=row.get("text"),
        n_words=row["n_words"],
        n_chars=facts["n_chars"],
        has_latex=facts["has_latex"],
        has_markdown=facts["has_markdown"],
        occurrences=1,
        locations=location,
        text_sha1=facts["text_sha1"],
        opening=facts.get("opening"),
    )
    if with_metadata:
        paper.update({name: row.get(name) for name in METADATA_COLUMNS})
        paper.update(keywords=row.get("keywords", ""), published_text=row.get("published_text", ""))
    return paper


def _papers_from_blocks(block_rows: list[dict], with_metadata: bool = False,
                        merges: list[dict] | None = None) -> pd.DataFrame:
    """Assign ``paper_id`` to abstract blocks, marking later copies as duplicates.

    A copy is a block with the same text (:func:`dedup_key`), or, in bibliographic files, a record with
    the same normalised DOI, or the same normalised title and year where one of them has no DOI. A text block
    keeps the first; of two records of a bibliographic file the richer (:func:`_richness`; the first when
    they tie) is the paper, in its own place in the order. Each record of a bibliographic file merged into
    another is listed in ``merges`` (:data:`MERGE_COLUMNS`; ``matched_by`` ``same abstract``, ``doi`` or
    ``title and year``).

    ``with_metadata`` adds :data:`METADATA_COLUMNS` (empty for papers of seed-format files), and ``keywords``
    and ``published_text`` when some paper has them. Blocks of :func:`without_texts` give a table without
    ``text`` and with ``opening`` (last).
    """
    papers: dict[str, dict] = {}
    dedup: dict[str, str] = {}
    members: dict[str, list[dict]] = {}  # each paper's block rows, the paper's own first
    by_doi: dict[str, str] = {}
    by_title: dict[str, str] = {}
    alias: dict[str, str] = {}  # a paper replaced by a richer record: its id to the record's
    with_texts = True
    merges = [] if merges is None else merges

    def resolve(paper_id: str) -> str:
        while paper_id in alias:
            paper_id = alias[paper_id]
        return paper_id

    for row in block_rows:
        if row["kind"] not in ("abstract",):
            row["paper_id"] = None
            continue
        facts = row.get("facts")
        if facts is None:
            facts = abstract_facts(row["text"])
        else:
            with_texts = False
        paper_id = facts["paper_id"]
        row["paper_id"] = paper_id
        location = f"{row['source_file']}:{row['position']}"
        is_record = "key" in row  # a record of a bibliographic file (the seed format has no keys)
        doi, title = _identity_keys(row) if with_metadata and is_record else ("", "")
        match, matched_by = None, ""
        if paper_id in papers or paper_id in alias:
            if dedup[paper_id] != facts["dedup_sha1"]:
                raise CorpusError(
                    [f"{row['source_file']}: block {row['block']}: paper id {paper_id} collides"
                     f" with {papers[resolve(paper_id)]['locations']}; please report this"]
                )
            match, matched_by = resolve(paper_id), "same abstract"
        elif doi and doi in by_doi:
            match, matched_by = resolve(by_doi[doi]), "doi"
        elif title and title in by_title:
            candidate = resolve(by_title[title])
            if not doi or not papers[candidate].get("doi"):
                match, matched_by = candidate, "title and year"
        if match is None:
            dedup[paper_id] = facts["dedup_sha1"]
            papers[paper_id] = _paper_row(row, facts, location, with_metadata)
            members[paper_id] = [row]
        else:
            existing, kept_row = papers[match], members[match][0]
            kept_location = f"{kept_row['source_file']}:{kept_row['position']}"
            if is_record and _richness(row) > _richness(kept_row):  # the new record is the paper, at its own place
                old_members = members.pop(match)
                del papers[match]
                for member in old_members:
                    member["kind"], member["paper_id"] = "duplicate", paper_id
                paper = _paper_row(row, facts, location, with_metadata)
                paper["occurrences"] = existing["occurrences"] + 1
                paper["locations"] = existing["locations"] + "; " + location
                papers[paper_id], dedup[paper_id], members[paper_id] = paper, facts["dedup_sha1"], [row, *old_members]
                if paper_id != match:
                    alias[match] = paper_id
                merges.append(dict(paper_id=paper_id, kept=location, merged=kept_location, matched_by=matched_by))
            else:
                row["kind"], row["paper_id"] = "duplicate", match
                existing["occurrences"] += 1
                existing["locations"] += "; " + location
                members[match].append(row)
                if is_record:
                    merges.append(dict(paper_id=match, kept=kept_location, merged=location, matched_by=matched_by))
                paper_id = match
        for key, key_map in ((doi, by_doi), (title, by_title)):
            if key and key not in key_map:
                key_map[key] = paper_id
    for merge in merges:  # a paper replaced by a richer record later on is that record's paper
        merge["paper_id"] = resolve(merge["paper_id"])
    extra = []
    if with_metadata:
        extra = [name for name in ("keywords", "published_text") if any(p[name] for p in papers.values())]
    columns = PAPER_COLUMNS + (METADATA_COLUMNS + extra if with_metadata else [])
    if not with_texts:
        columns = [c for c in columns if c != "text"] + ["opening"]
    table = pd.DataFrame(list(papers.values()), columns=columns)
    table = table.astype({"position": "int64", "n_words": "int64", "n_chars": "int64",
                          "occurrences": "int64", "has_latex": bool, "has_markdown": bool})
    if with_metadata:
        for name in METADATA_COLUMNS + extra:
            if name == "year":
                table[name] = pd.array([pd.NA if v is None or pd.isna(v) else int(v) for v in table[name]],
                                       dtype="Int64")
            else:
                table[name] = table[name].fillna("").astype(str)
    return table


def parse_report(corpus: Corpus) -> pd.DataFrame:
    """One row per file (plus a total row): how many blocks of each kind it holds.

    The ``blocks`` column equals the sum of the kind columns, so every block of
    every file is accounted for; skipped files appear with their problem. The kinds of
    bibliographic files (:data:`RECORD_KINDS`) have a column when some block has that kind, and so do the
    counts of :attr:`Corpus.cleaning` (:data:`CLEANING_COLUMNS`: publisher sentences and structured-abstract
    headings left out of the analysed texts, rows with an extra field, records merged into another paper)
    when some file has one.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("Header\\n\\nOne two three four five.\\n\\nToo short.\\n")
    >>> parse_report(read_corpus(folder))[["source_file", "blocks", "abstract", "too-short"]]
      source_file  blocks  abstract  too-short
    0       a.txt       3         1          1
    1       total       3         1          1
    """
    present = set(corpus.blocks["kind"])
    kind_columns = list(BLOCK_KINDS) + [kind for kind in RECORD_KINDS if kind in present]
    counts = (
        corpus.blocks.groupby(["source_file", "kind"]).size().unstack("kind", fill_value=0)
        .reindex(columns=kind_columns, fill_value=0)
    )
    files = corpus.files.rename(columns={"header": "file_header"})
    report = files[["source_file", "status", "file_header", "problem"]].merge(
        counts, left_on="source_file", right_index=True, how="left"
    )
    report[kind_columns] = report[kind_columns].fillna(0).astype("int64")
    report.insert(4, "blocks", report[kind_columns].sum(axis=1))
    total = {column: int(report[column].sum()) for column in ["blocks", *kind_columns]}
    total.update(source_file="total", status="", file_header="", problem="")
    report = pd.concat([report, pd.DataFrame([total])], ignore_index=True)
    report["file_header"] = report["file_header"].fillna("(none)")
    # What was left out of the analysed texts, tolerated or merged, per file: a column for each count not 0.
    cleaning = [name for name in CLEANING_COLUMNS if len(corpus.cleaning) and int(corpus.cleaning[name].sum())]
    if cleaning:
        per_file = corpus.cleaning.set_index("source_file")[cleaning]
        report = report.merge(per_file, left_on="source_file", right_index=True, how="left")
        report[cleaning] = report[cleaning].fillna(0).astype("int64")
        report.loc[report["source_file"] == "total", cleaning] = [int(per_file[name].sum()) for name in cleaning]
    return report[["source_file", "status", "file_header", "blocks", *kind_columns, *cleaning, "problem"]]


def papers_per_header(corpus: Corpus) -> pd.DataFrame:
    """Unique papers by file header (files without a header count under ``(none)``)."""
    headers = {name: header or "(none)" for name, header in corpus.headers.items()}
    table = corpus.papers.assign(header=corpus.papers["source_file"].map(headers))
    return (
        table.groupby("header").agg(files=("source_file", "nunique"), papers=("paper_id", "size"))
        .reset_index().sort_values(["papers", "header"], ascending=[False, True], ignore_index=True)
    )
