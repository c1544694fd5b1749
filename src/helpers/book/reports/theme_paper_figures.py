"""The themes chapter's figures of the papers: each paper placed by its theme weights (t-SNE), and the themes'
shares of each source file.

They colour themes as the chapter's other figures do (:func:`helpers.book.reports.theme_figures.theme_palette`),
and a corpus without a theme model gets the figure that says why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from helpers.analysis.themes import ThemeModel
from helpers.book.array_cache import cached_array
from helpers.book.formatting import count
from helpers.book.reports import drawing
from helpers.book.reports.theme_figures import no_themes_figure, theme_palette
from helpers.book.reports.themes import MAP_SAMPLE, theme_names

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["paper_map", "paper_map_figure", "by_source_figure"]


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
        The themes, whose paper weights are mapped (None: the corpus has none).
    papers : DataFrame
        The papers (``paper_id, theme, theme_weight``).
    corpus_label : str
        The corpus's short name, ending the map's title.
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
    >>> paper_map_figure(None, pd.DataFrame(), "Poultry Science 2020: 3 abstracts", message="too few abstracts")[1].empty
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
        The themes, each a row of the heatmap (None: the corpus has none).
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
    >>> figure, data = by_source_figure(None, pd.DataFrame(), "Soil science 2021: 2 abstracts", message="too few abstracts")
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
