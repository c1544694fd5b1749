"""What the co-occurrence chapter shows of the authors' keywords: its lead sentence and values, the keyword map's
figure (the term map's drawing), its files, and the sections left out when there is no keyword map."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from helpers.analysis.cooccurrence.result import CooccurrenceResult, strongest_pairs
from helpers.analysis.keywords import NO_KEYWORDS, KeywordMap
from helpers.book.display import markdown_cell as md
from helpers.book.formatting import count
from helpers.book.reports.cooccurrence import map_downloads_html, map_ties, write_map_files

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from helpers.analysis.pipeline import Analysis

#: The chapter's sections of the keyword map (figure, files, interactive view, method), left out of the page
#: when there is no keyword map (:func:`left_out_sections`); the lead sentence says why.
KEYWORD_MAP_SECTIONS = ("sec-cooccurrence-keyword-map", "sec-cooccurrence-keyword-method")

#: The keyword map's files the chapter offers, next to the figures: its network files (the term map's, with the
#: prefix ``keyword_``) and its tables.
KEYWORD_FILES = ("keyword_network.json", "keyword_vosviewer_map.txt", "keyword_vosviewer_network.txt",
                 "keyword_network.graphml", "keyword_network.gexf", "keywords.csv", "keyword_pairs.csv",
                 "keyword_variants.csv")


def keyword_map(analysis: "Analysis") -> KeywordMap | None:
    """The analysis's keyword map (``None`` from an analysis made before there was one)."""
    return getattr(analysis, "keywords", None)


def has_keyword_map(analysis: "Analysis") -> bool:
    """Whether the page shows a keyword map: some paper has keywords and at least two reach the map.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> has_keyword_map(SimpleNamespace(keywords=None))
    False
    """
    found = keyword_map(analysis)
    return found is not None and found.message != NO_KEYWORDS and len(found.network.terms) >= 2


def left_out_sections(analysis: "Analysis") -> tuple[str, ...]:
    """The keyword map's sections when the page has no keyword map (:func:`has_keyword_map`), else none."""
    return () if has_keyword_map(analysis) else KEYWORD_MAP_SECTIONS


def _network(analysis: "Analysis") -> CooccurrenceResult | None:
    found = keyword_map(analysis)
    return None if found is None else found.network


def keyword_network(analysis: "Analysis") -> CooccurrenceResult:
    """The keyword map in the term map's form (an empty one, with its reason, when there is none)."""
    network = _network(analysis)
    if network is None:
        from helpers.analysis.keywords import analyse_keywords  # lazy: it loads the term lexicon

        network = analyse_keywords([], []).network
    return network


def keyword_values(analysis: "Analysis") -> dict[str, Any]:
    """The values the keyword sections show by name (``{glue:text}``): the minimum of papers, the drawn links,
    the written forms merged, the written forms the stop terms removed, the modularity."""
    network = _network(analysis)
    if network is None:
        return {"co_kw_min_occurrences": 0, "co_kw_n_links": 0, "co_kw_n_merged": 0, "co_kw_n_stopped": 0,
                "co_kw_modularity": 0.0, "co_kw_min_pair_papers": 0}
    return {"co_kw_min_occurrences": network.settings.min_occurrences,
            "co_kw_n_links": network.graph.number_of_edges(),
            "co_kw_n_merged": int((network.merges["source"] == "variant").sum()) if len(network.merges) else 0,
            "co_kw_n_stopped": network.settings.n_generic, "co_kw_modularity": round(float(network.modularity), 3),
            "co_kw_min_pair_papers": network.settings.min_pair_papers}


