"""Which files a corpus is: paths and directories expanded, the names shown in tables, their bytes read safely."""

from __future__ import annotations

import os
import stat
import tempfile
from collections import Counter
from pathlib import Path
from typing import Mapping, Sequence

from helpers.analysis.corpus.tables import CORPUS_SUFFIXES, CorpusError
from helpers.analysis.errors import shown_name
from helpers.analysis.readers import RECORD_SUFFIXES, corpus_suffix

__all__ = ["directory_files", "expand_paths", "source_names", "read_file_bytes", "write_corpus"]


def directory_files(folder: Path) -> list[Path]:
    """A directory's corpus files, sorted by name.

    A folder of text abstracts may keep a CSV of metadata beside them; it is not read as abstracts.

    Parameters
    ----------
    folder : Path

    Returns
    -------
    list of Path
        Its ``*.txt`` files when it has any (the seed format), else its bibliographic files (``*.bib``,
        ``*.ris``, ``*.csv``, ``*.tsv``, ``*.jsonl``, ...).

    Examples
    --------
    >>> folder = write_corpus({"b.txt": "x", "a.txt": "x", "meta.csv": "x", "notes.md": "x"})
    >>> [path.name for path in directory_files(folder)]
    ['a.txt', 'b.txt']
    """
    files = sorted((p for p in folder.iterdir() if p.is_file() and corpus_suffix(p) in CORPUS_SUFFIXES),
                   key=lambda p: p.name)
    text_files = [p for p in files if corpus_suffix(p) == ".txt"]
    return text_files or files


#: What a path that is not a regular file is, by its mode (``stat.S_IS*``).
_FILE_KINDS = (("a FIFO (named pipe)", stat.S_ISFIFO), ("a character device", stat.S_ISCHR),
               ("a block device", stat.S_ISBLK), ("a socket", stat.S_ISSOCK))


def not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a corpus file without opening it (a FIFO would wait for a writer, a
    device may never end), or ``None`` for a regular file (or a path that does not exist: the caller says so).

    Examples
    --------
    >>> import os, tempfile, pathlib
    >>> fifo = pathlib.Path(tempfile.mkdtemp()) / "pipe.txt"
    >>> os.mkfifo(fifo)
    >>> not_a_file(fifo), not_a_file(pathlib.Path("/dev/null")), not_a_file(fifo.parent / "missing.txt")
    ('not a regular file but a FIFO (named pipe)', 'not a regular file but a character device', None)
    """
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    kind = next((name for name, test in _FILE_KINDS if test(mode)), "a directory" if stat.S_ISDIR(mode) else "")
    return f"not a regular file but {kind}" if kind else "not a regular file"


def unreadable(path: Path) -> str | None:
    """Why a regular file cannot be opened for reading (``cannot read (Permission denied)``), else ``None``;
    ``path`` must be no FIFO or device (:func:`not_a_file`): opening one could wait forever."""
    try:
        with path.open("rb"):
            return None
    except OSError as error:
        return f"cannot read ({error.strerror or error})"


def read_file_bytes(path: Path) -> bytes:
    """A corpus file's bytes, never opening a FIFO or a device.

    Parameters
    ----------
    path : Path

    Returns
    -------
    bytes

    Raises
    ------
    CorpusError
        A FIFO, a device or a file that cannot be read, named with what it is.

    Examples
    --------
    >>> try:
    ...     read_file_bytes(Path("/dev/zero"))
    ... except CorpusError as error:
    ...     print(error.problems)
    ['/dev/zero: not a regular file but a character device']
    """
    problem = not_a_file(path)
    if problem is None:
        try:
            return path.read_bytes()
        except OSError as error:
            problem = f"cannot read ({error.strerror or error})"
    raise CorpusError([f"{shown_name(path)}: {problem}"])


def expand_paths(paths: Sequence[str | Path]) -> tuple[list[Path], list[str]]:
    """Turn path arguments into files: a directory means :func:`directory_files`.

    A path that exists but is no regular file (a FIFO, a device) is kept, so that reading it names what it is
    (:func:`not_a_file`) and ``skip_bad`` counts it as a skipped file.

    Parameters
    ----------
    paths : sequence of str or Path
        Files and directories, as given.

    Returns
    -------
    tuple of (list of Path, list of str)
        The files in order, each once, and the problems: a directory that cannot be listed or has no corpus
        file, a path that does not exist.

    Examples
    --------
    >>> folder = write_corpus({"a.txt": "x"})
    >>> files, problems = expand_paths([folder, folder / "a.txt", folder / "gone.txt"])
    >>> [path.name for path in files], [problem.split(": ", 1)[1] for problem in problems]
    (['a.txt'], ['no such file or directory'])
    """
    files: list[Path] = []
    problems: list[str] = []
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if path.is_dir():
            try:
                found = directory_files(path)
            except OSError as error:
                problems.append(f"{shown_name(path)}: cannot list the directory ({error.strerror or error})")
                found = []
            else:
                if not found:
                    problems.append(f"{shown_name(path)}: directory has no .txt files"
                                    f" (nor {', '.join(RECORD_SUFFIXES)} files)")
            candidates = found
        elif path.is_file() or os.path.exists(path):
            candidates = [path]
        else:
            problems.append(f"{shown_name(path)}: no such file or directory")
            candidates = []
        for candidate in candidates:
            resolved = candidate.resolve()
            if resolved not in seen:
                seen.add(resolved)
                files.append(candidate)
    return files, problems


def source_names(files: Sequence[Path]) -> list[str]:
    """File names as shown in tables: the base name, or the given path when names clash.

    Parameters
    ----------
    files : sequence of Path

    Returns
    -------
    list of str

    Examples
    --------
    >>> source_names([Path("2023/a.txt"), Path("2024/a.txt"), Path("2024/b.txt")])
    ['2023/a.txt', '2024/a.txt', 'b.txt']
    """
    counts = Counter(f.name for f in files)
    return [f.as_posix() if counts[f.name] > 1 else f.name for f in files]


def write_corpus(files: Mapping[str, str | bytes], folder: Path | None = None) -> Path:
    """Write a small corpus: each file's text (UTF-8) or bytes under its name, for an example or a first try.

    Parameters
    ----------
    files : mapping of str to str or bytes
        File names (``"a.txt"``, ``"export.ris"``) and their contents.
    folder : Path, optional
        Where to write them (made if missing); default a new temporary folder.

    Returns
    -------
    Path
        The folder, to give to :func:`helpers.analysis.corpus.read_corpus` or ``analyse``.

    Examples
    --------
    >>> folder = write_corpus({"b.txt": "Egg weight rose with light.", "a.txt": b"Soil water fell."})
    >>> [path.name for path in directory_files(folder)], (folder / "a.txt").read_text()
    (['a.txt', 'b.txt'], 'Soil water fell.')
    """
    folder = Path(tempfile.mkdtemp(prefix="helpers-corpus-")) if folder is None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        if isinstance(content, bytes):
            (folder / name).write_bytes(content)
        else:
            (folder / name).write_text(content, encoding="utf-8")
    return folder
