"""Time every stage of the analysis and two scikit-learn references in the same run, per corpus.

``make bench`` runs this on real conference abstracts (``../shared/corpora/icml2024-dev``, 495, and
every real abstract at hand, 701: that slice, ``../shared/corpora/pmlr-v235-sample`` and ``data/raw``;
skipped with a message when ``../shared`` is absent) and on synthetic corpora (``generate.py``); each corpus runs in a fresh process
so its peak RSS is its own. The references: a TF-IDF pass (``TfidfVectorizer(ngram_range=(1, 2),
min_df=2)``) and one LDA fit as a user would run it (``CountVectorizer(stop_words="english",
ngram_range=(1, 2), min_df=2)`` then ``LatentDirichletAllocation(n_components=15, random_state=0)``, up
to 20,000 abstracts). Writes ``benchmarks/results.csv`` (corpus, size, stage, seconds, ratios to both
references, peak RSS) and ``benchmarks/results.png``.
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


LDA_UP_TO = 20_000  # the LDA reference is timed up to this size (it takes minutes beyond)
SHARED = HERE.parent.parent / "shared" / "corpora"
REAL_CORPORA = {
    "icml2024-dev": [SHARED / "icml2024-dev" / "abstracts.txt"],
    "all real": [HERE.parent / "data" / "raw", SHARED / "pmlr-v235-sample" / "abstracts.txt",
                 SHARED / "icml2024-dev" / "abstracts.txt"],
}
TFIDF = "baseline TfidfVectorizer"
LDA = "reference LDA (15 topics)"


def reference_lda(texts: list[str]) -> float:
    """Seconds of one scikit-learn LDA fit as a user would run it (the issue's reference)."""
    from sklearn.decomposition import LatentDirichletAllocation
    from sklearn.feature_extraction.text import CountVectorizer

    start = time.perf_counter()
    counts = CountVectorizer(stop_words="english", ngram_range=(1, 2), min_df=2).fit_transform(texts)
    LatentDirichletAllocation(n_components=15, random_state=0).fit(counts)
    return time.perf_counter() - start


def measure(n_abstracts: int, n_jobs: int | None = None, corpus: str | None = None) -> dict:
    """In this process: generate (or read the real corpus named ``corpus``), run the pipeline stage by
    stage, then the references."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    from generate import generate
    from helpers.analysis.pipeline import AnalysisSettings, run_pipeline, write_outputs

    with tempfile.TemporaryDirectory() as folder:
        files = REAL_CORPORA[corpus] if corpus else generate(n_abstracts, Path(folder) / "corpus")
        results = run_pipeline(files, AnalysisSettings(), n_jobs=n_jobs)
        out = Path(folder) / "out"
        out.mkdir()
        start = time.perf_counter()
        write_outputs(results, out)
        timings = dict(results.timings, write=time.perf_counter() - start)
        texts = [text for part in results.texts.parts() for text in part]
        start = time.perf_counter()
        TfidfVectorizer(ngram_range=(1, 2), min_df=2).fit_transform(texts)
        baseline = time.perf_counter() - start
        lda = reference_lda(texts) if len(texts) <= LDA_UP_TO else None
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = child_peaks_kib()
    return {"worker_peak_rss_mib": sum(workers) / 1024, "n_workers": len(workers), "n_abstracts": len(texts),
            "papers": len(texts), "baseline": baseline, "lda": lda, "n_jobs": n_jobs,
            "corpus": corpus or "synthetic",
            "timings": timings, "peak_rss_mib": peak_kib / 1024}


def rows_of(result: dict) -> list[dict]:
    """One results.csv row per stage, the whole analysis and each reference."""
    from helpers.analysis.engine.local import available_cores

    total = sum(result["timings"].values())
    stages = [*result["timings"].items(), ("analyse (all stages)", total), (TFIDF, result["baseline"])]
    if result["lda"] is not None:
        stages.append((LDA, result["lda"]))
    return [{"corpus": result["corpus"], "n_abstracts": result["n_abstracts"], "stage": stage,
             "seconds": round(seconds, 3), "ratio_to_baseline": round(seconds / result["baseline"], 3),
             "ratio_to_lda": round(seconds / result["lda"], 3) if result["lda"] else None,
             "peak_rss_mib": round(result["peak_rss_mib"], 1),
             "worker_peak_rss_mib": round(result["worker_peak_rss_mib"], 1),
             "cores": os.cpu_count(), "n_jobs": result["n_jobs"] or available_cores()}
            for stage, seconds in stages]


def run_one(arguments: list[str]) -> dict:
    result = subprocess.run([sys.executable, str(HERE / "run.py"), *arguments], capture_output=True, text=True,
                            cwd=HERE)
    if result.returncode:
        sys.exit(f"run.py {' '.join(arguments)} failed:\n{result.stderr[-5000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[1_000, 10_000, 20_000, 100_000])
    parser.add_argument("--jobs", type=int, help="processes for the analysis (default: all cores)")
    parser.add_argument("--no-real", action="store_true", help="skip the real corpora")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--corpus", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one, args.jobs, args.corpus)))
        return
    import pandas as pd

    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    results = []
    for name, paths in REAL_CORPORA.items():
        missing = [str(path) for path in paths if not path.exists()]
        if args.no_real:
            continue
        if missing:
            print(f"real corpus row {name!r} skipped: {missing[0]} is absent (it comes with ../shared/, "
                  "not with the book)", file=sys.stderr)
            continue
        results.append(run_one(["--one", "0", "--corpus", name, *jobs]))
    results += [run_one(["--one", str(size), *jobs]) for size in args.sizes]
    rows = [row for result in results for row in rows_of(result)]
    for result in results:
        total = sum(result["timings"].values())
        lda = f", {total / result['lda']:.2f} x LDA" if result["lda"] else ""
        print(f"{result['corpus']:>12} {result['n_abstracts']:>7} abstracts: analyse {total:.1f} s = "
              f"{total / result['baseline']:.2f} x TF-IDF{lda}, peak RSS {result['peak_rss_mib']:.0f} MiB",
              file=sys.stderr)
    table = pd.DataFrame(rows)
    table.to_csv(HERE / "results.csv", index=False, lineterminator="\n")
    plot(table[table["corpus"] == "synthetic"])


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
