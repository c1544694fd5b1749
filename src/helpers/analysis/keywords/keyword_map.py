"""The map of authors' keywords: counted once per paper, kept by a minimum of papers, tied by association
strength, grouped by Louvain, laid out and exported with the term map's own code
(:func:`helpers.analysis.cooccurrence.network.map_network`), so the term map's figure, interactive view and
VOSviewer/Gephi exports apply to it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence.communities import LOUVAIN_RESOLUTION, LOUVAIN_SEED, community_table
from helpers.analysis.cooccurrence.network import MAX_LINKS_PER_TERM, map_network
from helpers.analysis.cooccurrence.options import CooccurrenceSettings
from helpers.analysis.cooccurrence.result import CooccurrenceResult
from helpers.analysis.cooccurrence.selection import MAX_MAP_TERMS, MIN_MAP_TERMS, default_min_occurrences
from helpers.analysis.keywords.normalise import (
    TermEdits,
    compact_form,
    edit_function,
    keyword_form,
    keyword_table,
    paper_keyword_sets,
)
from helpers.analysis.settings import check_whole

__all__ = ["KeywordMap", "analyse_keywords", "default_keyword_minimum", "NO_KEYWORDS"]

#: Why there is no keyword map when no paper carries keywords.
NO_KEYWORDS = "no paper of the corpus carries authors' keywords"


@dataclass(frozen=True)
class KeywordMap:
    """The keyword map and how its keywords were read.

    Attributes
    ----------
    network : CooccurrenceResult
        The map in the term map's form, so its drawing, interactive view and exports apply unchanged:
        ``terms`` are the keywords (``relevance`` 0 and ``score`` the papers: keywords are kept by
        occurrences alone), ``pairs`` every pair sharing a paper, ``merges`` every written form counted as
        another (``source`` ``variant``, or ``vocabulary`` for a thesaurus replacement). In its ``settings``,
        ``n_papers`` counts the papers with keywords, ``n_candidates`` the distinct keywords,
        ``n_eligible`` those in at least ``min_occurrences`` papers, ``n_tokens`` the keywords counted (one a
        paper), ``n_generic`` the keywords the stop terms left out; ``ranking`` is ``"frequency"``.
    variants : DataFrame
        :func:`helpers.analysis.keywords.normalise.keyword_table`: each written form, its keyword, its papers.
    message : str
        Why there is no map (:data:`NO_KEYWORDS`, or the network's own message), or ``""``.

    Examples
    --------
    >>> keyword_map = analyse_keywords(["p1", "p2"], ["Broilers; Heat stress", "broiler; heat-stress"])
    >>> sorted(keyword_map.tables), keyword_map.message
    (['keyword_pairs', 'keyword_variants', 'keywords'], '')
    """

    network: CooccurrenceResult
    variants: pd.DataFrame
    message: str

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """The CSV outputs by file stem: ``keywords``, ``keyword_pairs``, ``keyword_variants``.

        Returns
        -------
        dict of str to DataFrame
        """
        return {"keywords": self.network.terms, "keyword_pairs": self.network.pairs,
                "keyword_variants": self.variants}


def analyse_keywords(paper_ids: list[str], cells: list[object], *, min_occurrences: int | None = None,
                     vocabulary: TermEdits | Callable[[str], str | None] | None = None, seed: int = LOUVAIN_SEED,
                     resolution: float = LOUVAIN_RESOLUTION) -> KeywordMap:
    """The keyword map of the papers ``paper_ids`` with their ``keywords`` cells ``cells`` (``; ``-separated).

    Parameters
    ----------
    paper_ids, cells : list
        The papers and their keyword cells, in corpus order (a cell may be empty or missing).
    min_occurrences : int, optional
        Papers a keyword needs to be on the map (default
        :func:`default_keyword_minimum`).
        At most :data:`helpers.analysis.cooccurrence.selection.MAX_MAP_TERMS` keywords are kept, most papers first.
    vocabulary : TermEdits or callable, optional
        The researcher's thesaurus and stop terms (``apply(term) -> str | None``, or that function).
    seed, resolution : int, float
        Louvain's first seed and resolution (the term map's).

    Returns
    -------
    KeywordMap

    Examples
    --------
    >>> ids = ["p1", "p2", "p3", "p4"]
    >>> cells = ["Broilers; Heat stress", "broiler; heat-stress; Feed", "Feed; Broiler", None]
    >>> keyword_map = analyse_keywords(ids, cells, min_occurrences=2)
    >>> keyword_map.network.terms[["term", "n_papers"]].sort_values("term").values.tolist()
    [['broiler', 3], ['feed', 2], ['heat stress', 2]]
    >>> keyword_map.network.pairs[["source", "target", "n_papers"]].values.tolist()
    [['broiler', 'feed', 2], ['broiler', 'heat stress', 2], ['feed', 'heat stress', 1]]
    """
    check_whole(min_occurrences, "min_occurrences", minimum=1, optional=True)
    if len(paper_ids) != len(cells):
        raise ValueError(f"{len(paper_ids)} papers but {len(cells)} keyword cells")
    edit = edit_function(vocabulary)
    variants = keyword_table(cells, edit)
    sets = paper_keyword_sets(cells, variants)
    with_keywords = sum(1 for keywords in sets if keywords)
    counts = pd.Series([k for keywords in sets for k in keywords], dtype=object).value_counts()
    counts = counts.rename_axis("term").reset_index(name="n_papers").sort_values(
        ["n_papers", "term"], ascending=[False, True], kind="mergesort", ignore_index=True)
    minimum = (default_keyword_minimum(counts["n_papers"].to_numpy(), with_keywords) if min_occurrences is None
               else int(min_occurrences))
    eligible = counts[counts["n_papers"] >= minimum]
    kept = eligible.head(MAX_MAP_TERMS).sort_values("term", ignore_index=True)
    names = kept["term"].astype(str).tolist()
    column = {name: position for position, name in enumerate(names)}
    rows = [row for row, keywords in enumerate(sets) for k in keywords if k in column]
    columns = [column[k] for keywords in sets for k in keywords if k in column]
    binary = sparse.csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, columns)),
                               shape=(len(paper_ids), len(names)))
    kept_terms = pd.DataFrame({"term": names, "n_papers": kept["n_papers"].astype("int64").to_numpy(),
                               "relevance": 0.0, "score": kept["n_papers"].astype(float).to_numpy()})
    drawn = map_network(kept_terms, (binary.T @ binary).tocsr(), min_pair_papers=None, seed=seed,
                        resolution=resolution, skip_contained=False)
    message = ""
    if not any(_has_keywords(cell) for cell in cells):
        message = NO_KEYWORDS
    elif drawn.terms.empty:
        message = f"no keyword is given by at least {minimum} papers"
    elif not drawn.graph.number_of_edges():
        message = f"no pair of keywords shares at least {drawn.min_pair_papers} papers, so the map has no links"
    order = [column[t] for t in drawn.terms["term"]]
    paper_terms = binary[:, order].tocsr() if order else binary
    settings = CooccurrenceSettings(
        min_occurrences=minimum, relevant_share=1.0, min_pair_papers=drawn.min_pair_papers, louvain_seed=seed,
        resolution=resolution, n_papers=with_keywords, n_candidates=len(counts), n_eligible=len(eligible),
        relevance_smoothing=0.0, relevance_topics=0, max_map_terms=MAX_MAP_TERMS, max_term_words=0,
        max_links_per_term=MAX_LINKS_PER_TERM, ranking="frequency", n_tokens=int(counts["n_papers"].sum()),
        n_generic=int(variants.loc[variants["keyword"] == "", "written"].map(str).nunique()), n_nested=0)
    network = CooccurrenceResult(
        terms=drawn.terms, pairs=drawn.pairs, graph=drawn.graph,
        communities=community_table(drawn.terms, drawn.pairs, paper_terms),
        acronyms=pd.DataFrame(columns=["acronym", "long_form", "n_papers"]), merges=_merges(variants),
        paper_terms=paper_terms, paper_ids=[str(p) for p in paper_ids], modularity=drawn.modularity,
        message=message, settings=settings)
    return KeywordMap(network=network, variants=variants, message=message)


#: The fewest papers a keyword of the default map needs, however few keywords reach the term map's minimum.
KEYWORD_MIN_FLOOR = 2


def default_keyword_minimum(papers_per_keyword: np.ndarray, n_papers: int, *, min_terms: int = MIN_MAP_TERMS) -> int:
    """The papers a keyword needs to be on the map by default: the term map's minimum for ``n_papers`` papers
    with keywords (:func:`helpers.analysis.cooccurrence.default_min_occurrences`), lowered while fewer than
    ``min_terms`` keywords reach it (as the term map fills a small corpus's map up to that many terms), never below
    :data:`KEYWORD_MIN_FLOOR`. A paper gives a handful of keywords where its abstract gives a hundred terms, so
    keywords reach a minimum far more rarely.

    Parameters
    ----------
    papers_per_keyword : ndarray of int
        Each keyword's papers.
    n_papers : int
        The papers with keywords.
    min_terms : int
        The keywords a default map asks for.

    Returns
    -------
    int

    Examples
    --------
    >>> default_keyword_minimum(np.array([9] * 60 + [2] * 10), 100)  # 60 keywords reach the term map's 4
    4
    >>> default_keyword_minimum(np.array([5] * 20 + [3] * 40 + [2] * 5), 100)
    3
    >>> default_keyword_minimum(np.array([3, 2, 1]), 100)
    2
    """
    minimum = default_min_occurrences(n_papers)
    counts = np.asarray(papers_per_keyword)
    while minimum > KEYWORD_MIN_FLOOR and int((counts >= minimum).sum()) < min_terms:
        minimum -= 1
    return minimum


def _has_keywords(cell: object) -> bool:
    """Whether a ``keywords`` cell names any keyword at all (before the vocabulary)."""
    return isinstance(cell, str) and any(part.strip() for part in cell.split(";"))


def _merges(variants: pd.DataFrame) -> pd.DataFrame:
    """``from, to, source``: each written form of a keyword written more than one way (``variant``), or replaced
    by the vocabulary (``vocabulary``)."""
    forms = variants.loc[variants["keyword"] != ""].groupby("keyword")["written"].nunique()
    rows = []
    for written, keyword in zip(variants["written"], variants["keyword"]):
        if not keyword:
            continue
        if compact_form(keyword_form(written)) != compact_form(keyword):
            rows.append((written, keyword, "vocabulary"))
        elif written != keyword and forms.get(keyword, 0) > 1:
            rows.append((written, keyword, "variant"))
    return pd.DataFrame(rows, columns=["from", "to", "source"]).astype(object)
