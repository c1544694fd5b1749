"""The interactive term map: the VOSviewer JSON network as a zoomable, searchable map in a book page.

:func:`term_map_html` turns the document :func:`helpers.analysis.cooccurrence.write_vosviewer_json`
writes into one self-contained HTML fragment (a notebook cell shows it with
``IPython.display.HTML``). The drawing library, Cytoscape.js, is vendored from
the npm registry by the Makefile and served by the book at
``_static/cytoscape/cytoscape.min.js``; nothing is fetched from a CDN.

Term labels are untrusted text (they come from abstracts): they travel only
inside a ``<script type="application/json">`` block with ``<``, ``>`` and ``&``
written as ``\\u003c``, ``\\u003e`` and ``\\u0026``, and the page script draws
them as canvas text or puts them into the document with ``textContent`` (never
``innerHTML``).

In a chapter::

    from IPython.display import HTML
    network = json.loads((output_dir / "network.json").read_text(encoding="utf-8"))
    HTML(term_map_html(network))
"""

from __future__ import annotations

import html
import json
import math
from typing import Any
from urllib.parse import urlsplit

import numpy as np

#: seaborn's "colorblind" palette, in its order: community 1 gets the first colour.
COMMUNITY_COLOURS = ("#0173b2", "#de8f05", "#029e73", "#d55e00", "#cc78bc",
                     "#ca9161", "#fbafe4", "#949494", "#ece133", "#56b4e9")
#: Communities after the tenth, and terms without any link.
OTHER_COLOUR = "#c8c8c8"
#: Node diameters in map units; areas grow with occurrences up to the cap.
MIN_SIZE, MAX_SIZE = 6.0, 30.0
#: Occurrences above this quantile of all terms' occurrences draw as large as the cap.
SIZE_CAP_QUANTILE = 0.95
#: Map units per square root of the number of terms (the map's radius for one term).
MAP_SPACING = 30.0
#: Strongest neighbours listed in a term's tooltip.
TOP_NEIGHBOURS = 5
#: Where the chapter at ``chapters/cooccurrence.html`` finds the vendored library.
LIBRARY_URL = "../_static/cytoscape/cytoscape.min.js"


