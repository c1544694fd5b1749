"""The "What changed" chapter's tables: themes, new terms, recent terms, bursts and linked papers per group.

Each table links its rows to their papers in the paper explorer (escaped HTML), and shows at most
:data:`N_TABLE_ROWS` or :data:`N_TERM_ROWS` rows on the page (the CSV holds all). The chapter's sentences are in
:mod:`helpers.book.reports.change`.
"""

from __future__ import annotations

import html
from functools import partial
from typing import TYPE_CHECKING

import pandas as pd

from helpers.book.formatting import interval, level_text, p_text, percent
from helpers.web.explorer import explorer_url

if TYPE_CHECKING:
    from helpers.analysis.change import ChangeResult

__all__ = ["N_TABLE_ROWS", "N_TERM_ROWS", "theme_change_table", "new_terms_table", "recent_terms_table",
           "when_column", "bursts_table", "links_table"]

N_TABLE_ROWS = 20


N_TERM_ROWS = 10  # the term tables show their top rows (the CSV holds all), so the page stays one read


def _explorer_link(url: str, text: str) -> str:
    return f'<a href="{html.escape(url, quote=True)}">{html.escape(str(text))}</a>'


def theme_change_table(change: "ChangeResult") -> pd.DataFrame:
    """The themes by change, with a link to each theme's papers in the explorer (and their trend from three
    groups on: over two, the trend is the change).

    Parameters
    ----------
    change : ChangeResult
        Its ``theme_change`` table and its groups (a trend column from three groups on).

    Returns
    -------
    DataFrame
        ``theme, first group, last group``, the change with its interval, ``p (BH)``, the trend (three groups
        or more) and ``explorer``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> themes = pd.DataFrame({"theme": [1], "label": ["egg quality"], "share_first": [0.1], "share_last": [0.25],
    ...     "change": [0.15], "ci_low": [0.05], "ci_high": [0.25], "ci_level": [0.95], "q_value": [0.004],
    ...     "trend_slope": [0.15], "trend_q": [0.004]})
    >>> theme_change_table(SimpleNamespace(theme_change=themes, groups=("2020", "2021"))).iloc[0, :4].tolist()
    ['1. egg quality', '10.0%', '25.0%', '+15.0 (+5.0 to +25.0)']
    """
    table = change.theme_change
    shown = pd.DataFrame({
        "theme": [f"{int(t)}. {label}" for t, label in zip(table["theme"], table["label"])],
        "first group": table["share_first"].map(partial(percent, decimals=1)),
        "last group": table["share_last"].map(partial(percent, decimals=1)),
        # change and interval in one column keep the table inside the page at every width
        f"change, points ({level_text(float(table['ci_level'].iloc[0])) if len(table) else '95%'} interval)": [
            f"{100 * change:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"
            for change, lo, hi in zip(table["change"], table["ci_low"], table["ci_high"])],
        "p (BH)": table["q_value"].map(lambda p: "not tested" if pd.isna(p) else p_text(p)),
        "trend, points a group (BH p)": [f"{100 * slope:+.1f} ({p_text(q)})"
                                         for slope, q in zip(table["trend_slope"], table["trend_q"])],
        "explorer": [_explorer_link(explorer_url(theme=int(t)), "papers") for t in table["theme"]],
    })
    return shown.drop(columns="trend, points a group (BH p)") if len(change.groups) == 2 else shown


def _term_link(term: str, group: str = "") -> str:
    return _explorer_link(explorer_url(terms=(term,), group=group), "papers")


def new_terms_table(change: "ChangeResult") -> pd.DataFrame:
    """Terms new in the latest group, most papers first, each linked to its papers in the explorer.

    Parameters
    ----------
    change : ChangeResult
        Its ``terms`` table (``new_in_latest``, ``n_latest``) and its latest group.

    Returns
    -------
    DataFrame
        ``term, papers in the latest group, explorer``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> terms = pd.DataFrame({"term": ["egg quality", "barn"], "new_in_latest": [True, False], "n_latest": [3, 1]})
    >>> new_terms_table(SimpleNamespace(terms=terms, groups=("2020", "2021"))).iloc[:, :2].values.tolist()
    [['egg quality', 3]]
    """
    new = change.terms[change.terms["new_in_latest"]]
    return pd.DataFrame({"term": new["term"], "papers in the latest group": new["n_latest"],
                         "explorer": [_term_link(t, change.groups[-1]) for t in new["term"]]})


