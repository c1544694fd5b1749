"""Benchmark results (``benchmarks/results.csv``) checked against the targets they are held to.

``make bench`` writes one row per corpus size and stage: ``n_abstracts, stage,
seconds, ratio_to_baseline`` plus peak memory. These functions turn that table
into what the Performance page shows: the growth of each stage and the targets
met or missed.
"""

from __future__ import annotations

import pandas as pd

from helpers.book.formatting import corpus_name

__all__ = ["TOTAL", "BASELINE", "LDA_REFERENCE", "STAGE_ORDER", "stage_growth", "targets", "selection_evidence",
           "book_build_checks", "group_cost", "large_runs", "large_tables", "one_file_runs"]

TOTAL = "analyse (all stages)"
BASELINE = "baseline TfidfVectorizer"
LDA_REFERENCE = "reference LDA (15 topics)"
STAGE_ORDER = ["parse", "corpus", "text", "themes", "cooccurrence", "links", "write"]
MAX_LDA_RATIO = 3.0  # a real conference slice: the whole analysis within 3 LDA fits
MAX_RATIO_AT = {20_000: 5.0, 100_000: 3.0}  # the whole analysis within N TF-IDF passes, by corpus size
MAX_PEAK_MIB = 4096
MAX_GROWTH_PER_TENFOLD = 12.0
MIN_TIMED_SECONDS = 1.0  # shorter stages are timer noise, not held to the growth target


