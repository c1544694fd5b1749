"""Which candidate terms the map keeps: an occurrence threshold, nested and stock terms left out, then the best
share by a ranking (the combined termhood score of :mod:`.termhood`, VOSviewer's relevance, or occurrences)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from helpers.analysis.cooccurrence import termhood
from helpers.analysis.cooccurrence.nested import _nested_terms_of_gram, nested_merges_of_gram
from helpers.analysis.cooccurrence.termhood import context_topics, relevance_scores, without_diagonal

#: The share of the eligible terms kept (VOSviewer's default).
RELEVANT_SHARE = 0.6
#: VOSviewer's fixed minimum of occurrences, for comparison (:func:`default_min_occurrences` grows instead).
VOSVIEWER_MIN_OCCURRENCES = 10
MIN_OCCURRENCES_FLOOR, MIN_OCCURRENCES_DIVISOR = 3, 3
#: :func:`default_min_occurrences` as a formula, for the Method section.
MIN_OCCURRENCES_RULE = f"max({MIN_OCCURRENCES_FLOOR}, ceil(sqrt(N) / {MIN_OCCURRENCES_DIVISOR}))"
#: No map keeps more terms: a larger one is not legible and its layout takes minutes.
MAX_MAP_TERMS = 500
#: How many terms just below the relevance cut the result keeps, for the report and the chapter.
BELOW_CUT_ROWS = 10


def default_min_occurrences(n_papers: int) -> int:
    """Minimum abstracts a term must occur in: ``max(3, ceil(sqrt(N) / 3))`` for ``N`` abstracts.

    VOSviewer's default is a fixed 10 occurrences; a fixed number keeps almost
    every term of a large corpus and almost none of a small one, so the
    threshold here grows with the square root of the corpus: the number of
    terms on the map grows with the corpus, but much more slowly.

    Parameters
    ----------
    n_papers : int
        The abstracts of the corpus.

    Returns
    -------
    int

    Examples
    --------
    >>> [default_min_occurrences(n) for n in (57, 495, 3_000, 20_000, 100_000)]
    [3, 8, 19, 48, 106]
    """
    return max(MIN_OCCURRENCES_FLOOR, math.ceil(math.sqrt(n_papers) / MIN_OCCURRENCES_DIVISOR))


@dataclass(frozen=True)
class TermSelection:
    """The terms kept for the map and the terms just below the cut.

    Attributes
    ----------
    kept : ndarray of int
        Column indices (into the candidate matrix) of the kept terms, in column order.
    relevance : ndarray of float
        Relevance of every candidate column (``nan`` where not scored).
    ranked : ndarray of int
        The scored candidate columns, best first (by ``score``).
    n_eligible : int
        How many candidates were scored (at least ``min_occurrences`` abstracts, nested
        and, for the combined ranking, stock terms left out).
    score : ndarray of float
        The ranking's score of every candidate column (``nan`` where not scored): the
        abstracts for ``frequency``, the relevance for ``relevance``, the combined score
        (:func:`helpers.analysis.cooccurrence.termhood.combined_scores`) for ``combined``.
    specificity, c_value, burstiness : ndarray of float
        Domain specificity, C-value and burstiness of every scored column (``nan``
        elsewhere; computed for the combined ranking only).
    nested : dict
        Shorter term -> the longer kept-eligible term it merged into (combined ranking).
    generic : ndarray of int
        Columns left out as stock terms (combined ranking).
    """

    kept: np.ndarray
    relevance: np.ndarray
    ranked: np.ndarray
    n_eligible: int
    score: np.ndarray = field(default_factory=lambda: np.array([]))
    specificity: np.ndarray = field(default_factory=lambda: np.array([]))
    c_value: np.ndarray = field(default_factory=lambda: np.array([]))
    nested: dict[str, str] = field(default_factory=dict)
    generic: np.ndarray = field(default_factory=lambda: np.array([], dtype=np.int64))
    burstiness: np.ndarray = field(default_factory=lambda: np.array([]))

    def on_columns(self, columns: np.ndarray, n_columns: int) -> "TermSelection":
        """The selection with its positions mapped to ``columns`` of a matrix of ``n_columns`` (``nan`` elsewhere)."""
        columns = np.asarray(columns, dtype=np.int64)

        def spread(values: np.ndarray) -> np.ndarray:
            full = np.full(n_columns, np.nan)
            full[columns] = values
            return full

        return TermSelection(columns[self.kept], spread(self.relevance), columns[self.ranked], self.n_eligible,
                             spread(self.score), spread(self.specificity), spread(self.c_value), dict(self.nested),
                             columns[self.generic], spread(self.burstiness))


#: The rankings :func:`select_terms` can use.
RANKINGS = ("combined", "relevance", "frequency")


#: The combined ranking asks a multi-word term for this share of the single words' minimum occurrences.
MULTI_WORD_OCCURRENCE_SHARE = 0.4


#: The combined ranking keeps ``relevant_share`` of the eligible phrases and this share of that of the
#: eligible single words: single words are far more often generic ("parameter", "sample") than phrases.
SINGLE_WORD_SHARE = 0.3


#: The combined ranking fills a map below this many terms with the next best terms of any length (never
#: above the plain ``relevant_share`` cut): on a few dozen abstracts few phrases reach the minimum
#: occurrences, and the share by length alone would leave a map of a handful of terms.
MIN_MAP_TERMS = 50


def multi_word_min_occurrences(min_occurrences: int) -> int:
    """Abstracts a multi-word term needs under the combined ranking: 40% of the minimum, at least 3 (or the minimum).

    A phrase is rarer than each of its words by construction, so the same
    threshold would leave mostly single words on the map.

    Examples
    --------
    >>> [multi_word_min_occurrences(m) for m in (3, 8, 9, 19, 106)]
    [3, 4, 4, 8, 43]
    """
    return min(min_occurrences, max(MIN_OCCURRENCES_FLOOR, math.ceil(MULTI_WORD_OCCURRENCE_SHARE * min_occurrences)))


def select_terms(binary: sparse.csr_matrix, vocabulary: np.ndarray, *, min_occurrences: int,
                 relevant_share: float, seed: int = 0, ranking: str = "combined", n_tokens: int | None = None,
                 generic_terms: frozenset[str] | None = None, occurrences: np.ndarray | None = None) -> TermSelection:
    """Terms in at least ``min_occurrences`` abstracts, then the ``relevant_share`` best of them by ``ranking``.

    At most ``MAX_MAP_TERMS`` terms are kept: a map with more is not legible
    and its layout takes minutes.

    A term that only ever occurs inside one longer term (same abstracts) is
    dropped first; relevance (:func:`.termhood.relevance_scores`) is computed among the
    remaining terms, as VOSviewer does. Ties go to the more frequent term,
    then alphabetical order.

    ``ranking``:

    * ``relevance``: VOSviewer's "create map based on text data": a minimum number of
      occurrences (VOSviewer: 10; here :func:`default_min_occurrences`, which grows with
      the corpus), then the 60% most relevant terms.
    * ``frequency``: the same cut, the most frequent terms first.
    * ``combined`` (the default): first the terms of the stock list (``generic_terms``,
      :func:`helpers.analysis.cooccurrence.termhood.read_generic_terms`, and any ``A of B``
      whose head ``A`` is one: :func:`helpers.analysis.cooccurrence.termhood.is_stock_term`) are left out and
      a term with at least :data:`NESTED_SHARE` of its abstracts inside one longer eligible
      term merges into it (:func:`nested_merges`); relevance is computed among the rest and
      combined with domain specificity against general English, the C-value and the
      burstiness (:func:`helpers.analysis.cooccurrence.termhood.combined_scores`).
      ``n_tokens`` (the corpus's words) is needed for specificity, ``occurrences`` (each
      column's occurrences in all abstracts; default: one per abstract) for burstiness.
      ``relevant_share`` of the phrases are kept, and :data:`SINGLE_WORD_SHARE` times that
      share of the single words, each the best by score; a map below :data:`MIN_MAP_TERMS`
      terms is filled with the next best of any length. With the project's lists (``generic_terms``
      ``None``), the kept terms on the any-field list
      (:func:`helpers.analysis.cooccurrence.termhood.read_any_field_generic_terms`) then leave the map
      (listed with the generic terms).

    Parameters
    ----------
    binary : scipy.sparse.csr_matrix
        Binary papers x candidate terms.
    vocabulary : ndarray of str
        The candidates, in column order.
    min_occurrences : int
        Abstracts a term needs (a phrase fewer under the combined ranking: :func:`multi_word_min_occurrences`).
    relevant_share : float
        The share of the eligible terms kept.
    seed : int
        The context topics' seed (:func:`helpers.analysis.cooccurrence.termhood.context_topics`).
    ranking : {"combined", "relevance", "frequency"}
        How the eligible terms are ranked.
    n_tokens : int, optional
        The corpus's words (default: the abstracts' candidate counts summed).
    generic_terms : frozenset of str, optional
        The stock list (default: the project's).
    occurrences : ndarray of int, optional
        Each column's occurrences in all abstracts.

    Returns
    -------
    TermSelection
        Column indices into ``binary``.

    References
    ----------
    van Eck, N. J., Waltman, L., Noyons, E. C. M., and Buter, R. K. (2010). Automatic term
    identification for bibliometric mapping. Scientometrics, 82(3), 581-596.
    van Eck, N. J., and Waltman, L. (2011). Text mining and visualization using VOSviewer.
    ISSI Newsletter, 7(3), 50-54.
    van Eck, N. J., and Waltman, L. VOSviewer Manual (version 1.6.x), CWTS, Leiden University.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [1, 0, 1], [0, 0, 1]]))
    >>> chosen = select_terms(X, np.array(["broiler", "feed", "heat stress"]), min_occurrences=2,
    ...                       relevant_share=0.6, ranking="frequency")
    >>> chosen.kept.tolist(), chosen.ranked.tolist(), chosen.n_eligible
    ([0, 1], [0, 1, 2], 3)
    """
    if ranking not in RANKINGS:
        raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, got {ranking!r}")
    binary = sparse.csr_matrix(binary, dtype=np.int64)
    papers = np.asarray(binary.sum(axis=0)).ravel()
    # Only the candidates frequent enough are looked at: there may be millions.
    frequent = np.flatnonzero(papers >= candidate_min_papers(min_occurrences, ranking))
    columns = binary[:, frequent]
    among = select_from_gram((columns.T @ columns).tocsr(), np.asarray(vocabulary)[frequent],
                             min_occurrences=min_occurrences, relevant_share=relevant_share, seed=seed,
                             ranking=ranking, n_tokens=n_tokens or int(papers.sum()),
                             generic_terms=generic_terms,
                             occurrences=None if occurrences is None else np.asarray(occurrences)[frequent])
    return among.on_columns(frequent, len(vocabulary))


def candidate_min_papers(min_occurrences: int, ranking: str = "combined") -> int:
    """The fewest abstracts a candidate needs to be looked at by :func:`select_terms` at all.

    Examples
    --------
    >>> candidate_min_papers(8), candidate_min_papers(8, "relevance")
    (4, 8)
    """
    return multi_word_min_occurrences(min_occurrences) if ranking == "combined" else min_occurrences


def select_from_gram(gram: sparse.csr_matrix, terms: np.ndarray, *, min_occurrences: int, relevant_share: float,
                     seed: int = 0, ranking: str = "combined", n_tokens: int,
                     generic_terms: frozenset[str] | None = None,
                     occurrences: np.ndarray | None = None) -> TermSelection:
    """:func:`select_terms` from the candidates' abstract counts alone: ``gram`` is ``X.T @ X`` of their
    binary papers x terms matrix ``X`` (its diagonal: each term's abstracts).

    Everything the selection asks of the abstracts is in ``gram``, so it is the sum of the
    partitions' ``X_p.T @ X_p`` and no per-abstract data is needed. ``terms`` must include
    every candidate with :func:`candidate_min_papers` abstracts or more (others may be left out);
    ``n_tokens`` is the corpus's words. Indices of the result are positions in ``terms``.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [1, 0, 1], [1, 0, 1]]))
    >>> chosen = select_from_gram((X.T @ X).tocsr(), np.array(["graph", "kernel", "bandit"]), min_occurrences=2,
    ...                           relevant_share=1.0, ranking="frequency", n_tokens=12)
    >>> chosen.kept.tolist(), chosen.n_eligible
    ([0, 1, 2], 3)
    """
    if ranking not in RANKINGS:
        raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, got {ranking!r}")
    gram = sparse.csr_matrix(gram, dtype=np.int64)
    vocabulary = np.asarray(terms)
    papers = np.asarray(gram.diagonal()).ravel()
    if ranking == "combined":
        frequent = np.flatnonzero(papers >= multi_word_min_occurrences(min_occurrences))
        multi_word = np.array([" " in str(t) for t in vocabulary[frequent]], dtype=bool)
        eligible = frequent[multi_word | (papers[frequent] >= min_occurrences)]
    else:
        eligible = np.flatnonzero(papers >= min_occurrences)
    # Later selections are subsets of this one, taken from its (much smaller) matrix rather than the whole gram.
    first, first_gram = eligible, _among(gram, eligible)
    eligible = np.setdiff1d(eligible, eligible[_nested_terms_of_gram(vocabulary[eligible], first_gram)])
    nan = np.full(len(vocabulary), np.nan)
    relevance, score, specificity, c_value, bursts = nan.copy(), nan.copy(), nan.copy(), nan.copy(), nan.copy()
    nested: dict[str, str] = {}
    generic = np.array([], dtype=np.int64)
    if ranking == "combined":
        stock = termhood.read_generic_terms() if generic_terms is None else generic_terms
        is_generic = np.array([termhood.is_stock_term(t, stock) for t in vocabulary[eligible]], dtype=bool)
        generic, eligible = eligible[is_generic], eligible[~is_generic]
        nested_positions, into = nested_merges_of_gram(vocabulary[eligible], _among(first_gram, np.searchsorted(first, eligible)))
        nested = {str(vocabulary[eligible[s]]): str(vocabulary[eligible[t]]) for s, t in zip(nested_positions, into)}
        for short, long in nested.items():
            while long in nested:  # a chain (model -> language model -> large language model) ends at the longest
                long = nested[long]
            nested[short] = long
        eligible = np.delete(eligible, nested_positions)
    if not len(eligible):
        empty = np.array([], dtype=np.int64)
        return TermSelection(empty, relevance, empty, 0, score, specificity, c_value, nested, generic, bursts)
    cooccurrences = without_diagonal(_among(first_gram, np.searchsorted(first, eligible)))
    topics = context_topics(cooccurrences, papers[eligible], seed=seed)
    relevance[eligible] = np.round(relevance_scores(cooccurrences, topics), 9)
    if ranking == "relevance":
        score[eligible] = relevance[eligible]
    elif ranking == "frequency":
        score[eligible] = papers[eligible]
    else:
        names = vocabulary[eligible].astype(str)
        values, own = termhood.c_values(names, papers[eligible].astype(float))
        c_value[eligible] = np.round(values, 9)
        specificity[eligible] = np.round(termhood.specificity(names, own, n_tokens), 9)
        total = papers[eligible] if occurrences is None else np.asarray(occurrences)[eligible]
        bursts[eligible] = np.round(termhood.burstiness(total, papers[eligible]), 9)
        score[eligible] = np.round(termhood.combined_scores(
            [relevance[eligible], specificity[eligible], c_value[eligible], bursts[eligible]],
            np.zeros(len(eligible), bool)), 9)
    ranked = eligible[np.lexsort((vocabulary[eligible].astype(str), -papers[eligible], -score[eligible]))]
    if ranking == "combined":
        kept = _best_by_length(ranked, np.array([" " in str(t) for t in vocabulary[ranked]], dtype=bool),
                               relevant_share)[:MAX_MAP_TERMS]
        if generic_terms is None:  # words of any field's abstracts leave the map, the others' scores unchanged
            any_field = termhood.read_any_field_generic_terms()
            off = np.array([termhood.is_stock_term(t, any_field) for t in vocabulary[kept]], dtype=bool)
            if off.any():
                generic, kept = np.concatenate([generic, kept[off]]), kept[~off]
    else:
        kept = ranked[:min(_share_of(relevant_share, len(eligible)), MAX_MAP_TERMS)]
    return TermSelection(np.sort(kept), relevance, ranked, len(eligible), score, specificity, c_value,
                         nested, generic, bursts)


def _among(gram: sparse.csr_matrix, columns: np.ndarray) -> sparse.csr_matrix:
    """The rows and columns ``columns`` (ascending) of ``gram``; of a matrix made by ``_among(gram, first)``, its
    rows and columns ``np.searchsorted(first, columns)`` are the same matrix for any ``columns`` within ``first``."""
    return gram[columns][:, columns].tocsr()


def _share_of(share: float, n: int) -> int:
    """``ceil(share * n)``, robust to floating-point noise (0.6 * 5 is 3, not 4)."""
    return math.ceil(share * n - 1e-9)


def _best_by_length(ranked: np.ndarray, multi_word: np.ndarray, relevant_share: float,
                    min_terms: int = MIN_MAP_TERMS) -> np.ndarray:
    """The ``relevant_share`` best phrases and the ``SINGLE_WORD_SHARE * relevant_share`` best single words.

    ``ranked`` is best first; the result keeps that order. When that keeps fewer than
    ``min(min_terms, ceil(relevant_share * len(ranked)))`` terms, the next best terms of
    any length fill it up to that number.

    Examples
    --------
    >>> multi = np.array([True, False, True, False, True, False, False, False])
    >>> _best_by_length(np.arange(8), multi, 0.6, min_terms=0).tolist()
    [0, 1, 2]
    >>> _best_by_length(np.arange(8), multi, 0.6, min_terms=4).tolist()
    [0, 1, 2, 3]
    """
    multi_word = np.asarray(multi_word, dtype=bool)
    keep = np.zeros(len(ranked), dtype=bool)
    for is_multi, share in ((True, relevant_share), (False, SINGLE_WORD_SHARE * relevant_share)):
        positions = np.flatnonzero(multi_word == is_multi)
        keep[positions[:_share_of(share, len(positions))]] = True
    missing = min(min_terms, _share_of(relevant_share, len(ranked))) - int(keep.sum())
    if missing > 0:
        keep[np.flatnonzero(~keep)[:missing]] = True
    return np.asarray(ranked)[keep]
