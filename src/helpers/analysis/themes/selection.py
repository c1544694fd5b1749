"""Model selection: the number of themes, chosen by a stated rule.

For every candidate number of themes ``k`` (:func:`helpers.analysis.themes.k_range.candidate_ks`) the model is fitted with several
seeds and scored on coherence, diversity and stability (:mod:`helpers.analysis.themes.scores`).

Coherence and diversity are the means over the seeds' runs: the quality a run at that
``k`` can be expected to have, not the luck of the best seed. The rule
(:data:`SELECTION_RULE`): among the candidates whose stability and diversity both
reach :data:`MIN_STABILITY` and :data:`MIN_DIVERSITY`, the ``k`` with the highest
coherence wins; if none qualifies, the ``k`` with the highest mean of the three
scores scaled to [0, 1]. Ties go to the smaller ``k``. Only candidates whose themes are of a readable size
compete: the best-fitting seed's run gives every theme at least :func:`min_theme_papers` of the abstracts
(``max(5, 1%)``, scaled to the selection's sample); when no candidate does, the ``k`` whose smallest theme is
largest. When the rule's best is the largest candidate, the range is extended once above it (:func:`more_ks`);
the candidates are searched upwards, and the search stops at the first k whose diversity is under
:data:`MIN_DIVERSITY` once a smaller k qualifies (:func:`search_done`: a larger k would be less diverse still), or
after :data:`SIZE_PATIENCE` ks in a row whose smallest theme is under the size floor (more themes hold fewer papers
each, so a larger k would be under it too); :func:`k_at_top` says when the chosen ``k`` is still the largest candidate searched.

Selection runs stop early (:data:`SELECTION_TOL`), on a seeded sample of :data:`SELECTION_SAMPLE`
abstracts when the corpus is larger (:func:`_selection_sample`); the chosen ``k`` is then fitted
to the usual tolerance (:data:`FINAL_TOL`) with the seed whose selection run fitted
best (:mod:`helpers.analysis.themes.model`). ``benchmarks/selection.py`` measures what this costs and
changes against five fully converged runs per ``k``.
"""

from __future__ import annotations

import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

import numpy as np
import pandas as pd
from scipy import sparse

if TYPE_CHECKING:
    from sklearn.decomposition import NMF

from helpers.analysis._parallel import run_in_threads, worker_count
from helpers.analysis.themes.k_range import (MAX_CANDIDATES, MIN_THEME_PAPERS, MIN_THEME_SHARE, more_ks, theme_sizes)
from helpers.analysis.themes.counting import _PartitionedCounts, _tfidf, _tfidf_rows
from helpers.analysis.themes.scores import _scores, stability
from helpers.analysis.themes.vocabulary import KOutOfRange, ThemesError

__all__ = ["SIZE_PATIENCE", "N_SEEDS", "SELECTION_TOL", "FINAL_TOL", "SELECTION_SAMPLE", "MIN_PARALLEL_DOCUMENTS",
           "MIN_STABILITY", "MIN_DIVERSITY", "SELECTION_RULE", "model_fitting", "choose_k"]

N_SEEDS = 3
SELECTION_TOL = 1e-2
FINAL_TOL = 1e-3
SELECTION_SAMPLE = 1000
MIN_PARALLEL_DOCUMENTS = 100
MIN_STABILITY = 0.8
MIN_DIVERSITY = 0.8
#: The search stops after this many ks in a row under the size floor, once a smaller k qualifies.
SIZE_PATIENCE = 2
SELECTION_RULE = (
    f"among the candidate k whose every theme holds at least {MIN_THEME_PAPERS} papers and "
    f"{MIN_THEME_SHARE:.0%} of the papers (in the best-fitting seed's run), "
    f"those whose stability is at least {MIN_STABILITY:.2f} and whose diversity is at "
    f"least {MIN_DIVERSITY:.2f}, "
    "the k with the highest coherence (both means over the seeds' runs); if none qualifies, the k with "
    "the highest mean of the three scores min-max scaled over the candidates; ties go to the smaller k; "
    "when no candidate's themes are all that large, the k whose smallest theme is largest; when the best is the "
    f"largest candidate, up to {MAX_CANDIDATES // 2} more above it at the same step are searched once; "
    f"the candidates are searched upwards, and the search stops at the first k whose diversity is under "
    f"{MIN_DIVERSITY:.2f} once a smaller k qualifies, or after {SIZE_PATIENCE} k in a row with a theme under that "
    "size once a smaller k qualifies"
)