def _items_and_links(network: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``items`` and ``links`` lists of a VOSviewer JSON document or of its ``network`` member."""
    if not isinstance(network, dict):
        raise TypeError(f"network must be a dict (VOSviewer JSON), got {type(network).__name__}")
    inner = network.get("network", network)
    if not isinstance(inner, dict):
        raise ValueError("network['network'] must be an object with 'items' and 'links'")
    return list(inner.get("items") or []), list(inner.get("links") or [])


def node_sizes(occurrences: np.ndarray) -> np.ndarray:
    """Node diameters: area grows with occurrences, capped at the ``SIZE_CAP_QUANTILE`` quantile.

    The smallest term gets ``MIN_SIZE``, every term at or above the cap
    ``MAX_SIZE``, so one very frequent term cannot blow the others away.

    Examples
    --------
    Nineteen terms in 1 to 19 abstracts and one in 400: the cap (the 95th
    percentile, 38.05) keeps the nineteen apart instead of squashing them.

    >>> node_sizes(np.array(list(range(1, 20)) + [400]))[[0, 1, 18, 19]].tolist()
    [6.0, 7.92, 21.6, 30.0]
    >>> node_sizes(np.array([7, 7])).tolist()
    [18.0, 18.0]
    """
    occurrences = np.asarray(occurrences, dtype=float)
    if occurrences.size == 0:
        return np.array([])
    low = float(occurrences.min())
    cap = float(np.quantile(occurrences, SIZE_CAP_QUANTILE))
    if cap <= low:
        return np.full(occurrences.shape, round((MIN_SIZE + MAX_SIZE) / 2, 2))
    share = (np.sqrt(np.minimum(occurrences, cap)) - math.sqrt(low)) / (math.sqrt(cap) - math.sqrt(low))
    return np.round(MIN_SIZE + (MAX_SIZE - MIN_SIZE) * share, 2)


def community_colour(cluster: int, n_links: int) -> str:
    """The colour of a term: its community's colour, or grey after ten communities or without links.

    Examples
    --------
    >>> community_colour(1, 3), community_colour(10, 1), community_colour(11, 1), community_colour(2, 0)
    ('#0173b2', '#56b4e9', '#c8c8c8', '#c8c8c8')
    """
    if n_links == 0 or not 1 <= cluster <= len(COMMUNITY_COLOURS):
        return OTHER_COLOUR
    return COMMUNITY_COLOURS[cluster - 1]


def _check_url(url: str, name: str, *, relative_only: bool) -> str:
    parts = urlsplit(url)
    if relative_only and (parts.scheme or parts.netloc):
        raise ValueError(f"{name} must be a relative URL served by the book (no CDN), got {url!r}")
    if parts.scheme not in ("", "http", "https"):
        raise ValueError(f"{name} must be a relative or http(s) URL, got {url!r}")
    return url


def term_map_data(network: dict[str, Any], *, explorer_url: str = "explorer.html") -> dict[str, Any]:
    """The compact data the page script draws: terms with position, colour, size and neighbours.

    Parameters
    ----------
    network : dict
        VOSviewer JSON (``{"network": {"items": [...], "links": [...]}}``, as
        written by :func:`helpers.analysis.cooccurrence.write_vosviewer_json`) or its
        ``network`` member. Items need ``id`` and ``label``; ``x``, ``y``,
        ``cluster`` and ``weights["Occurrences"]`` default to 0, 0, 0 and 0.
    explorer_url : str
        The paper explorer; a click on a term opens ``<explorer_url>?term=<term>``.

    Returns
    -------
    dict
        ``explorer`` (URL), ``terms`` (list of ``label, x, y, colour, size,
        font, occurrences, links, neighbours``; map units, y pointing down as
        on screen; ``neighbours`` = up to five ``[term index, strength]``,
        strongest first) and ``links`` (``[term index, term index, strength]``).

    Examples
    --------
    >>> doc = {"network": {"items": [
    ...     {"id": 1, "label": "graph", "x": 1, "y": 0.5, "cluster": 1, "weights": {"Occurrences": 9}},
    ...     {"id": 2, "label": "node", "x": -1, "y": 0, "cluster": 2, "weights": {"Occurrences": 4}}],
    ...     "links": [{"source_id": 1, "target_id": 2, "strength": 1.5}]}}
    >>> data = term_map_data(doc)
    >>> [(t["label"], t["x"], t["y"], t["colour"], t["size"], t["neighbours"]) for t in data["terms"]]
    [('graph', 42.43, -21.21, '#0173b2', 30.0, [[1, 1.5]]), ('node', -42.43, 0.0, '#de8f05', 6.0, [[0, 1.5]])]
    >>> data["links"]
    [[0, 1, 1.5]]
    """
    items, links = _items_and_links(network)
    explorer_url = _check_url(explorer_url, "explorer_url", relative_only=False)
    index_of: dict[Any, int] = {}
    for position, item in enumerate(items):
        if item.get("id") in index_of:
            raise ValueError(f"term id {item.get('id')!r} occurs twice in network.items")
        index_of[item.get("id")] = position
    edges = []
    neighbours: list[list[tuple[int, float]]] = [[] for _ in items]
    for link in links:
        ends = [index_of.get(link.get("source_id")), index_of.get(link.get("target_id"))]
        if None in ends:
            raise ValueError(f"link {link!r} names a term id that is not in network.items")
        source, target = ends
        strength = float(link.get("strength", 1.0))
        edges.append([source, target, strength])
        neighbours[source].append((target, strength))
        neighbours[target].append((source, strength))
    labels = [str(item.get("label", "")) for item in items]
    occurrences = np.array([int((item.get("weights") or {}).get("Occurrences", 0)) for item in items])
    sizes = node_sizes(occurrences)
    coordinates = np.array([[float(item.get("x", 0)), float(item.get("y", 0))] for item in items]).reshape(-1, 2)
    if not np.isfinite(coordinates).all():
        bad = labels[int(np.flatnonzero(~np.isfinite(coordinates).all(axis=1))[0])]
        raise ValueError(f"term {bad!r} has no finite x, y position")
    extent = float(np.abs(coordinates).max()) if coordinates.size else 0.0
    # Map units grow with the square root of the number of terms, so terms keep their spacing
    # and a large map is read by zooming in, as in VOSviewer.
    scale = MAP_SPACING * math.sqrt(max(len(items), 1)) / (extent if extent > 0 else 1.0)
    terms = []
    for position, item in enumerate(items):
        strongest = sorted(neighbours[position], key=lambda pair: (-pair[1], labels[pair[0]]))[:TOP_NEIGHBOURS]
        terms.append({
            "label": labels[position],
            "x": round(float(coordinates[position, 0]) * scale, 2),
            "y": round(-float(coordinates[position, 1]) * scale, 2) + 0.0,  # + 0.0: no "-0.0"
            "colour": community_colour(int(item.get("cluster", 0)), len(neighbours[position])),
            "size": float(sizes[position]),
            "font": round(7.0 + 0.4 * float(sizes[position]), 2),
            "occurrences": int(occurrences[position]),
            "links": len(neighbours[position]),
            "neighbours": [[other, strength] for other, strength in strongest],
        })
    return {"explorer": explorer_url, "terms": terms, "links": edges, "legend": legend_entries(terms)}


def legend_entries(terms: list[dict[str, Any]], *, n_top: int = 3) -> list[dict[str, Any]]:
    """One legend entry per colour, in palette order (grey last): its terms' count and its top terms.

    ``other`` marks the grey entry (communities after the tenth and terms
    without links). ``top`` holds the indices (into ``terms``) of the ``n_top`` terms with the
    most occurrences (ties by label), so the page script can name them as text.

    Examples
    --------
    >>> entries = legend_entries([{"label": "b", "colour": "#de8f05", "occurrences": 3},
    ...                           {"label": "a", "colour": "#0173b2", "occurrences": 1},
    ...                           {"label": "c", "colour": "#de8f05", "occurrences": 3}])
    >>> [(e["colour"], e["other"], e["n_terms"], e["top"]) for e in entries]
    [('#0173b2', False, 1, [1]), ('#de8f05', False, 2, [0, 2])]
    """
    order = {colour: rank for rank, colour in enumerate((*COMMUNITY_COLOURS, OTHER_COLOUR))}
    members: dict[str, list[int]] = {}
    for index, term in enumerate(terms):
        members.setdefault(term["colour"], []).append(index)
    return [
        {"colour": colour, "other": colour == OTHER_COLOUR, "n_terms": len(indices),
         "top": sorted(indices, key=lambda i: (-terms[i]["occurrences"], terms[i]["label"]))[:n_top]}
        for colour, indices in sorted(members.items(), key=lambda pair: order.get(pair[0], len(order)))
    ]


def script_json(value: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: ``<``, ``>``, ``&`` escaped.

    Examples
    --------
    >>> script_json({"label": "</script>&"})
    '{"label":"\\\\u003c/script\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def term_map_html(network: dict[str, Any], *, explorer_url: str = "explorer.html", height_px: int = 640,
                  library_url: str = LIBRARY_URL, empty_message: str = "no term passed the thresholds") -> str:
    """The interactive term map as one HTML fragment (display it with ``IPython.display.HTML``).

    Zoom and pan with the wheel, a drag or the buttons; hovering (or tapping,
    or finding with the search box) a term shows its occurrences and its
    strongest neighbours; a click opens the explorer on the papers that use it.
    Colours are the communities', in the order of seaborn's "colorblind"
    palette; labels are drawn largest term first, wherever they fit without
    overlapping one already drawn, so zooming in reveals more of them.

    Parameters
    ----------
    network : dict
        VOSviewer JSON (see :func:`term_map_data`).
    explorer_url : str
        The paper explorer, relative to the page (default: next to it).
    height_px : int
        Height of the map in CSS pixels.
    library_url : str
        The vendored ``cytoscape.min.js``, relative to the page (the default
        suits a chapter in ``chapters/``).
    empty_message : str
        Why there is no term, shown (escaped) instead of an empty map (e.g.
        ``CooccurrenceResult.message``).

    Returns
    -------
    str
        A ``<div class="term-map">`` with the controls, the data and the
        script; for a network without terms, a ``<div>`` with one sentence and
        no script.

    Examples
    --------
    >>> term_map_html({"network": {"items": [], "links": []}})
    '<div class="term-map term-map-empty"><p>The term map is empty: no term passed the thresholds.</p></div>'
    """
    if not isinstance(height_px, int) or isinstance(height_px, bool) or height_px <= 0:
        raise ValueError(f"height_px must be a positive integer, got {height_px!r}")
    library_url = _check_url(library_url, "library_url", relative_only=True)
    data = term_map_data(network, explorer_url=explorer_url)
    if not data["terms"]:
        return (f'<div class="term-map term-map-empty"><p>The term map is empty: '
                f'{html.escape(empty_message)}.</p></div>')
    n_terms, n_links = len(data["terms"]), len(data["links"])
    description = (f"Interactive map of {n_terms} terms and {n_links} co-occurrence links. Drag to pan, "
                   "use the mouse wheel or the + and - keys to zoom, arrow keys to pan.")
    return (
        '<div class="term-map">'
        + TERM_MAP_STYLE
        + '<div class="term-map-controls">'
        '<input class="term-map-search" type="search" placeholder="Find a term" autocomplete="off" '
        'aria-label="Find a term in the map">'
        '<button type="button" class="term-map-zoom-in" aria-label="Zoom in">+</button>'
        '<button type="button" class="term-map-zoom-out" aria-label="Zoom out">&minus;</button>'
        '<button type="button" class="term-map-fit">Show all</button>'
        '<span class="term-map-status" role="status" aria-live="polite"></span></div>'
        f'<div class="term-map-canvas" tabindex="0" role="region" aria-label="{html.escape(description)}" '
        f'style="height: {height_px}px"></div>'
        '<div class="term-map-tooltip" hidden></div>'
        '<ul class="term-map-legend" aria-label="Colours of the communities"></ul>'
        '<noscript><p>The interactive term map needs JavaScript.</p></noscript>'
        f'<script type="application/json" class="term-map-data">{script_json(data)}</script>'
        f'<script class="term-map-library" src="{html.escape(library_url, quote=True)}" defer></script>'
        + TERM_MAP_SCRIPT
        + "</div>"
    )


TERM_MAP_STYLE = """<style>
.term-map { position: relative; margin: 1rem 0; }
.term-map-controls { display: flex; gap: .4rem; align-items: center; flex-wrap: wrap; margin-bottom: .4rem; }
.term-map-search { flex: 0 1 18rem; padding: .25rem .4rem; }
.term-map-controls button { border: 1px solid #999; background: #fff; color: #1a1a1a; padding: .1rem .6rem;
  cursor: pointer; }
.term-map-status { font-size: .85rem; }
.term-map-canvas { position: relative; border: 1px solid #ddd; background: #fff; }
.term-map-labels { position: absolute; left: 0; top: 0; z-index: 20; pointer-events: none; }
.term-map-canvas:focus-visible { outline: 2px solid #0173b2; }
.term-map-tooltip { position: absolute; z-index: 30; max-width: 20rem; padding: .4rem .6rem;
  background: #fff; color: #1a1a1a; border: 1px solid #888; box-shadow: 0 2px 6px rgba(0,0,0,.2); font-size: .85rem; }
.term-map-tooltip a { color: #0a58ca; }
.term-map-tooltip .term-map-term { font-weight: bold; display: block; }
.term-map-tooltip ol { margin: .2rem 0 .2rem 1.2rem; padding: 0; }
.term-map-tooltip p { margin: .2rem 0; }
.term-map-legend { list-style: none; margin: .4rem 0 0 0; padding: 0; font-size: .8rem;
  display: flex; flex-wrap: wrap; gap: .15rem 1rem; }
.term-map-swatch { display: inline-block; width: .75rem; height: .75rem; border-radius: 50%;
  margin-right: .3rem; vertical-align: middle; }
</style>"""

# One classic script, run where it stands (document.currentScript): no ids, so a page may hold several maps.
TERM_MAP_SCRIPT = """<script>
(function () {
  var root = document.currentScript.parentElement;
  var data = JSON.parse(root.querySelector("script.term-map-data").textContent);
  var box = root.querySelector(".term-map-canvas");
  var tooltip = root.querySelector(".term-map-tooltip");
  var search = root.querySelector(".term-map-search");
  var status = root.querySelector(".term-map-status");
  var library = root.querySelector("script.term-map-library");
  var started = false;
  var WHEEL_HINT = "Click the map to zoom with the mouse wheel (or use + and \u2212).";
  function termUrl(label) {
    var url = data.explorer;
    return url + (url.indexOf("?") === -1 ? "?" : "&") + "term=" + encodeURIComponent(label);
  }
  function start() {
    if (started) { return; }
    started = true;
    var terms = data.terms;
    var strengths = data.links.map(function (l) { return l[2]; });
    var low = Math.min.apply(null, strengths.concat([0])), high = Math.max.apply(null, strengths.concat([0]));
    var edgeWidth = high > low ? "mapData(strength, " + low + ", " + high + ", 0.6, 4)" : 1.5;
    var elements = terms.map(function (t, i) {
      return { group: "nodes", data: { id: "t" + i, index: i, label: t.label, colour: t.colour,
               size: t.size, font: t.font }, position: { x: t.x, y: t.y } };
    }).concat(data.links.map(function (l, i) {
      return { group: "edges", data: { id: "l" + i, source: "t" + l[0], target: "t" + l[1], strength: l[2] } };
    }));
    var cy = window.cytoscape({
      container: box, elements: elements, layout: { name: "preset", fit: false },
      minZoom: 0.05, maxZoom: 4, boxSelectionEnabled: false, autoungrabify: true, userZoomingEnabled: false,
      style: [
        { selector: "node", style: { "background-color": "data(colour)", "width": "data(size)",
          "height": "data(size)", "background-opacity": 0.9, "border-width": 0.5, "border-color": "#fff" } },
        { selector: "edge", style: { "curve-style": "haystack", "haystack-radius": 0, "line-color": "#9a9a9a",
          "opacity": 0.22, "width": edgeWidth } },
        { selector: ".faded", style: { "opacity": 0.15 } },
        { selector: "edge.near", style: { "opacity": 0.75, "line-color": "#555" } },
        { selector: "node.near, node.hover, node.match", style: { "opacity": 1, "z-index": 10 } },
        { selector: "node.hover, node.match", style: { "border-width": 3, "border-color": "#000" } }
      ]
    });
    root.termMap = cy;
    var byOccurrences = cy.nodes().toArray().sort(function (a, b) {
      return terms[b.data("index")].occurrences - terms[a.data("index")].occurrences;
    });
    // Labels live on a canvas of their own above the nodes, so no circle ever covers a drawn label.
    var layer = document.createElement("canvas");
    layer.className = "term-map-labels";
    layer.setAttribute("aria-hidden", "true");
    box.appendChild(layer);
    var pen = layer.getContext("2d"), FONT = "px Helvetica Neue, Helvetica, Arial, sans-serif";
    pen.font = "100" + FONT;
    var widthAt1 = terms.map(function (t) { return pen.measureText(t.label).width / 100; });
    root.termMapLabels = [];
    function overlapping(c) {
      return function (q) { return c[0] < q[2] && q[0] < c[2] && c[1] < q[3] && q[1] < c[3]; };
    }
    var largestFont = Math.max.apply(null, terms.map(function (t) { return t.font; }));
    // Focused terms first, then the largest; a label is drawn where it is big enough to read and
    // overlaps no label already drawn, so zooming in reveals more of them (as in VOSviewer).
    function drawLabels() {
      var ratio = window.devicePixelRatio || 1, width = box.clientWidth, height = box.clientHeight;
      if (layer.width !== Math.round(width * ratio) || layer.height !== Math.round(height * ratio)) {
        layer.width = Math.round(width * ratio);
        layer.height = Math.round(height * ratio);
        layer.style.width = width + "px";
        layer.style.height = height + "px";
      }
      pen.setTransform(ratio, 0, 0, ratio, 0, 0);
      pen.clearRect(0, 0, width, height);
      pen.textAlign = "center";
      pen.textBaseline = "top";
      pen.lineJoin = "round";
      // The largest label stays between 14 and 24 px: zoomed far out the big terms stay named,
      // zoomed far in the terms spread apart rather than the letters growing.
      var zoom = Math.min(Math.max(cy.zoom(), 14 / largestFont), 24 / largestFont), placed = [], drawn = [];
      if (!tooltip.hidden) {  // no label hides under the tooltip
        var tx = tooltip.offsetLeft - box.offsetLeft, ty = tooltip.offsetTop - box.offsetTop;
        placed.push([tx, ty, tx + tooltip.offsetWidth, ty + tooltip.offsetHeight]);
      }
      // The hovered term and the one the search box shows are always labelled; their neighbours
      // and the other matches next, where they fit.
      var must = cy.$("node.hover, node.current").toArray(), near = cy.$("node.near, node.match").toArray();
      var dim = must.length + near.length > 0, seen = {};
      near = byOccurrences.filter(function (node) { return near.indexOf(node) !== -1; });
      must.concat(near, byOccurrences).forEach(function (node) {
        var i = node.data("index");
        if (seen[i]) { return; }
        seen[i] = true;
        var forced = node.hasClass("hover") || node.hasClass("current");
        var lit = forced || node.hasClass("near") || node.hasClass("match");
        var size = terms[i].font * zoom;
        if (lit) { size = Math.max(size, 11); } else if (size < 7) { return; }
        // Under the node if that space is free, else above, right or left of it.
        var p = node.renderedPosition(), r = node.renderedWidth() / 2 + 1, h = size * 1.2;
        var w = widthAt1[i] * size * (lit ? 1.1 : 1) + 4;  // bold is wider
        var spots = [[p.x - w / 2, p.y + r], [p.x - w / 2, p.y - r - h],
                     [p.x + r, p.y - h / 2], [p.x - r - w, p.y - h / 2]];
        var b = null;
        for (var k = 0; k < spots.length && !b; k++) {
          var c = [spots[k][0], spots[k][1], spots[k][0] + w, spots[k][1] + h];
          var inside = c[2] > 0 && c[0] < width && c[3] > 0 && c[1] < height;
          if (forced || (inside && !placed.some(overlapping(c)))) { b = c; }
        }
        if (!b) { return; }
        placed.push(b);
        drawn.push(terms[i].label);
        pen.globalAlpha = dim && !lit ? 0.25 : 1;
        pen.font = (lit ? "bold " : "") + size.toFixed(1) + FONT;
        pen.lineWidth = Math.max(2, size / 5);
        pen.strokeStyle = "rgba(255, 255, 255, 0.9)";
        pen.strokeText(terms[i].label, (b[0] + b[2]) / 2, b[1] + size * 0.1);
        pen.fillStyle = "#1a1a1a";
        pen.fillText(terms[i].label, (b[0] + b[2]) / 2, b[1] + size * 0.1);
      });
      pen.globalAlpha = 1;
      root.termMapLabels = drawn;
    }
    cy.on("render", drawLabels);
    // The legend names each colour by its largest terms (text nodes, as everywhere).
    var legend = root.querySelector(".term-map-legend");
    (data.legend || []).forEach(function (entry) {
      var item = document.createElement("li"), swatch = document.createElement("span");
      swatch.className = "term-map-swatch";
      swatch.style.backgroundColor = entry.colour;
      item.appendChild(swatch);
      var names = entry.top.map(function (i) { return terms[i].label; }).join(", ");
      var more = entry.n_terms > entry.top.length ? ", \u2026" : "";
      var count = entry.n_terms + (entry.n_terms === 1 ? " term" : " terms");
      var grey = entry.other ? "other communities and unlinked terms: " : "";
      item.appendChild(document.createTextNode(grey + names + more + " (" + count + ")"));
      legend.appendChild(item);
    });
    cy.on("viewport resize", function () { moveTooltip(); });
    var shown = null, pinned = null;
    function text(tag, value, className) {
      var element = document.createElement(tag);
      element.textContent = value;
      if (className) { element.className = className; }
      return element;
    }
    function showTooltip(node) {
      var t = terms[node.data("index")];
      tooltip.replaceChildren();
      tooltip.appendChild(text("span", t.label, "term-map-term"));
      tooltip.appendChild(text("p", "Occurrences: " + t.occurrences + " abstracts \\u00b7 links: " + t.links,
                               "term-map-counts"));
      if (t.neighbours.length) {
        tooltip.appendChild(text("p", "Strongest links:"));
        var list = document.createElement("ol");
        list.className = "term-map-neighbours";
        t.neighbours.forEach(function (pair) {
          list.appendChild(text("li", terms[pair[0]].label + " (" + pair[1].toFixed(2) + ")"));
        });
        tooltip.appendChild(list);
      } else {
        tooltip.appendChild(text("p", "No link drawn."));
      }
      var link = text("a", "List the papers that use it", "term-map-papers");
      link.href = termUrl(t.label);
      tooltip.appendChild(link);
      shown = node;
      // A hover tooltip lets the mouse through; a pinned one can be clicked.
      tooltip.style.pointerEvents = node === pinned ? "auto" : "none";
      tooltip.hidden = false;
      highlight(node);
      moveTooltip();
    }
    // Above the term if there is room, else under its label; never outside the map's sides.
    function moveTooltip() {
      if (!shown || tooltip.hidden) { return; }
      var p = shown.renderedPosition(), r = shown.renderedWidth() / 2;
      var left = Math.min(box.offsetLeft + p.x - 16, box.offsetLeft + box.clientWidth - tooltip.offsetWidth);
      var top = box.offsetTop + p.y - r - 8 - tooltip.offsetHeight;
      if (top < box.offsetTop) { top = box.offsetTop + p.y + r + 30; }
      tooltip.style.left = Math.max(box.offsetLeft, left) + "px";
      tooltip.style.top = top + "px";
    }
    function hideTooltip() {
      tooltip.hidden = true;
      shown = null;
      cy.batch(function () {
        cy.elements().removeClass("hover near faded");
        if (cy.$(".match").length) { cy.elements().not(".match").addClass("faded"); }
      });
    }
    // A term found by the search box or tapped stays shown until another is chosen or the background is tapped.
    function pin(node) { pinned = node; showTooltip(node); }
    function unpin() { pinned = null; hideTooltip(); }
    function highlight(node) {
      cy.batch(function () {
        cy.elements().removeClass("hover near").addClass("faded");
        var around = node.closedNeighborhood();
        around.removeClass("faded").addClass("near");
        node.addClass("hover");
        cy.$(".match").removeClass("faded");
      });
    }
    cy.on("mouseover", "node", function (event) { showTooltip(event.target); });
    function leave() { if (pinned) { showTooltip(pinned); } else { hideTooltip(); } }
    cy.on("mouseout", "node", leave);
    box.addEventListener("mouseleave", leave);
    cy.on("tap", "node", function (event) {
      var original = event.originalEvent || {};
      if (String(original.type || "").indexOf("touch") === 0 || original.pointerType === "touch") {
        pin(event.target);
      } else {
        window.location.assign(termUrl(terms[event.target.data("index")].label));
      }
    });
    cy.on("tap", function (event) { if (event.target === cy) { unpin(); } });
    cy.on("mouseover", "node", function () { box.style.cursor = "pointer"; });
    cy.on("mouseout", "node", function () { box.style.cursor = ""; });
    var matches = [], current = -1;
    function find() {
      var query = search.value.trim().toLowerCase();
      cy.batch(function () { cy.elements().removeClass("match current"); });
      unpin();
      matches = [];
      current = -1;
      if (!query) { status.textContent = ""; return; }
      terms.forEach(function (t, i) {
        var label = t.label.toLowerCase(), at = label.indexOf(query);
        if (at === -1) { return; }
        matches.push({ index: i, rank: label === query ? 0 : (at === 0 ? 1 : 2), occurrences: t.occurrences });
      });
      matches.sort(function (a, b) { return a.rank - b.rank || b.occurrences - a.occurrences || a.index - b.index; });
      if (!matches.length) {
        status.textContent = "No term matches \\u201c" + search.value.trim() + "\\u201d.";
        return;
      }
      cy.batch(function () {
        cy.elements().addClass("faded");
        matches.forEach(function (m) { cy.getElementById("t" + m.index).removeClass("faded").addClass("match"); });
      });
      next();
    }
    function next() {
      if (!matches.length) { return; }
      current = (current + 1) % matches.length;
      var node = cy.getElementById("t" + matches[current].index);
      cy.batch(function () { cy.$(".current").removeClass("current"); node.addClass("current"); });
      status.textContent = matches.length + (matches.length === 1 ? " term matches" : " terms match") +
        "; showing \\u201c" + terms[matches[current].index].label + "\\u201d" +
        (matches.length > 1 ? " (Enter for the next)." : ".");
      cy.stop();
      var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      cy.animate({ center: { eles: node }, zoom: Math.max(cy.zoom(), 1.2) },
                 { duration: still ? 0 : 250, complete: function () { pin(node); } });
      pin(node);
    }
    search.addEventListener("input", find);
    search.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); next(); }
      if (event.key === "Escape") { search.value = ""; find(); }
    });
    function zoomBy(factor) {
      cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: box.clientWidth / 2, y: box.clientHeight / 2 } });
    }
    root.querySelector(".term-map-zoom-in").addEventListener("click", function () { zoomBy(1.4); });
    root.querySelector(".term-map-zoom-out").addEventListener("click", function () { zoomBy(1 / 1.4); });
    root.querySelector(".term-map-fit").addEventListener("click", fit);
    // The wheel zooms only once the map has the focus (a click or Tab), so it never traps the page's scrolling.
    box.addEventListener("mousedown", function () { box.focus({ preventScroll: true }); });
    box.addEventListener("touchstart", function () { box.focus({ preventScroll: true }); }, { passive: true });
    box.addEventListener("focus", function () {
      cy.userZoomingEnabled(true);
      if (status.textContent === WHEEL_HINT) { status.textContent = ""; }
    });
    box.addEventListener("blur", function () { cy.userZoomingEnabled(false); });
    box.addEventListener("wheel", function () {
      if (document.activeElement !== box && !status.textContent) { status.textContent = WHEEL_HINT; }
    }, { passive: true });
    box.addEventListener("keydown", function (event) {
      var moves = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
      if (event.key === "+" || event.key === "=") { zoomBy(1.4); }
      else if (event.key === "-") { zoomBy(1 / 1.4); }
      else if (event.key === "0") { fit(); }
      else if (moves[event.key]) { cy.panBy({ x: moves[event.key][0], y: moves[event.key][1] }); }
      else { return; }
      event.preventDefault();
    });
    function fit() {
      cy.fit(undefined, 30);
      // A small map is not blown up: its nodes stay the size they have in a large one.
      if (cy.zoom() > 1.4) { zoomBy(1.4 / cy.zoom()); }
    }
    fit();
    root.setAttribute("data-ready", "true");
  }
  // The library is deferred, so the page's text is laid out before the map is drawn.
  if (window.cytoscape) { start(); }
  else {
    library.addEventListener("load", start);
    window.addEventListener("load", function () {
      if (!window.cytoscape) {
        status.textContent = "The map could not load its script (" + library.getAttribute("src") + ").";
      }
    });
  }
})();
</script>"""
