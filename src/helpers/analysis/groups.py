"""Groups of papers for the comparisons (by year, venue, file or a column of the input).

:func:`paper_groups` gives each paper its group's name and the groups' order; with one group
(the default for a corpus of one year, and for the seed format) nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from helpers.analysis.corpus import METADATA_COLUMNS
from helpers.analysis.settings import check_group_by

#: The group of every paper when there is no grouping.
ONE_GROUP = "all"
#: The group of papers without a value for the grouping column (shown last).
NO_VALUE = "(none)"


@dataclass(frozen=True)
class Groups:
    """Each paper's group and the groups' order.

    Attributes
    ----------
    by : str or None
        What the groups are (``year``, ``venue``, ``file`` or a column name); ``None``: one group.
    names : Series
        The group of each paper, aligned with the papers table.
    order : tuple of str
        Years ascending, otherwise sorted name order; :data:`NO_VALUE` last.
    """

    by: str | None
    names: pd.Series
    order: tuple[str, ...]


def default_group_by(papers: pd.DataFrame) -> str | None:
    """``"year"`` when the papers carry at least two distinct years, else ``None`` (one group).

    Examples
    --------
    >>> default_group_by(pd.DataFrame({"year": pd.array([2023, 2025, None], dtype="Int64")}))
    'year'
    >>> default_group_by(pd.DataFrame({"year": pd.array([2024, 2024], dtype="Int64")})) is None
    True
    """
    if "year" in papers and papers["year"].dropna().nunique() >= 2:
        return "year"
    return None


def _texts(values: pd.Series) -> pd.Series:
    """Values as stripped text, ``""`` for missing ones."""
    return values.astype(object).where(values.notna(), "").astype(str).str.strip()


def group_columns(papers: pd.DataFrame, fields: pd.DataFrame) -> list[str]:
    """The input's column names a paper can be grouped by: its metadata columns with a value, then its other fields."""
    metadata = [c for c in METADATA_COLUMNS if c in papers and _texts(papers[c]).ne("").any()]
    return metadata + [c for c in fields.columns if c != "paper_id" and c not in metadata]


def paper_groups(papers: pd.DataFrame, fields: pd.DataFrame, group_by: str | None) -> Groups:
    """Each paper's group by ``group_by`` (``None``: :func:`default_group_by`).

    Raises
    ------
    SettingsError
        When ``group_by`` is not a way to group these papers (:func:`helpers.analysis.settings.check_group_by`).

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["a", "b", "c"], "source_file": ["x.bib", "y.bib", "x.bib"],
    ...                        "year": pd.array([2025, 2023, None], dtype="Int64"), "venue": ["ICML"] * 3})
    >>> groups = paper_groups(papers, pd.DataFrame({"paper_id": []}), None)
    >>> groups.by, groups.names.tolist(), groups.order
    ('year', ['2025', '2023', '(none)'], ('2023', '2025', '(none)'))
    >>> paper_groups(papers, pd.DataFrame({"paper_id": []}), "file").order
    ('x.bib', 'y.bib')
    >>> paper_groups(papers.drop(columns=["year", "venue"]), pd.DataFrame({"paper_id": []}), None).order
    ('all',)
    """
    has_year = "year" in papers and papers["year"].notna().any()
    has_venue = "venue" in papers and _texts(papers["venue"]).ne("").any()
    if group_by is not None:
        check_group_by(group_by, group_columns(papers, fields), has_year=bool(has_year), has_venue=bool(has_venue))
    else:
        group_by = default_group_by(papers)
    if group_by is None:
        names = pd.Series([ONE_GROUP] * len(papers), index=papers.index, dtype=str)
        return Groups(None, names, (ONE_GROUP,))
    if group_by == "year":
        years = papers["year"]
        names = years.map(lambda y: NO_VALUE if pd.isna(y) else str(int(y))).astype(str)
        ordered = [str(int(y)) for y in sorted(years.dropna().unique())]
    else:
        if group_by == "file":
            values = papers["source_file"]
        elif group_by in papers:
            values = papers[group_by]
        else:
            values = papers[["paper_id"]].merge(fields[["paper_id", group_by]], on="paper_id", how="left")[group_by]
            values.index = papers.index
        names = _texts(values).replace("", NO_VALUE)
        ordered = sorted(set(names) - {NO_VALUE})
    if (names == NO_VALUE).any():
        ordered.append(NO_VALUE)
    return Groups(group_by, names.rename("group"), tuple(ordered))
