"""A book built from a hostile corpus runs nothing from it: every field of every paper carries a script, an event
handler, a ``javascript:`` link, MyST markup (a role, a substitution), LaTeX commands and a BibTeX brace break.

The book is built strictly (as ``make strict-book``: warnings are errors) and its LaTeX sources as ``make latex-book``
does; Chromium reads every page (``pytest -m browser``, as ``tests/browser/test_seed_book.py``) and finds no dialog, no live
injected element and no broken Content-Security-Policy; the LaTeX and the downloads (CSV, BibTeX) hold the
payloads as text.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree

import pytest

from tests.support import ROOT
from helpers.book.build.sphinx_ext import THEME_HANDLERS
from tests.support.browser import PageWatch, serve

pytestmark = pytest.mark.browser

#: Abstracts that give the topic model something to fit; each also carries the payloads of its field.
TOPICS = [
    "graph neural networks learn node features from message passing on large sparse graphs",
    "graph neural networks with attention over node neighbourhoods improve link prediction",
    "language models learn prompt tuning for decoding long documents in many languages",
    "language models with retrieval improve decoding of rare words and long documents",
    "diffusion models generate images by denoising steps with a learned score function",
    "diffusion models with guidance improve image generation quality and sample diversity",
    "federated learning trains client models with private data and handles client drift",
    "federated learning with secure aggregation keeps client updates private across rounds",
]
#: The abstracts' own attacks on the explorer and its math (one per paper, after its topic).
ABSTRACT_ATTACKS = [
    "Hostile one <script>alert('xss-script')</script> here.",
    "Hostile two <img src=x onerror=alert('xss-img')> here.",
    "Hostile three [click me](javascript:alert('xss-md')) here.",
    "Hostile four {download}`../../../etc/passwd` and {eval}`1+1` here.",
    "Hostile five {{ 7*7 }} and {% raw %} jinja here.",
    "Hostile six $\\href{javascript:alert('xss-tex')}{x}$ here.",
    "Hostile seven \"><svg onload=alert('xss-svg')> here.",
    "Hostile eight javascript:alert('xss-bare') here.",
]
#: Every payload is marked with its field's name, so a dialog or a live element names where it came from.
PAYLOAD = ("<script class=injected>alert('{f}-script')</script> <img class=injected src=x onerror=alert('{f}-img')> "
           "[{f} link](javascript:alert('{f}-link')) <a class=injected href=\"javascript:alert('{f}-a')\">a</a> "
           "{{raw}}`html`<u class=injected>{f}-raw</u>` {{{{ env }}}} {{{{ book_title }}}} "
           "\\input{{/etc/passwd}} \\def\\pwn{{{f}}} }} @misc{{{f}-bib,")
#: The venue names the book (its title is made from the venues): the payload reaches the title, every <title>,
#: the navbar and the landing page's heading.
VENUE = "<img class=injected src=x onerror=alert('venue-title')> {venue} Conf"
GROUP_COLUMN = "track"


def payload(field: str) -> str:
    return PAYLOAD.format(f=field)


def write_hostile_corpus(folder: Path) -> Path:
    """Eight papers in a CSV whose every field carries :data:`PAYLOAD` (the year beside a hostile ``date``; a
    ``track`` column of two hostile groups, each a spreadsheet formula too)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "hostile.csv"
    fields = ["title", "authors", "year", "date", "venue", "doi", "url", "abstract", "keywords", GROUP_COLUMN]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for index, topic in enumerate(TOPICS):
            writer.writerow({
                "title": f"=HYPERLINK(\"http://x\") {payload('title')} {topic.split(' with ')[0]}",
                "authors": f"Ada {payload('author')}; Bo Li",
                "year": 2023 + index % 2,
                "date": payload("date"),
                "venue": VENUE.format(venue=payload("venue")),
                "doi": f"10.1234/{index}{payload('doi')}",
                "url": f"javascript:alert('url-{index}')",
                "abstract": f"{topic.capitalize()}. {ABSTRACT_ATTACKS[index]} {payload('abstract')}",
                "keywords": f"{payload('keyword')}; graphs",
                GROUP_COLUMN: f"{'=1+1 <b>A</b>' if index % 2 else '@B <i>B</i>'} {payload('group')}",
            })
    return path


