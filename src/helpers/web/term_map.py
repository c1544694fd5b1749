"""The interactive term map: the VOSviewer JSON network as a zoomable, searchable map in a book page.

:func:`term_map_html` turns the document :func:`helpers.analysis.cooccurrence.write_vosviewer_json`
writes into one self-contained HTML fragment (a notebook cell shows it with
``IPython.display.HTML``). The drawing library, Cytoscape.js, is vendored from
the npm registry by the Makefile and served by the book at
``_static/cytoscape/cytoscape.min.js``; nothing is fetched from a CDN.

The page's style and script are package files, ``static/term-map.css`` and
``static/term-map.js``, inlined into the fragment. Term labels are untrusted
text (they come from abstracts): they travel only inside a
``<script type="application/json">`` block with ``<``, ``>``, ``&`` and ``'``
written as ``\\u`` escapes (:func:`helpers.web.assets.script_json`), and the page
script draws them as canvas text or puts them into the document with
``textContent`` (never ``innerHTML``).

In a chapter::

    from IPython.display import HTML
    network = json.loads((output_dir / "network.json").read_text(encoding="utf-8"))
    HTML(term_map_html(network))
"""

from __future__ import annotations

import html
import math
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from helpers.web.assets import inline_script, script_json, static_text

#: seaborn's "colorblind" palette, in its order: community 1 gets the first colour.
COMMUNITY_COLOURS = ("#0173b2", "#de8f05", "#029e73", "#d55e00", "#cc78bc",
                     "#ca9161", "#fbafe4", "#949494", "#ece133", "#56b4e9")
#: Communities after the tenth.
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
#: The page's style and script, shipped in static/ (linted and tested under tests/js); one classic script,
#: run where it stands (document.currentScript), so a page may hold several maps.
STYLE_FILE, SCRIPT_FILE = "term-map.css", "term-map.js"


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

    Parameters
    ----------
    occurrences
        Each term's number of abstracts.

    Returns
    -------
    ndarray
        Each term's diameter in pixels, rounded to 0.01.

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


def community_colour(cluster: int) -> str:
    """The colour of a term: its community's colour (linked or not), grey after the tenth community.

    Every term of a community has its colour, so a legend's count of a colour is the community's count of
    terms (the chapter's table of communities).

    Parameters
    ----------
    cluster
        The community's number, from 1.

    Returns
    -------
    str
        A hex colour.

    Examples
    --------
    >>> community_colour(1), community_colour(10), community_colour(11)
    ('#0173b2', '#56b4e9', '#c8c8c8')
    """
    if not 1 <= cluster <= len(COMMUNITY_COLOURS):
        return OTHER_COLOUR
    return COMMUNITY_COLOURS[cluster - 1]


def _check_url(url: str, name: str, *, relative_only: bool) -> str:
    parts = urlsplit(url)
    if relative_only and (parts.scheme or parts.netloc):
        raise ValueError(f"{name} must be a relative URL served by the book (no CDN), got {url!r}")
    if parts.scheme not in ("", "http", "https"):
        raise ValueError(f"{name} must be a relative or http(s) URL, got {url!r}")
    return url


def term_map_data(network: dict[str, Any], *, explorer_url: str = "explorer.html",
                  community_terms: dict[int, list[str]] | None = None, explorer_filter: str = "term"
                  ) -> dict[str, Any]:
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
    community_terms : dict, optional
        Community number -> its terms in the order that names it (the chapter's table of communities), so
        the legend names each community as the table does (default: most occurrences first).
    explorer_filter : {"term", "keyword"}
        The explorer's filter a click opens: ``?term=`` (the term map) or ``?keyword=`` (a map of authors'
        keywords, then ``filter`` in the data).

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
        source, target = index_of.get(link.get("source_id")), index_of.get(link.get("target_id"))
        if source is None or target is None:
            raise ValueError(f"link {link!r} names a term id that is not in network.items")
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
            "colour": community_colour(int(item.get("cluster", 0))),
            "size": float(sizes[position]),
            "font": round(7.0 + 0.4 * float(sizes[position]), 2),
            "occurrences": int(occurrences[position]),
            "links": len(neighbours[position]),
            "neighbours": [[other, strength] for other, strength in strongest],
        })
    if explorer_filter not in ("term", "keyword"):
        raise ValueError(f"explorer_filter must be 'term' or 'keyword', got {explorer_filter!r}")
    data = {"explorer": explorer_url, "terms": terms, "links": edges,
            "legend": legend_entries(terms, named=_named_by_colour(community_terms))}
    return data if explorer_filter == "term" else {**data, "filter": explorer_filter}


