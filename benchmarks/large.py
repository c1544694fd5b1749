"""The largest corpora (``make bench-large``): synthetic abstracts on the local engine and on a Dask cluster.

For each size (default 100,000 and 1,000,000) the corpus is generated once (``generate.py``, kept in
``benchmarks/out/corpus-N``), then analysed in a fresh process per engine, the tables written as
``analyse`` writes them:

- ``local``: the default engine (this process and its joblib workers, ``--jobs`` 2);
- ``dask``: a local Dask cluster of two worker processes (one thread each) on 127.0.0.1, which the
  analysis reaches by its scheduler address as it would a remote cluster (``--scheduler``).

Measured: wall time from the call to the written tables (cluster start-up left out: it is a
cluster's life, not a run's), seconds per stage (the pipeline's own timings, plus ``write``), the
peak RSS (VmHWM) of the analysing process and of every worker process, and the largest resident memory of
all of them at once (read every quarter second). Writes
``benchmarks/large_results.csv``, one row per (size, engine, stage); ``--sizes`` and ``--engines``
choose what runs and the new rows replace the old rows of the same size and engine.

``--one-file`` measures the same abstracts written as one seed-format file (``out/corpus-N-one/all.txt``,
every block of the generated files after one header), which is parsed in pieces
(:mod:`helpers.analysis.corpus.file_pieces`), into ``benchmarks/large_file_results.csv``.
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
RESULTS = HERE / "large_results.csv"
ONE_FILE_RESULTS = HERE / "large_file_results.csv"
CORPORA = HERE / "out"
WORKERS = 2
COLUMNS = ["n_abstracts", "engine", "workers", "stage", "seconds", "main_peak_rss_mib", "worker_peak_rss_mib",
           "workers_peak_rss_total_mib", "together_peak_rss_mib", "cores"]
#: Seconds between two readings of the memory of every process together.
SAMPLE_SECONDS = 0.25


def status_mib(pid: int | str, field: str) -> float | None:
    """A memory ``field`` of ``/proc/<pid>/status`` (``VmHWM``: peak resident memory; ``VmRSS``: resident now) in
    MiB (Linux; ``pid`` may be ``"self"``), or None when the process has ended."""
    try:
        match = re.search(rf"{field}:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    except OSError:
        return None
    return int(match.group(1)) / 1024 if match else None


def vm_hwm_mib(pid: int) -> float | None:
    """Peak resident memory (VmHWM) of process ``pid`` in MiB (Linux), or None when it has ended."""
    return status_mib(pid, "VmHWM")


def descendant_peaks_mib() -> dict[int, float]:
    """VmHWM of every live descendant of this process (its joblib workers), from /proc (Linux)."""
    return {pid: peak for pid in family_pids() - {os.getpid()} if (peak := vm_hwm_mib(pid)) is not None}


def family_pids() -> set[int]:
    """This process and every live descendant (joblib workers, Dask nannies and workers), from /proc (Linux)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    family, grown = {os.getpid()}, True
    while grown:
        new = {pid for pid, parent in parents.items() if parent in family} - family
        family |= new
        grown = bool(new)
    return family


class TogetherPeak:
    """The largest sum of the resident memory (VmRSS) of this process and its descendants, read every
    :data:`SAMPLE_SECONDS` in a background thread: what the machine held at once, where the sum of
    each process's own peak (VmHWM) adds peaks reached at different times."""

    def __init__(self) -> None:
        import threading

        self.peak_mib, self._stop = 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            total = sum(status_mib(pid, "VmRSS") or 0.0 for pid in family_pids())
            self.peak_mib = max(self.peak_mib, total)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return self.peak_mib


