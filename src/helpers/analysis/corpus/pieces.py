"""One corpus file read on its own, whole or in pieces (:mod:`helpers.analysis.engine.file_pieces`), and the
light rows a worker sends instead of the texts."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from helpers.analysis.corpus.decoding import parse_file, record_rows, seed_rows
from helpers.analysis.corpus.hashes import abstract_facts
from helpers.analysis.corpus.normalise import NEWLINES, normalise_text
from helpers.analysis.corpus.tables import CorpusError
from helpers.analysis.engine.file_pieces import (FilePiece, ParsedPiece, file_sha256, join_pieces, piece_bytes,
                                                split_file)
from helpers.analysis.readers import ReaderError, file_format

__all__ = ["read_piece", "read_one_file", "read_whole_file", "light_rows", "without_texts", "light_piece"]

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
        header, rows = seed_rows(text, piece.name, first_block_may_be_header=piece.start == 0)
        return ParsedPiece(header, rows, text.count("\n"))
    text = NEWLINES.sub("\n", text)
    n_lines = text.count("\n")
    if not text.strip():
        return ParsedPiece(None, [], n_lines)
    try:
        header, rows = record_rows(fmt, text, piece.name)
    except ReaderError as error:
        return ParsedPiece(None, [], n_lines, str(error))
    return ParsedPiece(header, rows, n_lines)



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
