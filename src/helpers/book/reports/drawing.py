"""How the report figures are drawn for the space the page gives them: the text column.

A figure is drawn at the width it is shown (:data:`COLUMN_INCHES`, the text column at the page's 100 dpi), never
wider and squeezed, so its text keeps the size it is drawn at: :data:`TEXT_PT` for labels, never under
:data:`SMALL_PT` (11 CSS px on screen, and still 6 pt or more in a PDF whose text column is 5 inches). Titles
are the figure's ``suptitle`` under constrained layout, which keeps them clear of every panel; a grid shows at
most :data:`MAX_PANELS` panels.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from helpers.book.figure_text import figure_size
from helpers.book.figures import SAVE_PAD_INCHES

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: The text column's width in inches at the page's 100 dpi (672 CSS px in a 1280 px window): the book's one
#: sizing rule, :func:`helpers.book.figure_text.figure_size`.
SHOWN_INCHES = figure_size("column")[0]
#: A figure's width: the saved file adds :data:`helpers.book.figures.SAVE_PAD_INCHES` of margin each side
#: (``bbox_inches="tight"``), so it is shown at its own size, never squeezed.
COLUMN_INCHES = round(SHOWN_INCHES - 2 * SAVE_PAD_INCHES, 2)
TEXT_PT = 9.0  # tick labels, axis labels, legends
SMALL_PT = 8.0  # the smallest text of any figure (notes, dense keys)
TITLE_PT = 10.0  # the figure's title
PANEL_TITLE_PT = 9.0
#: The most panels a grid shows; the others are in the figure's CSV and the page's table.
MAX_PANELS = 12
TITLE_CHARACTERS = 82  # of TITLE_PT text on one line of the column
__all__ = ["SHOWN_INCHES", "COLUMN_INCHES", "TEXT_PT", "SMALL_PT", "TITLE_PT", "PANEL_TITLE_PT", "MAX_PANELS",
           "TITLE_CHARACTERS", "column_subplots", "column_figure", "set_title", "finish", "shorten", "hide_unused"]

_RC: dict[Any, Any] = {"font.size": TEXT_PT, "axes.titlesize": PANEL_TITLE_PT, "axes.labelsize": TEXT_PT,
       "xtick.labelsize": TEXT_PT, "ytick.labelsize": TEXT_PT, "legend.fontsize": TEXT_PT,
       "legend.title_fontsize": TEXT_PT, "figure.titlesize": TITLE_PT}


def column_subplots(height: float, n_rows: int = 1, n_columns: int = 1, *, width: float = COLUMN_INCHES,
                    **options: Any) -> tuple["Figure", Any]:
    """``plt.subplots`` at column width with constrained layout and the column's font sizes.

    Parameters
    ----------
    height : float
        Inches.
    n_rows, n_columns : int, optional
        The grid of axes.
    width : float, optional
        Inches (default: the text column's).
    **options
        Passed to ``plt.subplots`` (``sharex``, ``squeeze``, ``height_ratios``, ...).

    Returns
    -------
    figure : Figure
    axes : Axes or array of Axes

    Examples
    --------
    >>> figure, axes = column_subplots(2.0, 1, 2)
    >>> figure.get_size_inches().tolist(), axes.shape, figure.get_layout_engine().__class__.__name__
    ([6.64, 2.0], (2,), 'ConstrainedLayoutEngine')
    """
    import matplotlib.pyplot as plt  # lazy: slow to import

    with plt.rc_context(_RC):
        return plt.subplots(n_rows, n_columns, figsize=(width, height), layout="constrained", **options)


def column_figure(height: float, *, width: float = COLUMN_INCHES) -> "Figure":
    """An empty figure at column width with constrained layout (for a ``GridSpec`` of its own).

    Parameters
    ----------
    height : float
        Inches.
    width : float, optional
        Inches (default: the text column's).

    Returns
    -------
    Figure

    Examples
    --------
    >>> column_figure(3.0).get_size_inches().tolist()
    [6.64, 3.0]
    """
    import matplotlib.pyplot as plt  # lazy: slow to import

    with plt.rc_context(_RC):
        return plt.figure(figsize=(width, height), layout="constrained")


def set_title(figure: "Figure", text: str) -> None:
    """The figure's title, wrapped to the column, kept clear of the panels by constrained layout.

    Parameters
    ----------
    figure : Figure
        The figure to title.
    text : str
        The title, wrapped at :data:`TITLE_CHARACTERS`.

    Returns
    -------
    None

    Examples
    --------
    >>> figure, _ = column_subplots(2.0)
    >>> set_title(figure, "word " * 30)
    >>> figure.get_suptitle().count("\\n"), figure._suptitle.get_fontsize()
    (1, 10.0)
    """
    figure.suptitle("\n".join(textwrap.wrap(text, TITLE_CHARACTERS)), fontsize=TITLE_PT)


def finish(figure: "Figure", *, tick_pt: float = TEXT_PT) -> "Figure":
    """Every axes' tick labels at ``tick_pt`` (ticks drawn later would otherwise take matplotlib's default).

    Parameters
    ----------
    figure : Figure
        A drawn figure.
    tick_pt : float, optional
        The tick labels' size, points.

    Returns
    -------
    Figure
        The same figure.

    Examples
    --------
    >>> figure, axis = column_subplots(2.0)
    >>> finish(figure, tick_pt=8.0).axes[0].xaxis.get_ticklabels()[0].get_fontsize()
    8.0
    """
    for axis in figure.axes:
        axis.tick_params(labelsize=tick_pt)
    return figure


def shorten(text: str, characters: int) -> str:
    """``text`` cut to ``characters`` with an ellipsis, for a label in a narrow place.

    Parameters
    ----------
    text : str
        The label.
    characters : int
        Its longest length, the ellipsis included.

    Returns
    -------
    str

    Examples
    --------
    >>> shorten("traffic crash severity", 12), shorten("crash", 12)
    ('traffic cra…', 'crash')
    """
    return text if len(text) <= characters else text[:characters - 1].rstrip() + "\u2026"


def hide_unused(axes: list["Axes"], n_used: int) -> None:
    """Turn off the grid cells after the first ``n_used``.

    Parameters
    ----------
    axes : list of Axes
        A grid's axes, in order.
    n_used : int
        How many of them hold a panel.

    Returns
    -------
    None

    Examples
    --------
    >>> figure, axes = column_subplots(2.0, 1, 3)
    >>> hide_unused(list(axes), 2)
    >>> [axis.axison for axis in axes]
    [True, True, False]
    """
    for axis in axes[n_used:]:
        axis.axis("off")
