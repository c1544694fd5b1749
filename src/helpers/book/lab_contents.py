"""JupyterLab's contents manager for ``make lab``: chapters open with prose that shows the page's values.

It is jupytext's contents manager (a chapter, a MyST Markdown file, opens as a notebook) with one step on each
side: a notebook's Markdown cells are shown with their glue roles and directives as ``{eval}`` expressions
(:func:`helpers.book.lab_markdown.to_lab`), and written back in the book's own form when saved
(:func:`helpers.book.lab_markdown.from_lab`), so a chapter saved unchanged is byte-identical.

The notebook is given the kernel's ``language_info`` (which jupytext leaves out of the Markdown file): without
it JupyterLab marks a chapter edited the moment its kernel starts.

Used by ``make lab`` as ``--ServerApp.contents_manager_class=helpers.book.lab_contents.BookContentsManager``;
it needs JupyterLab (``requirements-lab.txt``).
"""

from __future__ import annotations

import platform
from typing import Any

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from jupytext.async_contentsmanager import build_async_jupytext_contents_manager_class

from helpers.book.lab_markdown import from_lab, to_lab

_JupytextContentsManager = build_async_jupytext_contents_manager_class(AsyncLargeFileManager)

#: What ipykernel reports for this Python (the chapters' kernel runs in the book's own environment).
LANGUAGE_INFO = {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                 "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                 "pygments_lexer": "ipython3", "version": platform.python_version()}


def shown_in_lab(notebook: dict[str, Any]) -> dict[str, Any]:
    """A notebook's content as JupyterLab shows it (Markdown cells through :func:`to_lab`)."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            cell["source"] = to_lab(_text(cell["source"]))
    notebook.setdefault("metadata", {}).setdefault("language_info", dict(LANGUAGE_INFO))
    return notebook


def written_from_lab(notebook: dict[str, Any]) -> dict[str, Any]:
    """A notebook's content as the chapter file holds it (Markdown cells through :func:`from_lab`)."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            cell["source"] = from_lab(_text(cell["source"]))
    return notebook


def _text(source: str | list[str]) -> str:
    return source if isinstance(source, str) else "".join(source)


class BookContentsManager(_JupytextContentsManager):  # type: ignore[misc, valid-type]
    """jupytext's contents manager, with the chapters' prose shown by :func:`shown_in_lab`."""

    async def get(self, path, content=True, type=None, format=None, **kwargs):  # noqa: A002 - Jupyter's names
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if content and model.get("type") == "notebook" and model.get("content"):
            shown_in_lab(model["content"])
        return model

    async def save(self, model, path=""):
        if model.get("type") == "notebook" and model.get("content"):
            written_from_lab(model["content"])
        return await super().save(model, path)