def synthetic(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of synthetic corpora (all rows of a results table from before real-corpus rows)."""
    return results[results["corpus"] == "synthetic"] if "corpus" in results else results


def real(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of real corpora (none in a results table from before real-corpus rows)."""
    return results[results["corpus"] != "synthetic"] if "corpus" in results else results.iloc[0:0]


def stage_growth(results: pd.DataFrame) -> pd.DataFrame:
    """How much each stage's time grows from the second-largest to the largest corpus.

    Columns ``stage, seconds_small, seconds_large, size_ratio, growth``;
    ``growth`` is the time ratio, to compare with ``size_ratio`` (linear
    growth gives equal numbers).

    Examples
    --------
    >>> table = pd.DataFrame({"n_abstracts": [10, 10, 100, 100], "stage": ["parse", "themes"] * 2,
    ...                       "seconds": [1.0, 4.0, 10.0, 8.0]})
    >>> stage_growth(table)[["stage", "size_ratio", "growth"]].values.tolist()
    [['parse', 10.0, 10.0], ['themes', 10.0, 2.0]]
    """
    sizes = sorted(results["n_abstracts"].unique())
    if len(sizes) < 2:
        return pd.DataFrame(columns=["stage", "seconds_small", "seconds_large", "size_ratio", "growth"])
    small, large = sizes[-2], sizes[-1]
    table = results.pivot_table(index="stage", columns="n_abstracts", values="seconds", aggfunc="first")
    growth = pd.DataFrame({
        "stage": table.index,
        "seconds_small": table[small].to_numpy(),
        "seconds_large": table[large].to_numpy(),
    })
    growth["size_ratio"] = float(large / small)
    growth["growth"] = (growth["seconds_large"] / growth["seconds_small"]).round(2)
    order = {stage: i for i, stage in enumerate(STAGE_ORDER + [TOTAL, BASELINE, LDA_REFERENCE])}
    growth = growth.sort_values("stage", key=lambda s: s.map(order).fillna(len(order)), ignore_index=True)
    return growth


def targets(results: pd.DataFrame) -> pd.DataFrame:
    """The benchmark targets, each checked where it was measured: ``target, measured, limit, met``.

    * on each real corpus: the whole analysis within :data:`MAX_LDA_RATIO` times one LDA fit;
    * at 20,000 and 100,000 synthetic abstracts: within 5 and 3 times the TF-IDF baseline;
    * at the largest synthetic corpus: peak memory (main process plus workers) under 4 GiB and
      parsing faster than the baseline;
    * every stage close to linear: at most 12 times slower for 10 times the abstracts between the
      two largest synthetic corpora (the limit scales with their size ratio); stages shorter than a
      second at the largest size are left out.

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "n_abstracts": [10] * 3 + [100] * 3, "stage": ["parse", TOTAL, BASELINE] * 2,
    ...     "seconds": [1.0, 3.0, 1.0, 9.0, 30.0, 10.0], "ratio_to_baseline": [1, 3, 1, 0.9, 3, 1],
    ...     "peak_rss_mib": [10.0] * 6, "worker_peak_rss_mib": [5.0] * 6})
    >>> targets(table)[["target", "met"]].values.tolist()
    [['peak memory (MiB), 100 abstracts', True], ['parse / baseline, 100 abstracts', True], \
['parse growth, 100 vs 10 abstracts', True]]
    """
    rows = []
    for row in real(results)[lambda t: t["stage"] == TOTAL].itertuples():
        if pd.notna(getattr(row, "ratio_to_lda", None)):
            rows.append((f"whole analysis / LDA, {corpus_name(row.corpus)} ({row.n_abstracts:,} abstracts)",
                         float(row.ratio_to_lda), MAX_LDA_RATIO))
    made = synthetic(results)
    for size, limit in MAX_RATIO_AT.items():
        total = made[(made["n_abstracts"] == size) & (made["stage"] == TOTAL)]
        if len(total):
            rows.append((f"whole analysis / baseline, {size:,} abstracts", float(total["ratio_to_baseline"].iloc[0]),
                         limit))
    largest_size = int(made["n_abstracts"].max())
    largest = made[made["n_abstracts"] == largest_size].set_index("stage")
    peak = float(largest["peak_rss_mib"].iloc[0])
    if "worker_peak_rss_mib" in largest:
        peak += float(largest["worker_peak_rss_mib"].fillna(0).iloc[0])
    rows.append((f"peak memory (MiB), {largest_size:,} abstracts", round(peak, 1), MAX_PEAK_MIB))
    rows.append((f"parse / baseline, {largest_size:,} abstracts", float(largest.loc["parse", "ratio_to_baseline"]), 1.0))
    growth = stage_growth(made)
    sizes = sorted(made["n_abstracts"].unique())
    timed = ~growth["stage"].isin([TOTAL, BASELINE, LDA_REFERENCE]) & (growth["seconds_large"] >= MIN_TIMED_SECONDS)
    for row in growth[timed].itertuples():
        limit = round(MAX_GROWTH_PER_TENFOLD / 10 * row.size_ratio, 2)
        rows.append((f"{row.stage} growth, {sizes[-1]:,} vs {sizes[-2]:,} abstracts", float(row.growth), limit))
    table = pd.DataFrame(rows, columns=["target", "measured", "limit"])
    table["met"] = table["measured"] <= table["limit"]
    parse = table["target"].str.startswith("parse / baseline")
    table.loc[parse, "met"] = table["measured"] < table["limit"]
    return table


def read_results(path) -> pd.DataFrame | None:
    """A benchmark's results (``benchmarks/results.csv``, ...; a page input, :func:`helpers.book.inputs.page_input`),
    or ``None`` when the benchmark has not been run."""
    from helpers.book.inputs import page_input

    path = page_input(path)
    return pd.read_csv(path) if path.exists() else None


def performance_findings(results: pd.DataFrame | None) -> dict[str, object]:
    """Every value the Performance page glues, by glue name (``"(not measured)"`` without results)."""
    from helpers.analysis.engine.file_pieces import PIECE_BYTES
    from helpers.analysis.engine.local import MAX_CHUNK_ITEMS, MIN_PARALLEL_ITEMS
    from helpers.analysis.themes import (FINAL_SAMPLE, FINAL_TOL, MAX_CANDIDATES, N_SEEDS, SELECTION_SAMPLE, SELECTION_TOL,
                                TRANSFORM_BLOCK, candidate_ks)

    limits = {
        "perf_parallel_items": f"{MIN_PARALLEL_ITEMS:,}",
        "perf_partition_items": f"{MAX_CHUNK_ITEMS:,}",
        "perf_piece_mib": f"{PIECE_BYTES / 2**20:g}",
        "perf_transform_block": f"{TRANSFORM_BLOCK:,}",
        "perf_final_sample": f"{FINAL_SAMPLE:,}",
        "perf_n_seeds": N_SEEDS,
        "perf_selection_tol": f"{SELECTION_TOL:g}",
        "perf_final_tol": f"{FINAL_TOL:g}",
        "perf_max_candidates": MAX_CANDIDATES,
        "perf_max_lda_ratio": f"{MAX_LDA_RATIO:g}",
        "perf_max_ratio_20k": f"{MAX_RATIO_AT[20_000]:g}",
        "perf_max_ratio_100k": f"{MAX_RATIO_AT[100_000]:g}",
        "perf_max_gib": f"{MAX_PEAK_MIB / 1024:g}",
        "perf_max_growth": f"{MAX_GROWTH_PER_TENFOLD:g}",
        "perf_min_timed": f"{MIN_TIMED_SECONDS:g}",
        "perf_selection_sample": f"{SELECTION_SAMPLE:,}",
    }
    names = ["perf_largest", "perf_total_seconds", "perf_total_ratio", "perf_baseline_seconds",
             "perf_themes_seconds", "perf_cores", "perf_targets_met", "perf_targets", "perf_selection_fits",
             "perf_longest_stage"]
    if results is None:
        return {**limits, **{name: "(not measured)" for name in names}}
    made = synthetic(results)
    size = int(made["n_abstracts"].max())
    largest = made[made["n_abstracts"] == size].set_index("stage")
    checks = targets(results)
    stages = largest.loc[[stage for stage in STAGE_ORDER if stage in largest.index], "seconds"]
    return {
        **limits,
        "perf_longest_stage": f"{stages.idxmax()} ({stages.max():.0f} s)",
        "perf_largest": f"{size:,}",
        "perf_selection_fits": len(candidate_ks(size)) * N_SEEDS,
        "perf_total_seconds": f"{largest.loc[TOTAL, 'seconds']:.0f}",
        "perf_total_ratio": f"{largest.loc[TOTAL, 'ratio_to_baseline']:.1f}",
        "perf_baseline_seconds": f"{largest.loc[BASELINE, 'seconds']:.1f}",
        "perf_themes_seconds": f"{largest.loc['themes', 'seconds']:.0f}",
        "perf_cores": int(largest["cores"].iloc[0]) if "cores" in largest else "?",
        "perf_targets_met": int(checks["met"].sum()),
        "perf_targets": len(checks),
    }


def stages_figure(results: pd.DataFrame | None):
    """Log-log lines of seconds per stage against corpus size, with the baseline; returns ``(figure, data)``."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    if results is None:
        figure, axis = plt.subplots(figsize=(6, 1.5))
        axis.axis("off")
        axis.text(0.5, 0.5, "No benchmark results yet: run make bench", ha="center", va="center")
        return figure, pd.DataFrame()
    shown = synthetic(results)[lambda t: t["stage"] != "corpus"]
    order = [s for s in STAGE_ORDER + [TOTAL, BASELINE, LDA_REFERENCE] if s in set(shown["stage"])]
    figure, axis = plt.subplots(figsize=(8, 4.5))
    sns.lineplot(data=shown, x="n_abstracts", y="seconds", hue="stage", hue_order=order, style="stage",
                 style_order=order, markers=True, dashes=False, palette="colorblind", ax=axis)
    axis.set(xscale="log", yscale="log", xlabel="Abstracts in the corpus", ylabel="Seconds",
             title="Time per stage of the analysis, with the TF-IDF and LDA references")
    axis.legend(fontsize="small", bbox_to_anchor=(1.02, 1), loc="upper left")
    figure.tight_layout()
    return figure, results


def explorer_readiness(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, object]]:
    """``benchmarks/explorer_results.csv`` with a ``met`` column, and its glue values.

    The explorer is usable when a word typed in its search box updates the count; each size has
    its own target (``target_seconds``) and every page must stay under ``max_page_height_px``.

    Examples
    --------
    >>> table = pd.DataFrame({"n_abstracts": [3000], "seconds": [0.6], "target_seconds": [1.0],
    ...                       "page_height_px": [4544], "max_page_height_px": [15000]})
    >>> explorer_readiness(table)[1]["perf_explorer_summary"]
    '3,000 abstracts: 0.60 s (target 1 s, met)'

    A size whose explorer holds a sample (``n_shown`` below ``n_abstracts``) says so:

    >>> sampled = table.assign(n_abstracts=[1_000_000], n_shown=[20_000])
    >>> explorer_readiness(sampled)[1]["perf_explorer_summary"]
    '1,000,000 abstracts (a seeded sample of 20,000 in the explorer): 0.60 s (target 1 s, met)'
    """
    from helpers.web.explorer import MAX_EXPLORER_PAPERS

    cap = {"perf_explorer_cap": f"{MAX_EXPLORER_PAPERS:,}"}
    if results is None or results.empty:
        return pd.DataFrame(), {"perf_explorer_summary": "(not measured: run benchmarks/explorer_ready.py)", **cap}
    table = results.assign(met=(results["seconds"] <= results["target_seconds"])
                           & (results["page_height_px"] <= results["max_page_height_px"]))
    if "n_shown" not in table:
        table = table.assign(n_shown=table["n_abstracts"])

    def size(row) -> str:
        sample = (f" (a seeded sample of {row.n_shown:,} in the explorer)" if row.n_shown < row.n_abstracts
                  else "")
        return f"{row.n_abstracts:,} abstracts{sample}"

    summary = "; ".join(f"{size(row)}: {row.seconds:.2f} s (target {row.target_seconds:g} s, "
                        f"{'met' if row.met else 'missed'})" for row in table.itertuples())
    return table, {"perf_explorer_summary": summary, **cap}


def group_cost(results: pd.DataFrame | None) -> dict[str, str]:
    """``benchmarks/group_results.csv`` (``benchmarks/groups.py``) as the Performance page's sentence.

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
        f"analyses {row.groups_seconds:.2f} s more, {row.added_share:.1%} (target at most {row.limit:.0%}, "
        f"{'met' if row.met else 'missed'})" for row in results.itertuples())}


