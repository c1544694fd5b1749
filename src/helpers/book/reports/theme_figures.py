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
from helpers.book.array_cache import cached_array
from helpers.book.formatting import count
from helpers.book.reports import drawing
from helpers.book.reports.themes import MAP_SAMPLE, N_BAR_TERMS, theme_names

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["theme_palette", "no_themes_figure", "selection_figure", "shown_themes", "grid_title",
           "top_terms_figure", "cloud_image", "wordcloud_figure", "paper_map", "paper_map_figure", "by_source_figure"]



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
        The themes (None: the corpus has none).
    corpus_label : str
        The corpus's short name, for the title.
    message : str, optional
        Why there are no themes, when ``model`` is None.

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
        The themes (None: the corpus has none).
    corpus_label : str
        The corpus's short name, for the title.
    message : str, optional
        Why there are no themes, when ``model`` is None.

    Returns
    -------
    figure : Figure
    data : DataFrame
        Every theme's top terms: ``theme, rank, term, weight, label``.

    Examples
    --------
    >>> figure, data = top_terms_figure(None, "Poultry Science 2020: 3 abstracts", "themes need at least 4 abstracts")
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
        The themes (None: the corpus has none).
    corpus_label : str
        The corpus's short name, for the title.
    message : str, optional
        Why there are no themes, when ``model`` is None.

    Returns
    -------
    figure : Figure
    data : DataFrame
        Every theme's top terms (``model.top_terms``).

    Examples
    --------
    >>> figure, data = wordcloud_figure(None, "Poultry Science 2020: 3 abstracts", "themes need at least 4 abstracts")
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


