"""Figures of the co-occurrence chapter, each returned with the data it shows.

Every function returns ``(figure, data)``: a matplotlib figure and the
DataFrame behind it, for :func:`helpers.book.figures.save_figure`. Community colours
are the interactive term map's (seaborn's colour-blind-safe "colorblind"
palette, :func:`helpers.web.term_map.community_colour`), so both maps agree; layouts are the seeded ones of
:func:`helpers.analysis.cooccurrence.analyse_cooccurrence`.
"""

from __future__ import annotations

import math
import textwrap

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from helpers.analysis.cooccurrence import CooccurrenceResult
from helpers.book.figure_text import figure_size, wrap_to_width
from helpers.book.formatting import count
from helpers.web.term_map import COMMUNITY_COLOURS as WEB_COMMUNITY_COLOURS
from helpers.web.term_map import OTHER_COLOUR as WEB_OTHER_COLOUR
from helpers.web.term_map import community_colour

__all__ = [
    "COMMUNITY_COLOURS",
    "OTHER_COLOUR",
    "MAX_EGO_HUBS",
    "community_colours",
    "place_labels",
    "term_map_figure",
    "ego_figure",
    "ego_hubs",
    "ego_partners",
    "legend_labels",
    "community_theme_figure",
    "term_map_values",
    "density_figure",
]

# One colour per community for the static and the interactive term map (helpers.web.term_map: seaborn's
# colour-blind-safe "colorblind" palette, community 1 first, grey after the tenth and for terms without links).
COMMUNITY_COLOURS, OTHER_COLOUR = WEB_COMMUNITY_COLOURS, WEB_OTHER_COLOUR
LEGEND_COMMUNITIES = 10  # communities named in the static map's legend (the coloured ones), largest first
LEGEND_TERMS = 3  # top terms naming a community in the legend
LEGEND_CHARACTERS = 80  # a longer legend entry is cut (with an ellipsis) so one line fits the text column
# Node areas in points squared, for a map drawn at the text column's width (figure_text.figure_size).
MIN_NODE_AREA, MAX_NODE_AREA = 6.0, 180.0
# All the largest nodes together may cover about this many points squared, so a crowded map stays readable.
NODE_AREA_BUDGET = 5_000.0
# Occurrences above this quantile get the largest node, so a few frequent terms never cover the map.
NODE_AREA_CAP_QUANTILE = 0.9
# Label sizes in points: 7.5 pt is 10.4 CSS px in the column at 1280 px and 7.3 pt in the PDF (every label at the
# smallest size, as on a corpus of terms of like frequency, still gives a median of 10 px or more).
MIN_FONT, MAX_FONT = 7.5, 10.5
#: The static maps label at most this many terms, the most frequent first where they fit; the interactive map
#: labels every term as one zooms in.
MAX_MAP_LABELS = 40
NODE_EDGE = "#4d4d4d"  # a dark ring, so light community colours (yellow, pink) still read on white
MAX_EGO_HUBS = 3
# Partners around each ego network's centre (its labels, with the centre's, stay under about 15).
EGO_PARTNERS = 12
EGO_LABEL_CHARS = 20  # a longer partner label is broken onto two lines
# One ego network per row of the text column: the circle's radius is one unit, the labels take the sides.
EGO_PANEL_HEIGHT, EGO_HALF_WIDTH = 2.45, 3.3  # three panels and a caption fit a printed page
#: How the ego figure's caption names the centre (the drawing's own words: glued, never typed apart).
EGO_CENTRE = "drawn larger, with a black ring, in its community's colour"
MAX_HEATMAP_COMMUNITIES = 15
# Density view: grid cells a side, and the kernel's width as a share of the map's extent.
DENSITY_GRID, DENSITY_BANDWIDTH = 200, 0.05


def community_colours(communities: pd.Series) -> list[str]:
    """Each term's colour, the interactive map's (:func:`helpers.web.term_map.community_colour`).

    ``communities`` holds one community number per term (number 1 is the largest).

    Examples
    --------
    >>> community_colours(pd.Series([1, 10, 11, 2]))
    ['#0173b2', '#56b4e9', '#c8c8c8', '#de8f05']
    """
    return [community_colour(int(c)) for c in communities]


