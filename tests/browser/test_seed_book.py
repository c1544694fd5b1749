"""The built book in a real browser (Debian Chromium driven by Playwright), served on 127.0.0.1.

Run by ``make test`` after the strict build (``pytest -m browser``); the book under test is
``$BOOK_HTML`` (default ``_build/strict/_build/html``).
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.support import ROOT
from tests.support.browser import PageWatch, serve
from tests.support.explorer_papers import MARKUP_HEADERS, markup_papers, three_papers

pytestmark = pytest.mark.browser

PAGES = ["intro.html", "chapters/corpus.html", "chapters/themes.html", "chapters/cooccurrence.html",
         "chapters/links.html", "chapters/explorer.html", "chapters/figures.html", "chapters/cite.html",
         "chapters/reproduce.html"]
SCREENSHOTS = ROOT / "_build" / "screenshots"


@pytest.mark.parametrize("path", PAGES)
def test_page_loads_clean_and_offline(browser, seed_site, path):
    base, _ = seed_site
    page = browser.new_page()
    watch = PageWatch(page, base)
    # No request at all may fail or leave 127.0.0.1, late ones (fonts, MathJax's parts) too: wait until the
    # network is idle. Tests of one feature wait for the state the page shows instead.
    page.goto(f"{base}/{path}", wait_until="networkidle")
    assert watch.errors == []
    assert watch.failed == []
    assert watch.foreign == []
    images = page.eval_on_selector_all("img", "els => els.map(e => [e.naturalWidth, e.getAttribute('alt') || ''])")
    for width, alt in images:
        assert width > 0
        assert alt.strip(), "an image without alt text"
    downloads = page.eval_on_selector_all("a[download]", "els => els.map(e => e.href)")
    for href in downloads:
        assert page.request.get(href).status == 200, href
    assert page.eval_on_selector_all("a[href^='javascript:' i]", "els => els.length") == 0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / (path.replace("/", "_").replace(".html", ".png"))), full_page=True)
    page.close()


def test_figures_have_images_and_downloads(browser, seed_site):
    base, folder = seed_site
    page = browser.new_page()
    page.goto(f"{base}/chapters/themes.html")
    assert page.eval_on_selector_all("figure img", "els => els.length") == 5
    assert page.eval_on_selector_all("a[download][href$='.svg']", "els => els.length") == 5
    page.close()


# Each download line's top against the top of the nearest box that clips what overflows it: a line drawn above that
# box has the tops of its letters cut off.
CLIPPED_DOWNLOAD_LINES = """() => [...document.querySelectorAll('.figure-downloads')].filter(line => {
  let box = line.parentElement;
  while (box && getComputedStyle(box).overflowY === 'visible' && getComputedStyle(box).overflowX === 'visible') {
    box = box.parentElement;
  }
  return box && line.getBoundingClientRect().top < box.getBoundingClientRect().top - 0.5;
}).map(line => line.textContent.slice(0, 40))"""


@pytest.mark.parametrize("chapter", ["themes", "cooccurrence", "links"])
def test_figure_download_lines_are_whole(browser, seed_site, chapter):
    base, _ = seed_site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base}/chapters/{chapter}.html")
    assert page.eval_on_selector_all(".figure-downloads", "els => els.length") > 0
    assert page.evaluate(CLIPPED_DOWNLOAD_LINES) == []
    page.close()


def explorer_data(folder: Path) -> dict:
    """The explorer's data file as Python (``window.EXPLORER_DATA = {...};``)."""
    text = (folder / "figures" / "explorer-data.js").read_text(encoding="ascii")
    prefix = "window.EXPLORER_DATA = "
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix):-2])


# The explorer has drawn its rows (or said that its data did not load).
EXPLORER_READY = ("() => document.querySelector('#explorer-app .explorer-count').textContent"
                  " !== 'Loading the papers\u2026'")


def open_explorer(browser, base: str, query: str = ""):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watch = PageWatch(page, base)
    page.goto(f"{base}/chapters/explorer.html{query}")
    page.wait_for_function(EXPLORER_READY)
    return page, watch


def count_text(page) -> str:
    return page.inner_text("#explorer-app .explorer-count")


def shown_rows(page) -> int:
    return page.eval_on_selector_all("#explorer-app tr.paper-row", "rows => rows.length")


def assert_clean(watch: PageWatch) -> None:
    assert watch.errors == []
    assert watch.failed == []
    assert watch.foreign == []


