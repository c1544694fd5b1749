"""Book-level files: CITATION.cff is valid, the figure registry matches the chapters, labels follow the convention."""

import re

import yaml

from helpers.book.figures import FIGURES, GROUP_FIGURES

from conftest import ROOT


def test_citation_cff_is_valid():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0"
    for key in ["message", "title", "authors", "version", "date-released", "license"]:
        assert citation.get(key), key
    assert all("name" in a or "family-names" in a for a in citation["authors"])
    from helpers import __version__
    assert str(citation["version"]) == __version__
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(citation["date-released"]))


PAGES = [*sorted((ROOT / "chapters").glob("*.md")), ROOT / "intro.md"]


def test_figure_registry_matches_chapters():
    labels = {}
    for chapter in PAGES:
        for label in re.findall(r":name: (fig-[a-z0-9-]+)", chapter.read_text(encoding="utf-8")):
            labels[label] = chapter.stem
    assert labels == {label: chapter for label, chapter, _ in FIGURES + GROUP_FIGURES}
    for label, chapter, _ in FIGURES + GROUP_FIGURES:
        assert label.startswith(f"fig-{chapter}-")
    index = (ROOT / "chapters" / "figures.md").read_text(encoding="utf-8")
    assert set(re.findall(r"\{numref\}`(fig-[a-z0-9-]+)`", index)) == set(labels)


def test_every_figure_has_alt_text():
    for chapter in PAGES:
        text = chapter.read_text(encoding="utf-8")
        for block in re.findall(r"```\{glue:figure\}.*?```|:::\{glue:figure\}.*?:::", text, re.S):
            assert re.search(r":alt: \S.{20,}", block), (chapter.name, block[:80])