def legend_labels(result: CooccurrenceResult, shown: set[int] | None = None, *, noun: str = "term"
                  ) -> list[tuple[int, str, str]]:
    """``(community, colour, text)`` of each coloured community the legend names, from the one table of
    communities (``result.communities``: the same counts and top terms as the chapter's table).

    ``shown`` limits the legend to communities with a term on the figure (default: every coloured one); ``noun``
    names what the map's nodes are (``"keyword"`` on the keyword map).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"community": [1, 2], "n_terms": [36, 1], "top_terms": ["a, b, c, d", "e"]})
    >>> legend_labels(SimpleNamespace(communities=table))
    [(1, '#0173b2', '1 (36 terms): a, b, c'), (2, '#de8f05', '2 (1 term): e')]
    """
    rows = []
    for row in result.communities.itertuples(index=False):
        colour = community_colour(int(row.community))
        if colour == OTHER_COLOUR or (shown is not None and int(row.community) not in shown):
            continue
        top = ", ".join(str(row.top_terms).split(", ")[:LEGEND_TERMS])
        rows.append((int(row.community), colour, f"{int(row.community)} ({count(int(row.n_terms), noun)}): {top}"))
    return rows[:LEGEND_COMMUNITIES]


def _community_legend(axis, result: CooccurrenceResult, drawn: pd.DataFrame, noun: str = "term") -> None:
    """A legend of the largest coloured communities with a drawn term: number, colour, terms, top terms."""
    from matplotlib.lines import Line2D  # lazy: slow to import

    handles = [Line2D([], [], marker="o", linestyle="", markersize=7, markerfacecolor=colour,
                      markeredgecolor=NODE_EDGE, markeredgewidth=0.5, label=_legend_text(text))
               for _, colour, text in legend_labels(result, set(drawn["community"].astype(int)), noun=noun)]
    if handles:
        # Below the map, outside its axes: the layout makes room for it, so it never covers a node or a label.
        axis.legend(handles=handles, title=f"Largest communities ({noun}s in each, drawn or not; top {noun}s)",
                    loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=1, frameon=False, handletextpad=0.3,
                    columnspacing=1.0, borderaxespad=0.0, fontsize=9, title_fontsize=9)


def _legend_text(text: str, characters: int = LEGEND_CHARACTERS) -> str:
    """A legend entry cut at a word with an ellipsis when longer than ``characters``.

    Examples
    --------
    >>> _legend_text("1 (36 terms): crash severity, driver behaviour, intersection", 34)
    '1 (36 terms): crash severity,…'
    """
    if len(text) <= characters:
        return text
    words = text.split(" ")
    while len(words) > 1 and len(" ".join(words)) + 1 > characters:
        words.pop()
    return " ".join(words) + "…"


def _node_areas(n_papers: pd.Series) -> np.ndarray:
    """Marker areas (points squared) proportional to occurrences, capped, and smaller on a crowded map."""
    cap = max(float(np.quantile(n_papers, NODE_AREA_CAP_QUANTILE)), 1.0) if len(n_papers) else 1.0
    share = np.minimum(n_papers.to_numpy(dtype=float), cap) / cap
    largest = min(MAX_NODE_AREA, NODE_AREA_BUDGET / max(len(n_papers), 1))
    return MIN_NODE_AREA + (max(largest, MIN_NODE_AREA) - MIN_NODE_AREA) * share


#: The most frequent terms of a map whose labels may cover other nodes when no free place is left beside them, so
#: that a crowded region never hides the map's main terms.
SURE_LABELS = 3


