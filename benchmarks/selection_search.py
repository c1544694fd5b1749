"""What stopping the search for the number of themes costs, per corpus: the k chosen and its coherence, with and
without the stop, and the selection's fits and CPU seconds.

The book searches the candidate numbers of themes upwards and stops at the first k whose diversity falls under
``MIN_DIVERSITY`` once a smaller k qualifies (``helpers.analysis.themes.selection.search_done``). This fits the
themes of each corpus twice in one process (one thread, ``n_jobs=1``): with the stop, and with every candidate
searched (the search before the stop). The fits of the ks both search are the same runs (same seeds and sample), so
where both choose the same k the themes are the same (``same_themes``: the themes, top terms and weights equal),
and so are their held-out NPMI and word-intrusion items.

Corpora: the seed (``data/raw``), each folder of ``../shared/corpora/`` and each export file of its ``exports/``
(skipped with a note when ``../shared`` is absent), and a 20,000-abstract synthetic corpus (``generate.py``).
Writes ``benchmarks/results/selection_search.csv``: ``corpus, n_abstracts, k_before, k_after, ks_before,
ks_after, fits_before, fits_after, cpu_before, cpu_after, coherence_before, coherence_after, same_themes``
(coherence: the NPMI of the chosen k's runs on the selection's abstracts, as the themes chapter reports it).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from generate import generate
from helpers.analysis.corpus import read_corpus
from helpers.analysis.pipeline.stages import analyse_text
from helpers.analysis.themes import N_SEEDS, ThemeOptions, fit_themes
from helpers.analysis.themes import selection as theme_selection

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared" / "corpora"
OUT = HERE / "results" / "selection_search.csv"
SYNTHETIC = 20_000


def corpora(shared: Path = SHARED) -> dict[str, Path]:
    """The seed, each folder of ``shared`` and each file of its ``exports`` folder, by name."""
    found = {"seed": ROOT / "data" / "raw"}
    if not shared.is_dir():
        print(f"{shared} is absent: only the seed and the synthetic corpus are measured", file=sys.stderr)
        return found
    for folder in sorted(path for path in shared.iterdir() if path.is_dir()):
        if folder.name == "exports":
            found.update({file.name: file for file in sorted(folder.iterdir())
                          if file.is_file() and file.name != "SOURCE.md"})
        else:
            found[folder.name] = folder
    return found


def fitted(tokens, stop: bool):
    """The theme model (one thread) and its CPU seconds; ``stop=False``: every candidate searched."""
    search_done = theme_selection.search_done
    if not stop:
        theme_selection.search_done = lambda *args, **kwargs: False  # type: ignore[assignment]
    try:
        start = time.process_time()
        model = fit_themes(tokens, ThemeOptions(n_jobs=1))
        return model, time.process_time() - start
    finally:
        theme_selection.search_done = search_done


def same_themes(first, second) -> bool:
    return (first.themes.equals(second.themes) and first.top_terms.equals(second.top_terms)
            and first.weights.equals(second.weights))


def measure(name: str, path: Path) -> dict:
    tokens = analyse_text(read_corpus([path]), n_jobs=1)
    before, cpu_before = fitted(tokens, stop=False)
    after, cpu_after = fitted(tokens, stop=True)
    row: dict = {"corpus": name, "n_abstracts": before.settings.documents}
    for label, model, cpu in (("before", before, cpu_before), ("after", after, cpu_after)):
        chosen = model.selection.loc[model.selection["k"] == model.settings.chosen_k].iloc[0]
        row.update({f"k_{label}": model.settings.chosen_k,
                    f"ks_{label}": " ".join(str(k) for k in model.settings.k_candidates),
                    f"fits_{label}": len(model.settings.k_candidates) * N_SEEDS,
                    f"cpu_{label}": round(cpu, 2), f"coherence_{label}": round(float(chosen["coherence"]), 4)})
    row["same_themes"] = same_themes(before, after)
    print(pd.DataFrame([row]).to_string(index=False), file=sys.stderr)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", metavar="NAME", help="only these corpora (names as written)")
    parser.add_argument("--no-synthetic", action="store_true", help=f"skip the {SYNTHETIC:,} synthetic abstracts")
    args = parser.parse_args()
    fitted(analyse_text(read_corpus([ROOT / "data" / "raw"]), n_jobs=1), stop=True)  # imports and dictionaries, untimed
    rows = [measure(name, path) for name, path in corpora().items() if not args.only or name in args.only]
    if not args.no_synthetic:
        with tempfile.TemporaryDirectory() as folder:
            generate(SYNTHETIC, Path(folder) / "corpus")
            rows.append(measure(f"synthetic {SYNTHETIC:,}", Path(folder) / "corpus"))
    OUT.parent.mkdir(exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT, index=False, lineterminator="\n")


if __name__ == "__main__":
    main()
