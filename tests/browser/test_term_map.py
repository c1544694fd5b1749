"""The interactive term map in Chromium, on standalone pages written by the test and served on 127.0.0.1.

Each page sits at ``chapters/cooccurrence.html`` with the vendored library at
``_static/cytoscape/cytoscape.min.js`` and a stub ``chapters/explorer.html``,
the layout of the built book, so the fragment's default paths are the ones tested.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pytest

from tests.support import ROOT
from helpers.web.term_map import COMMUNITY_COLOURS, term_map_html
from tests.support.browser import PageWatch, serve

pytestmark = pytest.mark.browser

LIBRARY = ROOT / "_vendor" / "cytoscape" / "cytoscape.min.js"
HOSTILE = "</script><img src=x onerror=alert(1)>"
WHEEL_HINT = "Click the map to zoom with the mouse wheel (or use + and \u2212)."
# The search box centres the term with a short animation.
SETTLED = "() => !document.querySelector('.term-map').termMap.animated()"
ZOOM = "document.querySelector('.term-map').termMap.zoom()"


def item(number, label, x, y, cluster, occurrences):
    return {"id": number, "label": label, "x": x, "y": y, "cluster": cluster,
            "weights": {"Links": 0, "Total link strength": 0, "Occurrences": occurrences}}


# Six terms in two communities; "graph neural network" has four neighbours of known strengths.
SMALL = {"network": {"items": [
    item(1, "graph neural network", 0.0, 0.0, 1, 40),
    item(2, "message passing", 0.5, 0.3, 1, 12),
    item(3, "node classification", 0.4, -0.4, 1, 9),
    item(4, "large language model", -0.8, 0.2, 2, 30),
    item(5, HOSTILE, -0.6, -0.6, 2, 7),
    item(6, "lonely term", 1.0, 1.0, 3, 5),
], "links": [
    {"source_id": 1, "target_id": 2, "strength": 2.5},
    {"source_id": 1, "target_id": 3, "strength": 1.75},
    {"source_id": 1, "target_id": 4, "strength": 0.5},
    {"source_id": 1, "target_id": 5, "strength": 1.25},
    {"source_id": 2, "target_id": 3, "strength": 3.0},
    {"source_id": 4, "target_id": 5, "strength": 4.0},
]}}


def large_network(n_terms: int = 300) -> dict:
    """A seeded random network: 12 communities, about four links per term, one rare term in a corner."""
    generator = np.random.default_rng(7)
    items = [item(i + 1, f"term number {i + 1}", float(generator.uniform(-1, 1)), float(generator.uniform(-1, 1)),
                  i % 12 + 1, int(generator.integers(5, 200))) for i in range(n_terms - 1)]
    items.append(item(n_terms, "rare corner term", 1.3, 1.3, 1, 2))
    pairs = {tuple(sorted(generator.choice(n_terms, 2, replace=False) + 1)) for _ in range(2 * n_terms)}
    links = [{"source_id": int(a), "target_id": int(b), "strength": round(float(generator.uniform(0.1, 5)), 6)}
             for a, b in sorted(pairs)]
    return {"network": {"items": items, "links": links}}


def write_page(folder: Path, network: dict, **options) -> Path:
    """The fragment as ``chapters/cooccurrence.html`` inside a book-like folder; returns the folder."""
    (folder / "chapters").mkdir(parents=True, exist_ok=True)
    (folder / "_static" / "cytoscape").mkdir(parents=True, exist_ok=True)
    shutil.copy(LIBRARY, folder / "_static" / "cytoscape" / "cytoscape.min.js")
    head = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">'
    (folder / "chapters" / "cooccurrence.html").write_text(
        f"{head}<title>Term map</title></head><body style='width: 900px'><h1>Term map</h1>"
        f"{term_map_html(network, **options)}</body></html>", encoding="utf-8")
    (folder / "chapters" / "explorer.html").write_text(
        f"{head}<title>Explorer</title></head><body><p>explorer stub</p></body></html>", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    if not LIBRARY.exists():
        pytest.skip(f"{LIBRARY.relative_to(ROOT)} is missing; run `make {LIBRARY.relative_to(ROOT)}`")
    root = tmp_path_factory.mktemp("term-map")
    for name, network in [("small", SMALL), ("large", large_network()),
                          ("one", {"network": {"items": [item(1, "single term", 0.3, 0.2, 1, 3)], "links": []}}),
                          ("empty", {"network": {"items": [], "links": []}})]:
        write_page(root / name, network)
    server = serve(root)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@contextlib.contextmanager
def opened_map(browser, pages, name: str):
    """The co-occurrence page ``name`` open at 1000 px, its map ready; once the test's body has passed, the page
    has logged no error, failed no request, reached no other host and opened no dialog."""
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    watch = PageWatch(page, pages)
    try:
        page.goto(f"{pages}/{name}/chapters/cooccurrence.html")
        if name != "empty":
            page.wait_for_selector(".term-map[data-ready='true']")
        yield page
        assert_clean(watch)
    finally:
        page.close()


def assert_clean(watch: PageWatch) -> None:
    assert watch.errors == []
    assert watch.failed == []
    assert watch.foreign == []
    assert watch.dialogs == []


def node_point(page, label: str) -> dict:
    """Page coordinates of a term's node."""
    return page.evaluate("""label => {
        const root = document.querySelector('.term-map'), cy = root.termMap;
        const node = cy.nodes().filter(n => n.data('label') === label)[0];
        const box = root.querySelector('.term-map-canvas').getBoundingClientRect();
        const p = node.renderedPosition();
        return {x: box.left + p.x, y: box.top + p.y};
    }""", label)


