"""The one list of files the pages read besides the corpus, and the one door they read them through.

Every file matched by :data:`PAGE_INPUTS` is hashed into the book's build key
(:func:`helpers.book.settings.book_key`), so editing one rebuilds the pages that show it. A page or
report module opens such a file only through :func:`page_input`, which refuses any path the list does
not name: a file read around the list could leave a page stale (``tests/book/test_page_inputs.py`` checks
that no chapter or report module reads around it).
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

__all__ = ["PAGE_INPUTS", "book_root", "page_input", "page_inputs", "is_page_input"]

#: Files the pages read, as paths or globs relative to the book's root (``*`` stays within one folder).
PAGE_INPUTS: tuple[str, ...] = (
    "CITATION.cff",  # the book's authors and version: How to cite, every page's footer
    "requirements.txt",  # the pinned distributions: Reproduce
    "_toc.yml",  # the pages' order, in which figures are numbered: Figure index
    "data/icml2024-seed-metadata.csv",  # the seed abstracts' titles and authors
    "data/linkcheck/*.csv",  # make linkcheck's dated results: Link availability
    "benchmarks/*.csv",  # make bench and make bench-large: Performance
    "benchmarks/results/*.csv",  # make term-quality: Co-occurring terms, Themes
    "tests/evaluation/*.csv",  # the labelled evaluation sets and their first run: Link availability
)


def book_root(start: Path | None = None) -> Path:
    """The book's root: the nearest folder at or above ``start`` (default: here) holding ``_config.yml``.

    Parameters
    ----------
    start
        Where to start looking (default: the working folder).

    Returns
    -------
    Path
        The folder, or ``start`` itself when no folder above it holds ``_config.yml``.

    Examples
    --------
    >>> (book_root() / "_config.yml").exists()
    True
    """
    here = (start or Path.cwd()).resolve()
    for folder in [here, *here.parents]:
        if (folder / "_config.yml").exists():
            return folder
    return here


def is_page_input(relative: str, patterns: tuple[str, ...] = PAGE_INPUTS) -> bool:
    """Whether the book-relative POSIX path ``relative`` is one of ``patterns``, folder by folder; or a folder
    whose files a pattern names by a glob (``data/linkcheck`` for ``data/linkcheck/*.csv``), read by name.

    Parameters
    ----------
    relative
        A path relative to the book's root, with ``/`` between folders.
    patterns
        Paths and globs (default :data:`PAGE_INPUTS`).

    Returns
    -------
    bool
        Whether a page may read it.

    Examples
    --------
    >>> is_page_input("benchmarks/results.csv"), is_page_input("benchmarks/out/results.csv")
    (True, False)
    >>> is_page_input("tests/evaluation/landmarks.csv"), is_page_input("tests/evaluation/../../secret.csv")
    (True, False)
    >>> is_page_input("data/linkcheck"), is_page_input("data")
    (True, False)
    """
    parts = PurePosixPath(relative).parts
    if ".." in parts or (parts and parts[0] == "/"):
        return False
    for pattern_parts in (PurePosixPath(pattern).parts for pattern in patterns):
        if len(pattern_parts) == len(parts) and all(map(fnmatchcase, parts, pattern_parts)):
            return True
        if "*" in pattern_parts[-1] and pattern_parts[:-1] == parts:
            return True
    return False


def _relative(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` as POSIX text, ``..`` folded; an absolute path outside ``root`` stays absolute."""
    if path.is_absolute():
        folded = Path(os.path.normpath(path))
        try:
            return folded.relative_to(Path(os.path.normpath(root))).as_posix()
        except ValueError:
            return folded.as_posix()
    return PurePosixPath(os.path.normpath(path.as_posix())).as_posix()


def page_input(path: str | Path, *, root: Path | None = None) -> Path:
    """The file a page reads, under the book's ``root``, once it is known to be in :data:`PAGE_INPUTS`.

    Parameters
    ----------
    path : str or Path
        Relative to the book's root (``"benchmarks/results.csv"``), or absolute under it.
    root : Path, optional
        The book's root (default :func:`book_root`).

    Returns
    -------
    Path
        ``root / path``; it may not exist (the pages say what was not measured).

    Raises
    ------
    ValueError
        When ``path`` is not one of :data:`PAGE_INPUTS`: add it there, so the build key covers it.

    Examples
    --------
    >>> page_input("benchmarks/results.csv", root=Path("/book")).as_posix()
    '/book/benchmarks/results.csv'
    >>> page_input("/book/notes/todo.csv", root=Path("/book"))
    Traceback (most recent call last):
    ...
    ValueError: notes/todo.csv is not a page input: add it to helpers.book.inputs.PAGE_INPUTS so the build key covers it
    """
    root = book_root() if root is None else root
    relative = _relative(Path(path), root)
    if not is_page_input(relative):
        raise ValueError(f"{relative} is not a page input: add it to helpers.book.inputs.PAGE_INPUTS "
                         "so the build key covers it")
    return root / relative


def page_inputs(root: Path) -> list[Path]:
    """Every file under ``root`` that :data:`PAGE_INPUTS` matches, in the list's order (each glob's files by name).

    Parameters
    ----------
    root
        The book's root folder, whose files are matched.

    Returns
    -------
    list of Path
        The files, each once.

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> for name in ["benchmarks/b.csv", "benchmarks/a.csv", "benchmarks/out/c.csv", "CITATION.cff"]:
    ...     (root / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = (root / name).write_text("x")
    >>> [path.relative_to(root).as_posix() for path in page_inputs(root)]
    ['CITATION.cff', 'benchmarks/a.csv', 'benchmarks/b.csv']
    """
    files: list[Path] = []
    for pattern in PAGE_INPUTS:
        for path in sorted(root.glob(pattern)):
            if path.is_file() and path not in files:
                files.append(path)
    return files
