"""What the themes chapter shows: its glued values, tables and figures, computed from an :class:`Analysis`.

Every function works without a theme model too (a corpus too small for one):
values become ``"n/a"``, tables are empty and figures say why there are no themes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from helpers.analysis.corpus.titles import shorten_title
from helpers.analysis.text.stop_words import boilerplate_words
from helpers.analysis.themes.labels import MIN_LABEL_SHARE
from helpers.analysis.themes.naming import NUMBERING_RULE
from helpers.analysis.themes import (FINAL_SAMPLE, MAX_DF, N_COHERENCE_TERMS, N_DIVERSITY_TERMS, ThemeModel)
from helpers.book.display import markdown_cell as md, paper_links
from helpers.book.formatting import count, percent
from helpers.book.build.title import analysis_name

if TYPE_CHECKING:

    from helpers.analysis.pipeline import Analysis

N_TABLE_TERMS = 10  # all the terms a label may name (N_COHERENCE_TERMS)
N_REPRESENTATIVE = 2
REPRESENTATIVE_TITLE_CHARS = 140  # whole titles: the cell wraps them
N_BAR_TERMS = 8
MAP_SAMPLE = 3_000


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


def theme_names(model: ThemeModel) -> dict[int, str]:
    """``"3. graph · gnn"`` by theme number."""
    return {int(t): f"{int(t)}. {label}" for t, label in zip(model.themes["theme"], model.themes["label"])}


def theme_findings(analysis: "Analysis") -> dict[str, Any]:
    """Every value the themes chapter glues, by glue name (``"n/a"`` without a model).

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> folder = write_corpus({"a.txt": "We study galaxies with a new telescope survey today."})
    >>> findings = theme_findings(run_pipeline([folder]))
    >>> findings["themes_k"], findings["themes_largest"]
    ('n/a', 'n/a')
    """
    model = analysis.themes.model
    constants = {
        "themes_n_boilerplate": len(boilerplate_words()),
        "themes_max_df": percent(MAX_DF),
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
        "themes_mixed_share": percent(mixed.mean()),
        "themes_mixed_n": int(mixed.sum()),
        "themes_unassigned_n": int((~assigned).sum()),
        "themes_mixed_threshold": percent(settings.mixed_threshold),
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
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> folder = write_corpus({"a.txt": "We study galaxies with a new telescope survey today."})
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
            f"no theme holds {percent(threshold)} of the weight ({{numref}}`fig-themes-map`).")
    return {"themes_lead": lead}
