"""Benchmark results (``benchmarks/results.csv``) checked against the targets they are held to.

``make bench`` writes one row per corpus size and stage: ``n_abstracts, stage,
seconds, ratio_to_baseline`` plus peak memory. These functions turn that table
into what the Performance page shows: the growth of each stage and the targets
met or missed. The targets are the benchmarks' own (``benchmarks/targets.csv``, read by
:mod:`helpers.book.reports.benchmark_targets`); the largest corpora's runs are :mod:`helpers.book.reports.performance_large`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from helpers.book.formatting import corpus_name
from helpers.book.reports import drawing
from helpers.book.reports.benchmark_targets import (BASELINE, LDA_REFERENCE, STAGE_ORDER, TARGETS_FILE, TOTAL, Targets,
                                                    read_targets)
from helpers.book.reports.performance_tables import LDA_FIT, TFIDF_PASS, real, stage_growth, synthetic
from helpers.book.reports.performance_large import large_runs, large_tables, one_file_runs

__all__ = ["TOTAL", "BASELINE", "LDA_REFERENCE", "STAGE_ORDER", "TARGETS_FILE", "Targets", "read_targets",
           "targets", "targets_shown", "book_rows", "headline", "performance_findings", "stages_figure", "large_runs",
           "large_tables", "one_file_runs"]




@dataclass(frozen=True)
class HeadlineRatio:
    """The command against a reference on one corpus: each real corpus against one LDA fit, the synthetic
    corpora of :attr:`Targets.max_ratio_at` against a TF-IDF pass (``reference_seconds``: ``None`` without the
    reference's own row)."""

    reference: str
    corpus: str
    n_abstracts: int
    seconds: float
    reference_seconds: float | None
    ratio: float
    limit: float

    @property
    def where(self) -> str:
        """The corpus as the targets name it."""
        if self.corpus == "synthetic":
            return f"{self.n_abstracts:,} abstracts"
        return f"{corpus_name(self.corpus)} ({self.n_abstracts:,} abstracts)"


def headline_ratios(results: pd.DataFrame, limits: Targets) -> list[HeadlineRatio]:
    """The command's headline ratios in ``results``, each with its limit: the real corpora first."""

    def reference_seconds(corpus: str, size: int, stage: str) -> float | None:
        row = results[(results["corpus"] == corpus) & (results["n_abstracts"] == size) & (results["stage"] == stage)]
        return float(row["seconds"].iloc[0]) if len(row) else None

    ratios = [HeadlineRatio(LDA_FIT, row.corpus, row.n_abstracts, float(row.seconds),
                            reference_seconds(row.corpus, row.n_abstracts, LDA_REFERENCE), float(row.ratio_to_lda),
                            limits.max_lda_ratio)
              for row in real(results)[lambda t: t["stage"] == TOTAL].itertuples() if pd.notna(row.ratio_to_lda)]
    made = synthetic(results)
    for size, limit in limits.max_ratio_at.items():
        total = made[(made["n_abstracts"] == size) & (made["stage"] == TOTAL)]
        if len(total):
            ratios.append(HeadlineRatio(TFIDF_PASS, "synthetic", size, float(total["seconds"].iloc[0]),
                                        reference_seconds("synthetic", size, BASELINE),
                                        float(total["ratio_to_baseline"].iloc[0]), limit))
    return ratios


def targets(results: pd.DataFrame, limits: Targets | None = None, book: pd.DataFrame | None = None) -> pd.DataFrame:
    """The benchmark targets (``limits``, default :func:`read_targets`), each checked where it was measured:
    ``target, measured, limit, met``.

    * on each real corpus: the command, start to exit, within ``max_lda_ratio`` times one LDA fit;
    * at 20,000 and 100,000 synthetic abstracts: within ``max_ratio_20k`` and ``max_ratio_100k`` times the
      TF-IDF baseline;
    * at the largest synthetic corpus: peak memory (the command's processes together) under ``max_peak_mib``
      and parsing faster than the baseline;
    * every stage close to linear: at most ``max_growth_per_tenfold`` times slower for 10 times the abstracts
      between the two largest synthetic corpora (the limit scales with their size ratio); stages shorter than
      ``min_timed_seconds`` at the largest size are left out;
    * with ``book`` (``benchmarks/book_results.csv``): each cold book build within its limit.

    Parameters
    ----------
    results : DataFrame
        The rows of ``benchmarks/results.csv``.
    limits : Targets, optional
        The limits checked (default :func:`read_targets`).
    book : DataFrame, optional
        The rows of ``benchmarks/book_results.csv``: one more target per cold build.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "corpus": "synthetic", "n_abstracts": [10] * 3 + [100] * 3, "stage": ["parse", TOTAL, BASELINE] * 2,
    ...     "seconds": [1.0, 3.0, 1.0, 9.0, 30.0, 10.0], "ratio_to_baseline": [1, 3, 1, 0.9, 3, 1],
    ...     "ratio_to_lda": float("nan"), "peak_rss_mib": [10.0] * 6})
    >>> targets(table)[["target", "met"]].values.tolist()
    [['peak memory (MiB), 100 abstracts', True], ['parse / baseline, 100 abstracts', True], \
['parse growth, 100 vs 10 abstracts', True]]
    """
    limits = limits or read_targets()
    rows = [(f"analyse / {ratio.reference}, {ratio.where}", ratio.ratio, ratio.limit)
            for ratio in headline_ratios(results, limits)]
    made = synthetic(results)
    for row in book_rows(book).itertuples():
        rows.append((f"cold book build (s), {corpus_name(row.corpus)} ({row.n_abstracts:,} abstracts)",
                     float(row.value), float(row.limit)))
    largest_size = int(made["n_abstracts"].max())
    largest = made[made["n_abstracts"] == largest_size].set_index("stage")
    peak = float(largest["peak_rss_mib"].iloc[0])
    rows.append((f"peak memory (MiB), {largest_size:,} abstracts", round(peak, 1), limits.max_peak_mib))
    rows.append((f"parse / baseline, {largest_size:,} abstracts", float(largest.loc["parse", "ratio_to_baseline"]), 1.0))
    growth = stage_growth(made)
    sizes = sorted(made["n_abstracts"].unique())
    timed = (~growth["stage"].isin([TOTAL, BASELINE, LDA_REFERENCE])
             & (growth["seconds_large"] >= limits.min_timed_seconds))
    for row in growth[timed].itertuples():
        limit = round(limits.max_growth_per_tenfold / 10 * row.size_ratio, 2)
        rows.append((f"{row.stage} growth, {sizes[-1]:,} vs {sizes[-2]:,} abstracts", float(row.growth), limit))
    table = pd.DataFrame(rows, columns=["target", "measured", "limit"])
    table["met"] = table["measured"] <= table["limit"]
    parse = table["target"].str.startswith("parse / baseline")
    table.loc[parse, "met"] = table["measured"] < table["limit"]
    return table


def book_rows(book: pd.DataFrame | None) -> pd.DataFrame:
    """The cold builds of ``benchmarks/book_results.csv`` (``corpus, n_abstracts, value, limit``), none without it.

    Parameters
    ----------
    book : DataFrame or None
        The rows of ``benchmarks/book_results.csv`` (None: not run).

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> book = pd.DataFrame({"corpus": ["seed"] * 2, "n_abstracts": [57] * 2, "value": [30.0, 2.0], "limit": [30.0, None],
    ...                      "measure": ["cold book build (s)", "warm book build (s)"]})
    >>> book_rows(book)["value"].tolist(), book_rows(None).empty
    ([30.0], True)
    """
    if book is None or book.empty:
        return pd.DataFrame(columns=["corpus", "n_abstracts", "value", "limit"])
    return book[book["measure"] == "cold book build (s)"]


def headline(results: pd.DataFrame | None, book: pd.DataFrame | None = None,
             limits: Targets | None = None) -> str:
    """The Performance page's opening sentences: each headline ratio and book build with its target, met or
    missed (Markdown).

    Parameters
    ----------
    results : DataFrame
        The rows of ``benchmarks/results.csv`` (None: not run).
    book : DataFrame, optional
        The rows of ``benchmarks/book_results.csv``.
    limits : Targets, optional
        The targets (default :func:`read_targets`).

    Returns
    -------
    str
        One sentence per ratio and build, or how to run the benchmark.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": "synthetic", "n_abstracts": [20_000] * 2, "stage": [TOTAL, BASELINE],
    ...     "seconds": [12.0, 3.0], "ratio_to_baseline": [4.0, 1.0], "ratio_to_lda": float("nan"),
    ...     "peak_rss_mib": [900.0] * 2})
    >>> headline(table)
    '`analyse` took 12.0 s on 20,000 synthetic abstracts, **4.0 times** a TF-IDF pass (3.0 s; target 4, met).'
    """
    if results is None:
        return "No benchmark results yet: run `make bench`."
    sentences = []
    for ratio in headline_ratios(results, limits or read_targets()):
        if ratio.reference_seconds is None:
            continue
        target = f"target {ratio.limit:g}, {_met(ratio.ratio, ratio.limit)}"
        if ratio.reference == LDA_FIT:
            sentences.append(f"`analyse` took {ratio.seconds:.1f} s from start to exit on {ratio.where}, "
                             f"**{ratio.ratio:.1f} times** one LDA fit of the same abstracts "
                             f"({ratio.reference_seconds:.2f} s; {target}).")
        else:
            sentences.append(f"`analyse` took {ratio.seconds:.1f} s on {ratio.n_abstracts:,} synthetic abstracts, "
                             f"**{ratio.ratio:.1f} times** a TF-IDF pass ({ratio.reference_seconds:.1f} s; {target}).")
    builds = book_rows(book)
    if len(builds):
        sentences.append("A cold `make book` took " + "; ".join(
            f"{row.value:.0f} s on {corpus_name(row.corpus)} ({row.n_abstracts:,} abstracts; target "
            f"{row.limit:g} s, {_met(row.value, row.limit)})" for row in builds.itertuples()) + ".")
    return " ".join(sentences)


def _met(measured: float, limit: float) -> str:
    return "met" if measured <= limit else "missed"


def targets_shown(results: pd.DataFrame | None, book: pd.DataFrame | None = None) -> pd.DataFrame:
    """:func:`targets` as the page shows them (``met`` or ``missed`` in words); empty without results.

    Parameters
    ----------
    results : DataFrame
        The rows of ``benchmarks/results.csv`` (None: not run).
    book : DataFrame, optional
        The rows of ``benchmarks/book_results.csv``.

    Returns
    -------
    DataFrame
        ``target, measured, limit, met``, as text.

    Examples
    --------
    >>> targets_shown(None).empty
    True
    """
    if results is None:
        return pd.DataFrame()
    checks = targets(results, book=book)
    measured = [f"{value:,.0f}" if value >= 100 else f"{value:.2f}" for value in checks["measured"]]
    limits = [f"{value:,.0f}" if value >= 100 else f"{value:g}" for value in checks["limit"]]
    return checks.assign(measured=measured, limit=limits, met=checks["met"].map({True: "met", False: "missed"}))


def performance_findings(results: pd.DataFrame | None, limits: Targets | None = None,
                         book: pd.DataFrame | None = None) -> dict[str, object]:
    """Every value the Performance page glues, by glue name (``"(not measured)"`` without results); the targets
    ``limits`` default to :func:`read_targets`, ``book`` the book builds (``benchmarks/book_results.csv``).

    Parameters
    ----------
    results : DataFrame
        The rows of ``benchmarks/results.csv`` (None: not run).
    limits : Targets, optional
        The limits the page names (default :func:`read_targets`).
    book : DataFrame, optional
        The rows of ``benchmarks/book_results.csv``.

    Returns
    -------
    dict
        ``perf_*``: the settings timed (partition sizes, seeds, tolerances), the targets and the largest run's times.

    Examples
    --------
    >>> performance_findings(None)["perf_largest"]
    '(not measured)'
    """
    from helpers.analysis.corpus.file_pieces import PIECE_BYTES  # lazy: keeps this module's import light
    # Lazy: keeps this module's import light.
    from helpers.analysis.pipeline import MAX_CHUNK_ITEMS, MIN_PARALLEL_ITEMS
    from helpers.analysis.pipeline.run import READ_AHEAD_MAX_BYTES
    from helpers.analysis.themes import (FINAL_SAMPLE, FINAL_TOL, MAX_CANDIDATES, N_SEEDS, SELECTION_SAMPLE, SELECTION_TOL,
                                TRANSFORM_BLOCK, candidate_ks)  # lazy: at the top it would load scipy and networkx

    limits = limits or read_targets()
    values = {
        "perf_parallel_items": f"{MIN_PARALLEL_ITEMS:,}",
        "perf_partition_items": f"{MAX_CHUNK_ITEMS:,}",
        "perf_piece_mib": f"{PIECE_BYTES / 2**20:g}",
        "perf_read_ahead_mib": f"{READ_AHEAD_MAX_BYTES / 2**20:g}",
        "perf_transform_block": f"{TRANSFORM_BLOCK:,}",
        "perf_final_sample": f"{FINAL_SAMPLE:,}",
        "perf_n_seeds": N_SEEDS,
        "perf_selection_tol": f"{SELECTION_TOL:g}",
        "perf_final_tol": f"{FINAL_TOL:g}",
        "perf_max_candidates": MAX_CANDIDATES,
        "perf_max_lda_ratio": f"{limits.max_lda_ratio:g}",
        "perf_max_ratio_20k": f"{limits.max_ratio_20k:g}",
        "perf_max_ratio_100k": f"{limits.max_ratio_100k:g}",
        "perf_max_gib": f"{limits.max_peak_mib / 1024:g}",
        "perf_max_growth": f"{limits.max_growth_per_tenfold:g}",
        "perf_min_timed": f"{limits.min_timed_seconds:g}",
        "perf_selection_sample": f"{SELECTION_SAMPLE:,}",
    }
    names = ["perf_largest", "perf_total_seconds", "perf_total_ratio", "perf_baseline_seconds",
             "perf_themes_seconds", "perf_cores", "perf_targets_met", "perf_targets", "perf_selection_fits",
             "perf_longest_stage"]
    if results is None:
        return {**values, **{name: "(not measured)" for name in names}}
    made = synthetic(results)
    size = int(made["n_abstracts"].max())
    largest = made[made["n_abstracts"] == size].set_index("stage")
    checks = targets(results, limits, book)
    stages = largest.loc[[stage for stage in STAGE_ORDER if stage in largest.index], "seconds"]
    return {
        **values,
        "perf_longest_stage": f"{stages.idxmax()} ({stages.max():.0f} s)",
        "perf_largest": f"{size:,}",
        "perf_selection_fits": len(candidate_ks(size)) * N_SEEDS,
        "perf_total_seconds": f"{largest.loc[TOTAL, 'seconds']:.0f}",
        "perf_total_ratio": f"{largest.loc[TOTAL, 'ratio_to_baseline']:.1f}",
        "perf_baseline_seconds": f"{largest.loc[BASELINE, 'seconds']:.1f}",
        "perf_themes_seconds": f"{largest.loc['themes', 'seconds']:.0f}",
        "perf_cores": int(largest["cores"].iloc[0]),
        "perf_targets_met": int(checks["met"].sum()),
        "perf_targets": len(checks),
    }


def stages_figure(results: pd.DataFrame | None):
    """Log-log lines of seconds per stage against corpus size, with the baseline; returns ``(figure, data)``.

    Parameters
    ----------
    results : DataFrame
        The rows of ``benchmarks/results.csv`` (None: not run).

    Returns
    -------
    figure : Figure
    data : DataFrame
        ``results`` (empty without them).

    Examples
    --------
    >>> stages_figure(None)[1].empty
    True
    """
    import seaborn as sns  # lazy: slow to import

    if results is None:
        figure, axis = drawing.column_subplots(1.5)
        axis.axis("off")
        axis.text(0.5, 0.5, "No benchmark results yet: run make bench", ha="center", va="center")
        return figure, pd.DataFrame()
    shown = synthetic(results)[lambda t: t["stage"] != "corpus"]
    order = [s for s in STAGE_ORDER + [TOTAL, BASELINE, LDA_REFERENCE] if s in set(shown["stage"])]
    figure, axis = drawing.column_subplots(4.6)
    sns.lineplot(data=shown, x="n_abstracts", y="seconds", hue="stage", hue_order=order, style="stage",
                 style_order=order, markers=True, dashes=False, palette="colorblind", ax=axis)
    axis.set(xscale="log", yscale="log", xlabel="Abstracts in the corpus", ylabel="Seconds")
    handles, names = axis.get_legend_handles_labels()
    axis.get_legend().remove()  # under the plot, so the plot keeps the column's width
    figure.legend(handles, names, loc="outside lower center", ncols=3, fontsize=drawing.SMALL_PT, frameon=False)
    drawing.set_title(figure, "Time per stage of the analysis, with the TF-IDF and LDA references")
    return drawing.finish(figure), results


