"""Numbered references that read each target page once per build.

Sphinx resolves every ``{numref}`` by loading the whole page its target is on from the pickled doctree
(``StandardDomain._resolve_numref_xref`` calls ``env.get_doctree``, which unpickles the page again on each call).
The book has dozens of numbered references to figures and tables, several on pages whose doctree holds every glued
output, so that alone took about a second of each build. :class:`NumrefStandardDomain` is Sphinx's standard domain
with one change: the pages a numbered reference looks into are read once per build and only looked at (their
``ids``), never changed. The copies are dropped when Sphinx has read the pages again (``env-updated``).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.domains.std import StandardDomain

__all__ = ["NumrefStandardDomain"]


class _DoctreesReadOnce:
    """A build environment whose ``get_doctree`` hands out one copy of each page, read once; every other attribute
    is the environment's own. Only for a caller that reads the doctree and keeps none of it changed."""

    def __init__(self, env: Any, doctrees: dict[str, nodes.document]) -> None:
        self._env, self._doctrees = env, doctrees

    def get_doctree(self, docname: str) -> nodes.document:
        if docname not in self._doctrees:
            self._doctrees[docname] = self._env.get_doctree(docname)
        return self._doctrees[docname]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)


class NumrefStandardDomain(StandardDomain):
    """Sphinx's standard domain whose numbered references read each target page once per build.

    Attributes
    ----------
    read_doctrees : dict of str to docutils document
        The pages read for numbered references since Sphinx last read the sources.

    Examples
    --------
    >>> NumrefStandardDomain.name
    'std'
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.read_doctrees: dict[str, nodes.document] = {}

    def _resolve_numref_xref(self, env: Any, fromdocname: str, builder: Any, typ: str, target: str,
                             node: Any, contnode: Any) -> Any:
        reading_once: Any = _DoctreesReadOnce(env, self.read_doctrees)  # stands in for the environment
        return super()._resolve_numref_xref(reading_once, fromdocname, builder, typ, target, node, contnode)


def _forget_doctrees(app: Any, env: Any) -> None:
    """Drop the pages read for numbered references: Sphinx has just read the sources again."""
    domain = env.get_domain("std")
    if isinstance(domain, NumrefStandardDomain):
        domain.read_doctrees = {}


def setup(app: Any) -> dict[str, bool]:
    """Sphinx's hook: :class:`NumrefStandardDomain` in place of the standard domain (the book's extension,
    :mod:`helpers.book.build.sphinx_ext`, sets it up; ``extensions = ["helpers.book.build.numrefs"]`` alone too)."""
    app.add_domain(NumrefStandardDomain, override=True)
    app.connect("env-updated", _forget_doctrees)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
