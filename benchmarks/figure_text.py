"""How large every figure's text is where it is read: on the page at a 1280 px (and 800 px) window, and in the PDF.

For each corpus this analyses it (default settings; cached in ``_build/analysis-cache`` as the book does), draws every figure a book of it shows as the
pages draw them (:func:`helpers.book.reports.figure_drawings.draw_figures`) and measures each figure's SVG
(:mod:`helpers.book.figure_text`): smallest and median text in CSS px at the width the page gives the figure, and
the smallest text in pt at the width the PDF book prints it. Issue 48 asks for >= 8 px, >= 10 px and >= 6 pt.

Corpora: ``icml-2023-2025`` (``../shared/corpora/``), a 3,000-abstract synthetic corpus (``benchmarks/generate.py``),
the Web of Science traffic-safety and PubMed decision-analysis exports (``../shared/corpora/exports/``); a corpus
whose files are absent is left out with a line saying so.

Usage: ``python benchmarks/figure_text.py [--corpus NAME ...] [--figure LABEL ...] [--keep DIR]``
-> ``benchmarks/results/figure_text.csv`` (with ``--corpus`` or ``--figure``: printed, not saved unless ``--out``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import matplotlib
import pandas as pd

matplotlib.use("Agg")

from helpers.analysis.pipeline import AnalysisSettings  # noqa: E402
from helpers.book.cache import cached_pipeline  # noqa: E402
from helpers.book.figure_text import MIN_MEDIAN_PX, MIN_PRINT_PT, MIN_PX, folder_text_sizes  # noqa: E402
from helpers.book.reports.figure_drawings import draw_figures  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "benchmarks" / "results" / "figure_text.csv"
CACHE = ROOT / "_build" / "analysis-cache"  # the book's analysis cache: a corpus is analysed once
SYNTHETIC = 3_000
CORPORA = {
    "icml-2023-2025": SHARED / "icml-2023-2025",
    f"synthetic-{SYNTHETIC}": None,  # written by benchmarks/generate.py
    "wos-traffic-safety": SHARED / "exports" / "wos-traffic-safety.txt",
    "pubmed-mcda": SHARED / "exports" / "pubmed-mcda.txt",
}
COLUMNS = ["corpus", "figure", "space", "width_in", "height_in", "n_texts", "smallest_px", "median_px",
           "smallest_pt", "median_pt", "smallest_px_800", "unsized", "meets"]


def corpus_path(name: str, scratch: Path) -> Path | None:
    """The corpus's file or folder (the synthetic one written into ``scratch``), or None when absent."""
    if CORPORA[name] is not None:
        path = CORPORA[name]
        return path if path is not None and path.exists() else None
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate  # benchmarks/generate.py

    folder = scratch / "synthetic"
    generate(SYNTHETIC, folder, seed=0)
    return folder


def measure(name: str, path: Path, folder: Path, only: list[str] | None) -> pd.DataFrame:
    """One row per figure of the corpus's book."""
    analysis = cached_pipeline([path], AnalysisSettings(), cache_dir=CACHE, root=ROOT)
    labels = list(draw_figures(analysis, folder, only=only))
    page, narrow = folder_text_sizes(folder), folder_text_sizes(folder, window=800)
    rows = []
    for label in labels:
        sizes = page[label]
        rows.append({"corpus": name, "figure": label, "space": sizes.space, "width_in": sizes.width_in,
                     "height_in": sizes.height_in, "n_texts": sizes.n_texts, "smallest_px": sizes.smallest_px,
                     "median_px": sizes.median_px, "smallest_pt": sizes.smallest_print_pt,
                     "median_pt": sizes.median_print_pt, "smallest_px_800": narrow[label].smallest_px,
                     "unsized": sizes.n_unsized, "meets": not sizes.problems()})
    return pd.DataFrame(rows, columns=COLUMNS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", action="append", choices=list(CORPORA), help="only this corpus (repeatable)")
    parser.add_argument("--figure", action="append", help="only this figure label (repeatable)")
    parser.add_argument("--keep", type=Path, help="keep the figures drawn, one folder per corpus, under this folder")
    parser.add_argument("--out", type=Path, help=f"the CSV to write (default {OUT.relative_to(ROOT)} for a full run)")
    args = parser.parse_args(argv)
    tables = []
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.corpus or list(CORPORA):
            path = corpus_path(name, Path(scratch))
            if path is None:
                print(f"{name}: absent, left out", file=sys.stderr)
                continue
            folder = (args.keep or Path(scratch)) / name
            table = measure(name, path, folder, args.figure)
            print(table.drop(columns=["height_in", "median_pt"]).to_string(index=False), flush=True)
            tables.append(table)
    results = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(columns=COLUMNS)
    print(f"{int(results['meets'].sum())} of {len(results)} figures meet smallest >= {MIN_PX:g} px, median >= "
          f"{MIN_MEDIAN_PX:g} px at 1280 px and smallest >= {MIN_PRINT_PT:g} pt in print")
    out = args.out or (OUT if not (args.corpus or args.figure) else None)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        results.to_csv(out, index=False)
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
