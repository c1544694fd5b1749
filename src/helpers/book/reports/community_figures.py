"""The term communities seen one by one: ego networks of the terms naming them, and their abstracts by theme.

The term map (:mod:`helpers.book.reports.network_figures`) shows every community at once; these figures show
each large community's strongest ties and which themes use it. Colours are the map's.
"""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from helpers.analysis.cooccurrence import CooccurrenceResult
from helpers.book.figure_text import figure_size, wrap_to_width
from helpers.book.formatting import count
from helpers.book.reports.network_figures import NODE_EDGE, community_colours

__all__ = ["MAX_EGO_HUBS", "EGO_PARTNERS", "EGO_CENTRE", "ego_hubs", "ego_partners", "ego_figure",
           "community_theme_figure"]

MAX_EGO_HUBS = 3
# Partners around each ego network's centre (its labels, with the centre's, stay under about 15).
EGO_PARTNERS = 12
EGO_LABEL_CHARS = 20  # a longer partner label is broken onto two lines
# One ego network per row of the text column: the circle's radius is one unit, the labels take the sides.
EGO_PANEL_HEIGHT, EGO_HALF_WIDTH = 2.45, 3.3  # three panels and a caption fit a printed page
#: How the ego figure's caption names the centre (the drawing's own words: glued, never typed apart).
EGO_CENTRE = "drawn larger, with a black ring, in its community's colour"
MAX_HEATMAP_COMMUNITIES = 15


def ego_hubs(result: CooccurrenceResult, n: int = MAX_EGO_HUBS) -> list[str]:
    """The term that names each of the ``n`` largest communities of more than one term (the first of its top
    terms in the table of communities): one ego network per region of the map.

    Parameters
    ----------
    result : CooccurrenceResult
        The term map (its ``communities`` table).
    n : int, optional
        The most hubs.

    Returns
    -------
    list of str

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

    Parameters
    ----------
    result : CooccurrenceResult
        The term map.
    hub : str
        The centre term.
    n : int, optional
        The most partners.

    Returns
    -------
    DataFrame
        ``neighbour, n_papers, association_strength, community``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> pairs = pd.DataFrame({"source": ["hen", "hen", "egg"], "target": ["egg", "barn", "barn"], "n_papers": [3, 2, 1],
    ...                       "association_strength": [0.5, 0.9, 0.2]})
    >>> terms = pd.DataFrame({"term": ["hen", "egg", "barn"], "community": [1, 1, 2]})
    >>> result = SimpleNamespace(pairs=pairs, terms=terms, settings=SimpleNamespace(min_pair_papers=2))
    >>> ego_partners(result, "hen").values.tolist()
    [['barn', 2, 0.9, 2], ['egg', 3, 0.5, 1]]
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

    Parameters
    ----------
    result : CooccurrenceResult
        The term map: its communities' top terms and its pairs.
    corpus_label : str
        The corpus's short name, ending the figure's title.

    Returns
    -------
    figure, data
        ``hub, neighbour, n_papers, association_strength, community``: one row per partner drawn.

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> raw = pd.Series({"p1": "Egg quality of laying hens."})
    >>> ego_figure(analyse_cooccurrence(raw, raw.map(analysis_text)), corpus_label="x")[1].empty
    True
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

    The figure draws themes as rows and communities as columns (each named by its number and top terms).

    Parameters
    ----------
    result : CooccurrenceResult
        The term map: which papers use which terms, and each term's community.
    paper_themes : Series
        Theme number (or missing) of each paper, indexed by ``paper_id``.
    theme_labels : dict
        Theme number -> label, in column order.
    corpus_label : str
        The corpus's short name, for the title.

    Returns
    -------
    figure, data
        ``community`` then one column per theme, at most :data:`MAX_HEATMAP_COMMUNITIES` rows.

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> raw = pd.Series({"p1": "Egg quality of laying hens."})
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text))
    >>> community_theme_figure(result, pd.Series({"p1": 1}), {}, corpus_label="x")[1].columns.tolist()
    ['community']
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