def test_canvas_renders_the_terms_in_community_colours(browser, pages):
    from PIL import Image

    with opened_map(browser, pages, "small") as page:
        assert page.evaluate("document.querySelector('.term-map').termMap.nodes().length") == 6
        assert page.evaluate("document.querySelector('.term-map').termMap.edges().length") == 6
        assert page.eval_on_selector_all(".term-map-canvas canvas", "els => els.filter(c => c.width > 0).length") >= 1
        shot = Image.open(io.BytesIO(page.locator(".term-map-canvas").screenshot())).convert("RGB")
        # Nodes are drawn at 90% opacity over white.
        first = np.array([int(COMMUNITY_COLOURS[0][i:i + 2], 16) for i in (1, 3, 5)]) * 0.9 + 255 * 0.1
        pixels = np.asarray(shot).reshape(-1, 3).astype(int)
        assert (np.abs(pixels - first).sum(axis=1) < 12).sum() > 50, "no node in the first community's colour"
        legend = page.eval_on_selector_all(".term-map-legend li", "els => els.map(e => e.textContent)")
        assert legend == ["graph neural network, message passing, node classification (3 terms)",
                          f"large language model, {HOSTILE} (2 terms)",
                          "lonely term (1 term)"]


def test_search_highlights_and_centres_a_term_or_says_none_matches(browser, pages):
    with opened_map(browser, pages, "small") as page:
        page.fill(".term-map-search", "message")
        page.wait_for_function(SETTLED)
        assert page.inner_text(".term-map-status") == "1 term matches; showing \u201cmessage passing\u201d."
        matched = page.evaluate("document.querySelector('.term-map').termMap.$('node.match').map(n => n.data('label'))")
        assert matched == ["message passing"]
        point, box = node_point(page, "message passing"), page.locator(".term-map-canvas").bounding_box()
        assert abs(point["x"] - (box["x"] + box["width"] / 2)) < 3
        assert abs(point["y"] - (box["y"] + box["height"] / 2)) < 3
        assert page.is_visible(".term-map-tooltip")
        assert page.inner_text(".term-map-tooltip .term-map-term") == "message passing"
        page.fill(".term-map-search", "no such term")
        assert page.inner_text(".term-map-status") == "No term matches \u201cno such term\u201d."
        assert page.evaluate("document.querySelector('.term-map').termMap.$('node.match').length") == 0
        page.fill(".term-map-search", "")
        assert page.inner_text(".term-map-status") == ""