def selection_evidence(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/selection_results.csv`` (two ways of choosing k: full fits scored by their best run, and the
    book's early-stopped fits scored by their mean) as shown, and its glue values.

    ``perf_selection_summary`` is one Markdown list item per corpus comparing the two ways.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["x", "x"], "n_abstracts": [50, 50], "way": ["before", "now"],
    ...     "k_seed0": [8, 10], "k_mode": [8, 10], "mode_share": [0.9, 0.5], "expected_coherence": [0.36, 0.35],
    ...     "coherence_se": [0.008, 0.006], "fits": [45, 27], "fit_seconds": [1.8, 0.7]})
    >>> print(selection_evidence(table)[1]["perf_selection_summary"])
    - x (50 abstracts): with seed 0, 8 themes by full fits and 10 by the book's rule; expected coherence 0.360 \
and 0.350 (standard error about 0.007); 45 fits in 1.8 CPU seconds against 27 in 0.7 (2.6 times less).
    """
    from helpers.book.formatting import number

    if results is None or results.empty:
        return pd.DataFrame(), {"perf_selection_summary": "(not measured: run benchmarks/selection.py)"}
    lines = []
    for (corpus, size), rows in results.groupby(["corpus", "n_abstracts"], sort=False):
        full, book_rule = rows.iloc[0], rows.iloc[1]
        lines.append(
            f"- {corpus_name(corpus)} ({number(int(size))} abstracts): with seed 0, {full.k_seed0} themes by "
            f"full fits and {book_rule.k_seed0} by the book's rule; expected coherence "
            f"{full.expected_coherence:.3f} and {book_rule.expected_coherence:.3f} (standard error about "
            f"{(full.coherence_se + book_rule.coherence_se) / 2:.3f}); {full.fits} fits in "
            f"{full.fit_seconds:.1f} CPU seconds against {book_rule.fits} in {book_rule.fit_seconds:.1f} "
            f"({full.fit_seconds / book_rule.fit_seconds:.1f} times less).")
    ways = {"before": "full fits, best run", "now": "early stop, mean (the book's)"}
    shown = pd.DataFrame({
        "corpus": [corpus_name(c) for c in results["corpus"]], "abstracts": results["n_abstracts"],
        "way": [ways.get(str(w).split(":")[0], str(w).split(":")[0]) for w in results["way"]],
        "k, seed 0": results["k_seed0"], "most frequent k": results["k_mode"], "its share": results["mode_share"],
        "expected coherence": results["expected_coherence"], "s.e.": results["coherence_se"],
        "fits": results["fits"], "CPU s": results["fit_seconds"],
    })
    return shown, {"perf_selection_summary": "\n".join(lines)}


def book_build_checks(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/book_results.csv`` with ``met`` where a measure has a limit, and its glue values.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["x"] * 2, "n_abstracts": [495] * 2,
    ...     "measure": ["cold book build (s)", "pages executed, warm build"], "value": [55.0, 0.0],
    ...     "limit": [66.0, 0.0]})
    >>> checks, values = book_build_checks(table)
    >>> checks["met"].tolist(), values["perf_book_cold"]
    (['met', 'met'], '55 s')
    """
    if results is None or results.empty:
        return pd.DataFrame(), {name: "(not measured: run benchmarks/book_build.py)"
                                for name in ("perf_book_corpus", "perf_book_cold", "perf_book_cold_limit",
                                             "perf_book_warm", "perf_book_summary")}
    table = results.copy()
    has_limit = table["limit"].notna()
    table["met"] = ""
    table.loc[has_limit, "met"] = (table.loc[has_limit, "value"] <= table.loc[has_limit, "limit"]).map(
        {True: "met", False: "missed"})
    value = table.set_index("measure")["value"]
    limit = table.set_index("measure")["limit"]
    row = table.iloc[0]
    met = int((table["met"] == "met").sum())

    def shown(number: float) -> str:
        return "" if pd.isna(number) else f"{number:.0f}" if float(number).is_integer() else f"{number:.2f}"

    table = pd.DataFrame({"measure": table["measure"], "value": table["value"].map(shown),
                          "limit": table["limit"].map(shown), "met": table["met"]})
    return table, {
        "perf_book_corpus": f"{corpus_name(row.corpus)} ({row.n_abstracts:,} abstracts)",
        "perf_book_cold": f"{value.get('cold book build (s)', float('nan')):.0f} s",
        "perf_book_cold_limit": f"{limit.get('cold book build (s)', float('nan')):.0f} s",
        "perf_book_warm": f"{value.get('warm book build (s)', float('nan')):.0f} s",
        "perf_book_summary": f"{met} of {int(has_limit.sum())} met",
    }


