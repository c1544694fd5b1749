"""One very long block without full stops against the whole seed run (the availability grammar's worst case).

A block with no sentence end is one sentence to the availability grammar
(:mod:`helpers.analysis.links.availability`), so what the grammar reads around each availability word
(``available``, ``public``, ``provided``, ``found``, ...) must not grow with the block. Two blocks of
36,000 words, each added as one file to the seed corpus (``data/raw``):

* ``seed without full stops``: the seed abstracts in order, their sentence-ending punctuation removed
  (a pasted text whose sentences were never ended);
* ``near misses without full stops``: the evaluation set's sentences that use an availability word
  but make no claim (``tests/evaluation/availability_claims.csv``, class ``none``), without their
  full stops, repeated: every availability word is then read and rejected, the grammar's worst case.

For each corpus: the wall time of ``python -m helpers analyse`` (a fresh process, imports included,
best of ``--repeat`` runs), the analysis stages' seconds (``--timings``) and, in this process, the
seconds :func:`helpers.analysis.links.availability.abstract_verdicts` takes on the block alone and on the
block cut to half its words (linear work: the full block takes about twice the half). Prints a table.

Run: ``cd benchmarks && ../.venv/bin/python long_block.py``.
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "data" / "raw"
EVALUATION = ROOT / "tests" / "evaluation" / "availability_claims.csv"
WORDS = 36_000
_SENTENCE_END = re.compile(r"[.!?。](?=\s|$)")


def _repeat_to(pieces: list[str], n_words: int) -> str:
    words: list[str] = []
    while len(words) < n_words:
        for piece in pieces:
            words.extend(piece.split())
    return " ".join(words[:n_words])


def seed_block(n_words: int = WORDS) -> str:
    """The seed abstracts in order without sentence-ending punctuation, to ``n_words`` words."""
    from helpers.analysis.corpus import read_corpus

    return _repeat_to([_SENTENCE_END.sub("", text) for text in read_corpus(SEED).papers["text"]], n_words)


def near_miss_block(n_words: int = WORDS) -> str:
    """The evaluation set's ``none`` sentences that hold an availability word, without full stops."""
    from helpers.analysis.links.grammar import _PREDICATE

    with EVALUATION.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle)
                if row["class"] == "none" and _PREDICATE.search(row["sentence"].lower())]
    return _repeat_to([_SENTENCE_END.sub("", row["sentence"].strip()) for row in rows], n_words)


def analyse_seconds(paths: list[Path], out: Path, repeat: int) -> tuple[float, str]:
    """Best wall time of ``python -m helpers analyse PATHS`` and its ``--timings`` line."""
    best, timings = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "helpers", "analyse", *map(str, paths), "--out", str(out),
                                 "--quiet", "--timings"], capture_output=True, text=True, cwd=ROOT)
        seconds = time.perf_counter() - start
        if result.returncode:
            sys.exit(f"analyse failed:\n{result.stderr[-3000:]}")
        if seconds < best:
            best = seconds
            timings = next(line for line in result.stderr.splitlines() if line.startswith("timings:"))
    return best, timings.removeprefix("timings: ")


def grammar_seconds(block: str) -> float:
    from helpers.analysis.links.availability import abstract_verdicts

    start = time.perf_counter()
    abstract_verdicts(block)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs of each analysis (best kept)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        seconds, timings = analyse_seconds([SEED], out, args.repeat)
        rows.append(("seed corpus (57 abstracts)", seconds, timings, None, None))
        for name, make in (("seed without full stops", seed_block), ("near misses without full stops",
                                                                      near_miss_block)):
            block = make()
            path = Path(folder) / "block.txt"
            path.write_text(block + "\n", encoding="utf-8")
            seconds, timings = analyse_seconds([SEED, path], out, args.repeat)
            half = " ".join(block.split()[:WORDS // 2])
            rows.append((f"seed + one {WORDS:,}-word block: {name}", seconds, timings,
                         grammar_seconds(half), grammar_seconds(block)))
    seed_seconds = rows[0][1]
    print("| corpus | analyse (wall, s) | x seed run | stages | grammar on 18,000 / 36,000 words (s) |")
    print("|---|---:|---:|---|---:|")
    for name, seconds, timings, half, full in rows:
        grammar = "" if half is None else f"{half:.3f} / {full:.3f}"
        print(f"| {name} | {seconds:.2f} | {seconds / seed_seconds:.2f} | {timings} | {grammar} |")


if __name__ == "__main__":
    main()
