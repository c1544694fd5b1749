"""The themes chapter's figures: top terms, word clouds, the papers' map, themes by source file and the model
selection, each returned as ``(figure, data)``.

They are drawn at the text column's width (:mod:`helpers.book.reports.drawing`) and share one palette of theme
colours; a corpus without a theme model gets a figure that says why. The chapter's values and tables are in
:mod:`helpers.book.reports.themes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from helpers.analysis.themes import N_DIVERSITY_TERMS, ThemeModel
from helpers.book.reports import drawing
from helpers.book.reports.themes import N_BAR_TERMS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["theme_palette", "no_themes_figure", "selection_figure", "shown_themes", "grid_title",
           "top_terms_figure", "cloud_image", "wordcloud_figure"]


MEASURES = ("coherence", "diversity", "stability")


def theme_palette(n_themes: int) -> list[tuple[float, float, float]]:
    """Distinct colours for ``n_themes`` themes: seaborn's colour-blind palette up to 10,
    then evenly spaced hues at two alternating lightness levels (distinct up to 30 and beyond).

    Parameters
    ----------
    n_themes : int
        How many colours.

    Returns
    -------
    list of tuple
        RGB colours, theme 1 first.

    Examples
    --------
    >>> len(theme_palette(30)), len(set(theme_palette(30)))
    (30, 30)
    >>> theme_palette(3) == theme_palette(10)[:3]
    True
    """
    import seaborn as sns  # lazy: slow to import

    if n_themes <= 10:
        return [tuple(c) for c in sns.color_palette("colorblind", 10)[:max(n_themes, 0)]]
    hues = sns.husl_palette(n_themes, l=0.55, s=0.9)
    light = sns.husl_palette(n_themes, l=0.75, s=0.9)
    # Neighbouring themes get far-apart hues: step through the hue circle by about a third.
    step = max(1, round(n_themes / 3)) | 1
    while np.gcd(step, n_themes) != 1:
        step += 2
    order = [(i * step) % n_themes for i in range(n_themes)]
    return [tuple(hues[o]) if i % 2 == 0 else tuple(light[o]) for i, o in enumerate(order)]


def no_themes_figure(message: str, corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """A small figure that says why there are no themes, with an empty data table.

    Parameters
    ----------
    message : str
        Why there are no themes.
    corpus_label : str
        The corpus's short name.

    Returns
    -------
    figure : Figure
    data : DataFrame
        Empty.

    Examples
    --------
    >>> no_themes_figure("themes need at least 4 abstracts", "Traffic safety: 3 abstracts")[1].empty
    True
    """
    figure, axis = drawing.column_subplots(1.2)
    axis.axis("off")
    axis.text(0.5, 0.5, f"No themes for this corpus ({corpus_label}): {message}", ha="center", va="center",
              wrap=True)
    return figure, pd.DataFrame()


def selection_figure(model: ThemeModel | None, corpus_label: str, message: str = "") -> tuple["Figure", pd.DataFrame]:
    """Coherence, diversity and stability per candidate k; the chosen k circled, thresholds dashed, each k with a
    theme under the size floor hollow.

    Parameters
    ----------
    model : ThemeModel or None
        The themes, whose ``selection`` table is drawn (None: the corpus has none).
    corpus_label : str
        The corpus's short name, before the chosen k in the title.
    message : str, optional
        Why there are no themes: the figure says it when ``model`` is None.

    Returns
    -------
    figure : Figure
    data : DataFrame
        The selection table: one row per candidate k.

    Examples
    --------
    >>> figure, data = selection_figure(None, "Poultry Science 2020: 3 abstracts", "themes need at least 4 abstracts")
    >>> data.empty
    True
    """
    if model is None:
        return no_themes_figure(message, corpus_label)
    selection, settings = model.selection, model.settings
    figure, axes = drawing.column_subplots(2.6, 1, len(MEASURES), sharex=True)
    for axis, measure in zip(axes, MEASURES):
        axis.plot(selection["k"], selection[measure], marker="o", color="tab:blue")
        chosen = selection[selection["chosen"]]
        axis.scatter(chosen["k"], chosen[measure], s=120, facecolors="none", edgecolors="red", zorder=5)
        if "readable" in selection:  # a k with a theme under the size floor is never chosen while another is not
            under = selection[~selection["readable"].astype(bool)]
            axis.scatter(under["k"], under[measure], s=36, marker="o", facecolors="white", edgecolors="tab:blue",
                         linewidths=1.5, zorder=4, label="under the size floor")
        if measure in ("diversity", "stability"):
            axis.axhline(getattr(settings, f"min_{measure}"), color="grey", linestyle="--", linewidth=1)
        axis.set(title=measure.capitalize(), xlabel="Number of themes k", ylabel="")
    drawing.set_title(figure, f"Model selection, {corpus_label}; chosen k={settings.chosen_k} (red circle)")
    return drawing.finish(figure), selection


GRID_COLUMNS = 3  # panels per row of the column


#: Word clouds use the dark half of viridis: no yellow or pale word on white, and ordered in lightness, so the
#: colours read the same to colour-blind readers.
CLOUD_COLOURS = 0.45


CLOUD_PIXELS_PER_INCH = 100  # the cloud is laid out at the page's resolution and drawn at twice that


CLOUD_MIN_PT = 8.5


PANEL_TITLE_CHARACTERS = 24  # of a panel title's line in a third of the column  # the smallest word, in points at column width


def shown_themes(model: ThemeModel, most: int = drawing.MAX_PANELS) -> pd.DataFrame:
    """The themes a grid shows: the ``most`` largest (most papers, then lowest number), in theme order.

    Parameters
    ----------
    model : ThemeModel
        The themes (its ``themes`` table).
    most : int, optional
        The most themes shown.

    Returns
    -------
    DataFrame
        Rows of ``model.themes``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> model = SimpleNamespace(themes=pd.DataFrame({"theme": [1, 2, 3], "n_papers": [5, 9, 7]}))
    >>> shown_themes(model, 2)["theme"].tolist()
    [2, 3]
    """
    largest = model.themes.sort_values(["n_papers", "theme"], ascending=[False, True], kind="mergesort").head(most)
    return largest.sort_values("theme", kind="mergesort")


def grid_title(what: str, model: ThemeModel, corpus_label: str) -> str:
    """A grid's title, saying how many themes it shows when it cannot show them all.

    Parameters
    ----------
    what : str
        What each panel shows.
    model : ThemeModel
        The themes.
    corpus_label : str
        The corpus's short name.

    Returns
    -------
    str

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> model = SimpleNamespace(themes=pd.DataFrame({"theme": range(1, 31), "n_papers": range(30)}))
    >>> grid_title("Top terms", model, "Poultry, 2020: 90 abstracts")
    'Top terms of the 12 largest of the 30 themes (all in the table and the CSV), Poultry, 2020: 90 abstracts'
    """
    n_themes = len(model.themes)
    if n_themes <= drawing.MAX_PANELS:
        return f"{what} per theme, {corpus_label}, k={n_themes}"
    return (f"{what} of the {drawing.MAX_PANELS} largest of the {n_themes} themes (all in the table and the CSV), "
            f"{corpus_label}")


def _grid(n_panels: int, panel_height: float):
    columns = min(GRID_COLUMNS, max(n_panels, 1))
    rows = -(-max(n_panels, 1) // columns)
    figure, axes = drawing.column_subplots(panel_height * rows + 0.5, rows, columns, squeeze=False)
    drawing.hide_unused(list(axes.flat), n_panels)
    return figure, list(axes.flat[:n_panels])


def _panel_title(theme: int, label: str) -> str:
    """``"3. label"`` on at most two lines of a third of the column."""
    import textwrap

    lines = textwrap.wrap(f"{theme}. {label}", PANEL_TITLE_CHARACTERS)
    return "\n".join(lines[:1] + [drawing.shorten(" ".join(lines[1:]), PANEL_TITLE_CHARACTERS)]
                     if len(lines) > 1 else lines)


def top_terms_figure(model: ThemeModel | None, corpus_label: str, message: str = "") -> tuple["Figure", pd.DataFrame]:
    """A bar chart per theme of its :data:`N_BAR_TERMS` strongest terms (NMF weight), each term written on its bar;
    the :data:`drawing.MAX_PANELS` largest themes (the data returned holds every theme).

    Parameters
    ----------
    model : ThemeModel or None
        The themes, each with its top terms' weights (None: no themes).
    corpus_label : str
        The corpus's short name, ending the grid's title.
    message : str, optional
        The figure's text when there is no model.

    Returns
    -------
    figure : Figure
    data : DataFrame
        Every theme's top terms: ``theme, rank, term, weight, label``.

    Examples
    --------
    >>> figure, data = top_terms_figure(None, "Traffic safety 2019: 2 abstracts", "themes need at least 4 abstracts")
    >>> data.empty
    True
    """
    if model is None:
        return no_themes_figure(message, corpus_label)
    palette = theme_palette(len(model.themes))
    data = model.top_terms[model.top_terms["rank"] <= N_BAR_TERMS].merge(model.themes[["theme", "label"]], on="theme")
    shown = shown_themes(model)
    figure, axes = _grid(len(shown), 0.18 * N_BAR_TERMS + 0.45)  # four rows fit a printed page with the caption
    positions = {int(t): i for i, t in enumerate(model.themes["theme"])}
    for axis, theme in zip(axes, shown.itertuples()):
        bars = data[data["theme"] == theme.theme].sort_values("rank")
        rows = np.arange(len(bars))
        axis.barh(rows, bars["weight"], color=palette[positions[int(theme.theme)]], alpha=0.45, height=0.8)
        for row, term in zip(rows, bars["term"]):  # on the bar: the whole panel's width is the term's
            axis.text(0.02, row, drawing.shorten(str(term), 28), transform=axis.get_yaxis_transform(),
                      va="center", ha="left", fontsize=drawing.TEXT_PT, clip_on=True)
        axis.set_ylim(len(bars) - 0.5, -0.5)
        axis.set(xticks=[], yticks=[], title=_panel_title(int(theme.theme), str(theme.label)))
        for side in ("top", "right"):
            axis.spines[side].set_visible(False)
    drawing.set_title(figure, grid_title("Top terms (bar: NMF weight)", model, corpus_label))
    return drawing.finish(figure), data


def cloud_image(frequencies: dict[str, float], width_inches: float, height_inches: float):
    """A word cloud laid out for a panel of this size at the page's resolution, drawn at twice that; its smallest
    word :data:`CLOUD_MIN_PT` (words that do not fit at that size are left out), coloured dark (fixed seed).

    Parameters
    ----------
    frequencies : dict
        Term -> weight.
    width_inches, height_inches : float
        The panel's size.

    Returns
    -------
    WordCloud
        The laid-out cloud (an image for ``imshow``).

    Examples
    --------
    >>> cloud_image({"laying hen": 0.5, "egg quality": 0.3, "barn": 0.2}, 2.0, 1.15).to_array().shape
    (230, 400, 3)
    """
    from matplotlib import colormaps  # lazy: slow to import
    from matplotlib.colors import ListedColormap  # lazy: slow to import
    from wordcloud import WordCloud  # lazy: slow to import

    dark = ListedColormap(colormaps["viridis"](np.linspace(0.0, CLOUD_COLOURS, 64)))
    width = round(width_inches * CLOUD_PIXELS_PER_INCH)
    height = round(height_inches * CLOUD_PIXELS_PER_INCH)
    return WordCloud(width=width, height=height, scale=2, background_color="white", colormap=dark, random_state=0,
                     prefer_horizontal=0.9, relative_scaling=0.3, min_font_size=round(CLOUD_MIN_PT / 72 * CLOUD_PIXELS_PER_INCH) + 1,
                     max_font_size=round(height * 0.45), margin=2).generate_from_frequencies(frequencies)


def wordcloud_figure(model: ThemeModel | None, corpus_label: str, message: str = "") -> tuple["Figure", pd.DataFrame]:
    """A word cloud per theme of its :data:`N_DIVERSITY_TERMS` top terms, sized by weight (fixed layout seed); the
    :data:`drawing.MAX_PANELS` largest themes (the data returned holds every theme).

    Parameters
    ----------
    model : ThemeModel or None
        The themes; each one's top terms make its cloud (None: no themes).
    corpus_label : str
        The corpus's short name, closing the title.
    message : str, optional
        What the figure says without a model.

    Returns
    -------
    figure : Figure
    data : DataFrame
        Every theme's top terms (``model.top_terms``).

    Examples
    --------
    >>> figure, data = wordcloud_figure(None, "Catalysis 2022: 1 abstract", "no abstract left after cleaning")
    >>> data.empty
    True
    """
    if model is None:
        return no_themes_figure(message, corpus_label)
    shown = shown_themes(model)
    panel_width = drawing.COLUMN_INCHES / GRID_COLUMNS - 0.1
    figure, axes = _grid(len(shown), 1.55)
    for axis, theme in zip(axes, shown.itertuples()):
        axis.axis("off")
        terms = model.top_terms[model.top_terms["theme"] == theme.theme]
        cloud = cloud_image(dict(zip(terms["term"], terms["weight"])), panel_width, 1.15)
        axis.imshow(cloud, interpolation="none")
        axis.set_title(_panel_title(int(theme.theme), str(theme.label)))
    drawing.set_title(figure, grid_title(f"Word clouds of the top {N_DIVERSITY_TERMS} terms", model, corpus_label))
    return drawing.finish(figure), model.top_terms


