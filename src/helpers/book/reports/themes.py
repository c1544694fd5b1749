"""What the themes chapter shows: its glued values, tables and figures, computed from an :class:`Analysis`.

Every function works without a theme model too (a corpus too small for one):
values become ``"n/a"``, tables are empty and figures say why there are no themes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from helpers.analysis.corpus.titles import shorten_title
from helpers.analysis.text.stop_words import boilerplate_words
from helpers.analysis.themes.labels import MIN_LABEL_SHARE
from helpers.analysis.themes.naming import NUMBERING_RULE
from helpers.analysis.themes import (FINAL_SAMPLE, MAX_DF, N_COHERENCE_TERMS, N_DIVERSITY_TERMS, ThemeModel)
from helpers.book.array_cache import cached_array
from helpers.book.display import markdown_cell as md, paper_links
from helpers.book.formatting import count, percent
from helpers.book.inputs import page_input
from helpers.book.reports import drawing
from helpers.book.settings import THEME_VOCABULARY_FILE
from helpers.book.title import analysis_name

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from helpers.analysis.pipeline import Analysis

N_BAR_TERMS = 8
N_TABLE_TERMS = 10  # all the terms a label may name (N_COHERENCE_TERMS)
N_REPRESENTATIVE = 2
REPRESENTATIVE_TITLE_CHARS = 140  # whole titles: the cell wraps them
MAP_SAMPLE = 3_000
MEASURES = ("coherence", "diversity", "stability")


#: The themes chapter's section and figure of themes by source file, left out of a book of one file (a single
#: column repeating the themes' shares).
ONE_FILE_SECTIONS = ("sec-themes-by-source",)
ONE_FILE_FIGURES = ("fig-themes-by-source",)


def one_file(papers: pd.DataFrame) -> bool:
    """Whether the papers come from one file (or none), so that themes by source file compare nothing.

    Examples
    --------
    >>> one_file(pd.DataFrame({"source_file": ["a.txt", "a.txt"]})), one_file(pd.DataFrame({"source_file": ["a", "b"]}))
    (True, False)
    """
    return "source_file" not in papers or papers["source_file"].nunique() <= 1


def vocabulary_trial(root: "Path") -> dict[str, str]:
    """Glue values of ``benchmarks/results/theme_vocabulary.csv``: NPMI and k of the themes on their own
    vocabulary (``kept``), on the term map's noun phrases (``tried``) and on the phrase-merged vocabulary
    (``merged``: the map's phrases consume their words, other words are unigrams; ``mergedvar``: and
    bigrams), per corpus (``seed``, ``dev``),
    each with k chosen by the rule: ``npmi`` as each model scores itself, ``ref`` on the common reference
    (a term present where its words occur in a row), ``distinct`` on it without the pairs of a phrase and
    its own words; ``density`` is the mean number of distinct terms of an abstract; ``nested`` counts the themes whose top terms list a phrase beside a term inside it.
    ``*_samek`` values are the fits at the other vocabulary's k, where the two chose different k;
    rows of variants are left out.

    Examples
    --------
    >>> from pathlib import Path
    >>> vocabulary_trial(Path("/nonexistent"))["themes_trial_npmi_seed_kept"]
    '(not measured: run benchmarks/theme_vocabulary.py)'
    """
    columns = {"npmi": "npmi", "ref": "npmi_reference", "distinct": "npmi_reference_distinct"}
    decimals = {"terms_per_abstract": "density"}
    kinds = {"(kept)": "kept", "(tried)": "tried", "(merged)": "merged", "(merged variant)": "mergedvar"}
    names = [f"themes_trial_{m}_{c}_{v}{s}" for m in (*columns, *decimals.values(), "k", "nested") for c in ("seed", "dev")
             for v in kinds.values() for s in ("", "_samek")]
    path = page_input(THEME_VOCABULARY_FILE, root=Path(root))
    if not path.is_file():
        return {name: "(not measured: run benchmarks/theme_vocabulary.py)" for name in names}
    results = pd.read_csv(path)
    values = {name: "(not measured)" for name in names}
    for row in results.to_dict("records"):
        kind = next((k for suffix, k in kinds.items() if row["vocabulary"].endswith(suffix)), None)
        if kind is None:
            continue
        if row.get("k_rule", "chosen") != "chosen":
            kind += "_samek"
        corpus = "seed" if row["corpus"] == "seed" else "dev"
        for name, column in columns.items():
            if column in row:
                values[f"themes_trial_{name}_{corpus}_{kind}"] = f"{row[column]:.2f}"
        for column, name in decimals.items():
            if column in row:
                values[f"themes_trial_{name}_{corpus}_{kind}"] = f"{row[column]:.0f}"
        values[f"themes_trial_k_{corpus}_{kind}"] = str(int(row["k"]))
        if "nested_themes" in row:
            values[f"themes_trial_nested_{corpus}_{kind}"] = str(int(row["nested_themes"]))
    for corpus in ("seed", "dev"):
        values[f"themes_trial_merged_{corpus}_verdict"] = _trial_verdict(
            results, corpus, [k for k, v in kinds.items() if v in ("merged", "mergedvar")])
    return values


def _trial_verdict(results: pd.DataFrame, corpus: str, suffixes: list[str]) -> str:
    """How the best of the phrase-merged vocabularies' reference NPMI compares with today's (two decimals).

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["seed"] * 3, "k_rule": ["chosen"] * 3, "npmi_reference": [0.36, 0.30, 0.38],
    ...                       "vocabulary": ["a (kept)", "b (merged)", "c (merged variant)"]})
    >>> _trial_verdict(table, "seed", ["(merged)", "(merged variant)"])
    'at or above'
    >>> _trial_verdict(table.assign(npmi_reference=[0.36, 0.30, 0.20]), "seed", ["(merged)"])
    'below'
    """
    rows = results[(results["corpus"] == "seed") == (corpus == "seed")]
    rows = rows[rows.get("k_rule", pd.Series("chosen", index=rows.index)) == "chosen"]
    kept = rows[rows["vocabulary"].str.endswith("(kept)")]["npmi_reference"]
    tried = rows[rows["vocabulary"].map(lambda v: any(v.endswith(s) for s in suffixes))]["npmi_reference"]
    if kept.empty or tried.empty:
        return "(not measured)"
    return "at or above" if round(float(tried.max()), 2) >= round(float(kept.iloc[0]), 2) else "below"


def theme_palette(n_themes: int) -> list[tuple[float, float, float]]:
    """Distinct colours for ``n_themes`` themes: seaborn's colour-blind palette up to 10,
    then evenly spaced hues at two alternating lightness levels (distinct up to 30 and beyond).

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


