"""Link claims beyond machine learning: the availability classes on the database exports, checked by reading.

``tests/evaluation/availability_exports.csv`` labels 69 sentences of the five real exports of
``../shared/corpora/exports`` (Web of Science, Scopus, PubMed; decision analysis, innovation, health and
physics abstracts): every sentence a wide keyword net flags in the Web of Science plain-text and Scopus CSV
exports, 20 drawn (seed 0) from each of the other three, and the sentences the classifier called a claim
there. They were labelled by reading each sentence with its abstract, from the links chapter's definitions,
before the classifier was run on them; nothing was tuned on them. The set holds no text of the exports
(record key, sentence number and the sentence's SHA-1): this script reads the sentences from ``../shared``.

Usage: ``python benchmarks/export_link_claims.py`` -> ``benchmarks/results/export_link_claims.csv`` (precision,
recall, F1 and support per class) and the confusion matrix on stdout.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from helpers.analysis.links.evaluation import confusion_matrix, evaluate_verdicts, resolve_export_sentences
from helpers.analysis.corpus import read_corpus

ROOT = Path(__file__).resolve().parents[1]
EXPORTS = ROOT.parent / "shared" / "corpora" / "exports"
LABELS = ROOT / "tests" / "evaluation" / "availability_exports.csv"
OUT = ROOT / "benchmarks" / "results" / "export_link_claims.csv"


def exports_records(names) -> dict[str, pd.DataFrame]:
    """Each export's blocks with their papers' analysed text (``key, kind, text``)."""
    records = {}
    for name in names:
        corpus = read_corpus(EXPORTS / name)
        blocks = corpus.blocks.merge(corpus.papers[["paper_id", "text"]], on="paper_id", how="left")
        records[name] = blocks[["key", "kind", "text"]]
    return records


def main() -> int:
    if not EXPORTS.is_dir():
        print(f"skipped: {EXPORTS} is absent (the real exports are not part of a clone)")
        return 0
    labelled = pd.read_csv(LABELS, dtype=str, keep_default_na=False)
    rows = resolve_export_sentences(labelled, exports_records(sorted(set(labelled["corpus"]))))
    scores = evaluate_verdicts(rows)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    scores.round(3).to_csv(OUT, index=False, lineterminator="\n")
    print(confusion_matrix(rows).to_string())
    print(scores.round(3).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
