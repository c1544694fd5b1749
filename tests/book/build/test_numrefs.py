"""Numbered references read each target page once per build, and number the same as Sphinx's own domain."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

INDEX = """Index
=====

See :numref:`fig-crashes`, :numref:`fig-crashes` again and :numref:`tab-farms`.

.. toctree::

   roads
"""
ROADS = """Roads
=====

.. _fig-crashes:

.. figure:: crashes.png

   Crashes per junction.

.. _tab-farms:

.. table:: Farms

   ====  ====
   farm  hens
   ====  ====
   a     3
   ====  ====

Here, :numref:`fig-crashes`.
"""


def build(tmp_path: Path, extensions: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[Counter, str, str]:
    """Build the two pages; how often each page's doctree was unpickled, and the two pages' HTML."""
    source = tmp_path / "src"
    source.mkdir(parents=True)
    (source / "conf.py").write_text(f"extensions = {extensions!r}\nnumfig = True\n", encoding="utf-8")
    (source / "index.rst").write_text(INDEX, encoding="utf-8")
    (source / "roads.rst").write_text(ROADS, encoding="utf-8")
    reads: Counter = Counter()
    original = BuildEnvironment.get_doctree

    def counted(env: BuildEnvironment, docname: str):
        reads[docname] += 1
        return original(env, docname)

    monkeypatch.setattr(BuildEnvironment, "get_doctree", counted)
    out = tmp_path / "html"
    Sphinx(str(source), str(source), str(out), str(tmp_path / "doctrees"), "html", status=None, warning=None,
           freshenv=True).build()
    return reads, (out / "index.html").read_text(encoding="utf-8"), (out / "roads.html").read_text(encoding="utf-8")


def test_numbered_references_read_each_page_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain_reads, plain_index, plain_roads = build(tmp_path / "plain", [], monkeypatch)
    reads, index, roads = build(tmp_path / "once", ["helpers.book.build.numrefs"], monkeypatch)
    # The page of roads is read once to be written; Sphinx 7.4 reads it again for every look at a numbered
    # reference to it (three from the index, one from itself: six reads), the domain once for them all.
    assert (plain_reads["roads"], reads["roads"]) == (7, 2)
    assert index.count("Fig. 1") == 2 and index.count("Table 1") == 1 and roads.count("Fig. 1") >= 1
    assert (index, roads) == (plain_index, plain_roads)