def place_labels(boxes: list[tuple[float, float]], anchors: np.ndarray, radii: np.ndarray,
                 bounds: tuple[float, float, float, float], n_sure: int = SURE_LABELS, limit: int | None = None
                 ) -> list[tuple[float, float] | None]:
    """Greedy label placement without overlap, in the order given (most important first).

    Each label (``width, height`` in display units) tries positions right,
    left, above and below its anchor (offset by the node's radius); it takes
    the first that overlaps no placed label and no node other than its own
    and stays inside ``bounds`` (``x0, y0, x1, y1``), or is left out (None).
    The first ``n_sure`` labels, with no such place, take the first place that
    overlaps no placed label, over other nodes if need be. Once ``limit`` labels are placed, the rest are left
    out. Returns the lower-left corner of each placed label.

    Examples
    --------
    The second label cannot go right of its node (the first label is there), so it goes left:

    >>> place_labels([(10, 4), (10, 4)], np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([1.0, 1.0]), (-50, -50, 50, 50))
    [(2.0, -2.0), (-11.0, -2.0)]
    """
    placed: list[tuple[float, float, float, float]] = []
    corners: list[tuple[float, float] | None] = []
    for index, ((width, height), (x, y), radius) in enumerate(zip(boxes, anchors, radii)):
        if limit is not None and len(placed) >= limit:
            corners.append(None)
            continue
        x, y, radius = float(x), float(y), float(radius)
        candidates = [(x + radius + 1, y - height / 2), (x - radius - 1 - width, y - height / 2),
                      (x - width / 2, y + radius + 1), (x - width / 2, y - radius - 1 - height)]
        chosen = None
        for over_nodes in (False, True) if index < n_sure else (False,):
            for left, bottom in candidates:
                box = (left, bottom, left + width, bottom + height)
                if box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3]:
                    continue
                if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed):
                    continue
                # No other node's centre may sit under the label (but under one of the first n_sure at need).
                inside = ((anchors[:, 0] > box[0]) & (anchors[:, 0] < box[2]) & (anchors[:, 1] > box[1])
                          & (anchors[:, 1] < box[3]))
                inside[index] = False
                if inside.any() and not over_nodes:
                    continue
                chosen = (left, bottom)
                placed.append(box)
                break
            if chosen is not None:
                break
        corners.append(chosen)
    return corners


