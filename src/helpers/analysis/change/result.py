"""Every comparison between the groups as one frozen :class:`ChangeResult` (:func:`analyse_change`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import pandas as pd
from scipy import sparse

from helpers.analysis.change.link_shares import link_change, software_coverage
from helpers.analysis.change.prevalence import theme_change, theme_prevalence
from helpers.analysis.change.terms import (BURST_COLUMNS, BURST_GAMMA, BURST_SCALE, MIN_BURST_GROUPS, term_bursts,
                                          term_change)
from helpers.analysis.change.thematic_map import N_MAP_BOOTSTRAP, thematic_map
from helpers.analysis.statistics import ProportionChange, proportion_change

__all__ = ["ChangeSettings", "ChangeResult", "analyse_change"]

PREVALENCE = "share of the group's papers whose strongest theme it is, with Wilson's 95% interval"
THEME_TEST = ("Newcombe's hybrid score interval and the two-sided test it inverts, Benjamini-Hochberg corrected; "
              "the interval at the matching level (Benjamini-Yekutieli)")
TREND_TEST = "Cochran-Armitage test for trend over the groups in order (scores 0, 1, 2, ...)"
LINK_TEST = ("Newcombe's hybrid score interval and the test it inverts (first vs last group); chi-square and "
             "Cochran-Armitage trend over all groups; no test where no paper, or every paper, links")


@dataclass(frozen=True)
class ChangeSettings:
    """What the comparisons were computed with, as attributes (``change.settings.map_bootstrap``).

    Attributes
    ----------
    seed : int
        The bootstrap's seed.
    map_bootstrap : int
        Bootstrap resamples of each group's papers for the noise of the thematic map's quadrants.
    burst_scale, burst_gamma : float
        Kleinberg's burst model: the burst state's rate over the base rate, and the cost of entering it.
    min_burst_groups : int
        Bursts are looked for over at least this many groups.
    prevalence, theme_test, trend_test, link_test : str
        What a theme's prevalence is and which test each comparison uses.

    Examples
    --------
    >>> ChangeSettings(seed=1, map_bootstrap=100).map_bootstrap
    100
    """

    seed: int
    map_bootstrap: int = N_MAP_BOOTSTRAP
    burst_scale: float = BURST_SCALE
    burst_gamma: float = BURST_GAMMA
    min_burst_groups: int = MIN_BURST_GROUPS
    prevalence: str = PREVALENCE
    theme_test: str = THEME_TEST
    trend_test: str = TREND_TEST
    link_test: str = LINK_TEST


@dataclass(frozen=True)
class ChangeResult:
    """What changed between the groups (:func:`analyse_change`).

    Attributes
    ----------
    groups : tuple of str
        The groups, in order (years ascending); at least two.
    theme_prevalence : DataFrame
        :func:`theme_prevalence`.
    theme_change : DataFrame
        :func:`theme_change`.
    thematic_map : DataFrame
        :func:`thematic_map`.
    terms : DataFrame
        :func:`term_change`.
    bursts : DataFrame
        :func:`term_bursts` (empty, with its columns, under :data:`MIN_BURST_GROUPS` groups).
    links : DataFrame
        :func:`link_change`.
    link_difference : ProportionChange
        The linked share, first against last group.
    software : DataFrame
        :func:`software_coverage` (empty when no paper has a ``software`` field).
    settings : ChangeSettings
        The bootstrap's size and seed, the burst model's parameters and the tests' names.

    Examples
    --------
    >>> ChangeResult.__dataclass_fields__["groups"].type
    'tuple[str, ...]'
    """

    groups: tuple[str, ...]
    theme_prevalence: pd.DataFrame
    theme_change: pd.DataFrame
    thematic_map: pd.DataFrame
    terms: pd.DataFrame
    bursts: pd.DataFrame
    links: pd.DataFrame
    link_difference: ProportionChange
    software: pd.DataFrame
    settings: ChangeSettings

    def tables(self) -> dict[str, pd.DataFrame]:
        """The CSV outputs, by file stem (``software_links`` only where papers carry a software field)."""
        tables = {"theme_change": self.theme_change, "theme_prevalence": self.theme_prevalence,
                  "thematic_map": self.thematic_map, "term_change": self.terms, "term_bursts": self.bursts,
                  "link_change": self.links, "link_change_test": self.link_difference.as_frame()}
        if len(self.software):
            tables["software_links"] = self.software
        return tables


def analyse_change(papers: pd.DataFrame, groups: Sequence[str], labels: Mapping[int, str], *,
                   terms: Sequence[str], paper_terms: sparse.csr_matrix, paper_ids: Sequence[str],
                   links: pd.DataFrame, seed: int = 0, map_bootstrap: int = N_MAP_BOOTSTRAP) -> ChangeResult:
    """Every comparison between the groups, as one :class:`ChangeResult`.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id, group, theme, link_state`` (and ``year``, ``software`` where the input has them).
    groups : sequence of str
        At least two, in order (years ascending).
    labels : mapping
        Theme number to label (empty without a theme model).
    terms, paper_terms, paper_ids
        The term map's terms and binary paper x term matrix
        (:class:`helpers.analysis.cooccurrence.CooccurrenceResult`).
    links : DataFrame
        ``paper_id, kind``: the links found in the abstracts.

    Returns
    -------
    ChangeResult
        Every table of the comparisons and the settings they were computed with.

    Raises
    ------
    ValueError
        With fewer than two groups.

    Examples
    --------
    >>> from scipy import sparse
    >>> papers = pd.DataFrame({"paper_id": list("abcd"), "group": ["2023", "2023", "2024", "2024"],
    ...                        "theme": [1, 1, 2, 2], "link_state": ["none", "linked", "linked", "linked"]})
    >>> change = analyse_change(papers, ["2023", "2024"], {1: "x", 2: "y"}, terms=["agent"],
    ...                         paper_terms=sparse.csr_matrix([[1], [0], [1], [1]]), paper_ids=list("abcd"),
    ...                         links=pd.DataFrame({"paper_id": ["b"], "kind": ["code"]}))
    >>> change.groups, change.links["share"].tolist()
    (('2023', '2024'), [0.5, 1.0])
    """
    groups = tuple(str(g) for g in groups)
    if len(groups) < 2:
        raise ValueError(f"a comparison needs at least two groups, got {len(groups)}")
    successes = link_change(papers, groups)
    return ChangeResult(
        groups=groups,
        theme_prevalence=theme_prevalence(papers, groups, labels),
        theme_change=theme_change(papers, groups, labels),
        thematic_map=thematic_map(papers, groups, labels, paper_terms, paper_ids, seed=seed,
                                  n_bootstrap=map_bootstrap),
        terms=term_change(papers, groups, terms, paper_terms, paper_ids),
        bursts=(term_bursts(papers, groups, terms, paper_terms, paper_ids) if len(groups) >= MIN_BURST_GROUPS
                else pd.DataFrame(columns=BURST_COLUMNS)),
        links=successes,
        link_difference=proportion_change(successes["n_linked"], successes["n_papers"], groups),
        software=software_coverage(papers, links, groups),
        settings=ChangeSettings(seed=seed, map_bootstrap=map_bootstrap),
    )
