"""Profile one analysis of a synthetic corpus with pyinstrument (``make profile``).

Writes ``benchmarks/out/profile-<n>.html`` and prints the text report.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from pyinstrument import Profiler

from generate import generate
from helpers.analysis.pipeline import AnalysisSettings, run_pipeline

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("n", type=int, nargs="?", default=10_000, help="abstracts (default 10,000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        files = generate(args.n, Path(folder))
        profiler = Profiler(interval=0.005)
        profiler.start()
        results = run_pipeline(files, AnalysisSettings())
        profiler.stop()
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / f"profile-{args.n}.html").write_text(profiler.output_html(), encoding="utf-8")
    print(profiler.output_text(unicode=False, color=False))
    print({stage: round(seconds, 2) for stage, seconds in results.timings.items()})


if __name__ == "__main__":
    main()