def theme_names(model: ThemeModel) -> dict[int, str]:
    """``"3. graph · gnn"`` by theme number."""
    return {int(t): f"{int(t)}. {label}" for t, label in zip(model.themes["theme"], model.themes["label"])}


def theme_findings(analysis: "Analysis") -> dict[str, Any]:
    """Every value the themes chapter glues, by glue name (``"n/a"`` without a model).

    Examples
    --------
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("We study galaxies with a new telescope survey today.")
    >>> findings = theme_findings(run_pipeline([folder]))
    >>> findings["themes_k"], findings["themes_largest"]
    ('n/a', 'n/a')
    """
    model = analysis.themes.model
    constants = {
        "themes_n_boilerplate": len(boilerplate_words()),
        "themes_max_df": f"{MAX_DF:.0%}",
        "themes_n_coherence_terms": N_COHERENCE_TERMS,
        "themes_n_diversity_terms": N_DIVERSITY_TERMS,
        "themes_n_bar_terms": N_BAR_TERMS,
        "themes_n_representative": N_REPRESENTATIVE,
        "themes_label_share": percent(MIN_LABEL_SHARE),
        "themes_final_sample": f"{FINAL_SAMPLE:,}",
        "themes_map_sample": f"{MAP_SAMPLE:,}",
        "themes_numbering_rule": NUMBERING_RULE,
    }
    names = ["themes_k", "themes_k_how", "themes_k_min", "themes_k_max", "themes_n_candidates", "themes_seeds",
             "themes_n_seeds", "themes_rule", "themes_selection_docs", "themes_selection_vocabulary",
             "themes_final_docs", "themes_final_seed", "themes_comparison_docs", "themes_docs",
             "themes_selection_tol", "themes_final_tol",
             "themes_vocabulary", "themes_min_df", "themes_mixed_share", "themes_mixed_n", "themes_unassigned_n",
             "themes_mixed_threshold", "themes_largest", "themes_smallest", "themes_nmf_diversity", "themes_lda_diversity",
             "themes_verdict", "themes_map_docs", "themes_model_npmi", "themes_shown_npmi", "themes_n_shown"]
    if model is None:
        return {**constants, **{name: "n/a" for name in names}}
    settings = model.settings
    papers = analysis.papers
    assigned = papers["theme"].notna()
    mixed = assigned & (papers["theme_weight"] < settings.mixed_threshold)
    nmf, lda = model.comparison.iloc[0], model.comparison.iloc[1]
    if nmf["coherence"] >= lda["coherence"]:
        verdict = f"NMF scored higher on coherence ({nmf['coherence']:.3f} against {lda['coherence']:.3f})"
    else:
        verdict = (f"LDA scored higher on coherence ({lda['coherence']:.3f} against {nmf['coherence']:.3f}), "
                   "so NMF is not the better model here")
    largest = model.themes.sort_values(["n_papers", "theme"], ascending=[False, True]).iloc[0]
    values = {
        "themes_k": settings.chosen_k,
        "themes_k_how": ("was fixed by the THEMES_K setting" if settings.k_given else
                         "is the largest candidate searched, so the rule's best may lie above it (it was not chosen "
                         "among more)" if settings.k_at_top else "was chosen by the rule above"),
        "themes_k_min": min(settings.k_candidates),
        "themes_k_max": max(settings.k_candidates),
        "themes_n_candidates": len(settings.k_candidates),
        "themes_seeds": ", ".join(map(str, settings.seeds)),
        "themes_n_seeds": len(settings.seeds),
        "themes_rule": settings.rule,
        "themes_selection_docs": settings.selection_documents,
        "themes_selection_vocabulary": settings.selection_vocabulary,
        "themes_final_docs": settings.final_fit_documents,
        "themes_final_seed": settings.final_seed,
        "themes_selection_tol": f"{settings.selection_tol:g}",
        "themes_final_tol": f"{settings.final_tol:g}",
        "themes_comparison_docs": settings.comparison_documents,
        "themes_docs": settings.documents,
        "themes_vocabulary": settings.vocabulary,
        "themes_min_df": settings.min_df,
        "themes_mixed_share": f"{mixed.mean():.0%}",
        "themes_mixed_n": int(mixed.sum()),
        "themes_unassigned_n": int((~assigned).sum()),
        "themes_mixed_threshold": f"{settings.mixed_threshold:.0%}",
        "themes_largest": int(largest["n_papers"]),
        "themes_smallest": int(model.themes["n_papers"].min()),
        "themes_nmf_diversity": f"{nmf['diversity']:.2f}",
        "themes_lda_diversity": f"{lda['diversity']:.2f}",
        "themes_verdict": verdict,
        "themes_map_docs": min(len(model.weights), MAP_SAMPLE),
        "themes_model_npmi": f"{model.themes['coherence'].mean():.3f}",
        "themes_shown_npmi": f"{model.themes['shown_coherence'].mean():.3f}",
        # The themes shown: the model's, or fewer where a theme file merged some (the mean NPMIs are of the unmerged).
        "themes_n_shown": len(model.themes),
    }
    return {**constants, **values}


