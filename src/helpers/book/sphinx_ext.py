"""A small Sphinx extension for the offline book.

Jupyter Book 1.x always loads sphinx-thebe, whose page set-up runs twice and
declares ``THEBE_JS_URL`` twice, an error in every page's console. The book
has no live code cells, so this extension unhooks sphinx-thebe's page set-up.
"""

from __future__ import annotations


def _drop_thebe_listeners(app) -> None:
    for event in ("env-before-read-docs", "doctree-resolved"):
        for listener in list(app.events.listeners.get(event, [])):
            if getattr(listener.handler, "__module__", "") == "sphinx_thebe":
                app.events.listeners[event].remove(listener)


def setup(app):
    app.connect("builder-inited", _drop_thebe_listeners)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