def recent_terms_table(change: "ChangeResult") -> pd.DataFrame:
    """Map terms by mean year (or group position) of their papers, latest first (the overlay's order).

    Parameters
    ----------
    change : ChangeResult
        Its ``terms`` table (occurrences, first group, mean year or group).

    Returns
    -------
    DataFrame
        ``term, papers, first group``, the mean year (or group), ``explorer``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> terms = pd.DataFrame({"term": ["hen", "barn"], "n_papers": [4, 2], "first_group": ["2020", "2021"],
    ...                       "balanced_year": [2020.5, 2021.0], "mean_position": [1.5, 2.0]})
    >>> recent_terms_table(SimpleNamespace(terms=terms))["term"].tolist()
    ['barn', 'hen']
    """
    when = when_column(change.terms)
    terms = change.terms[change.terms["n_papers"] > 0].sort_values(
        [when, "n_papers", "term"], ascending=[False, False, True], kind="mergesort")
    # one column for when: the overlay's colour, the year where papers have years, else the group
    header = "mean year (groups alike)" if when == "balanced_year" else "mean group (1 = first)"
    return pd.DataFrame({"term": terms["term"], "papers": terms["n_papers"], "first group": terms["first_group"],
                         header: terms[when].round(2), "explorer": terms["term"].map(_term_link)})


def when_column(terms: pd.DataFrame) -> str:
    """The column of ``terms`` that says when a term is used, as the overlay colours it: ``balanced_year``
    where papers have years, else ``mean_position``.

    Parameters
    ----------
    terms : DataFrame
        The terms' change (``change.terms``).

    Returns
    -------
    str

    Examples
    --------
    >>> when_column(pd.DataFrame({"balanced_year": [float("nan")], "mean_position": [1.5]}))
    'mean_position'
    """
    return "balanced_year" if terms["balanced_year"].notna().any() else "mean_position"


def bursts_table(change: "ChangeResult") -> pd.DataFrame:
    """The term bursts, strongest first, each term linked to its papers in the explorer.

    Parameters
    ----------
    change : ChangeResult
        Its ``bursts`` table.

    Returns
    -------
    DataFrame
        ``term, from, to, papers in the burst, weight, explorer``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> bursts = pd.DataFrame({"term": ["hen"], "start_group": ["2021"], "end_group": ["2022"], "n_papers": [5],
    ...                        "weight": [1.23456], "n_groups": [2]})
    >>> bursts_table(SimpleNamespace(bursts=bursts)).iloc[0, :5].astype(str).tolist()
    ['hen', '2021', '2022', '5', '1.235']
    """
    bursts = change.bursts
    return pd.DataFrame({"term": bursts["term"], "from": bursts["start_group"], "to": bursts["end_group"],
                         "papers in the burst": bursts["n_papers"], "weight": bursts["weight"].round(3),
                         "explorer": [_term_link(t, start if n == 1 else "") for t, start, n
                                      in zip(bursts["term"], bursts["start_group"], bursts["n_groups"])]})


def links_table(change: "ChangeResult") -> pd.DataFrame:
    """Linked papers per group with Wilson intervals.

    Parameters
    ----------
    change : ChangeResult
        Its ``links`` table: linked papers per group, with Wilson intervals.

    Returns
    -------
    DataFrame
        ``group, papers, linked, share, 95% Wilson interval, explorer``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> links = pd.DataFrame({"group": ["2020"], "n_papers": [40], "n_linked": [10], "share": [0.25],
    ...                       "ci_low": [0.142], "ci_high": [0.402]})
    >>> links_table(SimpleNamespace(links=links)).iloc[0, :5].astype(str).tolist()
    ['2020', '40', '10', '25.0%', '14.2% to 40.2%']
    """
    links = change.links
    return pd.DataFrame({"group": links["group"], "papers": links["n_papers"], "linked": links["n_linked"],
                         "share": links["share"].map(partial(percent, decimals=1)),
                         "95% Wilson interval": [interval(low, high, "%").removeprefix("95% interval ")
                                                 for low, high in zip(links["ci_low"], links["ci_high"])],
                         "explorer": [_explorer_link(explorer_url(group=g, state="linked"), "linked papers")
                                      for g in links["group"]]})
