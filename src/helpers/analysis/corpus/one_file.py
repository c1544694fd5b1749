"""One corpus file read on its own, whole or in pieces, and the light rows a worker sends instead of the texts.

Each file is one task (or one task a piece, :mod:`helpers.analysis.corpus.file_pieces`) so that a run can read
files on several processes or a cluster's workers and still give the tables of one file read after the other:
:func:`helpers.analysis.corpus.assemble_corpus` joins the results in reading order. A worker that keeps the
texts sends only their facts (:func:`light_rows`).
"""

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
from helpers.analysis.corpus.file_pieces import (FilePiece, ParsedPiece, file_sha256, join_pieces,
                                                piece_bytes, split_file)
from helpers.analysis.readers import ReaderError, corpus_suffix, file_format

__all__ = ["read_one_file", "read_whole_file", "read_piece", "light_rows", "without_texts", "light_piece"]

def read_piece(piece: FilePiece) -> ParsedPiece:
    """Parse one piece of a file as :func:`parse_file` parses a whole file, numbering its blocks and lines from
    the piece's start.

    A byte that is not UTF-8, a NUL byte or a malformed record gives a piece with ``problem`` set and no
    rows (:func:`helpers.analysis.corpus.file_pieces.join_pieces` then gives up and the file is read whole,
    which names the place).

    Parameters
    ----------
    piece : FilePiece
        A piece of :func:`helpers.analysis.corpus.file_pieces.split_file`.

    Returns
    -------
    ParsedPiece

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> text = "Soil moisture and wheat yield in dry years.\\n\\nIrrigation timing changed the grain protein.\\n"
    >>> path = write_corpus({"a.txt": text}) / "a.txt"
    >>> parsed = read_piece(FilePiece(path, "a.txt", 45, path.stat().st_size))
    >>> [(row["block"], row["kind"], row["first_line"]) for row in parsed.rows], parsed.problem
    ([(1, 'abstract', 1)], None)
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
#: (:data:`helpers.analysis.corpus.file_pieces.PIECE_BYTES`), so that decompressing adds no memory to parsing.
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
    """One corpus file, read and parsed on its own.

    :func:`read_corpus` is :func:`assemble_corpus` of these, file by file in reading order (the dask engine
    reads them on its workers). A file of more than ``piece_size`` bytes is read one piece at a time
    (:mod:`helpers.analysis.corpus.file_pieces`): the same result, without its whole bytes and text in memory at
    once. A ``.jsonl.gz`` file is decompressed one piece at a time (:func:`gzip_pieces`), so that its memory is
    that of the same file uncompressed. A FIFO, a device or a file that cannot be read is skipped with its
    problem, never opened.

    Parameters
    ----------
    path : Path
        The corpus file.
    name : str
        The file's name as tables show it.
    piece_size : int, optional
        Bytes a piece holds (default :data:`helpers.analysis.corpus.file_pieces.PIECE_BYTES`).

    Returns
    -------
    tuple of (dict, list of dict, list of str)
        Its ``files`` row, its block rows (with text, no ``paper_id`` yet) and its problems (empty when it is
        good).

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> text = "Crash risk at rural junctions rises with speed.\\n\\nMinor roads show it too.\\n"
    >>> file_row, rows, problems = read_one_file(write_corpus({"a.txt": text}) / "a.txt", "a.txt", piece_size=16)
    >>> file_row["n_blocks"], [row["kind"] for row in rows], problems
    (2, ['abstract', 'abstract'], [])
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
    """:func:`read_one_file` of a file read whole.

    Parameters
    ----------
    path, name
        As :func:`read_one_file`.

    Returns
    -------
    tuple of (dict, list of dict, list of str)
        As :func:`read_one_file`. A FIFO, a device or a file that cannot be read is skipped (``sha256`` empty),
        its problem named.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> file_row, rows, problems = read_whole_file(write_corpus({}) / "missing.txt", "missing.txt")
    >>> file_row["status"], rows, len(problems)
    ('skipped', [], 1)
    """
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
    """Block rows without their texts, which is all :func:`assemble_corpus` needs (the dask engine's workers keep
    the texts).

    Parameters
    ----------
    rows : sequence of dict
        Block rows of :func:`read_one_file`.

    Returns
    -------
    list of dict
        The rows without ``text``; each abstract block carries its :func:`abstract_facts` and ``opening``
        (:func:`helpers.analysis.corpus.titles.short_text`) as ``facts`` instead.

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
    """A :func:`read_one_file` result with :func:`light_rows`.

    Parameters
    ----------
    parsed : tuple of (dict, list of dict, list of str)
        A :func:`read_one_file` result.

    Returns
    -------
    tuple of (dict, list of dict, list of str)

    Examples
    --------
    >>> without_texts(({"n_blocks": 1}, [dict(kind="abstract", text="Short.")], []))[1][0]["facts"]["n_chars"]
    6
    """
    file_row, rows, problems = parsed
    return file_row, light_rows(rows), problems


def light_piece(piece: ParsedPiece) -> ParsedPiece:
    """A :func:`read_piece` result with :func:`light_rows`.

    Parameters
    ----------
    piece : ParsedPiece
        A :func:`read_piece` result, with the texts of its rows.

    Returns
    -------
    ParsedPiece
        The same piece; its abstract rows carry ``facts`` instead of ``text``.

    Examples
    --------
    >>> light_piece(ParsedPiece(None, [dict(kind="abstract", text="Short.")], 1)).rows[0]["facts"]["n_chars"]
    6
    """
    return replace(piece, rows=light_rows(piece.rows))
