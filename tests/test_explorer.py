"""The explorer's Python side: titles, the data file and the page shell (browser tests drive the page)."""

from __future__ import annotations

import json

import pandas as pd

from helpers.metadata import short_text, strip_markup, with_titles


def test_fallback_title_strips_html_and_markdown_but_keeps_math():
    assert strip_markup("<b>Libra</b> is *fast* and **small**: see [the code](https://x.org) `lib`.") \
        == "Libra is fast and small: see the code lib."
    assert short_text("<b>Libra</b>: a $\\mathcal{O}(n)$ sketch for <i>streams</i> of data", 5) \
        == "Libra: a $\\mathcal{O}(n)$ sketch for…"
    assert strip_markup("a < b and c > d, x<sub>i</sub>") == "a < b and c > d, xi"


def test_with_titles_falls_back_to_clean_first_words():
    papers = pd.DataFrame({"paper_id": ["p1", "p2"], "text_sha1": ["s1", "s2"],
                           "text": ["<b>Libra</b> balances load.", "Known paper text."]})
    meta = pd.DataFrame({"abstract_sha1": ["s2"], "title": ["Known"], "authors": ["A. B"],
                         "pmlr_id": [""], "openreview_id": [""], "pdf_url": [""]})
    titled = with_titles(papers, meta)
    assert titled["display_title"].tolist() == ["p1: Libra balances load.", "Known"]
    assert titled["title"].tolist() == ["", "Known"]