def paper_map(model: ThemeModel, papers: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """2-D t-SNE coordinates of the papers' theme weights (seeded; a seeded sample of :data:`MAP_SAMPLE`
    papers when there are more). Columns ``paper_id, x, y, theme, theme_weight, theme_label``.

    Parameters
    ----------
    model : ThemeModel
        The themes (``weights``: one row per paper, ``paper_id`` then one column per theme).
    papers : DataFrame
        ``paper_id, theme, theme_weight``.
    seed : int, optional
        The t-SNE seed and the sample's.

    Returns
    -------
    DataFrame

    Examples
    --------
    With fewer than five papers the map is two theme weights, not t-SNE:

    >>> from types import SimpleNamespace
    >>> weights = pd.DataFrame({"paper_id": ["a", "b"], "w1": [0.9, 0.2], "w2": [0.1, 0.8]})
    >>> model = SimpleNamespace(weights=weights, themes=pd.DataFrame({"theme": [1, 2], "label": ["hens", "eggs"]}))
    >>> papers = pd.DataFrame({"paper_id": ["a", "b"], "theme": [1, 2], "theme_weight": [0.9, 0.8]})
    >>> paper_map(model, papers)[["paper_id", "x", "y", "theme"]].values.tolist()
    [['a', 0.9, 0.1, 1], ['b', 0.2, 0.8, 2]]
    """
    import sklearn  # lazy: slow to import
    from sklearn.manifold import TSNE  # lazy: slow to import

    weights = model.weights
    if len(weights) > MAP_SAMPLE:
        rows = np.sort(np.random.default_rng(seed).choice(len(weights), size=MAP_SAMPLE, replace=False))
        weights = weights.iloc[rows]
    matrix = weights.drop(columns="paper_id").to_numpy()
    if len(matrix) >= 5:
        perplexity = float(min(30, (len(matrix) - 1) / 3))
        # Seconds on a conference: kept beside the analysis, so a page re-run on the same corpus reuses it.
        coordinates = cached_array("tsne", [matrix, perplexity, seed, 750, sklearn.__version__], lambda: TSNE(
            n_components=2, perplexity=perplexity, init="pca", random_state=seed, max_iter=750).fit_transform(matrix))
    else:
        coordinates = np.column_stack([matrix[:, 0], matrix[:, -1]])
    names = theme_names(model)
    data = weights[["paper_id"]].assign(x=np.round(coordinates[:, 0], 4), y=np.round(coordinates[:, 1], 4))
    data = data.merge(papers[["paper_id", "theme", "theme_weight"]], on="paper_id")
    data["theme_label"] = data["theme"].map(lambda t: names.get(int(t), "none") if pd.notna(t) else "none")
    return data.reset_index(drop=True)


def paper_map_figure(model: ThemeModel | None, papers: pd.DataFrame, corpus_label: str, seed: int = 0,
                     message: str = "") -> tuple["Figure", pd.DataFrame]:
    """Papers on a t-SNE map of their theme weights, coloured by strongest theme, labelled at each theme's centre.

    Parameters
    ----------
    model : ThemeModel or None
        The themes (None: the corpus has none).
    papers : DataFrame
        The papers (``paper_id, theme, theme_weight``).
    corpus_label : str
        The corpus's short name, for the title.
    seed : int, optional
        The t-SNE seed.
    message : str, optional
        Why there are no themes, when ``model`` is None.

    Returns
    -------
    figure : Figure
    data : DataFrame
        The map's points (:func:`paper_map`).

    Examples
    --------
    >>> figure, data = paper_map_figure(None, pd.DataFrame(), "Poultry Science 2020: 3 abstracts", message="too few abstracts")
    >>> data.empty
    True
    """
    if model is None:
        return no_themes_figure(message, corpus_label)
    data = paper_map(model, papers, seed)
    palette = theme_palette(len(model.themes))
    names = theme_names(model)
    # The key goes under the plot, in columns across the column's width, so the plot keeps the whole width.
    key_columns = 1 if len(names) <= 4 else 2 if len(names) <= 10 else 3
    key_rows = -(-(len(names) + 1) // key_columns)
    figure, axis = drawing.column_subplots(4.6 + 0.19 * key_rows)
    sizes = 8 + 40 * data["theme_weight"].clip(0, 1)
    for index, (theme, name) in enumerate(names.items()):
        members = data[data["theme"] == theme]
        axis.scatter(members["x"], members["y"], s=sizes[members.index], color=palette[index], alpha=0.75,
                     linewidths=0, label=drawing.shorten(name, 88 // key_columns - 1))
    unassigned = data[data["theme"].isna()]
    if len(unassigned):
        axis.scatter(unassigned["x"], unassigned["y"], s=8, color="lightgrey", label="no theme")
    for theme, centre in data.dropna(subset=["theme"]).groupby("theme")[["x", "y"]].median().iterrows():
        # Just above the centre, so a small theme's few points stay visible under its number.
        axis.annotate(str(int(theme)), (centre["x"], centre["y"]), xytext=(0, 6), textcoords="offset points",
                      fontsize=drawing.TITLE_PT, weight="bold", ha="center", va="bottom", annotation_clip=True,
                      bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.75, linewidth=0))
    axis.set(xticks=[], yticks=[], xlabel="t-SNE 1", ylabel="t-SNE 2")
    figure.legend(loc="outside lower center", ncols=key_columns, fontsize=drawing.SMALL_PT if key_columns == 3 else
                  drawing.TEXT_PT, markerscale=1.5, frameon=False, handletextpad=0.2, columnspacing=0.8)
    drawing.set_title(figure, f"Papers by theme weights (t-SNE), {corpus_label}")
    return figure, data


def by_source_figure(model: ThemeModel | None, papers: pd.DataFrame, corpus_label: str,
                     message: str = "") -> tuple["Figure", pd.DataFrame]:
    """Heatmap of themes (rows) by source file (columns) as shares of each file's papers with a theme, so a
    large file does not swamp the others; the data (``theme, source_file, papers, share``) holds the counts.

    Parameters
    ----------
    model : ThemeModel or None
        The themes (None: the corpus has none).
    papers : DataFrame
        The papers (``paper_id, theme, theme_weight``, ``source_file``).
    corpus_label : str
        The corpus's short name, for the title.
    message : str, optional
        Why there are no themes, when ``model`` is None.

    Returns
    -------
    figure : Figure
    data : DataFrame
        ``theme, source_file, papers, share``.

    Examples
    --------
    >>> figure, data = by_source_figure(None, pd.DataFrame(), "Poultry Science 2020: 3 abstracts", message="too few abstracts")
    >>> data.empty
    True
    """
    import textwrap

    import seaborn as sns  # lazy: slow to import

    if model is None:
        return no_themes_figure(message, corpus_label)
    names = theme_names(model)
    counts = (papers.dropna(subset=["theme"]).groupby(["theme", "source_file"]).size()
              .unstack(fill_value=0).reindex(list(names), fill_value=0))
    shares = counts / counts.sum(axis=0).replace(0, 1)
    shown = shares.copy()
    shown.index = [drawing.shorten(names[int(t)], 36) for t in shown.index]
    n_files = max(shown.shape[1], 1)
    # A file's name on up to two lines of its column's width at 8 pt (the whole names are in the CSV): the
    # heatmap gets about 3.4 inches of the column beside the theme names and the colour bar.
    characters = max(6, int(3.4 * 72 / 5.6 / n_files))  # 5.6 pt a character: digits are wider than the average
    shown.columns = ["\n".join(textwrap.wrap(drawing.shorten(str(name), 2 * characters), characters)[:2])
                     + f"\n({count(int(total), 'paper')})" for name, total in zip(counts.columns, counts.sum(axis=0))]
    figure, axis = drawing.column_subplots(1.4 + 0.24 * len(shown), width=min(drawing.COLUMN_INCHES, 4.2 + 0.9 * n_files))
    from matplotlib.ticker import PercentFormatter  # lazy: slow to import

    sns.heatmap(shown, annot=n_files <= 8, fmt=".0%", cmap="Blues", vmin=0, annot_kws={"fontsize": drawing.SMALL_PT},
                cbar_kws={"label": "share of the file", "format": PercentFormatter(1.0)}, ax=axis)
    axis.set(xlabel="Source file", ylabel="Theme")
    drawing.set_title(figure, f"Themes by source file, {corpus_label}")
    drawing.finish(figure, tick_pt=drawing.SMALL_PT if len(shown) > 20 else drawing.TEXT_PT)
    axis.tick_params(axis="x", labelrotation=0, labelsize=drawing.SMALL_PT)
    data = (counts.stack().rename("papers").to_frame()
            .join(shares.stack().rename("share")).reset_index().rename(columns={"level_1": "source_file"}))
    data["share"] = data["share"].round(6)
    return figure, data[["theme", "source_file", "papers", "share"]]
