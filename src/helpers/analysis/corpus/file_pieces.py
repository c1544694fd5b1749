"""Large corpus files read in pieces: each piece a parse task, the file's blocks the same as read whole.

A corpus may come as one large file (all of a venue's abstracts in one ``.txt``, a JSON Lines dump of
millions of records). Read whole, such a file is one parse task holding all its bytes, its decoded text
and its blocks at once. :func:`split_file` cuts a file of more than :data:`PIECE_BYTES` bytes into
pieces at places where no block can straddle: after a blank line in the seed format (blocks are
separated by blank lines), after any line end in JSON Lines (one record per line). The other
bibliographic formats (BibTeX, RIS, CSV, TSV), whose records may span blank lines, are read whole.

:func:`helpers.analysis.corpus.read_piece` parses one piece with its own block, position and line
numbers; :func:`join_pieces` renumbers the pieces' blocks in file order, so the result equals the
whole file's, block for block. Whatever depends on the whole file (a header that is not the first
piece's, a bad byte, a file without abstracts) makes :func:`join_pieces` give up (``None``) and the
caller reads the file whole, so its problem is named as it always is. The local engine reads the
pieces one after the other (:func:`helpers.analysis.corpus.read_one_file`); the dask engine parses
them on its workers (:mod:`helpers.analysis.pipeline.dask_engine`).
"""

from __future__ import annotations

import hashlib
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pandas as pd

from helpers.analysis.readers import RECORD_SUFFIXES, corpus_suffix, file_format

__all__ = ["PIECE_BYTES", "FilePiece", "ParsedPiece", "split_file", "piece_bytes", "join_pieces", "file_sha256"]

#: Files larger than this are read in pieces of about this size (a piece ends at the next place a block
#: cannot straddle). About 30,000 abstracts of 1,000 characters.
PIECE_BYTES = 32 * 2**20
#: Where a piece of a seed-format file may end: after a blank line (spaces, tabs and CR only).
_SEED_BREAK = re.compile(rb"\n[ \t\r]*\n")
#: Where a piece of a JSON Lines file may end: after any line end.
_LINE_BREAK = re.compile(rb"\n")
#: Bytes read at a time while looking for the end of a piece.
_LOOK_BYTES = 2**20
_READ_BYTES = 2**24


@dataclass(frozen=True)
class FilePiece:
    """Bytes ``start`` to ``stop`` of the corpus file ``path`` (shown as ``name``).

    Attributes
    ----------
    path, name : Path, str
        The corpus file, and its name as tables show it.
    start, stop : int
        The piece's first byte and the byte after its last.

    Examples
    --------
    >>> FilePiece(Path("a.txt"), "a.txt", 0, 10).size
    10
    """

    path: Path
    name: str
    start: int
    stop: int

    @property
    def size(self) -> int:
        """The piece's length in bytes."""
        return self.stop - self.start


@dataclass(frozen=True)
class ParsedPiece:
    """One piece parsed on its own (:func:`helpers.analysis.corpus.read_piece`).

    Attributes
    ----------
    header : str or None
        The file's header line (first piece only).
    rows : list of dict
        Its block rows, as :func:`helpers.analysis.corpus.read_one_file` makes them, numbered from the piece's
        start.
    n_lines : int
        The line ends it holds after normalisation.
    problem : str or None
        Why it cannot be parsed on its own (then no rows).

    Examples
    --------
    >>> ParsedPiece(None, [], 0, "NUL byte").problem
    'NUL byte'
    """

    header: str | None
    rows: list[dict]
    n_lines: int
    problem: str | None = None


def _break_pattern(path: Path) -> re.Pattern[bytes] | None:
    suffix = corpus_suffix(path)
    if suffix == ".jsonl":
        return _LINE_BREAK
    if suffix in RECORD_SUFFIXES:
        return None
    with path.open("rb") as handle:  # a .txt that is a tagged export is read whole, as its format needs
        head = handle.read(4096).decode("utf-8", errors="replace").lstrip("\ufeff")
    return _SEED_BREAK if file_format(path, head) == "seed" else None


