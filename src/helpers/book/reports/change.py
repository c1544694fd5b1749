"""What the "What changed" chapter shows, the landing page's lines about change and the other chapters' pointers.

Every value comes from :class:`helpers.analysis.change.ChangeResult` (the tables ``analyse`` writes as
``theme_change.csv``, ``term_change.csv``, ``term_bursts.csv``, ``link_change.csv``, ...). With one
group (no :attr:`~helpers.analysis.pipeline.Analysis.change`) every section is empty and the
chapter is one note; the landing page and the other chapters show nothing new. The chapter's figures are
drawn by :mod:`helpers.book.reports.change_figures`, its tables by :mod:`helpers.book.reports.change_tables`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from helpers.analysis.corpus.groups import MIN_PERIOD_PAPERS, MIN_PERIOD_SHARE, NO_VALUE, PERIOD_DASH
from helpers.book.display import markdown_cell as md
from helpers.book.formatting import count, interval, p_text, percent, points
from helpers.book.reports.change_tables import when_column
from helpers.book.reports.link_threshold import few_links

if TYPE_CHECKING:
    from helpers.analysis.change import ChangeResult
    from helpers.analysis.pipeline import Analysis

N_LISTED = 5
N_QUADRANT_MOVES = 3  # each move is explained in a clause of its own
SIGNIFICANCE = 0.05


def _p_is(p: float) -> str:
    """``"= 0.0421"`` or ``"< 0.001"``, to follow ``p``."""
    text = p_text(p)
    return text if text.startswith("<") else f"= {text}"


def _groups_text(groups: tuple[str, ...]) -> str:
    return ", ".join(groups[:-1]) + f" and {groups[-1]}" if len(groups) > 1 else "".join(groups)


def _theme_sentence(row: pd.Series, md) -> str:
    return (f"*{md(row['label'])}* ({percent(row['share_first'], decimals=1)} of {md(row['first_group'])} to "
            f"{percent(row['share_last'], decimals=1)} of {md(row['last_group'])}, {points(row['change'])}, "
            f"{interval(row['ci_low'], row['ci_high'], ' points', float(row['ci_level']))}, "
            f"BH-adjusted p {_p_is(row['q_value'])})")


def _trend_text(slope: float, z: float, p: float, p_name: str = "p") -> str:
    """``"+2.1 points a group, z = 3.14, p = 0.0017"`` (the Cochran-Armitage trend)."""
    return f"{points(slope)} a group, z = {z:.2f}, {p_name} {_p_is(p)}"


def trend_sentence(change: "ChangeResult", md) -> str:
    """How many themes' shares follow a trend over every group, and the steepest rise and fall among them.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"label": ["x", "y", "z"], "trend_slope": [0.05, -0.03, 0.0],
    ...                       "trend_z": [3.2, -2.5, 0.1], "trend_q": [0.004, 0.02, 0.9]})
    >>> trend_sentence(SimpleNamespace(groups=("a", "b", "c"), theme_change=table), str)
    '2 of 3 themes follow a trend over the 3 groups (Cochran–Armitage, BH-adjusted p below 0.05): the steepest rise is *x* (+5.0 points a group, z = 3.20, BH-adjusted p = 0.004), the steepest fall is *y* (-3.0 points a group, z = -2.50, BH-adjusted p = 0.02)'

    Over two groups a trend is the change from the first to the second, which has its own test
    (:func:`shift_sentence`); a second test of the same two shares could disagree with it:

    >>> trend_sentence(SimpleNamespace(groups=("a", "b"), theme_change=table), str)
    'with two groups, a trend is the change from a to b, tested once below'
    """
    table = change.theme_change
    if len(change.groups) == 2:
        return f"with two groups, a trend is the change from {md(change.groups[0])} to {md(change.groups[1])}, tested once below"
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
    """The theme with the largest rise and the one with the largest fall among those whose change holds its
    corrected test (BH-adjusted p below :data:`SIGNIFICANCE`; ``None`` when no theme rose / fell so)."""
    table = change.theme_change
    held = table[table["q_value"] < SIGNIFICANCE]
    rises, falls = held[held["change"] > 0], held[held["change"] < 0]
    rise = rises.sort_values(["change", "theme"], ascending=[False, True], kind="mergesort").iloc[0] if len(
        rises) else None
    fall = falls.sort_values(["change", "theme"], kind="mergesort").iloc[0] if len(falls) else None
    return rise, fall


def shift_sentence(change: "ChangeResult", md) -> str:
    """Which themes' shares changed beyond chance from the first to the last group, and the largest rise and
    fall among them; or that none did. A rise or fall is named only when its corrected test holds, and its
    interval (at the level that matches the correction) then excludes 0.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"theme": [1, 2], "label": ["x", "y"], "first_group": "a", "last_group": "b",
    ...                       "share_first": [0.0, 0.3], "share_last": [0.047, 0.25], "change": [0.047, -0.05],
    ...                       "ci_low": [-0.08, -0.2], "ci_high": [0.12, 0.1], "ci_level": 0.975,
    ...                       "q_value": [0.42, 0.6]})
    >>> shift_sentence(SimpleNamespace(groups=("a", "b"), theme_change=table), str)
    "no theme's share changed beyond chance: none of the 2 themes has a BH-adjusted p below 0.05 (the smallest is 0.42)"
    >>> held = table.assign(ci_low=[0.01, -0.2], q_value=[0.03, 0.6])
    >>> shift_sentence(SimpleNamespace(groups=("a", "b"), theme_change=held), str)
    "1 of 2 themes changed beyond chance (BH-adjusted p below 0.05): the largest rise is *x* (0.0% of a to 4.7% of b, +4.7 points, 97.5% interval +1.0 to +12.0 points, BH-adjusted p = 0.03); no theme's share fell beyond chance"
    """
    table = change.theme_change
    if not len(table):
        return "there is no theme to compare"
    tested = table["q_value"].dropna()
    if not len(tested):
        return "no theme could be tested: each is in no paper, or in every paper, of both groups"
    held = int((tested < SIGNIFICANCE).sum())
    if not held:
        return (f"no theme's share changed beyond chance: none of the {count(len(tested), 'theme')} has a "
                f"BH-adjusted p below {SIGNIFICANCE:g} (the smallest is {float(tested.min()):.3g})")
    rise, fall = rise_and_fall(change)
    parts = [f"the largest rise is {_theme_sentence(rise, md)}" if rise is not None
             else "no theme's share rose beyond chance",
             f"the largest fall is {_theme_sentence(fall, md)}" if fall is not None
             else "no theme's share fell beyond chance"]
    return (f"{held} of {count(len(tested), 'theme')} changed beyond chance (BH-adjusted p below {SIGNIFICANCE:g}): "
            + "; ".join(parts))


def new_terms_sentence(change: "ChangeResult", md) -> str:
    """The map's terms new in the latest group, most papers first (up to ``N_LISTED``), each with its papers there,
    as the list the count "N of M:" introduces; else that every term is older.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> terms = pd.DataFrame({"term": ["a", "b"], "new_in_latest": [True, False], "n_latest": [4, 2]})
    >>> new_terms_sentence(SimpleNamespace(terms=terms, groups=("2020", "2021")), str)
    '*a* (4)'
    """
    new = change.terms[change.terms["new_in_latest"]]
    return ("; ".join(f"*{md(t)}* ({n})" for t, n in zip(new["term"].head(N_LISTED), new["n_latest"].head(N_LISTED)))
            or f"every map term already occurs before {md(change.groups[-1])}")


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
        "change_first": groups[0], "change_last": groups[-1],
        "change_map_bootstrap": change.settings.map_bootstrap,
        "change_seed": change.settings.seed,
    }
    table = change.theme_change
    values["change_n_themes"] = len(table)
    values["change_shift_sentence"] = shift_sentence(change, md)
    values["change_trend_sentence"] = trend_sentence(change, md)
    values["change_quadrant_sentence"] = quadrant_moves(change, md)
    terms = change.terms
    new = terms[terms["new_in_latest"]]
    values.update({
        "change_n_terms": len(terms), "change_n_new": len(new),
        "change_new_sentence": new_terms_sentence(change, md),
        "change_burst_sentence": burst_sentence(change, md),
        "change_burst_scale": change.settings.burst_scale, "change_burst_gamma": change.settings.burst_gamma,
    })
    recent = terms[terms["n_papers"] > 0].sort_values([when_column(terms), "n_papers", "term"],
                                                       ascending=[False, False, True], kind="mergesort")
    values["change_recent_sentence"] = "; ".join(f"*{md(t)}*" for t in recent["term"].head(N_LISTED)) or "none"
    values["change_links_sentence"] = links_sentence(change, md)
    return values


def _linked_in(row: pd.Series) -> str:
    return (f"{percent(row['share'], decimals=1)} ({int(row['n_linked'])} of {int(row['n_papers'])}, "
            f"{interval(row['ci_low'], row['ci_high'], '%')})")


def links_sentence(change: "ChangeResult", md) -> str:
    """The share of papers linking in the first and the last group, their difference with Newcombe's interval
    and the test it inverts, the trend and the chi-square test over every group. No test is run on counts
    without spread: where no paper links in any group the sentence says so, and nothing else.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from helpers.analysis.statistics import proportion_change
    >>> links = pd.DataFrame({"group": ["a", "b"], "n_papers": [35, 106], "n_linked": [0, 0],
    ...                       "share": [0.0, 0.0], "ci_low": [0.0, 0.0], "ci_high": [0.0989, 0.0349]})
    >>> none = SimpleNamespace(groups=("a", "b"), links=links,
    ...                        link_difference=proportion_change([0, 0], [35, 106], ["a", "b"]))
    >>> links_sentence(none, str)
    'no paper linked in any group (0 of 141 papers), so no share is compared and no test is run'
    """
    groups, difference = change.groups, change.link_difference
    links = change.links.set_index("group")
    total, linked = int(links["n_papers"].sum()), int(links["n_linked"].sum())
    if linked == 0:
        return f"no paper linked in any group (0 of {count(total, 'paper')}), so no share is compared and no test is run"
    if linked == total:
        return f"every paper linked in every group ({count(total, 'paper')}), so no share is compared and no test is run"
    first, last = md(groups[0]), md(groups[-1])
    lead = (f"{_linked_in(links.loc[groups[0]])} in {first} and {_linked_in(links.loc[groups[-1]])} in {last} "
            f"(Wilson intervals)")
    if pd.isna(difference.p_value):
        pair = (f"; no paper linked in either {first} or {last}, so the two are not compared" if difference.k_first
                + difference.k_last == 0 else f"; every paper linked in both {first} and {last}, so the two are "
                "not compared")
    else:
        pair = (f", a change of {points(difference.difference)} "
                f"({interval(difference.ci_low, difference.ci_high, ' points')}, Newcombe; p "
                f"{_p_is(difference.p_value)}, the test this interval inverts)")
    if len(groups) == 2:  # the trend and the chi-square over two groups would test the same two shares again
        return lead + pair
    return (lead + pair + f". Over every group the share's trend is "
            f"{_trend_text(difference.trend_slope, difference.trend_z, difference.trend_p)} (Cochran–Armitage), "
            f"and a chi-square test of equal shares gives chi-square = {difference.chi2:.2f} with {difference.dof} "
            f"degrees of freedom, p {_p_is(difference.p_all)}")


def _side(value: float, median: float) -> str:
    return "above" if value >= median else "below"


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


def _settled(row: pd.Series) -> str | None:
    from helpers.analysis.change.thematic_map import settled_quadrant  # lazy: at the top it would load scipy
    return settled_quadrant(str(row["centrality_side"]), str(row["density_side"]))


def quadrant_moves(change: "ChangeResult", md) -> str:
    """The themes whose quadrant of the thematic map differs between the first and the last group beyond noise,
    each with why: its centrality and density in the last group against that group's medians (the quadrants'
    borders) with the bootstrap interval of each difference (at most :data:`N_QUADRANT_MOVES`, the largest
    themes first). A move counts only when, in both groups, both differences' intervals exclude 0
    (``centrality_side`` and ``density_side`` of the map are not ``border``); the other moves are counted
    as within noise.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"group": ["a", "a", "b", "b"], "theme": [1, 2, 1, 2], "label": ["x", "y", "x", "y"],
    ...                       "n_papers": [5, 5, 6, 4], "centrality": [2.0, 1.0, 3.0, 1.0],
    ...                       "density": [1.0, 4.0, 5.0, 6.0], "quadrant": ["motor", "niche", "basic", "niche"],
    ...                       "centrality_margin_low": [0.2, -2.0, 0.5, -3.0],
    ...                       "centrality_margin_high": [1.0, -0.2, 2.5, -0.5],
    ...                       "density_margin_low": [0.5, 0.1, -2.0, 0.1], "density_margin_high": [3.0, 2.0, -0.1, 2.0],
    ...                       "centrality_side": ["high", "low", "high", "low"],
    ...                       "density_side": ["high", "high", "low", "high"]})
    >>> quadrant_moves(SimpleNamespace(groups=("a", "b"), thematic_map=table), str)
    "*x*, motor in a, is basic in b: its centrality 3.00 is above the median 2.00 of b (the difference's 95% bootstrap interval +0.50 to +2.50) and its density 5.00 below the median 5.50 (-2.00 to -0.10)"
    >>> within = table.assign(density_side=["high", "high", "border", "high"])
    >>> quadrant_moves(SimpleNamespace(groups=("a", "b"), thematic_map=within), str)
    'none beyond noise: 1 theme is in another quadrant by the medians alone, but its centrality or density lies within noise of a median in a or b'
    """
    table = change.thematic_map
    first = table[table["group"] == change.groups[0]].set_index("theme")
    last = table[table["group"] == change.groups[-1]].set_index("theme")
    both = first.index.intersection(last.index)
    ordered = sorted(both, key=lambda t: (-int(last.loc[t, "n_papers"]), t))
    moved = [t for t in ordered if first.loc[t, "quadrant"] != last.loc[t, "quadrant"]]
    settled = [t for t in ordered if None not in (_settled(first.loc[t]), _settled(last.loc[t]))
               and _settled(first.loc[t]) != _settled(last.loc[t])]
    within = len([t for t in moved if t not in settled])
    noise = (f"{count(within, 'theme')} {'is' if within == 1 else 'are'} in another quadrant by the medians alone, "
             f"but {'its centrality or density lies' if within == 1 else 'each has a centrality or density'} within "
             f"noise of a median in {md(change.groups[0])} or {md(change.groups[-1])}")
    if not settled:
        return f"none beyond noise: {noise}" if within else "none"
    centre, dense = float(last["centrality"].median()), float(last["density"].median())
    group = md(change.groups[-1])
    texts = []
    for t in settled[:N_QUADRANT_MOVES]:
        row = last.loc[t]
        c, d = float(row["centrality"]), float(row["density"])
        (c_text, centre_text), (d_text, dense_text) = _against(c, centre), _against(d, dense)
        texts.append(f"*{md(first.loc[t, 'label'])}*, {_settled(first.loc[t])} in {md(change.groups[0])}, is "
                     f"{_settled(row)} in {group}: its centrality {c_text} is {_side(c, centre)} the "
                     f"median {centre_text} of {group} (the difference's 95% bootstrap interval "
                     f"{row['centrality_margin_low']:+.2f} to {row['centrality_margin_high']:+.2f}) and its density "
                     f"{d_text} {_side(d, dense)} the median {dense_text} ({row['density_margin_low']:+.2f} to "
                     f"{row['density_margin_high']:+.2f})")
    more = len(settled) - N_QUADRANT_MOVES
    return ("; ".join(texts) + (f"; and {more} more (`thematic_map.csv`)" if more > 0 else "")
            + (f"; {noise}" if within else ""))


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
    linking = ("" if few_links(analysis.papers)  # no share per group below 10 linked papers (the links chapter)
               else f" Papers linking code, data or a project page: {values['change_links_sentence']}.")
    return (f"- **What changed** ({{ref}}`sec-change`, {first} to {last}): "
            f"{values['change_shift_sentence']}. Over every group, {values['change_trend_sentence']}.{linking}")