#: ``make bench-large``: the dask engine within this factor of the local engine's wall time at 100,000 abstracts.
MAX_DASK_RATIO = 1.5
#: ... and every process together within this memory (the machine's) at 1,000,000 abstracts: their largest
#: resident memory at one time where measured, else the sum of each process's own peak (an upper bound).
MAX_LARGE_GIB = 24.0
#: ... and every stage (of at least :data:`MIN_TIMED_SECONDS` at 100,000) within this factor from 100,000 to 1,000,000.
MAX_STAGE_GROWTH = 12.0
WALL = "wall (analysis and write)"
#: The sizes ``make bench-large`` runs.
LARGE_SIZES = (100_000, 1_000_000)


def _at_once_mib(row) -> float:
    """The most the processes held at one time: the sum read every quarter second, which can miss a short peak,
    but never less than one process's own peak (VmHWM); NaN where the run has no sampled sum."""
    together = float(getattr(row, "together_peak_rss_mib", float("nan")))
    return max(together, float(row.main_peak_rss_mib), float(row.worker_peak_rss_mib)) if together == together else together


#: The columns of :func:`large_runs`' table shown as its memory table; the others are its times.
LARGE_MEMORY_COLUMNS = ["abstracts", "engine", "main process GiB", "largest worker GiB", "peaks summed GiB",
                        "at once GiB"]


