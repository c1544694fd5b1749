"""A corpus of one file shows no figure of themes by source file: on every dev export (one Web of Science or Scopus
file each) it was one column repeating the themes' shares, "wos-traffic-safety.txt (729 papers)"."""

from types import SimpleNamespace

import pandas as pd
import pytest
from docutils import nodes

from helpers.analysis.pipeline import run_pipeline
from helpers.book.build import sphinx_ext
from helpers.book.reports.figure_index import book_figures

from tests.support import SEED_DIR, page_doctree


def themes_doctree() -> nodes.document:
    return page_doctree("themes", ("sec-themes-map", "sec-themes-by-source", "sec-themes-method"))


@pytest.mark.parametrize("files", [1, 2])
def test_the_themes_page_leaves_themes_by_file_out_for_one_file(monkeypatch, files):
    papers = pd.DataFrame({"source_file": [f"f{i % files}.txt" for i in range(6)], "link_state": "none"})
    monkeypatch.setattr(sphinx_ext, "analysis", lambda: SimpleNamespace(papers=papers))
    doctree = themes_doctree()
    sphinx_ext._drop_sections(SimpleNamespace(env=SimpleNamespace(docname="chapters/themes")), doctree)
    ids = {i for section in doctree.findall(nodes.section) for i in section["ids"]}
    assert ("sec-themes-by-source" in ids, "sec-themes-map" in ids, "sec-themes-method" in ids) == (files > 1, True, True)


def test_the_figure_index_lists_themes_by_file_only_for_several_files(tmp_path):
    folder = tmp_path / "one"
    folder.mkdir()
    text = (SEED_DIR / sorted(p.name for p in SEED_DIR.glob("*.txt"))[0]).read_text(encoding="utf-8")
    (folder / "a.txt").write_text(text, encoding="utf-8")
    one = run_pipeline([folder])
    assert "fig-themes-by-source" not in [label for label, _, _ in book_figures(one)]
    assert "fig-themes-map" in [label for label, _, _ in book_figures(one)]


def test_the_themes_chapter_holds_the_figure_in_its_section():
    from tests.support import ROOT

    chapter = (ROOT / "chapters" / "themes.md").read_text(encoding="utf-8")
    section = chapter.split("(sec-themes-by-source)=", 1)[1].split("(sec-themes-method)=", 1)[0]
    assert ":name: fig-themes-by-source" in section and 'book.show_downloads("fig-themes-by-source")' in section
