"""JupyterLab for the chapters (``make lab``): the settings it runs with, and how a chapter knows it runs there.

- Autosave is off and Markdown and MyST files open as notebooks (jupytext), so opening and running a chapter
  changes no file on disk until the reader saves it (File > Save As keeps an edited copy elsewhere).
- A chapter run as a notebook (:func:`in_notebook`) shows what the built book shows in its prose: the values
  it glues, its figures and the sentences glued into its text, under the cell that makes them.

Run ``python -m helpers.book.lab settings`` to print the settings file ``make lab`` writes.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Mapping
from helpers.analysis.settings import SettingsError

#: Set by ``make lab`` for JupyterLab's kernels; any Jupyter server also sets ``JPY_SESSION_NAME`` for the
#: kernels of its notebooks, while the book's executors (myst-nb, ``helpers.book.prebuild``) set neither.
NOTEBOOK_ENV = "BOOK_NOTEBOOK"
SESSION_ENV = "JPY_SESSION_NAME"


def lab_settings() -> dict[str, Any]:
    """JupyterLab's ``overrides.json``: chapters open as notebooks, autosave off.

    Examples
    --------
    >>> lab_settings()["@jupyterlab/docmanager-extension:plugin"]["autosave"]
    False
    """
    return {"@jupyterlab/docmanager-extension:plugin": {
        "autosave": False,
        "defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}},
        # Every cell of a chapter in the page at once, as the book shows it (and as a search of the page finds it).
        "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
        # No request to the internet: no news feed, no check for a newer JupyterLab.
        "@jupyterlab/apputils-extension:notification": {"checkForUpdates": False, "fetchNews": "false"}}


def in_notebook(environment: Mapping[str, str] | None = None) -> bool:
    """Whether a chapter runs as a notebook in Jupyter rather than for the book.

    Examples
    --------
    >>> in_notebook({}), in_notebook({"BOOK_NOTEBOOK": "1"}), in_notebook({"JPY_SESSION_NAME": "x.md"})
    (False, True, True)
    """
    environment = os.environ if environment is None else environment
    return environment.get(NOTEBOOK_ENV) == "1" or bool(environment.get(SESSION_ENV))


def prose_resolved(environment: Mapping[str, str] | None = None) -> bool:
    """Whether the notebook's prose shows the page's values itself: ``make lab`` opens chapters through
    :class:`helpers.book.lab_contents.BookContentsManager`, whose Markdown asks the kernel for them
    (:mod:`helpers.book.lab_markdown`), so the cells need not show them again. Elsewhere (another Jupyter)
    the cells show their values and figures under themselves.

    Examples
    --------
    >>> prose_resolved({}), prose_resolved({"BOOK_NOTEBOOK": "1"}), prose_resolved({"JPY_SESSION_NAME": "x.md"})
    (False, True, False)
    """
    environment = os.environ if environment is None else environment
    return environment.get(NOTEBOOK_ENV) == "1"


#: Shown under a failed cell instead of the traceback; ``%tb`` shows the traceback.
TRACEBACK_HINT = "(run %tb in a cell for the traceback)"


def one_line_error(error: BaseException) -> str:
    """A bad corpus or setting as one line per problem: each names the file and place, or the option and its
    allowed values.

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
    as one line instead of a traceback. Returns whether it was installed."""
    if not in_notebook():
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


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["settings"]:
        print("usage: python -m helpers.book.lab settings", file=sys.stderr)
        return 2
    print(json.dumps(lab_settings(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
