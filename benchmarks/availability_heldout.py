"""The availability classifier on its development set and on its held-out set, per class, with Wilson intervals.

``tests/evaluation/availability_claims.csv`` is the development set (the rules were extended for what a first
blind run on it missed); ``tests/evaluation/availability_heldout.csv`` the held-out set (ICML 2023 and 2025
sentences labelled by reading before the classifier was run on them, never tuned on): its score is the honest
one. Both hold their sentences, so this needs nothing outside the repository. The Validation page computes the
same scores when the book is built (:mod:`helpers.analysis.links.evaluation`).

Usage: ``python benchmarks/availability_heldout.py`` -> ``benchmarks/results/availability_heldout.csv``
(``set, class, support, predicted, correct, precision, precision_low, precision_high, recall, recall_low,
recall_high, f1``) and, on stdout, the scores and each held-out sentence the classifier got wrong.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from helpers.analysis.links.evaluation import load_heldout, predict, score_sets, with_context

ROOT = Path(__file__).resolve().parents[1]
DEVELOPMENT = ROOT / "tests" / "evaluation" / "availability_claims.csv"
HELDOUT = ROOT / "tests" / "evaluation" / "availability_heldout.csv"
OUT = ROOT / "benchmarks" / "results" / "availability_heldout.csv"


def main() -> int:
    development = with_context(pd.read_csv(DEVELOPMENT, dtype=str, keep_default_na=False), ["paper_id"])
    heldout = load_heldout(HELDOUT)
    scores = score_sets({"held-out": heldout, "development": development})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    scores.round(4).to_csv(OUT, index=False, lineterminator="\n")
    print(scores.round(3).to_string(index=False))
    wrong = heldout.assign(predicted=predict(heldout)).query("predicted != `class`")
    for row in wrong.itertuples():
        print(f"\n{row.corpus} {row.key} #{row.sentence_no}: labelled {row._5}, predicted {row.predicted}\n"
              f"  {row.sentence}\n  why: {row.why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
