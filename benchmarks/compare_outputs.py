"""Check that ``python -m helpers analyse`` writes the same bytes as a reference run, on every corpus at hand.

A change that should not change results (a module moved, a function split) is checked by running this
before the change (``--save``: the reference) and after it (the comparison)::

    .venv/bin/python benchmarks/compare_outputs.py --reference /tmp/outputs-main --save   # before
    .venv/bin/python benchmarks/compare_outputs.py --reference /tmp/outputs-main          # after

The corpora: the seed (``data/raw``), each folder of ``../shared/corpora/`` (as ``analyse`` reads a folder)
and each export file of ``../shared/corpora/exports/`` on its own; those of ``../shared`` are left out, with
a note, when it is absent. Every output file (CSV, Parquet parts, network files, ``summary.json``) and the
command's exit code are compared byte for byte; the differing, missing and extra files are printed, and the
exit code is 1 on any difference (0 when all are identical).
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
EXIT_FILE = "exit_code.txt"  # beside each corpus's outputs: the command's exit code


@dataclass(frozen=True)
class CorpusRun:
    """One corpus to analyse: ``name`` (its output folder) and the ``path`` given to ``analyse``."""

    name: str
    path: Path


def corpora(shared: Path = SHARED) -> list[CorpusRun]:
    """The seed, then each folder of ``shared`` and each file of its ``exports`` folder (not ``SOURCE.md``).

    Examples
    --------
    >>> [run.name for run in corpora(Path("/nonexistent"))]
    ['seed']
    """
    runs = [CorpusRun("seed", ROOT / "data" / "raw")]
    if not shared.is_dir():
        return runs
    for folder in sorted(path for path in shared.iterdir() if path.is_dir()):
        if folder.name == "exports":
            runs.extend(CorpusRun(f"exports-{file.name}", file) for file in sorted(folder.iterdir())
                        if file.is_file() and file.name != "SOURCE.md")
        else:
            runs.append(CorpusRun(folder.name, folder))
    return runs


def analyse(run: CorpusRun, out: Path) -> int:
    """``python -m helpers analyse`` on one corpus into ``out`` (replaced); its exit code is written beside."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    completed = subprocess.run([sys.executable, "-m", "helpers", "analyse", str(run.path), "--out", str(out),
                                "--quiet"], cwd=ROOT, capture_output=True, text=True)
    if completed.returncode:
        print(f"{run.name}: exit code {completed.returncode}: {completed.stderr.strip()}", file=sys.stderr)
    (out / EXIT_FILE).write_text(f"{completed.returncode}\n")
    return completed.returncode


def relative_files(folder: Path) -> set[str]:
    """Every file under ``folder``, as paths relative to it."""
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def differences(reference: Path, outputs: Path) -> list[str]:
    """One line per file that differs, is missing from ``outputs`` or is extra in it (empty: identical).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
    ...     _ = (Path(a) / "x.csv").write_text("1\\n"), (Path(b) / "x.csv").write_text("2\\n")
    ...     _ = (Path(b) / "y.csv").write_text("")
    ...     differences(Path(a), Path(b))
    ['differs: x.csv', 'extra: y.csv']
    """
    expected, found = relative_files(reference), relative_files(outputs)
    lines = [f"missing: {name}" for name in sorted(expected - found)]
    lines += [f"differs: {name}" for name in sorted(expected & found)
              if not filecmp.cmp(reference / name, outputs / name, shallow=False)]
    lines += [f"extra: {name}" for name in sorted(found - expected)]
    return sorted(lines, key=lambda line: line.split(": ", 1)[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, required=True, help="folder of the reference outputs")
    parser.add_argument("--save", action="store_true", help="write the reference (replacing it) instead of comparing")
    parser.add_argument("--out", type=Path, help="folder for this run's outputs (default: a temporary folder)")
    parser.add_argument("--shared", type=Path, default=SHARED, help=f"the shared corpora (default {SHARED})")
    parser.add_argument("--only", nargs="*", metavar="NAME", help="only these corpora (names as printed)")
    args = parser.parse_args(argv)
    runs = [run for run in corpora(args.shared) if not args.only or run.name in args.only]
    if not args.shared.is_dir():
        print(f"note: {args.shared} is absent: only the seed corpus is compared", file=sys.stderr)
    if args.save:
        for run in runs:
            analyse(run, args.reference / run.name)
            print(f"{run.name}: reference written", flush=True)
        return 0
    with tempfile.TemporaryDirectory(prefix="compare-outputs-") as scratch:
        out = args.out or Path(scratch)
        different = 0
        for run in runs:
            if not (args.reference / run.name).is_dir():
                print(f"{run.name}: no reference in {args.reference / run.name}", flush=True)
                different += 1
                continue
            analyse(run, out / run.name)
            lines = differences(args.reference / run.name, out / run.name)
            print(f"{run.name}: {'identical' if not lines else f'{len(lines)} files differ'}", flush=True)
            for line in lines:
                print(f"  {line}")
            different += bool(lines)
    print(f"{len(runs) - different} of {len(runs)} corpora identical")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
