"""A small Sphinx extension for the offline book.

Jupyter Book 1.x always loads sphinx-thebe, whose page set-up runs twice and
declares ``THEBE_JS_URL`` twice, an error in every page's console. The book
has no live code cells, so this extension unhooks sphinx-thebe's page set-up.

It also takes the book's authors from ``CITATION.cff`` (:mod:`helpers.book.citation`), so every page's
"By ..." line names the authors the How to cite page names.
"""

from __future__ import annotations


def _drop_thebe_listeners(app) -> None:
    for event in ("env-before-read-docs", "doctree-resolved"):
        for listener in list(app.events.listeners.get(event, [])):
            if getattr(listener.handler, "__module__", "") == "sphinx_thebe":
                app.events.listeners[event].remove(listener)


def _authors_from_citation(app, config) -> None:
    from pathlib import Path

    from helpers.book.citation import read_citation

    if (Path(app.srcdir) / "CITATION.cff").is_file():
        config.author = ", ".join(read_citation(Path(app.srcdir)).author_names)


def setup(app):
    app.connect("builder-inited", _drop_thebe_listeners)
    app.connect("config-inited", _authors_from_citation)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
