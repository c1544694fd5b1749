"""The theme model: the chosen number of themes fitted once more, every abstract weighted, the tables.

:func:`fit_themes` is ``start_themes(...).result()``. :func:`start_partitioned_themes` counts the terms
(:mod:`helpers.analysis.themes.counting`), then chooses ``k`` (:mod:`helpers.analysis.themes.selection`) and
fits it once more, weights every abstract and makes the tables of :class:`ThemeModel` (each theme shown and
labelled by :mod:`helpers.analysis.themes.labels`) in a background thread (:class:`PendingThemes`), while the
pipeline finds terms and links: the fits and the weighting spend their time in compiled code that releases
the GIL. On the local engine the selection's fits run in a process forked from that thread, so they never wait
for the GIL the term stage's Python holds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Collection, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis._parallel import BackgroundCall, LocalPartitions, PartitionRunner, start_in_thread
from helpers.analysis.text.tokens import TokenizedCorpus, analysis_texts_to_tokens
from helpers.analysis.themes.comparison import compare_with_lda
from helpers.analysis.themes.fit_settings import ThemeOptions, ThemeSettings
from helpers.analysis.themes.forked import _fork_ready, _in_forked_process
from helpers.analysis.themes.counting import (MAX_DF, _assignment, _idf, _partitioned_counts, _PartitionedCounts,
                                              _tfidf_rows, _transform_blocks)
from helpers.analysis.themes.labels import _labels, _shown_indices, theme_labels
from helpers.analysis.themes.scores import N_COHERENCE_TERMS, _coherence_columns, _top, npmi_of_counts
from helpers.analysis.themes.k_range import candidate_ks, k_at_top, min_theme_papers, theme_sizes
from helpers.analysis.themes.selection import (FINAL_TOL, MIN_DIVERSITY, MIN_STABILITY, SELECTION_RULE,
                                               SELECTION_TOL, _check_k, _fit_nmf,
                                               _Sample, _search, _selection_sample, choose_k, model_fitting)
from helpers.analysis.themes.vocabulary import ThemesError

__all__ = ["relabel", "FINAL_SAMPLE", "FINAL_FIT_THREAD", "MIXED_THRESHOLD", "ThemeModel", "ThemeOptions", "PendingThemes",
           "start_themes", "start_partitioned_themes", "fit_themes"]

FINAL_SAMPLE = 10_000
#: The name of the final fit's background thread.
FINAL_FIT_THREAD = "helpers-theme-fit"
MIXED_THRESHOLD = 0.5


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
    settings : ThemeSettings
        Every setting used (seeds, candidate range, sample size, rule).
    label_counts : DataFrame, optional
        Themes x the terms the labels are chosen from (each theme's shown top terms): each term's occurrences
        summed over each theme's papers, so the labels can be made again (:func:`relabel`).

    Examples
    --------
    >>> list(ThemeModel.__dataclass_fields__)[:4]
    ['themes', 'paper_themes', 'weights', 'top_terms']
    """

    themes: pd.DataFrame
    paper_themes: pd.DataFrame
    weights: pd.DataFrame
    top_terms: pd.DataFrame
    selection: pd.DataFrame
    selection_counts: sparse.csr_matrix
    selection_vocabulary: np.ndarray
    settings: ThemeSettings
    label_counts: pd.DataFrame | None = None

    @cached_property
    def comparison(self) -> pd.DataFrame:
        """``model, k, coherence, diversity`` for NMF and LDA at the chosen k.

        Both are fitted on the selection's abstracts (``settings.comparison_documents``),
        NMF to :data:`FINAL_TOL` with the final seed, LDA with the first seed, and both are
        scored on those abstracts. Computed on first use (one LDA fit).
        """
        return compare_with_lda(self)