def no_themes_figure(message: str, corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """A small figure that says why there are no themes, with an empty data table."""
    figure, axis = drawing.column_subplots(1.2)
    axis.axis("off")
    axis.text(0.5, 0.5, f"No themes for this corpus ({corpus_label}): {message}", ha="center", va="center",
              wrap=True)
    return figure, pd.DataFrame()


def selection_figure(model: ThemeModel | None, corpus_label: str, message: str = "") -> tuple["Figure", pd.DataFrame]:
    """Coherence, diversity and stability per candidate k; the chosen k circled, thresholds dashed, each k with a
    theme under the size floor hollow."""
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


def selection_table(selection: pd.DataFrame) -> pd.DataFrame:
    """The model selection as the chapter shows it: each candidate k's scores, its smallest theme (papers, in the
    best-fitting seed's run) and whether it is eligible under the whole rule (stable, diverse and every theme at
    least the size floor), so a more coherent k that was passed over shows why.

    Examples
    --------
    >>> table = pd.DataFrame({"k": [3, 6], "coherence": [0.2, 0.4], "diversity": [0.9, 0.9], "stability": [0.9, 0.9],
    ...                       "score": [0.6, 0.7], "eligible": [True, True], "smallest": [19, 3],
    ...                       "readable": [True, False], "chosen": [True, False]})
    >>> selection_table(table)[["k", "smallest theme", "eligible"]].values.tolist()
    [[3, 19, True], [6, 3, False]]
    """
    shown = selection[["k", "coherence", "diversity", "stability", "score"]].copy()
    eligible = selection["eligible"].astype(bool)
    if "smallest" in selection and "readable" in selection:
        shown["smallest theme"] = selection["smallest"]
        eligible = eligible & selection["readable"].astype(bool)
    shown["eligible"] = eligible
    shown["chosen"] = selection["chosen"]
    return shown


def theme_table(model: ThemeModel | None) -> pd.DataFrame:
    """One row per theme: ``theme, label, n_papers, coherence, shown_coherence, top_terms`` (its
    :data:`N_TABLE_TERMS` strongest terms as shown, strongest first; their weights are in the figure's CSV)."""
    columns = ["theme", "label", "n_papers", "coherence", "shown_coherence", "top_terms"]
    if model is None:
        return pd.DataFrame(columns=columns)
    top = model.top_terms[model.top_terms["rank"] <= N_TABLE_TERMS]
    described = top.groupby("theme")["term"].agg(", ".join)
    return model.themes.assign(top_terms=model.themes["theme"].map(described))[columns]


GRID_COLUMNS = 3  # panels per row of the column
#: Word clouds use the dark half of viridis: no yellow or pale word on white, and ordered in lightness, so the
#: colours read the same to colour-blind readers.
CLOUD_COLOURS = 0.45
CLOUD_PIXELS_PER_INCH = 100  # the cloud is laid out at the page's resolution and drawn at twice that
CLOUD_MIN_PT = 8.5
PANEL_TITLE_CHARACTERS = 24  # of a panel title's line in a third of the column  # the smallest word, in points at column width


def shown_themes(model: ThemeModel, most: int = drawing.MAX_PANELS) -> pd.DataFrame:
    """The themes a grid shows: the ``most`` largest (most papers, then lowest number), in theme order.

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
    the :data:`drawing.MAX_PANELS` largest themes (the data returned holds every theme)."""
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
    word :data:`CLOUD_MIN_PT` (words that do not fit at that size are left out), coloured dark (fixed seed)."""
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
    :data:`drawing.MAX_PANELS` largest themes (the data returned holds every theme)."""
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


def representative_papers(model: ThemeModel | None, papers: pd.DataFrame) -> pd.DataFrame:
    """One row per theme with its :data:`N_REPRESENTATIVE` papers of highest weight on it, among its papers.

    Columns ``theme, label, papers`` (escaped links to the explorer, titles shortened, ``; ``-joined).
    ``papers`` needs ``paper_id, display_title, theme``. One row per theme keeps the page short at any k.
    """
    columns = ["theme", "label", "papers"]
    if model is None:
        return pd.DataFrame(columns=columns)
    weights = model.weights.merge(papers[["paper_id", "display_title", "theme"]], on="paper_id")
    rows = []
    for theme in model.themes.itertuples():
        column = f"theme_{theme.theme}"
        members = weights[weights["theme"] == theme.theme].sort_values(
            [column, "paper_id"], ascending=[False, True]).head(N_REPRESENTATIVE)
        rows.append(dict(theme=theme.theme, label=theme.label, papers=paper_links(
            members["paper_id"], [shorten_title(t, REPRESENTATIVE_TITLE_CHARS) for t in members["display_title"]])))
    return pd.DataFrame(rows, columns=columns)


def paper_map(model: ThemeModel, papers: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """2-D t-SNE coordinates of the papers' theme weights (seeded; a seeded sample of :data:`MAP_SAMPLE`
    papers when there are more). Columns ``paper_id, x, y, theme, theme_weight, theme_label``."""
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
    """Papers on a t-SNE map of their theme weights, coloured by strongest theme, labelled at each theme's centre."""
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
    large file does not swamp the others; the data (``theme, source_file, papers, share``) holds the counts."""
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


def theme_overview(model: ThemeModel | None, papers: pd.DataFrame) -> pd.DataFrame:
    """The themes as the chapter opens with them: ``theme, label, papers, top terms, representative papers``
    (the last an HTML column of escaped explorer links; see :func:`representative_papers`); with a theme file's
    names, ``named by`` (``you`` or ``rule``) after ``label``, and ``model themes`` where themes were merged."""
    columns = ["theme", "label", "papers", "top terms", "representative papers"]
    if model is None:
        return pd.DataFrame(columns=columns)
    table = theme_table(model).merge(representative_papers(model, papers), how="left", on=["theme", "label"])
    if "name_source" in model.themes:  # a theme file named them (helpers.analysis.themes.naming)
        table["named by"] = model.themes["name_source"].map({"file": "you", "rule": "rule"}).to_numpy()
        columns.insert(2, "named by")
        if model.themes["model_themes"].str.contains(",").any():
            table["model themes"] = model.themes["model_themes"].to_numpy()
            columns.insert(3, "model themes")
    return table.rename(columns={"n_papers": "papers", "top_terms": "top terms",
                                 "papers": "representative papers"})[columns]


def theme_scores(model: ThemeModel | None) -> pd.DataFrame:
    """Each theme's coherence: the model's own top terms and the terms as shown (``theme, label, coherence,
    shown coherence``)."""
    columns = ["theme", "label", "coherence", "shown coherence"]
    if model is None:
        return pd.DataFrame(columns=columns)
    return theme_table(model).rename(columns={"shown_coherence": "shown coherence"})[columns]


def chapter_lead(analysis: "Analysis") -> dict[str, str]:
    """The chapter's first sentence (Markdown, glued as ``themes_lead``): how many themes, the largest, mixed papers.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("We study galaxies with a new telescope survey today.")
    >>> chapter_lead(run_pipeline([folder]))["themes_lead"]
    'No themes could be fitted: themes need at least 4 abstracts; this corpus has 1.'
    """
    model = analysis.themes.model
    if model is None:
        return {"themes_lead": f"No themes could be fitted: {md(analysis.themes.message)}."}
    by_size = model.themes.sort_values(["n_papers", "theme"], ascending=[False, True])
    largest, smallest = by_size.iloc[0], by_size.iloc[-1]
    threshold = model.settings.mixed_threshold
    papers = analysis.papers
    mixed = int((papers["theme"].notna() & (papers["theme_weight"] < threshold)).sum())
    lead = (f"The {md(analysis_name(analysis).sentence_subject)} fall into **{count(len(by_size), 'theme')}** "
            f"({{numref}}`fig-themes-top-terms`), from {count(int(smallest['n_papers']), 'paper')} "
            f"(*{md(smallest['label'])}*) to {count(int(largest['n_papers']), 'paper')} "
            f"(*{md(largest['label'])}*); {count(mixed, 'paper')} {'is' if mixed == 1 else 'are'} a mix in which "
            f"no theme holds {threshold:.0%} of the weight ({{numref}}`fig-themes-map`).")
    return {"themes_lead": lead}
