"""Termhood: how much a candidate reads as a term of the field, not as any field's vocabulary.

Four signals, each a small function, combined by :func:`combined_scores`:

* **Relevance** (:func:`relevance_scores`; van Eck et al. 2010, as VOSviewer): how unevenly a term's
  co-occurrences spread over the topics of the map (:func:`context_topics`); a term met with every topic is
  general.
* **Domain specificity** (:func:`specificity`): ``log10`` of how much more often the term
  occurs in the corpus than in general English. The general-English frequencies are
  ``wordfreq``'s (Speer 2022; its data ships inside the wheel), looked up once per distinct
  word (:func:`english_word_frequency`, cached); a phrase's frequency combines its words'
  as wordfreq does for phrases, ``1 / f = sum_i 1 / f_i``.
* **C-value** (:func:`c_values`; Frantzi, Ananiadou and Mima 2000): a candidate's
  frequency minus the mean frequency of the longer candidates that contain it, times a
  length weight, so that a phrase seen mostly inside longer ones is not credited twice.
* **Burstiness** (:func:`burstiness`; Church and Gale 1995, Katz 1996): the mean
  occurrences of a term in the abstracts that use it. A term that names a paper's topic is
  used again in the same abstract ("reward" three times in an RL abstract); a word any
  abstract uses once in passing ("parameter", "nature") rarely is.
* **Stock phrases** (:func:`read_generic_terms`): an editable list of terms any abstract
  uses ("experimental result", "real-world scenario") or so broad in machine learning that
  they say nothing ("model", "performance"); they never reach the map.

References
----------
Church, K. W., and Gale, W. A. (1995). Poisson mixtures. Natural Language Engineering, 1(2),
163-190.
Frantzi, K., Ananiadou, S., and Mima, H. (2000). Automatic recognition of multi-word terms:
the C-value/NC-value method. International Journal on Digital Libraries, 3(2), 115-130.
Katz, S. M. (1996). Distribution of content words and phrases in text and language
modelling. Natural Language Engineering, 2(1), 15-59.
Speer, R. (2022). rspeer/wordfreq: v3.0. Zenodo. https://doi.org/10.5281/zenodo.7199437
van Eck, N. J., Waltman, L., Noyons, E. C. M., and Buter, R. K. (2010). Automatic term identification for
bibliometric mapping. Scientometrics, 82(3), 581-596.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Iterable, Sequence

import numpy as np
from scipy import sparse, special

from helpers.analysis.text.word_classes import fold_phrase

#: Frequency given to a word wordfreq does not know (a Zipf value of 0: once per billion words).
UNKNOWN_WORD_FREQUENCY = 1e-9

#: The signals of the combined score (:func:`combined_scores`), in the order of :data:`SCORE_WEIGHTS`.
SIGNALS = ("relevance", "specificity", "C-value", "burstiness")

#: Weight of each signal in the combined score, in the order of :data:`SIGNALS`.
SCORE_WEIGHTS = (1.0, 1.0, 1.0, 1.0)

#: The relevance score's smoothing (co-occurrences spread like the corpus) and number of topics.
RELEVANCE_SMOOTHING = 10.0
RELEVANCE_TOPICS = 20
#: The most frequent terms whose co-occurrence profiles define the topics of the relevance score.
CONTEXT_TERMS = 500


@lru_cache(maxsize=None)
def english_word_frequency(word: str) -> float:
    """A word's frequency in general English (``wordfreq``, all its sources), once per distinct word.

    Examples
    --------
    >>> english_word_frequency("the") > english_word_frequency("kernel") > english_word_frequency("rlhf")
    True
    >>> english_word_frequency("qwertyzxcv")
    1e-09
    """
    from wordfreq import word_frequency  # lazy: large word lists

    return max(float(word_frequency(word, "en")), UNKNOWN_WORD_FREQUENCY)


def english_frequencies(terms: Iterable[str]) -> np.ndarray:
    """General-English frequency of each term: ``1 / f = sum_i 1 / f_i`` over its words (wordfreq's rule).

    Examples
    --------
    >>> f = english_frequencies(["neural", "network", "neural network"])
    >>> bool(np.isclose(1 / f[2], 1 / f[0] + 1 / f[1]))
    True
    """
    return np.array([1.0 / sum(1.0 / english_word_frequency(w) for w in str(t).split()) for t in terms])


def specificity(terms: Sequence[str] | np.ndarray, frequencies: np.ndarray, n_tokens: int) -> np.ndarray:
    """``log10(p_corpus / p_english)``: how many times more frequent in the corpus than in English (log 10).

    ``p_corpus = f / n_tokens`` with ``f`` the term's frequency (abstracts, or C-value's
    nested-corrected frequency) and ``n_tokens`` the words of the corpus.

    Examples
    --------
    >>> specificity(["respect", "kernel"], np.array([30.0, 30.0]), 100_000).round(1).tolist()
    [0.4, 1.9]
    """
    corpus = np.maximum(np.asarray(frequencies, dtype=float), 1.0) / max(int(n_tokens), 1)
    return np.log10(corpus / english_frequencies(terms))


def c_values(terms: Sequence[str] | np.ndarray, frequencies: np.ndarray,
             candidates: Sequence[str] | np.ndarray | None = None,
             candidate_frequencies: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """C-value of each term and its nested-corrected frequency.

    ``C(a) = log2(|a| + 1) * (f(a) - mean_{b in T_a} f(b))``, with ``|a|`` the words of
    ``a`` and ``T_a`` the longer candidates that contain ``a`` as a run of words (the
    second factor is ``f(a)`` when there is none). Frantzi et al. weight by ``log2 |a|``,
    which is 0 for a single word; ``log2(|a| + 1)`` keeps single words comparable.

    Parameters
    ----------
    terms, frequencies : the terms scored and their frequencies.
    candidates, candidate_frequencies : every candidate that may contain them (default: ``terms``).

    Returns
    -------
    c_value, own_frequency : ndarray of float

    Examples
    --------
    >>> c, own = c_values(["network", "neural network", "deep neural network"], np.array([10.0, 8.0, 2.0]))
    >>> own.tolist(), c.round(2).tolist()
    ([5.0, 6.0, 2.0], [5.0, 9.51, 4.0])
    """
    frequencies = np.asarray(frequencies, dtype=float)
    if candidates is None:
        candidates, candidate_frequencies = terms, frequencies
    index = {str(t): i for i, t in enumerate(terms)}
    total = np.zeros(len(terms))
    count = np.zeros(len(terms))
    for candidate, frequency in zip(candidates, np.asarray(candidate_frequencies, dtype=float)):
        words = str(candidate).split()
        inside: set[int] = set()
        for length in range(1, len(words)):
            for start in range(len(words) - length + 1):
                position = index.get(" ".join(words[start:start + length]))
                if position is not None:
                    inside.add(position)
        for position in inside:
            total[position] += frequency
            count[position] += 1
    own = frequencies - np.divide(total, count, out=np.zeros(len(terms)), where=count > 0)
    lengths = np.array([len(str(t).split()) for t in terms], dtype=float)
    return np.log2(lengths + 1) * own, own


def burstiness(occurrences: np.ndarray, papers: np.ndarray) -> np.ndarray:
    """Mean occurrences of each term in the abstracts that use it: ``occurrences / papers`` (at least 1).

    Content words come in bursts (Church and Gale 1995; Katz 1996): once a text
    is about a topic, the topic's term is used again, while a word of any
    field is used once in passing. A term with no abstract scores 1.

    Examples
    --------
    >>> burstiness(np.array([9, 4, 0]), np.array([3, 4, 0])).tolist()
    [3.0, 1.0, 1.0]
    """
    occurrences, papers = np.asarray(occurrences, dtype=float), np.asarray(papers, dtype=float)
    return np.maximum(np.divide(occurrences, papers, out=np.ones(len(papers)), where=papers > 0), 1.0)


def percentile_ranks(values: np.ndarray) -> np.ndarray:
    """Each value's rank among ``values`` scaled to (0, 1] (ties share their mean rank).

    Examples
    --------
    >>> percentile_ranks(np.array([3.0, 1.0, 2.0, 2.0])).tolist()
    [1.0, 0.25, 0.625, 0.625]
    """
    from scipy.stats import rankdata  # lazy: slow to import

    values = np.asarray(values, dtype=float)
    return rankdata(values, method="average") / max(len(values), 1) if len(values) else values


def combined_scores(signals: Sequence[np.ndarray], generic: np.ndarray,
                    weights: Sequence[float] | None = None) -> np.ndarray:
    """The combined termhood score: the weighted geometric mean of the signals' percentile ranks.

    ``score = (prod_k R_k^w_k)^(1 / sum_k w_k)``, each ``R_k`` the term's percentile rank
    (:func:`percentile_ranks`) on signal ``k`` among the candidates scored (the signals of
    :data:`SIGNALS`, weights :data:`SCORE_WEIGHTS`); a term of the stock list scores 0.
    Ranks put the signals on one scale; the geometric mean asks a term to do well on all.

    Examples
    --------
    >>> combined_scores([np.array([0.1, 0.5, 0.3]), np.array([2.0, 1.0, 3.0]), np.array([5.0, 9.0, 7.0])],
    ...                 np.array([False, False, True]), weights=(1, 1, 1)).round(3).tolist()
    [0.42, 0.693, 0.0]
    """
    weight = np.asarray(SCORE_WEIGHTS if weights is None else weights, dtype=float)
    if len(weight) != len(signals):
        raise ValueError(f"{len(signals)} signals but {len(weight)} weights")
    ranks = np.vstack([percentile_ranks(signal) for signal in signals])
    score = np.exp((weight[:, None] * np.log(np.maximum(ranks, 1e-12))).sum(axis=0) / weight.sum())
    return np.where(np.asarray(generic, dtype=bool), 0.0, score)


def is_stock_term(term: str, stock: frozenset[str]) -> bool:
    """Whether a term is generic by the stock list: it is on the list, or it is ``A of B`` with ``A`` on it.

    In "number of auditors" or "variety of graph datasets" the head noun is the word before
    ``of`` ("number", "variety"), and a phrase whose head is a stock term says no more than
    its head.

    Examples
    --------
    >>> stock = frozenset({"number", "variety", "respect"})
    >>> [is_stock_term(t, stock) for t in ("respect", "number of auditor", "mixture of expert", "graph number")]
    [True, True, False, False]
    """
    term = str(term)
    return term in stock or (" of " in term and term.split(" of ", 1)[0] in stock)


def _resource_text(name: str) -> str:
    """A list file shipped in ``helpers/analysis/resources/``."""
    return resources.files("helpers.analysis").joinpath("resources", name).read_text("utf-8")


def _phrase_lines(content: str) -> list[list[str]]:
    """The phrases of a list file, each as its lower-case words: one a line, blank lines and ``#`` comments left out."""
    return [line.lower().split() for line in content.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@lru_cache(maxsize=1)
def _generic_resource() -> frozenset[str]:
    return parse_generic_terms(_resource_text("generic_terms.txt"))


def parse_generic_terms(content: str) -> frozenset[str]:
    """The terms of a stock-phrase list: one a line, ``#`` comments; plural nouns are made singular.

    Examples
    --------
    >>> sorted(parse_generic_terms("# stock phrases\\nexperimental result\\n\\nReal-world scenarios"))
    ['experimental result', 'real-world scenario']
    """
    return frozenset(fold_phrase(words) for words in _phrase_lines(content))


def count_generic_terms() -> int:
    """How many phrases the stock-phrase list holds (its distinct lines, lower-cased, comments left out).

    It is ``len(read_generic_terms())`` for the list as shipped (a test holds them equal), counted without the
    dictionary that makes plural nouns singular, so a page that only states the count loads no dictionary.

    Returns
    -------
    int

    Examples
    --------
    >>> count_generic_terms() > 100
    True
    """
    return len({" ".join(words) for words in _phrase_lines(_resource_text("generic_terms.txt"))})


def read_generic_terms() -> frozenset[str]:
    """The project's stock-phrase list, ``resources/generic_terms.txt`` (edit it and rebuild)."""
    return _generic_resource()


@lru_cache(maxsize=1)
def read_any_field_generic_terms() -> frozenset[str]:
    """Words of any field's abstracts taken off a map after scoring, ``resources/generic_terms_any_field.txt``.

    Examples
    --------
    >>> {"overview", "author", "illustrative example"} <= read_any_field_generic_terms()
    True
    """
    return parse_generic_terms(_resource_text("generic_terms_any_field.txt"))


def context_topics(cooccurrences: sparse.spmatrix, papers: np.ndarray, *, n_topics: int = RELEVANCE_TOPICS,
                   seed: int = 0) -> np.ndarray:
    """A topic for each term: the terms' co-occurrence profiles clustered by k-means (seeded).

    Only the ``CONTEXT_TERMS`` most frequent terms are clustered (by their
    co-occurrences with each other, the term itself included so that two
    terms that meet get alike profiles); every other term gets topic ``-1``
    and counts in no topic. This keeps the step fast for thousands of terms.

    Parameters
    ----------
    cooccurrences : scipy.sparse matrix
        Terms x terms, the abstracts holding both.
    papers : ndarray of int
        Each term's abstracts.
    n_topics : int
        The most topics (fewer when fewer terms).
    seed : int
        K-means' seed.

    Returns
    -------
    ndarray of int

    Examples
    --------
    >>> c = sparse.csr_matrix(np.array([[0, 5, 0, 0], [5, 0, 0, 0], [0, 0, 0, 5], [0, 0, 5, 0]]))
    >>> context_topics(c, np.array([5, 5, 5, 5]), n_topics=2).tolist()
    [1, 1, 0, 0]
    """
    from sklearn.cluster import KMeans  # lazy: slow to import
    from sklearn.preprocessing import normalize  # lazy: slow to import
    from threadpoolctl import threadpool_limits  # lazy: only where threads are limited

    matrix = sparse.csr_matrix(cooccurrences, dtype=float)
    n_terms = matrix.shape[0]
    topics = np.full(n_terms, -1, dtype=np.int64)
    context = np.sort(np.argsort(-np.asarray(papers), kind="stable")[:CONTEXT_TERMS])
    n_topics = max(1, min(n_topics, len(context)))
    if n_topics == 1:
        topics[context] = 0
        return topics
    among = matrix[context][:, context]
    with_self = among + sparse.diags(np.asarray(among.sum(axis=1)).ravel() + 1.0)
    profiles = normalize(normalize(with_self.tocsr(), norm="l1").toarray())
    # One thread: on a shared machine k-means' thread pool is slower than a single thread, and results match.
    with threadpool_limits(1):
        topics[context] = KMeans(n_clusters=n_topics, n_init=4, random_state=seed).fit_predict(profiles)
    return topics


def relevance_scores(cooccurrences: sparse.spmatrix, topics: np.ndarray | None = None, *,
                     smoothing: float = RELEVANCE_SMOOTHING) -> np.ndarray:
    """How unevenly each term's co-occurrences spread over the topics of the map (VOSviewer's idea).

    Following van Eck et al. (2010), as VOSviewer does, a term whose
    co-occurrences spread evenly over all topics is general (``model``,
    ``result``) and one whose co-occurrences concentrate on a few topics is
    specific. The score is the Kullback-Leibler divergence of the term's
    co-occurrence profile over the topics (:func:`context_topics`) from the
    profile of all co-occurrences, ``sum_T p_iT ln(p_iT / q_T)``, with
    ``p_iT = (c_iT + s q_T) / (k_i + s)``: ``c_iT`` the co-occurrences of
    term ``i`` with terms of topic ``T``, ``k_i`` all its co-occurrences, and
    ``s = smoothing`` co-occurrences spread like the corpus, so that a term
    seen in two abstracts does not look specific by chance alone.

    Parameters
    ----------
    cooccurrences : sparse matrix
        Terms x terms, ``c_ij`` abstracts holding both terms (the diagonal is ignored).
    topics : ndarray of int, optional
        Topic of each term (``-1``: in no topic); default: each term is its own topic.

    Returns
    -------
    ndarray of float
        One score a term; higher is more specific.

    Examples
    --------
    Terms 0 and 1 meet both topics; terms 2 and 3 meet only topic 0 and are the most specific:

    >>> c = sparse.csr_matrix(np.array([[0, 9, 9, 9], [9, 0, 9, 0], [9, 9, 0, 0], [9, 0, 0, 0]]))
    >>> relevance_scores(c, np.array([0, 0, 1, 1]), smoothing=0).round(3).tolist()
    [0.174, 0.032, 0.47, 0.47]
    """
    matrix = without_diagonal(sparse.csr_matrix(cooccurrences, dtype=float))
    n_terms = matrix.shape[0]
    topics = np.arange(n_terms) if topics is None else np.asarray(topics)
    counted = topics >= 0
    membership = sparse.csr_matrix((np.ones(int(counted.sum())), (np.flatnonzero(counted), topics[counted])),
                                   shape=(n_terms, int(topics.max()) + 1 if n_terms else 0))
    by_topic = np.asarray((matrix @ membership).todense())
    k = by_topic.sum(axis=1)
    if not k.sum():
        return np.zeros(n_terms)
    q = by_topic.sum(axis=0) / k.sum()
    present = q > 0
    p = (by_topic[:, present] + smoothing * q[present]) / (k + smoothing)[:, None]
    return special.xlogy(p, p / q[present]).sum(axis=1)


def without_diagonal(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    """The matrix with its diagonal removed (``setdiag(0)`` is slow on large sparse matrices)."""
    result = (matrix - sparse.diags_array(matrix.diagonal(), dtype=matrix.dtype)).tocsr()
    result.eliminate_zeros()
    return result
