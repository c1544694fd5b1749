"""Time the book on the seed and on three years of a real conference: the analysis alone, a cold build and a
warm rebuild.

Run by ``make bench`` on the seed (``data/raw``, 57 abstracts) and on ICML 2023-2025
(``../shared/corpora/icml-2023-2025``, 751 abstracts; skipped with a message when ``../shared`` is absent),
each step in a fresh process as a user would run it, from a warm virtual environment:

1. ``python -m helpers analyse CORPUS --timings``: the command line's wall time (start to CSV files)
   and its stage seconds as it prints them;
2. a cold build as ``make book`` runs it (``python -m helpers.book.prebuild``, which computes the analysis
   and executes the pages on every core, then ``jupyter-book build``) into an empty folder, with an
   empty analysis cache: wall time, pages executed, and the analysis seconds the build spent (the
   stage timings stored with the cached analysis);
3. the same build again (warm): wall time and pages executed;
4. each page of the book re-run as a notebook as ``make lab`` runs it (``BOOK_NOTEBOOK=1``, a new kernel, Run All)
   on the analysis the cold build cached: the slowest page's wall seconds, kernel start included, and the CPU
   seconds of that kernel.

Targets (``benchmarks/targets.csv``): the cold build within ``max_book_seed_seconds`` on the seed and
``max_book_years_seconds`` on the three years; the slowest page re-run as a notebook within
``max_notebook_page_seconds``; the analysis inside the build no slower than on the command line (the same stage timings of ``run_pipeline``, whose
modules are imported before its clock starts; 10% allowed for timer noise); the warm build
executes no page. Writes ``benchmarks/book_results.csv``.
"""

from __future__ import annotations

import os
import pickle
import re
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: The corpora built, each with the target (a :class:`helpers.book.reports.benchmark_targets.Targets` limit) its
#: cold build is held to.
CORPORA = {"seed corpus": (ROOT / "data" / "raw", "max_book_seed_seconds"),
           "icml-2023-2025": (ROOT.parent / "shared" / "corpora" / "icml-2023-2025", "max_book_years_seconds")}
BIN = Path(sys.executable).parent
NOISE = 1.10


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """Wall seconds and combined output of a command run from the book's root (fails loudly)."""
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode:
        sys.exit(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return seconds, result.stdout + result.stderr


def executed(log: str) -> int:
    """Pages executed by the prebuild step and by jupyter-book (myst-nb logs 'Executing notebook')."""
    prebuild = re.search(r"prebuild: (\d+) pages in", log)
    return (int(prebuild.group(1)) if prebuild else 0) + len(re.findall(r"Executing notebook", log))


def build(output: Path, env: dict[str, str]) -> tuple[float, str]:
    """``make book``'s two steps: wall seconds and the combined log."""
    prebuild_seconds, prebuild_log = timed([str(BIN / "python"), "-m", "helpers.book.prebuild", "--path-output",
                                            str(output)], env)
    build_seconds, build_log = timed([str(BIN / "jupyter-book"), "build", ".", "--path-output", str(output)], env)
    return prebuild_seconds + build_seconds, prebuild_log + build_log


@contextmanager
def environment(values: dict[str, str | None]):
    """``os.environ`` with ``values`` set (``None`` removes one) inside the block: a new kernel inherits it."""
    saved = {name: os.environ.get(name) for name in values}
    try:
        for name, value in values.items():
            os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
        yield
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)


