"""What the "What changed" chapter shows, the landing page's lines about change and the other chapters' pointers.

Every value comes from :class:`helpers.analysis.change.ChangeResult` (the tables ``analyse`` writes as
``theme_change.csv``, ``term_change.csv``, ``term_bursts.csv``, ``link_change.csv``, ...). With one
group (no :attr:`~helpers.analysis.pipeline.Analysis.change`) every section is empty and the
chapter is one note; the landing page and the other chapters show nothing new. The chapter's figures are
drawn by :mod:`helpers.book.reports.change_figures` and re-exported here.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pandas as pd

from helpers.analysis.groups import MIN_PERIOD_PAPERS, MIN_PERIOD_SHARE, NO_VALUE, PERIOD_DASH
from helpers.book.display import markdown_cell as md
from helpers.book.formatting import count
from helpers.book.reports.change_figures import (  # noqa: F401  the chapter's figures, with its tables
    MAP_NUMBER_SIZE,
    PREVALENCE_COLUMNS,
    links_figure,
    overlay_figure,
    overlay_range,
    panel_groups,
    prevalence_figure,
    thematic_map_figure,
)
from helpers.web.explorer import explorer_url

if TYPE_CHECKING:
    from helpers.analysis.change import ChangeResult
    from helpers.analysis.pipeline import Analysis

N_TABLE_ROWS = 20
N_TERM_ROWS = 10  # the term tables show their top rows (the CSV holds all), so the page stays one read
N_LISTED = 5
N_QUADRANT_MOVES = 3  # each move is explained in a clause of its own
SIGNIFICANCE = 0.05


def percent(share: float) -> str:
    """A share as a percentage with one decimal.

    Examples
    --------
    >>> percent(0.151515), percent(float("nan"))
    ('15.2%', 'n/a')
    """
    return "n/a" if pd.isna(share) else f"{100 * share:.1f}%"


def points(change: float) -> str:
    """A difference of shares in percentage points, signed.

    Examples
    --------
    >>> points(0.113881), points(-0.0723), points(0.0)
    ('+11.4 points', '-7.2 points', '+0.0 points')
    """
    return f"{100 * change:+.1f} points"


def interval(low: float, high: float, unit: str = "") -> str:
    """``"95% interval 5.8 to 17.8"`` from shares (as percentages or points).

    Examples
    --------
    >>> interval(0.057918, 0.177908, " points"), interval(0.1, 0.2, "%")
    ('95% interval +5.8 to +17.8 points', '95% interval 10.0% to 20.0%')
    """
    if unit == "%":
        return f"95% interval {100 * low:.1f}% to {100 * high:.1f}%"
    return f"95% interval {100 * low:+.1f} to {100 * high:+.1f}{unit}"


def _groups_text(groups: tuple[str, ...]) -> str:
    return ", ".join(groups[:-1]) + f" and {groups[-1]}" if len(groups) > 1 else "".join(groups)


def _theme_sentence(row: pd.Series, md) -> str:
    return (f"*{md(row['label'])}* ({percent(row['share_first'])} of {md(row['first_group'])} to "
            f"{percent(row['share_last'])} of {md(row['last_group'])}, {points(row['change'])}, "
            f"{interval(row['ci_low'], row['ci_high'], ' points')}, BH-adjusted p = {row['q_value']:.3g})")


def _trend_text(slope: float, z: float, p: float, p_name: str = "p") -> str:
    """``"+2.1 points a group, z = 3.14, p = 0.0017"`` (the Cochran-Armitage trend)."""
    return f"{points(slope)} a group, z = {z:.2f}, {p_name} = {p:.3g}"


def trend_sentence(change: "ChangeResult", md) -> str:
    """How many themes' shares follow a trend over every group, and the steepest rise and fall among them.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"label": ["x", "y", "z"], "trend_slope": [0.05, -0.03, 0.0],
    ...                       "trend_z": [3.2, -2.5, 0.1], "trend_q": [0.004, 0.02, 0.9]})
    >>> trend_sentence(SimpleNamespace(groups=("a", "b", "c"), theme_change=table), str)
    '2 of 3 themes follow a trend over the 3 groups (Cochran–Armitage, BH-adjusted p below 0.05): the steepest rise is *x* (+5.0 points a group, z = 3.20, BH-adjusted p = 0.004), the steepest fall is *y* (-3.0 points a group, z = -2.50, BH-adjusted p = 0.02)'
    """
    table = change.theme_change
    if not len(table):
        return "no theme to test"
    trending = table[table["trend_q"] < SIGNIFICANCE]
    verb = "follows" if len(trending) == 1 else "follow"
    head = (f"{len(trending)} of {count(len(table), 'theme')} {verb} a trend over the {len(change.groups)} groups "
            "(Cochran–Armitage, BH-adjusted p below 0.05)")
    parts = []
    for name, rows in (("the steepest rise is", trending[trending["trend_z"] > 0].sort_values(
            "trend_z", ascending=False, kind="mergesort")),
            ("the steepest fall is", trending[trending["trend_z"] < 0].sort_values("trend_z", kind="mergesort"))):
        if len(rows):
            row = rows.iloc[0]
            parts.append(f"{name} *{md(row['label'])}* "
                         f"({_trend_text(row['trend_slope'], row['trend_z'], row['trend_q'], 'BH-adjusted p')})")
    return head + (": " + ", ".join(parts) if parts else "")


def rise_and_fall(change: "ChangeResult") -> tuple[pd.Series | None, pd.Series | None]:
    """The theme with the largest rise and the one with the largest fall (``None`` when no theme rose / fell)."""
    table = change.theme_change
    rises, falls = table[table["change"] > 0], table[table["change"] < 0]
    rise = rises.iloc[0] if len(rises) else None
    fall = falls.sort_values(["change", "theme"], kind="mergesort").iloc[0] if len(falls) else None
    return rise, fall


def change_values(analysis: "Analysis") -> dict[str, Any]:
    """Every value the chapter glues (``change_...``); only ``change_note`` with one group."""
    change = analysis.change
    min_papers = int(getattr(analysis, "group_min_papers", 0) or 0)
    if change is None:
        grouped = getattr(analysis, "group_by", None) is not None and "group" in analysis.papers
        present = [g for g in analysis.papers["group"].astype(str).unique().tolist() if g != NO_VALUE] if grouped else []
        if len(present) == 1 and min_papers:
            return {"change_note": (f"All {count(len(analysis.papers), 'paper')} of this corpus fall in one period "
                                    f"(*{md(present[0])}*): by default years are merged into periods of at least "
                                    f"{count(min_papers, 'paper')}, and there are too few papers for two, so there "
                                    "is nothing to compare. `--group-by year` (`BOOK_GROUP_BY=year` for the book) "
                                    "compares every year however few its papers.")}
        what = f"one group (*{md(present[0])}*, by {md(analysis.group_by)})" if len(present) == 1 else "one group"
        return {"change_note": (f"All {count(len(analysis.papers), 'paper')} of this corpus form {what}, so there is "
                                "nothing to compare. Give papers of several years, venues or files (grouped with "
                                "`--group-by`, or `BOOK_GROUP_BY` for the book) and this chapter shows what rose, "
                                "fell and changed between them.")}
    groups = change.groups
    sizes = change.links.set_index("group")["n_papers"]
    compared = int(sizes.sum())
    merged = ""
    if min_papers:
        merged = (f" Years with few papers are merged into periods of at least {count(min_papers, 'paper')} "
                  f"({MIN_PERIOD_PAPERS}, or {100 * MIN_PERIOD_SHARE:.0f}% of the papers with a year where that is "
                  f"more); `--group-by year` keeps every year apart." if any(PERIOD_DASH in g for g in groups)
                  else f" Every year holds at least {count(min_papers, 'paper')}, so no years are merged.")
    left_out = len(analysis.papers) - compared
    values: dict[str, Any] = {
        "change_note": (f"The {count(compared, 'paper')} form {len(groups)} groups: "
                        + "; ".join(f"{md(g)} ({count(int(sizes[g]), 'paper')})" for g in groups) + "."
                        + merged
                        + (f" {count(left_out, 'paper')} without a value are in no comparison." if left_out else "")
                        + f" Each share is tested for a trend over every group and between the first and the "
                        f"last group ({md(groups[0])} and {md(groups[-1])})."),
        "change_first": groups[0], "change_last": groups[-1], "change_n_bootstrap": change.settings.n_bootstrap,
        "change_seed": change.settings.seed,
    }
    table = change.theme_change
    values["change_n_themes"] = len(table)
    values["change_n_significant"] = int((table["q_value"] < SIGNIFICANCE).sum()) if len(table) else 0
    rise, fall = rise_and_fall(change)
    values["change_rise_sentence"] = _theme_sentence(rise, md) if rise is not None else "none (no theme's share rose)"
    values["change_fall_sentence"] = _theme_sentence(fall, md) if fall is not None else "none (no theme's share fell)"
    values["change_trend_sentence"] = trend_sentence(change, md)
    values["change_quadrant_sentence"] = quadrant_moves(change, md)
    terms = change.terms
    new = terms[terms["new_in_latest"]]
    values.update({
        "change_n_terms": len(terms), "change_n_new": len(new),
        "change_new_sentence": ("; ".join(f"*{md(t)}* ({n})" for t, n in zip(new["term"].head(N_LISTED),
                                                                             new["n_latest"].head(N_LISTED)))
                                or f"none: every map term already occurs before {md(groups[-1])}"),
        "change_burst_sentence": burst_sentence(change, md),
        "change_burst_scale": change.settings.burst_scale, "change_burst_gamma": change.settings.burst_gamma,
    })
    recent = terms[terms["n_papers"] > 0].sort_values([when_column(terms), "n_papers", "term"],
                                                       ascending=[False, False, True], kind="mergesort")
    values["change_recent_sentence"] = "; ".join(f"*{md(t)}*" for t in recent["term"].head(N_LISTED)) or "none"
    difference = change.link_difference
    links = change.links.set_index("group")
    first, last = links.loc[groups[0]], links.loc[groups[-1]]
    values.update({
        "change_linked_first": f"{percent(first['share'])} ({int(first['n_linked'])} of {int(first['n_papers'])}, "
                               f"{interval(first['ci_low'], first['ci_high'], '%')})",
        "change_linked_last": f"{percent(last['share'])} ({int(last['n_linked'])} of {int(last['n_papers'])}, "
                              f"{interval(last['ci_low'], last['ci_high'], '%')})",
        "change_linked_difference": f"{points(difference.difference)} "
                                    f"({interval(difference.ci_low, difference.ci_high, ' points')})",
        "change_linked_z": f"z = {difference.z:.2f}, p = {difference.p_value:.3g}",
        "change_linked_chi2": f"chi-square = {difference.chi2:.2f} with {count(int(difference.dof), 'degree')} of freedom, "
                              f"p = {difference.p_all:.3g}",
        "change_linked_trend": _trend_text(difference.trend_slope, difference.trend_z, difference.trend_p),
    })
    return values


def _side(value: float, median: float) -> str:
    return "at or above" if value >= median else "below"


def _against(value: float, median: float) -> tuple[str, str]:
    """Value and median with two decimals, or as many more as tell them apart (up to six).

    Examples
    --------
    >>> _against(12.9053, 12.9088), _against(3.0, 2.0)
    (('12.905', '12.909'), ('3.00', '2.00'))
    """
    for decimals in range(2, 7):
        shown = f"{value:.{decimals}f}", f"{median:.{decimals}f}"
        if shown[0] != shown[1] or value == median:
            return shown
    return shown


def quadrant_moves(change: "ChangeResult", md) -> str:
    """The themes whose quadrant of the thematic map differs between the first and the last group, each
    with why: its centrality and density in the last group against that group's medians (the quadrants'
    borders; at most :data:`N_QUADRANT_MOVES`, the largest themes first).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"group": ["a", "a", "b", "b"], "theme": [1, 2, 1, 2], "label": ["x", "y", "x", "y"],
    ...                       "n_papers": [5, 5, 6, 4], "centrality": [2.0, 1.0, 3.0, 1.0],
    ...                       "density": [1.0, 4.0, 5.0, 6.0], "quadrant": ["motor", "niche", "basic", "niche"]})
    >>> quadrant_moves(SimpleNamespace(groups=("a", "b"), thematic_map=table), str)
    '*x*, motor in a, is basic in b: its centrality 3.00 is at or above the median 2.00 of b and its density 5.00 below the median 5.50'
    """
    table = change.thematic_map
    first = table[table["group"] == change.groups[0]].set_index("theme")
    last = table[table["group"] == change.groups[-1]].set_index("theme")
    both = first.index.intersection(last.index)
    moved = [t for t in sorted(both, key=lambda t: (-int(last.loc[t, "n_papers"]), t))
             if first.loc[t, "quadrant"] != last.loc[t, "quadrant"]]
    if not moved:
        return "none"
    centre, dense = float(last["centrality"].median()), float(last["density"].median())
    group = md(change.groups[-1])
    texts = []
    for t in moved[:N_QUADRANT_MOVES]:
        c, d = float(last.loc[t, "centrality"]), float(last.loc[t, "density"])
        (c_text, centre_text), (d_text, dense_text) = _against(c, centre), _against(d, dense)
        texts.append(f"*{md(first.loc[t, 'label'])}*, {first.loc[t, 'quadrant']} in {md(change.groups[0])}, is "
                     f"{last.loc[t, 'quadrant']} in {group}: its centrality {c_text} is {_side(c, centre)} the "
                     f"median {centre_text} of {group} and its density {d_text} {_side(d, dense)} the median "
                     f"{dense_text}")
    more = len(moved) - N_QUADRANT_MOVES
    return "; ".join(texts) + (f"; and {more} more (`thematic_map.csv`)" if more > 0 else "")


def burst_sentence(change: "ChangeResult", md) -> str:
    """The bursts, strongest first, as one sentence; or why there are none.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> burst_sentence(SimpleNamespace(groups=("a", "b"), bursts=pd.DataFrame()), str)
    'Bursts are looked for over 4 groups or more; over 2 groups a burst cannot stand apart from the first or the last group.'
    """
    from helpers.analysis.change import MIN_BURST_GROUPS  # lazy: at the top it would load scipy
    n_groups = len(change.groups)
    if n_groups < MIN_BURST_GROUPS:
        return (f"Bursts are looked for over {MIN_BURST_GROUPS} groups or more; over {n_groups} groups a burst "
                "cannot stand apart from the first or the last group.")
    if not len(change.bursts):
        return f"No term bursts over the {n_groups} groups."
    listed = "; ".join(_burst_text(b, md) for b in change.bursts.head(N_LISTED).itertuples())
    return f"The {count(len(change.bursts), 'burst')}, strongest first: {listed}."


def _burst_text(burst, md) -> str:
    until = f" to {md(burst.end_group)}" if burst.end_group != burst.start_group else ""
    return f"*{md(burst.term)}* ({md(burst.start_group)}{until}, weight {burst.weight:.2f})"


#: What each analysis chapter's reader finds in "What changed".
POINTERS = {"themes": "how each theme's share changed between them, with intervals and a test",
            "cooccurrence": "this map coloured by year, the terms new in the latest group and the terms that burst",
            "links": "how the share of papers giving a link changed between them, with a test"}


def pointer(analysis: "Analysis", chapter: str) -> str:
    """The line an analysis chapter (a key of :data:`POINTERS`) shows when there are groups; empty with one group."""
    if analysis.change is None:
        return ""
    what = POINTERS[chapter]
    groups = tuple(md(g) for g in analysis.change.groups)
    return f"The papers form {len(groups)} groups ({_groups_text(groups)}): {{ref}}`sec-change` shows {what}."


def landing_block(analysis: "Analysis") -> str:
    """The landing page's change findings as one MyST bullet list (empty with one group)."""
    if analysis.change is None:
        return ""
    values = change_values(analysis)
    first, last = md(values["change_first"]), md(values["change_last"])
    return (f"- **What changed** ({{ref}}`sec-change`, {first} to {last}): "
            f"the largest rise is {values['change_rise_sentence']}; the largest fall is "
            f"{values['change_fall_sentence']}. Papers linking code, data or a project page: "
            f"{values['change_linked_first']} in {first}, {values['change_linked_last']} in "
            f"{last}, a change of {values['change_linked_difference']}. Over every group, "
            f"{values['change_trend_sentence']}; the share of papers linking code moves "
            f"{values['change_linked_trend']} (Cochran–Armitage).")


