"""Time every stage of the analysis and a scikit-learn baseline in the same run, per corpus size.

``make bench`` runs this; each size runs in a fresh process so its peak RSS is its own.
Writes ``benchmarks/results.csv`` (size, stage, seconds, ratio to baseline, peak RSS) and
``benchmarks/results.png``.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(n_abstracts: int) -> dict:
    """In this process: generate, run the pipeline stage by stage, then the baseline."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    from generate import generate
    from helpers.pipeline import AnalysisSettings, run_pipeline

    with tempfile.TemporaryDirectory() as folder:
        files = generate(n_abstracts, Path(folder))
        results = run_pipeline(files, AnalysisSettings())
        texts = results["papers"]["text"].tolist()
        start = time.perf_counter()
        TfidfVectorizer(ngram_range=(1, 2), min_df=2).fit_transform(texts)
        baseline = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"n_abstracts": n_abstracts, "papers": len(texts), "baseline": baseline,
            "timings": results["timings"], "peak_rss_mib": peak_kib / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[1_000, 10_000, 100_000])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one)))
        return
    import pandas as pd

    rows = []
    for size in args.sizes:
        output = subprocess.run([sys.executable, str(HERE / "run.py"), "--one", str(size)], check=True,
                                capture_output=True, text=True, cwd=HERE).stdout
        result = json.loads(output.strip().splitlines()[-1])
        total = sum(result["timings"].values())
        for stage, seconds in [*result["timings"].items(), ("analyse (all stages)", total),
                               ("baseline TfidfVectorizer", result["baseline"])]:
            rows.append({"n_abstracts": size, "stage": stage, "seconds": round(seconds, 3),
                         "ratio_to_baseline": round(seconds / result["baseline"], 3),
                         "peak_rss_mib": round(result["peak_rss_mib"], 1)})
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
