"""Pairs of kept terms, the drawn network, its Louvain communities and a seeded layout."""

from __future__ import annotations

import math
from typing import Iterable

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence.nested import contained_pairs

#: No term of the drawn network has more links than this (:func:`cap_links`: true by construction).
MAX_LINKS_PER_TERM = 4


LOUVAIN_SEED = 0


#: Louvain's resolution and pair weights (:func:`pair_weights`), chosen on the development corpus (ICML 2024,
#: 644 abstracts) against the landmark sub-fields of ``tests/evaluation/landmark_fields.csv`` and the
#: within/between association strength (:mod:`helpers.analysis.cooccurrence.communities`;
#: ``benchmarks/community_quality.py``): association strength at resolution 1 puts unrelated sub-fields of a
#: few hundred abstracts in one community (bandits with graph neural networks and causal effects).
LOUVAIN_RESOLUTION = 2.0
LOUVAIN_WEIGHTING = "information"
#: Louvain runs from this many seeds (``seed``, ``seed + 1``, ...); the partition of highest modularity (at
#: the resolution used) is kept, as VOSviewer keeps the best of several random starts.
LOUVAIN_STARTS = 10
WEIGHTINGS = ("association", "information")


LAYOUT_ITERATIONS = 100


# Louvain runs on every pair sharing at least this many abstracts (the drawn links are fewer): as VOSviewer,
# which clusters on every co-occurrence link, so that a term of the map without a drawn link still joins
# the community it meets most instead of being a community of its own.
CLUSTER_MIN_PAIR_PAPERS = 1