def test_enter_steps_through_matches(browser, pages):
    with opened_map(browser, pages, "small") as page:
        page.fill(".term-map-search", "model")
        assert page.inner_text(".term-map-status").startswith("1 term matches")
        page.fill(".term-map-search", "n")  # every label has an "n"
        first = page.inner_text(".term-map-tooltip .term-map-term")
        page.press(".term-map-search", "Enter")
        assert page.inner_text(".term-map-tooltip .term-map-term") != first


def test_hover_shows_occurrences_and_strongest_neighbours(browser, pages):
    with opened_map(browser, pages, "small") as page:
        point = node_point(page, "graph neural network")
        page.mouse.move(point["x"], point["y"])
        page.wait_for_selector(".term-map-tooltip:not([hidden])")
        assert page.inner_text(".term-map-tooltip .term-map-term") == "graph neural network"
        assert page.inner_text(".term-map-tooltip .term-map-counts") == "Occurrences: 40 abstracts \u00b7 links: 4"
        neighbours = page.eval_on_selector_all(".term-map-tooltip .term-map-neighbours li",
                                               "els => els.map(e => e.textContent)")
        assert neighbours == ["message passing (2.50)", "node classification (1.75)", f"{HOSTILE} (1.25)",
                              "large language model (0.50)"]
        href = page.get_attribute(".term-map-tooltip a.term-map-papers", "href")
        assert href == "explorer.html?term=graph%20neural%20network"
        page.mouse.move(5, 5)
        page.wait_for_selector(".term-map-tooltip", state="hidden")


def test_click_opens_the_explorer_on_the_term(browser, pages):
    with opened_map(browser, pages, "small") as page:
        point = node_point(page, "large language model")
        with page.expect_navigation():
            page.mouse.click(point["x"], point["y"])
        assert page.url == f"{pages}/small/chapters/explorer.html?term=large%20language%20model"
        assert page.inner_text("body") == "explorer stub"


def test_tap_pins_the_tooltip_whose_link_opens_the_explorer(browser, pages):
    context = browser.new_context(has_touch=True, viewport={"width": 1000, "height": 900})
    page = context.new_page()
    watch = PageWatch(page, pages)
    page.goto(f"{pages}/small/chapters/cooccurrence.html")
    page.wait_for_selector(".term-map[data-ready='true']")
    point = node_point(page, "node classification")
    page.touchscreen.tap(point["x"], point["y"])
    page.wait_for_selector(".term-map-tooltip:not([hidden])")
    assert page.url.endswith("/small/chapters/cooccurrence.html")
    assert page.inner_text(".term-map-tooltip .term-map-term") == "node classification"
    with page.expect_navigation():
        page.tap(".term-map-tooltip a.term-map-papers")
    assert page.url.endswith("/small/chapters/explorer.html?term=node%20classification")
    assert_clean(watch)
    context.close()


def test_hostile_label_is_shown_as_text(browser, pages):
    with opened_map(browser, pages, "small") as page:
        point = node_point(page, HOSTILE)
        page.mouse.move(point["x"], point["y"])
        page.wait_for_selector(".term-map-tooltip:not([hidden])")
        assert page.inner_text(".term-map-tooltip .term-map-term") == HOSTILE
        assert page.eval_on_selector_all("img", "els => els.length") == 0
        page.fill(".term-map-search", "<img")
        assert page.inner_text(".term-map-status") == f"1 term matches; showing \u201c{HOSTILE}\u201d."
        page.wait_for_function(SETTLED)
        with page.expect_navigation():
            page.mouse.click(*[node_point(page, HOSTILE)[k] for k in "xy"])
        assert unquote(page.url.split("term=")[1]) == HOSTILE


