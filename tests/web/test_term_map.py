"""The interactive term map's HTML fragment and data (the browser side is in tests/browser/test_term_map.py)."""

import json
import re

import pandas as pd
import pytest

from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence, write_vosviewer_json
from helpers.web.assets import static_text
from helpers.web.term_map import (MAX_SIZE, MIN_SIZE, OTHER_COLOUR, SCRIPT_FILE, STYLE_FILE, term_map_data,
                                  term_map_html)
from helpers.analysis.text.cleaning import analysis_text

HOSTILE = "</script><img src=x onerror=alert(1)>"


def item(number, label, x=0.0, y=0.0, cluster=1, occurrences=1):
    return {"id": number, "label": label, "x": x, "y": y, "cluster": cluster,
            "weights": {"Links": 0, "Total link strength": 0.0, "Occurrences": occurrences}}


def network(items, links=()):
    return {"network": {"items": list(items),
                        "links": [{"source_id": a, "target_id": b, "strength": s} for a, b, s in links]}}


THREE = network([item(1, "graph", 0.5, 0.5, 1, 10), item(2, HOSTILE, -0.5, 0.0, 2, 4),
                 item(3, "alone", 0.0, -1.0, 12, 1)], [(1, 2, 1.5)])


def embedded(fragment: str) -> dict:
    """The JSON the fragment carries, as the page script reads it."""
    match = re.search(r'<script type="application/json" class="term-map-data">(.*?)</script>', fragment, re.S)
    return json.loads(match.group(1))


def test_data_of_three_terms_exactly():
    data = term_map_data(THREE)
    # Map units: 30 * sqrt(3) per unit of the largest coordinate (1.0); y points down.
    # Sizes: the cap is the 95th percentile of (1, 4, 10), 9.4; 4 gets 6 + 24 * (2 - 1) / (sqrt(9.4) - 1).
    assert data == {"explorer": "explorer.html", "links": [[0, 1, 1.5]], "terms": [
        {"label": "graph", "x": 25.98, "y": -25.98, "colour": "#0173b2", "size": 30.0, "font": 19.0,
         "occurrences": 10, "links": 1, "neighbours": [[1, 1.5]]},
        {"label": HOSTILE, "x": -25.98, "y": 0.0, "colour": "#de8f05", "size": 17.62, "font": 14.05,
         "occurrences": 4, "links": 1, "neighbours": [[0, 1.5]]},
        {"label": "alone", "x": 0.0, "y": 51.96, "colour": OTHER_COLOUR, "size": 6.0, "font": 9.4,
         "occurrences": 1, "links": 0, "neighbours": []},
    ], "legend": [{"colour": "#0173b2", "other": False, "n_terms": 1, "top": [0]},
                  {"colour": "#de8f05", "other": False, "n_terms": 1, "top": [1]},
                  {"colour": OTHER_COLOUR, "other": True, "n_terms": 1, "top": [2]}]}


def test_legend_in_palette_order_with_the_three_largest_terms():
    items = [item(1, "x", cluster=12, occurrences=9), item(2, "b", cluster=2, occurrences=5),
             item(3, "a", cluster=2, occurrences=5), item(4, "c", cluster=2, occurrences=7),
             item(5, "d", cluster=2, occurrences=1), item(6, "e", cluster=1, occurrences=2)]
    links = [(2, 3, 1.0), (3, 4, 1.0), (4, 5, 1.0), (5, 6, 1.0), (1, 6, 1.0)]
    assert term_map_data(network(items, links))["legend"] == [
        {"colour": "#0173b2", "other": False, "n_terms": 1, "top": [5]},
        {"colour": "#de8f05", "other": False, "n_terms": 4, "top": [3, 2, 1]},
        {"colour": OTHER_COLOUR, "other": True, "n_terms": 1, "top": [0]},
    ]


def test_neighbours_are_the_five_strongest_ties_by_label():
    items = [item(1, "hub")] + [item(n, f"t{n}") for n in range(2, 9)]
    links = [(1, 2, 1.0), (1, 3, 5.0), (4, 1, 2.0), (1, 5, 2.0), (1, 6, 0.5), (1, 7, 3.0), (1, 8, 0.25)]
    hub = term_map_data(network(items, links))["terms"][0]
    assert hub["links"] == 7
    assert hub["neighbours"] == [[2, 5.0], [6, 3.0], [3, 2.0], [4, 2.0], [1, 1.0]]


def test_hostile_label_is_escaped_exactly_and_only_inside_the_json():
    fragment = term_map_html(THREE)
    assert '"label":"\\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e"' in fragment
    assert "<img" not in fragment
    assert fragment.count("</script>") == fragment.count("<script") == 3
    assert embedded(fragment)["terms"][1]["label"] == HOSTILE


def test_quotes_ampersands_and_non_ascii_in_labels_exactly():
    fragment = term_map_html(network([item(1, "Kendall's \u03c4 & <b>\"x\"")]))
    assert '"label":"Kendall\\u0027s \u03c4 \\u0026 \\u003cb\\u003e\\"x\\""' in fragment
    assert embedded(fragment)["terms"][0]["label"] == "Kendall's \u03c4 & <b>\"x\""