def default_min_pair_papers(pair_papers: np.ndarray, n_terms: int) -> int:
    """The smallest count (at least 2) that leaves at most ``MAX_LINKS_PER_TERM`` times ``n_terms`` pairs.

    Pairs below it are never drawn; of the pairs at or above it, :func:`cap_links` keeps at most
    ``MAX_LINKS_PER_TERM`` per term.

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


def pair_weights(pairs: pd.DataFrame, weighting: str = LOUVAIN_WEIGHTING) -> np.ndarray:
    """The weight of each pair for the communities.

    ``"association"``: the association strength ``a`` (VOSviewer's). ``"information"``: ``c ln a`` for a pair
    met more often than chance (``a > 1``), else 0: the pair's share of the terms' mutual information, its
    pointwise mutual information weighted by its ``c`` abstracts. Association strength alone makes one
    chance meeting of two rare terms the strongest tie of the map; weighted by the count, a tie needs to
    be both surprising and repeated.

    Examples
    --------
    >>> pairs = pd.DataFrame({"n_papers": [1, 10, 3], "association_strength": [8.0, 2.0, 0.5]})
    >>> pair_weights(pairs, "association").tolist(), pair_weights(pairs, "information").round(3).tolist()
    ([8.0, 2.0, 0.5], [2.079, 6.931, 0.0])
    """
    strength = pairs["association_strength"].to_numpy(dtype=float)
    if weighting == "association":
        return strength
    if weighting == "information":
        with np.errstate(divide="ignore"):
            return np.where(strength > 1, pairs["n_papers"].to_numpy(dtype=float) * np.log(np.maximum(strength, 1)),
                            0.0)
    raise ValueError(f"weighting must be one of {', '.join(WEIGHTINGS)}, got {weighting!r}")


def louvain_partition(terms: Iterable[str], pairs: pd.DataFrame, *, resolution: float = LOUVAIN_RESOLUTION,
                      weighting: str = LOUVAIN_WEIGHTING, seed: int = LOUVAIN_SEED,
                      starts: int = LOUVAIN_STARTS) -> tuple[list[set[str]], float]:
    """Louvain communities of ``terms`` on ``pairs`` weighted by :func:`pair_weights`, best of ``starts`` seeds.

    Nodes and edges enter the graph in sorted order, so the partition depends on the terms and pairs, not on
    the order of the tables. Returns the partition and its modularity (Newman's, resolution 1, on the same
    weights: 0 is no better than chance).

    Examples
    --------
    >>> pairs = pd.DataFrame({"source": ["a", "c", "b"], "target": ["b", "d", "c"], "n_papers": [4, 4, 1],
    ...                       "association_strength": [2.0, 2.0, 0.5]})
    >>> partition, modularity = louvain_partition("abcd", pairs)
    >>> sorted(sorted(c) for c in partition), round(modularity, 3)
    ([['a', 'b'], ['c', 'd']], 0.5)
    """
    graph = nx.Graph()
    graph.add_nodes_from(sorted(set(terms)))
    weights = pair_weights(pairs, weighting)
    graph.add_weighted_edges_from(sorted((s, t, float(w)) for s, t, w in zip(pairs["source"], pairs["target"], weights)
                                         if w > 0))
    if not graph.number_of_edges():
        return [{t} for t in graph.nodes], 0.0
    best: list[set[str]] | None = None
    best_quality = -math.inf
    for start in range(starts):
        partition = nx.community.louvain_communities(graph, weight="weight", resolution=resolution, seed=seed + start)
        quality = nx.community.modularity(graph, partition, weight="weight", resolution=resolution)
        if quality > best_quality + 1e-12:
            best, best_quality = partition, quality
    assert best is not None, f"no partition from {starts} starts (at least one is needed)"
    return best, float(nx.community.modularity(graph, best, weight="weight"))


def pair_table(binary: sparse.csr_matrix, terms: list[str]) -> pd.DataFrame:
    """Every unordered pair of terms that share at least one paper, except where one term contains the other.

    Columns ``source, target`` (alphabetical within the pair), ``n_papers``
    (papers with both), ``association_strength`` (VOSviewer's normalisation
    ``2 m c_ij / (k_i k_j)``, with ``k_i`` the total co-occurrences of term i
    and ``m`` the total over all pairs) and ``jaccard`` (``c_ij / (c_i + c_j -
    c_ij)`` with ``c_i`` the papers of term i). No Python loop over pairs. A term
    and a longer term that contains it (``network``, ``neural network``) are no
    pair: they co-occur by construction, and their co-occurrence counts in no
    ``k_i`` or ``m``.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]]))
    >>> pair_table(X, ["a", "b", "c"])
      source target  n_papers  association_strength   jaccard
    0      a      b         2              1.666667  0.666667
    1      a      c         1              1.111111  0.333333
    2      b      c         2              1.666667  0.666667
    """
    binary = sparse.csr_matrix(binary, dtype=np.int64)
    return pair_table_of_gram((binary.T @ binary).tocsr(), terms)


def pair_table_of_gram(gram: sparse.csr_matrix, terms: list[str], *, skip_contained: bool = True) -> pd.DataFrame:
    """:func:`pair_table` from ``gram = X.T @ X`` of the binary papers x terms matrix ``X`` (a sum of the
    partitions' products: no per-paper data needed). ``skip_contained=False`` keeps a term and a longer term
    containing it as a pair (authors' keywords: a paper gives both by choice, not by construction)."""
    together = sparse.csr_matrix(gram, dtype=np.int64)
    papers_per_term = np.asarray(together.diagonal()).ravel()
    nested = contained_pairs(np.asarray(terms, dtype=object)) if skip_contained else []
    if nested:  # one term inside the other ("language model", "large language model") is no pair
        rows, columns = (np.array(side, dtype=np.int64) for side in zip(*nested))
        mask = sparse.csr_matrix((np.ones(2 * len(rows)), (np.r_[rows, columns], np.r_[columns, rows])),
                                 shape=together.shape)
        together = (together - together.multiply(mask)).tocsr()
        together.eliminate_zeros()
    upper = sparse.triu(together, k=1).tocoo()
    c_ij = upper.data.astype(float)
    link_strength = np.asarray(together.sum(axis=1)).ravel() - papers_per_term
    m = c_ij.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        strength = 2 * m * c_ij / (link_strength[upper.row] * link_strength[upper.col])
    jaccard = c_ij / (papers_per_term[upper.row] + papers_per_term[upper.col] - c_ij)
    names = np.asarray(terms, dtype=object)
    first, second = names[upper.row], names[upper.col]
    swap = first > second
    source = np.where(swap, second, first)
    target = np.where(swap, first, second)
    table = pd.DataFrame({
        "source": source.astype(str), "target": target.astype(str), "n_papers": upper.data.astype(np.int64),
        "association_strength": np.round(strength, 6), "jaccard": np.round(jaccard, 6),
    })
    return table.sort_values(["source", "target"], ignore_index=True)


def _layout(graph: nx.Graph, seed: int, similarity: nx.Graph | None = None) -> dict[str, tuple[float, float]]:
    """Seeded layout: the largest linked component fills [-1, 1]; smaller ones and lone terms ring it.

    The largest component is laid out by :func:`vos_layout` on the association strengths of
    ``similarity`` (every pair counted, drawn or not; default: the drawn links); the small
    components by a spring layout.

    A spring layout of the whole graph pushes small components far out and
    squeezes the main one into the centre, so each component is laid out on
    its own and the small ones sit on a ring around the main one.
    """
    components = sorted((sorted(c) for c in nx.connected_components(graph) if len(c) > 1),
                        key=lambda c: (-len(c), c[0]))
    alone = [n for n in sorted(graph.nodes) if graph.degree(n) == 0]
    positions: dict[str, tuple[float, float]] = {}
    if components:
        main = components[0]
        strengths = similarity if similarity is not None else ordered_subgraph(graph, main)
        positions.update(vos_layout(ordered_subgraph(strengths, main), main, seed=seed))
    satellites = [c for c in components[1:]] + [[n] for n in alone]
    ring = 1.25 if components else 1.0
    for members, angle in zip(satellites, np.linspace(0, 2 * np.pi, len(satellites), endpoint=False)):
        centre = np.array([ring * np.cos(angle), ring * np.sin(angle)])
        if len(members) == 1:
            positions[members[0]] = (round(float(centre[0]), 9), round(float(centre[1]), 9))
            continue
        local = _spring(ordered_subgraph(graph, members), seed, members, radius=0.04 * math.sqrt(len(members)))
        positions.update({n: (float(centre[0] + x), float(centre[1] + y)) for n, (x, y) in local.items()})
    return positions


VOS_ITERATIONS = 300
VOS_FULL_TERMS, VOS_MIN_ITERATIONS = 250, 75
# The layout has converged when no step longer than this lowers its energy (the map spans about 2).
VOS_MIN_STEP = 1e-3


def vos_layout(similarity: nx.Graph, nodes: list[str], *, seed: int,
               iterations: int = VOS_ITERATIONS) -> dict[str, tuple[float, float]]:
    """VOS mapping (van Eck et al. 2010), seeded: distance on the map reflects association strength.

    Minimises ``V = sum_{i<j} s_ij d_ij**2 - sum_{i<j} d_ij`` (VOSviewer's attraction 2,
    repulsion 1) over positions, ``s_ij`` the association strength (edge ``weight``,
    divided by its mean) and ``d_ij`` the distance: strongly associated terms sit close,
    every pair repels a little. Gradient descent from seeded random positions, with a
    step that grows while ``V`` falls and halves when it does not (at most ``iterations``
    steps, until no step of ``VOS_MIN_STEP`` lowers ``V``); the result is centred and
    scaled into [-1, 1].

    References
    ----------
    van Eck, N. J., Waltman, L., Dekker, R., and van den Berg, J. (2010). A comparison of two
    techniques for bibliometric mapping: Multidimensional scaling and VOS. Journal of the
    American Society for Information Science and Technology, 61(12), 2405-2416.

    Examples
    --------
    >>> g = nx.Graph([("a", "b", {"weight": 9.0}), ("b", "c", {"weight": 0.1}), ("a", "c", {"weight": 0.1})])
    >>> p = vos_layout(g, ["a", "b", "c"], seed=0)
    >>> d = lambda u, v: float(np.hypot(p[u][0] - p[v][0], p[u][1] - p[v][1]))
    >>> d("a", "b") < d("a", "c") and d("a", "b") < d("b", "c")
    True
    """
    n = len(nodes)
    if n == 1:
        return {nodes[0]: (0.0, 0.0)}
    # Each step costs n**2: beyond VOS_FULL_TERMS terms the steps shrink so the time stays about the same.
    iterations = max(VOS_MIN_ITERATIONS, int(iterations * min(1.0, (VOS_FULL_TERMS / n) ** 2)))
    index = {node: i for i, node in enumerate(nodes)}
    s = np.zeros((n, n))
    for u, v, data in similarity.edges(data=True):
        if u in index and v in index and u != v:
            s[index[u], index[v]] = s[index[v], index[u]] = float(data.get("weight", 1.0))
    positive = s[s > 0]
    s /= positive.mean() if len(positive) else 1.0

    def energy_and_gradient(x: np.ndarray) -> tuple[float, np.ndarray]:
        dx = x[:, 0, None] - x[None, :, 0]
        dy = x[:, 1, None] - x[None, :, 1]
        distance = np.hypot(dx, dy)
        np.fill_diagonal(distance, 1.0)
        energy = 0.5 * float((s * distance * distance).sum() - (distance.sum() - n))
        pull = 2 * s - 1 / distance
        np.fill_diagonal(pull, 0.0)
        return energy, np.column_stack([(pull * dx).sum(axis=1), (pull * dy).sum(axis=1)])

    x = np.random.default_rng(seed).normal(size=(n, 2))
    energy, gradient = energy_and_gradient(x)
    step = 1.0
    for _ in range(iterations):
        norm = float(np.sqrt((gradient ** 2).sum()))
        if norm < 1e-9:
            break
        candidate = x - step * gradient / norm
        new_energy, new_gradient = energy_and_gradient(candidate)
        if new_energy < energy:
            x, energy, gradient, step = candidate, new_energy, new_gradient, step * 1.1
        else:
            step *= 0.5
            if step < VOS_MIN_STEP:  # no step that lowers V is longer than this: converged
                break
    x -= x.mean(axis=0)
    x /= max(float(np.abs(x).max()), 1e-12)
    return {node: (float(a), float(b)) for node, (a, b) in zip(nodes, x)}


def ordered_subgraph(graph: nx.Graph, nodes: Iterable[str]) -> nx.Graph:
    """A copy of the subgraph on ``nodes`` with nodes and edges in sorted order.

    ``graph.subgraph`` iterates its nodes in the order of a Python set, which
    changes from one process to the next (string hashing is randomised), and a
    seeded layout depends on node order: this keeps layouts byte-identical.
    """
    members = sorted(set(nodes))
    keep = set(members)
    ordered = nx.Graph()
    ordered.add_nodes_from((n, graph.nodes[n]) for n in members)
    ordered.add_edges_from(sorted((min(u, v), max(u, v), d) for u, v, d in graph.edges(members, data=True)
                                  if u in keep and v in keep))
    return ordered


def _spring(graph: nx.Graph, seed: int, nodes: list[str], *, radius: float) -> dict[str, tuple[float, float]]:
    """Seeded spring layout of a connected graph, centred and scaled to ``radius``."""
    raw = nx.spring_layout(graph, weight="weight", seed=seed, k=2.0 / math.sqrt(len(nodes)),
                           iterations=LAYOUT_ITERATIONS, method="force")
    coordinates = np.array([raw[n] for n in nodes])
    coordinates -= coordinates.mean(axis=0)
    coordinates *= radius / max(np.abs(coordinates).max(), 1e-12)
    return {n: (float(x), float(y)) for n, (x, y) in zip(nodes, coordinates)}




PAIR_COLUMNS = ["source", "target", "n_papers", "association_strength", "jaccard"]


def term_network(terms: pd.DataFrame, pairs: pd.DataFrame, *, min_pair_papers: int, seed: int,
                 resolution: float) -> tuple[nx.Graph, pd.DataFrame, float]:
    """The drawn network: links for pairs in at least ``min_pair_papers`` abstracts, at most
    ``MAX_LINKS_PER_TERM`` per term (:func:`cap_links`), Louvain communities, layout.

    Communities (and their modularity) come from every pair in at least
    ``CLUSTER_MIN_PAIR_PAPERS`` abstracts (or ``min_pair_papers``, if fewer), so a term without a drawn link
    is not a community of its own (:func:`louvain_partition`); the layout from the association strength of
    the same pairs.

    ``terms`` has ``term, n_papers, relevance``; returns the graph, ``terms``
    with ``community, degree, link_strength, x, y`` added (sorted by
    community, then occurrences), and the partition's modularity (Newman's, at resolution 1).
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
    positions = _layout(graph, seed, clustered)
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
