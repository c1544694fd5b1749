"""The term map as a static figure: every linked term placed, sized by occurrences, coloured by community.

The term map and its density view (as VOSviewer draws them) each return ``(figure, data)``: a matplotlib figure
and the DataFrame behind it, for :func:`helpers.book.figures.save_figure`. Community colours are the interactive
term map's (seaborn's colour-blind-safe "colorblind" palette, :func:`helpers.web.term_map.community_colour`), so
both maps agree; positions are the seeded layout of :func:`helpers.analysis.cooccurrence.analyse_cooccurrence`.
The communities one by one are in :mod:`helpers.book.reports.community_figures`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from helpers.analysis.cooccurrence import CooccurrenceResult
from helpers.book.figure_text import figure_size, wrap_to_width
from helpers.book.formatting import count
from helpers.book.reports.map_labels import MAX_MAP_LABELS, draw_labels
from helpers.web.term_map import COMMUNITY_COLOURS as WEB_COMMUNITY_COLOURS
from helpers.web.term_map import OTHER_COLOUR as WEB_OTHER_COLOUR
from helpers.web.term_map import community_colour

__all__ = ["COMMUNITY_COLOURS", "OTHER_COLOUR", "MIN_DRAWN_SET", "community_colours", "legend_labels", "drawn_terms",
           "term_map_figure", "density_figure", "term_map_values"]

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
NODE_EDGE = "#4d4d4d"  # a dark ring, so light community colours (yellow, pink) still read on white
# Density view: grid cells a side, and the kernel's width as a share of the map's extent.
DENSITY_GRID, DENSITY_BANDWIDTH = 200, 0.05


def community_colours(communities: pd.Series) -> list[str]:
    """Each term's colour, the interactive map's (:func:`helpers.web.term_map.community_colour`).

    ``communities`` holds one community number per term (number 1 is the largest).

    Parameters
    ----------
    communities : Series
        One community number per term (number 1 is the largest).

    Returns
    -------
    list of str
        One hex colour per term.

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

    Parameters
    ----------
    result : CooccurrenceResult
        The term map (its ``communities`` table).
    shown : set of int, optional
        The communities with a term on the figure.
    noun : str, optional
        What the map's nodes are.

    Returns
    -------
    list of tuple
        ``(community, colour, text)``, at most :data:`LEGEND_COMMUNITIES`, largest first.

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
    frequent first (:func:`helpers.book.reports.map_labels.place_labels`).

    Parameters
    ----------
    result : CooccurrenceResult
        The term map (or the keyword map).
    corpus_label : str
        The corpus's short name, for the title.
    overlay : Series, optional
        A number per term, indexed by term.
    overlay_label : str, optional
        What the overlay's colour shows.
    overlay_range : tuple of float, optional
        The colour bar's range.
    noun : str, optional
        What the nodes are.

    Returns
    -------
    figure, data
        ``data`` has one row per term: ``term, n_papers, community, colour, x, y, drawn, labelled``.

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> raw = pd.Series({"p1": "Egg quality of laying hens.", "p2": "Laying hens and egg quality in barns.",
    ...                  "p3": "Barns for laying hens."})
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(min_occurrences=2))
    >>> _, data = term_map_figure(result, corpus_label="x")
    >>> data[["term", "drawn", "labelled"]].values.tolist()
    [['egg quality', True, True], ['hen', True, True]]
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
    drawn = data[data["drawn"]].sort_values(["n_papers", "term"], ascending=[False, True])
    n_drawn = int(data["drawn"].sum())
    what = f", colour: {overlay_label}" if overlay is not None else ""
    figure, axis = _map_axes(result, (width, height + (0 if overlay is not None else _legend_height(result))),
                             f"{noun.capitalize()} map: the {n_drawn} connected {noun}s of {len(terms)}{what}, "
                             f"{corpus_label}", 0.85, empty=drawn.empty)
    if not drawn.empty:
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
        data.loc[drawn.index, "labelled"] = draw_labels(figure, axis, drawn, areas)
    return figure, data.reset_index(drop=True)