def test_fragment_embeds_the_data_and_the_library_path():
    fragment = term_map_html(THREE, explorer_url="explorer.html?state=linked", height_px=500)
    assert embedded(fragment) == term_map_data(THREE, explorer_url="explorer.html?state=linked")
    assert '<script class="term-map-library" src="../_static/cytoscape/cytoscape.min.js" defer></script>' in fragment
    assert 'style="height: 500px"' in fragment
    assert 'aria-label="Interactive map of 3 terms and 1 co-occurrence link.' in fragment
    assert fragment.startswith('<div class="term-map">') and fragment.endswith("</div>")
    assert "https://" not in fragment and "http://" not in fragment


def test_page_script_writes_text_never_html():
    script = static_text(SCRIPT_FILE)
    assert "innerHTML" not in script
    assert "insertAdjacentHTML" not in script
    assert "document.write" not in script
    assert "</script" not in script.lower() and "<!--" not in script


def test_fragment_inlines_the_shipped_style_and_script():
    fragment = term_map_html(THREE)
    assert f"<style>\n{static_text(STYLE_FILE)}</style>" in fragment
    assert fragment.endswith(f"<script>\n{static_text(SCRIPT_FILE)}</script></div>")


@pytest.mark.parametrize("empty", [network([]), {"network": {}}, {"items": [], "links": []}])
def test_empty_network_says_so_without_a_script(empty):
    fragment = term_map_html(empty)
    assert fragment == ('<div class="term-map term-map-empty"><p>The term map is empty: '
                        "no term passed the thresholds.</p></div>")


def test_empty_network_gives_the_reason_escaped():
    fragment = term_map_html(network([]), empty_message="no term occurs in at least 3 <abstracts>")
    assert fragment == ('<div class="term-map term-map-empty"><p>The term map is empty: '
                        "no term occurs in at least 3 &lt;abstracts&gt;.</p></div>")


def test_one_term_is_a_map():
    data = term_map_data(network([item(7, "single", 0.2, -0.4, 1, 3)]))
    assert data["terms"] == [{"label": "single", "x": 15.0, "y": 30.0, "colour": "#0173b2",
                              "size": (MIN_SIZE + MAX_SIZE) / 2, "font": 14.2, "occurrences": 3,
                              "links": 0, "neighbours": []}]
    assert embedded(term_map_html(network([item(7, "single")])))["terms"][0]["label"] == "single"


def test_inner_network_is_accepted():
    assert term_map_data(THREE["network"]) == term_map_data(THREE)


def test_three_hundred_terms():
    items = [item(n, f"term {n}", (n % 17) / 17, (n % 23) / 23, n % 14, n) for n in range(1, 301)]
    links = [(n, n + 1, n / 10) for n in range(1, 300)]
    data = term_map_data(network(items, links))
    assert len(data["terms"]) == 300 and len(data["links"]) == 299
    sizes = [t["size"] for t in data["terms"]]
    assert min(sizes) == MIN_SIZE and max(sizes) == MAX_SIZE
    # The cap: terms above the 95th percentile (285.05 occurrences) all draw at full size.
    size_of = {t["occurrences"]: t["size"] for t in data["terms"]}
    assert size_of[286] == size_of[300] == MAX_SIZE
    assert size_of[250] == 28.38  # 6 + 24 * (sqrt(250) - 1) / (sqrt(285.05) - 1)
    assert {t["colour"] for t in data["terms"] if t["label"] in ("term 11", "term 12", "term 13")} == {OTHER_COLOUR}


@pytest.mark.parametrize("bad, message", [
    (dict(height_px=0), "height_px must be a positive integer, got 0"),
    (dict(height_px=640.0), "height_px must be a positive integer, got 640.0"),
    (dict(library_url="https://cdn.example.org/cytoscape.min.js"), "library_url must be a relative URL"),
    (dict(library_url="//cdn.example.org/cytoscape.min.js"), "library_url must be a relative URL"),
    (dict(explorer_url="javascript:alert(1)"), "explorer_url must be a relative or http(s) URL"),
])
def test_bad_options_are_named(bad, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        term_map_html(THREE, **bad)


def test_broken_networks_are_named():
    with pytest.raises(ValueError, match="term id 1 occurs twice"):
        term_map_data(network([item(1, "a"), item(1, "b")]))
    with pytest.raises(ValueError, match="names a term id that is not in network.items"):
        term_map_data(network([item(1, "a")], [(1, 9, 1.0)]))
    with pytest.raises(ValueError, match="term 'b' has no finite x, y position"):
        term_map_data(network([item(1, "a"), item(2, "b", x=float("nan"))]))
    with pytest.raises(TypeError, match="network must be a dict"):
        term_map_data([])


def test_reads_the_vosviewer_json_the_cli_writes(tmp_path):
    raw = pd.Series({"p1": "Quantum kernels. Galaxy clusters.",
                     "p2": "Quantum kernels. Galaxy clusters. Quantum kernels again.",
                     "p3": "Galaxy clusters. Spiking neurons.", "p4": "Spiking neurons. Quantum kernels."})
    result = analyse_cooccurrence(raw, raw.map(analysis_text),
                                  TermMapOptions(min_occurrences=2, relevant_share=1.0, thesaurus={}, min_pair_papers=1))
    write_vosviewer_json(result, tmp_path / "network.json")
    data = term_map_data(json.loads((tmp_path / "network.json").read_text(encoding="utf-8")))
    assert [(t["label"], t["occurrences"], t["links"]) for t in data["terms"]] == [
        (row.term, row.n_papers, row.degree) for row in result.terms.itertuples()]
    assert len(data["links"]) == result.graph.number_of_edges() == 3
