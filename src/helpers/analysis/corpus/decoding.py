"""One file's bytes into its header and block rows: decoded as UTF-8, read by its format's reader.

The one place where bytes become rows, so that every format gives the same block rows (a kind per block, the
lines it came from) and every bad byte or malformed record is one error naming the file and line.
"""

from __future__ import annotations

import gzip
import io
import zlib
from pathlib import Path

import pandas as pd

from helpers.analysis.text.normalise import NEWLINES, normalise_text
from helpers.analysis.corpus.tables import METADATA_COLUMNS, MIN_ABSTRACT_WORDS, CorpusError
from helpers.analysis.errors import shown_name
from helpers.analysis.readers import (FORMAT_NAMES, Record, ReaderError, corpus_suffix, file_format, read_records,
                                      tagged_export_name)
from helpers.analysis.readers.boilerplate import strip_boilerplate
from helpers.analysis.readers.front_matter import is_proceedings_record
from helpers.analysis.readers.seed import is_header, join_lines, split_blocks

__all__ = ["decode_file", "record_row", "parse_records_file", "parse_file"]

#: The most a gzip file read whole expands to (a ``.json.gz``, or a ``.jsonl.gz`` read whole to name its problem);
#: a larger one is refused (a ``.jsonl.gz`` is otherwise decompressed one piece at a time).
GZIP_WHOLE_BYTES = 512 * 2**20
_GZIP_READ_BYTES = 2**24
#: Byte order marks of the encodings a corpus file is not in, longest first.
_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
              (b"\xfe\xff", "UTF-16"))


def gunzip(path: Path, data: bytes | bytearray, limit: int = GZIP_WHOLE_BYTES) -> bytes | bytearray:
    """The bytes a gzip file's ``data`` expand to, at most ``limit`` of them.

    Raises
    ------
    CorpusError
        When ``data`` is not gzip (or ends early), or expands to more than ``limit`` bytes.

    Examples
    --------
    >>> bytes(gunzip(Path("a.json.gz"), gzip.compress(b"[]")))
    b'[]'
    >>> gunzip(Path("b.json.gz"), gzip.compress(b" " * 2048), limit=1024)
    Traceback (most recent call last):
    ...
    helpers.analysis.errors.CorpusError: b.json.gz: expands to more than 1 KiB, the most a compressed file is read whole; decompress it (gunzip) and give the file itself
    """
    expanded = bytearray()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            while chunk := stream.read(_GZIP_READ_BYTES):
                expanded += chunk
                if len(expanded) > limit:
                    size = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 2**10} KiB"
                    raise CorpusError([f"{shown_name(path)}: expands to more than {size}, the most a compressed"
                                       " file is read whole; decompress it (gunzip) and give the file itself"])
    except (OSError, EOFError, zlib.error) as error:
        raise CorpusError([f"{shown_name(path)}: not a gzip file ({error})"]) from None
    return expanded


def wide_encoding(data: bytes | bytearray) -> str | None:
    """``UTF-16`` or ``UTF-32`` when ``data`` starts with that encoding's byte order mark, or (UTF-16 without one)
    when its first bytes alternate NUL and text; else ``None``.

    Examples
    --------
    >>> wide_encoding("Title\\n\\nText.".encode("utf-16")), wide_encoding("Title".encode("utf-16-be"))
    ('UTF-16', 'UTF-16')
    >>> wide_encoding("Title".encode("utf-32")), wide_encoding(b"Title"), wide_encoding(b"a\\x00b")
    ('UTF-32', None, None)
    """
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            return name
    head = bytes(data[:512])
    even, odd = head[0::2], head[1::2]
    if len(odd) >= 2 and (odd.count(0) == len(odd)) != (even.count(0) == len(even)):
        return "UTF-16"
    return None


def decode_file(path: Path, data: bytes | bytearray) -> str:
    """Decode bytes as strict UTF-8, dropping a BOM (a ``.gz`` file decompressed first, :func:`gunzip`).

    Parameters
    ----------
    path : Path
        The file the bytes came from (its name is in errors; a ``.gz`` suffix decompresses them).
    data : bytes or bytearray
        The file's bytes.

    Returns
    -------
    str

    Raises
    ------
    CorpusError
        An empty file, a NUL byte, a UTF-16 or UTF-32 file (named as such) or a byte that is not UTF-8, with
        its line and byte offset.

    Examples
    --------
    >>> from pathlib import Path
    >>> decode_file(Path("a.txt"), b"\\xef\\xbb\\xbfBroiler growth")
    'Broiler growth'
    >>> try:
    ...     decode_file(Path("a.txt"), b"ok\\n\\xff")
    ... except CorpusError as error:
    ...     print(error.problems)
    ['a.txt: line 2, byte 3: invalid UTF-8 (byte 0xff); re-save the file as UTF-8']
    """
    if corpus_suffix(path).endswith(".gz"):
        data = gunzip(path, data)
    if not data or data.isspace():  # strip() would copy the bytes
        raise CorpusError([f"{shown_name(path)}: file is empty"])
    wide = wide_encoding(data)
    if wide is not None:
        raise CorpusError([f"{shown_name(path)}: line 1: {wide} text: save as UTF-8"])
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line = data.count(b"\n", 0, offset) + 1
        raise CorpusError(
            [f"{shown_name(path)}: line {line}, byte {offset}: binary file (NUL byte); expected UTF-8 text"]
        )
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return (data[bom:] if bom else data).decode("utf-8", errors="strict")
    except UnicodeDecodeError as error:
        offset = bom + error.start
        line = data.count(b"\n", 0, offset) + 1
        raise CorpusError(
            [
                f"{shown_name(path)}: line {line}, byte {offset}: invalid UTF-8 (byte 0x{data[offset]:02x});"
                " re-save the file as UTF-8"
            ]
        ) from None


