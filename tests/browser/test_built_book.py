"""The built seed book read as a report: no code toggle above a page's first sentence, tables with headers in words,
the landing page's ``<title>`` naming the book once, the explorer's search in the first screen, and (built with
``BOOK_BASE_URL``) every link, image, script, stylesheet and figure citation resolving with the site served under
``/book/``.

Run by ``make test`` after the strict build (``pytest -m browser``), on ``$BOOK_HTML`` (default
``_build/strict/_build/html``); the strict build is made with ``BOOK_BASE_URL`` (the Makefile's
``STRICT_BASE_URL``), which its How to cite page states, so the sub-path check costs no build of its own.
"""

from __future__ import annotations

import functools
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit
from urllib.request import urlopen

import pytest
from bs4 import BeautifulSoup


pytestmark = pytest.mark.browser

PREFIX = "/book/"


@pytest.fixture(scope="module")
def folder(built_book) -> Path:
    return built_book


def pages(folder: Path) -> list[Path]:
    """Every page a reader opens: the landing page and the chapters (not Sphinx's search and index pages)."""
    return [folder / "intro.html", *sorted((folder / "chapters").glob("*.html"))]


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def first_toggle_before_text(article) -> str | None:
    """The first toggle (a ``<details>``, a toggle button, a code cell's input) that comes before the article's
    first paragraph of text, or None."""
    for element in article.find_all(True):
        classes = set(element.get("class") or [])
        if element.name == "p" and element.get_text(strip=True):
            return None
        if (element.name in ("details", "summary") or classes & {"toggle", "toggle-button", "cell_input"}
                or "Show code cell" in element.get_text()[:40] and element.name in ("summary", "button")):
            return f"<{element.name} class={sorted(classes)}> {element.get_text(' ', strip=True)[:60]!r}"
    return None


def test_no_page_has_a_toggle_or_code_above_its_first_sentence(folder):
    checked = 0
    for path in pages(folder):
        article = soup(path).find("article")
        assert article is not None, path.name
        assert first_toggle_before_text(article) is None, (path.name, first_toggle_before_text(article))
        assert article.select(".cell_input") == [], f"{path.name}: a code cell's input is shown"
        # The page's notebook, parameters cell first, is one click away: the header's download of its source.
        source = next(a["href"] for a in soup(path).select("a[href*='_sources/']") if a["href"].endswith(".md"))
        notebook = (path.parent / source).resolve().read_text(encoding="utf-8")
        assert ":tags: [parameters, remove-cell]" in notebook, path.name
        checked += 1
    assert checked >= 10


def test_the_toggle_check_finds_a_toggle_above_the_first_sentence():
    page = BeautifulSoup('<article><h1>T</h1><details class="hide above-input"><summary>Show code cell content'
                         '</summary></details><p>First sentence.</p></article>', "html.parser")
    assert first_toggle_before_text(page.article).startswith("<details")
    assert first_toggle_before_text(BeautifulSoup("<article><p>Text</p><details></details></article>",
                                                  "html.parser").article) is None


def test_every_table_has_headers_in_words(folder):
    headers = []
    for path in pages(folder):
        for table in soup(path).select("article table"):
            for cell in table.select("thead th"):
                headers.append((path.name, cell.get_text(" ", strip=True)))
    assert len(headers) > 50
    machine = [(page, text) for page, text in headers if "_" in text or re.fullmatch(r"n [a-z]+", text)]
    assert machine == []
    words = {text for _, text in headers}
    assert {"community", "terms", "papers", "top terms"} <= words  # the co-occurrence chapter's communities


def test_the_landing_page_title_names_the_book_once(folder):
    landing = soup(folder / "intro.html")
    title = landing.title.get_text()
    heading = landing.find("article").find("h1").get_text(" ", strip=True).rstrip("#").strip()
    assert title == heading
    chapter = soup(folder / "chapters" / "themes.html").title.get_text()
    assert chapter.endswith(f" \N{EM DASH} {title}") and chapter.count(title) == 1


class SubPathHandler(SimpleHTTPRequestHandler):
    """Serves the book under ``/book/`` as a web host serves a project site (GitHub Pages); anything else is 404."""

    def log_message(self, *args):
        pass

    def translate_path(self, path):
        return super().translate_path("/" + path[len(PREFIX):]) if path.startswith(PREFIX) else "/nonexistent/x"

    def send_head(self):
        if not urlsplit(self.path).path.startswith(PREFIX):
            self.send_error(404)
            return None
        return super().send_head()


@pytest.fixture(scope="module")
def sub_path_site(folder):
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SubPathHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"
    server.shutdown()