def notebook_runs(corpus: Path, cache: Path, figures: Path) -> list[tuple[str, float, float]]:
    """Each page of ``_toc.yml`` run as ``make lab`` runs a chapter: a new kernel, every cell, on ``corpus`` with the
    analysis cached in ``cache``. Returns each page's name, wall seconds and its kernel's CPU seconds."""
    import jupytext
    from nbclient import NotebookClient

    from helpers.book.prebuild import book_pages

    runs = []
    with environment({"BOOK_NOTEBOOK": "1", "BOOK_FIGURES_IN_BACKGROUND": "1", "BOOK_CORPUS": str(corpus),
                      "BOOK_ANALYSIS_CACHE": str(cache), "BOOK_FIGURE_DIR": str(figures)}):
        for page in book_pages(ROOT):
            notebook = jupytext.read(page)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            NotebookClient(notebook, timeout=600, kernel_name="python3",
                           resources={"metadata": {"path": str(page.parent)}}).execute()
            seconds = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the kernel, ended and waited for
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            runs.append((page.name, seconds, cpu))
    return runs


def measure(name: str, corpus: Path, limit: float, notebook_limit: float) -> pd.DataFrame:
    """The command line, a cold build and a warm rebuild of the book on ``corpus``: one row per measure."""
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        cli_seconds, log = timed([str(BIN / "python"), "-m", "helpers", "analyse", str(corpus), "--out",
                                  str(folder / "cli"), "--quiet", "--timings"])
        cli_analysis = float(re.search(r"; analysis ([\d.]+) s", log).group(1))
        env = dict(os.environ, BOOK_CORPUS=str(corpus), BOOK_ANALYSIS_CACHE=str(folder / "cache"),
                   BOOK_FIGURE_DIR=str(folder / "book" / "_build" / "html" / "figures"))
        cold_seconds, cold_log = build(folder / "book", env)
        n_papers = int(re.search(r"(\d+) papers from", log.replace(",", "")).group(1))
        # The cache also holds analyses a page makes of other corpora (the seed, for the Validation page).
        cached = [pickle.loads(path.read_bytes()) for path in sorted((folder / "cache").glob("*.pickle"))]
        analysis = next(one for one in cached if len(one.papers) == n_papers)
        book_analysis = sum(analysis.timings.values())
        book_analysis_wall = float(re.search(r"prebuild: analysis ready in ([\d.]+) s", cold_log).group(1))
        warm_seconds, warm_log = build(folder / "book", env)
        runs = notebook_runs(corpus, folder / "cache", folder / "notebook-figures")
    slowest = max(runs, key=lambda run: run[1])
    rows = [
        ("command line: analyse (wall, s)", cli_seconds, None),
        ("command line: analysis stages (s)", cli_analysis, None),
        ("cold book build (s)", cold_seconds, limit),
        ("analysis inside the cold build: stages (s)", book_analysis, round(cli_analysis * NOISE, 3)),
        ("analysis inside the cold build (prebuild step, wall, s)", book_analysis_wall, None),
        ("pages executed, cold build", executed(cold_log), None),
        ("warm book build (s)", warm_seconds, None),
        ("pages executed, warm build", executed(warm_log), 0),
        (f"slowest page re-run as a notebook, analysis cached ({slowest[0]}, s)", slowest[1], notebook_limit),
        (f"CPU of that notebook's kernel ({slowest[0]}, s)", slowest[2], None),
    ]
    table = pd.DataFrame(rows, columns=["measure", "value", "limit"])
    table["value"] = table["value"].astype(float).round(2)
    table.insert(0, "n_abstracts", n_papers)
    table.insert(0, "corpus", name)
    return table


def main() -> None:
    from helpers.book.reports.benchmark_targets import read_targets

    limits = read_targets()
    tables = []
    for name, (corpus, limit_name) in CORPORA.items():
        if not corpus.exists():
            print(f"book build benchmark on {name} skipped: {corpus} is absent (it comes with ../shared/)",
                  file=sys.stderr)
            continue
        tables.append(measure(name, corpus, getattr(limits, limit_name), limits.max_notebook_page_seconds))
    table = pd.concat(tables, ignore_index=True)
    table.to_csv(HERE / "book_results.csv", index=False, lineterminator="\n")
    print(table.to_string(index=False), file=sys.stderr)


if __name__ == "__main__":
    main()