def _map_axes(result: CooccurrenceResult, size: tuple[float, float], title: str, title_share: float, *,
              empty: bool):
    """A map's figure and bare axes, titled (wrapped to ``title_share`` of the width); an empty map says why."""
    width = size[0]
    figure, axis = plt.subplots(figsize=size, layout="constrained")
    axis.axis("off")
    axis.set_title(wrap_to_width(title, width * title_share, 10), fontsize=10)
    if empty:
        axis.text(0.5, 0.5, wrap_to_width(result.message or "No term has a drawn link", width * 0.8, 9),
                  ha="center", va="center", transform=axis.transAxes)
    return figure, axis


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

    Parameters
    ----------
    result : CooccurrenceResult
        The term map: its terms' places and occurrences.
    corpus_label : str
        The corpus's short name, for the title.

    Returns
    -------
    figure, data
        One row per drawn term: ``term, n_papers, x, y, density, labelled`` (density at the term, 0-1).

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> raw = pd.Series({"p1": "Egg quality of laying hens."})
    >>> density_figure(analyse_cooccurrence(raw, raw.map(analysis_text)), corpus_label="x")[1].empty
    True
    """
    terms = result.terms
    drawn = terms[terms["term"].isin(drawn_terms(result.graph))].sort_values(
        ["n_papers", "term"], ascending=[False, True])
    data = pd.DataFrame({"term": drawn["term"], "n_papers": drawn["n_papers"], "x": drawn["x"], "y": drawn["y"],
                         "density": 0.0, "labelled": False})
    figure, axis = _map_axes(result, figure_size("column", 0.8),
                             f"Density view of the term map: {len(drawn)} connected terms, {corpus_label}", 0.9,
                             empty=drawn.empty)
    if not drawn.empty:
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
        data["labelled"] = draw_labels(figure, axis, drawn, np.full(len(drawn), MIN_NODE_AREA), colour="white",
                                       box="#1f1f1f")
    return figure, data.reset_index(drop=True)


#: A set of terms linked only among themselves is drawn on the static maps when it holds at least this many terms.
MIN_DRAWN_SET = 5


def drawn_terms(graph: nx.Graph) -> set[str]:
    """The terms the static maps draw: every set of terms linked among themselves (a connected component of the
    drawn pairs) of at least :data:`MIN_DRAWN_SET` terms, else the largest set; never a term without a link.

    The terms are placed by every pair, drawn or not, so sets apart from the largest stand where they belong; a
    map of the largest set alone can leave out whole sub-fields (on a traffic-safety export, hazardous materials).

    Parameters
    ----------
    graph : networkx.Graph
        The drawn pairs (``result.graph``).

    Returns
    -------
    set of str

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



def term_map_values(data: pd.DataFrame) -> dict[str, int]:
    """How many terms the map draws and labels (glue values), from :func:`term_map_figure`'s data, the size
    from which a set of linked terms is drawn (:data:`MIN_DRAWN_SET`) and the most labels it gives
    (:data:`MAX_MAP_LABELS`).

    Parameters
    ----------
    data : DataFrame
        The term map's data (columns ``drawn``, ``labelled``).

    Returns
    -------
    dict
        ``co_n_drawn, co_n_labelled, co_min_drawn_set, co_max_labels``.

    Examples
    --------
    >>> term_map_values(pd.DataFrame({"drawn": [True, True, False], "labelled": [True, False, False]}))
    {'co_n_drawn': 2, 'co_n_labelled': 1, 'co_min_drawn_set': 5, 'co_max_labels': 40}
    """
    return {"co_n_drawn": int(data["drawn"].sum()), "co_n_labelled": int(data["labelled"].sum()),
            "co_min_drawn_set": MIN_DRAWN_SET, "co_max_labels": MAX_MAP_LABELS}