def term_map_figure(result: CooccurrenceResult, *, corpus_label: str, overlay: pd.Series | None = None,
                    overlay_label: str = "", overlay_range: tuple[float, float] | None = None,
                    noun: str = "term") -> tuple[Figure, pd.DataFrame]:
    """The term map: the sets of linked terms (:func:`drawn_terms`), node area by occurrences (capped), colour by community.

    With ``overlay`` (a number per term, indexed by term: VOSviewer's overlay visualisation, such as
    the mean year of a term's papers) the colour shows that number instead (viridis, with a colour bar
    titled ``overlay_label``, from ``overlay_range`` where given, else the values' own range); the data
    gains an ``overlay`` column. ``noun`` names the nodes in the title and legend (``"keyword"`` on the keyword
    map).

    Terms without a drawn link, and small groups linked only among themselves,
    are left out (the terms table lists them); every set of at least
    :data:`MIN_DRAWN_SET` linked terms is drawn (:func:`drawn_terms`). Every term whose label
    fits without overlapping another label or node is labelled, the most
    frequent first (:func:`place_labels`).

    Returns
    -------
    figure, data
        ``data`` has one row per term: ``term, n_papers, community, colour, x, y, drawn, labelled``.
    """
    terms = result.terms
    data = pd.DataFrame({
        "term": terms["term"], "n_papers": terms["n_papers"], "community": terms["community"],
        "colour": community_colours(terms["community"]),
        "x": terms["x"], "y": terms["y"],
        "drawn": terms["term"].isin(drawn_terms(result.graph)), "labelled": False,
    })
    scale = None
    if overlay is not None:
        from matplotlib import colormaps  # lazy: slow to import
        from matplotlib.colors import Normalize, to_hex  # lazy: slow to import

        data["overlay"] = terms["term"].map(overlay).to_numpy(dtype=float)
        known = data["overlay"].dropna()
        low, high = overlay_range or (float(known.min()), float(known.max()))
        scale = Normalize(low, high if high > low else low + 1)
        data["colour"] = [OTHER_COLOUR if pd.isna(v) else to_hex(colormaps["viridis"](scale(v)))
                          for v in data["overlay"]]
    width, height = figure_size("column", 0.8)
    figure, axis = plt.subplots(figsize=(width, height + (0 if overlay is not None else _legend_height(result))),
                                layout="constrained")
    axis.axis("off")
    drawn = data[data["drawn"]].sort_values(["n_papers", "term"], ascending=[False, True])
    n_drawn = int(data["drawn"].sum())
    what = f", colour: {overlay_label}" if overlay is not None else ""
    axis.set_title(wrap_to_width(f"{noun.capitalize()} map: the {n_drawn} connected {noun}s of {len(terms)}{what}, {corpus_label}",
                                 width * 0.85, 10), fontsize=10)
    if drawn.empty:
        axis.text(0.5, 0.5, wrap_to_width(result.message or "No term has a drawn link", width * 0.8, 9),
                  ha="center", va="center", transform=axis.transAxes)
    else:
        position = {row.term: (row.x, row.y) for row in drawn.itertuples()}
        edges = [(u, v, d["weight"]) for u, v, d in result.graph.edges(data=True) if u in position]
        ranks = pd.Series([w for _, _, w in edges], dtype=float).rank(pct=True).to_numpy()
        segments = [(position[u], position[v]) for u, v, _ in edges]
        from matplotlib.collections import LineCollection  # lazy: slow to import

        axis.add_collection(LineCollection(segments, colors="#8c8c8c", linewidths=0.25 + 0.9 * ranks, alpha=0.4,
                                           zorder=1))
        areas = _node_areas(drawn["n_papers"])
        axis.scatter(drawn["x"], drawn["y"], s=areas, c=drawn["colour"], edgecolors=NODE_EDGE, linewidths=0.4,
                     alpha=0.95, zorder=2)
        axis.set_xlim(drawn["x"].min() - 0.04, drawn["x"].max() + 0.04)
        axis.set_ylim(drawn["y"].min() - 0.03, drawn["y"].max() + 0.03)
        if scale is not None:  # before the labels, which are placed in the axes the bar leaves
            from matplotlib.cm import ScalarMappable  # lazy: slow to import

            bar = figure.colorbar(ScalarMappable(norm=scale, cmap="viridis"), ax=axis, shrink=0.6, pad=0.01,
                                  aspect=30)
            bar.set_label(wrap_to_width(overlay_label, height * 0.6, 9), fontsize=9)
            bar.ax.tick_params(labelsize=8)
            from matplotlib.ticker import MaxNLocator  # lazy: slow to import

            bar.ax.yaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))  # whole years (or group numbers)
        else:
            _community_legend(axis, result, drawn, noun)
        data.loc[drawn.index, "labelled"] = _draw_labels(figure, axis, drawn, areas)
    return figure, data.reset_index(drop=True)


def _legend_height(result: CooccurrenceResult) -> float:
    """Inches the term map's legend takes below the map: a title line and one line per community."""
    entries = min(LEGEND_COMMUNITIES, sum(community_colour(int(c)) != OTHER_COLOUR
                                          for c in result.communities["community"]))
    return 0.0 if not entries else 0.35 + 0.19 * entries