def record_row(record: Record, block: int, position: object) -> dict:
    """One entry's block row, with its metadata (``paper_id`` filled later).

    An entry whose abstract is only publisher boilerplate is a ``boilerplate-only`` block (its ``n_words`` those
    of the abstract as published), a proceedings volume's own record a ``proceedings`` block
    (:func:`is_proceedings_record`); neither is analysed.

    Parameters
    ----------
    record : Record
        The entry as its reader gives it.
    block : int
        Its number in the file (1 for the first entry).
    position : int or NA
        Its number among the file's entries (``pd.NA`` for a record that is no entry).

    Returns
    -------
    dict
        The block row: ``block, position, first_line, last_line, n_words, kind, text, key, fields`` and the
        metadata columns.

    Examples
    --------
    >>> from helpers.analysis.readers import Record
    >>> row = record_row(Record(1, 3, "Hens given more light laid heavier eggs in winter."), 1, 1)
    >>> row["kind"], row["n_words"], row["first_line"], row["last_line"]
    ('abstract', 9, 1, 3)
    >>> record_row(Record(4, 4, None), 2, 2)["kind"]
    'no-abstract'
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
    """Parse a bibliographic file's decoded text into its header and block rows.

    Parameters
    ----------
    path : Path
        The file (named in errors).
    source_file : str
        The file's name as tables show it.
    text : str
        Its decoded text.
    fmt : str
        Its format (a reader of :mod:`helpers.analysis.readers`).

    Returns
    -------
    tuple of (str or None, list of dict)
        The header and the block rows.

    Raises
    ------
    CorpusError
        A malformed record, or no entry with an abstract.

    Examples
    --------
    >>> from pathlib import Path
    >>> text = "TY  - JOUR\\nTI  - Junction safety\\nAB  - Speed cameras cut crashes at rural junctions.\\nER  - \\n"
    >>> header, rows = parse_records_file(Path("a.ris"), "a.ris", text, "ris")
    >>> [(row["kind"], row["title"]) for row in rows]
    [('abstract', 'Junction safety')]
    """
    try:
        header, rows = record_rows(fmt, NEWLINES.sub("\n", text), source_file)
    except ReaderError as error:
        raise CorpusError([f"{shown_name(path)}: {error}"]) from None
    if not any(row["kind"] == "abstract" for row in rows):
        entries = sum(row["kind"] not in ("proceedings", "other") for row in rows)
        raise CorpusError([f"{shown_name(path)}: has no abstracts ({entries} entries, none with an abstract of at least"
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


def parse_file(path: Path, source_file: str, data: bytes | bytearray) -> tuple[str | None, list[dict]]:
    """Parse one file's bytes into its header and block rows (``paper_id`` filled later), in the format
    :func:`helpers.analysis.readers.file_format` decides.

    Parameters
    ----------
    path : Path
        The file (its extension and first line decide the format; its name is in errors).
    source_file : str
        The file's name as tables show it.
    data : bytes or bytearray
        The file's bytes.

    Returns
    -------
    tuple of (str or None, list of dict)
        The header (``None`` without one) and the block rows.

    Raises
    ------
    CorpusError
        For a malformed file, a file without abstracts, or text blocks that are a tagged export.

    Examples
    --------
    >>> from pathlib import Path
    >>> header, rows = parse_file(Path("a.txt"), "a.txt", b"Poultry 2024\\n\\nLight and feed shape egg weight.\\n")
    >>> header, [row["kind"] for row in rows]
    ('Poultry 2024', ['header', 'abstract'])
    """
    text = decode_file(path, data)
    fmt = file_format(path, text[:4096])
    if fmt != "seed":
        return parse_records_file(path, source_file, text, fmt)
    text = normalise_text(text)
    tagged = tagged_export_name(text)
    if tagged is not None:
        raise CorpusError([f"{shown_name(path)}: line 1: looks like a {FORMAT_NAMES[tagged]} export, not abstracts as text"
                           " blocks; give the export as it was saved (its first line a record's first tag)"])
    header, rows = seed_rows(text, source_file)
    if not any(row["kind"] == "abstract" for row in rows):
        if header is not None and len(rows) == 1:
            raise CorpusError([f"{shown_name(path)}: has a header ({header!r}) but no abstracts"])
        raise CorpusError(
            [f"{shown_name(path)}: has no abstracts (no block of at least {MIN_ABSTRACT_WORDS} words)"]
        )
    return header, rows
