"""One file's bytes into its header and block rows: decoded as UTF-8, read by its format's reader."""

from __future__ import annotations

import gzip
from pathlib import Path

import pandas as pd

from helpers.analysis.corpus.normalise import NEWLINES, normalise_text
from helpers.analysis.corpus.tables import METADATA_COLUMNS, MIN_ABSTRACT_WORDS, CorpusError
from helpers.analysis.readers import (FORMAT_NAMES, Record, ReaderError, corpus_suffix, file_format, read_records,
                                      tagged_export_name)
from helpers.analysis.readers.boilerplate import strip_boilerplate
from helpers.analysis.readers.front_matter import is_proceedings_record
from helpers.analysis.readers.seed import is_header, join_lines, split_blocks

__all__ = ["decode_file", "record_row", "record_rows", "parse_records_file", "seed_rows", "parse_file"]

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
    """One entry's block row, with its metadata (``paper_id`` filled later).

    An entry whose abstract is only publisher boilerplate is a ``boilerplate-only`` block (its ``n_words`` those
    of the abstract as published), a proceedings volume's own record a ``proceedings`` block
    (:func:`is_proceedings_record`); neither is analysed.
    """
    published = " ".join(normalise_text(record.abstract).split()) if record.abstract is not None else ""
    if record.kind != "entry":
        text, n_words, kind = "", 0, record.kind
    elif not published:
        text, n_words, kind = "", 0, "no-abstract"
    elif is_proceedings_record(record.title, published):
        text, n_words, kind = "", len(published.split()), "proceedings"
    else:
        cleaned = strip_boilerplate(published)
        text = cleaned.text
        n_words = len(text.split())
        kind = "abstract" if n_words >= MIN_ABSTRACT_WORDS else "too-short"
        if not n_words:  # nothing but the publisher's statement: not a 0-word abstract
            n_words, kind = len(published.split()), "boilerplate-only"
    row = dict(block=block, position=position, first_line=record.first_line, last_line=record.last_line,
               n_words=n_words, kind=kind, text=text, key=record.key, fields=dict(record.fields))
    row.update({name: getattr(record, name) for name in METADATA_COLUMNS})
    if record.keywords:
        row["keywords"] = record.keywords
    if record.subjects:
        row["subjects"] = record.subjects
    if record.notes:
        row["notes"] = record.notes
    if kind in ("abstract", "too-short", "boilerplate-only") and (cleaned.sentences or cleaned.headings):
        row.update(published_text=published, boilerplate=cleaned.sentences, headings=cleaned.headings)
    return row


def record_rows(fmt: str, text: str, source_file: str) -> tuple[str | None, list[dict]]:
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
        header, rows = record_rows(fmt, NEWLINES.sub("\n", text), source_file)
    except ReaderError as error:
        raise CorpusError([f"{path}: {error}"]) from None
    if not any(row["kind"] == "abstract" for row in rows):
        entries = sum(row["kind"] not in ("proceedings", "other") for row in rows)
        raise CorpusError([f"{path}: has no abstracts ({entries} entries, none with an abstract of at least"
                           f" {MIN_ABSTRACT_WORDS} words)"])
    return header, rows


def seed_rows(text: str, source_file: str, first_block_may_be_header: bool = True
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
    header, rows = seed_rows(text, source_file)
    if not any(row["kind"] == "abstract" for row in rows):
        if header is not None and len(rows) == 1:
            raise CorpusError([f"{path}: has a header ({header!r}) but no abstracts"])
        raise CorpusError(
            [f"{path}: has no abstracts (no block of at least {MIN_ABSTRACT_WORDS} words)"]
        )
    return header, rows
