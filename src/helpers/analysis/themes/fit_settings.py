"""The settings a theme model was fitted with, as attributes (``model.settings.chosen_k``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class ThemeSettings:
    """Every setting a theme model was fitted with: the candidates and seeds of the selection, its sample, the
    tolerances, the rule and its thresholds, the chosen k and its final fit."""

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

    def as_dict(self) -> dict[str, Any]:
        """The settings by name, in the order above (the Reproduce page's rows)."""
        return asdict(self)
