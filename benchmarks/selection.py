"""How the number of themes is chosen now, against how it was chosen before (``make bench``).

Before: every candidate k fitted with 5 seeds to NMF's usual tolerance (1e-3), coherence and
diversity taken from the best-fitting run. Now: 3 seeds stopped early (``SELECTION_TOL``),
coherence and diversity averaged over the runs, the candidates searched upwards until the first k under
the diversity threshold once a smaller k qualifies (``search_done``), then the chosen k fitted once to the
usual tolerance (``helpers.analysis.themes``); and the same without the stop (every candidate searched). All use the
same candidates, thresholds and rule otherwise (without the size floor).

For each corpus at hand (``data/raw``; ``../shared/corpora/pmlr-v235-sample`` and
``icml2024-dev`` when present) every candidate k is fitted with 20 seeds at both tolerances.
Each way of choosing is then replayed for the first seeds 0 to 15 (what ``--seed`` changes),
and scored on:

* ``k_seed0``: the k it chooses with seed 0 (the book's default);
* ``k_mode``, ``mode_share``: its most frequent choice over the sixteen first seeds and how often;
* ``expected_coherence``: the mean NPMI coherence of twenty fully converged runs at the chosen k,
  averaged over the choices (the quality a reader gets, on one yardstick for both ways), and
  ``coherence_se``, the standard error of those twenty-run means (how finely the yardstick reads);
* ``best_k``, ``best_coherence``: the eligible k with the highest such coherence;
* ``fits``, ``fit_seconds``: NMF fits and their CPU seconds (one process).

With seed 0 it also compares the themes each way shows (``theme_match``: mean cosine similarity
of the best-matched themes of the two final models, when both chose the same k).
Writes ``benchmarks/selection_results.csv``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import sparse
from scipy.optimize import linear_sum_assignment
from sklearn.feature_extraction.text import TfidfTransformer

from helpers.analysis import themes
from helpers.analysis.corpus import read_corpus
from helpers.analysis._parallel import LocalPartitions
from helpers.analysis.pipeline.stages import analyse_text
from helpers.analysis.themes import counting as theme_counting
from helpers.analysis.themes import scores as theme_scores
from helpers.analysis.themes import selection as theme_selection

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "corpora"
CORPORA = {
    "seed (data/raw)": HERE.parent / "data" / "raw",
    "pmlr-v235-sample": SHARED / "pmlr-v235-sample" / "abstracts.txt",
    "icml2024-dev": SHARED / "icml2024-dev" / "abstracts.txt",
}
N_FITTED_SEEDS = 20
FIRST_SEEDS = range(16)
OLD_SEEDS, OLD_TOL = 5, 1e-3
WAYS = {
    "before: 5 seeds to tol 1e-3, best run's scores": dict(n_seeds=OLD_SEEDS, tol=OLD_TOL, average=False),
    f"without the stop: {themes.N_SEEDS} seeds to tol {themes.SELECTION_TOL:g}, mean scores, every candidate":
        dict(n_seeds=themes.N_SEEDS, tol=themes.SELECTION_TOL, average=True, stop=False),
    f"now: {themes.N_SEEDS} seeds to tol {themes.SELECTION_TOL:g}, mean scores, search stopped":
        dict(n_seeds=themes.N_SEEDS, tol=themes.SELECTION_TOL, average=True, stop=True),
}


def fit(tfidf: sparse.csr_matrix, k: int, seed: int, tol: float) -> tuple[np.ndarray, float, float]:
    """Components, reconstruction error and CPU seconds of one NMF run."""
    start = time.process_time()
    with themes.model_fitting():
        model = theme_selection._fit_nmf(tfidf, k, seed, tol)
    return model.components_, float(model.reconstruction_err_), time.process_time() - start


def choose(runs: dict, ks: list[int], seeds: list[int], tol: float, average: bool,
           vocabulary: np.ndarray, binary: sparse.csc_matrix, stop: bool = False) -> tuple[int, dict[int, int]]:
    """The chosen k under one way of choosing, and the best-fitting seed of each k searched (``stop``: the
    upward search stops as ``search_done`` says)."""
    rows, best_seed = [], {}
    for k in ks:
        by_seed = {seed: runs[tol, k, seed] for seed in seeds}
        best_seed[k] = min(seeds, key=lambda seed: by_seed[seed][1])
        scored = [theme_scores._scores(by_seed[seed][0], vocabulary, binary)
                  for seed in (seeds if average else [best_seed[k]])]
        rows.append(dict(k=k, coherence=np.mean([np.mean(c) for c, _ in scored]),
                         diversity=np.mean([d for _, d in scored]),
                         stability=themes.stability([run[0] for run in by_seed.values()]), smallest=0))
        if stop and theme_selection.search_done(pd.DataFrame(rows)):
            break
    table = pd.DataFrame(rows)
    table["score"] = sum(theme_selection._minmax(table[c]) for c in ("coherence", "diversity", "stability")) / 3
    table["eligible"] = (table["stability"] >= themes.MIN_STABILITY) & (table["diversity"] >= themes.MIN_DIVERSITY)
    return themes.choose_k(table), best_seed


def match(first: np.ndarray, second: np.ndarray) -> float:
    similarity = theme_scores._cosine_rows(first, second)
    rows, columns = linear_sum_assignment(-similarity)
    return float(similarity[rows, columns].mean())


def evaluate(name: str, path: Path) -> list[dict]:
    tokens = analyse_text(read_corpus([path]), n_jobs=1)
    terms = theme_counting._partitioned_counts(LocalPartitions(), [tokens])
    counts = terms.rows(np.arange(terms.n_documents))
    tfidf = TfidfTransformer(sublinear_tf=True).fit_transform(counts)
    binary = sparse.csc_matrix((counts > 0).astype(float))
    ks = themes.candidate_ks(terms.n_documents)
    jobs = [(tol, k, seed) for tol in sorted({OLD_TOL, themes.SELECTION_TOL, themes.FINAL_TOL})
            for k in sorted(ks, reverse=True) for seed in range(N_FITTED_SEEDS)]
    runs = dict(zip(jobs, Parallel(n_jobs=-1)(delayed(fit)(tfidf, k, seed, tol) for tol, k, seed in jobs)))
    per_run = {k: [np.mean(theme_scores._scores(runs[themes.FINAL_TOL, k, seed][0], terms.vocabulary, binary)[0])
                   for seed in range(N_FITTED_SEEDS)] for k in ks}
    converged = {k: float(np.mean(values)) for k, values in per_run.items()}
    # How precisely the yardstick is known: the standard error of a k's mean over the runs.
    standard_error = {k: float(np.std(values, ddof=1) / np.sqrt(len(values))) for k, values in per_run.items()}
    stable = {k: themes.stability([runs[themes.FINAL_TOL, k, seed][0] for seed in range(N_FITTED_SEEDS)])
              for k in ks}
    eligible = [k for k in ks if stable[k] >= themes.MIN_STABILITY] or ks
    best_k = max(eligible, key=lambda k: (converged[k], -k))
    rows, finals = [], {}
    for way, spec in WAYS.items():
        chosen = []
        for first in FIRST_SEEDS:
            seeds = list(range(first, first + spec["n_seeds"]))
            k, best_seed = choose(runs, ks, seeds, spec["tol"], spec["average"], terms.vocabulary, binary,
                                  spec.get("stop", False))
            chosen.append(k)
            if first == 0:
                searched = sorted(best_seed)
                # Before, the best selection run was the final model; now the chosen k is refitted to FINAL_TOL.
                finals[way] = runs[themes.FINAL_TOL, k, best_seed[k]][0]
        counts = pd.Series(chosen).value_counts()
        mode = int(counts.sort_index().idxmax())
        rows.append(dict(
            corpus=name, n_abstracts=terms.n_documents, way=way, k_seed0=chosen[0], k_mode=mode,
            mode_share=round(counts[mode] / len(chosen), 2),
            expected_coherence=round(float(np.mean([converged[k] for k in chosen])), 4),
            coherence_se=round(float(np.mean([standard_error[k] for k in chosen])), 4),
            best_k=best_k, best_coherence=round(float(converged[best_k]), 4),
            fits=len(searched) * spec["n_seeds"],
            fit_seconds=round(sum(runs[spec["tol"], k, seed][2] for k in searched for seed in range(spec["n_seeds"])),
                              2),
        ))
    before, now = list(finals.values())[0], list(finals.values())[-1]
    for row in rows:
        row["theme_match"] = round(match(before, now), 3) if len(before) == len(now) else None
    return rows


def main() -> None:
    rows = []
    for name, path in CORPORA.items():
        if not path.exists():
            print(f"{name}: skipped, {path} is absent (it comes with ../shared/)", file=sys.stderr)
            continue
        rows += evaluate(name, path)
        print(pd.DataFrame(rows[-len(WAYS):]).to_string(index=False), file=sys.stderr)
    pd.DataFrame(rows).to_csv(HERE / "selection_results.csv", index=False, lineterminator="\n")


if __name__ == "__main__":
    main()
