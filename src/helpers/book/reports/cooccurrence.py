"""What the co-occurring terms chapter shows: the strongest pairs with their papers, its glued values, files."""

from __future__ import annotations

import html
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pandas as pd

from helpers.analysis.cooccurrence.communities import community_cohesion
from helpers.analysis.corpus.titles import shorten_title
from helpers.book.display import markdown_cell as md
from helpers.book.formatting import corpus_name, count
from helpers.book.network_figures import EGO_CENTRE, EGO_PARTNERS

from helpers.analysis.cooccurrence.acronyms import DOMINANT_LONG_FORM_SHARE, MIN_CORPUS_WIDE_DEFINITIONS
from helpers.analysis.cooccurrence.exporters import network_writers
from helpers.analysis.cooccurrence.nested import NESTED_SHARE
from helpers.analysis.cooccurrence.relevance import (
    CONTEXT_TERMS,
    MIN_MAP_TERMS,
    MIN_OCCURRENCES_RULE,
    MULTI_WORD_OCCURRENCE_SHARE,
    RELEVANT_SHARE,
    SINGLE_WORD_SHARE,
    VOSVIEWER_MIN_OCCURRENCES,
    multi_word_min_occurrences,
)
from helpers.analysis.cooccurrence.network import CLUSTER_MIN_PAIR_PAPERS, LOUVAIN_STARTS
from helpers.analysis.cooccurrence.termhood import SCORE_WEIGHTS, SIGNALS, read_generic_terms
from helpers.analysis.cooccurrence.result import STRONGEST_PAIRS, CooccurrenceResult, papers_with_terms, strongest_pairs
from helpers.book.inputs import page_input
from helpers.book.settings import COMMUNITY_QUALITY_FILE, TERM_QUALITY_FILE
from helpers.book.title import analysis_name
from helpers.web.explorer import explorer_sample_ids, explorer_url, papers_link_text
from helpers.analysis.spreadsheet import write_csv

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

MOST_RELEVANT_SHOWN = 20


PAIR_EXAMPLES = 2
#: The strongest pairs the page shows (all :data:`STRONGEST_PAIRS` are in the table's CSV).
PAIR_ROWS_SHOWN = 10


EXAMPLE_TITLE_CHARS = 60  # example titles are shortened so the table stays short


ACRONYM_ROWS = 15


EXPLORER_PAGE = "explorer.html"




def strongest_pairs_table(result: CooccurrenceResult, titles: dict[str, str], *, top: int = STRONGEST_PAIRS,
                          examples_per_pair: int = PAIR_EXAMPLES) -> pd.DataFrame:
    """The ``top`` pairs sharing the most abstracts (ties: association strength), for the chapter.

    Columns ``pair, papers, association strength, jaccard, examples, all``:
    ``examples`` links up to ``examples_per_pair`` papers to their explorer rows (papers that are no stronger
    pair's example first, in corpus order) and
    ``all`` links "all N papers" to the explorer filtered on both terms (when the
    explorer holds a sample, "the M of N in the sample", and the examples are papers of
    the sample); both are escaped HTML. The table never has more than ``top`` rows.
    """
    columns = ["pair", "papers", "association strength", "jaccard", "examples", "all"]
    if result.pairs.empty:
        return pd.DataFrame(columns=columns)
    strongest = strongest_pairs(result, top)
    sample = explorer_sample_ids(result.paper_ids)
    rows = []
    used: set[str] = set()
    for pair in strongest.itertuples(index=False):
        ids = papers_with_terms(result, [pair.source, pair.target])
        shown = ids if sample is None else [i for i in ids if i in sample]  # examples the explorer can open
        # Papers not yet an example of a stronger pair come first, so one paper does not stand for every row.
        examples = sorted(shown, key=lambda paper: paper in used)[:examples_per_pair]
        used.update(examples)
        links = "; ".join(f'<a href="{EXPLORER_PAGE}#paper-{html.escape(i, quote=True)}">'
                          f"{html.escape(shorten_title(str(titles.get(i, i)), EXAMPLE_TITLE_CHARS))}</a>"
                          for i in examples)
        everything = (f'<a href="{html.escape(explorer_url(terms=(pair.source, pair.target), page=EXPLORER_PAGE), quote=True)}">'
                      f"{papers_link_text(len(ids), None if sample is None else len(shown))}</a>")
        rows.append({"pair": f"{pair.source} + {pair.target}", "papers": int(pair.n_papers),
                     "association strength": pair.association_strength, "jaccard": pair.jaccard,
                     "examples": links, "all": everything})
    return pd.DataFrame(rows, columns=columns)


