"""The error a bad corpus raises, in a module of its own: the command line names it before it reads anything,
so ``python -m helpers --help`` starts without importing pandas."""

from __future__ import annotations

from pathlib import PurePath
from typing import Sequence

__all__ = ["CorpusError", "shown_name", "one_line"]


def shown_name(path: str | PurePath) -> str:
    """A file name as a problem shows it: as given, or quoted with its odd characters escaped when it has any
    (a line end, a control character, a byte that is no text, white space at either end, or no name at all).

    Parameters
    ----------
    path : str or PurePath
        A file name as given.

    Returns
    -------
    str
        The name as a problem shows it.

    Examples
    --------
    >>> shown_name("data/a.bib"), shown_name("empty\\nname.txt"), shown_name(" x ")
    ('data/a.bib', "'empty\\\\nname.txt'", "' x '")
    """
    text = str(path)
    if text and text.isprintable() and text == text.strip():
        return text
    return repr(text)


def one_line(problem: str) -> str:
    """A problem as one line of printable text: line ends, tabs and other control characters (and any
    character that is no text, such as a lone surrogate) escaped as Python writes them.

    Parameters
    ----------
    problem : str
        A problem's text.

    Returns
    -------
    str
        The text on one printable line.

    Examples
    --------
    >>> one_line("a.csv: line 1: column 'x\\ny'"), one_line("b.txt: é ok")
    ("a.csv: line 1: column 'x\\\\ny'", 'b.txt: é ok')
    """
    if problem.isprintable():
        return problem
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in problem)


class CorpusError(ValueError):
    """Bad corpus input. ``problems`` holds one line per problem, each naming its file (:func:`one_line`).

    Parameters
    ----------
    problems : sequence of str
        One line per problem.

    Attributes
    ----------
    problems : list of str
        Each problem on one printable line.

    Examples
    --------
    >>> CorpusError(["a.bib: line 3: bad entry", "b.txt: no such file or directory"]).problems
    ['a.bib: line 3: bad entry', 'b.txt: no such file or directory']
    >>> CorpusError(["c.csv: line 1: no 'abstract' column (columns: a\\nb)"]).problems
    ["c.csv: line 1: no 'abstract' column (columns: a\\\\nb)"]
    """

    def __init__(self, problems: Sequence[str]):
        self.problems = [one_line(problem) for problem in problems]
        super().__init__("\n".join(self.problems))