def keywords_lead(analysis: "Analysis") -> dict[str, str]:
    """The keyword section's first sentence (Markdown, glued as ``cooccurrence_keywords_lead``): the papers with
    keywords, the keywords on the map, their pairs and communities, the strongest pair; or, without a map, why.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> keywords_lead(SimpleNamespace(keywords=None, papers=pd.DataFrame({"paper_id": ["a"]})))
    {'cooccurrence_keywords_lead': 'No paper of this corpus gives keywords of its own, so there is no keyword map.'}
    """
    found = keyword_map(analysis)
    if found is None or found.message == NO_KEYWORDS:
        return {"cooccurrence_keywords_lead": "No paper of this corpus gives keywords of its own, so there is no "
                                              "keyword map."}
    network = found.network
    settings = network.settings
    given = (f"{count(settings.n_papers, 'paper')} of {len(analysis.papers)} give their authors' keywords, "
             f"{count(settings.n_candidates, 'distinct keyword')} once case, plural and hyphen variants are merged")
    if not has_keyword_map(analysis):
        return {"cooccurrence_keywords_lead": f"{given}; fewer than two of them are given by at least "
                                              f"{count(settings.min_occurrences, 'paper')}, so there is no keyword map."}
    top = network.terms.sort_values(["n_papers", "term"], ascending=[False, True]).iloc[0]
    lead = (f"{given}. The **{count(len(network.terms), 'keyword')}** given by at least "
            f"{count(settings.min_occurrences, 'paper')} form the keyword map ({{numref}}`fig-cooccurrence-keywords`), "
            f"{map_ties(network, 'a paper')}; the most frequent is *{md(str(top['term']))}*, in "
            f"{count(int(top['n_papers']), 'paper')}.")
    pairs = strongest_pairs(network, 1)
    if len(pairs):
        pair = pairs.iloc[0]
        lead += (f" The pair given together most often is *{md(str(pair['source']))}* and "
                 f"*{md(str(pair['target']))}*, in {count(int(pair['n_papers']), 'paper')}.")
    return {"cooccurrence_keywords_lead": lead}


def keyword_map_figure(analysis: "Analysis", corpus_label: str) -> "tuple[Figure, pd.DataFrame]":
    """The keyword map drawn as the term map is (:func:`helpers.book.reports.network_figures.term_map_figure`), its title
    naming keywords. Without a keyword map (:func:`has_keyword_map`) it is a small figure saying why, which the page
    leaves out (its sections are dropped), so a corpus without keywords costs no map drawing."""
    import matplotlib.pyplot as plt  # lazy: slow to import

    from helpers.book.reports.network_figures import term_map_figure  # lazy: at the top it would load matplotlib

    network = keyword_network(analysis)
    if not has_keyword_map(analysis):
        figure, axis = plt.subplots(figsize=(4, 1))
        axis.axis("off")
        axis.text(0.5, 0.5, network.message or "No keyword map", ha="center", va="center", fontsize=8)
        return figure, pd.DataFrame(columns=["keyword", "n_papers", "community", "colour", "x", "y", "drawn",
                                             "labelled"])
    figure, data = term_map_figure(network, corpus_label=corpus_label, noun="keyword")
    return figure, data.rename(columns={"term": "keyword"})


def write_keyword_files(analysis: "Analysis", folder: Path) -> list[Path]:
    """Write the keyword map's network files and tables (:data:`KEYWORD_FILES`) into ``folder`` when there is a
    keyword map; returns the paths (none without a map)."""
    found = keyword_map(analysis)
    if found is None or not has_keyword_map(analysis):
        return []
    tables = {f"{name}.csv": table for name, table in found.tables.items()}
    return write_map_files(found.network, tables, KEYWORD_FILES, folder, prefix="keyword_")


def explorer_variants(analysis: "Analysis") -> pd.DataFrame | None:
    """The written forms of the keywords, for the explorer's keyword filter (``None`` when no paper has keywords)."""
    found = keyword_map(analysis)
    return found.variants if found is not None and found.message != NO_KEYWORDS else None


def downloads_html(base: str = "../figures") -> str:
    """One line of download links to :data:`KEYWORD_FILES`.

    Examples
    --------
    >>> downloads_html().count("download>")
    8
    """
    return map_downloads_html(KEYWORD_FILES, "Keyword map files", base, prefix="keyword_")