def chapter_values(result: CooccurrenceResult) -> dict[str, Any]:
    """Every number the co-occurrence chapter shows, by glue name (defaults when there is no network).

    Examples
    --------
    >>> raw = pd.Series({"p1": "Galaxy clusters."})
    >>> from helpers.analysis.cooccurrence import analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> values = chapter_values(analyse_cooccurrence(raw, raw.map(analysis_text)))
    >>> values["co_n_terms"], values["co_modularity"], values["co_relevant_share"]
    (0, '0.000', '60%')
    """
    terms, settings = result.terms, result.settings
    multi_term = result.communities[result.communities["n_terms"] > 1] if len(terms) else result.communities
    by = "score" if "score" in terms else "relevance"
    most_relevant = terms.sort_values([by, "n_papers", "term"], ascending=[False, False, True])
    return {
        "co_min_occurrences": settings.min_occurrences,
        "co_relevant_share": f"{settings.relevant_share:.0%}",
        "co_vosviewer_share": f"{RELEVANT_SHARE:.0%}",
        "co_vosviewer_min_occurrences": VOSVIEWER_MIN_OCCURRENCES,
        "co_min_occurrences_rule": MIN_OCCURRENCES_RULE,
        "co_n_candidates": settings.n_candidates,
        "co_n_terms": len(terms),
        "co_max_map_terms": settings.max_map_terms,
        "co_multi_word_share": f"{terms['term'].str.contains(' ').mean():.0%}" if len(terms) else "0%",
        "co_max_term_words": settings.max_term_words,
        "co_relevance_topics": settings.relevance_topics,
        "co_context_terms": CONTEXT_TERMS,
        "co_relevance_smoothing": f"{settings.relevance_smoothing:g}",
        "co_n_pairs": len(result.pairs),
        "co_n_edges": result.graph.number_of_edges(),
        "co_min_pair_papers": settings.min_pair_papers,
        "co_max_links_per_term": settings.max_links_per_term,
        "co_n_communities": int(terms["community"].nunique()) if len(terms) else 0,
        "co_n_multi": len(multi_term),
        "co_modularity": f"{result.modularity:.3f}",
        "co_resolution": settings.resolution,
        "co_seed": settings.louvain_seed,
        "co_n_acronyms": len(result.acronyms),
        "co_n_acronyms_corpus": int((result.acronyms["scope"] == "corpus").sum()),
        "co_min_definitions": MIN_CORPUS_WIDE_DEFINITIONS,
        "co_dominant_share": f"{DOMINANT_LONG_FORM_SHARE:.0%}",
        "co_acronym_rows": ACRONYM_ROWS,
        "co_n_thesaurus": int((result.merges["source"] == "thesaurus").sum()),
        "co_top_pairs": STRONGEST_PAIRS,
        "co_community_rows": min(COMMUNITY_ROWS, len(result.communities)),
        "co_pair_examples": PAIR_EXAMPLES,
        "co_below_cut": ", ".join(result.below_cut["term"]) or "none",
        "co_n_most_relevant": MOST_RELEVANT_SHOWN,
        "co_most_relevant": ", ".join(most_relevant["term"].head(MOST_RELEVANT_SHOWN)) or "none",
        "co_ranking": settings.ranking,
        "co_n_generic": settings.n_generic,
        "co_n_nested": settings.n_nested,
        "co_n_stock_terms": len(read_generic_terms()),
        "co_nested_share": f"{NESTED_SHARE:.0%}",
        "co_multi_word_min": multi_word_min_occurrences(settings.min_occurrences),
        "co_multi_word_occurrence_share": f"{MULTI_WORD_OCCURRENCE_SHARE:.0%}",
        "co_score_weights": ", ".join(f"{w:g}" for w in SCORE_WEIGHTS),
        "co_score_signals": ", ".join(SIGNALS),
        "co_single_word_share": f"{SINGLE_WORD_SHARE:g}",
        "co_min_map_terms": MIN_MAP_TERMS,
        "co_single_word_kept_share": f"{SINGLE_WORD_SHARE * settings.relevant_share:.0%}",
        "co_n_single_terms": int((~terms["term"].str.contains(" ")).sum()) if len(terms) else 0,
        "co_cluster_min_pair_papers": CLUSTER_MIN_PAIR_PAPERS,
        "co_message": result.message or "every kept term has at least one drawn link or stands alone",
        "co_ego_partners": EGO_PARTNERS,
        "co_louvain_starts": LOUVAIN_STARTS,
        "co_ego_centre": EGO_CENTRE,
        **cohesion_values(result),
    }


