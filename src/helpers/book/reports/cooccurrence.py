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
from helpers.book.formatting import count, percent
from helpers.book.reports.community_figures import EGO_CENTRE, EGO_PARTNERS

from helpers.analysis.cooccurrence.acronyms import DOMINANT_LONG_FORM_SHARE, MIN_CORPUS_WIDE_DEFINITIONS
from helpers.analysis.cooccurrence.exporters import network_writers
from helpers.analysis.cooccurrence.nested import NESTED_SHARE
from helpers.analysis.cooccurrence.selection import (
    MIN_MAP_TERMS,
    MIN_OCCURRENCES_RULE,
    MULTI_WORD_OCCURRENCE_SHARE,
    RELEVANT_SHARE,
    SINGLE_WORD_SHARE,
    VOSVIEWER_MIN_OCCURRENCES,
    multi_word_min_occurrences,
)
from helpers.analysis.cooccurrence.communities import LOUVAIN_STARTS
from helpers.analysis.cooccurrence.network import CLUSTER_MIN_PAIR_PAPERS
from helpers.analysis.cooccurrence.termhood import CONTEXT_TERMS, SCORE_WEIGHTS, SIGNALS, count_generic_terms
from helpers.analysis.cooccurrence.result import STRONGEST_PAIRS, CooccurrenceResult, papers_with_terms, strongest_pairs
from helpers.book.build.title import analysis_name
from helpers.web.explorer import explorer_url, papers_link_text
from helpers.web.explorer_data import explorer_sample_ids
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
        "co_relevant_share": percent(settings.relevant_share),
        "co_vosviewer_share": percent(RELEVANT_SHARE),
        "co_vosviewer_min_occurrences": VOSVIEWER_MIN_OCCURRENCES,
        "co_min_occurrences_rule": MIN_OCCURRENCES_RULE,
        "co_n_candidates": settings.n_candidates,
        "co_n_terms": len(terms),
        "co_max_map_terms": settings.max_map_terms,
        "co_multi_word_share": percent(terms['term'].str.contains(' ').mean()) if len(terms) else "0%",
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
        "co_dominant_share": percent(DOMINANT_LONG_FORM_SHARE),
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
        "co_n_stock_terms": count_generic_terms(),
        "co_nested_share": percent(NESTED_SHARE),
        "co_multi_word_min": multi_word_min_occurrences(settings.min_occurrences),
        "co_multi_word_occurrence_share": percent(MULTI_WORD_OCCURRENCE_SHARE),
        "co_score_weights": ", ".join(f"{w:g}" for w in SCORE_WEIGHTS),
        "co_score_signals": ", ".join(SIGNALS),
        "co_single_word_share": f"{SINGLE_WORD_SHARE:g}",
        "co_min_map_terms": MIN_MAP_TERMS,
        "co_single_word_kept_share": percent(SINGLE_WORD_SHARE * settings.relevant_share),
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
    >>> from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> raw = pd.Series({"p1": "This study of soil.", "p2": "A study of soil erosion.", "p3": "Soil results."})
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(min_occurrences=2))
    >>> left_out_table(result).values.tolist()
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


#: How the download line names each network file (the tables by their file names).
NETWORK_FILE_NAMES = {"network.json": "VOSviewer JSON", "vosviewer_map.txt": "VOSviewer map",
                      "vosviewer_network.txt": "VOSviewer network", "network.graphml": "GraphML",
                      "network.gexf": "GEXF (Gephi)"}


