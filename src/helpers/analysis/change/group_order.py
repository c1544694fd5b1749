"""The groups in order, and each paper's group and matrix row as numbers (:mod:`helpers.analysis.change`)."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

__all__ = ["ordered_groups", "group_numbers", "paper_rows"]


def ordered_groups(groups: pd.Series) -> tuple[str, ...]:
    """The distinct groups in order: by number when every group is a whole number (years), else by name.

    Parameters
    ----------
    groups : Series
        Each paper's group (a year, a venue, a file name).

    Returns
    -------
    tuple of str
        Each group once, in order.

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
    """Each paper's group number (0-based, in ``groups`` order; -1 for a group not listed).

    Parameters
    ----------
    papers : DataFrame
        With a ``group`` column.
    groups : sequence of str
        The groups in order (:func:`ordered_groups`).

    Returns
    -------
    ndarray of int64
        One number per row of ``papers``.

    Examples
    --------
    >>> group_numbers(pd.DataFrame({"group": ["2024", "2023", "2026"]}), ["2023", "2024"])
    array([ 1,  0, -1])
    """
    position = {g: i for i, g in enumerate(groups)}
    return papers["group"].astype(str).map(position).fillna(-1).to_numpy(dtype=np.int64)


def paper_rows(paper_ids: Sequence[str], papers: pd.DataFrame) -> np.ndarray:
    """Row of each paper of ``papers`` in ``paper_ids`` (-1 when absent).

    Parameters
    ----------
    paper_ids : sequence of str
        The papers of a matrix's rows, in row order.
    papers : DataFrame
        With a ``paper_id`` column.

    Returns
    -------
    ndarray of int64
        One row number per row of ``papers``.

    Examples
    --------
    >>> paper_rows(["q", "p"], pd.DataFrame({"paper_id": ["p", "q", "r"]}))
    array([ 1,  0, -1])
    """
    row_of = {str(p): i for i, p in enumerate(paper_ids)}
    return papers["paper_id"].astype(str).map(row_of).fillna(-1).to_numpy(dtype=np.int64)
