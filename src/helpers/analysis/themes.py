"""Themes: TF-IDF + NMF topic models, with the number of themes chosen by a stated rule.

For every candidate number of themes ``k`` the model is fitted with several
seeds and scored on three things a reader can check:

* **coherence**: mean NPMI of each theme's top 10 terms, from document
  co-occurrence in the same corpus (-1 never together, 0 independent, 1 always);
* **diversity**: share of unique terms among all themes' top 25 terms;
* **stability**: mean best-match cosine similarity of the themes of two runs
  with different seeds (1 means every seed finds the same themes).

Coherence and diversity are the means over the seeds' runs: the quality a run at that
``k`` can be expected to have, not the luck of the best seed. The rule
(:data:`SELECTION_RULE`): among the candidates whose stability and diversity both
reach :data:`MIN_STABILITY` and :data:`MIN_DIVERSITY`, the ``k`` with the highest
coherence wins; if none qualifies, the ``k`` with the highest mean of the three
scores scaled to [0, 1]. Ties go to the smaller ``k``.

Selection runs stop early (:data:`SELECTION_TOL`); the chosen ``k`` is then fitted
to the usual tolerance (:data:`FINAL_TOL`) with the seed whose selection run fitted
best. ``benchmarks/selection.py`` measures what this costs and changes against five
fully converged runs per ``k``. A scikit-learn LDA with the chosen ``k``, fitted on the
selection's abstracts, is the comparison the chapter shows (:attr:`ThemeModel.comparison`,
computed when first asked for: the command line never needs it).
"""

from __future__ import annotations

import math
import operator
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

if TYPE_CHECKING:
    from sklearn.decomposition import NMF, LatentDirichletAllocation

from helpers.analysis.cooccurrence.counting import PartitionCandidates, bucket_counts, partition_summary
from helpers.analysis.cooccurrence.relevance import NESTED_SHARE
from helpers.analysis.cooccurrence.termhood import read_generic_terms
from helpers.analysis.engine.local import (MAX_CHUNK_ITEMS, BackgroundCall, LocalPartitions, PartitionRunner, partition_bounds,
                                       reduce_tree, run_in_threads, start_in_thread, worker_count)
from helpers.analysis.terms import is_noun_phrase, word_classes
from helpers.analysis.theme_labels import theme_labels
from helpers.analysis.text import TokenizedCorpus, analysis_texts_to_tokens, segments

__all__ = [
    "ThemesError",
    "ThemeModel",
    "candidate_ks",
    "npmi_coherence",
    "topic_diversity",
    "stability",
    "fit_themes",
    "start_themes",
    "start_partitioned_themes",
    "npmi_of_counts",
    "PendingThemes",
    "compare_with_lda",
    "model_fitting",
    "SELECTION_RULE",
    "choose_k",
    "theme_terms",
    "theme_counts",
]

N_COHERENCE_TERMS = 10
N_DIVERSITY_TERMS = 25
N_SEEDS = 3
SELECTION_TOL = 1e-2
FINAL_TOL = 1e-3
MAX_CANDIDATES = 10
SELECTION_SAMPLE = 1000
MAX_TERMS = 20_000
FINAL_SAMPLE = 10_000
MIN_PARALLEL_DOCUMENTS = 100
#: The name of the final fit's background thread.
FINAL_FIT_THREAD = "helpers-theme-fit"
MIXED_THRESHOLD = 0.5
MIN_DOCUMENTS = 4
MIN_STABILITY = 0.8
MIN_DIVERSITY = 0.8
MAX_DF = 0.6
SELECTION_RULE = (
    f"among the candidate k whose stability is at least {MIN_STABILITY:.2f} and whose diversity is at "
    f"least {MIN_DIVERSITY:.2f}, "
    "the k with the highest coherence (both means over the seeds' runs); if none qualifies, the k with "
    "the highest mean of the three scores min-max scaled over the candidates; ties go to the smaller k"
)


class ThemesError(ValueError):
    """The corpus cannot be modelled (too few abstracts or terms)."""


class KOutOfRange(ThemesError):
    """The number of themes asked for is outside what the corpus allows (a user error)."""


@dataclass(frozen=True)
class ThemeModel:
    """A fitted theme model and everything the chapter shows about it.

    Attributes
    ----------
    themes : DataFrame
        ``theme, label, top_terms, n_papers, coherence`` (one row per theme, 1-based).
    paper_themes : DataFrame
        ``paper_id, theme, theme_weight``: each paper's strongest theme and the
        share of its total theme weight that theme holds.
    weights : DataFrame
        ``paper_id`` plus one column per theme: normalised document-theme weights.
    top_terms : DataFrame
        ``theme, rank, term, weight``: the 25 strongest terms of each theme.
    selection : DataFrame
        ``k, coherence, diversity, stability, score, chosen`` for each candidate k.
    selection_counts : csr_matrix
        Term counts of the abstracts the selection ran on (its own terms).
    selection_vocabulary : ndarray of str
        Those terms, in column order.
    settings : dict
        Every setting used (seeds, candidate range, sample size, rule).
    """

    themes: pd.DataFrame
    paper_themes: pd.DataFrame
    weights: pd.DataFrame
    top_terms: pd.DataFrame
    selection: pd.DataFrame
    selection_counts: sparse.csr_matrix
    selection_vocabulary: np.ndarray
    settings: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def comparison(self) -> pd.DataFrame:
        """``model, k, coherence, diversity`` for NMF and LDA at the chosen k.

        Both are fitted on the selection's abstracts (``settings["comparison_documents"]``),
        NMF to :data:`FINAL_TOL` with the final seed, LDA with the first seed, and both are
        scored on those abstracts. Computed on first use (one LDA fit).
        """
        return compare_with_lda(self)