#: Rows of the table of what the built-in rules leave out (all rows in ``left_out_terms.csv``).
LEFT_OUT_ROWS = 15


def vocabulary_values(analysis: "Analysis") -> dict[str, str]:
    """The researcher's files on the term map (``co_own_vocabulary``: each file and the terms of these abstracts it
    changed) and the number of words and terms the built-in rules leave out (``co_n_left_out``)."""
    from helpers.book.reports.reproduce import vocabulary_sentence

    result = analysis.cooccurrence
    return {"co_own_vocabulary": vocabulary_sentence(analysis.settings, result.vocabulary_changed),
            "co_n_left_out": f"{len(result.left_out):,}", "co_left_out_rows": f"{LEFT_OUT_ROWS:,}"}


def left_out_table(result: CooccurrenceResult) -> pd.DataFrame:
    """What the built-in rules leave out, most used first: ``term, abstracts, rule`` (the rows of
    ``left_out_terms.csv``: its ``term`` column can start a stop-term file or a thesaurus's ``label`` column).

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> raw = pd.Series({"p1": "This study of soil.", "p2": "A study of soil erosion.", "p3": "Soil results."})
    >>> left_out_table(analyse_cooccurrence(raw, raw.map(analysis_text), min_occurrences=2)).values.tolist()
    [['study', 2, 'built-in stop word'], ['result', 1, 'built-in stop word']]
    """
    return result.left_out.rename(columns={"n_papers": "abstracts"})[["term", "abstracts", "rule"]]


def cohesion_values(result: CooccurrenceResult) -> dict[str, str]:
    """How well the communities hold together (:func:`community_cohesion`), as glued: ``co_within`` and
    ``co_between`` (observed over expected co-occurrences of the pairs inside and between communities) and
    ``co_cohesion_ratio``; "n/a" without pairs.

    Examples
    --------
    >>> raw = pd.Series({"p1": "Galaxy clusters."})
    >>> from helpers.analysis.cooccurrence import analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> cohesion_values(analyse_cooccurrence(raw, raw.map(analysis_text)))["co_within"]
    'n/a'
    """
    if result.pairs.empty or result.terms["community"].nunique() < 2:
        return dict.fromkeys(("co_within", "co_between", "co_cohesion_ratio"), "n/a")
    measured = community_cohesion(result.terms, result.pairs)
    return {"co_within": f"{measured.within:.2f}", "co_between": f"{measured.between:.2f}",
            "co_cohesion_ratio": f"{measured.ratio:.1f}"}


# The rankings compared in the chapter, as the table names them.
RANKING_NAMES = {"frequency": "frequency", "relevance": "VOSviewer relevance", "combined": "combined score (the book's)"}


def read_term_quality(root: Path) -> pd.DataFrame | None:
    """``benchmarks/results/term_quality.csv`` under the book's ``root``, or ``None`` when it was not measured."""
    path = page_input(TERM_QUALITY_FILE, root=Path(root))
    return pd.read_csv(path) if path.exists() else None


