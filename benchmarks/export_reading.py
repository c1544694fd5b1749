"""Reading a database export stays linear: a Web of Science plain-text file against the same abstracts as JSON Lines.

For each size (10,000 and 100,000 records) the same synthetic abstracts (``benchmarks/generate.py``, seed 0)
are written twice: as a Web of Science "Full record" plain-text export (``FN``/``VR`` header; per record
``PT``, two ``AU`` and ``AF`` lines, a title wrapped on two lines, ``SO``, ``DE`` on two lines, ``AB``, ``PY``,
``DI``, ten cited references ``CR`` and ``UT``, ``ER``; Web of Science writes ``AB`` on one line) and as JSON
Lines with the same fields. :func:`helpers.analysis.corpus.read_corpus` reads each (best of
``REPEATS``); the target is the Web of Science file within twice the JSON Lines time at 100,000 records, and
time per record at 100,000 no more than at 10,000 times a small factor (linear, not quadratic).

Usage: ``python benchmarks/export_reading.py [--sizes 10000 100000]`` ->
``benchmarks/results/export_reading.csv`` (size, format, MB, seconds, records, papers, seconds per 1,000).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import real_abstracts, synthetic_abstract  # noqa: E402

from helpers.analysis.corpus import read_corpus  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "export_reading.csv"
REPEATS = 2


def records(n: int, seed: int = 0) -> list[dict]:
    """``n`` synthetic records (the same for both formats)."""
    rng = np.random.default_rng(seed)
    abstracts = real_abstracts()
    return [dict(key=f"WOS:{k:015d}", title=f"A synthetic study number {k} of learning systems and their data",
                 authors=["Doe, Jane", "Roe, Rick"], year=2000 + k % 25, venue="JOURNAL OF SYNTHETIC STUDIES",
                 doi=f"10.5555/synthetic.{k}", keywords=["alpha", "beta", "gamma"],
                 abstract=f"{synthetic_abstract(abstracts, rng)} Study {k}.") for k in range(n)]


def write_wos(rows: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.write("FN Clarivate Analytics Web of Science\nVR 1.0\n")
        for row in rows:
            title = row["title"].split(" of ", 1)
            references = "".join(f"   Author{i} A, {2000 + i}, J SYNTH, V{i}, P{i}, DOI 10.5555/ref.{i}\n"
                                 for i in range(1, 10))
            handle.write(
                f"PT J\nAU {row['authors'][0]}\n   {row['authors'][1]}\n"
                f"AF {row['authors'][0]}\n   {row['authors'][1]}\n"
                f"TI {title[0]} of\n   {title[1]}\nSO {row['venue']}\nDE {row['keywords'][0]}; {row['keywords'][1]};\n"
                f"   {row['keywords'][2]}\nAB {row['abstract']}\nPY {row['year']}\nDI {row['doi']}\n"
                f"CR Author0 A, 2000, J SYNTH, V0, P0, DOI 10.5555/ref.0\n{references}UT {row['key']}\nER\n\n")
        handle.write("EF\n")


def write_jsonl(rows: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(dict(row, authors="; ".join(row["authors"]),
                                         keywords="; ".join(row["keywords"]))) + "\n")


def timed_read(path: Path) -> tuple[float, int, int]:
    best, corpus = float("inf"), None
    for _ in range(REPEATS):
        start = time.perf_counter()
        corpus = read_corpus(path)
        best = min(best, time.perf_counter() - start)
    return best, len(corpus.blocks), len(corpus.papers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            rows = records(size)
            paths = {"Web of Science plain text": Path(folder) / f"savedrecs-{size}.txt",
                     "JSON Lines": Path(folder) / f"records-{size}.jsonl"}
            write_wos(rows, paths["Web of Science plain text"])
            write_jsonl(rows, paths["JSON Lines"])
            del rows
            for name, path in paths.items():
                seconds, n_records, n_papers = timed_read(path)
                results.append(dict(size=size, format=name, megabytes=round(path.stat().st_size / 2**20, 1),
                                    seconds=round(seconds, 2), records=n_records, papers=n_papers,
                                    seconds_per_1000=round(seconds / size * 1000, 4)))
                print(results[-1], flush=True)
                path.unlink()
    table = pd.DataFrame(results)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT, index=False, lineterminator="\n")
    for size, group in table.groupby("size"):
        times = dict(zip(group["format"], group["seconds"]))
        print(f"{size:,} records: Web of Science / JSON Lines = "
              f"{times['Web of Science plain text'] / times['JSON Lines']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
