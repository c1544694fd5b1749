"""Term-map quality against the labels of ``tests/evaluation/`` (issue 21), for three rankings side by side.

For each corpus size, the map is built three times from the same candidates, ranked by plain frequency
(abstracts), by VOSviewer's relevance alone (the map before issue 21), and by the combined termhood
score (the default), and measured by :func:`helpers.analysis.cooccurrence.evaluation.map_quality`.

Corpora: the seed (``data/raw``, 57 abstracts), the two shared ICML 2024 folders read together
(``icml2024-dev`` and ``pmlr-v235-sample``, the corpus the labels ``term_labels.csv`` were written on
and the term map's settings chosen on), 3,000 synthetic abstracts of ``benchmarks/generate.py``
(seed 0, made of the same real abstracts), all measured against ``term_labels.csv`` and
``landmarks.csv``; and the held-out corpus (``icml-2023-2025/icml2023.bib`` and ``icml2025.bib``, 256
abstracts), measured against its own blind labels ``term_labels_heldout.csv`` and
``landmarks_heldout.csv``. A shared corpus that is missing is skipped with a note.

Usage: ``python benchmarks/term_quality.py`` -> ``benchmarks/results/term_quality.csv``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence
from helpers.analysis.cooccurrence.evaluation import map_quality, read_landmarks, read_term_labels
from helpers.analysis.cooccurrence.selection import RANKINGS
from helpers.analysis.corpus import read_corpus
from helpers.analysis.text.tokens import tokenize_corpus

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
EVALUATION = ROOT / "tests" / "evaluation"
OUT = ROOT / "benchmarks" / "results" / "term_quality.csv"
SYNTHETIC_SIZE = 3_000
#: The corpus name of the held-out rows (labels of their own, never used to choose a setting).
HELDOUT_CORPUS = "held-out icml2023 + icml2025 (own labels)"


def measure(name: str, paths: list[Path], labels: dict[str, str], landmarks: list[str]) -> list[dict]:
    papers = read_corpus(paths).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    rows = []
    for ranking in ("frequency", "relevance", "combined"):
        start = time.perf_counter()
        result = analyse_cooccurrence(papers["text"], tokens, TermMapOptions(ranking=ranking))
        seconds = time.perf_counter() - start
        quality = map_quality(result, labels, landmarks)
        rows.append(dict(corpus=name, n_abstracts=len(papers), ranking=ranking, **quality.as_row(),
                         modularity=round(result.modularity, 6)))
        print(name, ranking, f"{seconds:.1f} s", quality, file=sys.stderr, flush=True)
    return rows


def main() -> None:
    assert set(RANKINGS) == {"frequency", "relevance", "combined"}
    labels = read_term_labels(EVALUATION / "term_labels.csv")
    landmarks = read_landmarks(EVALUATION / "landmarks.csv")
    rows = measure("seed", [ROOT / "data" / "raw"], labels, landmarks)
    shared = [SHARED / "icml2024-dev" / "abstracts.txt", SHARED / "pmlr-v235-sample" / "abstracts.txt"]
    if all(p.exists() for p in shared):
        rows += measure("icml2024-dev + pmlr-v235-sample", shared, labels, landmarks)
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from generate import generate

        with tempfile.TemporaryDirectory() as folder:
            files = generate(SYNTHETIC_SIZE, Path(folder), seed=0)
            rows += measure("synthetic (benchmarks/generate.py)", files, labels, landmarks)
    else:
        print("shared corpora missing: only the seed measured", file=sys.stderr)
    heldout = [SHARED / "icml-2023-2025" / "icml2023.bib", SHARED / "icml-2023-2025" / "icml2025.bib"]
    if all(p.exists() for p in heldout):
        rows += measure(HELDOUT_CORPUS, heldout, read_term_labels(EVALUATION / "term_labels_heldout.csv"),
                        read_landmarks(EVALUATION / "landmarks_heldout.csv"))
    else:
        print("held-out corpus missing: not measured", file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT, index=False, lineterminator="\n")
    print(OUT)


if __name__ == "__main__":
    main()
