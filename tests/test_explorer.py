"""The explorer's Python side: titles, the data file and the page shell (browser tests drive the page)."""

from __future__ import annotations

import json

import pandas as pd

from helpers.analysis.metadata import short_text, strip_markup, with_titles


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


HOSTILE = '<script>alert("x")</script> & "quoted"'


def three_papers():
    """Three papers, their links, claims, theme labels and map terms, every text field hostile."""
    from types import SimpleNamespace

    from scipy import sparse

    papers = pd.DataFrame({
        "paper_id": ["p2", "p1", "p3"],
        "source_file": ["b.txt", "a.txt", "a.txt"],
        "position": [1, 2, 1],
        "display_title": ["Two " + HOSTILE, "One", "Three"],
        "authors": ["A & B", 'C "D"', "<i>E</i>"],
        "theme": pd.array([2, 1, pd.NA], dtype="Int64"),
        "link_state": ["dangling", "linked", "none"],
        "n_words": [12, 10, 3],
        "text": ["Code is available. " + HOSTILE, "See https://github.com/o/r and $x<1$.", "Plain."],
    })
    links = pd.DataFrame({
        "paper_id": ["p1", "p1", "p1", "p2"],
        "url": ["https://github.com/o/r", "https://arxiv.org/abs/1", "https://github.com/o/r",
                "javascript:alert(1)"],
        "kind": ["code", "paper", "code", "code"],
    })
    statements = pd.DataFrame({
        "paper_id": ["p2", "p1"], "sentence_no": [1, 1], "statement": ["dangling", "linked"],
        "sentence": ["Code is available.", "See https://github.com/o/r and $x<1$."],
        "pattern": ["available", "url"],
    })
    labels = {2: "graph · <b>gnn</b>", 1: 'llm & "language"'}
    cooccurrence = SimpleNamespace(
        terms=pd.DataFrame({"term": ["graph", "<model>"]}), paper_ids=["p1", "p2", "p3"],
        paper_terms=sparse.csr_matrix([[1, 1], [0, 1], [0, 0]]))
    return papers, links, statements, labels, cooccurrence


EXPECTED_DATA_FILE = (
    'window.EXPLORER_DATA = {"themes":{"1":"llm \\u0026 \\"language\\"",'
    '"2":"graph \\u00b7 \\u003cb\\u003egnn\\u003c/b\\u003e"},'
    '"states":["linked","dangling","promised","none"],"files":["a.txt","b.txt"],'
    '"terms":["graph","\\u003cmodel\\u003e"],"papers":{"id":["p3","p1","p2"],'
    '"title":["Three","One","Two \\u003cscript\\u003ealert(\\"x\\")\\u003c/script\\u003e \\u0026 \\"quoted\\""],'
    '"authors":["\\u003ci\\u003eE\\u003c/i\\u003e","C \\"D\\"","A \\u0026 B"],'
    '"theme":[null,1,2],"state":["none","linked","dangling"],"words":[3,10,12],"file":[0,0,1],'
    '"text":["Plain.","See https://github.com/o/r and $x\\u003c1$.",'
    '"Code is available. \\u003cscript\\u003ealert(\\"x\\")\\u003c/script\\u003e \\u0026 \\"quoted\\""],'
    '"links":[[],["https://github.com/o/r"],[]],'
    '"claims":[[],[["linked","See https://github.com/o/r and $x\\u003c1$."]],[["dangling","Code is available."]]],'
    '"terms":[[],[0,1],[1]]}};\n'
)


def test_data_file_exact_content_for_three_papers(tmp_path):
    from helpers.web.explorer import DATA_FILE, explorer_data, write_explorer_data

    path = write_explorer_data(explorer_data(*three_papers()), tmp_path)
    assert path == tmp_path / DATA_FILE
    assert path.read_text(encoding="ascii") == EXPECTED_DATA_FILE


def test_data_file_escapes_every_field_and_round_trips(tmp_path):
    from helpers.web.explorer import data_script, explorer_data

    data = explorer_data(*three_papers())
    script = data_script(data)
    for character in "<>&":
        assert character not in script
    assert script.isascii()
    decoded = json.loads(script[len("window.EXPLORER_DATA = "):-2])
    assert decoded == data
    assert decoded["papers"]["title"][2] == "Two " + HOSTILE
    assert decoded["papers"]["text"][2].endswith(HOSTILE)


def test_only_http_links_reach_the_data():
    from helpers.web.explorer import explorer_data

    data = explorer_data(*three_papers())
    urls = [url for urls in data["papers"]["links"] for url in urls]
    assert urls == ["https://github.com/o/r"]
    assert "javascript" not in json.dumps(data)


def test_no_theme_model_and_no_map():
    from helpers.web.explorer import explorer_data

    papers, links, statements, _, _ = three_papers()
    data = explorer_data(papers, links, statements, {}, None)
    assert data["themes"] == {} and data["terms"] == []
    assert data["papers"]["terms"] == [[], [], []]


def test_shell_holds_no_corpus_text_and_loads_the_data_file():
    from helpers.web.explorer import explorer_html

    page = explorer_html()
    assert '<script src="../figures/explorer-data.js"></script>' in page
    assert 'data-page-size="50"' in page
    assert "innerHTML" not in page and "insertAdjacentHTML" not in page and "document.write" not in page
    odd = explorer_html(data_src='x.js"><script>alert(1)</script>')
    assert '<script>alert(1)' not in odd
    assert 'src="x.js&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in odd


def test_explorer_url_escapes_parameters():
    from helpers.web.explorer import explorer_url

    assert explorer_url() == "explorer.html"
    assert explorer_url(terms=("a&b", "<c>"), state="linked") == "explorer.html?state=linked&term=a%26b&term=%3Cc%3E"


def test_links_column_holds_the_kinds_that_make_a_paper_linked():
    from helpers.web.explorer import explorer_data
    from helpers.analysis.urls import LINKED_KINDS

    papers, _, statements, labels, cooccurrence = three_papers()
    links = pd.DataFrame({"paper_id": ["p1"] * 5,
                          "url": ["https://github.com/o/r", "https://huggingface.co/datasets/d", "https://o.github.io/",
                                  "https://arxiv.org/abs/1", "https://en.wikipedia.org/wiki/X"],
                          "kind": ["code", "data", "project page", "paper", "other"]})
    data = explorer_data(papers, links, statements, labels, cooccurrence)
    assert LINKED_KINDS == ("code", "data", "project page")
    assert data["papers"]["links"][1] == ["https://github.com/o/r", "https://huggingface.co/datasets/d",
                                          "https://o.github.io/"]