def density_figure(result: CooccurrenceResult, *, corpus_label: str) -> tuple[Figure, pd.DataFrame]:
    """The density view of the term map (as VOSviewer's density visualisation): where the map is crowded.

    Each drawn term of :func:`term_map_figure` (same positions) adds a Gaussian
    kernel of width ``DENSITY_BANDWIDTH`` times the map's extent, weighted by its
    occurrences; the colour shows the sum (colour-blind-safe ``cividis``, light
    where many frequent terms sit close). Labels as on the term map, most
    frequent first, never overlapping.

    Returns
    -------
    figure, data
        One row per drawn term: ``term, n_papers, x, y, density, labelled`` (density at the term, 0-1).
    """
    terms = result.terms
    drawn = terms[terms["term"].isin(drawn_terms(result.graph))].sort_values(
        ["n_papers", "term"], ascending=[False, True])
    data = pd.DataFrame({"term": drawn["term"], "n_papers": drawn["n_papers"], "x": drawn["x"], "y": drawn["y"],
                         "density": 0.0, "labelled": False})
    width, height = figure_size("column", 0.8)
    figure, axis = plt.subplots(figsize=(width, height), layout="constrained")
    axis.axis("off")
    axis.set_title(wrap_to_width(f"Density view of the term map: {len(drawn)} connected terms, {corpus_label}",
                                 width * 0.9, 10), fontsize=10)
    if drawn.empty:
        axis.text(0.5, 0.5, wrap_to_width(result.message or "No term has a drawn link", width * 0.8, 9),
                  ha="center", va="center", transform=axis.transAxes)
    else:
        x, y = drawn["x"].to_numpy(float), drawn["y"].to_numpy(float)
        weights = drawn["n_papers"].to_numpy(float)
        left, right, bottom, top = x.min() - 0.06, x.max() + 0.06, y.min() - 0.04, y.max() + 0.04
        width = DENSITY_BANDWIDTH * max(right - left, top - bottom)
        grid_x, grid_y = np.linspace(left, right, DENSITY_GRID), np.linspace(bottom, top, DENSITY_GRID)

        def density(at_x: np.ndarray, at_y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            kernel_x = np.exp(-((at_x[:, None] - x[None, :]) ** 2) / (2 * width ** 2))
            kernel_y = np.exp(-((at_y[:, None] - y[None, :]) ** 2) / (2 * width ** 2))
            return kernel_x, kernel_y

        kernel_x, kernel_y = density(grid_x, grid_y)
        surface = (kernel_y * weights[None, :]) @ kernel_x.T  # rows: y, columns: x
        at_x, at_y = density(x, y)
        at_terms = (at_x * at_y * weights[None, :]).sum(axis=1)
        peak = max(float(surface.max()), float(at_terms.max()), 1e-12)
        axis.imshow(surface / peak, origin="lower", extent=(left, right, bottom, top), cmap="cividis",
                    aspect="auto", interpolation="bilinear", zorder=0, vmin=0, vmax=1)
        data["density"] = np.round(at_terms / peak, 6)
        axis.set_xlim(left, right)
        axis.set_ylim(bottom, top)
        data["labelled"] = _draw_labels(figure, axis, drawn, np.full(len(drawn), MIN_NODE_AREA), colour="white",
                                       box="#1f1f1f")
    return figure, data.reset_index(drop=True)


#: A set of terms linked only among themselves is drawn on the static maps when it holds at least this many terms.
MIN_DRAWN_SET = 5


def drawn_terms(graph: nx.Graph) -> set[str]:
    """The terms the static maps draw: every set of terms linked among themselves (a connected component of the
    drawn pairs) of at least :data:`MIN_DRAWN_SET` terms, else the largest set; never a term without a link.

    The terms are placed by every pair, drawn or not, so sets apart from the largest stand where they belong; a
    map of the largest set alone can leave out whole sub-fields (on a traffic-safety export, hazardous materials).

    Examples
    --------
    >>> graph = nx.Graph([("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("f", "g"), ("f", "h")])
    >>> sorted(drawn_terms(graph)), sorted(drawn_terms(nx.Graph([("a", "b"), ("b", "c"), ("d", "e")])))
    (['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c'])
    """
    linked: list[set[str]] = [set(c) for c in nx.connected_components(graph) if len(c) > 1]
    if not linked:
        return set()
    large = [c for c in linked if len(c) >= MIN_DRAWN_SET]
    if large:
        return set().union(*large)
    return max(linked, key=lambda c: (len(c), sorted(c)[0]))


def _draw_labels(figure: Figure, axis, drawn: pd.DataFrame, areas: np.ndarray, colour: str = "#1a1a1a",
                 box: str | None = None, limit: int = MAX_MAP_LABELS) -> np.ndarray:
    """Label the drawn terms greedily (most frequent first, at most ``limit``), each inside the axes and over no
    other label; returns which got a label. ``box``: the colour of a box behind each label (on a dark ground).

    The figure's layout is done first and then frozen, so the places computed are the places drawn."""
    figure.canvas.draw()  # the constrained layout settles the axes' place; the labels then keep it
    figure.set_layout_engine("none")
    # The stubs type the canvas as FigureCanvasBase; the Agg canvases pyplot makes here have get_renderer.
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    counts = drawn["n_papers"].to_numpy(dtype=float)
    spread = (counts - counts.min()) / max(counts.max() - counts.min(), 1.0)
    sizes = MIN_FONT + (MAX_FONT - MIN_FONT) * np.sqrt(spread)
    pad = 2.0 * figure.dpi / 72 if box is not None else 0.0  # the box's margin, in display units
    texts = [axis.text(0, 0, term, fontsize=size, alpha=0) for term, size in zip(drawn["term"], sizes)]
    boxes = [(t.get_window_extent(renderer).width + 2 * pad, t.get_window_extent(renderer).height + 2 * pad)
             for t in texts]
    for t in texts:
        t.remove()
    anchors = axis.transData.transform(drawn[["x", "y"]].to_numpy())
    radii = np.sqrt(areas / math.pi) * figure.dpi / 72
    window = axis.get_window_extent(renderer)
    corners = place_labels(boxes, anchors, radii, (window.x0, window.y0, window.x1, window.y1), limit=limit)
    inverse = axis.transData.inverted()
    for corner, term, size in zip(corners, drawn["term"], sizes):
        if corner is not None:
            x, y = inverse.transform((corner[0] + pad, corner[1] + pad))
            style = {} if box is None else {"bbox": {"boxstyle": "square,pad=0.15", "facecolor": box, "alpha": 0.7,
                                                     "edgecolor": "none"}}
            axis.text(x, y, term, fontsize=size, ha="left", va="bottom", zorder=3, color=colour, **style)
    return np.array([c is not None for c in corners], dtype=bool)


def ego_hubs(result: CooccurrenceResult, n: int = MAX_EGO_HUBS) -> list[str]:
    """The term that names each of the ``n`` largest communities of more than one term (the first of its top
    terms in the table of communities): one ego network per region of the map.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"community": [1, 2, 3], "n_terms": [3, 2, 1], "top_terms": ["a, b, c", "d, e", "f"]})
    >>> ego_hubs(SimpleNamespace(communities=table))
    ['a', 'd']
    """
    table = result.communities
    several = table[table["n_terms"] > 1]
    return [str(top).split(", ")[0] for top in several["top_terms"].head(n)]


def ego_partners(result: CooccurrenceResult, hub: str, n: int = EGO_PARTNERS) -> pd.DataFrame:
    """The ``n`` strongest partners of ``hub``: pairs sharing at least the map's ``min_pair_papers`` abstracts,
    highest association strength first (ties: more abstracts, then the name).

    Returns ``neighbour, n_papers, association_strength, community``.
    """
    pairs = result.pairs
    minimum = int(result.settings.min_pair_papers)
    mine = pairs[((pairs["source"] == hub) | (pairs["target"] == hub)) & (pairs["n_papers"] >= minimum)]
    partners = pd.DataFrame({"neighbour": np.where(mine["source"] == hub, mine["target"], mine["source"]),
                             "n_papers": mine["n_papers"].to_numpy(),
                             "association_strength": mine["association_strength"].to_numpy()})
    partners = partners.sort_values(["association_strength", "n_papers", "neighbour"],
                                    ascending=[False, False, True], kind="mergesort").head(n)
    community = dict(zip(result.terms["term"], result.terms["community"]))
    return partners.assign(community=partners["neighbour"].map(community).astype("int64")).reset_index(drop=True)


def _ego_label(term: str, lines: int = 2) -> str:
    r"""A label broken onto at most ``lines`` lines when long, so labels around the circle stay apart.

    Examples
    --------
    >>> _ego_label("contrastive language-image pre-training", lines=3)
    'contrastive\nlanguage-image pre-\ntraining'
    """
    wrapped = textwrap.wrap(term, EGO_LABEL_CHARS)
    return "\n".join(wrapped[:lines - 1] + [" ".join(wrapped[lines - 1:])] if len(wrapped) > lines else wrapped)


def ego_figure(result: CooccurrenceResult, *, corpus_label: str) -> tuple[Figure, pd.DataFrame]:
    """Ego networks of the terms naming the :data:`MAX_EGO_HUBS` largest communities (:func:`ego_hubs`).

    One panel per term, one above the other across the text column. Each panel puts the term at the centre, drawn larger with a black ring in its community's colour, and its
    :data:`EGO_PARTNERS` strongest partners (:func:`ego_partners`) on a circle around it, strongest first
    clockwise from the top, each in its community's colour; a line's width grows with the association
    strength. Labels sit outside the circle, so at most ``EGO_PARTNERS + 1`` labels per panel never overlap.

    Returns
    -------
    figure, data
        ``hub, neighbour, n_papers, association_strength, community``: one row per partner drawn.
    """
    hubs = ego_hubs(result)
    width, _ = figure_size("column")
    panels = max(len(hubs), 1)
    figure, axes = plt.subplots(panels, 1, figsize=(width, EGO_PANEL_HEIGHT * panels + 0.45), squeeze=False,
                                layout="constrained")
    community = dict(zip(result.terms["term"], result.terms["community"]))
    rows = []
    shown: list[str | None] = list(hubs) or [None]
    for axis, hub in zip(axes[:, 0], shown):
        axis.axis("off")
        axis.set_xlim(-EGO_HALF_WIDTH, EGO_HALF_WIDTH)
        axis.set_ylim(-1.58, 1.58)  # room for a two-line label above and below the circle
        axis.set_aspect("equal")
        if hub is None:
            axis.text(0, 0, "No community of more than one term", ha="center", va="center")
            continue
        partners = ego_partners(result, hub)
        if partners.empty:
            axis.set_title(wrap_to_width(f"{hub}: no partner in {result.settings.min_pair_papers} abstracts",
                                         width, 9.5), fontsize=9.5)
            continue
        angles = np.pi / 2 - 2 * np.pi * np.arange(len(partners)) / max(len(partners), 1)
        strength = partners["association_strength"].to_numpy(dtype=float)
        widths = 0.6 + 2.4 * (strength - strength.min()) / max(strength.max() - strength.min(), 1e-12)
        for angle, line_width in zip(angles, widths):
            axis.plot([0, np.cos(angle)], [0, np.sin(angle)], color="#8c8c8c", linewidth=line_width, zorder=1)
        axis.scatter(np.cos(angles), np.sin(angles), s=70, c=community_colours(partners["community"]),
                     edgecolors=NODE_EDGE, linewidths=0.5, zorder=2)
        axis.scatter([0], [0], s=320, c=community_colours(pd.Series([community[hub]])), edgecolors="black",
                     linewidths=2.0, zorder=3)
        for angle, term in zip(angles, partners["neighbour"]):
            x, y = np.cos(angle), np.sin(angle)
            align = "center" if abs(x) < 0.2 else ("left" if x > 0 else "right")
            height = "bottom" if y > 0.9 else ("top" if y < -0.9 else "center")
            axis.text(1.12 * x, 1.12 * y, _ego_label(term), ha=align, va=height, fontsize=8.5, zorder=4)
        axis.text(0, -0.2, _ego_label(hub, lines=3), ha="center", va="top", fontsize=9, fontweight="bold", zorder=4,
                  bbox=dict(boxstyle="round,pad=0.2", facecolor="white", edgecolor="none", alpha=0.85))
        axis.set_title(wrap_to_width(f"{hub}: {count(len(partners), 'strongest partner')}", width, 9.5),
                       fontsize=9.5)
        rows += [{"hub": hub, **row} for row in partners.to_dict("records")]
    figure.suptitle(wrap_to_width(f"Ego networks of the terms naming the largest communities, {corpus_label}",
                                  width, 10.5), fontsize=10.5)
    return figure, pd.DataFrame(rows, columns=["hub", "neighbour", "n_papers", "association_strength", "community"])


def community_theme_figure(result: CooccurrenceResult, paper_themes: pd.Series, theme_labels: dict[int, str], *,
                           corpus_label: str) -> tuple[Figure, pd.DataFrame]:
    """Abstracts of each theme that use at least one term of each community (multi-term communities only).

    Parameters
    ----------
    paper_themes : Series
        Theme number (or missing) of each paper, indexed by ``paper_id``.
    theme_labels : dict
        Theme number -> label, in column order.

    The figure draws themes as rows and communities as columns (each named by its number and top terms).

    Returns
    -------
    figure, data
        ``community`` then one column per theme, at most :data:`MAX_HEATMAP_COMMUNITIES` rows.
    """
    import seaborn as sns  # lazy: slow to import

    terms = result.terms
    width, _ = figure_size("column")
    shown = result.communities[result.communities["n_terms"] > 1]["community"].tolist()[:MAX_HEATMAP_COMMUNITIES]
    title = wrap_to_width(f"Term communities by theme, {corpus_label}", width, 10)
    if not theme_labels or not shown:
        figure, axis = plt.subplots(figsize=(width, 2.0), layout="constrained")
        axis.text(0.5, 0.5, "No themes or no multi-term communities for this corpus", ha="center")
        axis.axis("off")
        axis.set_title(title, fontsize=10)
        return figure, pd.DataFrame(columns=["community"])
    membership = np.zeros((len(terms), len(shown)), dtype=np.int64)
    for column, community in enumerate(shown):
        membership[(terms["community"] == community).to_numpy(), column] = 1
    uses = (result.paper_terms @ membership) > 0
    paper_theme = paper_themes.reindex(result.paper_ids).to_numpy()
    table = pd.DataFrame({
        f"{theme}. {label}": [int((uses[:, c] & (paper_theme == theme)).sum()) for c in range(len(shown))]
        for theme, label in theme_labels.items()
    }, index=[f"C{c}: {', '.join(terms[terms['community'] == c]['term'].head(2))}" for c in shown])
    # Themes as rows (a long list grows down the page), communities as columns (at most 15).
    drawn = table.T
    drawn.index = [wrap_to_width(name, 2.3, 8, max_lines=1) for name in drawn.index]
    drawn.columns = [wrap_to_width(name, 2.0, 8, max_lines=1) for name in drawn.columns]
    figure, axis = plt.subplots(figsize=(width, 2.1 + 0.24 * len(drawn)), layout="constrained")
    sns.heatmap(drawn, annot=True, fmt="d", cmap="Greens", ax=axis, annot_kws={"fontsize": 7.5},
                cbar_kws={"label": "abstracts", "shrink": 0.6})
    axis.tick_params(labelsize=8, length=0)
    axis.set_xticklabels(axis.get_xticklabels(), rotation=45, ha="right", rotation_mode="anchor")
    axis.set(xlabel="Term community (number: top terms)", ylabel="Theme")
    figure.suptitle(title, fontsize=10)  # over the figure, whose width it is wrapped to
    return figure, table.rename_axis("community").reset_index()


def term_map_values(data: pd.DataFrame) -> dict[str, int]:
    """How many terms the map draws and labels (glue values), from :func:`term_map_figure`'s data, the size
    from which a set of linked terms is drawn (:data:`MIN_DRAWN_SET`) and the most labels it gives
    (:data:`MAX_MAP_LABELS`).

    Examples
    --------
    >>> term_map_values(pd.DataFrame({"drawn": [True, True, False], "labelled": [True, False, False]}))
    {'co_n_drawn': 2, 'co_n_labelled': 1, 'co_min_drawn_set': 5, 'co_max_labels': 40}
    """
    return {"co_n_drawn": int(data["drawn"].sum()), "co_n_labelled": int(data["labelled"].sum()),
            "co_min_drawn_set": MIN_DRAWN_SET, "co_max_labels": MAX_MAP_LABELS}
