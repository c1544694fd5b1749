"""The groups in order, and each paper's group and matrix row as numbers (:mod:`helpers.analysis.change`)."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

__all__ = ["ordered_groups", "group_numbers", "paper_rows"]


def ordered_groups(groups: pd.Series) -> tuple[str, ...]:
    """The distinct groups in order: by number when every group is a whole number (years), else by name.

    Examples
    --------
    >>> ordered_groups(pd.Series(["2025", "2023", "2024", "2023"]))
    ('2023', '2024', '2025')
    >>> ordered_groups(pd.Series(["b.bib", "a.bib", "10.bib"]))
    ('10.bib', 'a.bib', 'b.bib')
    """
    names = sorted({str(g) for g in groups})
    if names and all(n.lstrip("-").isdigit() for n in names):
        return tuple(sorted(names, key=int))
    return tuple(names)


def group_numbers(papers: pd.DataFrame, groups: Sequence[str]) -> np.ndarray:
    """Each paper's group number (0-based, in ``groups`` order; -1 for a group not listed)."""
    position = {g: i for i, g in enumerate(groups)}
    return papers["group"].astype(str).map(position).fillna(-1).to_numpy(dtype=np.int64)


def paper_rows(paper_ids: Sequence[str], papers: pd.DataFrame) -> np.ndarray:
    """Row of each paper of ``papers`` in ``paper_ids`` (-1 when absent)."""
    row_of = {str(p): i for i, p in enumerate(paper_ids)}
    return papers["paper_id"].astype(str).map(row_of).fillna(-1).to_numpy(dtype=np.int64)
