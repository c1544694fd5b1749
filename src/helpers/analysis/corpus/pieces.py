"""One corpus file read on its own, whole or in pieces (:mod:`helpers.analysis.engine.file_pieces`), and the
light rows a worker sends instead of the texts."""

from __future__ import annotations

import gzip
import hashlib
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Iterator, Sequence

from helpers.analysis.corpus.decoding import parse_file, record_rows, seed_rows
from helpers.analysis.corpus.files import not_a_file, read_file_bytes, unreadable
from helpers.analysis.corpus.hashes import abstract_facts
from helpers.analysis.text.normalise import NEWLINES, normalise_text
from helpers.analysis.corpus.tables import CorpusError
from helpers.analysis.engine.file_pieces import (FilePiece, ParsedPiece, file_sha256, join_pieces,
                                                piece_bytes, split_file)
from helpers.analysis.readers import ReaderError, corpus_suffix, file_format

__all__ = ["read_piece", "parse_piece", "gzip_pieces", "read_one_file", "read_whole_file", "light_rows",
           "without_texts", "light_piece"]

def read_piece(piece: FilePiece) -> ParsedPiece:
    """Parse one piece of a file (:func:`helpers.analysis.engine.file_pieces.split_file`) as :func:`parse_file`
    parses a whole file, numbering its blocks and lines from the piece's start.

    A byte that is not UTF-8, a NUL byte or a malformed record gives a piece with ``problem`` set and no
    rows (:func:`helpers.analysis.engine.file_pieces.join_pieces` then gives up and the file is read whole,
    which names the place).
    """
    return parse_piece(piece.path, piece.name, piece_bytes(piece), first=piece.start == 0)


def parse_piece(path: Path, name: str, data: bytes, *, first: bool) -> ParsedPiece:
    """:func:`read_piece` of a piece's bytes ``data`` (``first``: the file's first piece) of the file ``path``
    (shown as ``name``)."""
    if first and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data:
        return ParsedPiece(None, [], 0, "NUL byte")
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return ParsedPiece(None, [], 0, "invalid UTF-8")
    del data
    fmt = file_format(path, "")  # only formats known by name are read in pieces (large_files)
    if fmt == "seed":
        text = normalise_text(text)
        header, rows = seed_rows(text, name, first_block_may_be_header=first)
        return ParsedPiece(header, rows, text.count("\n"))
    text = NEWLINES.sub("\n", text)
    n_lines = text.count("\n")
    if not text.strip():
        return ParsedPiece(None, [], n_lines)
    try:
        header, rows = record_rows(fmt, text, name)
    except ReaderError as error:
        return ParsedPiece(None, [], n_lines, str(error))
    return ParsedPiece(header, rows, n_lines)



def gzip_pieces(path: Path, piece_size: int) -> Iterator[bytes]:
    """The decompressed bytes of the gzip file ``path`` in pieces of about ``piece_size`` bytes, each ending at a
    line end (the last at the file's end): never more than one piece and one line in memory.

    Raises
    ------
    OSError, EOFError, zlib.error
        When the file is not gzip or ends early (read whole, its problem is named).

    Examples
    --------
    >>> import gzip, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.jsonl.gz"
    >>> _ = path.write_bytes(gzip.compress(b"one\\ntwo\\nthree"))
    >>> list(gzip_pieces(path, 5))
    [b'one\\n', b'two\\n', b'three']
    """
    with gzip.open(path, "rb") as stream:
        parts: list[bytes] = []  # what the next piece starts with (a line longer than a piece: all of its parts)
        size = 0
        while chunk := stream.read(piece_size):
            cut = chunk.rfind(b"\n") + 1
            if cut == 0 or size + len(chunk) < piece_size:  # a piece ends at a line end, piece_size bytes or more
                parts.append(chunk)
                size += len(chunk)
                continue
            piece = b"".join([*parts, chunk[:cut]])
            parts, size = [chunk[cut:]], len(chunk) - cut
            del chunk
            yield piece
        if size:
            yield b"".join(parts)


