"""A term map's result (:class:`CooccurrenceResult`) and what the pages read from it: the pairs sharing the most
abstracts, and the papers behind a pair."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence.options import CooccurrenceSettings

#: The columns of :attr:`CooccurrenceResult.left_out` and :attr:`CooccurrenceResult.vocabulary_changes`.
LEFT_OUT_COLUMNS = ["term", "n_papers", "rule"]
CHANGE_COLUMNS = ["term", "becomes", "file"]
#: The rule of a term the ranking leaves out as generic (:func:`helpers.analysis.cooccurrence.select_terms`).
GENERIC_TERM = "generic term"


@dataclass(frozen=True)
class CooccurrenceResult:
    """Terms, pairs, the network and its communities.

    Attributes
    ----------
    terms : DataFrame
        ``term, n_papers, relevance, score, community, degree, link_strength, x, y`` (``score``: the
        ranking's, :func:`select_terms`).
    pairs : DataFrame
        :func:`pair_table` of the kept terms.
    graph : networkx.Graph
        Kept terms as nodes; edges for pairs with at least ``min_pair_papers``.
    communities : DataFrame
        ``community, n_terms, n_papers, top_terms`` (:func:`community_table`): ``n_terms`` every term of
        the community, ``n_papers`` the abstracts using any of its terms, each once; the one source of the
        chapter's table and the map's legend.
    acronyms : DataFrame
        :func:`find_acronyms`.
    merges : DataFrame
        Every merge applied (``from, to, source``; ``source`` is ``acronym``,
        ``acronym in defining abstracts``, ``thesaurus``, or ``nested``: a term with most of its
        abstracts inside one longer term, folded into it, :func:`nested_merges`).
    paper_terms : scipy.sparse.csr_matrix
        Binary papers x kept terms (rows in ``paper_ids`` order, columns in ``terms`` order).
    paper_ids : list of str
    modularity : float
    message : str
        Why there is no network to draw, or ``""``.
    settings : CooccurrenceSettings
        The thresholds, seeds and caps the map was made with, and its counts.
    below_cut : DataFrame
        ``term, n_papers, relevance``: the eligible terms just below the relevance cut, most relevant first.
    left_out : DataFrame
        ``term, n_papers, rule``: what the built-in rules leave out, most used first: the boilerplate list's nouns
        (``built-in stop word``: never a term) and the eligible terms the ranking leaves out as generic
        (``generic term``).
    vocabulary_changes : DataFrame
        ``term, becomes, file``: the candidate terms the researcher's files changed (``becomes`` empty: removed),
        and the first file that lists each.
    vocabulary_changed : tuple of int
        For each of the researcher's files, the candidate terms of these abstracts it changed.

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import example_term_map
    >>> result = example_term_map()
    >>> result.terms["term"].tolist(), result.graph.number_of_edges(), result.message
    (['broiler', 'feed intake', 'heat stress'], 2, '')
    """

    terms: pd.DataFrame
    pairs: pd.DataFrame
    graph: nx.Graph
    communities: pd.DataFrame
    acronyms: pd.DataFrame
    merges: pd.DataFrame
    paper_terms: sparse.csr_matrix
    paper_ids: list[str]
    modularity: float
    message: str
    settings: CooccurrenceSettings
    below_cut: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["term", "n_papers", "relevance",
                                                                                   "score"]))
    left_out: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=LEFT_OUT_COLUMNS))
    vocabulary_changes: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=CHANGE_COLUMNS))
    vocabulary_changed: tuple[int, ...] = ()

    def export_graph(self) -> nx.Graph:
        """The network for GraphML/GEXF: node attributes ``label, n_papers, community, relevance, x, y``.

        Returns
        -------
        networkx.Graph
            Nodes and edges in sorted order, edges with ``weight`` and ``n_papers``.
        """
        graph = nx.Graph()
        for row in self.terms.itertuples(index=False):
            graph.add_node(row.term, label=row.term, n_papers=int(row.n_papers),
                           community=int(row.community), relevance=float(row.relevance),
                           x=float(row.x), y=float(row.y))
        for u, v, data in sorted(self.graph.edges(data=True)):
            source, target = sorted((u, v))
            graph.add_edge(source, target, weight=round(float(data["weight"]), 6),
                           n_papers=int(data["n_papers"]))
        return graph


#: The pairs the chapter shows: a bounded page whatever the corpus size.
STRONGEST_PAIRS = 20


def papers_with_terms(result: CooccurrenceResult, terms: Iterable[str]) -> list[str]:
    """The ids of the papers that use every one of ``terms``, in ``paper_ids`` order.

    Parameters
    ----------
    result : CooccurrenceResult
        The term map.
    terms : iterable of str
        Terms of the map (``result.terms``).

    Returns
    -------
    list of str

    Examples
    --------
    >>> raw = pd.Series({"p1": "Galaxy clusters and quantum kernels.", "p2": "Galaxy clusters.",
    ...                  "p3": "Quantum kernels."})
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence
    >>> options = TermMapOptions(min_occurrences=2, relevant_share=1.0, thesaurus={})
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text), options)
    >>> papers_with_terms(result, ["galaxy cluster", "quantum kernel"])
    ['p1']
    """
    column_of = {term: position for position, term in enumerate(result.terms["term"])}
    matrix = result.paper_terms.tocsc()
    rows = np.ones(matrix.shape[0], dtype=bool)
    for term in terms:
        rows &= matrix[:, column_of[term]].toarray().ravel() > 0
    return [result.paper_ids[i] for i in np.flatnonzero(rows)]


def strongest_pairs(result: CooccurrenceResult, top: int = STRONGEST_PAIRS) -> pd.DataFrame:
    """The ``top`` pairs sharing the most abstracts (ties: association strength, then names): :func:`pair_table` rows.

    Parameters
    ----------
    result : CooccurrenceResult
        The term map.
    top : int
        How many pairs.

    Returns
    -------
    DataFrame
        :func:`pair_table` rows, strongest first.

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import example_term_map
    >>> strongest_pairs(example_term_map(), 2)[["source", "target", "n_papers"]].values.tolist()
    [['broiler', 'heat stress', 2], ['feed intake', 'heat stress', 2]]
    """
    return result.pairs.sort_values(["n_papers", "association_strength", "source", "target"],
                                    ascending=[False, False, True, True]).head(top).reset_index(drop=True)


def distinct_pairs(result: CooccurrenceResult, top: int) -> pd.DataFrame:
    """The strongest pairs (:func:`strongest_pairs` order) of which no two share a community or an example paper.

    A pair is taken when neither of its terms' communities is one an earlier pair took, and one of its papers
    is the example of no earlier pair; that paper (the first such in ``paper_ids`` order) is its ``example``.
    So a few strongest pairs show as many regions of the map, each with a paper of its own.

    Parameters
    ----------
    result : CooccurrenceResult
        The term map.
    top : int
        The most pairs taken.

    Returns
    -------
    DataFrame
        :func:`pair_table` columns and ``example``.

    Examples
    --------
    >>> raw = pd.Series({"p1": "Galaxy clusters and quantum kernels.", "p2": "Galaxy clusters and dark matter.",
    ...                  "p3": "Quantum kernels and dark matter.", "p4": "Galaxy clusters and quantum kernels."})
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence
    >>> options = TermMapOptions(min_occurrences=2, relevant_share=1.0, thesaurus={})
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text), options)
    >>> distinct_pairs(result, 3)[["source", "target", "n_papers", "example"]].values.tolist()
    [['galaxy cluster', 'quantum kernel', 2, 'p1']]
    """
    community = dict(zip(result.terms["term"], result.terms["community"]))
    taken_communities: set[int | None] = set()  # None: a term the terms table does not list
    taken_papers: set[str] = set()
    rows: list[dict[str, Any]] = []
    for pair in strongest_pairs(result, len(result.pairs)).to_dict("records"):
        if len(rows) == top:
            break
        theirs = {community.get(pair["source"]), community.get(pair["target"])}
        if theirs & taken_communities:
            continue
        example = next((paper for paper in papers_with_terms(result, [pair["source"], pair["target"]])
                        if paper not in taken_papers), None)
        if example is None:
            continue
        taken_communities |= theirs
        taken_papers.add(example)
        rows.append({**pair, "example": example})
    return pd.DataFrame(rows, columns=[*result.pairs.columns, "example"]).reset_index(drop=True)