def test_keyboard_zoom_and_buttons(browser, pages):
    with opened_map(browser, pages, "small") as page:
        start = page.evaluate(ZOOM)
        page.focus(".term-map-canvas")
        page.keyboard.press("+")
        assert page.evaluate(ZOOM) == pytest.approx(start * 1.4)
        page.click(".term-map-zoom-out")
        page.click(".term-map-zoom-out")
        assert page.evaluate(ZOOM) == pytest.approx(start / 1.4)
        page.click(".term-map-fit")
        assert page.evaluate(ZOOM) == pytest.approx(start)


def test_wheel_zooms_only_once_the_map_has_the_focus(browser, pages):
    with opened_map(browser, pages, "small") as page:
        start = page.evaluate(ZOOM)
        box = page.locator(".term-map-canvas").bounding_box()
        page.mouse.move(box["x"] + 20, box["y"] + 20)  # an empty corner
        page.mouse.wheel(0, -300)
        # The page's wheel listener has run once it shows the hint; the map's (capturing, on the same element),
        # which zooms at once when zooming is on, runs before it.
        page.wait_for_function(f"() => document.querySelector('.term-map-status').textContent === {json.dumps(WHEEL_HINT)}")
        assert page.evaluate(ZOOM) == start
        assert page.inner_text(".term-map-status") == WHEEL_HINT
        page.mouse.click(box["x"] + 20, box["y"] + 20)
        assert page.inner_text(".term-map-status") == ""
        page.mouse.wheel(0, -300)
        page.wait_for_function(f"() => {ZOOM} > {start}")


def test_large_map_labels_what_fits_and_more_when_zoomed(browser, pages):
    with opened_map(browser, pages, "large") as page:
        labels = "() => document.querySelector('.term-map').termMapLabels"
        at_fit = page.evaluate(labels)
        assert 0 < len(at_fit) < 300
        assert len(set(at_fit)) == len(at_fit)
        # The rarest term has no label at first; zoomed in around it, it gets one.
        assert "rare corner term" not in at_fit
        page.evaluate("""() => {
            const cy = document.querySelector('.term-map').termMap;
            cy.zoom({level: 2, position: cy.nodes().filter(n => n.data('label') === 'rare corner term')[0].position()});
        }""")
        page.wait_for_function("() => document.querySelector('.term-map').termMapLabels.includes('rare corner term')")


def test_one_term_and_empty_maps(browser, pages):
    with opened_map(browser, pages, "one") as page:
        assert page.evaluate("document.querySelector('.term-map').termMap.nodes().length") == 1
    with opened_map(browser, pages, "empty") as page:
        assert page.inner_text(".term-map") == "The term map is empty: no term passed the thresholds."


def test_map_works_from_disk(browser, tmp_path):
    """A reader may open the built book from disk (file://)."""
    if not LIBRARY.exists():
        pytest.skip(f"{LIBRARY.relative_to(ROOT)} is missing; run `make {LIBRARY.relative_to(ROOT)}`")
    page_file = write_page(tmp_path, SMALL) / "chapters" / "cooccurrence.html"
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    watch = PageWatch(page, "file://")
    page.goto(page_file.as_uri())
    page.wait_for_selector(".term-map[data-ready='true']")
    point = node_point(page, "message passing")
    with page.expect_navigation():
        page.mouse.click(point["x"], point["y"])
    assert page.url == (tmp_path / "chapters" / "explorer.html").as_uri() + "?term=message%20passing"
    assert watch.errors == [] and watch.foreign == [] and watch.dialogs == []
    page.close()


def test_written_page_uses_the_book_paths(pages, tmp_path):
    html = (write_page(tmp_path, SMALL) / "chapters" / "cooccurrence.html").read_text(encoding="utf-8")
    assert 'src="../_static/cytoscape/cytoscape.min.js" defer' in html
    assert json.dumps("explorer.html") in html
