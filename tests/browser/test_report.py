"""The book reads as a report: in Chromium, on the seed book (``$BOOK_HTML``) and on a small multi-year corpus
written here, the title names the corpus, no table is cut off between 800 and 1,400 px, no page carries
development notes, paths of our data, long numbers without separators or "1 files"-type slips, and no page is
taller than 12,000 px.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.browser import serve
from tests.support.corpus_files import write_multi_year_corpus

pytestmark = pytest.mark.browser

WIDTHS = (800, 1100, 1400)
MAX_PAGE_HEIGHT = 12_000
#: Words that mark a page as a lab notebook rather than a report, and paths of our development data.
DEVELOPMENT_NOTES = re.compile(r"\.\./shared|icml2024-dev|pmlr-v235-sample|\((?:before|now)\)|\btoday'?s\b|"
                               r"\bBefore, |\bwas tried\b|\btrials?\b abandoned", re.IGNORECASE)
#: A counted noun that disagrees with its number ("1 files", "1 linked papers", "1 contain").
SLIPS = re.compile(r"\b1 (?:files|papers|abstracts|terms|themes|pairs|blocks|entries|headers|links|groups|years|"
                   r"communities|linked papers|contain|say|give|promise|were)\b")
#: MyST markup left unrendered (a role inside a glued sentence that was not parsed as MyST).
RAW_MARKUP = re.compile(r"\{(?:numref|ref|doc|glue(?::\w+)?|math)\}|^\(sec-[\w-]+\)=|^:::", re.MULTILINE)
#: A whole number of five digits or more written without separators (a hash's digits are part of a word).
LONG_NUMBER = re.compile(r"(?<![\w.,/-])\d{5,}(?![\w,]|\.\d)")

# The visible text of the page's article, without code (commands such as `make bench SIZES="1000 10000"`)
# and without the corpus hash.
ARTICLE_TEXT = """() => {
  const article = document.querySelector('main article') || document.querySelector('main');
  const copy = article.cloneNode(true);
  // Corpus text (the explorer's rows) is the authors' writing, not the book's numbers.
  copy.querySelectorAll('code, pre, kbd, .highlight, script, style, mjx-container, #explorer-app tbody')
    .forEach(e => e.remove());
  return copy.innerText;
}"""
# Tables that reach past the article's right edge without a scroll box of their own, and cells whose text is
# cut by an ellipsis.
CUT_TABLES = """() => {
  const article = (document.querySelector('main article') || document.querySelector('main')).getBoundingClientRect();
  const cut = [];
  for (const table of document.querySelectorAll('main table')) {
    let box = table.parentElement, scrolls = false;
    while (box && box !== document.body) {
      const style = getComputedStyle(box);
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') { scrolls = true; break; }
      box = box.parentElement;
    }
    const right = table.getBoundingClientRect().right;
    if (!scrolls && right > article.right + 1) cut.push(table.innerText.slice(0, 60));
    for (const cell of table.querySelectorAll('td, th')) {
      const style = getComputedStyle(cell);
      if (style.textOverflow === 'ellipsis' && cell.scrollWidth > cell.clientWidth) cut.push(cell.innerText);
    }
  }
  return cut;
}"""


def book_pages(folder: Path) -> list[str]:
    """Every page of a built book, the landing page first."""
    return ["intro.html"] + sorted(str(p.relative_to(folder)) for p in (folder / "chapters").glob("*.html"))


@pytest.fixture(scope="module")
def seed_book(seed_site):
    """The strict seed book served, with the title it must show."""
    return (*seed_site, "ICML 2024: 57 abstracts")


N_MULTI_YEAR = 45


@pytest.fixture(scope="module")
def multi_year_book(tmp_path_factory):
    """A book on 45 seed abstracts given as NeurIPS papers of 2022, 2023 and 2024 (a CSV written here)."""
    work = tmp_path_factory.mktemp("multi-year")
    corpus = write_multi_year_corpus(work / "neurips.csv", N_MULTI_YEAR)
    output = work / "book"
    # Grouped by year explicitly: 15 papers a year are fewer than a default period holds, so by default the
    # three years would be one period and What changed would be left out.
    env = dict(os.environ, BOOK_CORPUS=str(corpus), BOOK_ANALYSIS_CACHE=str(work / "cache"),
               BOOK_FIGURE_DIR=str(output / "_build" / "html" / "figures"), BOOK_GROUP_BY="year")
    env.pop("BOOK_TITLE", None)
    build = subprocess.run([str(Path(sys.executable).parent / "jupyter-book"), "build", str(ROOT),
                            "--path-output", str(output)], env=env, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    folder = output / "_build" / "html"
    server = serve(folder)
    yield (f"http://127.0.0.1:{server.server_address[1]}", folder,
           f"NeurIPS 2022\u20132024: {N_MULTI_YEAR} abstracts")
    server.shutdown()


def check_book(browser, base: str, folder: Path, title: str) -> dict[str, list]:
    """Every page at every width: what is wrong with it, by kind (empty lists when nothing is)."""
    problems: dict[str, list] = {key: [] for key in ("title", "cut", "notes", "numbers", "slips", "raw", "tall")}
    for width in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": 900})
        for path in book_pages(folder):
            page.goto(f"{base}/{path}")
            page.wait_for_load_state("load")
            if width == WIDTHS[0]:
                if not page.title().endswith(title):
                    problems["title"].append((path, page.title()))
                text = page.evaluate(ARTICLE_TEXT)
                text = re.sub(r"SHA-256 \S+", "SHA-256", text)
                problems["notes"] += [(path, m.group(0)) for m in DEVELOPMENT_NOTES.finditer(text)]
                problems["numbers"] += [(path, m.group(0)) for m in LONG_NUMBER.finditer(text)]
                problems["slips"] += [(path, m.group(0)) for m in SLIPS.finditer(text)]
                problems["raw"] += [(path, m.group(0)) for m in RAW_MARKUP.finditer(text)]
            problems["cut"] += [(width, path, cell) for cell in page.evaluate(CUT_TABLES)]
            if width == 1400:
                height = page.evaluate("document.documentElement.scrollHeight")
                if height > MAX_PAGE_HEIGHT:
                    problems["tall"].append((path, height))
        page.close()
    return problems


@pytest.mark.parametrize("book", ["seed_book", "multi_year_book"])
def test_every_page_reads_as_a_report(browser, book, request):
    base, folder, title = request.getfixturevalue(book)
    assert check_book(browser, base, folder, title) == {
        "title": [], "cut": [], "notes": [], "numbers": [], "slips": [], "raw": [], "tall": []}


def test_landing_page_names_the_corpus_and_what_it_leaves_out(browser, seed_book, multi_year_book):
    for (base, folder, title), has_change in ((seed_book, False), (multi_year_book, True)):
        page = browser.new_page()
        page.goto(f"{base}/intro.html")
        assert page.inner_text("main h1").strip().rstrip("#").strip() == title
        assert (folder / "chapters" / "change.html").exists() == has_change
        text = page.inner_text("main")
        assert ("is left out of this book: its papers form one group" in text) == (not has_change)
        for format_name in ("BibTeX", "RIS", "CSV", "JSON Lines", "plain text"):
            assert format_name in text
        page.close()