def corpus_files(n_abstracts: int) -> list[Path]:
    """The generated corpus of ``n_abstracts`` (made on first use)."""
    from generate import PER_FILE, generate

    folder = CORPORA / f"corpus-{n_abstracts}"
    files = sorted(folder.glob("synthetic_*.txt"))
    if len(files) != -(-n_abstracts // PER_FILE):
        files = generate(n_abstracts, folder)
    return files


def one_file(n_abstracts: int) -> Path:
    """The generated corpus of ``n_abstracts`` as one seed-format file: one header, then every abstract block of
    the generated files in order (made on first use, written aside and renamed)."""
    path = CORPORA / f"corpus-{n_abstracts}-one" / "all.txt"
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as out:
        out.write("Synthetic ICML abstracts\n")
        for file in corpus_files(n_abstracts):
            _, blocks = file.read_text(encoding="utf-8").split("\n\n", 1)  # after the file's header
            out.write("\n" + blocks)
    partial.rename(path)
    return path


def measure(n_abstracts: int, engine: str, one: bool = False) -> dict:
    """In this process: analyse the corpus (``one``: in one file) on ``engine`` and write the tables; times and
    peaks."""
    from helpers.analysis.pipeline import run_pipeline, write_outputs
    from helpers.analysis.settings import AnalysisSettings, EngineSettings

    files = [one_file(n_abstracts)] if one else corpus_files(n_abstracts)
    cluster = None
    worker_peaks: list[float] = []
    if engine == "dask":
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
        settings = EngineSettings(scheduler=cluster.scheduler_address)
    else:
        settings = EngineSettings()
    try:
        together = TogetherPeak()
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            analysis = run_pipeline(files, AnalysisSettings(), n_jobs=WORKERS, engine=settings)
            written = time.perf_counter()
            write_outputs(analysis, Path(folder))
            end = time.perf_counter()
        together_peak = together.stop()
        if cluster is not None:
            with Client(cluster) as client:
                worker_peaks = sorted(vm_hwm_mib(pid) or 0.0 for pid in
                                      client.run(os.getpid).values())
        else:
            worker_peaks = sorted(descendant_peaks_mib().values())
    finally:
        if cluster is not None:
            cluster.close()
    timings = dict(analysis.timings, write=end - written)
    return {"n_abstracts": len(analysis.papers), "engine": engine, "timings": timings, "wall": end - start,
            "main_peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "worker_peaks_mib": worker_peaks, "together_peak_mib": together_peak}


def rows_of(result: dict) -> list[dict]:
    peaks = result["worker_peaks_mib"]
    stages = [*result["timings"].items(), ("wall (analysis and write)", result["wall"])]
    return [{"n_abstracts": result["n_abstracts"], "engine": result["engine"], "workers": WORKERS, "stage": stage,
             "seconds": round(seconds, 2), "main_peak_rss_mib": round(result["main_peak_rss_mib"], 1),
             "worker_peak_rss_mib": round(max(peaks), 1) if peaks else 0.0,
             "workers_peak_rss_total_mib": round(sum(peaks), 1),
             "together_peak_rss_mib": round(result["together_peak_mib"], 1), "cores": os.cpu_count()}
            for stage, seconds in stages]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", type=int, default=[100_000, 1_000_000])
    parser.add_argument("--engines", nargs="+", default=["local", "dask"], choices=["local", "dask"])
    parser.add_argument("--one-file", action="store_true",
                        help="the abstracts in one file, read in pieces -> large_file_results.csv")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(int(args.one[0]), args.one[1], args.one_file)))
        return
    import pandas as pd

    results = ONE_FILE_RESULTS if args.one_file else RESULTS
    old = pd.read_csv(results) if results.exists() else pd.DataFrame(columns=COLUMNS)
    for size in args.sizes:
        one_file(size) if args.one_file else corpus_files(size)  # generated once, outside the measured processes
        for engine in args.engines:
            result = subprocess.run([sys.executable, str(HERE / "large.py"), "--one", str(size), engine,
                                     *(["--one-file"] if args.one_file else [])],
                                    capture_output=True, text=True, cwd=HERE)
            if result.returncode:
                sys.exit(f"large.py --one {size} {engine} failed:\n{result.stderr[-5000:]}")
            measured = json.loads(result.stdout.strip().splitlines()[-1])
            print(f"{size:,} abstracts{' in one file' if args.one_file else ''}, {engine}: {measured['wall']:.1f} s, main peak "
                  f"{measured['main_peak_rss_mib']:.0f} MiB, workers {measured['worker_peaks_mib']}, "
                  f"all together {measured['together_peak_mib']:.0f} MiB", file=sys.stderr)
            new = pd.DataFrame(rows_of(measured), columns=COLUMNS)
            old = old[~((old["n_abstracts"] == measured["n_abstracts"]) & (old["engine"] == engine))]
            old = pd.concat([old, new], ignore_index=True) if len(old) else new
            old.sort_values(["n_abstracts", "engine"], kind="stable").to_csv(results, index=False,
                                                                             lineterminator="\n")


if __name__ == "__main__":
    main()
