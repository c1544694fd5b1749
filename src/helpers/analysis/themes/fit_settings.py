"""A theme fit's options (:class:`ThemeOptions`, given) and the settings it was fitted with (:class:`ThemeSettings`,
found: ``model.settings.chosen_k``), as attributes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from helpers.analysis.themes.selection import N_SEEDS, SELECTION_SAMPLE
from helpers.analysis.text.vocabulary import VocabularyEdits


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

    ``min_theme_papers`` is the size floor of a theme (:func:`helpers.analysis.themes.selection.min_theme_papers`),
    ``size_floor_met`` whether every theme of the final fit reaches it, and ``k_at_top`` whether the chosen k is
    the largest candidate searched (:func:`helpers.analysis.themes.selection.k_at_top`): the rule's best may lie
    beyond the range, so the page does not call it chosen.
    ``vocabulary_changed`` is, for each of the researcher's files (:attr:`ThemeOptions.edits`), how many theme
    terms of these abstracts it removed or replaced.
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
        """The settings by name, in the order above (the Reproduce page's rows)."""
        return asdict(self)
