"""A corpus of one file written into a fresh temporary folder, for the examples in the package's docstrings.

Many docstrings show a function on the smallest real corpus (one file of one or two abstracts) read from disk, as
a user's corpus is; writing that folder in one call keeps each example to the lines that show the function.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

__all__ = ["example_folder"]


def example_folder(text: str, name: str = "a.txt") -> Path:
    """A new temporary folder holding one file, ``name``, with ``text`` (UTF-8).

    Parameters
    ----------
    text : str
        The file's content: abstracts in the seed format (blank lines between them), or a database export.
    name : str, optional
        The file's name; its extension decides how it is read (``"a.txt"``).

    Returns
    -------
    Path
        The folder, which the caller may read as a corpus and remove.

    Examples
    --------
    >>> folder = example_folder("Header\\n\\nOne two three four five.\\n")
    >>> [path.name for path in folder.iterdir()], (folder / "a.txt").read_text()
    (['a.txt'], 'Header\\n\\nOne two three four five.\\n')
    """
    folder = Path(tempfile.mkdtemp())
    (folder / name).write_text(text, encoding="utf-8")
    return folder
