"""The themes page's two grains: the broad themes with their themes, and the papers mixed at either grain
(:mod:`helpers.analysis.themes.hierarchy`)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pandas as pd

from helpers.analysis.themes.broad_labels import BROAD_LABEL_RULE, N_POOLED_TERMS
from helpers.analysis.themes.hierarchy import MIXED_SHARE
from helpers.book.display import markdown_cell as md
from helpers.book.formatting import count, number, percent
from helpers.web.explorer import explorer_url, papers_link_text

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["hierarchy_table", "grain_findings"]

HIERARCHY_COLUMNS = ["broad theme", "papers", "mixed", "themes (papers)", "explorer"]


def _mixed(papers: pd.DataFrame) -> pd.Series:
    """Whether each paper is mixed (its strongest theme under half its theme weight); no paper without the column."""
    return papers["mixed"].astype(bool) if "mixed" in papers else pd.Series(False, index=papers.index)


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _broad_mixed(n: int, n_papers: int) -> str:
    """``"none is"``, ``"1 paper (2%) is"``, ``"7 papers (12%) are"``."""
    if n == 0:
        return "none is"
    return f"{count(n, 'paper')} ({percent(n / max(n_papers, 1))}) {'is' if n == 1 else 'are'}"


def hierarchy_table(analysis: "Analysis") -> pd.DataFrame:
    """One row per broad theme (:data:`HIERARCHY_COLUMNS`): ``"A. label"``, its papers, how many of them are
    mixed, its themes with their papers (``"2. label (68)"``, escaped, one a line) and an escaped link to its
    papers in the explorer (``?broad=A``); empty without broad themes. The last two are HTML.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its broad themes (``analysis.hierarchy``) and papers.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"broad_theme": ["A", "A", "B"], "broad_label": ["x · <y>"] * 2 + ["z · w"],
    ...                       "broad_n_papers": [3, 3, 1], "theme": [1, 3, 2], "label": ["a", "c", "b"],
    ...                       "n_papers": [2, 1, 1]})
    >>> papers = pd.DataFrame({"broad_theme": ["A", "A", "B", "A"], "mixed": [True, False, False, False]})
    >>> rows = hierarchy_table(SimpleNamespace(hierarchy=SimpleNamespace(table=table), papers=papers))
    >>> rows.drop(columns="explorer").values.tolist()
    [['A. x · <y>', 3, 1, '1. a (2); <br>3. c (1)'], ['B. z · w', 1, 0, '2. b (1)']]
    >>> rows["explorer"].iloc[0]
    '<a href="explorer.html?broad=A">all 3 papers</a>'
    """
    if analysis.hierarchy is None:
        return pd.DataFrame(columns=HIERARCHY_COLUMNS)
    papers = analysis.papers
    mixed = _mixed(papers)
    rows = []
    for broad, group in analysis.hierarchy.table.groupby("broad_theme", sort=False):
        n_papers = int(group["broad_n_papers"].iloc[0])
        # One theme a line on the page; "; " between them in the PDF book's Markdown, which drops the tags.
        members = "; <br>".join(html.escape(f"{int(t)}. {label} ({int(n):,})")
                               for t, label, n in zip(group["theme"], group["label"], group["n_papers"]))
        link = (f'<a href="{html.escape(explorer_url(broad=str(broad)))}">'
                f"{html.escape(papers_link_text(n_papers))}</a>")
        rows.append({"broad theme": f"{broad}. {group['broad_label'].iloc[0]}", "papers": n_papers,
                     "mixed": int((mixed & (papers["broad_theme"] == broad)).sum()) if "broad_theme" in papers else 0,
                     "themes (papers)": members, "explorer": link})
    return pd.DataFrame(rows, columns=HIERARCHY_COLUMNS)


def grain_findings(analysis: "Analysis") -> dict[str, str]:
    """The glued values of the two grains: ``themes_grains_lead`` (Markdown: how many broad themes, the papers
    mixed between themes and between broad themes), ``themes_n_broad``, ``themes_broad_rule``,
    ``themes_n_pooled_terms``, ``themes_broad_label_rule`` and ``themes_broad_mixed_n`` (the papers, counted with
    their noun, whose broad theme holds under half their weight); ``"n/a"`` and an empty lead without broad themes.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its themes, broad themes and papers.

    Returns
    -------
    dict
        ``themes_grains_lead`` (Markdown) and the ``themes_*`` counts and rules it names.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"broad_theme": ["A", "A", "B"], "broad_label": ["x · y", "x · y", "z"],
    ...                       "broad_n_papers": [3, 3, 1], "theme": [1, 3, 2], "label": ["a", "c", "b"],
    ...                       "n_papers": [2, 1, 1]})
    >>> papers = pd.DataFrame({"theme": [1, 3, 2, 1], "mixed": [True, True, False, False],
    ...                        "broad_theme": ["A", "A", "B", "A"], "broad_theme_weight": [0.9, 0.4, 1.0, 1.0]})
    >>> analysis = SimpleNamespace(hierarchy=SimpleNamespace(table=table, rule="r"), papers=papers,
    ...                            themes=SimpleNamespace(table=table))
    >>> print(grain_findings(analysis)["themes_grains_lead"])  # doctest: +NORMALIZE_WHITESPACE
    At a coarser grain the 3 themes form **2 broad themes**: *x · y* (3 papers) and *z* (1 paper). 2 of the 4
    papers (50%) are *mixed*, no theme holding half their weight; at the broad grain 1 paper (25%) is.
    """
    names = ["themes_grains_lead", "themes_n_broad", "themes_broad_rule", "themes_broad_mixed_n"]
    if analysis.hierarchy is None or "mixed" not in analysis.papers:
        return {**{name: "n/a" for name in names}, "themes_grains_lead": "No broad themes: no themes could be fitted.",
                "themes_n_pooled_terms": str(N_POOLED_TERMS), "themes_broad_label_rule": BROAD_LABEL_RULE}
    table, papers = analysis.hierarchy.table, analysis.papers
    broad = table.drop_duplicates("broad_theme")
    n_papers = len(papers)
    mixed = int(_mixed(papers).sum())
    assigned = papers["broad_theme"].astype(str) != ""
    broad_mixed = int((assigned & (papers["broad_theme_weight"] < MIXED_SHARE)).sum())
    parts = [f"*{md(label)}* ({count(int(n), 'paper')})"
             for label, n in zip(broad["broad_label"], broad["broad_n_papers"])]
    lead = (f"At a coarser grain the {count(len(table), 'theme')} form **{count(len(broad), 'broad theme')}**: "
            f"{_and(parts)}. {number(mixed)} of the {count(n_papers, 'paper')} "
            f"({percent(mixed / max(n_papers, 1))}) {'is' if mixed == 1 else 'are'} *mixed*, no theme holding half "
            f"their weight; at the broad grain {_broad_mixed(broad_mixed, n_papers)}.")
    return {"themes_grains_lead": lead, "themes_n_broad": str(len(broad)), "themes_broad_rule": analysis.hierarchy.rule,
            "themes_broad_mixed_n": count(broad_mixed, "paper"), "themes_n_pooled_terms": str(N_POOLED_TERMS),
            "themes_broad_label_rule": BROAD_LABEL_RULE}