#: The decompressed bytes of a ``.jsonl.gz`` parsed at a time: smaller than a plain file's pieces
#: (:data:`helpers.analysis.engine.file_pieces.PIECE_BYTES`), so that decompressing adds no memory to parsing.
GZIP_PIECE_BYTES = 8 * 2**20


def _read_gzip_lines(path: Path, name: str, piece_size: int) -> tuple[dict, list[dict], list[str]] | None:
    """A ``.jsonl.gz`` file decompressed and parsed one piece at a time (:func:`gzip_pieces`); ``None`` when it
    must be read whole (one piece only, or a piece that cannot be parsed on its own, or no gzip)."""
    pieces: list[ParsedPiece] = []
    try:
        for data in gzip_pieces(path, piece_size):
            pieces.append(parse_piece(path, name, data, first=not pieces))
            del data
            if pieces[-1].problem:
                return None
    except (OSError, EOFError, zlib.error):
        return None
    if len(pieces) < 2:
        return None
    return join_pieces(path, name, pieces, file_sha256(path))


def read_one_file(path: Path, name: str, piece_size: int | None = None) -> tuple[dict, list[dict], list[str]]:
    """One corpus file, read and parsed on its own: its ``files`` row, its block rows (with text, no
    ``paper_id`` yet) and its problems (empty when it is good). :func:`read_corpus` is
    :func:`assemble_corpus` of these, file by file in reading order (the dask engine reads them on its workers).

    A file of more than ``piece_size`` bytes (default :data:`helpers.analysis.engine.file_pieces.PIECE_BYTES`) is
    read one piece at a time (:mod:`helpers.analysis.engine.file_pieces`): the same result, without its whole bytes
    and text in memory at once. A ``.jsonl.gz`` file is decompressed one piece at a time (:func:`gzip_pieces`),
    so that its memory is that of the same file uncompressed. A FIFO, a device or a file that cannot be read is
    skipped with its problem, never opened.
    """
    if not_a_file(path) or unreadable(path):
        return read_whole_file(path, name)
    if corpus_suffix(path) == ".jsonl.gz":
        streamed = _read_gzip_lines(path, name, piece_size or GZIP_PIECE_BYTES)
        if streamed is not None:
            return streamed
        return read_whole_file(path, name)
    pieces = split_file(path, name, piece_size)
    if len(pieces) > 1:
        joined = join_pieces(path, name, [read_piece(piece) for piece in pieces], file_sha256(path))
        if joined is not None:
            return joined
    return read_whole_file(path, name)


def read_whole_file(path: Path, name: str) -> tuple[dict, list[dict], list[str]]:
    """:func:`read_one_file` of a file read whole; a FIFO, a device or a file that cannot be read is skipped
    (``sha256`` empty), its problem named."""
    try:
        data = read_file_bytes(path)
    except CorpusError as error:
        return (dict(source_file=name, path=str(path), status="skipped", header=None,
                     n_blocks=0, sha256="", problem=error.problems[0]), [], error.problems)
    sha256 = hashlib.sha256(data).hexdigest()
    try:
        header, rows = parse_file(path, name, data)
    except CorpusError as error:
        return (dict(source_file=name, path=str(path), status="skipped", header=None,
                     n_blocks=0, sha256=sha256, problem=error.problems[0]), [], error.problems)
    return (dict(source_file=name, path=str(path), status="ok", header=header,
                 n_blocks=len(rows), sha256=sha256, problem=""), rows, [])


def light_rows(rows: Sequence[dict]) -> list[dict]:
    """Block rows without their texts: each abstract block carries its :func:`abstract_facts` and
    ``opening`` (:func:`helpers.analysis.corpus.titles.short_text`) instead, which is all
    :func:`assemble_corpus` needs (the dask engine's workers keep the texts).

    Examples
    --------
    >>> rows = light_rows([dict(kind="abstract", text="One two three.")])
    >>> "text" in rows[0], rows[0]["facts"]["n_chars"], rows[0]["facts"]["opening"]
    (False, 14, 'One two three.')
    """
    from helpers.analysis.corpus.titles import short_text

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