def split_file(path: str | Path, name: str, piece_size: int | None = None) -> list[FilePiece]:
    """The pieces of one corpus file, in order, covering every byte.

    One piece when the file is at most ``piece_size`` bytes long, its format is read whole (BibTeX, RIS, CSV,
    TSV), or it is no regular file or cannot be read (then reading it whole names its problem). Only the bytes
    around each cut are read.

    Parameters
    ----------
    path : str or Path
        The corpus file.
    name : str
        The file's name as tables show it.
    piece_size : int, optional
        About how many bytes a piece holds (default :data:`PIECE_BYTES`); a piece ends at the next place no
        block straddles.

    Returns
    -------
    list of FilePiece

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> path = write_corpus({"a.txt": "one two\\n\\nthree four\\n\\nfive six\\n"}) / "a.txt"
    >>> [(p.start, p.stop) for p in split_file(path, "a.txt", piece_size=4)]
    [(0, 9), (9, 21), (21, 30)]
    """
    path = Path(path)
    piece_size = piece_size or PIECE_BYTES
    status = path.stat()
    size = status.st_size
    if not stat.S_ISREG(status.st_mode) or size <= piece_size:  # a FIFO or a device is never opened here
        return [FilePiece(path, name, 0, size)]
    try:
        pattern = _break_pattern(path)
    except OSError:  # read whole, which names the problem
        pattern = None
    if pattern is None:
        return [FilePiece(path, name, 0, size)]
    cuts = [0]
    with path.open("rb") as handle:
        while cuts[-1] + piece_size < size:
            # Look from one byte before the target, so a break that begins there is found.
            look = cuts[-1] + piece_size - 1
            handle.seek(look)
            window = b""
            match = None
            while match is None:
                more = handle.read(_LOOK_BYTES)
                if not more:
                    break
                window += more
                match = pattern.search(window)
            if match is None or look + match.end() >= size:
                break
            cuts.append(look + match.end())
    cuts.append(size)
    return [FilePiece(path, name, start, stop) for start, stop in zip(cuts, cuts[1:])]


def piece_bytes(piece: FilePiece) -> bytes:
    """The bytes of ``piece``, read from its file.

    Parameters
    ----------
    piece : FilePiece
        A piece of :func:`split_file`, its file unchanged since.

    Returns
    -------
    bytes
        Its :attr:`FilePiece.size` bytes.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> path = write_corpus({"a.txt": "one two"}) / "a.txt"
    >>> piece_bytes(FilePiece(path, "a.txt", 4, 7))
    b'two'
    """
    with piece.path.open("rb") as handle:
        handle.seek(piece.start)
        return handle.read(piece.size)


def join_pieces(path: str | Path, name: str, pieces: Sequence[ParsedPiece], sha256: str
                ) -> tuple[dict, list[dict], list[str]] | None:
    """The :func:`helpers.analysis.corpus.read_one_file` result of a whole file from its parsed pieces.

    Parameters
    ----------
    path, name
        The file the pieces were cut from, and its name in the tables.
    pieces : sequence of ParsedPiece
        Its pieces parsed, in order (their rows with texts, or only their facts).
    sha256 : str
        The file's SHA-256 (:func:`file_sha256`).

    Returns
    -------
    tuple of (dict, list of dict, list of str) or None
        The file's row, its block rows renumbered in file order and no problems; ``None`` when the file must be
        read whole (a piece has a problem, the first piece has no block, or no block is an abstract).

    Examples
    --------
    >>> first = ParsedPiece(None, [dict(block=1, position=1, first_line=1, last_line=1, kind="abstract")], 2)
    >>> second = ParsedPiece(None, [dict(block=1, position=1, first_line=1, last_line=2, kind="abstract")], 2)
    >>> file_row, rows, problems = join_pieces("a.txt", "a.txt", [first, second], "0" * 64)
    >>> [(r["block"], r["position"], r["first_line"], r["last_line"]) for r in rows], file_row["n_blocks"]
    ([(1, 1, 1, 1), (2, 2, 3, 4)], 2)
    """
    if (not pieces or not pieces[0].rows or any(piece.problem for piece in pieces)
            or not any(row["kind"] == "abstract" for piece in pieces for row in piece.rows)):
        return None
    rows: list[dict] = []
    lines = positions = 0
    for piece in pieces:
        blocks = len(rows)
        for row in piece.rows:
            row = dict(row, block=row["block"] + blocks, first_line=row["first_line"] + lines,
                       last_line=row["last_line"] + lines)
            if not pd.isna(row["position"]):
                row["position"] += positions
            rows.append(row)
        positions += sum(not pd.isna(row["position"]) for row in piece.rows)
        lines += piece.n_lines
    file_row = dict(source_file=name, path=str(path), status="ok", header=pieces[0].header, n_blocks=len(rows),
                    sha256=sha256, problem="")
    return file_row, rows, []


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, read a few megabytes at a time.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> file_sha256(write_corpus({"empty.txt": ""}) / "empty.txt")[:16]
    'e3b0c44298fc1c14'
    """
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        while block := handle.read(_READ_BYTES):
            digest.update(block)
    return digest.hexdigest()

