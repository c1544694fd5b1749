"""The comparison the chapter shows: NMF against a scikit-learn LDA with the chosen number of themes.

Both are fitted and scored on the selection's abstracts (:attr:`helpers.analysis.themes.model.ThemeModel.comparison`,
computed when first asked for: the command line never needs it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import numpy as np
import pandas as pd
from scipy import sparse

if TYPE_CHECKING:
    from sklearn.decomposition import LatentDirichletAllocation

from helpers.analysis.themes.counting import _tfidf
from helpers.analysis.themes.fit_settings import ThemeSettings
from helpers.analysis.themes.scores import _scores
from helpers.analysis.themes.selection import _fit_nmf, model_fitting

__all__ = ["LDA_MAX_ITER", "SelectionData", "compare_with_lda"]

LDA_MAX_ITER = 10  # scikit-learn's default: the comparison costs one ordinary LDA fit


class SelectionData(Protocol):
    """What the comparison reads of a :class:`helpers.analysis.themes.model.ThemeModel` (whose
    :attr:`~helpers.analysis.themes.model.ThemeModel.comparison` calls this module, so it is not imported here).

    Attributes
    ----------
    selection_counts : csr_matrix
        The selection's abstracts x terms, counts.
    selection_vocabulary : ndarray of str
        Its terms.
    settings : ThemeSettings
        What the model was fitted with (``chosen_k``, ``seeds``, ``final_seed``).

    Examples
    --------
    >>> sorted(name for name in vars(SelectionData) if not name.startswith("_"))
    ['selection_counts', 'selection_vocabulary', 'settings']
    """

    @property
    def selection_counts(self) -> sparse.csr_matrix: ...

    @property
    def selection_vocabulary(self) -> np.ndarray: ...

    @property
    def settings(self) -> ThemeSettings: ...


def _fit_lda(counts: sparse.csr_matrix, k: int, seed: int) -> LatentDirichletAllocation:
    from sklearn.decomposition import LatentDirichletAllocation  # lazy: slow to import

    lda = LatentDirichletAllocation(n_components=k, random_state=seed, learning_method="batch",
                                    max_iter=LDA_MAX_ITER)
    return lda.fit(counts)


def compare_with_lda(model: SelectionData) -> pd.DataFrame:
    """NMF against LDA at the model's k, both fitted and scored on the selection's abstracts.

    Parameters
    ----------
    model : SelectionData
        A fitted theme model (:class:`helpers.analysis.themes.model.ThemeModel`).

    Returns
    -------
    DataFrame
        ``model, k, coherence, diversity``: one row for the NMF, one for the LDA.

    Examples
    --------
    >>> texts = pd.Series(["graph networks learn graphs"] * 2 + ["bandit regret bounds"] * 2,
    ...                   index=["a", "b", "c", "d"])
    >>> from helpers.analysis.themes import ThemeOptions, fit_themes
    >>> compare_with_lda(fit_themes(texts, ThemeOptions(k=2)))[["model", "k"]].values.tolist()
    [['NMF (TF-IDF)', 2], ['LDA (counts)', 2]]
    """
    settings = model.settings
    counts, vocabulary = model.selection_counts, model.selection_vocabulary
    k = settings.chosen_k
    with model_fitting():
        nmf = _fit_nmf(_tfidf(counts), k, settings.final_seed)
        lda = _fit_lda(counts, k, settings.seeds[0])
    binary = sparse.csc_matrix((counts > 0).astype(np.float64))
    rows = []
    for name, components in [("NMF (TF-IDF)", nmf.components_), ("LDA (counts)", lda.components_)]:
        coherence, diversity = _scores(components, vocabulary, binary)
        rows.append(dict(model=name, k=k, coherence=round(float(np.mean(coherence)), 6),
                         diversity=round(diversity, 6)))
    return pd.DataFrame(rows)