def term_quality(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/results/term_quality.csv`` as the chapter shows it, and its glue values.

    The glue values are those of the largest real corpus measured against the labels the
    settings were chosen on (``co_q_*``), and of the held-out corpus measured against its own
    labels (``co_qh_*``; corpus name starting with ``held-out``): the F share and landmark recall of
    each ranking, and the corpus's size (and name, for the first); the table has every measure.
    Without results every value says how to measure.

    Examples
    --------
    >>> table, values = term_quality(None)
    >>> table.empty, values["co_q_corpus"], values["co_qh_field_share_combined"]
    (True, '(not measured: run benchmarks/term_quality.py)', '(not measured: run benchmarks/term_quality.py)')
    """
    measures = ("field_share", "landmark_recall")  # glued; the multi-word share is in the table only
    described = {"co_q": ("corpus", "n_abstracts"), "co_qh": ("n_abstracts",)}
    if results is None or results.empty:
        missing = "(not measured: run benchmarks/term_quality.py)"
        return pd.DataFrame(), {f"{p}_{n}": missing for p, names in described.items() for n in names} | {
            f"{p}_{n}_{r}": missing for n in measures for r in RANKING_NAMES for p in described}
    # Short cells and headers, so the measures fit the page's column; the CSV has every count.
    table = pd.DataFrame({
        "corpus": [f"{corpus_name(name)} ({n:,})" for name, n in zip(results["corpus"], results["n_abstracts"])],
        "ranking": results["ranking"].map(RANKING_NAMES), "terms": results["n_terms"],
        "F share": [f"{share:.0%}" + (f" ({u} unlabelled)" if u else "")
                    for share, u in zip(results["field_share"], results["n_unlabelled"])],
        "multi-word": results["multi_word_share"].map("{:.0%}".format),
        "landmarks": [f"{f} of {n}" for f, n in zip(results["n_landmarks_found"], results["n_landmarks"])],
        "nested in top 20": results["nested_top_pairs"],
        "one-term non-F comm.": results["generic_single_communities"],
    })
    heldout = results["corpus"].str.startswith("held-out")
    real = results[~results["corpus"].str.startswith("synthetic") & ~heldout]
    largest = real[real["n_abstracts"] == real["n_abstracts"].max()]
    values: dict[str, str] = {}
    for prefix, rows in (("co_q", largest), ("co_qh", results[heldout])):
        if rows.empty:
            values |= {f"{prefix}_{n}": "(not measured)" for n in described[prefix]} | {
                f"{prefix}_{n}_{r}": "(not measured)" for n in measures for r in RANKING_NAMES}
            continue
        if "corpus" in described[prefix]:
            values[f"{prefix}_corpus"] = corpus_name(rows["corpus"].iloc[0])
        values[f"{prefix}_n_abstracts"] = str(int(rows["n_abstracts"].iloc[0]))
        for row in rows.itertuples(index=False):
            values[f"{prefix}_field_share_{row.ranking}"] = f"{row.field_share:.0%}"
            values[f"{prefix}_landmark_recall_{row.ranking}"] = f"{row.landmark_recall:.0%}"
    return table, values


#: How the Validation page names each way of finding communities (the weights: ``a`` or ``c ln a``).
WEIGHT_NAMES = {"association": "a", "information": "c ln a"}


def community_quality(root: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/results/community_quality.csv`` as the Validation page shows it, and the values its sentence
    glues (``cq_*``: the three-year corpus's measures each way, the development corpus named); every value
    "not measured" without the file.

    Examples
    --------
    >>> table, values = community_quality(Path("/nonexistent"))
    >>> table.empty, values["cq_ratio_book"]
    (True, 'not measured')
    """
    path = page_input(COMMUNITY_QUALITY_FILE, root=Path(root))
    names = [f"cq_{n}_{m}" for n in ("ratio", "together", "apart", "communities") for m in ("base", "book")]
    names += ["cq_corpus", "cq_n_abstracts", "cq_development"]
    if not path.exists():
        return pd.DataFrame(), dict.fromkeys(names, "not measured")
    results = pd.read_csv(path)
    table = pd.DataFrame({
        "corpus": [f"{corpus_name(c)} ({n:,})" for c, n in zip(results["corpus"], results["n_abstracts"])],
        "communities": [f"{WEIGHT_NAMES.get(w, w)}, resolution {r:g}" + (" (the book's)" if m == "book" else "")
                        for w, r, m in zip(results["weighting"], results["resolution"], results["method"])],
        "count (largest)": [f"{n} ({m})" for n, m in zip(results["n_communities"], results["largest_community"])],
        "inside / between": [f"{a:.2f} / {b:.2f} ({r:.1f}x)"
                             for a, b, r in zip(results["within"], results["between"], results["ratio"])],
        "one sub-field together": [f"{a} of {n}" for a, n in zip(results["n_together"], results["n_same_field"])],
        "two sub-fields apart": [f"{a} of {n}" for a, n in zip(results["n_apart"], results["n_other_field"])],
    })
    values = dict.fromkeys(names, "not measured")
    development = results[results["corpus"].str.startswith("icml2024-dev")]
    if len(development):
        values["cq_development"] = corpus_name(development["corpus"].iloc[0])
    real = results[~results["corpus"].str.startswith("synthetic") & (results["corpus"] != "seed")
                   & ~results["corpus"].str.startswith("icml2024-dev")]
    if len(real):
        largest = real[real["n_abstracts"] == real["n_abstracts"].max()]
        values["cq_corpus"] = corpus_name(largest["corpus"].iloc[0])
        values["cq_n_abstracts"] = f"{int(largest['n_abstracts'].iloc[0]):,}"
        for row in largest.itertuples(index=False):
            key = "book" if row.method == "book" else "base"
            values[f"cq_ratio_{key}"] = f"{row.ratio:.1f}"
            values[f"cq_together_{key}"] = f"{row.n_together} of {row.n_same_field}"
            values[f"cq_apart_{key}"] = f"{row.n_apart} of {row.n_other_field}"
            values[f"cq_communities_{key}"] = str(int(row.n_communities))
    return table, values


def top_acronyms(result: CooccurrenceResult, rows: int = ACRONYM_ROWS) -> pd.DataFrame:
    """The ``rows`` acronyms defined in the most abstracts (the chapter offers all as CSV)."""
    return (result.acronyms.sort_values(["n_papers", "acronym"], ascending=[False, True]).head(rows)
            .rename(columns={"n_papers": "defined in papers"}).reset_index(drop=True))


COMMUNITY_ROWS = 15


def community_terms(result: CooccurrenceResult) -> dict[int, list[str]]:
    """Community number -> the terms naming it in the table of communities, for the interactive map's legend.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> community_terms(SimpleNamespace(communities=pd.DataFrame({"community": [1], "top_terms": ["a, b c"]})))
    {1: ['a', 'b c']}
    """
    return {int(row.community): str(row.top_terms).split(", ") for row in result.communities.itertuples(index=False)}


# Files the chapter offers for download, next to the figures (``network_writers`` plus the tables).
CHAPTER_FILES = ("network.json", "vosviewer_map.txt", "vosviewer_network.txt", "network.graphml", "network.gexf",
                 "terms.csv", "term_pairs.csv", "acronyms.csv")


def write_chapter_files(result: CooccurrenceResult, folder: Path) -> list[Path]:
    """Write the network files and the terms, pairs and acronym tables into ``folder``; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    tables = {"terms.csv": result.terms, "term_pairs.csv": result.pairs, "acronyms.csv": result.acronyms}
    writers: dict[str, Callable[[Path], None]] = {**network_writers(result), **{
        name: partial(write_csv, table) for name, table in tables.items()}}
    for name in CHAPTER_FILES:
        writers[name](folder / name)
    return [folder / name for name in CHAPTER_FILES]


def downloads_html(base: str = "../figures") -> str:
    """One line of download links to :data:`CHAPTER_FILES`.

    Examples
    --------
    >>> downloads_html().count("download>")
    8
    """
    names = {"network.json": "VOSviewer JSON", "vosviewer_map.txt": "VOSviewer map",
             "vosviewer_network.txt": "VOSviewer network", "network.graphml": "GraphML",
             "network.gexf": "GEXF (Gephi)"}
    links = " · ".join(f'<a href="{base}/{name}" download>{names.get(name, name)}</a>' for name in CHAPTER_FILES)
    return f'<p class="network-downloads">Network files: {links}</p>'


def chapter_lead(analysis) -> dict[str, str]:
    """The chapter's first sentence (Markdown, glued as ``cooccurrence_lead``): terms, links, communities, the
    strongest pair.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("We study galaxies with a new telescope survey today.")
    >>> chapter_lead(run_pipeline([folder]))["cooccurrence_lead"][:40]
    'No term map for the 1 abstract: fewer th'
    """
    result = analysis.cooccurrence
    subject = md(analysis_name(analysis).sentence_subject)
    pairs = strongest_pairs(result, 1)
    n_terms = len(result.terms)
    if n_terms < 2 or not len(pairs):
        return {"cooccurrence_lead": f"No term map for the {subject}: fewer than two terms reach the map."}
    pair = pairs.iloc[0]
    n_communities = int(result.communities["community"].nunique()) if len(result.communities) else 0
    lead = (f"Across the {subject}, **{count(n_terms, 'term')}** reach the term map "
            f"({{numref}}`fig-cooccurrence-network`), tied by {count(len(result.pairs), 'pair')} that share "
            f"an abstract and grouped into {count(n_communities, 'community')}. The strongest pair is "
            f"*{md(pair['source'])}* and *{md(pair['target'])}*, together in "
            f"{count(int(pair['n_papers']), 'abstract')}.")
    return {"cooccurrence_lead": lead}
