"""Time every stage of the analysis and a scikit-learn baseline in the same run, per corpus size.

``make bench`` runs this; each size runs in a fresh process so its peak RSS is its own.
Writes ``benchmarks/results.csv`` (size, stage, seconds, ratio to baseline, peak RSS) and
``benchmarks/results.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child_peaks_kib() -> list[int]:
    """Peak RSS (VmHWM) of this process's live children: the worker processes (Linux only)."""
    peaks = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            if parent != os.getpid():
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, IndexError, ValueError):
            continue
        match = re.search(r"VmHWM:\s+(\d+) kB", status)
        if match:
            peaks.append(int(match.group(1)))
    return peaks


def measure(n_abstracts: int, n_jobs: int | None = None) -> dict:
    """In this process: generate, run the pipeline stage by stage, then the baseline."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    from generate import generate
    from helpers.pipeline import AnalysisSettings, run_pipeline, write_outputs

    with tempfile.TemporaryDirectory() as folder:
        files = generate(n_abstracts, Path(folder) / "corpus")
        results = run_pipeline(files, AnalysisSettings(), n_jobs=n_jobs)
        out = Path(folder) / "out"
        out.mkdir()
        start = time.perf_counter()
        write_outputs(results, out)
        timings = dict(results.timings, write=time.perf_counter() - start)
        texts = results.papers["text"].tolist()
        start = time.perf_counter()
        TfidfVectorizer(ngram_range=(1, 2), min_df=2).fit_transform(texts)
        baseline = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = child_peaks_kib()
    return {"worker_peak_rss_mib": sum(workers) / 1024, "n_workers": len(workers),"n_abstracts": n_abstracts, "papers": len(texts), "baseline": baseline, "n_jobs": n_jobs,
            "timings": timings, "peak_rss_mib": peak_kib / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[1_000, 10_000, 100_000])
    parser.add_argument("--jobs", type=int, help="processes for the analysis (default: all cores)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.jobs)))
        return
    import pandas as pd

    rows = []
    for size in args.sizes:
        jobs = ["--jobs", str(args.jobs)] if args.jobs else []
        output = subprocess.run([sys.executable, str(HERE / "run.py"), "--one", str(size), *jobs], check=True,
                                capture_output=True, text=True, cwd=HERE).stdout
        result = json.loads(output.strip().splitlines()[-1])
        total = sum(result["timings"].values())
        for stage, seconds in [*result["timings"].items(), ("analyse (all stages)", total),
                               ("baseline TfidfVectorizer", result["baseline"])]:
            rows.append({"n_abstracts": size, "stage": stage, "seconds": round(seconds, 3),
                         "ratio_to_baseline": round(seconds / result["baseline"], 3),
                         "peak_rss_mib": round(result["peak_rss_mib"], 1),
                         "worker_peak_rss_mib": round(result["worker_peak_rss_mib"], 1),
                         "cores": os.cpu_count(), "n_jobs": result["n_jobs"] or os.cpu_count()})
        print(f"{size:>7} abstracts: analyse {total:.1f} s = {total / result['baseline']:.2f} x baseline, "
              f"peak RSS {result['peak_rss_mib']:.0f} MiB", file=sys.stderr)
    table = pd.DataFrame(rows)
    table.to_csv(HERE / "results.csv", index=False, lineterminator="\n")
    plot(table)


def plot(table) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import seaborn as sns

    figure, axis = plt.subplots(figsize=(7, 4))
    sns.lineplot(data=table, x="n_abstracts", y="seconds", hue="stage", marker="o", ax=axis)
    axis.set(xscale="log", yscale="log", xlabel="Abstracts", ylabel="Seconds",
             title="Time per stage against corpus size")
    axis.legend(fontsize="small", bbox_to_anchor=(1.02, 1), loc="upper left")
    figure.tight_layout()
    figure.savefig(HERE / "results.png", dpi=150)


if __name__ == "__main__":
    main()