def relabel(model: ThemeModel, same_thing: Collection[frozenset[str]]) -> ThemeModel:
    """The model with its labels made again (:func:`helpers.analysis.themes.labels.theme_labels`), the pairs the
    corpus defines as one thing counted as one concept.

    Parameters
    ----------
    model : ThemeModel
        A fitted model.
    same_thing : collection of frozenset
        Pairs of terms the corpus defines as one thing (a term and its abbreviation).

    Returns
    -------
    ThemeModel
        The model with its ``label`` column made again; the model as it is without ``label_counts`` or pairs.

    Examples
    --------
    >>> texts = pd.Series(["polyaniline films of pani", "pani and polyaniline films", "polyaniline pani coating",
    ...                    "bandit regret bounds", "bandit arm regret", "regret of the arm"], index=list("abcdef"))
    >>> model = fit_themes(texts, ThemeOptions(k=2))
    >>> model.themes["label"].tolist()
    ['polyaniline film · pani', 'bandit arm · regret']
    >>> relabel(model, {frozenset(("pani", "polyaniline"))}).themes["label"].tolist()
    ['polyaniline film · coating', 'bandit arm · regret']
    """
    if model.label_counts is None or not same_thing:
        return model
    shown = [row.split(", ") for row in model.themes["top_terms"]]
    labels = theme_labels(shown, model.label_counts.to_numpy(), list(model.label_counts.columns), same_thing)
    return replace(model, themes=model.themes.assign(label=labels))


def _final_rows(n_documents: int, seed: int) -> np.ndarray:
    """Rows of the final NMF fit: every abstract, or a seeded sample of :data:`FINAL_SAMPLE`."""
    if n_documents > FINAL_SAMPLE:
        return np.sort(np.random.default_rng(seed + 1).choice(n_documents, size=FINAL_SAMPLE, replace=False))
    return np.arange(n_documents)


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
    label_columns = sorted({i for indices in shown for i in indices[:N_COHERENCE_TERMS]})
    label_counts = pd.DataFrame(class_terms[:, label_columns], columns=[str(vocabulary[i]) for i in label_columns],
                                index=np.arange(1, k + 1))
    return dict(themes=themes, paper_themes=paper_themes, weights=weights, label_counts=label_counts,
                top_terms=pd.DataFrame(top_rows, columns=["theme", "rank", "term", "weight"]))


class PendingThemes:
    """A theme model on its way in a background thread (:func:`start_themes`): :meth:`result` waits for it,
    :meth:`wait` only for the thread to end (whether the model was made or not).

    Examples
    --------
    >>> [name for name in vars(PendingThemes) if not name.startswith("_")]
    ['wait', 'done', 'result']
    """

    def __init__(self, fitting: BackgroundCall) -> None:
        self._fitting = fitting

    def wait(self) -> None:
        """Wait until the background thread has ended (whether the model was made or not)."""
        self._fitting.wait()

    def done(self) -> bool:
        """Whether the model is made (or its making failed): :meth:`result` would not wait."""
        return self._fitting.done()

    def result(self) -> ThemeModel:
        """The fitted :class:`ThemeModel` (waits for it)."""
        return self._fitting.result()


def _theme_model(terms: _PartitionedCounts, idf: np.ndarray, sample: _Sample, selection: pd.DataFrame,
                 settings: ThemeSettings, model: Any) -> ThemeModel:
    """The :class:`ThemeModel` of the final fit ``model``: every abstract weighted, each theme shown and scored."""
    columns = sample.columns
    components = np.zeros((model.n_components_, len(terms.vocabulary)))
    components[:, columns] = model.components_
    shown = _shown_indices(components, terms.vocabulary, terms.document_frequency)
    top = [_top(component, N_COHERENCE_TERMS) for component in components]
    shown_top = [indices[:N_COHERENCE_TERMS] for indices in shown]
    coherence_columns = _coherence_columns(top + shown_top)
    weights, statistics = _transform_blocks(terms, model, idf, columns, coherence_columns)
    n_documents = terms.n_documents
    tables = _theme_tables(components, weights, terms.vocabulary, terms.paper_ids, statistics.class_terms, shown,
                           npmi_of_counts(top, coherence_columns, statistics.together, n_documents),
                           npmi_of_counts(shown_top, coherence_columns, statistics.together, n_documents))
    selection = selection.copy()
    for column in ("coherence", "diversity", "stability", "score"):
        selection[column] = selection[column].round(6)
    return ThemeModel(selection=selection, selection_counts=sample.counts,
                      selection_vocabulary=terms.vocabulary[sample.columns], settings=settings, **tables)


