"""The chapters' Markdown as JupyterLab renders it (``make lab``), and back.

The book fills its prose with ``{glue:...}`` roles and directives, which only the book's build resolves. Opened
in JupyterLab (with jupyterlab-myst), a chapter's Markdown cells are shown with each of them written as an
``{eval}`` expression that the kernel answers from the values the page's cells computed
(:mod:`helpers.book.lab.page_values`), so the notebook reads as the page does: numbers and sentences in the text,
each figure in its place with its number and caption. Saving writes the book's own form back
(:func:`from_lab` undoes :func:`to_lab` exactly), so a chapter opened, run and saved is the file it was.

==================================  =====================================================================
in the chapter                      in JupyterLab
==================================  =====================================================================
``{glue:text}`name```               ``{eval}`book.page.text("name")```
``{glue:md}`name```                 ``{eval}`book.page.md("name")```
``{glue}`name```                    ``{eval}`book.page.value("name")```
a ``glue:md`` block                 a paragraph ``{eval}`book.page.block("name")```
a ``glue:figure`` block             a ``figure`` block: its caption, then ``{eval}`book.page.figure("name")```
``{doc}`text <page>```              ``[text](page.md)`` (a link JupyterLab opens; ``{doc}`` has no target there)
==================================  =====================================================================
"""

from __future__ import annotations

import platform
import re
from typing import Any, Callable

#: The functions the ``{eval}`` expressions call, by the glue role or directive they stand for.
_ROLE_FUNCTIONS = {"glue:text": "text", "glue:md": "md", "glue": "value"}
_FUNCTION_ROLES = {function: role for role, function in _ROLE_FUNCTIONS.items()}

_GLUE_ROLE = re.compile(r"\{(glue(?::text|:md)?)\}`([^`]+)`")
_EVAL_ROLE = re.compile(r'\{eval\}`book\.page\.(text|md|value)\("([^"`]+)"\)`')

_DOC_ROLE = re.compile(r"\{doc\}`([^`<]+?) <([\w./-]+)>`")
_MD_LINK = re.compile(r"\[([^\]]+)\]\(([\w./-]+)\.md\)")

_FENCE = r"(?P<fence>`{3,}|:{3,})"
_GLUE_BLOCK = re.compile(_FENCE + r"\{glue:md\} (?P<name>\S+)\n:format: myst\n(?P=fence)$", re.M)
_EVAL_BLOCK = re.compile(r'^\{eval\}`book\.page\.block\("(?P<name>[^"`]+)"\)`$', re.M)

# A glue:figure block: its options (":name: ...", ":alt: ..."), a blank line, then its caption.
_GLUE_FIGURE = re.compile(_FENCE + r"\{glue:figure\} (?P<name>\S+)\n(?P<options>(?::[\w-]+:.*\n)*)\n"
                          r"(?P<caption>(?:(?!(?P=fence)$).*\n)*?)(?P=fence)$", re.M)
_EVAL_FIGURE = re.compile(_FENCE + r"\{figure\}\n(?P<options>(?::[\w-]+:.*\n)*)\n"
                          r"(?P<caption>(?:(?!(?P=fence)$).*\n)*?)\n"
                          r'\{eval\}`book\.page\.figure\("(?P<name>[^"`]+)"\)`\n(?P=fence)$', re.M)


def to_lab(markdown: str) -> str:
    """A Markdown cell of a chapter with its glue roles and directives as ``{eval}`` expressions.

    Parameters
    ----------
    markdown
        The cell's source, as the chapter file holds it.

    Returns
    -------
    str
        The source JupyterLab renders.

    Examples
    --------
    >>> print(to_lab("{glue:text}`n_papers` papers, {glue:md}`lead`."))
    {eval}`book.page.text("n_papers")` papers, {eval}`book.page.md("lead")`.
    >>> print(to_lab("```{glue:figure} fig_a\\n:name: fig-a\\n\\nThe caption.\\n```"))
    ```{figure}
    :name: fig-a
    <BLANKLINE>
    The caption.
    <BLANKLINE>
    {eval}`book.page.figure("fig_a")`
    ```
    """
    markdown = _GLUE_FIGURE.sub(
        lambda m: (f'{m["fence"]}{{figure}}\n{m["options"]}\n{m["caption"]}\n'
                   f'{{eval}}`book.page.figure("{m["name"]}")`\n{m["fence"]}'), markdown)
    markdown = _GLUE_BLOCK.sub(lambda m: f'{{eval}}`book.page.block("{m["name"]}")`', markdown)
    markdown = _DOC_ROLE.sub(lambda m: f"[{m[1]}]({m[2]}.md)", markdown)
    return _GLUE_ROLE.sub(lambda m: f'{{eval}}`book.page.{_ROLE_FUNCTIONS[m[1]]}("{m[2]}")`', markdown)