def _explorer_link(url: str, text: str) -> str:
    return f'<a href="{html.escape(url, quote=True)}">{html.escape(str(text))}</a>'


def theme_change_table(change: "ChangeResult") -> pd.DataFrame:
    """The themes by change, with a link to each theme's papers in the explorer."""
    table = change.theme_change
    return pd.DataFrame({
        "theme": [f"{int(t)}. {label}" for t, label in zip(table["theme"], table["label"])],
        "first group": table["share_first"].map(percent),
        "last group": table["share_last"].map(percent),
        # change and interval in one column keep the table inside the page at every width
        "change, points (95% interval)": [
            f"{100 * change:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"
            for change, lo, hi in zip(table["change"], table["ci_low"], table["ci_high"])],
        "Fisher p (BH)": table["q_value"].map(lambda p: f"{p:.3g}"),
        "trend, points a group (BH p)": [f"{100 * slope:+.1f} ({q:.3g})"
                                         for slope, q in zip(table["trend_slope"], table["trend_q"])],
        "explorer": [_explorer_link(explorer_url(theme=int(t)), "papers") for t in table["theme"]],
    })


def _term_link(term: str, group: str = "") -> str:
    return _explorer_link(explorer_url(terms=(term,), group=group), "papers")


def new_terms_table(change: "ChangeResult") -> pd.DataFrame:
    """Terms new in the latest group, most papers first, each linked to its papers in the explorer."""
    new = change.terms[change.terms["new_in_latest"]]
    return pd.DataFrame({"term": new["term"], "papers in the latest group": new["n_latest"],
                         "explorer": [_term_link(t, change.groups[-1]) for t in new["term"]]})


