"""The term communities: found by Louvain, named by the terms most their own, and measured.

:func:`louvain_partition` groups the map's terms (best of several seeded starts, on pair weights that ask a tie
to be both surprising and repeated: :func:`pair_weights`). :func:`community_table` is the one table of
communities the chapter's table, the map's legend and the landing page read (one source of truth for their
counts). :func:`community_cohesion` measures a partition two ways: the association strength of the pairs
inside communities against that of the pairs between them, and, where landmark terms of known sub-fields are on
the map (``tests/evaluation/landmark_fields.csv``, read by
:func:`helpers.analysis.cooccurrence.evaluation.read_landmark_fields`), how many pairs of one sub-field share a
community and how many of different sub-fields do not.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Iterable

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse

#: Terms naming a community in the table (the legend shows the first few of the same list).
TOP_TERMS = 8

#: Louvain's first seed (the term map's ``seed`` by default).
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
#: The pair weights :func:`pair_weights` knows.
WEIGHTINGS = ("association", "information")


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


def term_cohesion(terms: pd.DataFrame, pairs: pd.DataFrame) -> pd.Series:
    """How much each term belongs to its community: its co-occurrences inside the community, times the share of
    all its co-occurrences they are (``c_in ** 2 / c_all``), indexed by term.

    A frequent term met everywhere has many co-occurrences in its community but a small share of them; a
    term met only there has a share of 1. The product ranks first the terms both frequent in and proper
    to the community.

    Examples
    --------
    >>> terms = pd.DataFrame({"term": ["a", "b", "c"], "community": [1, 1, 2]})
    >>> pairs = pd.DataFrame({"source": ["a", "a"], "target": ["b", "c"], "n_papers": [3, 1]})
    >>> term_cohesion(terms, pairs).to_dict()
    {'a': 2.25, 'b': 3.0, 'c': 0.0}
    """
    community = dict(zip(terms["term"], terms["community"]))
    source, target = pairs["source"].to_numpy(), pairs["target"].to_numpy()
    counts = pairs["n_papers"].to_numpy(dtype=float)
    inside = np.array([community.get(s) == community.get(t) for s, t in zip(source, target)], dtype=bool)
    every = pd.Series(np.r_[counts, counts], index=np.r_[source, target]).groupby(level=0).sum()
    within = pd.Series(np.r_[counts * inside, counts * inside], index=np.r_[source, target]).groupby(level=0).sum()
    every, within = every.reindex(terms["term"], fill_value=0.0), within.reindex(terms["term"], fill_value=0.0)
    return (within ** 2 / every.where(every > 0, 1.0)).round(6)


def community_table(terms: pd.DataFrame, pairs: pd.DataFrame, paper_terms: sparse.csr_matrix) -> pd.DataFrame:
    """``community, n_terms, n_papers, top_terms``: one row per community, in community order.

    ``n_terms`` counts every term of the community (drawn or not); ``n_papers`` the abstracts using any of
    its terms, each once (``paper_terms``: papers x ``terms``, binary); ``top_terms`` its :data:`TOP_TERMS`
    terms by :func:`term_cohesion` (ties: more abstracts, then the name).

    Examples
    --------
    >>> terms = pd.DataFrame({"term": ["a", "b", "c"], "community": [1, 1, 2], "n_papers": [2, 1, 1]})
    >>> pairs = pd.DataFrame({"source": ["a"], "target": ["b"], "n_papers": [1]})
    >>> community_table(terms, pairs, sparse.csr_matrix(np.array([[1, 1, 0], [1, 0, 1]])))
       community  n_terms  n_papers top_terms
    0          1        2         2      a, b
    1          2        1         1         c
    """
    columns = ["community", "n_terms", "n_papers", "top_terms"]
    if terms.empty:
        return pd.DataFrame(columns=columns)
    ranked = terms.assign(cohesion=term_cohesion(terms, pairs).to_numpy()).sort_values(
        ["community", "cohesion", "n_papers", "term"], ascending=[True, False, False, True], kind="mergesort")
    ids = terms["community"].to_numpy()
    rows = []
    for community, members in ranked.groupby("community", sort=True):
        used = paper_terms[:, np.flatnonzero(ids == community)].getnnz(axis=1) > 0
        rows.append({"community": int(community), "n_terms": len(members), "n_papers": int(used.sum()),
                     "top_terms": ", ".join(members["term"].head(TOP_TERMS))})
    return pd.DataFrame(rows, columns=columns)


@dataclass(frozen=True)
class CommunityCohesion:
    """A partition of the map's terms measured.

    Attributes
    ----------
    within, between : float
        Association strength of the pairs inside communities (between communities) taken together: their
        co-occurrences over the co-occurrences expected by chance (``sum c_ij / sum k_i k_j / 2m``, every pair
        counted, sharing an abstract or not), i.e. the mean association strength weighted by the expected
        count. Above 1, more than chance.
    n_together, n_same_field : int
        Pairs of landmark terms of one sub-field on the map, and how many of them share a community.
    n_apart, n_other_field : int
        Pairs of landmark terms of different sub-fields on the map, and how many of them do not.
    """

    within: float
    between: float
    n_together: int
    n_same_field: int
    n_apart: int
    n_other_field: int

    @property
    def ratio(self) -> float:
        """``within / between`` (0 when nothing lies between communities)."""
        return self.within / self.between if self.between else 0.0


def community_cohesion(terms: pd.DataFrame, pairs: pd.DataFrame, fields: dict[str, str] | None = None
                       ) -> CommunityCohesion:
    """Measure the communities of ``terms`` (``term, community``) with ``pairs`` (``source, target, n_papers``).

    ``fields`` maps landmark terms to their sub-field
    (:func:`helpers.analysis.cooccurrence.evaluation.read_landmark_fields`); terms are compared
    as written.

    Examples
    --------
    Two communities, each tied inside, one pair across:

    >>> terms = pd.DataFrame({"term": ["a", "b", "c", "d"], "community": [1, 1, 2, 2]})
    >>> pairs = pd.DataFrame({"source": ["a", "c", "b"], "target": ["b", "d", "c"], "n_papers": [4, 4, 1]})
    >>> m = community_cohesion(terms, pairs, {"a": "x", "b": "x", "c": "y"})
    >>> round(m.within, 3), round(m.between, 3), (m.n_together, m.n_same_field, m.n_apart, m.n_other_field)
    (3.6, 0.222, (1, 1, 2, 2))
    """
    names = terms["term"].tolist()
    community = dict(zip(terms["term"], terms["community"]))
    index = {term: position for position, term in enumerate(names)}
    n = len(names)
    counts = sparse.coo_matrix((pairs["n_papers"].to_numpy(dtype=float),
                                (pairs["source"].map(index).to_numpy(), pairs["target"].map(index).to_numpy())),
                               shape=(n, n)).toarray() if n else np.zeros((0, 0))
    counts = counts + counts.T
    k = counts.sum(axis=1)
    m = counts.sum() / 2
    labels = np.array([community[t] for t in names])
    upper = np.triu_indices(n, 1)
    same = (labels[:, None] == labels[None, :])[upper]
    observed = counts[upper]
    expected = (np.outer(k, k) / (2 * m))[upper] if m else np.zeros(len(observed))

    def ratio(mask: np.ndarray) -> float:
        return float(observed[mask].sum() / expected[mask].sum()) if expected[mask].sum() else 0.0

    fields = fields or {}
    landmarks = [t for t in names if t in fields]
    same_field = [(community[a] == community[b]) for a, b in itertools.combinations(landmarks, 2)
                  if fields[a] == fields[b]]
    other_field = [(community[a] != community[b]) for a, b in itertools.combinations(landmarks, 2)
                   if fields[a] != fields[b]]
    return CommunityCohesion(within=ratio(same), between=ratio(~same), n_together=int(sum(same_field)),
                             n_same_field=len(same_field), n_apart=int(sum(other_field)),
                             n_other_field=len(other_field))
