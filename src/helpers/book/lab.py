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
from typing import Any

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
        "defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}}}


def in_notebook(environment: dict[str, str] | None = None) -> bool:
    """Whether a chapter runs as a notebook in Jupyter rather than for the book.

    Examples
    --------
    >>> in_notebook({}), in_notebook({"BOOK_NOTEBOOK": "1"}), in_notebook({"JPY_SESSION_NAME": "x.md"})
    (False, True, True)
    """
    environment = os.environ if environment is None else environment
    return environment.get(NOTEBOOK_ENV) == "1" or bool(environment.get(SESSION_ENV))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["settings"]:
        print("usage: python -m helpers.book.lab settings", file=sys.stderr)
        return 2
    print(json.dumps(lab_settings(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
