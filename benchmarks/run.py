"""Time ``python -m helpers analyse`` from start to exit beside two scikit-learn references, per corpus.

``make bench`` runs this on real conference abstracts (``../shared/corpora/icml2024-dev``, 495, and
``../shared/corpora/icml-2023-2025``, 751 over three files; skipped with a message when ``../shared`` is
absent) and on synthetic corpora (``generate.py``). Each corpus is measured :data:`REPEATS` times, in turns:
the command as a user runs it (a fresh process, start to exit: start-up, every stage, writing the tables),
then the references on the same texts in a fresh process of their own (``--references``):

* a TF-IDF pass, ``TfidfVectorizer(ngram_range=(1, 2), min_df=2).fit_transform``;
* one LDA fit as a user would run it, ``CountVectorizer(stop_words="english", ngram_range=(1, 2), min_df=2)``
  then ``LatentDirichletAllocation(n_components=15, random_state=0)`` (real corpora and synthetic ones up to
  :data:`LDA_UP_TO` abstracts).

Every number written is the median of the repeats. Writes ``benchmarks/results.csv``: one row per corpus and
stage (the stages ``analyse --timings`` prints, ``start-up`` for the rest of the command's time, the whole
command and the references), with seconds, the ratios to both references, the command's peak RSS and the
largest of its worker processes'; and ``benchmarks/results.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from large import TogetherPeak, status_mib

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = sys.executable

REPEATS = 3
LDA_UP_TO = 1_000  # synthetic corpora up to this size also get the LDA reference (it takes minutes beyond)
SHARED = ROOT.parent / "shared" / "corpora"
REAL_CORPORA = {
    "icml2024-dev": SHARED / "icml2024-dev" / "abstracts.txt",
    "icml-2023-2025": SHARED / "icml-2023-2025",
}
TOTAL = "analyse (command, start to exit)"
STARTUP = "start-up"
TFIDF = "baseline TfidfVectorizer"
LDA = "reference LDA (15 topics)"


def references(corpus: Path, lda: bool) -> dict:
    """In this process: read ``corpus`` as ``analyse`` does, then time the references on its texts."""
    from sklearn.decomposition import LatentDirichletAllocation
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

    from helpers.analysis.corpus import read_corpus

    texts = read_corpus([corpus]).papers["text"].tolist()
    start = time.perf_counter()
    TfidfVectorizer(ngram_range=(1, 2), min_df=2).fit_transform(texts)
    seconds = {TFIDF: time.perf_counter() - start}
    if lda:
        start = time.perf_counter()
        counts = CountVectorizer(stop_words="english", ngram_range=(1, 2), min_df=2).fit_transform(texts)
        LatentDirichletAllocation(n_components=15, random_state=0).fit(counts)
        seconds[LDA] = time.perf_counter() - start
    return {"n_abstracts": len(texts), "seconds": seconds}


def run_command(arguments: list[str]) -> tuple[float, str, float]:
    """Wall seconds, output and peak memory (MiB: the largest resident memory of the process and its workers
    together, read every :data:`large.SAMPLE_SECONDS`) of ``python ARGUMENTS`` run from the book's root; exits
    on failure."""
    own_mib = status_mib("self", "VmRSS") or 0.0  # this process, left out of the peak
    peak = TogetherPeak()
    start = time.perf_counter()
    result = subprocess.run([PYTHON, *arguments], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    peak_mib = max(0.0, peak.stop() - own_mib)
    if result.returncode:
        sys.exit(f"python {' '.join(arguments)} failed:\n{result.stderr[-5000:]}")
    return seconds, result.stdout + result.stderr, peak_mib


def analyse_once(corpus: Path, out: Path, jobs: list[str]) -> dict:
    """One ``analyse`` run (``jobs``: its ``--jobs`` option, if any): its wall seconds and the seconds of each
    stage it prints."""
    seconds, log, peak_mib = run_command(["-m", "helpers", "analyse", str(corpus), "--out", str(out), "--quiet",
                                          "--timings", *jobs])
    line = next(line for line in log.splitlines() if line.startswith("timings: "))
    parts = line.removeprefix("timings: ").split("; ")
    stages = {name: float(value) for name, value in (re.fullmatch(r"(\S+) ([\d.]+) s", part).groups()
                                                     for part in parts[0].split(", "))}
    stages["write"] = float(re.fullmatch(r"write ([\d.]+) s", parts[2]).group(1))
    stages[STARTUP] = max(0.0, seconds - sum(stages.values()))
    return {"seconds": seconds, "stages": stages, "peak_mib": peak_mib}


def measure(name: str, corpus: Path, lda: bool, jobs: list[str]) -> list[dict]:
    """:data:`REPEATS` turns of the command and the references on ``corpus``: the median of each as rows."""
    runs, refs = [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(REPEATS):
            runs.append(analyse_once(corpus, Path(folder) / "out", jobs))
            _, log, _ = run_command([str(HERE / "run.py"), "--references", str(corpus)] + (["--lda"] if lda else []))
            refs.append(json.loads(log.strip().splitlines()[-1]))
    median = statistics.median
    seconds = {stage: median(run["stages"][stage] for run in runs) for stage in runs[0]["stages"]}
    seconds[TOTAL] = median(run["seconds"] for run in runs)
    for reference in refs[0]["seconds"]:
        seconds[reference] = median(ref["seconds"][reference] for ref in refs)
    baseline, lda_seconds = seconds[TFIDF], seconds.get(LDA)
    peak = max(run["peak_mib"] for run in runs)
    rows = [{"corpus": name, "n_abstracts": refs[0]["n_abstracts"], "stage": stage, "seconds": round(value, 3),
             "ratio_to_baseline": round(value / baseline, 3),
             "ratio_to_lda": round(value / lda_seconds, 3) if lda_seconds else None,
             "peak_rss_mib": round(peak, 1), "cores": os.cpu_count(), "jobs": jobs[1] if jobs else "all",
             "repeats": REPEATS}
            for stage, value in seconds.items()]
    print(f"{name:>14} {refs[0]['n_abstracts']:>7} abstracts: analyse {seconds[TOTAL]:.2f} s = "
          f"{seconds[TOTAL] / baseline:.2f} x TF-IDF"
          + (f", {seconds[TOTAL] / lda_seconds:.2f} x LDA" if lda_seconds else "") + f", peak RSS {peak:.0f} MiB",
          file=sys.stderr)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[1_000, 10_000, 20_000, 100_000])
    parser.add_argument("--no-real", action="store_true", help="skip the real corpora")
    parser.add_argument("--jobs", type=int, help="analyse --jobs (default: all cores)")
    parser.add_argument("--merge", action="store_true",
                        help="replace only the corpora measured in the results.csv there is (keep the other sizes)")
    parser.add_argument("--references", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--lda", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.references is not None:
        print(json.dumps(references(args.references, args.lda)))
        return
    import pandas as pd

    from generate import generate

    rows, jobs = [], ["--jobs", str(args.jobs)] if args.jobs else []
    for name, path in REAL_CORPORA.items():
        if args.no_real:
            continue
        if not path.exists():
            print(f"real corpus {name!r} skipped: {path} is absent (it comes with ../shared/, not with the book)",
                  file=sys.stderr)
            continue
        rows += measure(name, path, True, jobs)
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as folder:
            generate(size, Path(folder) / "corpus")
            rows += measure("synthetic", Path(folder) / "corpus", size <= LDA_UP_TO, jobs)
    table = pd.DataFrame(rows)
    if args.merge and (HERE / "results.csv").exists():
        table = merged(pd.read_csv(HERE / "results.csv"), table)
    table.to_csv(HERE / "results.csv", index=False, lineterminator="\n")
    plot(table[table["corpus"] == "synthetic"])


def merged(earlier, measured):
    """``earlier`` results with the corpora (name and size) of ``measured`` replaced by its rows, real corpora first
    and synthetic ones by size, as a full run writes them.

    Examples
    --------
    >>> import pandas as pd
    >>> earlier = pd.DataFrame({"corpus": ["icml", "synthetic", "synthetic"], "n_abstracts": [751, 1000, 100000],
    ...                         "seconds": [5.0, 7.0, 36.0]})
    >>> merged(earlier, pd.DataFrame({"corpus": ["synthetic"], "n_abstracts": [20000], "seconds": [12.0]}))["seconds"].tolist()
    [5.0, 7.0, 12.0, 36.0]
    """
    import pandas as pd

    keys = set(zip(measured["corpus"], measured["n_abstracts"]))
    kept = earlier[[key not in keys for key in zip(earlier["corpus"], earlier["n_abstracts"])]]
    table = pd.concat([kept, measured], ignore_index=True)
    synthetic = table["corpus"] == "synthetic"
    order = table.assign(_synthetic=synthetic, _size=table["n_abstracts"].where(synthetic, 0))
    return table.loc[order.sort_values(["_synthetic", "_size"], kind="stable").index].reset_index(drop=True)


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
