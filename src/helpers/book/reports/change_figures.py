"""The figures of the "What changed" chapter: theme shares per group, the thematic maps, the term map
coloured by first group, and the link shares per group.

Each function returns ``(figure, the data it draws)``; :mod:`helpers.book.reports.change` re-exports them
beside the chapter's tables and sentences.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from helpers.book.reports import drawing
from helpers.book.build.title import figure_label

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from helpers.analysis.change import ChangeResult
    from helpers.analysis.pipeline import Analysis

MAX_PANELS = drawing.MAX_PANELS  # the themes that changed most; the table and the CSV hold every theme


TICK_GAP = 0.15  # share of a name's height kept free between two neighbouring names (room for tight_layout)


def _labels_overlap(axis) -> bool:
    """Whether two neighbouring tick names of ``axis`` touch (with :data:`TICK_GAP` to spare)."""
    renderer = axis.figure.canvas.get_renderer()
    boxes = [label.get_window_extent(renderer) for label in axis.get_xticklabels() if label.get_text()]
    pad = TICK_GAP * max((box.height for box in boxes), default=0.0)
    return any(a.expanded(1, 1).padded(pad).overlaps(b) for a, b in zip(boxes, boxes[1:]))


def _group_ticks(axis, positions: np.ndarray, groups: list[str], *, fontsize: float) -> None:
    """Group names under the ticks: level when short and few, else turned 45 degrees and ending at their tick,
    else upright, else fewer names evenly spaced from the first to the last, so that names such as ``2010–2012`` never run into each
    other in a small panel (every tick stays; the figure's CSV names every group)."""
    level = len(groups) <= 3 and max((len(g) for g in groups), default=0) <= 9
    if level:
        axis.set_xticks(positions, groups, fontsize=fontsize)
        return
    for n_named in range(len(groups), 0, -1):  # the first and the last always named, the others evenly between
        named = set(np.round(np.linspace(0, len(groups) - 1, n_named)).astype(int).tolist())
        names = [g if i in named else "" for i, g in enumerate(groups)]
        for rotation in (45, 90):
            axis.set_xticks(positions, names, fontsize=fontsize, rotation=rotation, ha="right" if rotation == 45
                            else "center", rotation_mode="anchor" if rotation == 45 else "default")
            if not _labels_overlap(axis):
                return


PANEL_TITLE_WIDTH = 24  # characters of a panel's title on one line (9 pt, a third of the column)
PREVALENCE_COLUMNS = 3  # panels per row: at column width a title of 9 pt fits


def prevalence_figure(change: "ChangeResult", corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """Small multiples: each theme's share per group with its Wilson 95% interval (largest changes first)."""
    order = change.theme_change.reindex(change.theme_change["change"].abs().sort_values(
        ascending=False, kind="mergesort").index)["theme"].tolist()
    shown = order[:MAX_PANELS]
    data = change.theme_prevalence[change.theme_prevalence["theme"].isin(order)]
    n_columns = min(PREVALENCE_COLUMNS, max(len(shown), 1))
    n_rows = max(1, -(-len(shown) // n_columns))
    figure, axes = drawing.column_subplots(1.8 * n_rows + 0.5, n_rows, n_columns, sharey=True, squeeze=False)
    positions = np.arange(len(change.groups))
    drawing.hide_unused(list(axes.ravel()), len(shown))
    for axis, theme in zip(axes.ravel(), shown):
        rows = data[data["theme"] == theme].set_index("group").reindex(list(change.groups))
        axis.fill_between(positions, 100 * rows["ci_low"], 100 * rows["ci_high"], color="tab:blue", alpha=0.2,
                          linewidth=0)
        axis.plot(positions, 100 * rows["share"], marker="o", markersize=4, color="tab:blue")
        # a long label takes two lines rather than running into the next panel's title
        title = textwrap.wrap(f"{theme}. {rows['label'].iloc[0]}", PANEL_TITLE_WIDTH)
        axis.set_title("\n".join(title[:1] + [drawing.shorten(" ".join(title[1:]), PANEL_TITLE_WIDTH)]
                                 if len(title) > 1 else title), fontsize=drawing.PANEL_TITLE_PT)
        _group_ticks(axis, positions, list(change.groups), fontsize=drawing.SMALL_PT)
        axis.tick_params(axis="y", labelsize=drawing.SMALL_PT)
    for axis in axes[:, 0]:
        axis.set_ylabel("% of papers", fontsize=drawing.TEXT_PT)
    which = (f"the {len(shown)} of {len(order)} themes that changed most (all in the table and the CSV)"
             if len(shown) < len(order) else "the themes that changed most first")
    drawing.set_title(figure, f"Share of each group's papers whose strongest theme it is, with Wilson 95% "
                              f"intervals; {which}, {corpus_label}")
    return figure, data.reset_index(drop=True)


MAP_NUMBER_SIZE = 9  # theme numbers on the thematic map, in points (the figure is drawn at column width)
PANEL_INCHES = 2.75  # a panel's height (two panels a row)
KEY_COLUMNS = 3
KEY_CHARACTERS = 26  # of a label in a third of the column at 8 pt, beside its number
KEY_LINE_INCHES = 0.16  # a key line of 8 pt
LABEL_MARGIN = 0.04  # a theme number's centre stays this far (axes fraction) inside the axes
# Each quadrant's name at a corner, outside the axes: the lower two under the axis name (offsets in points).
_QUADRANTS = [((0.0, 1.0), 3, "left", "bottom", "\u2196 niche"), ((1.0, 1.0), 3, "right", "bottom", "motor \u2197"),
              ((0.0, 0.0), -32, "left", "top", "\u2199 emerging or declining"),
              ((1.0, 0.0), -32, "right", "top", "basic \u2198")]


def _label_offsets(x: np.ndarray, y: np.ndarray, *, gap: float = 0.06, scale: float = 240.0,
                   steps: int = 60) -> list[tuple[float, float]]:
    """Offsets in points that push labels (at axes fractions ``x, y``) at least ``gap`` apart, a few
    deterministic relaxation steps; ``scale`` is the axes' size in points.

    Examples
    --------
    >>> [tuple(round(v) for v in o) for o in _label_offsets(np.array([0.5, 0.51, 1.0]), np.array([0.5, 0.5, 1.0]))]
    [(-6, 0), (6, 0), (0, 0)]
    """
    start = np.column_stack([x, y]).astype(float)
    points = start.copy()
    for _ in range(steps):
        moved = False
        for i in range(len(points)):
            for j in range(i + 1, len(points)):
                delta = points[j] - points[i]
                distance = float(np.hypot(*delta))
                if distance >= gap:
                    continue
                direction = delta / distance if distance > 0 else np.array([1.0, 0.0])
                push = (gap - distance) / 2 * direction
                points[i] -= push
                points[j] += push
                moved = True
        if not moved:
            break
    return [(float(dx * scale) + 0.0, float(dy * scale) + 0.0) for dx, dy in points - start]


#: The most groups the thematic map draws (the first, the last and evenly spaced between; its CSV has all).
MAX_MAP_PANELS = 4  # two rows of two: with its key the figure fits a printed page


def panel_groups(groups: list[str], most: int = MAX_MAP_PANELS) -> list[str]:
    """At most ``most`` of ``groups``: the first, the last and evenly spaced ones between, in order.

    Examples
    --------
    >>> panel_groups([str(y) for y in range(1990, 2024)], 4), panel_groups(["a", "b"], 6)
    (['1990', '2001', '2012', '2023'], ['a', 'b'])
    """
    if len(groups) <= most:
        return list(groups)
    positions = sorted({round(i * (len(groups) - 1) / (most - 1)) for i in range(most)})
    return [groups[p] for p in positions]


def _label_positions(x: np.ndarray, y: np.ndarray) -> list[tuple[float, float]]:
    """Where the theme numbers go, in axes fractions: pushed apart (:func:`_label_offsets`), then kept inside.

    Examples
    --------
    >>> _label_positions(np.array([1.0, 0.5]), np.array([0.5, 0.5]))
    [(0.96, 0.5), (0.5, 0.5)]
    """
    offsets = _label_offsets(x, y, scale=1.0)
    return [(float(np.clip(a + dx, LABEL_MARGIN, 1 - LABEL_MARGIN)), float(np.clip(b + dy, LABEL_MARGIN, 1 - LABEL_MARGIN)))
            for a, b, (dx, dy) in zip(x, y, offsets)]


def thematic_map_figure(change: "ChangeResult", corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """One panel per group (at most :data:`MAX_MAP_PANELS`, :func:`panel_groups`) on shared axes: each theme's
    centrality (x) against density (y), median lines, quadrant names outside the axes, and a key from theme
    number to label in the last cell. The data returned holds every group."""
    data = change.thematic_map
    groups = panel_groups(list(change.groups))
    themes = data.drop_duplicates("theme").sort_values("theme", kind="mergesort")
    key_lines = [f"{theme}  {drawing.shorten(str(label), KEY_CHARACTERS)}"
                 for theme, label in zip(themes["theme"], themes["label"])]
    n_columns = min(2, len(groups))
    n_rows = -(-len(groups) // n_columns)
    key_rows = -(-len(key_lines) // KEY_COLUMNS)
    key_height = 0.3 + key_rows * KEY_LINE_INCHES if key_lines else 0.0
    figure = drawing.column_figure(PANEL_INCHES * n_rows + key_height + 0.5)
    grid = figure.add_gridspec(n_rows + 1, n_columns, height_ratios=[PANEL_INCHES] * n_rows + [max(key_height, 0.01)])
    panels: list[Axes] = []
    for index, group in enumerate(groups):
        axis = figure.add_subplot(grid[index // n_columns, index % n_columns],
                                  sharex=panels[0] if panels else None, sharey=panels[0] if panels else None)
        axis.set_label("group")
        panels.append(axis)
    # The key: a row of its own under the panels, its lines in columns, each theme's number and label.
    key_axis = figure.add_subplot(grid[n_rows, :])
    key_axis.set_label("key")
    key_axis.axis("off")
    if not data.empty:
        pad_x = 0.08 * float(data["centrality"].max() - data["centrality"].min() or 1.0)
        pad_y = 0.08 * float(data["density"].max() - data["density"].min() or 1.0)
        x_range = (float(data["centrality"].min()) - pad_x, float(data["centrality"].max()) + pad_x)
        y_range = (float(data["density"].min()) - pad_y, float(data["density"].max()) + pad_y)
    for axis, group in zip(panels, groups):
        rows = data[data["group"] == group]
        axis.set_title(f"{group}", fontsize=drawing.TITLE_PT, pad=14)
        if rows.empty:
            axis.text(0.5, 0.5, "no theme has map terms", ha="center", va="center", transform=axis.transAxes)
            continue
        sizes = 30 + 300 * rows["n_papers"] / max(float(data["n_papers"].max()), 1.0)
        axis.scatter(rows["centrality"], rows["density"], s=sizes, alpha=0.45, color="tab:blue", edgecolors="white")
        x = (rows["centrality"].to_numpy() - x_range[0]) / (x_range[1] - x_range[0])
        y = (rows["density"].to_numpy() - y_range[0]) / (y_range[1] - y_range[0])
        for row, (x_at, y_at) in zip(rows.itertuples(), _label_positions(x, y)):
            # placed in axes fractions, kept inside the axes whatever the push between neighbours
            axis.text(x_at, y_at, f"{row.theme}", transform=axis.transAxes, fontsize=MAP_NUMBER_SIZE,
                      fontweight="bold", ha="center", va="center")
        axis.axvline(rows["centrality"].median(), color="grey", linewidth=0.8, linestyle="--")
        axis.axhline(rows["density"].median(), color="grey", linewidth=0.8, linestyle="--")
        for corner, below, ha, va, name in _QUADRANTS:
            axis.annotate(name, corner, xycoords="axes fraction", xytext=(0, below), textcoords="offset points",
                          ha=ha, va=va, fontsize=drawing.SMALL_PT, color="dimgrey")
        axis.set_xlabel("centrality (Callon)", fontsize=drawing.TEXT_PT, labelpad=2)
        axis.set_ylabel("density (Callon)", fontsize=drawing.TEXT_PT)
        axis.tick_params(labelsize=drawing.SMALL_PT)
    if not data.empty:
        panels[0].set(xlim=x_range, ylim=y_range)
        for number, text in enumerate(key_lines):
            column, row_at = divmod(number, key_rows)
            key_axis.text(column / KEY_COLUMNS, 1.0 - row_at / key_rows, text,
                          transform=key_axis.transAxes, ha="left", va="top", fontsize=drawing.SMALL_PT)
        key_axis.set_title("Themes (marker area: papers)", fontsize=drawing.TEXT_PT, loc="left")
    drawing.set_title(figure, f"Thematic map per group, shared axes (numbers are themes), {corpus_label}")
    return figure, data.reset_index(drop=True)


def overlay_figure(analysis: "Analysis") -> tuple["Figure", pd.DataFrame]:
    """The term map coloured by the mean year of each term's papers (or its mean group position)."""
    from helpers.book.reports.network_figures import term_map_figure  # lazy: at the top it would load scipy and networkx

    change = analysis.change
    assert change is not None, "the overlay is drawn only when the papers fall in groups"
    terms = change.terms
    by_year = terms["balanced_year"].notna().any()
    values = terms.set_index("term")["balanced_year" if by_year else "mean_position"]
    return term_map_figure(analysis.cooccurrence, corpus_label=figure_label(analysis), overlay=values,
                           overlay_range=overlay_range(analysis),
                           overlay_label="mean year of the term's use, groups weighed alike" if by_year else
                           "mean group of the term's papers (1 = first)")


def overlay_range(analysis: "Analysis") -> tuple[float, float]:
    """The overlay's colour scale: the first to the last year of the compared papers (else group 1 to the last).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> papers = pd.DataFrame({"group": ["2023", "2024", "2025", "(none)"], "year": [2023, 2024, 2025, None]})
    >>> terms = pd.DataFrame({"balanced_year": [2024.2]})
    >>> overlay_range(SimpleNamespace(papers=papers, change=SimpleNamespace(groups=("2023", "2024", "2025"),
    ...                                                                     terms=terms)))
    (2023.0, 2025.0)
    """
    change = analysis.change
    assert change is not None, "the overlay is drawn only when the papers fall in groups"
    papers = analysis.papers
    if change.terms["balanced_year"].notna().any() and "year" in papers:
        years = pd.to_numeric(papers.loc[papers["group"].astype(str).isin(change.groups), "year"], errors="coerce")
        if years.notna().any():
            return float(years.min()), float(years.max())
    return 1.0, float(len(change.groups))


def links_figure(change: "ChangeResult", corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """Share of linked papers per group with Wilson intervals (and, where known, the metadata's code links)."""
    links = change.links
    figure, axis = drawing.column_subplots(3.4)
    positions = np.arange(len(links))
    axis.errorbar(positions, 100 * links["share"], yerr=[100 * (links["share"] - links["ci_low"]),
                                                         100 * (links["ci_high"] - links["share"])],
                  fmt="o", capsize=4, color="tab:blue", label="abstract links code, data or a project page")
    data = links.assign(series="abstract linked")
    if len(change.software):
        software = change.software.set_index("group").reindex(links["group"])
        axis.plot(positions, 100 * software["software_share"].to_numpy(dtype=float), "s", color="tab:orange",
                  label="code link given to the venue (software field)")
        data = pd.concat([data, change.software.assign(series="software field")], ignore_index=True)
    _group_ticks(axis, positions, links["group"].tolist(), fontsize=drawing.TEXT_PT)
    axis.tick_params(axis="y", labelsize=drawing.TEXT_PT)
    axis.set(ylabel="% of papers", ylim=(0, None))
    axis.legend(fontsize=drawing.SMALL_PT, loc="best")
    drawing.set_title(figure, f"Code and data links per group, {corpus_label}")
    return figure, data
