"""Where ``analyse --out`` may go: a folder of its own, outside every corpus path and every system folder.

:func:`check_out_path` is the check the command makes before it reads the corpus, so a bad ``--out`` is one line
(:class:`OutputFolderError`) and nothing is written; :mod:`helpers.analysis.output_folder` then replaces
the folder whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from helpers.analysis.errors import shown_name

__all__ = ["OutputFolderError", "check_out_path"]

_SYSTEM_FOLDERS = ("/proc", "/sys")


class OutputFolderError(ValueError):
    """An ``--out`` the command cannot use: one line naming it.

    Examples
    --------
    >>> str(OutputFolderError("out: is a file"))
    'out: is a file'
    """


def check_out_path(out: Path, corpus_paths: Sequence[str | Path]) -> Path:
    """The absolute, resolved ``out``; an :class:`OutputFolderError` when it cannot be the output folder.

    Parameters
    ----------
    out
        The folder given as ``--out``.
    corpus_paths
        The corpus files and folders of the run: ``out`` may be neither one of them, nor inside one, nor hold one.

    Returns
    -------
    Path
        ``out``, absolute and resolved.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_out_path(folder / "out", [folder / "corpus"]) == (folder / "out").resolve()
    True
    >>> check_out_path(folder / "corpus" / "out", [folder / "corpus"])
    Traceback (most recent call last):
    ...
    helpers.analysis.out_path.OutputFolderError: ... is inside the corpus folder ...; choose a folder outside it
    """
    resolved = out.resolve()
    if resolved == resolved.parent:
        raise OutputFolderError(f"{shown_name(out)}: --out is the root folder; choose a folder of its own")
    if any(resolved == Path(system) or Path(system) in resolved.parents for system in _SYSTEM_FOLDERS):
        raise OutputFolderError(f"{shown_name(out)}: --out is under a system folder ({', '.join(_SYSTEM_FOLDERS)}); "
                                "choose a folder of your own")
    if resolved.exists() and not resolved.is_dir():
        raise OutputFolderError(f"{shown_name(out)}: --out is a file, not a folder; give a folder (new or earlier output)")
    existing = next(parent for parent in resolved.parents if parent.exists())
    if not existing.is_dir():
        raise OutputFolderError(f"{shown_name(out)}: {shown_name(existing)} is a file, not a folder; --out cannot go inside it")
    for given in corpus_paths:
        corpus = Path(given).resolve()
        if resolved == corpus:
            raise OutputFolderError(f"{shown_name(out)}: --out is the corpus path {shown_name(given)}; "
                                    "choose a folder outside the corpus")
        if corpus in resolved.parents:
            raise OutputFolderError(f"{shown_name(out)}: --out is inside the corpus folder {shown_name(given)}; "
                                    "choose a folder outside it")
        if resolved in corpus.parents:
            raise OutputFolderError(f"{shown_name(out)}: the corpus path {shown_name(given)} is inside --out, which is "
                                    "replaced whole; choose another folder")
    return resolved