def from_lab(markdown: str, fence: str = "```") -> str:
    """The chapter's own form of a Markdown cell shown by :func:`to_lab` (its exact inverse on the chapters).

    Parameters
    ----------
    markdown
        The cell's source as JupyterLab held it.
    fence
        The fence a glue block is written back with.

    Returns
    -------
    str
        The source as the chapter file holds it.

    Examples
    --------
    >>> text = "{glue:text}`n` of {glue}`m` in {doc}`the explorer <explorer>`\\n\\n```{glue:md} lead\\n:format: myst\\n```"
    >>> from_lab(to_lab(text)) == text
    True
    """
    markdown = _EVAL_FIGURE.sub(
        lambda m: f'{m["fence"]}{{glue:figure}} {m["name"]}\n{m["options"]}\n{m["caption"]}{m["fence"]}', markdown)
    markdown = _EVAL_BLOCK.sub(lambda m: f'{fence}{{glue:md}} {m["name"]}\n:format: myst\n{fence}', markdown)
    markdown = _MD_LINK.sub(lambda m: f"{{doc}}`{m[1]} <{m[2]}>`", markdown)
    return _EVAL_ROLE.sub(lambda m: f'{{{_FUNCTION_ROLES[m[1]]}}}`{m[2]}`', markdown)


#: What ipykernel reports for this Python (the chapters' kernel runs in the book's own environment).
LANGUAGE_INFO = {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                 "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                 "pygments_lexer": "ipython3", "version": platform.python_version()}


def shown_in_lab(notebook: dict[str, Any]) -> dict[str, Any]:
    """A notebook's content as JupyterLab shows it: Markdown cells through :func:`to_lab`, and the kernel's
    ``language_info`` (which jupytext leaves out of the Markdown file; without it JupyterLab marks a chapter edited
    the moment its kernel starts).

    Parameters
    ----------
    notebook
        The notebook's content (nbformat's JSON), changed in place.

    Returns
    -------
    dict
        ``notebook``.

    Examples
    --------
    >>> cell = {"cell_type": "markdown", "source": "{glue:text}`n` papers"}
    >>> shown_in_lab({"cells": [cell], "metadata": {}})["cells"][0]["source"]
    '{eval}`book.page.text("n")` papers'
    """
    _convert_markdown(notebook, to_lab)
    notebook.setdefault("metadata", {}).setdefault("language_info", dict(LANGUAGE_INFO))
    return notebook


def written_from_lab(notebook: dict[str, Any]) -> dict[str, Any]:
    """A notebook's content as the chapter file holds it (Markdown cells through :func:`from_lab`).

    Parameters
    ----------
    notebook
        The notebook's content as JupyterLab saves it, changed in place.

    Returns
    -------
    dict
        ``notebook``, ready for jupytext to write.

    Examples
    --------
    >>> cell = {"cell_type": "markdown", "source": '{eval}`book.page.text("n")` papers'}
    >>> written_from_lab({"cells": [cell], "metadata": {}})["cells"][0]["source"]
    '{glue:text}`n` papers'
    """
    return _convert_markdown(notebook, from_lab)


def _convert_markdown(notebook: dict[str, Any], convert: Callable[[str], str]) -> dict[str, Any]:
    """Each Markdown cell's source (a string, or nbformat's list of lines) through ``convert``, in place."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = cell["source"]
            cell["source"] = convert(source if isinstance(source, str) else "".join(source))
    return notebook