def book_env(corpus: Path, work: Path) -> dict[str, str]:
    return dict(os.environ, BOOK_CORPUS=str(corpus), BOOK_GROUP_BY=GROUP_COLUMN,
                BOOK_ANALYSIS_CACHE=str(work / "cache"), BOOK_FIGURE_DIR=str(work / "book" / "_build" / "html" / "figures"),
                PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture(scope="module")
def hostile_book(tmp_path_factory):
    """The hostile corpus's book, built as ``make strict-book`` and ``make latex-book`` build the seed's: the pages
    executed first (:mod:`helpers.book.build.prebuild`), then a strict HTML build and the LaTeX sources from its cache."""
    work = tmp_path_factory.mktemp("hostile-book")
    corpus = write_hostile_corpus(work / "corpus").parent
    output, env, bin_dir = work / "book", book_env(corpus, work), Path(sys.executable).parent
    steps = [[sys.executable, "-m", "helpers.book.build.prebuild", "--path-output", str(output)],
             [str(bin_dir / "jupyter-book"), "build", str(ROOT), "--path-output", str(output), "-W", "-n", "--keep-going"],
             [str(bin_dir / "jupyter-book"), "build", str(ROOT), "--builder", "latex", "--path-output", str(output),
              "-n", "--keep-going"]]
    for step in steps:
        build = subprocess.run(step, env=env, capture_output=True, text=True, cwd=ROOT)
        assert build.returncode == 0, " ".join(step[:4]) + "\n" + build.stdout[-4000:] + build.stderr[-4000:]
        assert "Traceback" not in build.stdout + build.stderr
    return output / "_build"


@pytest.fixture(scope="module")
def hostile_site(hostile_book):
    folder = hostile_book / "html"
    server = serve(folder)
    yield f"http://127.0.0.1:{server.server_address[1]}", folder
    server.shutdown()


#: What a live injection would leave in the DOM: an element the payload marks, an event handler (but the theme's
#: own, which the policy allows by hash) or a ``javascript:`` address in any attribute.
LIVE_INJECTIONS = r"""(themeHandlers) => {
  const found = [...document.querySelectorAll('.injected')].map(e => e.outerHTML.slice(0, 120));
  for (const element of document.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      if ((/^on/i.test(attribute.name) && !themeHandlers.includes(attribute.value))
          || /^\s*javascript:/i.test(attribute.value)) {
        found.push(`${element.tagName} ${attribute.name}=${attribute.value.slice(0, 80)}`);
      }
    }
  }
  return found;
}"""
SHOWN_TITLE = "<img class=injected src=x onerror=alert('venue-title')> <script class=injected>alert('venue-script')"


def book_pages(folder: Path) -> list[str]:
    """Every page of the built book (not the theme's ``_static`` or the ``_sources``)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.html")
                  if not any(part.startswith("_") for part in p.relative_to(folder).parts))


def test_hostile_book_runs_nothing_and_shows_its_title_as_text(browser, hostile_site):
    base, folder = hostile_site
    pages = book_pages(folder)
    assert {"intro.html", "search.html", "chapters/change.html", "chapters/explorer.html"} <= set(pages)
    # The landing heading (the corpus's title) as the query: Sphinx's search shows a title that matches it whole.
    index = json.loads((folder / "searchindex.js").read_text(encoding="utf-8").removeprefix("Search.setIndex(")[:-1])
    heading = html.unescape(next(title for title in index["alltitles"] if "venue-title" in title))
    for path in [*pages, "search.html?q=conf", f"search.html?q={quote(heading)}"]:
        page = browser.new_page()
        watch = PageWatch(page, base)
        page.goto(f"{base}/{path}", wait_until="networkidle")
        if path.startswith("search.html?"):  # the results come from the search index: titles and summaries
            page.wait_for_selector("ul.search li", timeout=20000)
        if path.endswith("explorer.html"):  # every abstract open, with its math typeset
            rows = page.locator("#explorer-app tr.paper-row button.expand")
            for index in range(rows.count()):
                rows.nth(index).click()
            page.wait_for_function("() => document.querySelectorAll('#explorer-app mjx-container').length > 0")
            shown = html_unescape(page.content()) + page.inner_text("#explorer-app")
            # (Braces are LaTeX groups in a table's abstracts, read as LaTeX: "{{ 7*7 }}" is shown as "7*7".)
            for needle in ["<script>alert('xss-script')</script>", "<img src=x onerror=alert('xss-img')>",
                           "[click me](javascript:alert('xss-md'))", "<script class=injected>alert('abstract-script')"]:
                assert needle in shown, needle
        assert watch.dialogs == [], (path, watch.dialogs)
        assert page.evaluate(LIVE_INJECTIONS, list(THEME_HANDLERS)) == [], path
        assert watch.foreign == [], path
        if page.locator(".btn-fullscreen-button").count():  # the theme's own handler runs under the policy
            page.locator(".btn-fullscreen-button").first.click()
        assert [e for e in watch.errors if "Content Security Policy" in e] == [], path
        assert page.locator("meta[http-equiv='Content-Security-Policy']").count() == 1, path
        assert page.title().startswith("Search - " if path.startswith("search") else ""), path
        if not path.startswith("chapters/"):  # the book's title: the page's, the navbar's, the landing heading
            assert SHOWN_TITLE in straight_quotes(page.title()), path
            assert SHOWN_TITLE in page.inner_text(".logo__title"), path
        if path == "intro.html":  # a heading's quotes are typographic (docutils' smart quotes)
            assert straight_quotes(page.inner_text("h1")).startswith(SHOWN_TITLE)
        page.close()
    for html_file in folder.rglob("*.html"):
        content = html_file.read_text(encoding="utf-8")
        assert not re.search(r"(href|src)\s*=\s*[\"']?\s*javascript:", content, re.I), html_file
        assert "<script>alert(" not in content and "<script class=injected" not in content, html_file


def straight_quotes(text: str) -> str:
    return text.replace("\u2018", "'").replace("\u2019", "'")


def html_unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&#39;", "'") \
        .replace("&#x27;", "'").replace("&amp;", "&")


def test_hostile_book_latex_holds_the_payloads_as_text(hostile_book):
    tex = (hostile_book / "latex" / "book.tex").read_text(encoding="utf-8")
    assert r"\textbackslash{}input\{/etc/passwd\}" in tex  # the payload reached the PDF's sources, as text
    assert r"\textbackslash{}def\textbackslash{}pwn" in tex
    assert r"\input{/etc/passwd}" not in tex and r"\def\pwn" not in tex
    assert not re.search(r"<(p|table|div|span|br)[ >/]", tex)  # no HTML output in place of a table's Markdown
    assert "IPython.core.display" not in tex


def test_hostile_book_downloads_guard_formulas_and_keep_bibtex_whole(browser, hostile_site):
    import bibtexparser

    from helpers.analysis.spreadsheet import FORMULA_STARTS

    base, folder = hostile_site
    tables = sorted((folder / "figures").glob("*.csv"))
    guarded = 0
    for table in tables:
        for row in csv.reader(io.StringIO(table.read_text(encoding="utf-8"))):
            for cell in row:
                if cell.startswith(FORMULA_STARTS):
                    assert re.fullmatch(r"-\d[\d.e+-]*|-inf", cell), (table.name, cell[:60])
                guarded += cell.startswith(("'=1+1 <b>A</b>", "'@B <i>B</i>"))
    assert guarded > 0  # the groups' formulas reached the tables, guarded
    drawings = [*(folder / "figures").glob("*.svg"), *(folder / "figures").glob("network.g*")]
    assert len(drawings) > 10
    for drawing in drawings:  # SVG figures (an SVG opened alone runs its scripts), GEXF and GraphML: text only
        elements = list(ElementTree.parse(drawing).iter())
        assert not [e.tag for e in elements if e.tag.rsplit("}", 1)[-1] in ("script", "img", "u", "a", "foreignObject")
                    or any(name.lower().startswith("on") for name in e.attrib)], drawing.name
    assert any("venue-script" in drawing.read_text(encoding="utf-8") for drawing in drawings)  # the payload is there
    page = browser.new_page()
    entries = []
    for path in ["chapters/cite.html", "chapters/figures.html"]:
        page.goto(f"{base}/{path}")
        entries += page.eval_on_selector_all("pre.bibtex", "els => els.map(e => e.textContent)")
    page.close()
    assert entries
    for entry in entries:
        depth = 0
        for character in entry:
            depth += {"{": 1, "}": -1}.get(character, 0)
            assert depth >= 0, entry
        assert depth == 0, entry
        library = bibtexparser.parse_string(entry)
        assert len(library.entries) == 1 and not library.failed_blocks, entry
        assert entry.count("\n@") == 0


def test_content_security_policy_stops_handlers_and_foreign_scripts(browser, tmp_path):
    """The policy on its own, on a page that an escape missed: an event handler and a script from another host
    do not run; the book's own files and inline ``<script>`` elements (which the theme needs) do."""
    from helpers.book.build.sphinx_ext import CSP_META

    (tmp_path / "own.js").write_text("document.title += ' own';")
    (tmp_path / "page.html").write_text(
        f"<!DOCTYPE html><html><head>{CSP_META}<title>t</title><script src='own.js'></script>"
        "<script>document.title += ' inline';</script>"
        "<script src='http://127.0.0.2:9/foreign.js'></script></head><body>"
        "<img src='missing.png' onerror=\"alert('handler')\"><svg onload=\"alert('svg')\"></svg>"
        "<object data='own.js'></object></body></html>")
    server = serve(tmp_path)
    page = browser.new_page()
    watch = PageWatch(page, f"http://127.0.0.1:{server.server_address[1]}")
    page.goto(f"http://127.0.0.1:{server.server_address[1]}/page.html", wait_until="load")
    page.wait_for_timeout(300)
    assert page.title() == "t own inline"
    assert watch.dialogs == []
    assert watch.foreign == watch.failed[:1] == ["http://127.0.0.2:9/foreign.js"]  # asked for, and blocked
    refused = [e for e in watch.errors if "Content Security Policy" in e]
    assert len([e for e in refused if "event handler" in e]) == 2, refused
    assert any("foreign.js" in e and "script-src-elem" in e for e in refused), refused
    assert any("object-src 'none'" in e for e in refused), refused
    page.close()
    server.shutdown()