def start_themes(texts: TokenizedCorpus | pd.Series, options: ThemeOptions = ThemeOptions()) -> PendingThemes:
    """Count the terms, then choose the number of themes and fit it in a background thread.

    Takes the arguments of :func:`fit_themes`, which is ``start_themes(...).result()``.
    The counts and the checks run before this returns (a bad ``k`` raises here); the model selection
    and the final fit run in the background while the caller finds terms and links. Call it inside
    :func:`model_fitting`, and :meth:`PendingThemes.result` (or, on the way out after an error,
    :meth:`PendingThemes.wait`) before leaving it. With ``n_jobs=1`` everything runs before this
    returns: no thread.

    Parameters
    ----------
    texts, options
        As for :func:`fit_themes`.

    Returns
    -------
    PendingThemes
        The model on its way.

    Raises
    ------
    KOutOfRange, ThemesError
        As :func:`fit_themes`.

    Examples
    --------
    >>> texts = pd.Series(["graph networks learn graphs"] * 2 + ["bandit regret bounds"] * 2, index=list("abcd"))
    >>> with model_fitting():
    ...     print(start_themes(texts, ThemeOptions(k=2)).result().settings.chosen_k)
    2
    """
    return start_partitioned_themes(LocalPartitions(), [analysis_texts_to_tokens(texts)], options)


def start_partitioned_themes(runner: PartitionRunner, token_parts: Sequence[Any],
                             options: ThemeOptions = ThemeOptions()) -> PendingThemes:
    """:func:`start_themes` of a corpus in consecutive partitions, counted where they are.

    Each partition counts its terms; the vocabulary comes from those counts summed by term (one reducer per
    bucket); only the abstracts the selection and the final fit use come to this process, and every abstract is
    weighted in blocks of :data:`TRANSFORM_BLOCK` consecutive ``paper_id`` ranks on ``runner``. The result is the
    same for any cut into partitions (a tested equivalence).

    Parameters
    ----------
    runner : PartitionRunner
        Where the partitions are (:class:`helpers.analysis._parallel.LocalPartitions`, or a Dask cluster).
    token_parts : sequence
        Handles (values, or Dask futures) of each partition's :class:`helpers.analysis.text.tokens.TokenizedCorpus`, in
        corpus order.
    options : ThemeOptions
        As for :func:`fit_themes`.

    Returns
    -------
    PendingThemes
        The model on its way, counted where the partitions are.

    Examples
    --------
    >>> parts = [analysis_texts_to_tokens(pd.Series(["graph nets"] * 2, index=["a", "b"])),
    ...          analysis_texts_to_tokens(pd.Series(["bandit regret"] * 2, index=["c", "d"]))]
    >>> with model_fitting():
    ...     print(start_partitioned_themes(LocalPartitions(), parts, ThemeOptions(k=2)).result().themes["n_papers"].tolist())
    [2, 2]
    """
    k, seed, n_jobs = options.k, options.seed, options.n_jobs
    terms = _partitioned_counts(runner, token_parts, options.edits)
    ks = candidate_ks(terms.n_documents) if k is None else [k]
    _check_k(k, ks, terms)
    idf = _idf(terms.document_frequency, terms.n_documents)

    sample = _selection_sample(terms, idf, options.sample_size, seed)
    if len(sample.columns) < max(ks):
        raise ThemesError(f"only {len(sample.columns)} terms in the selection sample; "
                          f"too few for {max(ks)} themes")
    seeds = list(range(seed, seed + options.n_seeds))
    background = n_jobs != 1
    # The selection's fits in a forked process on the local engine (a Dask client's threads stay in this one).
    in_process = background and isinstance(runner, LocalPartitions) and _fork_ready()
    fitting = start_in_thread(_select_and_fit, terms, idf, sample, ks, seeds, k, seed, n_jobs, in_process,
                              name=FINAL_FIT_THREAD, background=background)
    return PendingThemes(fitting)


