"""Small explorer inputs written in the tests: three papers with every text field hostile, and three whose abstracts
carry inline tags. The explorer's Python tests (``tests/web``) and its browser tests (``tests/browser``) read them."""

from __future__ import annotations

import pandas as pd

HOSTILE = '<script>alert("x")</script> & "quoted" \'single\''


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


# Abstracts as PMLR publishes them (inline <em>, <b>), and hostile tags that must stay text.
MARKUP_TEXTS = [
    "We call it the <em>consensus of dependent experts</em> and show it is <b>fast</b>: x<sub>i</sub>, n<sup>2</sup>.",
    "Hostile <em onclick=alert('em')>click</em> and <script>alert('script')</script> and "
    "<sup><img src=x onerror=alert('img')></sup> and <i>fine</i>.",
    "Odd <b>never closed and <em>crossed</b></em> tags, a $k<i>$ bound, <strong>strong</strong>.",
]


MARKUP_FILE = "000_2e4aa40cf9124fb1.txt"  # a seed file's name: a hash a reader cannot read
MARKUP_HEADERS = {MARKUP_FILE: "ICML 2024 Papers", "b.txt": None}


def markup_papers():
    """Three papers whose abstracts carry inline tags (allowed, hostile, unbalanced), for the explorer."""
    papers = pd.DataFrame({
        "paper_id": ["m1", "m2", "m3"], "source_file": [MARKUP_FILE] * 2 + ["b.txt"], "position": [1, 2, 3],
        "display_title": ["The <em>consensus</em> rule", "Schrödinger <b onmouseover=alert('t')>bridges</b>",
                          "I²SB and NA²Q"],
        "authors": ["A", "B", "C"], "theme": pd.array([1, 1, pd.NA], dtype="Int64"),
        "link_state": ["none"] * 3, "n_words": [20, 20, 20], "text": MARKUP_TEXTS,
    })
    links = pd.DataFrame({"paper_id": [], "url": [], "kind": []})
    statements = pd.DataFrame({"paper_id": ["m1"], "sentence_no": [1], "statement": ["linked"],
                               "sentence": ["The <em>code</em> is public."]})
    return papers, links, statements, {1: "graphs"}