def recent_terms_table(change: "ChangeResult") -> pd.DataFrame:
    """Map terms by mean year (or group position) of their papers, latest first (the overlay's order)."""
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

    Examples
    --------
    >>> when_column(pd.DataFrame({"balanced_year": [float("nan")], "mean_position": [1.5]}))
    'mean_position'
    """
    return "balanced_year" if terms["balanced_year"].notna().any() else "mean_position"


def bursts_table(change: "ChangeResult") -> pd.DataFrame:
    """The term bursts, strongest first, each term linked to its papers in the explorer."""
    bursts = change.bursts
    return pd.DataFrame({"term": bursts["term"], "from": bursts["start_group"], "to": bursts["end_group"],
                         "papers in the burst": bursts["n_papers"], "weight": bursts["weight"].round(3),
                         "explorer": [_term_link(t, start if n == 1 else "") for t, start, n
                                      in zip(bursts["term"], bursts["start_group"], bursts["n_groups"])]})


def links_table(change: "ChangeResult") -> pd.DataFrame:
    """Linked papers per group with Wilson intervals."""
    links = change.links
    return pd.DataFrame({"group": links["group"], "papers": links["n_papers"], "linked": links["n_linked"],
                         "share": links["share"].map(percent),
                         "95% Wilson interval": [interval(low, high, "%").removeprefix("95% interval ")
                                                 for low, high in zip(links["ci_low"], links["ci_high"])],
                         "explorer": [_explorer_link(explorer_url(group=g, state="linked"), "linked papers")
                                      for g in links["group"]]})
