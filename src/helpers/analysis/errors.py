"""The error a bad corpus raises, in a module of its own: the command line names it before it reads anything,
so ``python -m helpers --help`` starts without importing pandas."""

from __future__ import annotations

from typing import Sequence


class CorpusError(ValueError):
    """Bad corpus input. ``problems`` holds one line per problem, each naming its file.

    Examples
    --------
    >>> CorpusError(["a.bib: line 3: bad entry", "b.txt: no such file or directory"]).problems
    ['a.bib: line 3: bad entry', 'b.txt: no such file or directory']
    """

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))
