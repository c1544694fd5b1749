"""The Performance page's other benchmarks: how the number of themes is searched, the book's build, the paper
explorer's readiness and the cost of comparing groups, each read from its result file in ``benchmarks/``.

Each function takes the benchmark's table (``None`` when it has not been run, as
:func:`helpers.book.reports.benchmark_targets.read_results` gives it) and returns what the page shows and glues; without
results every value says which benchmark to run. The analysis's own timings are in
:mod:`helpers.book.reports.performance`.
"""

from __future__ import annotations

import pandas as pd

from helpers.book.formatting import corpus_name, number, percent

__all__ = ["selection_evidence", "selection_search", "book_build_checks", "explorer_readiness", "group_cost"]


def explorer_readiness(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, object]]:
    """``benchmarks/explorer_results.csv`` with a ``met`` column, and its glue values.

    The explorer is usable when a word typed in its search box updates the count; each size has
    its own target (``target_seconds``) and every page must stay under ``max_page_height_px``.

    Parameters
    ----------
    results : DataFrame or None
        The rows of ``benchmarks/explorer_results.csv`` (None: not run).

    Returns
    -------
    table : DataFrame
    values : dict
        ``perf_explorer_summary``, ``perf_explorer_cap``.

    Examples
    --------
    >>> table = pd.DataFrame({"n_abstracts": [3000], "n_shown": [3000], "seconds": [0.6], "target_seconds": [1.0],
    ...                       "page_height_px": [4544], "max_page_height_px": [15000]})
    >>> explorer_readiness(table)[1]["perf_explorer_summary"]
    '3,000 abstracts: 0.60 s (target 1 s, met)'

    A size whose explorer holds a sample (``n_shown`` below ``n_abstracts``) says so:

    >>> sampled = table.assign(n_abstracts=[1_000_000], n_shown=[20_000])
    >>> explorer_readiness(sampled)[1]["perf_explorer_summary"]
    '1,000,000 abstracts (a seeded sample of 20,000 in the explorer): 0.60 s (target 1 s, met)'
    """
    from helpers.web.explorer_data import MAX_EXPLORER_PAPERS  # lazy: at the top it would load jinja2

    cap = {"perf_explorer_cap": f"{MAX_EXPLORER_PAPERS:,}"}
    if results is None or results.empty:
        return pd.DataFrame(), {"perf_explorer_summary": "(not measured: run benchmarks/explorer_ready.py)", **cap}
    table = results.assign(met=(results["seconds"] <= results["target_seconds"])
                           & (results["page_height_px"] <= results["max_page_height_px"]))

    def size(row) -> str:
        sample = (f" (a seeded sample of {row.n_shown:,} in the explorer)" if row.n_shown < row.n_abstracts
                  else "")
        return f"{row.n_abstracts:,} abstracts{sample}"

    summary = "; ".join(f"{size(row)}: {row.seconds:.2f} s (target {row.target_seconds:g} s, "
                        f"{'met' if row.met else 'missed'})" for row in table.itertuples())
    return table, {"perf_explorer_summary": summary, **cap}


def group_cost(results: pd.DataFrame | None) -> dict[str, str]:
    """``benchmarks/group_results.csv`` (``benchmarks/groups.py``) as the Performance page's sentence.

    Parameters
    ----------
    results : DataFrame or None
        The rows of ``benchmarks/group_results.csv`` (None: not run).

    Returns
    -------
    dict
        ``perf_groups_summary``.

    Examples
    --------
    >>> table = pd.DataFrame({"n_abstracts": [20000], "n_groups": [10], "analyse_seconds": [40.0],
    ...                       "groups_seconds": [2.0], "added_share": [0.05], "limit": [0.3], "met": [True]})
    >>> group_cost(table)["perf_groups_summary"]
    '20,000 abstracts in 10 groups: analyse 40.0 s, the group analyses 2.00 s more, 5.0% (target at most 30%, met)'
    """
    if results is None or results.empty:
        return {"perf_groups_summary": "(not measured: run benchmarks/groups.py)"}
    return {"perf_groups_summary": "; ".join(
        f"{row.n_abstracts:,} abstracts in {row.n_groups} groups: analyse {row.analyse_seconds:.1f} s, the group "
        f"analyses {row.groups_seconds:.2f} s more, {percent(row.added_share, decimals=1)} (target at most {percent(row.limit)}, "
        f"{'met' if row.met else 'missed'})" for row in results.itertuples())}