def _select_and_fit(terms: _PartitionedCounts, idf: np.ndarray, sample: _Sample, ks: list[int], seeds: list[int],
                    k: int | None, seed: int, n_jobs: int | None, in_process: bool = False) -> ThemeModel:
    """The model selection over ``ks`` (unless ``k`` is given, then only its table), the final fit of the chosen
    number of themes and its :class:`ThemeModel`: the work :func:`start_partitioned_themes` leaves to its
    background thread."""
    floor = min_theme_papers(terms.n_documents)
    sample_floor = floor * len(sample.rows) / max(terms.n_documents, 1)
    search = (_search, sample.tfidf, sample.counts, terms.vocabulary[sample.columns], ks, seeds, k, terms.n_documents,
              sample_floor, n_jobs)
    # In a process of its own when the caller works meanwhile (the term stage's Python would hold the GIL the
    # fits' threads wait for); the same fits, so the same table.
    selection, ks, best_seeds = _in_forked_process(*search) if in_process else search[0](*search[1:])

    # The chosen k, fitted to FINAL_TOL with its best selection seed, on every abstract (or FINAL_SAMPLE),
    # with the terms the selection scored (all of them unless the selection ran on a sample). A chosen k whose
    # final fit leaves a theme under the floor is dropped and the rule applied to the others.
    final_rows = _final_rows(terms.n_documents, seed)
    final_tfidf = _tfidf_rows(terms.rows(final_rows), idf)[:, sample.columns]
    floor_final = floor * len(final_rows) / max(terms.n_documents, 1)
    remaining = selection
    while True:
        chosen_k = choose_k(remaining) if k is None else k
        model = _fit_nmf(final_tfidf, chosen_k, best_seeds[chosen_k])
        smallest = int(theme_sizes(model.transform(final_tfidf)).min())
        remaining = remaining[remaining["k"] != chosen_k]
        if k is not None or smallest >= floor_final or not remaining["readable"].any():
            break
        selection.loc[selection["k"] == chosen_k, "readable"] = False
    selection["chosen"] = selection["k"] == chosen_k
    best_seed = best_seeds[chosen_k]
    settings = ThemeSettings(
        k_candidates=ks, chosen_k=chosen_k, k_given=k is not None, seeds=seeds,
        selection_documents=int(len(sample.rows)), selection_vocabulary=int(len(sample.columns)),
        selection_tol=SELECTION_TOL, final_tol=FINAL_TOL,
        final_fit_documents=int(len(final_rows)), comparison_documents=int(len(sample.rows)),
        final_seed=int(best_seed), documents=terms.n_documents, vocabulary=int(len(terms.vocabulary)),
        min_df=terms.min_df, max_df=MAX_DF, rule=SELECTION_RULE, min_stability=MIN_STABILITY,
        min_diversity=MIN_DIVERSITY, mixed_threshold=MIXED_THRESHOLD, min_theme_papers=floor,
        size_floor_met=smallest >= floor_final, k_at_top=k_at_top(ks, chosen_k, k is not None),
        vocabulary_changed=list(terms.vocabulary_changed),
    )
    return _theme_model(terms, idf, sample, selection, settings, model)


def fit_themes(texts: TokenizedCorpus | pd.Series, options: ThemeOptions = ThemeOptions()) -> ThemeModel:
    """Fit the theme model on a tokenised corpus (or analysis texts indexed by ``paper_id``).

    Parameters
    ----------
    texts : TokenizedCorpus or Series
        :func:`helpers.analysis.text.tokens.tokenize_corpus` of the analysis texts, or the
        :func:`helpers.analysis.text.cleaning.analysis_text` of each paper indexed by ``paper_id``.
    options : ThemeOptions
        The number of themes (``k``; chosen by :data:`SELECTION_RULE` when ``None``), the first seed, the
        seeds per candidate k, the selection's sample size and the cores (``n_jobs``). Model selection runs
        on a random sample of ``options.sample_size`` abstracts (seeded)
        when the corpus is larger, with the terms that occur in at least
        ``min_df`` of the sampled abstracts; its runs stop at
        :data:`SELECTION_TOL`. The chosen model is then fitted once more to
        :data:`FINAL_TOL`, with the selection's best seed and terms, on every
        abstract or on a seeded sample of :data:`FINAL_SAMPLE` when there are
        more, and every abstract is weighted by it (``NMF.transform``). The LDA comparison is
        fitted on the selection's abstracts and compared with an NMF fit of the
        chosen k on the same abstracts. The selection's fits run on ``n_jobs`` cores
        (default: all) and one thread more (1: everything in the calling thread); results
        do not depend on it.

    Returns
    -------
    ThemeModel
        The themes, each paper's weights, the selection and the settings.

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
    >>> model = fit_themes(texts, ThemeOptions(k=2))
    >>> model.themes["n_papers"].tolist()
    [2, 2]
    """
    with model_fitting():
        return start_themes(texts, options).result()
