"""Groups of papers for the comparisons (by year, venue, file or a column of the input).

:func:`paper_groups` gives each paper its group's name and the groups' order; with one group
(the default for a corpus of one year, and for the seed format) nothing else changes.

By default papers are grouped by year, and sparse years are merged into periods (``"2010–2011"``) of at
least :data:`MIN_PERIOD_PAPERS` papers, or :data:`MIN_PERIOD_SHARE` of the papers with a year where that
is more (:func:`period_size`, :func:`merge_years`); asked for by year (``--group-by year``), each year
is its own group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import pandas as pd

from helpers.analysis.corpus import METADATA_COLUMNS
from helpers.analysis.settings import check_group_by

__all__ = ["ONE_GROUP", "NO_VALUE", "MIN_PERIOD_PAPERS", "MIN_PERIOD_SHARE", "PERIOD_DASH", "Groups", "period_size",
           "merge_years", "period_name", "default_group_by", "group_columns", "paper_groups"]

#: The group of every paper when there is no grouping.
ONE_GROUP = "all"
#: The group of papers without a value for the grouping column (shown last).
NO_VALUE = "(none)"
#: The fewest papers a period of merged years holds in the default grouping ...
MIN_PERIOD_PAPERS = 30
#: ... or this share of the papers with a year, where that is more.
MIN_PERIOD_SHARE = 0.05
#: Between the first and the last year of a period's name.
PERIOD_DASH = "\u2013"


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
        Years (or periods) ascending, otherwise sorted name order; :data:`NO_VALUE` last.
    min_papers : int
        The fewest papers a period holds when years were merged (the default grouping by year), else 0.

    Examples
    --------
    >>> groups = Groups("year", pd.Series(["2023", "(none)"]), ("2023", "(none)"))
    >>> groups.compared
    ('2023',)
    """

    by: str | None
    names: pd.Series
    order: tuple[str, ...]
    min_papers: int = 0

    @property
    def compared(self) -> tuple[str, ...]:
        """The groups in order without :data:`NO_VALUE` (papers without a value are in no comparison)."""
        return tuple(g for g in self.order if g != NO_VALUE)


def period_size(n_papers: int) -> int:
    """The fewest papers of a period: :data:`MIN_PERIOD_PAPERS`, or :data:`MIN_PERIOD_SHARE` of ``n_papers`` if more.

    Parameters
    ----------
    n_papers : int
        Papers with a year.

    Returns
    -------
    int
        The fewest papers of a period.

    Examples
    --------
    >>> period_size(334), period_size(751), period_size(20_000)
    (30, 38, 1000)
    """
    return max(MIN_PERIOD_PAPERS, math.ceil(round(MIN_PERIOD_SHARE * n_papers, 9)))


def merge_years(counts: Mapping[int, int], min_papers: int) -> list[tuple[int, int]]:
    """Consecutive years joined into periods of at least ``min_papers`` papers: ``(first, last)`` year each.

    From the first year on, years join the open period until it holds ``min_papers``; a remainder too
    small to be a period joins the period before it (so as many periods as possible are formed, each
    holding enough papers; with too few papers for one, all years make one period).

    Parameters
    ----------
    counts : mapping of int to int
        Papers per year.
    min_papers : int
        The fewest papers of a period.

    Returns
    -------
    list of (int, int)
        Each period's first and last year, in order.

    Examples
    --------
    >>> merge_years({2010: 12, 2011: 20, 2012: 45, 2013: 5}, 30)
    [(2010, 2011), (2012, 2013)]
    >>> merge_years({2023: 132, 2024: 495, 2025: 124}, 38)
    [(2023, 2023), (2024, 2024), (2025, 2025)]
    >>> merge_years({}, 30)
    []
    """
    periods: list[tuple[int, int]] = []
    start, held = None, 0
    for year in sorted(counts):
        start = year if start is None else start
        held += int(counts[year])
        if held >= min_papers:
            periods.append((start, year))
            start, held = None, 0
    if start is not None:  # the remainder, too small to stand alone
        last = max(counts)
        periods[-1:] = [(periods[-1][0], last)] if periods else [(start, last)]
    return periods


