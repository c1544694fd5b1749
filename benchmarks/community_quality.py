"""How well the term map's communities hold together: Louvain on association strength at resolution 1 (as
VOSviewer weights its links; one run) beside the book's communities (:func:`louvain_partition` defaults).

For each corpus the map is built once (its terms and pairs do not depend on the communities), then its
terms are partitioned by :func:`helpers.analysis.cooccurrence.communities.louvain_partition` each way and
measured by :func:`helpers.analysis.cooccurrence.communities.community_cohesion`: the association strength
of the pairs inside communities and between them (observed over expected co-occurrences), and how many
pairs of landmark terms of one sub-field share a community and how many of different sub-fields do not
(``tests/evaluation/landmark_fields.csv``: the landmarks of ``landmarks.csv``, the development set, grouped
by sub-field).

The book's resolution was chosen on the development corpus (``icml2024-dev`` + ``pmlr-v235-sample``); the
three-year corpus (``icml-2023-2025``, which holds the held-out ICML 2023 and 2025 abstracts) and 3,000
synthetic abstracts (``benchmarks/generate.py``, seed 0) are measured, never tuned on.

Usage: ``python benchmarks/community_quality.py`` -> ``benchmarks/results/community_quality.csv``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pandas as pd

from helpers.analysis.cooccurrence import analyse_cooccurrence
from helpers.analysis.cooccurrence.communities import (LOUVAIN_RESOLUTION, LOUVAIN_STARTS, LOUVAIN_WEIGHTING,
                                                       community_cohesion, louvain_partition)
from helpers.analysis.cooccurrence.evaluation import read_landmark_fields
from helpers.analysis.corpus import read_corpus
from helpers.analysis.text.tokens import tokenize_corpus

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "benchmarks" / "results" / "community_quality.csv"
FIELDS = ROOT / "tests" / "evaluation" / "landmark_fields.csv"
SYNTHETIC_SIZE = 3_000
#: ``method -> (weighting, resolution, starts)``: association strength at Louvain's usual resolution, and the book's.
METHODS = {"association strength, resolution 1": ("association", 1.0, 1),
           "book": (LOUVAIN_WEIGHTING, LOUVAIN_RESOLUTION, LOUVAIN_STARTS)}


def measure(name: str, paths: list[Path], fields: dict[str, str]) -> list[dict]:
    papers = read_corpus(paths).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    result = analyse_cooccurrence(papers["text"], tokens)
    rows = []
    for method, (weighting, resolution, starts) in METHODS.items():
        partition, modularity = louvain_partition(result.terms["term"], result.pairs, resolution=resolution,
                                                  weighting=weighting, starts=starts)
        community = {term: number for number, members in enumerate(partition, start=1) for term in members}
        terms = result.terms.assign(community=result.terms["term"].map(community))
        cohesion = community_cohesion(terms, result.pairs, fields)
        sizes = terms["community"].value_counts()
        rows.append(dict(corpus=name, n_abstracts=len(papers), method=method, weighting=weighting,
                         resolution=resolution, starts=starts, n_terms=len(terms),
                         n_communities=len(sizes), largest_community=int(sizes.max()),
                         within=round(cohesion.within, 6), between=round(cohesion.between, 6),
                         ratio=round(cohesion.ratio, 6), n_together=cohesion.n_together,
                         n_same_field=cohesion.n_same_field, n_apart=cohesion.n_apart,
                         n_other_field=cohesion.n_other_field, modularity=round(modularity, 6)))
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def main() -> None:
    fields = read_landmark_fields(FIELDS)
    rows = measure("seed", [ROOT / "data" / "raw"], fields)
    development = [SHARED / "icml2024-dev" / "abstracts.txt", SHARED / "pmlr-v235-sample" / "abstracts.txt"]
    if all(p.exists() for p in development):
        rows += measure("icml2024-dev + pmlr-v235-sample", development, fields)
    three_years = SHARED / "icml-2023-2025"
    if three_years.exists():
        rows += measure("icml-2023-2025", [three_years], fields)
    if all(p.exists() for p in development):  # the generator draws on the shared ICML abstracts
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from generate import generate

        with tempfile.TemporaryDirectory() as folder:
            rows += measure("synthetic (benchmarks/generate.py)", generate(SYNTHETIC_SIZE, Path(folder), seed=0), fields)
    else:
        print("shared corpora missing: only the seed measured", file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT, index=False, lineterminator="\n")


if __name__ == "__main__":
    main()
