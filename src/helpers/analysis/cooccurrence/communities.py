"""The term communities read and measured: each named by the terms most its own, and how well they hold together.

:func:`community_table` is the one table of communities the chapter's table, the map's legend and the
landing page read (one source of truth for their counts). :func:`community_cohesion` measures a partition
two ways: the association strength of the pairs inside communities against that of the pairs between them,
and, where landmark terms of known sub-fields are on the map (``tests/evaluation/landmark_fields.csv``, read by
:func:`helpers.analysis.cooccurrence.evaluation.read_landmark_fields`),
how many pairs of one sub-field share a community and how many of different sub-fields do not.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

#: Terms naming a community in the table (the legend shows the first few of the same list).
TOP_TERMS = 8


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
