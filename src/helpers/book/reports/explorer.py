"""What the explorer chapter says about the papers' own metadata and groups (the page itself: :mod:`helpers.web.explorer`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from helpers.book.display import markdown_cell

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis


def title_source(analysis: "Analysis") -> str:
    """Where the explorer's titles come from, as Markdown: the input's own titles or the seed's metadata file."""
    papers = analysis.papers
    if "title" in papers and bool((papers["title"] != "").any()):
        return ("from the input files' own title fields (the PMLR metadata file, matched by the SHA-1 of the "
                "abstract, fills in the others)")
    return "from the PMLR metadata (matched by the SHA-1 of the abstract)"


def groups_note(analysis: "Analysis") -> str:
    """A Markdown paragraph on the Year column and the group filter; ``""`` when the page has neither.

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> grouped = SimpleNamespace(papers=pd.DataFrame({"year": [2023, 2025]}), group_order=("2023", "2025"),
    ...                           group_by="year")
    >>> print(groups_note(grouped))
    The papers carry their year (the Year column sorts by it) and fall into 2 groups by year (2023, 2025): the group filter shows one of them, and `?group=<name>` opens the explorer on it.
    >>> groups_note(SimpleNamespace(papers=pd.DataFrame({"text": ["x"]}), group_order=("all",), group_by=None))
    ''
    """
    has_year = "year" in analysis.papers
    grouped = len(analysis.group_order) > 1
    if not has_year and not grouped:
        return ""
    parts = ["The papers carry their year (the Year column sorts by it)"] if has_year else []
    if grouped:
        names = ", ".join(markdown_cell(name) for name in analysis.group_order)
        parts.append(f"fall into {len(analysis.group_order):,} groups by {markdown_cell(analysis.group_by)} ({names}): "
                     "the group filter shows one of them, and `?group=<name>` opens the explorer on it")
    if has_year and grouped:
        return parts[0] + " and " + parts[1] + "."
    return (parts[0] if has_year else "The papers " + parts[0]) + "."
