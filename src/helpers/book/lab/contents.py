"""JupyterLab's contents manager for ``make lab``: chapters open with prose that shows the page's values.

It is jupytext's contents manager (a chapter, a MyST Markdown file, opens as a notebook) with one step on each
side: a notebook's Markdown cells are shown with their glue roles and directives as ``{eval}`` expressions
(:func:`helpers.book.lab.markdown.to_lab`), and written back in the book's own form when saved
(:func:`helpers.book.lab.markdown.from_lab`), so a chapter saved unchanged is byte-identical.

Used by ``make lab`` as ``--ServerApp.contents_manager_class=helpers.book.lab.contents.BookContentsManager``;
it needs JupyterLab (``requirements-lab.txt``).
"""

from __future__ import annotations

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from jupytext.async_contentsmanager import build_async_jupytext_contents_manager_class

from helpers.book.lab.markdown import shown_in_lab, written_from_lab

_JupytextContentsManager = build_async_jupytext_contents_manager_class(AsyncLargeFileManager)


class BookContentsManager(_JupytextContentsManager):  # type: ignore[misc, valid-type]
    """jupytext's contents manager, with the chapters' prose shown by
    :func:`helpers.book.lab.markdown.shown_in_lab` and saved by :func:`helpers.book.lab.markdown.written_from_lab`.

    Attributes
    ----------
    root_dir
        The folder JupyterLab serves (``make lab``: the book's root), as for any contents manager.

    Examples
    --------
    >>> from helpers.book.lab.markdown import to_lab
    >>> to_lab("{glue:text}`n_papers` papers")  # what get() shows of a Markdown cell
    '{eval}`book.page.text("n_papers")` papers'
    """

    async def get(self, path, content=True, type=None, format=None, **kwargs):  # noqa: A002 - Jupyter's names
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if content and model.get("type") == "notebook" and model.get("content"):
            shown_in_lab(model["content"])
        return model

    async def save(self, model, path=""):
        if model.get("type") == "notebook" and model.get("content"):
            written_from_lab(model["content"])
        return await super().save(model, path)
