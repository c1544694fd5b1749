"""Book-level files: CITATION.cff is valid, the figure registry matches the chapters, labels follow the convention."""

import re

import yaml

from helpers.book.figures import FIGURES, GROUP_FIGURES

from tests.support import ROOT


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
    # The figure index is generated from the registry: every figure once, in the order Sphinx numbers them.
    from helpers.book.reports.figure_index import chapter_order, figure_index

    index = figure_index(FIGURES + GROUP_FIGURES, version="1", corpus_sha256="0" * 64, order=chapter_order(ROOT))
    in_index = re.findall(r"\{numref\}`(fig-[a-z0-9-]+)`", index)
    in_pages = [label for page in chapter_order(ROOT)
                for label in re.findall(r":name: (fig-[a-z0-9-]+)", (ROOT / f"{page}.md" if page == "intro" else
                                                                      ROOT / "chapters" / f"{page}.md").read_text())]
    assert in_index == in_pages


def test_every_figure_has_alt_text():
    checked = 0
    for chapter in PAGES:
        text = chapter.read_text(encoding="utf-8")
        blocks = re.findall(r"```\{glue:figure\}.*?```|:::\{glue:figure\}.*?:::", text, re.S)
        # Every glue:figure directive of the page is a block read here: a form the pattern misses fails.
        assert len(blocks) == text.count("{glue:figure}"), chapter.name
        for block in blocks:
            assert re.search(r":alt: \S.{20,}", block), (chapter.name, block[:80])
        checked += len(blocks)
    assert checked == len(FIGURES + GROUP_FIGURES)  # every figure of every build, each on one page


def test_chapters_are_prose_with_short_cells():
    """A chapter holds at most 40 lines of code and no cell over 10 (comments counted, blank lines not): what it
    computes lives in ``helpers`` (``helpers.book.pages`` glues and draws each page)."""
    import jupytext

    budgets = {}
    for page in [ROOT / "intro.md", *sorted((ROOT / "chapters").glob("*.md"))]:
        cells = [cell.source for cell in jupytext.read(page).cells if cell.cell_type == "code"]
        lines = [sum(1 for line in cell.splitlines() if line.strip()) for cell in cells]
        budgets[page.name] = (sum(lines), max(lines, default=0))
    assert len(budgets) == 12 and budgets["themes.md"][0] > 10  # the count sees the chapters' code
    assert {name: budget for name, budget in budgets.items() if budget[0] > 40 or budget[1] > 10} == {}


def test_glue_writes_what_myst_nb_glue_writes(monkeypatch):
    import IPython.display
    import myst_nb.ext.glue
    from IPython.display import Markdown

    from helpers.book import display

    calls = []
    monkeypatch.setattr(myst_nb.ext.glue, "ipy_display", lambda *args, **kwargs: calls.append((args, kwargs)))
    monkeypatch.setattr(IPython.display, "display", lambda *args, **kwargs: calls.append((args, kwargs)))
    for value, shown in [("1,234", False), (Markdown("*a* [b](c.html)"), False), (0.25, True)]:
        myst_nb.ext.glue.glue("name", value, display=shown)
        display.glue("name", value, display=shown)
    assert len(calls) == 6
    assert calls[0::2] == calls[1::2]
    assert calls[0][0][0] == {"application/papermill.record/text/plain": "'1,234'"}
