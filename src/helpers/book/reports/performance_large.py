"""The largest corpora (``make bench-large``: ``benchmarks/large_results.csv``, ``large_file_results.csv``) as the
Performance page shows them: time per stage, memory, and the targets of :func:`read_targets`."""

from __future__ import annotations

import pandas as pd

from helpers.book.reports.benchmark_targets import STAGE_ORDER, Targets, read_targets

__all__ = ["WALL", "LARGE_SIZES", "LARGE_MEMORY_COLUMNS", "large_tables", "large_runs", "one_file_runs"]

WALL = "wall (analysis and write)"
#: The sizes ``make bench-large`` runs.
LARGE_SIZES = (100_000, 1_000_000)


def _at_once_mib(row) -> float:
    """The most the processes held at one time: the sum read every quarter second, which can miss a short peak,
    but never less than one process's own peak (VmHWM); NaN where the run has no sampled sum."""
    together = float(row.together_peak_rss_mib)
    return max(together, float(row.main_peak_rss_mib), float(row.worker_peak_rss_mib)) if together == together else together


#: The columns of :func:`large_runs`' table shown as its memory table; the others are its times.
LARGE_MEMORY_COLUMNS = ["abstracts", "engine", "main process GiB", "largest worker GiB", "peaks summed GiB",
                        "at once GiB"]


def large_tables(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`large_runs`' table as two narrower ones, for the page: seconds per stage, and memory (GiB).

    Parameters
    ----------
    table : DataFrame
        :func:`large_runs`' table.

    Returns
    -------
    times, memory : DataFrame

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


def large_runs(results: pd.DataFrame | None, limits: Targets | None = None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/large_results.csv`` (``make bench-large``) as shown, one row per size and engine, and its glue values
    (checked against ``limits``, default :func:`read_targets`).

    Parameters
    ----------
    results : DataFrame or None
        The rows of ``benchmarks/large_results.csv`` (None: not run).
    limits : Targets, optional
        The targets (default :func:`read_targets`).

    Returns
    -------
    table : DataFrame
    values : dict
        The page's glue values, by name.

    Examples
    --------
    >>> rows = [(100_000, engine, stage, seconds) for engine, scale in (("local", 1.0), ("dask", 1.2))
    ...         for stage, seconds in (("parse", 2 * scale), ("text", 10 * scale), (WALL, 50 * scale))]
    >>> table = pd.DataFrame(rows, columns=["n_abstracts", "engine", "stage", "seconds"]).assign(
    ...     workers=2, main_peak_rss_mib=2048.0, worker_peak_rss_mib=512.0, workers_peak_rss_total_mib=1024.0,
    ...     together_peak_rss_mib=float("nan"))
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
    limits = limits or read_targets()
    missing = "(not measured: run make bench-large)"
    names = ("perf_large_summary", "perf_large_dask_ratio", "perf_large_growth", "perf_large_memory",
             "perf_large_missing", "perf_large_growth_target")
    if results is None or results.empty:
        return pd.DataFrame(), {**{name: missing for name in names}, "perf_large_max_growth": f"{limits.max_stage_growth:g}x",
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
    values = {"perf_large_max_growth": f"{limits.max_stage_growth:g}x",
              "perf_large_workers": " or ".join(str(n) for n in workers) + " worker",
              "perf_large_summary": "; ".join(
        f"{row['abstracts']:,} abstracts on the {row['engine']} engine: {row['wall s']:.0f} s, "
        f"{row['main process GiB']:.1f} GiB in the main process, {_all_processes_gib(row):.1f} GiB in all"
        for row in records)}
    if (100_000, "local") in wall and (100_000, "dask") in wall:
        ratio = wall[(100_000, "dask")] / wall[(100_000, "local")]
        values["perf_large_dask_ratio"] = (f"{ratio:.2f} (target at most {limits.max_dask_ratio:g}, "
                                           f"{'met' if ratio <= limits.max_dask_ratio else 'missed'})")
    else:
        values["perf_large_dask_ratio"] = "(100,000 abstracts not measured on both engines)"
    growth, growth_target = [], []
    for engine in ("local", "dask"):
        if (100_000, engine) in wall and (1_000_000, engine) in wall:
            small = table[(table["abstracts"] == 100_000) & (table["engine"] == engine)].iloc[0]
            large = table[(table["abstracts"] == 1_000_000) & (table["engine"] == engine)].iloc[0]
            parts = [f"{column.removesuffix(' s')} {large[column] / small[column]:.1f}x"
                     for column in ["wall s", *[f"{s} s" for s in stages]] if small[column] >= limits.min_timed_seconds]
            growth.append(f"{engine}: " + ", ".join(parts))
            over = [f"{stage} {large[f'{stage} s'] / small[f'{stage} s']:.1f}x" for stage in stages
                    if small[f"{stage} s"] >= limits.min_timed_seconds
                    and large[f"{stage} s"] / small[f"{stage} s"] > limits.max_stage_growth]
            growth_target.append(f"{engine}: " + (f"missed ({', '.join(over)})" if over else "met"))
    values["perf_large_growth"] = "; ".join(growth) or "(1,000,000 abstracts not measured)"
    values["perf_large_growth_target"] = "; ".join(growth_target) or "(1,000,000 abstracts not measured)"
    values["perf_large_memory"] = "; ".join(
        f"{row['engine']}: {_all_processes_gib(row):.1f} GiB "
        f"{'at once' if row['at once GiB'] == row['at once GiB'] else '(peaks summed)'} "
        f"({'within' if _all_processes_gib(row) <= limits.max_large_gib else 'over'} {limits.max_large_gib:g} GiB)"
        for row in records if row["abstracts"] == 1_000_000) or "(1,000,000 abstracts not measured)"
    missing_runs = [f"{size:,} abstracts on the {engine} engine" for size in LARGE_SIZES for engine in ("local", "dask")
                    if (size, engine) not in wall]
    values["perf_large_missing"] = ("Not measured: " + "; ".join(missing_runs) + ".") if missing_runs else (
        "Both sizes were measured on both engines.")
    return table, values


def one_file_runs(one_file: pd.DataFrame | None, many_files: pd.DataFrame | None, limits: Targets | None = None
                  ) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/large_file_results.csv`` (``make bench-large``: the abstracts in one file, read in pieces) as
    shown (abstracts with thousands separators), one row per size and engine beside the parse time of the same abstracts in many files
    (``large_results.csv``), and its glue value ``perf_one_file_summary``.

    Parameters
    ----------
    one_file : DataFrame or None
        The rows of ``benchmarks/large_file_results.csv`` (None: not run).
    many_files : DataFrame or None
        The rows of ``benchmarks/large_results.csv``.
    limits : Targets, optional
        The limit on reading one file against many (default :func:`read_targets`).

    Returns
    -------
    table : DataFrame
    values : dict
        ``perf_one_file_summary``.

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
    runs = large_runs(one_file, limits)[0]
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
