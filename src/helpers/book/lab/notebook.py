"""How a chapter knows it runs as a notebook, and shows a reader's mistake there as one line.

- A chapter run as a notebook (:func:`in_notebook`) shows what the built book shows in its prose: the values
  it glues, its figures and the sentences glued into its text (in its prose with ``make lab``,
  :func:`prose_resolved`; else under the cell that makes them).
- A bad corpus or setting stops the cell with one line per problem (:func:`install_error_handler`), the
  traceback kept for ``%tb``.
"""

from __future__ import annotations

import os
import sys
from typing import Mapping

from helpers.analysis.settings import SettingsError

#: Set by ``make lab`` for JupyterLab's kernels; any Jupyter server also sets ``JPY_SESSION_NAME`` for the
#: kernels of its notebooks, while the book's executors (myst-nb, ``helpers.book.build.prebuild``) set neither.
NOTEBOOK_ENV = "BOOK_NOTEBOOK"
SESSION_ENV = "JPY_SESSION_NAME"


def in_notebook(environment: Mapping[str, str]) -> bool:
    """Whether a chapter runs as a notebook in Jupyter rather than for the book, by ``environment``
    (:attr:`helpers.book.settings.BookConfig.notebook` reads it).

    Parameters
    ----------
    environment
        The process's environment variables.

    Returns
    -------
    bool
        ``BOOK_NOTEBOOK`` is ``1`` (``make lab``) or a Jupyter server named the kernel's session.

    Examples
    --------
    >>> in_notebook({}), in_notebook({"BOOK_NOTEBOOK": "1"}), in_notebook({"JPY_SESSION_NAME": "x.md"})
    (False, True, True)
    """
    return environment.get(NOTEBOOK_ENV) == "1" or bool(environment.get(SESSION_ENV))


def prose_resolved(environment: Mapping[str, str]) -> bool:
    """Whether the notebook's prose shows the page's values itself (:attr:`helpers.book.settings.BookConfig.lab_prose`
    reads it): ``make lab`` opens chapters through :class:`helpers.book.lab.contents.BookContentsManager`, whose
    Markdown asks the kernel for them (:mod:`helpers.book.lab.markdown`), so the cells need not show them again.
    Elsewhere (another Jupyter) the cells show their values and figures under themselves.

    Parameters
    ----------
    environment
        Environment variables, as for :func:`in_notebook`.

    Returns
    -------
    bool
        Whether ``BOOK_NOTEBOOK`` is ``1``.

    Examples
    --------
    >>> prose_resolved({}), prose_resolved({"BOOK_NOTEBOOK": "1"}), prose_resolved({"JPY_SESSION_NAME": "x.md"})
    (False, True, False)
    """
    return environment.get(NOTEBOOK_ENV) == "1"


#: Shown under a failed cell instead of the traceback; ``%tb`` shows the traceback.
TRACEBACK_HINT = "(run %tb in a cell for the traceback)"


def one_line_error(error: BaseException) -> str:
    """A bad corpus or setting as one line per problem: each names the file and place, or the option and its
    allowed values.

    Parameters
    ----------
    error
        The error a cell raised: a corpus error lists its problems, any other is its message.

    Returns
    -------
    str
        One line per problem, its spaces collapsed.

    Examples
    --------
    >>> from helpers.analysis.corpus import CorpusError
    >>> print(one_line_error(CorpusError(["data/x.txt: no such file or directory", "y.bib: line 3: bad entry"])))
    data/x.txt: no such file or directory
    y.bib: line 3: bad entry
    >>> one_line_error(ValueError("THEMES_K: must be a whole number,   got 'eight'"))
    "THEMES_K: must be a whole number, got 'eight'"
    """
    problems = getattr(error, "problems", None) or [str(error)]
    return "\n".join(" ".join(str(problem).split()) for problem in problems)


def _show_one_line(shell, kind, error, traceback, tb_offset=None):
    """IPython's handler for the errors of :func:`install_error_handler`: one line on stderr, traceback kept
    for ``%tb``; the cell still fails (the kernel reports the error, so Run All stops there)."""
    sys.last_type, sys.last_value, sys.last_traceback = kind, error, traceback
    print(f"{one_line_error(error)}\n{TRACEBACK_HINT}", file=sys.stderr)
    return None


def install_error_handler() -> bool:
    """In a notebook (:func:`in_notebook`), show the errors a reader causes (a missing corpus file, a bad setting)
    as one line instead of a traceback. Returns whether it was installed.

    Returns
    -------
    bool
        Whether the handler was installed (never outside a notebook, nor without IPython's shell).

    Examples
    --------
    >>> install_error_handler()  # a doctest is not a notebook
    False
    """
    # The handler is in place before any setting is read (BookConfig), so a bad one shows as one line too.
    if not in_notebook(os.environ):
        return False
    try:
        from IPython import get_ipython  # lazy: Jupyter only
    except ImportError:  # pragma: no cover - the book always runs in IPython
        return False
    shell = get_ipython()
    if shell is None:
        return False
    from helpers.analysis.corpus import CorpusError  # lazy: keeps this module's import light
    from helpers.analysis.readers.records import ReaderError  # lazy: keeps this module's import light
    from helpers.analysis.themes import ThemesError  # lazy: at the top it would load scipy and networkx

    shell.set_custom_exc((CorpusError, ReaderError, SettingsError, ThemesError), _show_one_line)
    return True
