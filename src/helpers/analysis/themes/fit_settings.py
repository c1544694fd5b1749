"""A theme fit's options (:class:`ThemeOptions`, given) and the settings it was fitted with (:class:`ThemeSettings`,
found: ``model.settings.chosen_k``), as attributes, so that every setting that changes the themes is named once
and the book can show each one."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from helpers.analysis.themes.selection import N_SEEDS, SELECTION_SAMPLE
from helpers.analysis.text.vocabulary import VocabularyEdits

__all__ = ["ThemeOptions", "ThemeSettings"]


@dataclass(frozen=True)
class ThemeOptions:
    """What a theme fit is asked for (:func:`helpers.analysis.themes.fit_themes`, ``start_themes``,
    ``start_partitioned_themes``); the defaults are the book's.

    Attributes
    ----------
    k : int, optional
        Number of themes; chosen by :data:`helpers.analysis.themes.SELECTION_RULE` when ``None``.
    seed : int
        First seed; the selection's runs use ``seed, seed + 1, ...``, the samples ``seed``.
    n_seeds : int
        Seeds per candidate k (stability needs at least 2).
    sample_size : int
        Model selection runs on a seeded sample of this many abstracts when the corpus is larger.
    n_jobs : int, optional
        Cores for the selection's fits (``None``: all; 1: everything in the calling thread, the final fit too).
        Results do not depend on it.
    edits : VocabularyEdits, optional
        The researcher's thesaurus and stop terms, applied to each abstract's theme terms before any count is
        summed (a removed term's column dropped, merged terms' columns summed).

    Examples
    --------
    >>> ThemeOptions(k=5).k, ThemeOptions().n_seeds == N_SEEDS
    (5, True)
    """

    k: int | None = None
    seed: int = 0
    n_seeds: int = N_SEEDS
    sample_size: int = SELECTION_SAMPLE
    n_jobs: int | None = None
    edits: VocabularyEdits | None = None


@dataclass(frozen=True)
class ThemeSettings:
    """Every setting a theme model was fitted with: the candidates and seeds of the selection, its sample, the
    tolerances, the rule and its thresholds, the chosen k and its final fit.

    Attributes
    ----------
    k_candidates : list of int
        The numbers of themes searched.
    chosen_k : int
        The number fitted; ``k_given`` whether the researcher gave it.
    k_given : bool
    seeds : list of int
        The selection's seeds; ``final_seed`` the final fit's.
    final_seed : int
    selection_documents, selection_vocabulary : int
        The selection's sample of abstracts and its terms.
    selection_tol, final_tol : float
        NMF's tolerances in the selection and in the final fit.
    final_fit_documents, comparison_documents : int
        The abstracts of the final fit and of the LDA beside it.
    documents, vocabulary : int
        The corpus's abstracts and theme terms.
    min_df : int
        The fewest abstracts a term is in; ``max_df`` the largest share of them.
    max_df : float
    rule : str
        The selection rule (:data:`helpers.analysis.themes.SELECTION_RULE`).
    min_stability, min_diversity : float
        The rule's thresholds.
    mixed_threshold : float
        The strongest theme's share below which a paper is mixed.
    min_theme_papers : int
        The size floor of a theme (:func:`helpers.analysis.themes.k_range.min_theme_papers`); ``size_floor_met``
        whether every theme of the final fit reaches it.
    size_floor_met : bool
    k_at_top : bool
        Whether the chosen k is the largest candidate searched (:func:`helpers.analysis.themes.k_range.k_at_top`):
        the rule's best may lie beyond the range, so the page does not call it chosen.
    vocabulary_changed : list of int
        For each of the researcher's files (:attr:`ThemeOptions.edits`), how many theme terms of these abstracts
        it removed or replaced.

    Examples
    --------
    >>> [name for name in ThemeSettings.__dataclass_fields__][:3]
    ['k_candidates', 'chosen_k', 'k_given']
    """

    k_candidates: list[int]
    chosen_k: int
    k_given: bool
    seeds: list[int]
    selection_documents: int
    selection_vocabulary: int
    selection_tol: float
    final_tol: float
    final_fit_documents: int
    comparison_documents: int
    final_seed: int
    documents: int
    vocabulary: int
    min_df: int
    max_df: float
    rule: str
    min_stability: float
    min_diversity: float
    mixed_threshold: float
    min_theme_papers: int = 0
    size_floor_met: bool = True
    k_at_top: bool = False
    vocabulary_changed: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The settings by name, in the order above (the Reproduce page's rows).

        Returns
        -------
        dict
            Each attribute's name to its value.
        """
        return asdict(self)
