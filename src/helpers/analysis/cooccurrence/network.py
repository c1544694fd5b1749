"""The drawn network of the map: which pairs are links, at most a few a term, with communities and positions.

:func:`map_network` is the one place a table of kept terms becomes a network (the term map's and the authors'
keywords' maps alike): the pairs (:mod:`.pairs`), the links drawn (:func:`cap_links`), the Louvain communities
(:mod:`.communities`) and the layout (:mod:`.layout`).
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence.communities import louvain_partition
from helpers.analysis.cooccurrence.layout import map_layout
from helpers.analysis.cooccurrence.pairs import PAIR_COLUMNS, pair_table_of_gram

#: No term of the drawn network has more links than this (:func:`cap_links`: true by construction).
MAX_LINKS_PER_TERM = 4

# Louvain runs on every pair sharing at least this many abstracts (the drawn links are fewer): as VOSviewer,
# which clusters on every co-occurrence link, so that a term of the map without a drawn link still joins
# the community it meets most instead of being a community of its own.
CLUSTER_MIN_PAIR_PAPERS = 1


def default_min_pair_papers(pair_papers: np.ndarray, n_terms: int) -> int:
    """The smallest count (at least 2) that leaves at most ``MAX_LINKS_PER_TERM`` times ``n_terms`` pairs.

    Pairs below it are never drawn; of the pairs at or above it, :func:`cap_links` keeps at most
    ``MAX_LINKS_PER_TERM`` per term.

    Parameters
    ----------
    pair_papers : ndarray of int
        The abstracts each pair shares (``pairs["n_papers"]``).
    n_terms : int
        The terms of the map.

    Returns
    -------
    int

    Examples
    --------
    >>> default_min_pair_papers(np.array([1, 2, 2, 2, 2, 2, 3]), 1)
    3
    >>> default_min_pair_papers(np.array([], dtype=int), 5)
    2
    """
    pair_papers = np.sort(np.asarray(pair_papers))[::-1]
    budget = MAX_LINKS_PER_TERM * n_terms
    if len(pair_papers) <= budget:
        return 2
    # The (budget + 1)-th largest count must be left out, so the threshold is just above it.
    return max(2, int(pair_papers[budget]) + 1)


def cap_links(pairs: pd.DataFrame, max_links: int = MAX_LINKS_PER_TERM) -> pd.DataFrame:
    """The pairs drawn as links: strongest association first, each kept while both its terms have fewer than
    ``max_links`` links, so no term ever has more than ``max_links`` (a greedy b-matching).

    Ties are broken by shared abstracts, then by the names, so the result is the same on every run.

    Parameters
    ----------
    pairs : DataFrame
        ``source, target, n_papers, association_strength`` (:func:`helpers.analysis.cooccurrence.pair_table`).
    max_links : int
        The most links a term.

    Returns
    -------
    DataFrame
        The kept rows of ``pairs``, strongest first.

    Examples
    --------
    ``hub`` pairs with four terms; with ``max_links=2`` it keeps its two strongest:

    >>> pairs = pd.DataFrame({"source": ["a", "b", "c", "d", "a"], "target": ["hub", "hub", "hub", "hub", "b"],
    ...                       "n_papers": [2, 3, 2, 2, 2], "association_strength": [4.0, 3.0, 2.0, 1.0, 0.5]})
    >>> cap_links(pairs, 2)[["source", "target"]].values.tolist()
    [['a', 'hub'], ['b', 'hub'], ['a', 'b']]
    """
    ordered = pairs.sort_values(["association_strength", "n_papers", "source", "target"],
                                ascending=[False, False, True, True], kind="mergesort")
    links: dict[str, int] = {}
    keep = []
    for position, source, target in zip(ordered.index, ordered["source"], ordered["target"]):
        if links.get(source, 0) < max_links and links.get(target, 0) < max_links:
            links[source] = links.get(source, 0) + 1
            links[target] = links.get(target, 0) + 1
            keep.append(position)
    return ordered.loc[keep]


def term_network(terms: pd.DataFrame, pairs: pd.DataFrame, *, min_pair_papers: int, seed: int,
                 resolution: float) -> tuple[nx.Graph, pd.DataFrame, float]:
    """The drawn network: links for pairs in at least ``min_pair_papers`` abstracts, at most
    ``MAX_LINKS_PER_TERM`` per term (:func:`cap_links`), Louvain communities, layout.

    Communities (and their modularity) come from every pair in at least
    ``CLUSTER_MIN_PAIR_PAPERS`` abstracts (or ``min_pair_papers``, if fewer), so a term without a drawn link
    is not a community of its own (:func:`.communities.louvain_partition`); the layout from the association strength of
    the same pairs.

    ``terms`` has ``term, n_papers, relevance``; returns the graph, ``terms``
    with ``community, degree, link_strength, x, y`` added (sorted by
    community, then occurrences), and the partition's modularity (Newman's, at resolution 1).

    Parameters
    ----------
    terms : DataFrame
        ``term, n_papers, relevance`` (and any other columns, kept).
    pairs : DataFrame
        :func:`helpers.analysis.cooccurrence.pair_table` of ``terms``.
    min_pair_papers : int
        Abstracts a pair needs to be drawn.
    seed, resolution : int, float
        Louvain's first seed (and the layout's) and resolution.

    Returns
    -------
    networkx.Graph, DataFrame, float

    Examples
    --------
    >>> terms = pd.DataFrame({"term": ["broiler", "feed", "heat stress"], "n_papers": [2, 3, 2], "relevance": 0.0})
    >>> pairs = pd.DataFrame({"source": ["broiler", "feed"], "target": ["feed", "heat stress"], "n_papers": [2, 1],
    ...                       "association_strength": [1.5, 0.8]})
    >>> graph, placed, modularity = term_network(terms, pairs, min_pair_papers=2, seed=0, resolution=1.0)
    >>> sorted(graph.edges), placed[["term", "community", "degree"]].values.tolist()
    ([('broiler', 'feed')], [['feed', 1, 1], ['broiler', 1, 1], ['heat stress', 2, 0]])
    """
    graph = nx.Graph()
    for row in terms.itertuples(index=False):
        graph.add_node(row.term, n_papers=int(row.n_papers), relevance=float(row.relevance))
    for row in cap_links(pairs[pairs["n_papers"] >= min_pair_papers]).sort_index().itertuples(index=False):
        graph.add_edge(row.source, row.target, weight=float(row.association_strength), n_papers=int(row.n_papers))
    # Communities from every pair in at least CLUSTER_MIN_PAIR_PAPERS abstracts, as VOSviewer clusters on all
    # links, not only the drawn ones: a term without a drawn link still joins the community it meets most.
    clustered_pairs = pairs[pairs["n_papers"] >= min(CLUSTER_MIN_PAIR_PAPERS, min_pair_papers)]
    clustered = nx.Graph()
    clustered.add_nodes_from(graph.nodes)
    for row in clustered_pairs.itertuples(index=False):
        clustered.add_edge(row.source, row.target, weight=float(row.association_strength))
    if graph.number_of_edges():
        partition, modularity = louvain_partition(terms["term"], clustered_pairs, resolution=resolution, seed=seed)
    else:
        partition, modularity = [{t} for t in terms["term"]], 0.0
    positions = map_layout(graph, seed, clustered)
    ordered = sorted(partition, key=lambda c: (-len(c), min(c)))
    community_of = {term: number for number, members in enumerate(ordered, start=1) for term in members}
    nx.set_node_attributes(graph, community_of, "community")
    placed = terms.assign(
        community=terms["term"].map(community_of).astype("int64"),
        degree=terms["term"].map(dict(graph.degree())).astype("int64"),
        link_strength=terms["term"].map(dict(graph.degree(weight="weight"))).astype(float).round(6),
        x=terms["term"].map(lambda t: round(positions[t][0], 6)).astype(float),
        y=terms["term"].map(lambda t: round(positions[t][1], 6)).astype(float),
    )
    placed = placed.sort_values(["community", "n_papers", "term"], ascending=[True, False, True], ignore_index=True)
    return graph, placed, modularity


@dataclass(frozen=True)
class MapNetwork:
    """A map's kept terms made a network (:func:`map_network`).

    Attributes
    ----------
    pairs : DataFrame
        :func:`helpers.analysis.cooccurrence.pair_table` of the kept terms.
    graph : networkx.Graph
        The kept terms and their drawn links (:func:`term_network`).
    terms : DataFrame
        The kept terms with ``community, degree, link_strength, x, y`` added (:func:`term_network`).
    modularity : float
        The communities' modularity (Newman's, at resolution 1).
    min_pair_papers : int
        The abstracts a pair needed to be drawn (given, or :func:`default_min_pair_papers`).
    """

    pairs: pd.DataFrame
    graph: nx.Graph
    terms: pd.DataFrame
    modularity: float
    min_pair_papers: int


def map_network(kept_terms: pd.DataFrame, gram: sparse.csr_matrix, *, min_pair_papers: int | None, seed: int,
                resolution: float, skip_contained: bool = True) -> MapNetwork:
    """The pairs, drawn links, communities and layout of a map's kept terms.

    Parameters
    ----------
    kept_terms : DataFrame
        ``term, n_papers, relevance, score``: the terms of the map, in the order of ``gram``'s rows.
    gram : scipy.sparse.csr_matrix
        ``X.T @ X`` of the binary papers x kept terms matrix ``X`` (:func:`pair_table_of_gram`).
    min_pair_papers : int or None
        Abstracts a pair needs to be drawn; ``None``: :func:`default_min_pair_papers`.
    seed, resolution : int, float
        Louvain's first seed (and the layout's) and resolution.
    skip_contained : bool
        Leave out the pairs where one term contains the other (the term map's terms; not authors' keywords).

    Returns
    -------
    MapNetwork
        The pairs, the graph, the placed terms, the modularity and the ``min_pair_papers`` used.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [0, 1, 1]]))
    >>> kept = pd.DataFrame({"term": ["broiler", "feed", "heat stress"], "n_papers": [2, 3, 1],
    ...                      "relevance": 0.0, "score": 0.0})
    >>> drawn = map_network(kept, (X.T @ X).tocsr(), min_pair_papers=None, seed=0, resolution=1.0)
    >>> drawn.min_pair_papers, sorted(drawn.graph.edges)
    (2, [('broiler', 'feed')])
    """
    names = kept_terms["term"].tolist()
    pairs = (pair_table_of_gram(gram, names, skip_contained=skip_contained) if names
             else pd.DataFrame(columns=PAIR_COLUMNS))
    if min_pair_papers is None:
        min_pair_papers = default_min_pair_papers(pairs["n_papers"].to_numpy(), len(names))
    graph, terms, modularity = term_network(kept_terms, pairs, min_pair_papers=min_pair_papers, seed=seed,
                                            resolution=resolution)
    return MapNetwork(pairs=pairs, graph=graph, terms=terms, modularity=modularity, min_pair_papers=min_pair_papers)