def selection_evidence(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/selection_results.csv`` (ways of choosing k, per corpus: full fits scored by their best run first,
    the book's early-stopped fits scored by their mean, with its search stopped, last) as shown, and its glue values.

    ``perf_selection_summary`` is one Markdown list item per corpus comparing the first and the last way.

    Parameters
    ----------
    results : DataFrame or None
        The rows of ``benchmarks/selection_results.csv`` (None: not run).

    Returns
    -------
    table : DataFrame
    values : dict
        ``perf_selection_summary``.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["x", "x"], "n_abstracts": [50, 50], "way": ["before", "now"],
    ...     "k_seed0": [8, 10], "k_mode": [8, 10], "mode_share": [0.9, 0.5], "expected_coherence": [0.36, 0.35],
    ...     "coherence_se": [0.008, 0.006], "fits": [45, 27], "fit_seconds": [1.8, 0.7]})
    >>> print(selection_evidence(table)[1]["perf_selection_summary"])
    - x (50 abstracts): with seed 0, 8 themes by full fits and 10 by the book's rule; expected coherence 0.360 \
and 0.350 (standard error about 0.007); 45 fits in 1.8 CPU seconds against 27 in 0.7 (2.6 times less).
    """
    if results is None or results.empty:
        return pd.DataFrame(), {"perf_selection_summary": "(not measured: run benchmarks/selection.py)"}
    lines = []
    for (corpus, size), rows in results.groupby(["corpus", "n_abstracts"], sort=False):
        full, book_rule = rows.iloc[0], rows.iloc[-1]
        lines.append(
            f"- {corpus_name(corpus)} ({number(int(size))} abstracts): with seed 0, {full.k_seed0} themes by "
            f"full fits and {book_rule.k_seed0} by the book's rule; expected coherence "
            f"{full.expected_coherence:.3f} and {book_rule.expected_coherence:.3f} (standard error about "
            f"{(full.coherence_se + book_rule.coherence_se) / 2:.3f}); {full.fits} fits in "
            f"{full.fit_seconds:.1f} CPU seconds against {book_rule.fits} in {book_rule.fit_seconds:.1f} "
            f"({full.fit_seconds / book_rule.fit_seconds:.1f} times less).")
    ways = {"before": "full fits, best run", "without the stop": "early stop, mean, every k",
            "now": "early stop, mean, search stopped (the book's)"}
    shown = pd.DataFrame({
        "corpus": [corpus_name(c) for c in results["corpus"]], "abstracts": results["n_abstracts"],
        "way": [ways.get(str(w).split(":")[0], str(w).split(":")[0]) for w in results["way"]],
        "k, seed 0": results["k_seed0"], "most frequent k": results["k_mode"], "its share": results["mode_share"],
        "expected coherence": results["expected_coherence"], "s.e.": results["coherence_se"],
        "fits": results["fits"], "CPU s": results["fit_seconds"],
    })
    return shown, {"perf_selection_summary": "\n".join(lines)}


def selection_search(results: pd.DataFrame | None) -> pd.DataFrame:
    """``benchmarks/results/selection_search.csv`` (``benchmarks/selection_search.py``: the themes of each corpus
    chosen with every candidate searched and with the search stopped) as the Performance page shows it; empty
    without it.

    Parameters
    ----------
    results : DataFrame or None
        The rows of ``benchmarks/results/selection_search.csv`` (None: not run).

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["seed"], "n_abstracts": [57], "k_before": [3], "k_after": [3],
    ...     "fits_before": [27], "fits_after": [15], "cpu_before": [1.2], "cpu_after": [0.6],
    ...     "coherence_before": [0.248], "coherence_after": [0.248], "same_themes": [True]})
    >>> selection_search(table).iloc[0].astype(str).tolist()
    ['seed', '57', '3', '3', '0.248', '0.248', 'yes', '27', '15', '1.2', '0.6']
    """
    if results is None or results.empty:
        return pd.DataFrame()
    return pd.DataFrame({
        "corpus": [corpus_name(c) for c in results["corpus"]], "abstracts": results["n_abstracts"],
        "k, every candidate": results["k_before"], "k, search stopped": results["k_after"],
        "coherence, every candidate": results["coherence_before"], "coherence, search stopped": results["coherence_after"],
        "same themes": ["yes" if same else "no" for same in results["same_themes"]],
        "fits, every candidate": results["fits_before"], "fits, search stopped": results["fits_after"],
        "CPU s, every candidate": results["cpu_before"], "CPU s, search stopped": results["cpu_after"],
    })


def book_build_checks(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/book_results.csv`` (one block of measures per corpus) with ``met`` where a measure has a
    limit, and its glue values.

    Parameters
    ----------
    results : DataFrame or None
        The rows of ``benchmarks/book_results.csv`` (None: not run).

    Returns
    -------
    table : DataFrame
    values : dict
        ``perf_book_summary``.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["x"] * 3, "n_abstracts": [495] * 3,
    ...     "measure": ["cold book build (s)", "warm book build (s)", "pages executed, warm build"],
    ...     "value": [55.0, 3.2, 0.0], "limit": [60.0, None, 0.0]})
    >>> checks, values = book_build_checks(table)
    >>> checks["met"].tolist(), values["perf_book_summary"]
    (['met', '', 'met'], 'x (495 abstracts): cold 55 s, warm 3 s; 2 of 2 targets met')
    """
    if results is None or results.empty:
        return pd.DataFrame(), {"perf_book_summary": "(not measured: run benchmarks/book_build.py)"}
    has_limit = results["limit"].notna()
    met = pd.Series("", index=results.index)
    met[has_limit] = (results.loc[has_limit, "value"] <= results.loc[has_limit, "limit"]).map(
        {True: "met", False: "missed"})

    def shown(number: float) -> str:
        return "" if pd.isna(number) else f"{number:.0f}" if float(number).is_integer() else f"{number:.2f}"

    table = pd.DataFrame({"corpus": [corpus_name(c) for c in results["corpus"]], "measure": results["measure"],
                          "value": results["value"].map(shown), "limit": results["limit"].map(shown), "met": met})
    summaries = []
    for corpus, rows in results.groupby("corpus", sort=False):
        value = rows.set_index("measure")["value"]
        summaries.append(f"{corpus_name(corpus)} ({rows['n_abstracts'].iloc[0]:,} abstracts): cold "
                         f"{value.get('cold book build (s)', float('nan')):.0f} s, warm "
                         f"{value.get('warm book build (s)', float('nan')):.0f} s")
    return table, {"perf_book_summary": "; ".join(summaries) + f"; {int((met == 'met').sum())} of "
                                                                f"{int(has_limit.sum())} targets met"}