def period_name(first: int, last: int) -> str:
    """``"2010"`` or ``"2010–2011"``.

    Parameters
    ----------
    first, last : int
        A period's first and last year.

    Returns
    -------
    str
        The period's name.

    Examples
    --------
    >>> period_name(2010, 2010), period_name(2010, 2011)
    ('2010', '2010–2011')
    """
    return str(first) if first == last else f"{first}{PERIOD_DASH}{last}"


def default_group_by(papers: pd.DataFrame) -> str | None:
    """``"year"`` when the papers carry at least two distinct years, else ``None`` (one group).

    Parameters
    ----------
    papers : DataFrame
        The papers table (``year`` when they carry one).

    Returns
    -------
    str or None
        ``"year"`` or ``None``.

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
    """The input's column names a paper can be grouped by: its metadata columns with a value, then its other fields.

    Parameters
    ----------
    papers : DataFrame
        The papers table (its metadata columns count when any paper has a value).
    fields : DataFrame
        The input's other fields, ``paper_id`` first.

    Returns
    -------
    list of str
        Column names, metadata first.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["a"], "venue": ["ICML"], "title": [""]})
    >>> group_columns(papers, pd.DataFrame({"paper_id": ["a"], "track": ["oral"]}))
    ['venue', 'track']
    """
    metadata = [c for c in METADATA_COLUMNS if c in papers and _texts(papers[c]).ne("").any()]
    return metadata + [c for c in fields.columns if c != "paper_id" and c not in metadata]


def paper_groups(papers: pd.DataFrame, fields: pd.DataFrame, group_by: str | None) -> Groups:
    """Each paper's group by ``group_by`` (``None``: :func:`default_group_by`, sparse years merged into periods).

    Parameters
    ----------
    papers : DataFrame
        The papers table.
    fields : DataFrame
        The input's other fields, ``paper_id`` first.
    group_by : str or None
        ``year``, ``venue``, ``file``, a column name, or ``None``.

    Returns
    -------
    Groups
        Each paper's group and the groups' order.

    Raises
    ------
    SettingsError
        When ``group_by`` is not a way to group these papers (:func:`helpers.analysis.settings.check_group_by`).

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["a", "b", "c"], "source_file": ["x.bib", "y.bib", "x.bib"],
    ...                        "year": pd.array([2025, 2023, None], dtype="Int64"), "venue": ["ICML"] * 3})
    >>> groups = paper_groups(papers, pd.DataFrame({"paper_id": []}), "year")
    >>> groups.by, groups.names.tolist(), groups.order
    ('year', ['2025', '2023', '(none)'], ('2023', '2025', '(none)'))
    >>> paper_groups(papers, pd.DataFrame({"paper_id": []}), "file").order
    ('x.bib', 'y.bib')
    >>> paper_groups(papers.drop(columns=["year", "venue"]), pd.DataFrame({"paper_id": []}), None).order
    ('all',)

    By default, years of fewer than :func:`period_size` papers are merged (here all of them):

    >>> groups = paper_groups(papers, pd.DataFrame({"paper_id": []}), None)
    >>> groups.order, groups.min_papers, groups.compared
    (('2023–2025', '(none)'), 30, ('2023–2025',))
    """
    has_year = "year" in papers and papers["year"].notna().any()
    has_venue = "venue" in papers and _texts(papers["venue"]).ne("").any()
    if group_by is not None:
        check_group_by(group_by, group_columns(papers, fields), has_year=bool(has_year), has_venue=bool(has_venue))
    else:
        group_by = default_group_by(papers)
        if group_by == "year":
            return _year_periods(papers)
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


def _year_periods(papers: pd.DataFrame) -> Groups:
    """The default grouping by year: sparse years merged into periods (:func:`merge_years`)."""
    years = papers["year"]
    counts = {int(y): int(n) for y, n in years.dropna().astype(int).value_counts().items()}
    min_papers = period_size(sum(counts.values()))
    period_of = {}
    for first, last in merge_years(counts, min_papers):
        for year in range(first, last + 1):
            period_of[year] = period_name(first, last)
    names = years.map(lambda y: NO_VALUE if pd.isna(y) else period_of[int(y)]).astype(str)
    ordered = list(dict.fromkeys(period_of[y] for y in sorted(counts)))
    if (names == NO_VALUE).any():
        ordered.append(NO_VALUE)
    return Groups("year", names.rename("group"), tuple(ordered), min_papers)
