"""Labels on the static term maps: placed greedily, most frequent term first, never over another label.

The term map and its density view (:mod:`helpers.book.reports.network_figures`) and the keyword map label their
terms the same way, so the placement lives apart from any one drawing.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

__all__ = ["MAX_MAP_LABELS", "place_labels", "draw_labels"]

# Label sizes in points: 7.5 pt is 10.4 CSS px in the column at 1280 px and 7.3 pt in the PDF (every label at the
# smallest size, as on a corpus of terms of like frequency, still gives a median of 10 px or more).
MIN_FONT, MAX_FONT = 7.5, 10.5
#: The static maps label at most this many terms, the most frequent first where they fit; the interactive map
#: labels every term as one zooms in.
MAX_MAP_LABELS = 40


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

    Parameters
    ----------
    boxes : list of tuple
        Each label's ``(width, height)``, in display units.
    anchors : ndarray
        Each label's node centre, ``(n, 2)`` in display units.
    radii : ndarray
        Each node's radius, in display units.
    bounds : tuple of float
        ``x0, y0, x1, y1``: where labels may go.
    n_sure : int, optional
        Labels that may cover other nodes when nothing else is free.
    limit : int, optional
        The most labels placed.

    Returns
    -------
    list
        Each label's lower-left corner, or None where it is left out.

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


def draw_labels(figure: Figure, axis, drawn: pd.DataFrame, areas: np.ndarray, colour: str = "#1a1a1a",
                 box: str | None = None, limit: int = MAX_MAP_LABELS) -> np.ndarray:
    """Label the drawn terms greedily (most frequent first, at most ``limit``), each inside the axes and over no
    other label; returns which got a label. ``box``: the colour of a box behind each label (on a dark ground).

    The figure's layout is done first and then frozen, so the places computed are the places drawn.

    Parameters
    ----------
    figure : Figure
        The map's figure (its layout settles first).
    axis : Axes
        The map's axes.
    drawn : DataFrame
        The terms to label, most important first: ``term, n_papers, x, y``.
    areas : ndarray
        Each term's node area, points squared.
    colour : str, optional
        The labels' colour.
    box : str, optional
        The colour of a box behind each label.
    limit : int, optional
        The most labels drawn.

    Returns
    -------
    ndarray of bool
        Which terms got a label.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> figure, axis = plt.subplots(figsize=(4, 3))
    >>> drawn = pd.DataFrame({"term": ["egg", "hen"], "n_papers": [5, 2], "x": [0.0, 1.0], "y": [0.0, 1.0]})
    >>> _ = axis.set(xlim=(-1, 2), ylim=(-1, 2))
    >>> draw_labels(figure, axis, drawn, np.array([20.0, 10.0])).tolist()
    [True, True]
    """
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
