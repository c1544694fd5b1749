"""Display math renders: ``$$`` stands alone on its line (the association-strength formula,
written ``$$a_{ij} = ...$$`` inside a list item, rendered as raw LaTeX run into the next sentence)."""

from __future__ import annotations

import pytest

from tests.support import ROOT

PAGES = [ROOT / "intro.md", *sorted((ROOT / "chapters").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_display_math_delimiters_stand_alone(page):
    text = page.read_text(encoding="utf-8")
    bad = [number for number, line in enumerate(text.splitlines(), start=1)
           if "$$" in line and line.strip() != "$$"]
    assert not bad, f"{page.name}: lines {bad} hold $$ beside other text"
    assert text.count("$$") % 2 == 0, f"{page.name}: an unclosed $$"


def test_the_cooccurrence_formulas_are_math_blocks():
    from docutils.core import publish_doctree
    from myst_parser.docutils_ import Parser

    text = (ROOT / "chapters" / "cooccurrence.md").read_text(encoding="utf-8")
    body = text[text.index("(sec-cooccurrence-relevance)="):text.index("(sec-cooccurrence-layout)=")]
    tree = publish_doctree(body, parser=Parser(), settings_overrides={
        "myst_enable_extensions": ["dollarmath", "amsmath"], "report_level": 5})
    blocks = [node.astext() for node in tree.findall() if node.tagname == "math_block"]
    assert len(blocks) == 6  # relevance, C-value, specificity, burstiness, combined score, association strength
    assert blocks[-1].strip() == r"a_{ij} = \frac{2\,m\,c_{ij}}{k_i\,k_j},"