def rescore(selection: pd.DataFrame) -> pd.DataFrame:
    """The selection table (``k, coherence, diversity, stability, ...``) in order of ``k`` with its ``score`` (the
    three scores min-max scaled over all its candidates, averaged) made again, as after an extended search.

    Examples
    --------
    >>> table = pd.DataFrame({"k": [4, 2], "coherence": [0.5, 0.1], "diversity": [1.0, 0.8], "stability": [0.9, 0.9]})
    >>> rescore(table)["score"].round(3).tolist()
    [0.333, 1.0]
    """
    selection = selection.sort_values("k", ignore_index=True)
    selection["score"] = (_minmax(selection["coherence"]) + _minmax(selection["diversity"])
                          + _minmax(selection["stability"])) / 3
    return selection


@contextmanager
def model_fitting() -> Iterator[None]:
    """The conditions every fit here runs under; enter it in the main thread, around all threads' fits.

    One BLAS thread: these matrices are small, and threaded BLAS made fits with k >= 18 up to
    ten times slower on two busy cores (fits already run in parallel). Convergence warnings are
    silenced: an unconverged run still counts, its worse fit and stability are what we measure.
    Both settings are process-wide, so threads must not enter this themselves.

    Yields
    ------
    None
        Inside it, fits run with one BLAS thread and no convergence warnings.

    Examples
    --------
    >>> from threadpoolctl import threadpool_info
    >>> with model_fitting():
    ...     print(all(pool["num_threads"] == 1 for pool in threadpool_info()))
    True
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
    smallest: int


def _selection_run(tfidf: sparse.spmatrix, k: int, seed: int) -> _Run:
    from sklearn.decomposition import NMF

    model = NMF(n_components=k, init="random", random_state=seed, max_iter=300, tol=SELECTION_TOL)
    document_weights = model.fit_transform(tfidf)
    return _Run(model.components_, float(model.reconstruction_err_), int(theme_sizes(document_weights).min()))


def _select(
    tfidf: sparse.spmatrix, binary: sparse.spmatrix, vocabulary: np.ndarray, ks: list[int],
    seeds: list[int], n_jobs: int | None, min_papers: float = 0.0, qualified: bool = False,
) -> tuple[pd.DataFrame, dict[int, int]]:
    """The selection table and, for each k, the seed whose run fitted best; ``readable`` when that run's
    smallest theme (``smallest``, papers of the selection's abstracts) holds at least ``min_papers``.

    The ks are searched upwards and the search stops when :func:`search_done` says so (``qualified``: a k of an
    earlier search qualifies), so the table holds the ks searched.
    """
    # One k at a time, its seeds in parallel: whether the search goes on depends on its scores.
    # One thread more than cores: while one thread runs Python, the others run compiled code. One job: one thread.
    threads = 1 if n_jobs == 1 else worker_count(n_jobs, tfidf.shape[0], MIN_PARALLEL_DOCUMENTS) + 1
    rows, best_seeds = [], {}
    for k in sorted(ks):
        # A copy per fit: scipy may tidy a matrix in place (sort indices, sum duplicates) while another
        # thread reads it.
        by_seed = run_in_threads([(_selection_run, (tfidf.copy(), k, seed)) for seed in seeds], threads,
                                 name="helpers-theme-selection")
        best = int(np.argmin([run.error for run in by_seed]))
        best_seeds[k] = seeds[best]
        scores = [_scores(run.components, vocabulary, binary) for run in by_seed]
        rows.append(dict(
            k=k,
            smallest=by_seed[best].smallest,
            coherence=float(np.mean([np.mean(coherence) for coherence, _ in scores])),
            diversity=float(np.mean([diversity for _, diversity in scores])),
            stability=stability([run.components for run in by_seed]),
        ))
        if search_done(pd.DataFrame(rows), min_papers, qualified):
            break
    selection = pd.DataFrame(rows)
    selection["score"] = (_minmax(selection["coherence"]) + _minmax(selection["diversity"])
                          + _minmax(selection["stability"])) / 3
    selection["eligible"] = ((selection["stability"] >= MIN_STABILITY)
                             & (selection["diversity"] >= MIN_DIVERSITY))
    selection["readable"] = selection["smallest"] >= min_papers
    return selection, best_seeds


def _search(tfidf: sparse.spmatrix, counts: sparse.spmatrix, vocabulary: np.ndarray, ks: list[int],
            seeds: list[int], k: int | None, n_documents: int, min_papers: float, n_jobs: int | None
            ) -> tuple[pd.DataFrame, list[int], dict[int, int]]:
    """The selection table over ``ks`` (only its table when ``k`` is given), the ks searched and each one's best
    seed: :func:`_select`, and once more above the range when the rule's best is its largest (:func:`more_ks`;
    never after a search that stopped below its top, :func:`search_done`)."""
    binary = sparse.csc_matrix((counts > 0).astype(float))
    selection, best_seeds = _select(tfidf, binary, vocabulary, ks, seeds, n_jobs, min_papers)
    extra = more_ks(ks, n_documents, len(vocabulary)) if k is None and choose_k(selection) == max(ks) else []
    ks = [int(searched) for searched in selection["k"]]
    if extra:
        more, more_seeds = _select(tfidf, binary, vocabulary, extra, seeds, n_jobs, min_papers,
                                   qualified=bool((selection["eligible"] & selection["readable"]).any()))
        selection, ks = rescore(pd.concat([selection, more], ignore_index=True)), ks + more["k"].astype(int).tolist()
        best_seeds.update(more_seeds)
    return selection, ks, best_seeds


def search_done(searched: pd.DataFrame, min_papers: float = 0.0, qualified: bool = False) -> bool:
    """Whether the upward search of k stops after the last row of ``searched`` (``k, smallest, diversity,
    stability``, in order of k), once a smaller k qualifies (stability and diversity reach their thresholds and its
    smallest theme holds ``min_papers``; ``qualified``: one searched before):

    * its diversity is under :data:`MIN_DIVERSITY`: more themes share more of their top terms, so a larger k would
      be less diverse still;
    * or the last :data:`SIZE_PATIENCE` rows (all after the qualifying k) have a theme under ``min_papers``: more
      themes hold fewer papers each, so a larger k would be under the size floor too.

    Examples
    --------
    >>> table = pd.DataFrame({"k": [3, 6, 9], "smallest": [40, 20, 9], "diversity": [0.95, 0.85, 0.79],
    ...                       "stability": [0.9, 0.7, 0.9]})
    >>> search_done(table), search_done(table.iloc[:2]), search_done(table.iloc[1:]), search_done(table, 50)
    (True, False, False, False)
    >>> search_done(table.iloc[2:], qualified=True)
    True
    >>> small = pd.DataFrame({"k": [3, 6, 9, 12], "smallest": [40, 6, 4, 3], "diversity": [0.95, 0.9, 0.9, 0.9],
    ...                       "stability": [0.9, 0.9, 0.9, 0.9]})
    >>> search_done(small.iloc[:3], 5), search_done(small, 5), search_done(small.iloc[1:], 7)
    (False, True, False)
    """
    if not len(searched):
        return False
    good = ((searched["stability"] >= MIN_STABILITY) & (searched["diversity"] >= MIN_DIVERSITY)
            & (searched["smallest"] >= min_papers))
    if searched["diversity"].iloc[-1] < MIN_DIVERSITY and (qualified or bool(good.iloc[:-1].any())):
        return True
    small = len(searched) >= SIZE_PATIENCE and bool((searched["smallest"].iloc[-SIZE_PATIENCE:] < min_papers).all())
    return small and (qualified or bool(good.iloc[:-SIZE_PATIENCE].any()))


def choose_k(selection: pd.DataFrame) -> int:
    """Apply :data:`SELECTION_RULE` to a table with ``k, coherence, score, eligible`` (and ``readable, smallest``,
    the size floor: without them every k is readable).

    Parameters
    ----------
    selection : DataFrame
        One row per candidate k.

    Returns
    -------
    int
        The chosen number of themes.

    Examples
    --------
    >>> table = pd.DataFrame({"k": [2, 3, 4], "coherence": [0.2, 0.5, 0.6],
    ...                       "score": [0.9, 0.5, 0.4], "eligible": [True, True, False]})
    >>> choose_k(table)
    3
    >>> choose_k(table.assign(eligible=False))
    2
    >>> choose_k(table.assign(readable=[True, False, False], smallest=[9, 2, 1]))
    2
    >>> choose_k(table.assign(readable=False, smallest=[3, 4, 1]))
    3
    """
    if "readable" in selection:
        if not selection["readable"].any():
            best = selection.sort_values(["smallest", "k"], ascending=[False, True]).iloc[0]
            return int(best["k"])
        selection = selection[selection["readable"]]
    eligible = selection[selection["eligible"]]
    if len(eligible):
        best = eligible.sort_values(["coherence", "k"], ascending=[False, True]).iloc[0]
    else:
        best = selection.sort_values(["score", "k"], ascending=[False, True]).iloc[0]
    return int(best["k"])


@dataclass(frozen=True)
class _Sample:
    """The abstracts and terms the model selection runs on."""

    rows: np.ndarray
    columns: np.ndarray
    counts: sparse.csr_matrix
    tfidf: sparse.csr_matrix


def _check_k(k: int | None, ks: list[int], terms: _PartitionedCounts) -> None:
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