def candidate_ks(n_documents: int) -> list[int]:
    """Candidate numbers of themes for a corpus size, at most :data:`MAX_CANDIDATES` values.

    From 2 (3 for 40 abstracts or more) to ``1.6 * sqrt(n)``, capped at 30 and
    at a fifth of the corpus.

    Examples
    --------
    >>> candidate_ks(57)
    [3, 4, 5, 6, 7, 8, 9, 10, 11]
    >>> candidate_ks(20)
    [2, 3, 4]
    >>> candidate_ks(100_000)
    [3, 6, 9, 12, 15, 18, 21, 24, 27, 30]
    """
    k_min = 3 if n_documents >= 40 else 2
    k_max = int(min(30, 1.6 * math.sqrt(n_documents), max(n_documents // 5, k_min + 1)))
    k_max = max(k_max, k_min + 1)
    values = np.unique(np.round(np.linspace(k_min, k_max, min(MAX_CANDIDATES, k_max - k_min + 1))).astype(int))
    return [int(v) for v in values]


def npmi_coherence(top_indices: list[list[int]], binary: sparse.spmatrix) -> list[float]:
    """Mean NPMI over the pairs of each theme's top terms.

    ``binary`` is the document x term presence matrix. A pair never seen
    together scores -1.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1], [0, 1, 1]]))
    >>> [round(v, 3) for v in npmi_coherence([[0, 1], [0, 2]], X)]
    [0.415, -1.0]
    """
    binary = sparse.csc_matrix(binary)
    columns = _coherence_columns(top_indices)
    sub = binary[:, columns]
    return npmi_of_counts(top_indices, columns, (sub.T @ sub).toarray(), binary.shape[0])


def _coherence_columns(top_indices: list[list[int]]) -> np.ndarray:
    """The distinct term indices of ``top_indices``, sorted."""
    return np.unique(np.concatenate([np.asarray(t, dtype=np.int64) for t in top_indices] or [[]]).astype(np.int64))


def npmi_of_counts(top_indices: list[list[int]], columns: np.ndarray, together: np.ndarray,
                   n_documents: int) -> list[float]:
    """:func:`npmi_coherence` from co-occurrence counts: ``together[i, j]`` documents hold both
    ``columns[i]`` and ``columns[j]`` (its diagonal: each term's documents); ``columns`` sorted, holding
    every index of ``top_indices``.

    Examples
    --------
    >>> together = np.array([[2, 2, 0], [2, 3, 1], [0, 1, 2]])
    >>> [round(v, 3) for v in npmi_of_counts([[0, 1], [0, 2]], np.arange(3), together, 4)]
    [0.415, -1.0]
    """
    together_all = np.asarray(together).astype(float)
    scores = []
    for indices in top_indices:
        if len(indices) < 2:
            scores.append(0.0)
            continue
        local = np.searchsorted(columns, np.asarray(indices, dtype=np.int64))
        together = together_all[np.ix_(local, local)]
        p_single = np.diag(together) / n_documents
        first, second = np.triu_indices(len(indices), 1)
        p_joint = together[first, second] / n_documents
        inside = (p_joint > 0) & (p_joint < 1)
        safe = np.where(inside, p_joint, 0.5)
        with np.errstate(divide="ignore", invalid="ignore"):  # pairs outside (0, 1) are replaced below
            npmi = np.log(safe / (p_single[first] * p_single[second])) / -np.log(safe)
        values = np.where(p_joint == 0, -1.0, np.where(p_joint == 1, 1.0, npmi))
        scores.append(float(np.mean(values)))
    return scores


def topic_diversity(top_terms: list[list[str]]) -> float:
    """Share of unique terms among all themes' top terms.

    Examples
    --------
    >>> topic_diversity([["a", "b"], ["b", "c"]])
    0.75
    """
    all_terms = [t for terms in top_terms for t in terms]
    return len(set(all_terms)) / len(all_terms) if all_terms else 0.0


def _cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    return a @ b.T


def stability(components: list[np.ndarray]) -> float:
    """Mean best-match cosine similarity of themes over all pairs of runs (Hungarian matching).

    Examples
    --------
    >>> run = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> stability([run, run[::-1]])
    1.0
    """
    from scipy.optimize import linear_sum_assignment

    values = []
    for first, second in combinations(components, 2):
        similarity = _cosine_rows(first, second)
        rows, cols = linear_sum_assignment(-similarity)
        values.append(float(similarity[rows, cols].mean()))
    return float(np.mean(values)) if values else 1.0


def _top(component: np.ndarray, n: int) -> list[int]:
    """Indices of the ``n`` largest weights, equal weights in vocabulary order (determinism).

    The same as ``np.argsort(-component, kind="stable")[:n]``, sorting only the weights
    that reach the n-th largest.

    Examples
    --------
    >>> _top(np.array([0.1, 0.5, 0.5, 0.0, 0.9]), 3)
    [4, 1, 2]
    """
    if n >= len(component):
        return [int(i) for i in np.argsort(-component, kind="stable")[:n]]
    threshold = np.partition(component, len(component) - n)[len(component) - n]
    candidates = np.flatnonzero(component >= threshold)
    order = np.argsort(-component[candidates], kind="stable")[:n]
    return [int(i) for i in candidates[order]]


def shown_terms(ranked: list[str], n: int, n_abstracts: Mapping[str, int]) -> list[str]:
    """The first ``n`` of a theme's terms by weight as the book shows them: a phrase in place of its own words.

    A single word whose abstracts hold, in at least :data:`NESTED_SHARE` of them, a noun
    phrase (by the term map's rule, :func:`helpers.analysis.terms.is_noun_phrase`) among the
    theme's first :data:`N_DIVERSITY_TERMS` terms is shown as that phrase, at the word's
    place (the rule by which the term map merges nested terms), unless a word of that phrase
    is shown already. A phrase after one of its shown words (a word used more widely than in
    the phrase) and a word after its shown phrase are left out. So a theme reads "neural
    network, graph", never "network, neural, neural network", and no phrase is shown beside
    a word of it. ``n_abstracts`` gives each term's abstracts. The model, its selection and
    its coherence in the comparisons are those of all its terms.

    Examples
    --------
    >>> counts = {"neural": 9, "network": 12, "neural network": 8, "graph": 20, "deep": 5}
    >>> shown_terms(["network", "neural", "neural network", "graph", "deep"], 3, counts)
    ['neural network', 'graph', 'deep']
    >>> counts = {"convergence": 10, "rate": 30, "bound": 5, "convergence rate": 4}
    >>> shown_terms(["convergence", "bound", "convergence rate", "rate"], 3, counts)  # 4 < 0.5 * 10
    ['convergence', 'bound', 'rate']
    >>> shown_terms(["graph", "graph neural", "neural"], 3, {"graph": 9, "graph neural": 9, "neural": 9})
    ['graph', 'neural']
    """
    phrases = [term for term in ranked[:N_DIVERSITY_TERMS] if " " in term and is_noun_phrase(term)]
    shown: list[str] = []

    def nested_in_shown(term: str) -> bool:
        return any(set(term.split()) & set(other.split()) and (" " in term) != (" " in other) for other in shown)

    for term in ranked:
        host = None if " " in term else next(
            (phrase for phrase in phrases if term in phrase.split()
             and n_abstracts[phrase] >= NESTED_SHARE * n_abstracts[term]), None)
        # A phrase after a word of it (one used more widely), or a word after its phrase, adds nothing.
        term = next((t for t in (host, term) if t is not None and t not in shown and not nested_in_shown(t)), None)
        if term is None:
            continue
        shown.append(term)
        if len(shown) == n:
            break
    return shown


@lru_cache(maxsize=100_000)
def _theme_word(word: str) -> str | None:
    """A word as the themes spell it (the term map's singular of a noun), or ``None`` for a stop word."""
    classes = word_classes(["|", word])
    return None if classes.is_stop[1] else str(classes.folded[1])


def theme_terms(text: str) -> list[str]:
    """Unigrams and bigrams of an analysis text for the topic models.

    Words are spelled as in the term map: a noun in its singular form
    (:attr:`helpers.analysis.terms.WordClasses.folded`, lemminflect's
    ``matrices -> matrix``), every other word as written; stop words, checked on
    the singular too (``frameworks``), are dropped; a bigram joins two non-stop
    words that are adjacent in the text (never across a boundary). The rule for one
    text; :func:`theme_counts` counts it for a whole corpus at once.

    Examples
    --------
    >>> from helpers.analysis.text import analysis_text
    >>> theme_terms(analysis_text("We propose graph neural networks for molecules."))
    ['graph', 'neural', 'network', 'molecule', 'graph neural', 'neural network']
    >>> theme_terms("biases of random matrices")
    ['bias', 'random', 'matrix', 'random matrix']
    """
    unigrams: list[str] = []
    bigrams: list[str] = []
    for run in segments(text):
        previous: str | None = None
        for token in run:
            spelled = _theme_word(token)
            if spelled is None:
                previous = None
                continue
            unigrams.append(spelled)
            if previous is not None:
                bigrams.append(f"{previous} {spelled}")
            previous = spelled
    return unigrams + bigrams


def alphabetical_top_terms(counts: sparse.spmatrix, columns: np.ndarray, terms: np.ndarray,
                           max_features: int | None) -> tuple[np.ndarray, np.ndarray]:
    """``columns`` and their ``terms`` in alphabetical order, cut to the ``max_features`` most frequent.

    The cut keeps alphabetical order, and ties in frequency go to the alphabetically first term.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 5, 2], [0, 1, 2]]))
    >>> columns, terms = alphabetical_top_terms(X, np.array([0, 1, 2]), np.array(["b", "c", "a"]), 2)
    >>> columns.tolist(), terms.tolist()
    ([2, 1], ['a', 'c'])
    """
    alphabetical = np.argsort(terms, kind="stable")
    columns, terms = columns[alphabetical], terms[alphabetical]
    if max_features is not None and len(columns) > max_features:
        frequency = np.asarray(counts.sum(axis=0)).ravel()[columns]
        chosen = np.sort(np.argsort(-frequency, kind="stable")[:max_features])
        columns, terms = columns[chosen], terms[chosen]
    return columns, terms


def theme_counts(
    tokens: TokenizedCorpus, *, min_df: int = 1, max_df: float = 1.0, max_features: int | None = None,
) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Counts of :func:`theme_terms` per text, without a Python loop over texts.

    The result equals ``CountVectorizer(analyzer=theme_terms, min_df=min_df,
    max_df=max_df, max_features=max_features)`` on the analysis texts (a tested
    equivalence), except that ties at the ``max_features`` cut-off keep the
    alphabetically first terms.

    Returns
    -------
    counts : csr_matrix of float64
        Texts x terms, rows in ``tokens`` order.
    vocabulary : ndarray of str
        The terms, sorted (column order).

    Each word type is spelled once (:func:`helpers.analysis.terms.word_classes`).

    Raises
    ------
    ThemesError
        When no term is left (the corpus is too small or holds only stop words).

    Examples
    --------
    >>> from helpers.analysis.text import tokenize_corpus
    >>> tokens = tokenize_corpus(["graph networks for graphs", "neural networks"], ["a", "b"])
    >>> counts, vocabulary = theme_counts(tokens)
    >>> vocabulary.tolist()
    ['graph', 'graph network', 'network', 'neural', 'neural network']
    >>> counts.toarray().astype(int).tolist()
    [[2, 1, 1, 0, 0], [0, 0, 1, 1, 1]]
    """
    classes = word_classes(tokens.vocabulary)
    folded_vocabulary, folded_id = np.unique(classes.folded.astype(str), return_inverse=True)
    folded_vocabulary = folded_vocabulary.astype(object)
    ids = tokens.token_ids
    text_of = tokens.text_index()
    keep = ~classes.is_stop[ids]
    folded_words = folded_id.astype(np.int32)[ids]
    # Each text ends with a boundary, so adjacent kept positions are in one run of one text.
    pair = keep[:-1] & keep[1:]
    n_folded = len(folded_vocabulary)
    codes = np.concatenate([folded_words[keep],
                            n_folded + folded_words[:-1][pair].astype(np.int64) * n_folded + folded_words[1:][pair]])
    rows = np.concatenate([text_of[keep], text_of[:-1][pair]])
    # Hash-based factorize: faster and lighter than sorting; column order is fixed by the terms below.
    columns, distinct = pd.factorize(codes)
    del codes
    distinct = np.asarray(distinct)
    counts = sparse.csr_matrix((np.ones(len(columns), dtype=np.int32), (rows, columns.astype(np.int32))),
                               shape=(len(tokens), len(distinct)))
    del rows, columns
    counts.sum_duplicates()
    counts = counts.astype(np.float64)
    document_frequency = np.bincount(counts.indices, minlength=len(distinct))
    mask = (document_frequency >= min_df) & (document_frequency <= max_df * len(tokens))
    kept = np.flatnonzero(mask)
    terms = np.array([
        folded_vocabulary[c] if c < n_folded
        else f"{folded_vocabulary[(c - n_folded) // n_folded]} {folded_vocabulary[(c - n_folded) % n_folded]}"
        for c in distinct[kept]
    ], dtype=object)
    kept, terms = alphabetical_top_terms(counts, kept, terms, max_features)
    if not len(kept):
        raise ThemesError("no terms remain after min_df and max_df")
    # Sorted column indices: a row's TF-IDF (a sum over its entries) is then the same bits in any partition.
    counts = counts[:, kept].tocsr()
    counts.sort_indices()
    return counts, terms


@contextmanager
def model_fitting() -> Iterator[None]:
    """The conditions every fit here runs under; enter it in the main thread, around all threads' fits.

    One BLAS thread: these matrices are small, and threaded BLAS made fits with k >= 18 up to
    ten times slower on two busy cores (fits already run in parallel). Convergence warnings are
    silenced: an unconverged run still counts, its worse fit and stability are what we measure.
    Both settings are process-wide, so threads must not enter this themselves.
    """
    from sklearn.exceptions import ConvergenceWarning
    from threadpoolctl import threadpool_limits

    with warnings.catch_warnings(), threadpool_limits(1):
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


def _fit_nmf(tfidf: sparse.spmatrix, k: int, seed: int, tol: float = FINAL_TOL) -> NMF:
    """One NMF run; call inside :func:`model_fitting`."""
    from sklearn.decomposition import NMF

    return NMF(n_components=k, init="random", random_state=seed, max_iter=300, tol=tol).fit(tfidf)


def _minmax(values: pd.Series) -> pd.Series:
    span = values.max() - values.min()
    return (values - values.min()) / span if span > 0 else pd.Series(1.0, index=values.index)


@dataclass(frozen=True)
class _Run:
    """What the selection keeps of one NMF run: its themes and how well it fitted."""

    components: np.ndarray
    error: float


def _selection_run(tfidf: sparse.spmatrix, k: int, seed: int) -> _Run:
    model = _fit_nmf(tfidf, k, seed, SELECTION_TOL)
    return _Run(model.components_, float(model.reconstruction_err_))


def _select(
    tfidf: sparse.spmatrix, binary: sparse.spmatrix, vocabulary: np.ndarray, ks: list[int],
    seeds: list[int], n_jobs: int | None,
) -> tuple[pd.DataFrame, dict[int, int]]:
    """The selection table and, for each k, the seed whose run fitted best."""
    # Larger k first, so the longest fits start early and the cores finish together.
    jobs = [(k, seed) for k in sorted(ks, reverse=True) for seed in seeds]
    # One thread more than cores: while one thread runs Python, the others run compiled code. One job: one thread.
    threads = 1 if n_jobs == 1 else worker_count(n_jobs, tfidf.shape[0], MIN_PARALLEL_DOCUMENTS) + 1
    # A copy per fit: scipy may tidy a matrix in place (sort indices, sum duplicates) while another
    # thread reads it.
    fitted = run_in_threads([(_selection_run, (tfidf.copy(), k, seed)) for k, seed in jobs], threads,
                            name="helpers-theme-selection")
    runs = dict(zip(jobs, fitted))
    rows, best_seeds = [], {}
    for k in ks:
        by_seed = [runs[k, seed] for seed in seeds]
        best_seeds[k] = seeds[int(np.argmin([run.error for run in by_seed]))]
        scores = [_scores(run.components, vocabulary, binary) for run in by_seed]
        rows.append(dict(
            k=k,
            coherence=float(np.mean([np.mean(coherence) for coherence, _ in scores])),
            diversity=float(np.mean([diversity for _, diversity in scores])),
            stability=stability([run.components for run in by_seed]),
        ))
    selection = pd.DataFrame(rows)
    selection["score"] = (_minmax(selection["coherence"]) + _minmax(selection["diversity"])
                          + _minmax(selection["stability"])) / 3
    selection["eligible"] = ((selection["stability"] >= MIN_STABILITY)
                             & (selection["diversity"] >= MIN_DIVERSITY))
    return selection, best_seeds


LDA_MAX_ITER = 10  # scikit-learn's default: the comparison costs one ordinary LDA fit


def _fit_lda(counts: sparse.csr_matrix, k: int, seed: int) -> LatentDirichletAllocation:
    from sklearn.decomposition import LatentDirichletAllocation

    lda = LatentDirichletAllocation(n_components=k, random_state=seed, learning_method="batch",
                                    max_iter=LDA_MAX_ITER)
    return lda.fit(counts)


def choose_k(selection: pd.DataFrame) -> int:
    """Apply :data:`SELECTION_RULE` to a table with ``k, coherence, score, eligible``.

    Examples
    --------
    >>> table = pd.DataFrame({"k": [2, 3, 4], "coherence": [0.2, 0.5, 0.6],
    ...                       "score": [0.9, 0.5, 0.4], "eligible": [True, True, False]})
    >>> choose_k(table)
    3
    >>> choose_k(table.assign(eligible=False))
    2
    """
    eligible = selection[selection["eligible"]]
    if len(eligible):
        best = eligible.sort_values(["coherence", "k"], ascending=[False, True]).iloc[0]
    else:
        best = selection.sort_values(["score", "k"], ascending=[False, True]).iloc[0]
    return int(best["k"])


def _labels(class_terms: np.ndarray, vocabulary: np.ndarray, shown: list[list[int]]) -> list[str]:
    """Each theme's label from its shown top terms (the themes table's ``top_terms``), by
    :data:`helpers.analysis.theme_labels.LABEL_RULE`.

    Examples
    --------
    >>> vocabulary = np.array(["bandit", "language model", "llm", "reasoning", "regret"])
    >>> class_terms = np.array([[0.0, 6, 9, 4, 0], [5, 0, 1, 0, 7]])
    >>> _labels(class_terms, vocabulary, [[2, 1, 3], [4, 0, 2]])
    ['language model · reasoning', 'regret · bandit']
    """
    return theme_labels([[str(vocabulary[i]) for i in indices[:N_COHERENCE_TERMS]] for indices in shown],
                        class_terms, [str(term) for term in vocabulary])


@dataclass(frozen=True)
class _Vocabulary:
    """The term counts every theme step shares, rows in ``paper_id`` order."""

    counts: sparse.csr_matrix
    vocabulary: np.ndarray
    paper_ids: np.ndarray
    min_df: int

    @property
    def n_documents(self) -> int:
        return self.counts.shape[0]


@dataclass(frozen=True)
class _Sample:
    """The abstracts and terms the model selection runs on."""

    rows: np.ndarray
    columns: np.ndarray
    counts: sparse.csr_matrix
    tfidf: sparse.csr_matrix


def _count_terms(tokens: TokenizedCorpus) -> _Vocabulary:
    n_documents = len(tokens)
    if n_documents < MIN_DOCUMENTS:
        raise ThemesError(
            f"themes need at least {MIN_DOCUMENTS} abstracts; this corpus has {n_documents}")
    min_df = 2 if n_documents >= 20 else 1
    try:
        counts, vocabulary = theme_counts(tokens, min_df=min_df, max_df=MAX_DF, max_features=MAX_TERMS)
    except ThemesError as error:  # only the corpus's own lack of terms: any other error is a bug to see
        raise ThemesError(f"no terms left to model after stop words ({error})") from None
    # Fit in paper_id order, so reordering the input files cannot change any theme.
    order = np.argsort(tokens.paper_ids, kind="stable")
    return _Vocabulary(counts[order], vocabulary, tokens.paper_ids[order], min_df)


def _tfidf(counts: sparse.csr_matrix) -> sparse.csr_matrix:
    """Sublinear TF-IDF weights of term counts (scikit-learn's ``TfidfTransformer``)."""
    from sklearn.feature_extraction.text import TfidfTransformer

    return TfidfTransformer(sublinear_tf=True).fit_transform(counts)


#: Abstracts weighted by one ``NMF.transform`` call: scikit-learn's transform stops when the whole call
#: has converged, so the papers of a call are fixed (consecutive ``paper_id`` ranks), never a partition.
TRANSFORM_BLOCK = MAX_CHUNK_ITEMS
THEME_COUNT_COLUMNS = ["term", "n_papers", "occurrences"]


def _partition_theme_terms(tokens: TokenizedCorpus) -> PartitionCandidates:
    """One partition's :func:`theme_counts` with every term it holds (a partition of stop words only: none)."""
    try:
        counts, terms = theme_counts(tokens)
    except ThemesError:
        return PartitionCandidates(sparse.csr_matrix((len(tokens), 0)), np.array([], dtype=object))
    return PartitionCandidates(counts, terms)


def _top_theme_terms(table: pd.DataFrame, max_terms: int) -> pd.DataFrame:
    """``table`` (``term, n_papers, occurrences``) sorted by term and cut to the ``max_terms`` most frequent
    (ties: alphabetically first), as :func:`alphabetical_top_terms` cuts.

    Examples
    --------
    >>> table = pd.DataFrame({"term": ["b", "c", "a"], "n_papers": [1, 2, 2], "occurrences": [5, 2, 2]})
    >>> _top_theme_terms(table, 2)["term"].tolist()
    ['a', 'b']
    """
    table = table.iloc[np.argsort(table["term"].to_numpy().astype(str), kind="stable")].reset_index(drop=True)
    if len(table) > max_terms:
        chosen = np.sort(np.argsort(-table["occurrences"].to_numpy(), kind="stable")[:max_terms])
        table = table.iloc[chosen].reset_index(drop=True)
    return table


def _reduce_theme_bucket(min_df: int, max_documents: float, max_terms: int, *parts: pd.DataFrame) -> pd.DataFrame:
    """One bucket's theme terms summed over the partitions: those in ``min_df`` to ``max_documents``
    abstracts, at most the ``max_terms`` most frequent (the corpus's cut keeps none beyond them).

    Examples
    --------
    >>> one = pd.DataFrame({"term": ["a", "b"], "n_papers": [2, 1], "occurrences": [3, 1]})
    >>> two = pd.DataFrame({"term": ["b", "c"], "n_papers": [1, 4], "occurrences": [2, 4]})
    >>> _reduce_theme_bucket(2, 3.0, 10, one, two).values.tolist()
    [['a', 2, 3], ['b', 2, 3]]
    """
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=THEME_COUNT_COLUMNS)
    summed = table.groupby("term", sort=False)[["n_papers", "occurrences"]].sum().reset_index()
    kept = summed[(summed["n_papers"] >= min_df) & (summed["n_papers"] <= max_documents)]
    kept = kept.astype({"term": object, "n_papers": np.int64, "occurrences": np.int64})
    return _top_theme_terms(kept[THEME_COUNT_COLUMNS], max_terms)


def _partition_theme_counts(found: PartitionCandidates, vocabulary: np.ndarray) -> sparse.csr_matrix:
    """The partition's counts in the columns of the corpus's theme ``vocabulary`` (sorted indices)."""
    position = pd.Index(np.asarray(vocabulary, dtype=object)).get_indexer(found.terms.astype(object))
    present = np.flatnonzero(position >= 0)
    selected = found.counts[:, present].tocoo()
    counts = sparse.csr_matrix((selected.data.astype(np.float64), (selected.row, position[present][selected.col])),
                               shape=(found.counts.shape[0], len(vocabulary)))
    counts.sum_duplicates()
    counts.sort_indices()
    return counts


def _take_rows(counts: sparse.csr_matrix, rows: np.ndarray) -> sparse.csr_matrix:
    return counts[rows]


def _idf(document_frequency: np.ndarray, n_documents: int) -> np.ndarray:
    """Smoothed IDF as scikit-learn's ``TfidfTransformer.fit`` computes it, from the document frequencies."""
    df = document_frequency.astype(np.float64) + 1.0
    idf = np.full_like(df, fill_value=n_documents + 1, dtype=np.float64)
    idf /= df
    np.log(idf, out=idf)
    idf += 1.0
    return idf


def _tfidf_rows(counts: sparse.csr_matrix, idf: np.ndarray) -> sparse.csr_matrix:
    """Sublinear TF-IDF of some rows with the corpus's ``idf``: the rows of :func:`_tfidf` of every abstract
    (``TfidfTransformer.transform``, row by row)."""
    from sklearn.preprocessing import normalize

    tfidf = counts.astype(np.float64, copy=True).tocsr()
    np.log(tfidf.data, tfidf.data)
    tfidf.data += 1.0
    tfidf.data *= idf[tfidf.indices]
    return normalize(tfidf, norm="l2", copy=False)


@dataclass(frozen=True)
class _PartitionedCounts:
    """The theme counts of every abstract, each partition's kept where it was counted.

    ``parts`` are handles (on ``runner``) of each partition's texts x ``vocabulary`` counts, in corpus
    order, starting at the rows ``bounds``; themes take the abstracts in ``paper_id`` order, whose
    corpus rows are ``order`` (position ``i`` is corpus row ``order[i]``).
    """

    runner: Any
    parts: list[Any]
    bounds: np.ndarray
    order: np.ndarray
    paper_ids: np.ndarray
    vocabulary: np.ndarray
    document_frequency: np.ndarray
    min_df: int

    @property
    def n_documents(self) -> int:
        return len(self.order)

    def rows(self, positions: np.ndarray) -> sparse.csr_matrix:
        """The counts of the abstracts at ``positions`` (of the ``paper_id`` order), in that order."""
        corpus_rows = self.order[positions]
        part_of = np.searchsorted(self.bounds, corpus_rows, side="right") - 1
        handles, wanted = [], []
        for part in np.unique(part_of):
            mask = part_of == part
            handles.append(self.runner.submit(_take_rows, self.parts[part], corpus_rows[mask] - self.bounds[part]))
            wanted.append(np.flatnonzero(mask))
        stacked = sparse.vstack(self.runner.gather(handles), format="csr")
        return stacked[np.argsort(np.concatenate(wanted), kind="stable")]


def _partitioned_counts(runner: Any, token_parts: Sequence[Any]) -> _PartitionedCounts:
    """The theme vocabulary of the corpus in partitions, from their counts summed by term, and each
    partition's counts in its columns (left where they were counted)."""
    summaries = runner.gather(runner.map(partition_summary, token_parts))
    paper_ids = np.array([paper for ids, _ in summaries for paper in ids], dtype=object)
    n_documents = len(paper_ids)
    if n_documents < MIN_DOCUMENTS:
        raise ThemesError(
            f"themes need at least {MIN_DOCUMENTS} abstracts; this corpus has {n_documents}")
    min_df = 2 if n_documents >= 20 else 1
    found = runner.map(_partition_theme_terms, token_parts)
    pieces = runner.map(bucket_counts, found, [runner.n_buckets] * len(found))
    reduced = runner.gather([runner.submit(_reduce_theme_bucket, min_df, MAX_DF * n_documents, MAX_TERMS,
                                           *(runner.submit(operator.getitem, piece, bucket) for piece in pieces))
                             for bucket in range(runner.n_buckets)])
    del pieces
    table = _top_theme_terms(pd.concat(reduced, ignore_index=True), MAX_TERMS)
    if not len(table):  # only the corpus's own lack of terms is a note
        raise ThemesError("no terms left to model after stop words (no terms remain after min_df and max_df)")
    vocabulary = table["term"].to_numpy().astype(str).astype(object)
    shared = runner.share(vocabulary)
    parts = runner.map(_partition_theme_counts, found, [shared] * len(found))
    bounds = np.cumsum([0] + [len(ids) for ids, _ in summaries])
    # Fit in paper_id order, so reordering the input files cannot change any theme.
    order = np.argsort(paper_ids, kind="stable")
    return _PartitionedCounts(runner, parts, bounds, order, paper_ids[order], vocabulary,
                              table["n_papers"].to_numpy(np.int64), min_df)


def _block_pieces(counts: sparse.csr_matrix, positions: np.ndarray, block_of: np.ndarray, n_blocks: int
                  ) -> list[tuple[np.ndarray, sparse.csr_matrix] | None]:
    """A partition's rows cut by transform block: ``(positions, counts)`` for each block (``None``: none)."""
    pieces: list[tuple[np.ndarray, sparse.csr_matrix] | None] = [None] * n_blocks
    for block in np.unique(block_of):
        rows = np.flatnonzero(block_of == block)
        pieces[int(block)] = (positions[rows], counts[rows])
    return pieces


@dataclass(frozen=True)
class _BlockStatistics:
    """What the theme tables need of every abstract, summed over blocks: each theme's term counts (theme x
    term) and the co-occurrence counts of the coherence terms."""

    class_terms: np.ndarray
    together: np.ndarray


def _transform_block(fitted: tuple["NMF", np.ndarray, np.ndarray, np.ndarray],
                     *pieces: tuple[np.ndarray, sparse.csr_matrix]) -> tuple[np.ndarray, _BlockStatistics]:
    """One transform block: its abstracts' theme weights (``paper_id`` order) and statistics."""
    from sklearn.exceptions import ConvergenceWarning

    model, idf, columns, coherence_columns = fitted
    positions = np.concatenate([piece[0] for piece in pieces])
    order = np.argsort(positions, kind="stable")
    counts = sparse.vstack([piece[1] for piece in pieces], format="csr")[order]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        weights = model.transform(_tfidf_rows(counts, idf)[:, columns])
    assignment = _assignment(weights)
    class_terms = np.vstack([np.asarray(counts[assignment == t + 1].sum(axis=0)).ravel()
                             for t in range(weights.shape[1])])
    present = (counts[:, coherence_columns] > 0).astype(np.int64)
    return weights, _BlockStatistics(class_terms, (present.T @ present).toarray())


def _add_statistics(*parts: _BlockStatistics) -> _BlockStatistics:
    """The sum of blocks' statistics (whole numbers: exact in any order)."""
    return _BlockStatistics(sum(part.class_terms for part in parts), sum(part.together for part in parts))


def _transform_blocks(terms: _PartitionedCounts, model: "NMF", idf: np.ndarray, columns: np.ndarray,
                      coherence_columns: np.ndarray) -> tuple[np.ndarray, _BlockStatistics]:
    """Every abstract's theme weights (``paper_id`` order), in blocks of :data:`TRANSFORM_BLOCK` consecutive
    ranks whatever the partitions: each partition sends its rows to their blocks, each block is one
    ``transform`` on the runner, and only the weights and the summed statistics come back."""
    runner, n_documents = terms.runner, terms.n_documents
    blocks = partition_bounds(n_documents, -(-n_documents // TRANSFORM_BLOCK))
    starts = np.array([start for start, _ in blocks])
    position = np.empty(n_documents, dtype=np.int64)
    position[terms.order] = np.arange(n_documents)
    fitted = runner.share((model, idf, columns, coherence_columns))
    cut, touches = [], []
    for part, (first, last) in zip(terms.parts, zip(terms.bounds[:-1], terms.bounds[1:])):
        block_of = np.searchsorted(starts, position[first:last], side="right") - 1
        cut.append(runner.submit(_block_pieces, part, position[first:last], block_of, len(blocks)))
        touches.append(set(np.unique(block_of).tolist()))
    done = [runner.submit(_transform_block, fitted, *(runner.submit(operator.getitem, pieces, block)
                                                      for pieces, touched in zip(cut, touches) if block in touched))
            for block in range(len(blocks))]
    weights = np.vstack(runner.gather([runner.submit(operator.itemgetter(0), result) for result in done]))
    statistics = reduce_tree(runner, _add_statistics, [runner.submit(operator.itemgetter(1), result) for result in done])
    return weights, statistics


def _check_k(k: int | None, ks: list[int], terms: "_Vocabulary | _PartitionedCounts") -> None:
    largest = min(terms.n_documents, len(terms.vocabulary))
    if k is not None and not 1 <= k <= largest:
        raise KOutOfRange(f"must be between 1 and {largest} for this corpus "
                          f"({terms.n_documents} abstracts, {len(terms.vocabulary)} terms), got {k}")
    if len(terms.vocabulary) < max(ks):
        raise ThemesError(f"only {len(terms.vocabulary)} distinct terms; too few for {max(ks)} themes")


def _selection_sample(terms: _PartitionedCounts, idf: np.ndarray, sample_size: int, seed: int) -> _Sample:
    """A seeded sample of ``sample_size`` abstracts and its own terms, or the whole corpus when smaller
    (then with the corpus's TF-IDF)."""
    n_documents = terms.n_documents
    if n_documents <= sample_size:
        rows = np.arange(n_documents)
        counts = terms.rows(rows)
        return _Sample(rows, np.arange(len(terms.vocabulary)), counts, _tfidf_rows(counts, idf))
    rows = np.sort(np.random.default_rng(seed).choice(n_documents, size=sample_size, replace=False))
    sample_counts = terms.rows(rows)
    columns = np.flatnonzero(np.bincount(sample_counts.indices, minlength=len(terms.vocabulary)) >= terms.min_df)
    sample_counts = sample_counts[:, columns]
    return _Sample(rows, columns, sample_counts, _tfidf(sample_counts))


def _final_rows(n_documents: int, seed: int) -> np.ndarray:
    """Rows of the final NMF fit: every abstract, or a seeded sample of :data:`FINAL_SAMPLE`."""
    if n_documents > FINAL_SAMPLE:
        return np.sort(np.random.default_rng(seed + 1).choice(n_documents, size=FINAL_SAMPLE, replace=False))
    return np.arange(n_documents)


def _scores(components: np.ndarray, vocabulary: np.ndarray, binary: sparse.spmatrix) -> tuple[list[float], float]:
    """Per-theme NPMI coherence and the diversity of a set of themes."""
    coherence = npmi_coherence([_top(c, N_COHERENCE_TERMS) for c in components], binary)
    diversity = topic_diversity([[vocabulary[i] for i in _top(c, N_DIVERSITY_TERMS)] for c in components])
    return coherence, diversity


def compare_with_lda(model: ThemeModel) -> pd.DataFrame:
    """NMF against LDA at the model's k, both fitted and scored on the selection's abstracts.

    Examples
    --------
    >>> texts = pd.Series(["graph networks learn graphs"] * 2 + ["bandit regret bounds"] * 2,
    ...                   index=["a", "b", "c", "d"])
    >>> compare_with_lda(fit_themes(texts, k=2))[["model", "k"]].values.tolist()
    [['NMF (TF-IDF)', 2], ['LDA (counts)', 2]]
    """
    settings = model.settings
    counts, vocabulary = model.selection_counts, model.selection_vocabulary
    k = settings["chosen_k"]
    with model_fitting():
        nmf = _fit_nmf(_tfidf(counts), k, settings["final_seed"])
        lda = _fit_lda(counts, k, settings["seeds"][0])
    binary = sparse.csc_matrix((counts > 0).astype(np.float64))
    rows = []
    for name, components in [("NMF (TF-IDF)", nmf.components_), ("LDA (counts)", lda.components_)]:
        coherence, diversity = _scores(components, vocabulary, binary)
        rows.append(dict(model=name, k=k, coherence=round(float(np.mean(coherence)), 6),
                         diversity=round(diversity, 6)))
    return pd.DataFrame(rows)


def _assignment(document_weights: np.ndarray) -> np.ndarray:
    """Each paper's strongest theme (1-based), 0 for a paper without any theme weight."""
    totals = document_weights.sum(axis=1)
    return np.where(totals > 0, document_weights.argmax(axis=1) + 1, 0)


def _shown_indices(components: np.ndarray, vocabulary: np.ndarray, document_frequency: np.ndarray
                   ) -> list[list[int]]:
    """Each theme's shown terms (:func:`shown_terms`) as vocabulary indices."""
    shown = []
    # Twice the shown terms are ranked, so that words shown as their phrase leave no gap.
    for component in components:
        ranked = [i for i in _top(component, 2 * N_DIVERSITY_TERMS) if component[i] > 0]
        index_of = {str(vocabulary[i]): i for i in ranked}
        n_abstracts = {term: int(document_frequency[i]) for term, i in index_of.items()}
        shown.append([index_of[t] for t in shown_terms(list(index_of), N_DIVERSITY_TERMS, n_abstracts)])
    return shown


def _theme_tables(components: np.ndarray, document_weights: np.ndarray, vocabulary: np.ndarray,
                  paper_ids: np.ndarray, class_terms: np.ndarray, shown: list[list[int]],
                  coherence: list[float], shown_coherence: list[float]) -> dict[str, pd.DataFrame]:
    """The tables of :class:`ThemeModel` that describe themes and papers.

    ``class_terms`` are the term counts summed over each theme's papers (theme x term), ``shown`` each
    theme's shown terms (:func:`_shown_indices`) and the coherences those of its top and shown terms.
    """
    k = len(components)
    totals = document_weights.sum(axis=1)
    assignment = _assignment(document_weights)
    shares = np.where(totals > 0, document_weights.max(axis=1) / np.maximum(totals, 1e-12), 0.0)
    top_rows = [dict(theme=theme, rank=rank, term=str(vocabulary[index]), weight=round(float(component[index]), 6))
                for theme, (component, indices) in enumerate(zip(components, shown), start=1)
                for rank, index in enumerate(indices, start=1)]
    themes = pd.DataFrame({
        "theme": np.arange(1, k + 1),
        "label": _labels(class_terms, vocabulary, shown),
        "top_terms": [", ".join(str(vocabulary[i]) for i in indices[:N_COHERENCE_TERMS]) for indices in shown],
        "n_papers": [int((assignment == t).sum()) for t in range(1, k + 1)],
        "coherence": [round(c, 6) for c in coherence],
        "shown_coherence": [round(c, 6) for c in shown_coherence],
    })
    paper_themes = pd.DataFrame({
        "paper_id": paper_ids,
        "theme": pd.array(np.where(assignment > 0, assignment, 0), dtype="Int64"),
        "theme_weight": np.round(shares, 6),
    })
    paper_themes.loc[assignment == 0, "theme"] = pd.NA
    normalised = document_weights / np.maximum(totals[:, None], 1e-12)
    weights = pd.DataFrame(np.round(normalised, 6), columns=[f"theme_{t}" for t in range(1, k + 1)])
    weights.insert(0, "paper_id", paper_ids)
    return dict(themes=themes, paper_themes=paper_themes, weights=weights,
                top_terms=pd.DataFrame(top_rows, columns=["theme", "rank", "term", "weight"]))


class PendingThemes:
    """A theme model whose final fit runs in a background thread; :meth:`result` waits for it.

    Made by :func:`start_themes`, so the caller can find terms and links meanwhile.
    """

    def __init__(self, final_fit: BackgroundCall, terms: _PartitionedCounts, idf: np.ndarray, sample: _Sample,
                 selection: pd.DataFrame, settings: dict[str, Any]) -> None:
        self._final_fit = final_fit
        self._terms, self._idf, self._sample = terms, idf, sample
        self._selection, self._settings = selection, settings
        self._model: ThemeModel | None = None

    def wait(self) -> None:
        """Wait until the final fit's thread has ended (whether the fit succeeded or not)."""
        self._final_fit.wait()

    def result(self) -> ThemeModel:
        """The fitted :class:`ThemeModel` (waits for the final fit the first time)."""
        if self._model is None:
            self._model = self._finish()
        return self._model

    def _finish(self) -> ThemeModel:
        terms, sample = self._terms, self._sample
        model = self._final_fit.result()
        columns = sample.columns
        components = np.zeros((model.n_components_, len(terms.vocabulary)))
        components[:, columns] = model.components_
        shown = _shown_indices(components, terms.vocabulary, terms.document_frequency)
        top = [_top(component, N_COHERENCE_TERMS) for component in components]
        shown_top = [indices[:N_COHERENCE_TERMS] for indices in shown]
        coherence_columns = _coherence_columns(top + shown_top)
        weights, statistics = _transform_blocks(terms, model, self._idf, columns, coherence_columns)
        n_documents = terms.n_documents
        tables = _theme_tables(components, weights, terms.vocabulary, terms.paper_ids, statistics.class_terms, shown,
                               npmi_of_counts(top, coherence_columns, statistics.together, n_documents),
                               npmi_of_counts(shown_top, coherence_columns, statistics.together, n_documents))
        selection = self._selection.copy()
        for column in ("coherence", "diversity", "stability", "score"):
            selection[column] = selection[column].round(6)
        return ThemeModel(selection=selection, selection_counts=sample.counts,
                          selection_vocabulary=terms.vocabulary[sample.columns], settings=dict(self._settings),
                          **tables)


def start_themes(
    texts: TokenizedCorpus | pd.Series,
    *,
    k: int | None = None,
    seed: int = 0,
    n_seeds: int = N_SEEDS,
    sample_size: int = SELECTION_SAMPLE,
    n_jobs: int | None = None,
) -> PendingThemes:
    """Choose the number of themes, then start the final fit in a background thread.

    Takes the arguments of :func:`fit_themes`, which is ``start_themes(...).result()``.
    The selection runs before this returns. Call it inside :func:`model_fitting`, and
    :meth:`PendingThemes.result` (or, on the way out after an error, :meth:`PendingThemes.wait`)
    before leaving it. With ``n_jobs=1`` the final fit runs before this returns: no thread.

    Raises
    ------
    KOutOfRange, ThemesError
        As :func:`fit_themes`.
    """
    return start_partitioned_themes(LocalPartitions(), [analysis_texts_to_tokens(texts)], k=k, seed=seed,
                                    n_seeds=n_seeds, sample_size=sample_size, n_jobs=n_jobs)


def start_partitioned_themes(
    runner: PartitionRunner,
    token_parts: Sequence[Any],
    *,
    k: int | None = None,
    seed: int = 0,
    n_seeds: int = N_SEEDS,
    sample_size: int = SELECTION_SAMPLE,
    n_jobs: int | None = None,
) -> PendingThemes:
    """:func:`start_themes` of a corpus in consecutive partitions, counted where they are.

    ``token_parts`` are handles (values, or Dask futures) of each partition's
    :class:`helpers.analysis.text.TokenizedCorpus`, in corpus order. Each partition counts its terms;
    the vocabulary comes from those counts summed by term (one reducer per bucket); only the abstracts
    the selection and the final fit use come to this process, and every abstract is weighted in
    blocks of :data:`TRANSFORM_BLOCK` consecutive ``paper_id`` ranks on ``runner``. The result is the
    same for any cut into partitions (a tested equivalence).
    """
    terms = _partitioned_counts(runner, token_parts)
    ks = candidate_ks(terms.n_documents) if k is None else [k]
    _check_k(k, ks, terms)
    idf = _idf(terms.document_frequency, terms.n_documents)

    sample = _selection_sample(terms, idf, sample_size, seed)
    if len(sample.columns) < max(ks):
        raise ThemesError(f"only {len(sample.columns)} terms in the selection sample; "
                          f"too few for {max(ks)} themes")
    seeds = list(range(seed, seed + n_seeds))
    selection, best_seeds = _select(sample.tfidf, sparse.csc_matrix((sample.counts > 0).astype(float)),
                                    terms.vocabulary[sample.columns], ks, seeds, n_jobs)
    chosen_k = choose_k(selection) if k is None else k
    selection["chosen"] = selection["k"] == chosen_k

    # The chosen k, fitted to FINAL_TOL with its best selection seed, on every abstract (or FINAL_SAMPLE),
    # with the terms the selection scored (all of them unless the selection ran on a sample).
    best_seed = best_seeds[chosen_k]
    final_rows = _final_rows(terms.n_documents, seed)
    final_tfidf = _tfidf_rows(terms.rows(final_rows), idf)[:, sample.columns]
    final_fit = start_in_thread(_fit_nmf, final_tfidf, chosen_k, best_seed,
                                name=FINAL_FIT_THREAD, background=n_jobs != 1)
    settings = dict(
        k_candidates=ks, chosen_k=chosen_k, k_given=k is not None, seeds=seeds,
        selection_documents=int(len(sample.rows)), selection_vocabulary=int(len(sample.columns)),
        selection_tol=SELECTION_TOL, final_tol=FINAL_TOL,
        final_fit_documents=int(len(final_rows)), comparison_documents=int(len(sample.rows)),
        final_seed=int(best_seed), documents=terms.n_documents, vocabulary=int(len(terms.vocabulary)),
        min_df=terms.min_df, max_df=MAX_DF, rule=SELECTION_RULE, min_stability=MIN_STABILITY,
        min_diversity=MIN_DIVERSITY, mixed_threshold=MIXED_THRESHOLD,
    )
    return PendingThemes(final_fit, terms, idf, sample, selection, settings)


def fit_themes(
    texts: TokenizedCorpus | pd.Series,
    *,
    k: int | None = None,
    seed: int = 0,
    n_seeds: int = N_SEEDS,
    sample_size: int = SELECTION_SAMPLE,
    n_jobs: int | None = None,
) -> ThemeModel:
    """Fit the theme model on a tokenised corpus (or analysis texts indexed by ``paper_id``).

    Parameters
    ----------
    texts : TokenizedCorpus or Series
        :func:`helpers.analysis.text.tokenize_corpus` of the analysis texts, or the
        :func:`helpers.analysis.text.analysis_text` of each paper indexed by ``paper_id``.
    k : int, optional
        Number of themes; chosen by :data:`SELECTION_RULE` when omitted.
    seed : int
        First seed; runs use ``seed, seed + 1, ...``.
    n_seeds : int
        Seeds per candidate k (stability needs at least 2).
    sample_size : int
        Model selection runs on a random sample of this many abstracts (seeded)
        when the corpus is larger, with the terms that occur in at least
        ``min_df`` of the sampled abstracts; its runs stop at
        :data:`SELECTION_TOL`. The chosen model is then fitted once more to
        :data:`FINAL_TOL`, with the selection's best seed and terms, on every
        abstract or on a seeded sample of :data:`FINAL_SAMPLE` when there are
        more, and every abstract is weighted by it (``NMF.transform``). The LDA comparison is
        fitted on the selection's abstracts and compared with an NMF fit of the
        chosen k on the same abstracts.
    n_jobs : int, optional
        Cores for the selection's fits (default: all), run on one thread more
        than that (1: everything in the calling thread). Results do not depend on it.

    Raises
    ------
    KOutOfRange
        When ``k`` is given and is not between 1 and the smaller of the number
        of abstracts and of terms.
    ThemesError
        With fewer than 4 abstracts or fewer terms than themes.

    Examples
    --------
    >>> texts = pd.Series(["graph networks learn graphs"] * 2 + ["bandit regret bounds"] * 2,
    ...                   index=["a", "b", "c", "d"])
    >>> model = fit_themes(texts, k=2)
    >>> model.themes["n_papers"].tolist()
    [2, 2]
    """
    with model_fitting():
        return start_themes(texts, k=k, seed=seed, n_seeds=n_seeds, sample_size=sample_size,
                            n_jobs=n_jobs).result()
