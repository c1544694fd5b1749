"""The share of papers linking per group, and how often a code link given to the venue is in the abstract too."""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from helpers.analysis.change.group_order import group_numbers
from helpers.analysis.statistics import wilson_interval

__all__ = ["LINK_COLUMNS", "SOFTWARE_KINDS", "SOFTWARE_COLUMNS", "link_change", "software_coverage"]

LINK_COLUMNS = ["group", "n_papers", "n_linked", "share", "ci_low", "ci_high"]
#: Link kinds that count as the abstract giving code: code hosts and project pages (``software`` fields hold both).
SOFTWARE_KINDS = ("code", "project page")
SOFTWARE_COLUMNS = ["group", "n_papers", "n_software", "software_share", "n_abstract_code",
                    "n_software_abstract_code", "abstract_share", "ci_low", "ci_high"]


def link_change(papers: pd.DataFrame, groups: Sequence[str]) -> pd.DataFrame:
    """Share of papers in state ``linked`` per group, with Wilson 95% intervals (:data:`LINK_COLUMNS`).

    Parameters
    ----------
    papers : DataFrame
        ``group`` and ``link_state`` of each paper.
    groups : sequence of str
        The groups, in order.

    Returns
    -------
    DataFrame
        One row per group, columns :data:`LINK_COLUMNS` (``share`` NaN for a group without papers).

    Examples
    --------
    >>> papers = pd.DataFrame({"group": ["a", "a", "b"], "link_state": ["linked", "none", "linked"]})
    >>> link_change(papers, ["a", "b"])[["group", "n_papers", "n_linked", "share"]]
      group  n_papers  n_linked  share
    0     a         2         1    0.5
    1     b         1         1    1.0
    """
    codes = group_numbers(papers, groups)
    linked = (papers["link_state"] == "linked").to_numpy()
    rows = []
    for index, group in enumerate(groups):
        n, k = int((codes == index).sum()), int((linked & (codes == index)).sum())
        low, high = wilson_interval(k, n)
        rows.append(dict(group=group, n_papers=n, n_linked=k, share=round(k / n, 6) if n else float("nan"),
                         ci_low=round(low, 6), ci_high=round(high, 6)))
    return pd.DataFrame(rows, columns=LINK_COLUMNS)


def software_coverage(papers: pd.DataFrame, links: pd.DataFrame, groups: Sequence[str]) -> pd.DataFrame:
    """Where papers carry a ``software`` field: how many of those papers' abstracts also give a code link.

    ``n_software`` papers have a link in ``software`` (the code link given to the venue: a host name,
    with or without a scheme and a path; ``"."`` is no link);
    ``n_abstract_code`` papers have a link of a kind in :data:`SOFTWARE_KINDS` (a code host or a
    project page, what a software field holds) in their abstract (``links``: ``paper_id, kind``);
    ``abstract_share = n_software_abstract_code / n_software`` with its Wilson interval, how far the
    abstract falls short of the metadata. Only groups with a software field on some paper;
    empty without a ``software`` column.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id``, ``group`` and, where the input has it, ``software``.
    links : DataFrame
        ``paper_id, kind``: the links found in the abstracts.
    groups : sequence of str
        The groups, in order.

    Returns
    -------
    DataFrame
        One row per group with a software field, columns :data:`SOFTWARE_COLUMNS`.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["a", "b", "c"], "group": "2025",
    ...                        "software": ["https://github.com/x/y", "lab.github.io", "."]})
    >>> links = pd.DataFrame({"paper_id": ["a"], "kind": ["code"]})
    >>> table = software_coverage(papers, links, ["2025"])
    >>> table[["group", "n_software", "n_software_abstract_code", "abstract_share"]]
      group  n_software  n_software_abstract_code  abstract_share
    0  2025           2                         1             0.5
    """
    if "software" not in papers:
        return pd.DataFrame(columns=SOFTWARE_COLUMNS)
    # A link: a host name with a dot, with or without a scheme and a path (PMLR's ``software = {.}`` is none).
    software = papers["software"].fillna("").astype(str)
    has_software = software.str.contains(r"[\w-]+(?:\.[\w-]+)+", regex=True).to_numpy()
    code_papers = set(links.loc[links["kind"].isin(SOFTWARE_KINDS), "paper_id"].astype(str))
    abstract_code = papers["paper_id"].astype(str).isin(code_papers).to_numpy()
    codes = group_numbers(papers, groups)
    rows = []
    for index, group in enumerate(groups):
        members = codes == index
        n_software = int((has_software & members).sum())
        if not n_software:
            continue
        n, both = int(members.sum()), int((has_software & abstract_code & members).sum())
        low, high = wilson_interval(both, n_software)
        rows.append(dict(group=group, n_papers=n, n_software=n_software, software_share=round(n_software / n, 6),
                         n_abstract_code=int((abstract_code & members).sum()), n_software_abstract_code=both,
                         abstract_share=round(both / n_software, 6), ci_low=round(low, 6), ci_high=round(high, 6)))
    return pd.DataFrame(rows, columns=SOFTWARE_COLUMNS)
