"""The table of contents of one build: ``_toc.yml`` without the chapters that do not apply to its corpus.

What changed compares groups of papers (years, venues, files); with one group it has nothing to say, so
a build of such a corpus leaves the chapter out (the landing page says why) instead of showing an empty page.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from helpers.book.inputs import page_input

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

TOC_FILE = "_toc.yml"
#: Chapters that need groups of papers to compare.
GROUP_CHAPTERS = ("chapters/change",)


def left_out(analysis: "Analysis") -> tuple[str, ...]:
    """The chapters this analysis leaves out of the book (``GROUP_CHAPTERS`` with one group).

    Parameters
    ----------
    analysis
        The build's analysis (its ``change``: ``None`` with one group of papers).

    Returns
    -------
    tuple of str
        Chapter files, as ``_toc.yml`` names them.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> left_out(SimpleNamespace(change=None)), left_out(SimpleNamespace(change=object()))
    (('chapters/change',), ())
    """
    return () if analysis.change is not None else GROUP_CHAPTERS


def without(toc: dict[str, Any], files: tuple[str, ...]) -> dict[str, Any]:
    """``toc`` (the jb-book format) without the chapters ``files``; a part left empty goes too.

    Parameters
    ----------
    toc
        A table of contents, as ``_toc.yml`` holds it.
    files
        The chapters to leave out.

    Returns
    -------
    dict
        A new table of contents.

    Examples
    --------
    >>> toc = {"root": "intro", "parts": [{"caption": "A", "chapters": [{"file": "x"}, {"file": "y"}]},
    ...                                    {"caption": "B", "chapters": [{"file": "y"}]}]}
    >>> without(toc, ("y",))
    {'root': 'intro', 'parts': [{'caption': 'A', 'chapters': [{'file': 'x'}]}]}
    """
    parts = [dict(part, chapters=[c for c in part["chapters"] if c["file"] not in files])
             for part in toc.get("parts", [])]
    return dict(toc, parts=[part for part in parts if part["chapters"]])


def read_toc(root: Path) -> dict[str, Any]:
    """The book's ``_toc.yml``.

    Parameters
    ----------
    root
        The folder holding ``_toc.yml``.

    Returns
    -------
    dict
        The file's contents.

    Examples
    --------
    >>> from helpers.book.inputs import book_root
    >>> read_toc(book_root())["root"]
    'intro'
    """
    return yaml.safe_load(page_input(TOC_FILE, root=root).read_text(encoding="utf-8"))


def build_toc(root: Path, analysis: "Analysis") -> dict[str, Any]:
    """The table of contents of this build: :func:`read_toc` :func:`without` :func:`left_out`.

    Parameters
    ----------
    root
        The book's root, holding ``_toc.yml``.
    analysis
        The build's analysis.

    Returns
    -------
    dict
        The build's table of contents.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from helpers.book.inputs import book_root
    >>> "chapters/change" in str(build_toc(book_root(), SimpleNamespace(change=None)))
    False
    """
    return without(read_toc(root), left_out(analysis))


def write_build_toc(root: Path, analysis: "Analysis", folder: Path) -> Path:
    """Write :func:`build_toc` into ``folder`` (the build's own folder) and return its path.

    Parameters
    ----------
    root
        The book's root.
    analysis
        The build's analysis.
    folder
        The build's folder (created if missing).

    Returns
    -------
    Path
        ``folder/toc-of-this-build.yml``.

    Examples
    --------
    >>> import tempfile
    >>> from types import SimpleNamespace
    >>> from helpers.book.inputs import book_root
    >>> write_build_toc(book_root(), SimpleNamespace(change=None), Path(tempfile.mkdtemp())).name
    'toc-of-this-build.yml'
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "toc-of-this-build.yml"
    text = yaml.safe_dump(build_toc(root, analysis), sort_keys=False, allow_unicode=True)
    path.write_text(text, encoding="utf-8")
    return path