@pytest.mark.parametrize("width", [1280, 800])
def test_the_explorer_search_and_filters_are_in_the_first_screen_and_its_addresses_folded(browser, sub_path_site,
                                                                                          width):
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(f"{sub_path_site}chapters/explorer.html")
    page.wait_for_selector(".explorer-count:not(:has-text('Loading'))")
    for selector in (".explorer-search", ".explorer-theme", ".explorer-state"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["height"] > 0, selector
        assert box["y"] + box["height"] <= 800, (selector, box, width)
    # The URL syntax is in a closed <details> below the table, not in the reading order above it.
    folded = page.locator("article details", has_text="?theme=")
    assert folded.count() == 1 and folded.get_attribute("open") is None
    assert not page.get_by_text("?theme=<number>").is_visible()
    assert folded.bounding_box()["y"] > page.locator("#explorer-app").bounding_box()["y"]
    page.close()


def test_the_server_serves_only_under_the_sub_path(sub_path_site):
    root = sub_path_site[: -len(PREFIX)]
    assert urlopen(f"{sub_path_site}intro.html").status == 200
    with pytest.raises(Exception, match="404"):
        urlopen(f"{root}/intro.html")


def references(page: BeautifulSoup) -> list[tuple[str, str]]:
    """Every address a page refers to: links, images, scripts, stylesheets, icons, and the addresses written in
    its figure citations (``url = {...}``, plain text)."""
    found = [(tag.name, tag.get(attribute)) for tag, attribute in
             [(tag, "href") for tag in page.find_all(["a", "link"])] + [(tag, "src") for tag in page.find_all(
                 ["img", "script", "source", "iframe"])] if tag.get(attribute)]
    text = page.get_text(" ")
    found += [("citation", url) for url in re.findall(r"https?://[^\s{}<>\"'`]+#fig-[a-z0-9-]+", text)]
    return found


def test_every_link_image_script_and_figure_citation_resolves_under_a_sub_path(folder, sub_path_site):
    # The address the book was built for, as its How to cite page states it.
    stated = re.search(r"absolute addresses under (https?://\S+) ", soup(folder / "chapters" / "cite.html").get_text())
    if not stated:
        pytest.skip("the book under test was built without BOOK_BASE_URL (make test's strict build sets it)")
    base_url = stated.group(1)
    checked, citations, broken = set(), set(), []
    ids: dict[str, set[str]] = {}

    def page_ids(address: str) -> set[str]:
        """The anchors of a page; the explorer's papers (``#paper-<id>``) are made by its script from its data file."""
        if address not in ids:
            with urlopen(address) as response:
                page = BeautifulSoup(response.read(), "html.parser")
            ids[address] = {tag.get("id") for tag in page.find_all(id=True)}
            app = page.find(id="explorer-app")
            if app is not None:
                with urlopen(urljoin(address, app["data-src"])) as response:
                    data = response.read().decode("utf-8")
                ids[address] |= {f"paper-{key}" for key in re.findall(r'"([A-Za-z0-9_-]+)"', data)}
        return ids[address]

    for path in [*pages(folder), folder / "search.html", folder / "genindex.html"]:
        address = sub_path_site + path.relative_to(folder).as_posix()
        for kind, reference in references(soup(path)):
            if kind == "citation" or reference.startswith(base_url):
                assert reference.startswith(base_url), (path.name, reference)
                citations.add(reference)
                reference = sub_path_site + reference[len(base_url):]
            target = urljoin(address, reference)
            parts = urlsplit(target)
            if parts.scheme not in ("http", "https") or (parts.netloc != urlsplit(sub_path_site).netloc):
                # Outside the book (a paper's DOI, a repository): never a script, style sheet or image.
                assert kind == "a" and parts.scheme in ("http", "https", "mailto"), (path.name, kind, reference)
                continue
            assert parts.path.startswith(PREFIX), (path.name, reference)
            document = target.split("#", 1)[0]
            if document not in checked:
                try:
                    with urlopen(document) as response:
                        assert response.status == 200
                except Exception as error:  # noqa: BLE001 - every broken address is listed
                    broken.append((path.name, reference, str(error)))
                    continue
                checked.add(document)
            fragment = unquote(parts.fragment)
            if fragment and document.endswith(".html") and fragment not in page_ids(document):
                broken.append((path.name, reference, "no such anchor"))
    assert broken == []
    assert len(checked) > 50
    figure_citations = {c for c in citations if "#fig-" in c}
    assert len(figure_citations) >= 10, "figure citations are absolute under BOOK_BASE_URL"