def _named_by_colour(community_terms: dict[int, list[str]] | None) -> dict[str, list[str]] | None:
    if community_terms is None:
        return None
    return {community_colour(int(c)): list(names) for c, names in community_terms.items()
            if community_colour(int(c)) != OTHER_COLOUR}


def legend_entries(terms: list[dict[str, Any]], *, n_top: int = 3,
                   named: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """One legend entry per colour, in palette order (grey last): its terms' count and its top terms.

    ``other`` marks the grey entry (communities after the tenth). ``top`` holds the indices (into ``terms``) of the ``n_top`` terms with the
    most occurrences (ties by label), or, for a colour in ``named``, of the first ``n_top`` of its names there,
    so the page script can name them as text.

    Parameters
    ----------
    terms
        The map's terms (``label``, ``colour``, ``occurrences``), as :func:`term_map_data` gives them.
    n_top
        Terms named per entry.
    named
        The terms to name for a colour, by colour, when the chapter names its communities.

    Returns
    -------
    list of dict
        ``colour``, ``count``, ``top`` and ``other`` per entry.

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
    named = named or {}

    def top(colour: str, indices: list[int]) -> list[int]:
        if colour in named:
            index_of = {terms[i]["label"]: i for i in indices}
            return [index_of[name] for name in named[colour] if name in index_of][:n_top]
        return sorted(indices, key=lambda i: (-terms[i]["occurrences"], terms[i]["label"]))[:n_top]

    return [
        {"colour": colour, "other": colour == OTHER_COLOUR, "n_terms": len(indices), "top": top(colour, indices)}
        for colour, indices in sorted(members.items(), key=lambda pair: order.get(pair[0], len(order)))
    ]


def term_map_html(network: dict[str, Any], *, explorer_url: str = "explorer.html", height_px: int = 640,
                  community_terms: dict[int, list[str]] | None = None,
                  library_url: str = LIBRARY_URL, empty_message: str = "no term passed the thresholds",
                  explorer_filter: str = "term") -> str:
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
    community_terms : dict, optional
        As for :func:`term_map_data`.
    library_url : str
        The vendored ``cytoscape.min.js``, relative to the page (the default
        suits a chapter in ``chapters/``).
    empty_message : str
        Why there is no term, shown (escaped) instead of an empty map (e.g.
        ``CooccurrenceResult.message``).
    explorer_filter : {"term", "keyword"}
        As for :func:`term_map_data`.

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
    data = term_map_data(network, explorer_url=explorer_url, community_terms=community_terms,
                         explorer_filter=explorer_filter)
    if not data["terms"]:
        return (f'<div class="term-map term-map-empty"><p>The term map is empty: '
                f'{html.escape(empty_message)}.</p></div>')
    n_terms, n_links = len(data["terms"]), len(data["links"])
    item = "keyword" if explorer_filter == "keyword" else "term"  # what the map's items are
    terms, links = (item if n_terms == 1 else f"{item}s"), ("link" if n_links == 1 else "links")
    description = (f"Interactive map of {n_terms} {terms} and {n_links} co-occurrence {links}. Drag to pan, "
                   "use the mouse wheel or the + and - keys to zoom, arrow keys to pan.")
    return (
        '<div class="term-map">'
        + f"<style>\n{static_text(STYLE_FILE)}</style>"
        + '<div class="term-map-controls">'
        f'<input class="term-map-search" type="search" placeholder="Find a {item}" autocomplete="off" '
        f'aria-label="Find a {item} in the map">'
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
        + inline_script(static_text(SCRIPT_FILE), name=SCRIPT_FILE)
        + "</div>"
    )