def large_tables(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`large_runs`' table as two narrower ones, for the page: seconds per stage, and memory (GiB).

    Examples
    --------
    >>> table = pd.DataFrame([{"abstracts": 10, "engine": "local", "workers": 2, "wall s": 5.0, "parse s": 1.0,
    ...                        **{column: 1.0 for column in LARGE_MEMORY_COLUMNS[2:]}}])
    >>> [list(part.columns) for part in large_tables(table)]
    [['abstracts', 'engine', 'wall s', 'parse s'], ['abstracts', 'engine', 'main process GiB', 'largest worker GiB', 'peaks summed GiB', 'at once GiB']]
    """
    shown = table.assign(abstracts=table["abstracts"].map("{:,}".format))
    times = [column for column in shown.columns if column in ("abstracts", "engine") or column.endswith(" s")]
    return shown[times], shown[LARGE_MEMORY_COLUMNS]


def _all_processes_gib(row: dict) -> float:
    """Every process together: their largest memory at one time where measured, else their peaks summed."""
    return row["at once GiB"] if row["at once GiB"] == row["at once GiB"] else row["peaks summed GiB"]


def large_runs(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/large_results.csv`` (``make bench-large``) as shown, one row per size and engine, and its glue values.

    Examples
    --------
    >>> rows = [(100_000, engine, stage, seconds) for engine, scale in (("local", 1.0), ("dask", 1.2))
    ...         for stage, seconds in (("parse", 2 * scale), ("text", 10 * scale), (WALL, 50 * scale))]
    >>> table = pd.DataFrame(rows, columns=["n_abstracts", "engine", "stage", "seconds"]).assign(
    ...     workers=2, main_peak_rss_mib=2048.0, worker_peak_rss_mib=512.0, workers_peak_rss_total_mib=1024.0)
    >>> shown, values = large_runs(table)
    >>> shown[["abstracts", "engine", "wall s", "text s", "peaks summed GiB"]].to_dict("records")[0]
    {'abstracts': 100000, 'engine': 'local', 'wall s': 50.0, 'text s': 10.0, 'peaks summed GiB': 3.0}
    >>> values["perf_large_dask_ratio"], values["perf_large_growth"]
    ('1.20 (target at most 1.5, met)', '(1,000,000 abstracts not measured)')
    >>> values["perf_large_missing"], values["perf_large_growth_target"]
    ('Not measured: 1,000,000 abstracts on the local engine; 1,000,000 abstracts on the dask engine.', '(1,000,000 abstracts not measured)')
    >>> large = table.assign(n_abstracts=1_000_000, seconds=table["seconds"] * ([11, 13, 12] * 2))
    >>> values = large_runs(pd.concat([table, large]))[1]
    >>> values["perf_large_growth"]
    'local: wall 12.0x, parse 11.0x, text 13.0x; dask: wall 12.0x, parse 11.0x, text 13.0x'
    >>> values["perf_large_growth_target"]
    'local: missed (text 13.0x); dask: missed (text 13.0x)'

    """
    missing = "(not measured: run make bench-large)"
    names = ("perf_large_summary", "perf_large_dask_ratio", "perf_large_growth", "perf_large_memory",
             "perf_large_missing", "perf_large_growth_target")
    if results is None or results.empty:
        return pd.DataFrame(), {**{name: missing for name in names}, "perf_large_max_growth": f"{MAX_STAGE_GROWTH:g}x",
                                "perf_large_workers": "2 worker"}
    stages = [stage for stage in STAGE_ORDER if stage in set(results["stage"])]
    runs = []
    for (size, engine), rows in results.groupby(["n_abstracts", "engine"], sort=False):
        seconds = rows.set_index("stage")["seconds"]
        first = rows.iloc[0]
        runs.append({"abstracts": int(size), "engine": engine, "workers": int(first.workers),
                     "wall s": float(seconds[WALL]),
                     **{f"{stage} s": float(seconds.get(stage, float("nan"))) for stage in stages},
                     "main process GiB": round(first.main_peak_rss_mib / 1024, 2),
                     "largest worker GiB": round(first.worker_peak_rss_mib / 1024, 2),
                     "peaks summed GiB": round((first.main_peak_rss_mib + first.workers_peak_rss_total_mib) / 1024, 2),
                     "at once GiB": round(_at_once_mib(first) / 1024, 2)})
    table = pd.DataFrame(runs).sort_values(["abstracts", "engine"], ascending=[True, False], kind="stable",
                                           ignore_index=True)
    wall = table.set_index(["abstracts", "engine"])["wall s"]
    records = table.to_dict("records")
    workers = sorted(set(table["workers"]))
    values = {"perf_large_max_growth": f"{MAX_STAGE_GROWTH:g}x",
              "perf_large_workers": " or ".join(str(n) for n in workers) + " worker",
              "perf_large_summary": "; ".join(
        f"{row['abstracts']:,} abstracts on the {row['engine']} engine: {row['wall s']:.0f} s, "
        f"{row['main process GiB']:.1f} GiB in the main process, {_all_processes_gib(row):.1f} GiB in all"
        for row in records)}
    if (100_000, "local") in wall and (100_000, "dask") in wall:
        ratio = wall[(100_000, "dask")] / wall[(100_000, "local")]
        values["perf_large_dask_ratio"] = (f"{ratio:.2f} (target at most {MAX_DASK_RATIO:g}, "
                                           f"{'met' if ratio <= MAX_DASK_RATIO else 'missed'})")
    else:
        values["perf_large_dask_ratio"] = "(100,000 abstracts not measured on both engines)"
    growth, growth_target = [], []
    for engine in ("local", "dask"):
        if (100_000, engine) in wall and (1_000_000, engine) in wall:
            small = table[(table["abstracts"] == 100_000) & (table["engine"] == engine)].iloc[0]
            large = table[(table["abstracts"] == 1_000_000) & (table["engine"] == engine)].iloc[0]
            parts = [f"{column.removesuffix(' s')} {large[column] / small[column]:.1f}x"
                     for column in ["wall s", *[f"{s} s" for s in stages]] if small[column] >= MIN_TIMED_SECONDS]
            growth.append(f"{engine}: " + ", ".join(parts))
            over = [f"{stage} {large[f'{stage} s'] / small[f'{stage} s']:.1f}x" for stage in stages
                    if small[f"{stage} s"] >= MIN_TIMED_SECONDS
                    and large[f"{stage} s"] / small[f"{stage} s"] > MAX_STAGE_GROWTH]
            growth_target.append(f"{engine}: " + (f"missed ({', '.join(over)})" if over else "met"))
    values["perf_large_growth"] = "; ".join(growth) or "(1,000,000 abstracts not measured)"
    values["perf_large_growth_target"] = "; ".join(growth_target) or "(1,000,000 abstracts not measured)"
    values["perf_large_memory"] = "; ".join(
        f"{row['engine']}: {_all_processes_gib(row):.1f} GiB "
        f"{'at once' if row['at once GiB'] == row['at once GiB'] else '(peaks summed)'} "
        f"({'within' if _all_processes_gib(row) <= MAX_LARGE_GIB else 'over'} {MAX_LARGE_GIB:g} GiB)"
        for row in records if row["abstracts"] == 1_000_000) or "(1,000,000 abstracts not measured)"
    missing_runs = [f"{size:,} abstracts on the {engine} engine" for size in LARGE_SIZES for engine in ("local", "dask")
                    if (size, engine) not in wall]
    values["perf_large_missing"] = ("Not measured: " + "; ".join(missing_runs) + ".") if missing_runs else (
        "Both sizes were measured on both engines.")
    return table, values


def one_file_runs(one_file: pd.DataFrame | None, many_files: pd.DataFrame | None
                  ) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/large_file_results.csv`` (``make bench-large``: the abstracts in one file, read in pieces) as
    shown (abstracts with thousands separators), one row per size and engine beside the parse time of the same abstracts in many files
    (``large_results.csv``), and its glue value ``perf_one_file_summary``.

    Examples
    --------
    >>> def run(engine, parse, wall):
    ...     return [(1_000_000, engine, "parse", parse), (1_000_000, engine, WALL, wall)]
    >>> columns = ["n_abstracts", "engine", "stage", "seconds"]
    >>> peaks = dict(workers=2, main_peak_rss_mib=4096.0, worker_peak_rss_mib=2048.0,
    ...              workers_peak_rss_total_mib=3072.0, together_peak_rss_mib=6144.0)
    >>> one = pd.DataFrame(run("local", 90.0, 400.0) + run("dask", 40.0, 500.0), columns=columns).assign(**peaks)
    >>> many = pd.DataFrame(run("local", 80.0, 390.0), columns=columns).assign(**peaks)
    >>> shown, values = one_file_runs(one, many)
    >>> shown[["engine", "wall s", "parse s", "parse s, many files"]].values.tolist()
    [['local', 400.0, 90.0, 80.0], ['dask', 500.0, 40.0, nan]]
    >>> values["perf_one_file_summary"]
    '1,000,000 abstracts in one file on the local engine: 400 s, parse 90 s (80 s from many files), 6.0 GiB at once; on the dask engine: 500 s, parse 40 s (many files not measured), 6.0 GiB at once'
    """
    if one_file is None or one_file.empty:
        return pd.DataFrame(), {"perf_one_file_summary": "(not measured: run make bench-large)"}
    many_parse = {} if many_files is None else {
        (int(row.n_abstracts), row.engine): float(row.seconds)
        for row in many_files[many_files["stage"] == "parse"].itertuples()}
    runs = large_runs(one_file)[0]
    runs["parse s, many files"] = [many_parse.get((size, engine), float("nan"))
                                   for size, engine in zip(runs["abstracts"], runs["engine"])]
    table = runs[["abstracts", "engine", "wall s", "parse s", "parse s, many files", "main process GiB",
                  "largest worker GiB", "at once GiB"]]
    sentences = []
    for size, rows in table.groupby("abstracts", sort=False):
        runs_of_size = []
        for row in rows.to_dict("records"):
            many = row["parse s, many files"]
            runs_of_size.append(f"{row['engine']} engine: {row['wall s']:.0f} s, parse {row['parse s']:.0f} s ("
                                + (f"{many:.0f} s from many files" if many == many else "many files not measured")
                                + f"), {row['at once GiB']:.1f} GiB at once")
        sentences.append(f"{size:,} abstracts in one file on the " + "; on the ".join(runs_of_size))
    return table.assign(abstracts=table["abstracts"].map("{:,}".format)), {"perf_one_file_summary": "; ".join(sentences)}


#: The stages of ``analyse`` as the stage table's columns, in order.
STAGE_COLUMNS = {"parse": "parse", "text": "text", "themes": "themes", "cooccurrence": "co-occurrence",
                 "links": "links", "write": "write", "analyse (all stages)": "all stages"}


def stages_table(results: pd.DataFrame) -> pd.DataFrame:
    """``benchmarks/results.csv`` as one row per corpus: seconds per stage, the whole run as a multiple of the
    TF-IDF baseline and of one LDA fit, and peak memory (MiB) — narrow enough for the page's column.

    Examples
    --------
    >>> rows = [("c", 10, stage, 1.0, 2.0, 0.5, 300.0) for stage in ("parse", "analyse (all stages)")]
    >>> results = pd.DataFrame(rows, columns=["corpus", "n_abstracts", "stage", "seconds", "ratio_to_baseline",
    ...                                       "ratio_to_lda", "peak_rss_mib"])
    >>> stages_table(results).columns.tolist()
    ['corpus', 'abstracts', 'parse', 'all stages', '× TF-IDF', '× LDA', 'peak MiB']
    """
    order = list(dict.fromkeys(zip(results["corpus"], results["n_abstracts"])))
    stages = results[results["stage"].isin(STAGE_COLUMNS)]
    seconds = stages.pivot_table(index=["corpus", "n_abstracts"], columns="stage", values="seconds", aggfunc="first")
    seconds = seconds.reindex(columns=[s for s in STAGE_COLUMNS if s in seconds.columns]).reindex(order)
    whole = results[results["stage"] == "analyse (all stages)"].set_index(["corpus", "n_abstracts"]).reindex(order)
    table = seconds.rename(columns=STAGE_COLUMNS).reset_index().rename(columns={"n_abstracts": "abstracts"})
    table["× TF-IDF"] = whole["ratio_to_baseline"].to_numpy()
    table["× LDA"] = whole["ratio_to_lda"].to_numpy()
    table["peak MiB"] = whole["peak_rss_mib"].to_numpy()
    table["corpus"] = [corpus_name(c) for c in table["corpus"]]
    return table


def explorer_table(explorer: pd.DataFrame) -> pd.DataFrame:
    """The explorer's readiness as the page shows it: abstracts, papers shown, seconds until the search answers,
    page height and data file size."""
    names = {"n_abstracts": "abstracts", "n_shown": "papers shown", "seconds": "seconds to answer",
             "page_height_px": "page height (px)", "data_file_mib": "data file (MiB)", "met": "target"}
    table = explorer[[c for c in names if c in explorer.columns]].rename(columns=names)
    if "target" in table:
        table["target"] = table["target"].map({True: "met", False: "missed"})
    return table