def write_map_files(network: CooccurrenceResult, tables: dict[str, pd.DataFrame], names: tuple[str, ...],
                    folder: Path, *, prefix: str = "") -> list[Path]:
    """Write a map's network files and tables into ``folder``: the term map's, or the keyword map's (``prefix``).

    Parameters
    ----------
    network : CooccurrenceResult
        The map whose network files (:func:`helpers.analysis.cooccurrence.exporters.network_writers`) are written.
    tables : dict
        File name (``"terms.csv"``) -> table, written as formula-safe CSV.
    names : tuple of str
        The files to write, in order: network files (with ``prefix``) and tables.
    folder : Path
        Created when missing.
    prefix : str, optional
        Put before each network file's name (``"keyword_"``).

    Returns
    -------
    list of Path
        The files written, in the order of ``names``.

    Examples
    --------
    >>> import tempfile
    >>> from types import SimpleNamespace
    >>> folder = Path(tempfile.mkdtemp())
    >>> table = pd.DataFrame({"term": ["=cmd"]})
    >>> [p.name for p in write_map_files(SimpleNamespace(), {"terms.csv": table}, ("terms.csv",), folder)]
    ['terms.csv']
    >>> (folder / "terms.csv").read_text()
    "term\\n'=cmd\\n"
    """
    folder.mkdir(parents=True, exist_ok=True)
    writers: dict[str, Callable[[Path], None]] = {
        **({f"{prefix}{name}": writer for name, writer in network_writers(network).items()}
           if any(name not in tables for name in names) else {}),
        **{name: partial(write_csv, table) for name, table in tables.items()}}
    for name in names:
        writers[name](folder / name)
    return [folder / name for name in names]


def write_chapter_files(result: CooccurrenceResult, folder: Path) -> list[Path]:
    """Write the network files and the terms, pairs and acronym tables (:data:`CHAPTER_FILES`) into ``folder``.

    Parameters
    ----------
    result : CooccurrenceResult
        The term map.
    folder : Path
        The book's figure folder.

    Returns
    -------
    list of Path
    """
    tables = {"terms.csv": result.terms, "term_pairs.csv": result.pairs, "acronyms.csv": result.acronyms}
    return write_map_files(result, tables, CHAPTER_FILES, folder)


def map_downloads_html(names: tuple[str, ...], what: str, base: str = "../figures", *, prefix: str = "") -> str:
    """One line of download links to a map's files.

    Parameters
    ----------
    names : tuple of str
        The files, in order.
    what : str
        The line's opening words.
    base : str, optional
        The folder the links point into.
    prefix : str, optional
        Put before each network file's name (``"keyword_"``).

    Returns
    -------
    str
        HTML.

    Examples
    --------
    >>> line = map_downloads_html(("keyword_network.gexf", "keywords.csv"), "Keyword map files", prefix="keyword_")
    >>> line.count("download>"), "GEXF (Gephi)</a>" in line
    (2, True)
    """
    shown = {f"{prefix}{name}": text for name, text in NETWORK_FILE_NAMES.items()}
    links = " · ".join(f'<a href="{base}/{name}" download>{shown.get(name, name)}</a>' for name in names)
    return f'<p class="network-downloads">{what}: {links}</p>'


def downloads_html(base: str = "../figures") -> str:
    """One line of download links to :data:`CHAPTER_FILES`.

    Parameters
    ----------
    base : str, optional
        Where the book's figure files are, relative to the page.

    Returns
    -------
    str
        A paragraph of :data:`CHAPTER_FILES`' links (HTML).

    Examples
    --------
    >>> downloads_html().count("download>")
    8
    """
    return map_downloads_html(CHAPTER_FILES, "Network files", base)


def map_ties(result: CooccurrenceResult, shared: str) -> str:
    """How a map's terms are tied, in its lead sentence: its pairs, which share ``shared``, and its communities.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> map_ties(SimpleNamespace(pairs=pd.DataFrame(index=[0, 1]), communities=pd.DataFrame({"community": [1]})), "a paper")
    'tied by 2 pairs that share a paper and grouped into 1 community'
    """
    n_communities = int(result.communities["community"].nunique()) if len(result.communities) else 0
    return f"tied by {count(len(result.pairs), 'pair')} that share {shared} and grouped into {count(n_communities, 'community')}"


def chapter_lead(analysis) -> dict[str, str]:
    """The chapter's first sentence (Markdown, glued as ``cooccurrence_lead``): terms, links, communities, the
    strongest pair.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> folder = write_corpus({"a.txt": "We study galaxies with a new telescope survey today."})
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
    lead = (f"Across the {subject}, **{count(n_terms, 'term')}** reach the term map "
            f"({{numref}}`fig-cooccurrence-network`), {map_ties(result, 'an abstract')}. The strongest pair is "
            f"*{md(pair['source'])}* and *{md(pair['target'])}*, together in {count(int(pair['n_papers']), 'abstract')}.")
    return {"cooccurrence_lead": lead}