def test_explorer_pages_search_filters_and_sort(browser, seed_site):
    base, folder = seed_site
    data = explorer_data(folder)
    papers, total = data["papers"], len(data["papers"]["id"])
    page, watch = open_explorer(browser, base)
    assert count_text(page) == f"{total} of {total} papers"
    assert shown_rows(page) == min(total, 50)
    page.click("#explorer-app .pager-last")
    assert shown_rows(page) == total - 50 * ((total - 1) // 50)
    page.click("#explorer-app .pager-first")
    assert shown_rows(page) == 50
    page.fill("#explorer-app input.explorer-search", "graph")
    themes = ["" if t is None else f"{t}. {data['themes'][str(t)]}" for t in papers["theme"]]
    expected = sum("graph" in " ".join(fields).lower() for fields in zip(
        papers["id"], papers["title"], papers["authors"], themes, papers["state"], papers["text"]))
    assert 0 < expected < total
    assert count_text(page) == f"{expected} of {total} papers"
    page.fill("#explorer-app input.explorer-search", "graph neural hypothetical-nothing")
    assert count_text(page) == f"0 of {total} papers"
    assert "No paper matches" in page.inner_text("#explorer-app tbody")
    page.fill("#explorer-app input.explorer-search", "")
    page.select_option("#explorer-app select.explorer-state", "linked")
    assert count_text(page) == f"{papers['state'].count('linked')} of {total} papers"
    page.select_option("#explorer-app select.explorer-state", "")
    theme = sorted(data["themes"], key=int)[0]
    page.select_option("#explorer-app select.explorer-theme", theme)
    assert count_text(page) == f"{papers['theme'].count(int(theme))} of {total} papers"
    page.select_option("#explorer-app select.explorer-theme", "")
    page.click("#explorer-app th[data-sort=words] button")
    page.click("#explorer-app th[data-sort=words] button")
    words = page.eval_on_selector_all("#explorer-app tr.paper-row td.words", "c => c.map(e => +e.textContent)")
    assert words == sorted(papers["words"], reverse=True)[:50]
    assert_clean(watch)
    page.close()


def test_explorer_url_filters(browser, seed_site):
    base, folder = seed_site
    data = explorer_data(folder)
    papers, total = data["papers"], len(data["papers"]["id"])
    page, watch = open_explorer(browser, base, "?state=linked")
    assert count_text(page) == f"{papers['state'].count('linked')} of {total} papers"
    assert page.input_value("#explorer-app select.explorer-state") == "linked"
    page.close()
    theme = sorted(data["themes"], key=int)[-1]
    page, watch_theme = open_explorer(browser, base, f"?theme={theme}")
    assert count_text(page) == f"{papers['theme'].count(int(theme))} of {total} papers"
    page.goto(f"{base}/chapters/explorer.html?theme=999")
    assert count_text(page) == f"0 of {total} papers"
    assert "theme 999" in page.inner_text("#explorer-app tbody")
    page.close()
    pair = next((a, b) for a in range(len(data["terms"])) for b in range(a + 1, len(data["terms"]))
                if any(a in used and b in used for used in papers["terms"]))
    both = sum(pair[0] in used and pair[1] in used for used in papers["terms"])
    query = "?" + "&".join("term=" + quote(data["terms"][t]) for t in pair)
    page, watch2 = open_explorer(browser, base, query)
    assert count_text(page) == f"{both} of {total} papers"
    assert page.inner_text("#explorer-app .explorer-terms").count("\u00d7") == 2
    page.close()
    page, watch3 = open_explorer(browser, base, "?term=no-such-term&q=graph")
    assert count_text(page) == f"0 of {total} papers"
    assert "no-such-term" in page.inner_text("#explorer-app tbody")
    assert page.input_value("#explorer-app input.explorer-search") == "graph"
    assert "q=graph" in page.url
    page.close()
    for watched in (watch, watch_theme, watch2, watch3):
        assert_clean(watched)


def test_explorer_deep_link_expands_the_paper_on_its_page_and_typesets_math(browser, seed_site):
    base, folder = seed_site
    data = explorer_data(folder)
    papers = data["papers"]
    with_math = [k for k, text in enumerate(papers["text"]) if re.search(r"\$[^$]+\$", text)]
    late = [k for k in with_math if k >= 50] or with_math
    paper = papers["id"][late[0]]
    page, watch = open_explorer(browser, base, f"?state=none-such#paper-{paper}")
    detail = page.locator(f"#paper-{paper}-abstract")
    assert detail.is_visible()
    page.wait_for_function(f"() => document.querySelectorAll('#paper-{paper}-abstract mjx-container').length > 0")
    assert page.eval_on_selector_all("#explorer-app tr.paper-detail", "rows => rows.length") == 1
    assert_clean(watch)
    claimed = next(k for k, claims in enumerate(papers["claims"]) if claims)
    page.goto(f"{base}/chapters/explorer.html#paper-{papers['id'][claimed]}")
    page.wait_for_selector(f"#paper-{papers['id'][claimed]}-abstract .paper-claims")
    text = page.inner_text(f"#paper-{papers['id'][claimed]}-abstract")
    for statement, sentence in papers["claims"][claimed]:
        assert statement in text
        assert " ".join(sentence.split()) in " ".join(text.split())
    page.close()


def test_explorer_term_button_filters_and_works_from_disk(browser, seed_site):
    base, folder = seed_site
    data = explorer_data(folder)
    papers, total = data["papers"], len(data["papers"]["id"])
    k = next(k for k, used in enumerate(papers["terms"]) if used)
    page = browser.new_page()
    watch = PageWatch(page, "file://")
    page.goto((folder / "chapters" / "explorer.html").as_uri() + f"#paper-{papers['id'][k]}")
    assert count_text(page) == f"{total} of {total} papers"
    term = data["terms"][papers["terms"][k][0]]
    page.click(f"#paper-{papers['id'][k]}-abstract .paper-terms button >> nth=0")
    using = sum(papers["terms"][k][0] in used for used in papers["terms"])
    assert count_text(page) == f"{using} of {total} papers"
    assert term in page.inner_text("#explorer-app .explorer-terms")
    assert watch.errors == []
    page.close()


def test_deep_link_opens_the_paper(browser, seed_site):
    base, _ = seed_site
    page = browser.new_page()
    page.goto(f"{base}/chapters/themes.html")
    href = page.eval_on_selector("a[href*='explorer.html#paper-']", "e => e.getAttribute('href')")
    page.goto(f"{base}/chapters/{href}")
    paper = href.split("#")[1]
    page.wait_for_selector(f"#{paper}-abstract")
    assert page.locator(f"#{paper}-abstract").is_visible()
    page.close()


@contextlib.contextmanager
def explorer_site(folder: Path, data: dict, *, with_mathjax: bool = False, **shell_options):
    """The explorer of ``data`` in a page of its own (no book build), served on 127.0.0.1: yields its address."""
    from helpers.web.explorer import explorer_html
    from helpers.web.explorer_data import write_explorer_data

    write_explorer_data(data, folder)
    if with_mathjax:
        (folder / "mathjax").symlink_to(ROOT / "_vendor" / "mathjax")
        shell_options["mathjax_src"] = "mathjax/es5/tex-chtml.js"
    shell = explorer_html(data_src="explorer-data.js", **shell_options)
    (folder / "explorer.html").write_text("<!doctype html><html><head><meta charset='utf-8'>"
                                          "<link rel='icon' href='data:,'></head><body>" + shell + "</body></html>",
                                          encoding="utf-8")
    server = serve(folder)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@contextlib.contextmanager
def opened_explorer(browser, folder: Path, data: dict, query: str = "", **shell_options):
    """The explorer of ``data`` (:func:`explorer_site`) opened at 1280 px with ``query`` and ready: yields the page
    and its :class:`PageWatch`."""
    with explorer_site(folder, data, **shell_options) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        watch = PageWatch(page, base)
        page.goto(f"{base}/explorer.html{query}")
        page.wait_for_function(EXPLORER_READY)
        try:
            yield page, watch
        finally:
            page.close()


def test_sampled_explorer_says_a_linked_paper_is_not_in_the_sample(browser, tmp_path):
    """A sample's data (three papers of ten) in a page of its own: a deep link to a left-out paper says so."""
    from helpers.web.explorer_data import explorer_data

    with explorer_site(tmp_path, explorer_data(*three_papers(), corpus_papers=10)) as base:
        page = browser.new_page()
        page.goto(f"{base}/explorer.html#paper-left-out")
        page.wait_for_function(EXPLORER_READY)
        assert count_text(page) == ("Paper left-out is not in this sample of 3 of the 10 papers; the full table "
                                    "above lists every paper.")
        page.goto(f"{base}/explorer.html#paper-p1")
        page.wait_for_selector("#paper-p1-abstract")
        assert count_text(page) == "3 of 3 papers"
        page.close()


@pytest.fixture()
def markup_explorer(browser, tmp_path):
    """The explorer of tests.support.explorer_papers.markup_papers in a page of its own (no book build), opened."""
    from helpers.web.explorer_data import explorer_data

    data = explorer_data(*markup_papers(), headers=MARKUP_HEADERS)
    with opened_explorer(browser, tmp_path, data, with_mathjax=True) as (page, watch):
        yield page, watch


def inline_elements(page, selector: str) -> list:
    """Every element under ``selector`` but typeset math: [tag, attribute names, text]."""
    return page.eval_on_selector_all(
        f"{selector} *", "els => els.filter(e => !e.closest('mjx-container'))"
                         ".map(e => [e.tagName.toLowerCase(), e.getAttributeNames(), e.textContent])")


def test_explorer_renders_allowed_inline_tags_and_shows_the_rest_as_text(markup_explorer):
    page, watch = markup_explorer
    for paper in ("m1", "m2", "m3"):
        page.click(f"#paper-{paper} button.expand")
        page.wait_for_selector(f"#paper-{paper}-abstract")
    assert inline_elements(page, "#paper-m1-abstract .abstract-text") == [
        ["em", [], "consensus of dependent experts"], ["b", [], "fast"], ["sub", [], "i"], ["sup", [], "2"]]
    assert page.inner_text("#paper-m1-abstract .abstract-text").startswith("We call it the consensus of dependent")
    assert inline_elements(page, "#paper-m1-abstract .claim-sentence") == [["em", [], "code"]]
    assert inline_elements(page, "#paper-m2-abstract .abstract-text") == [
        ["sup", [], "<img src=x onerror=alert('img')>"], ["i", [], "fine"]]
    hostile = page.inner_text("#paper-m2-abstract .abstract-text")
    assert "<em onclick=alert('em')>click</em>" in hostile and "<script>alert('script')</script>" in hostile
    # "<b>" never closed and "</b>" crossing the <em> stay text; the math's "<i>" is math, not a tag
    page.wait_for_function("() => document.querySelectorAll('#paper-m3-abstract mjx-container').length === 1")
    assert [e for e in inline_elements(page, "#paper-m3-abstract .abstract-text") if e[0] != "mjx-container"] == [
        ["em", [], "crossed</b>"], ["strong", [], "strong"]]
    assert "Odd <b>never closed and crossed</b> tags" in page.inner_text("#paper-m3-abstract")
    assert inline_elements(page, "#paper-m1 a.paper-anchor") == [["em", [], "consensus"]]
    assert page.inner_text("#paper-m2 a.paper-anchor") == "Schrödinger <b onmouseover=alert('t')>bridges</b>"
    assert page.eval_on_selector_all("#explorer-app img, #explorer-app script, #explorer-app [onclick], "
                                     "#explorer-app [onerror], #explorer-app [onmouseover]", "els => els.length") == 0
    assert watch.dialogs == [] and watch.errors == [] and watch.failed == []


def test_explorer_search_folds_accents_and_case(markup_explorer):
    page, watch = markup_explorer
    for query, expected in [("schrodinger", "1 of 3 papers"), ("SCHRÖDINGER", "1 of 3 papers"), ("i2sb", "1 of 3 papers"),
                            ("consensus", "1 of 3 papers"), ("schrödinger qqq", "0 of 3 papers")]:
        page.fill("#explorer-app input.explorer-search", query)
        assert count_text(page) == expected, query
    page.fill("#explorer-app input.explorer-search", "Schrodinger")
    assert page.eval_on_selector_all("#explorer-app tr.paper-row", "rows => rows.map(r => r.id)") == ["paper-m2"]
    assert watch.errors == []


def test_explorer_source_column_says_the_header_or_a_readable_name_never_a_hash(markup_explorer):
    page, watch = markup_explorer
    cells = page.eval_on_selector_all("#explorer-app td.file", "cells => cells.map(c => [c.textContent, c.title])")
    assert cells == [["ICML 2024 Papers", "file 000_2e4aa40cf9124fb1.txt"]] * 2 + [["b.txt", "file b.txt"]]
    assert page.inner_text("#explorer-app thead").split("\t")[-1].strip() == "Source"
    page.click("#paper-m1 button.expand")
    assert page.inner_text("#paper-m1-abstract .paper-meta") == "paper_id m1 · file 000_2e4aa40cf9124fb1.txt"
    assert watch.errors == []


def test_explorer_links_the_code_given_to_the_venue_and_filters_by_it(browser, tmp_path):
    """Issue 38: a paper's code link given to the venue (its metadata) in its row and its abstract, and a filter;
    only http(s) links, papers whose input has no code field in neither list."""
    from helpers.web.explorer_data import explorer_data

    papers, links, statements, labels, cooccurrence = three_papers()
    papers = papers.assign(venue_code_field=[True, True, False], venue_code=[True, False, False],
                           venue_code_url=["https://github.com/o/v javascript:alert(1)", "", ""])
    data = explorer_data(papers, links, statements, labels, cooccurrence)
    with opened_explorer(browser, tmp_path, data, "?venue_code=given", with_mathjax=True,
                         with_venue_code=True) as (page, watch):
        assert count_text(page) == "1 of 3 papers"
        assert page.input_value("#explorer-app select.explorer-venue") == "given"
        assert page.eval_on_selector_all("#explorer-app a.venue-code", "els => els.map(e => [e.textContent, e.href])"
                                         ) == [["code given to the venue", "https://github.com/o/v"]]
        assert page.inner_text("#paper-p2 td.state") == "dangling"  # the abstract's state, unchanged
        page.click("#paper-p2 button.expand")
        page.wait_for_selector("#paper-p2-abstract")
        assert page.inner_text("#paper-p2-abstract .venue-code-detail") == (
            "Code link given to the venue (the paper's metadata, not its abstract): github.com/o/v")
        page.select_option("#explorer-app select.explorer-venue", "not-given")
        assert count_text(page) == "1 of 3 papers"
        assert page.eval_on_selector_all("#explorer-app tr.paper-row", "rows => rows.map(r => r.id)") == ["paper-p1"]
        assert "venue_code=not-given" in page.url
        page.select_option("#explorer-app select.explorer-venue", "")
        assert count_text(page) == "3 of 3 papers"
        assert page.eval_on_selector_all("#explorer-app a[href^='javascript']", "els => els.length") == 0
        assert watch.dialogs == [] and watch.errors == [] and watch.failed == []


def test_explorer_shows_both_grains_and_filters_by_broad_theme(browser, tmp_path):
    """Issue 38, two grains: each row names its broad theme and its top two themes with their shares ("mixed" under
    half); the broad theme filter works from the URL and the select; hostile labels stay text."""
    import pandas as pd
    from helpers.web.explorer_data import explorer_data

    papers, links, statements, labels, cooccurrence = three_papers()
    papers = papers.assign(theme_weight=[0.45, 0.9, 0.0], second_theme=pd.array([1, 2, pd.NA], dtype="Int64"),
                           second_theme_weight=[0.35, 0.1, 0.0], mixed=[True, False, False],
                           broad_theme=["B", "A", ""], broad_theme_weight=[0.45, 0.9, 0.0])
    hierarchy = pd.DataFrame({"broad_theme": ["A", "B"], "broad_label": ["<img src=x onerror=alert(1)>", "graph"],
                              "theme": [1, 2]})
    data = explorer_data(papers, links, statements, labels, cooccurrence, hierarchy=hierarchy)
    with opened_explorer(browser, tmp_path, data, "?broad=B", with_broad=True) as (page, watch):
        assert count_text(page) == "1 of 3 papers"
        assert page.input_value("#explorer-app select.explorer-broad") == "B"
        cell = page.eval_on_selector("#paper-p2 td.theme", "c => [...c.children].map(d => d.textContent)")
        assert cell == ["B. graph", "2. graph · <b>gnn</b> (45%)mixed", '1. llm & "language" (35%)']
        page.select_option("#explorer-app select.explorer-broad", "A")
        assert count_text(page) == "1 of 3 papers" and "broad=A" in page.url
        assert page.inner_text("#paper-p1 td.theme .theme-broad") == "A. <img src=x onerror=alert(1)>"
        assert page.eval_on_selector_all("#explorer-app .theme-mixed", "els => els.length") == 0
        assert page.eval_on_selector_all("#explorer-app select.explorer-broad option", "os => os.map(o => o.text)") == [
            "All broad themes", "A. <img src=x onerror=alert(1)> (theme 1)", "B. graph (theme 2)"]
        page.select_option("#explorer-app select.explorer-broad", "")
        assert count_text(page) == "3 of 3 papers"
        assert page.eval_on_selector_all("#explorer-app img", "els => els.length") == 0
        assert watch.dialogs == [] and watch.errors == [] and watch.failed == []
