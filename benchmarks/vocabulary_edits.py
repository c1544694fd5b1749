"""The researcher's thesaurus and stop terms on the dev exports: does every output change, and what does it cost?

For each export of ``../shared/corpora/exports/`` with files in ``benchmarks/vocabulary/`` (a stop-term file of ten
terms and a thesaurus of ten merges written for that field), the analysis runs without and with the files,
alternately, ``--repeats`` times each (one process, ``n_jobs=1``, so the two runs share the machine alike). A row per
corpus:

- ``seconds_plain`` / ``seconds_edited``: the median analysis seconds (the stages' timings summed) and ``slower``,
  their ratio minus one;
- ``files_changed``: the terms of these abstracts each file changed (thesaurus, stop terms);
- for each output, whether it differs with the files and no removed or replaced term is left in it:
  ``terms`` (the term map), ``communities``, ``exports`` (VOSviewer JSON and map, GraphML, GEXF), ``theme_terms``
  (the theme vocabulary), ``theme_labels``, ``term_change`` (and the year overlay it holds), ``bursts``, ``explorer``
  (the explorer's term filter);
- ``merged_counts_ok``: every replacement on the map counts at least the abstracts of its largest source.

Usage: ``python benchmarks/vocabulary_edits.py [CORPUS ...] [--repeats N]`` ->
``benchmarks/results/vocabulary_edits.csv`` (with corpora given, only those, printed and not saved).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import pandas as pd

from helpers.analysis.cooccurrence.exporters import network_writers
from helpers.analysis.pipeline import AnalysisSettings, run_pipeline
from helpers.analysis.text.vocabulary_files import read_vocabulary
from helpers.web.explorer_data import explorer_data

ROOT = Path(__file__).resolve().parents[1]
EXPORTS = ROOT.parent / "shared" / "corpora" / "exports"
FILES = ROOT / "benchmarks" / "vocabulary"
OUT = ROOT / "benchmarks" / "results" / "vocabulary_edits.csv"
CORPORA = ("wos-circular-economy.txt", "wos-traffic-safety.txt", "pubmed-mcda.txt")


def _words(analysis, folder: Path) -> dict[str, set[str]]:
    """Each output's terms (or its text's lines, for the exports)."""
    model, change, result = analysis.themes.model, analysis.change, analysis.cooccurrence
    exports: set[str] = set()
    for name, writer in network_writers(result).items():
        if name != "vosviewer_network.txt":  # ids only
            writer(folder / name)
            exports.add((folder / name).read_text(encoding="utf-8").lower())
    papers = analysis.papers.assign(display_title="", authors="", text="")
    explorer = explorer_data(papers, analysis.links.links, analysis.links.statements, analysis.themes.labels, result)
    return {
        "terms": set(result.terms["term"]),
        "communities": {term for terms in result.communities["top_terms"].astype(str) for term in terms.split(", ")},
        "exports": exports,
        "theme_terms": set(model.top_terms["term"]) if model is not None else set(),
        "theme_labels": set(analysis.themes.labels.values()),
        "term_change": set(change.terms["term"]) if change is not None else set(),
        "bursts": set(change.bursts["term"]) if change is not None else set(),
        "explorer": set(explorer["terms"]),
    }


def _absent(values: set[str], gone: set[str], *, files: bool = False) -> bool:
    """No removed or replaced term is a value (``files``: a label of an export file's text: a JSON or GEXF
    attribute, a GraphML element, a VOSviewer map column)."""
    if not files:
        return not gone & values
    texts = "\n".join(values)
    return not any(f'"{term}"' in texts or f">{term}<" in texts or f"\t{term}\t" in texts for term in gone)


def measure(corpus: Path, repeats: int) -> dict[str, object]:
    stem = corpus.stem
    edits = read_vocabulary(FILES / f"{stem}-thesaurus.txt", FILES / f"{stem}-stop-terms.txt")
    assert edits is not None
    plain_settings, edited_settings = AnalysisSettings(), AnalysisSettings(vocabulary=edits)
    seconds: dict[str, list[float]] = {"plain": [], "edited": []}
    for _ in range(repeats):
        for name, settings in (("plain", plain_settings), ("edited", edited_settings)):
            analysis = run_pipeline([corpus], settings, n_jobs=1)
            seconds[name].append(sum(analysis.timings.values()))
            if name == "plain":
                plain = analysis
            else:
                edited = analysis
    gone = set(edits.stop) | set(edits.replace)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "p").mkdir()
        (Path(folder) / "e").mkdir()
        before, after = _words(plain, Path(folder) / "p"), _words(edited, Path(folder) / "e")
    row: dict[str, object] = {"corpus": corpus.name, "papers": len(plain.papers),
                              "seconds_plain": round(statistics.median(seconds["plain"]), 2),
                              "seconds_edited": round(statistics.median(seconds["edited"]), 2)}
    row["slower"] = round(float(row["seconds_edited"]) / float(row["seconds_plain"]) - 1, 3)  # type: ignore[arg-type]
    changes = edited.cooccurrence.vocabulary_changes
    row["files_changed"] = ", ".join(str(n) for n in edits.changed_by_file(changes["term"].astype(str)))
    for name in before:
        if not before[name] and not after[name]:
            row[name] = "n/a"  # one group of papers: no change, no bursts
        else:
            row[name] = before[name] != after[name] and _absent(after[name], gone, files=name == "exports")
    terms_plain = plain.cooccurrence.terms.set_index("term")["n_papers"]
    terms_edited = edited.cooccurrence.terms.set_index("term")["n_papers"]
    row["merged_counts_ok"] = all(
        terms_edited.get(target, 0) >= max((terms_plain.get(s, 0) for s, t in edits.replace.items() if t == target),
                                           default=0)
        for target in set(edits.replace.values()) if target in terms_edited)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", help="export file names (default: the three dev exports)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    if not EXPORTS.is_dir():
        print(f"{EXPORTS}: the dev exports are not here", file=sys.stderr)
        return 2
    rows = [measure(EXPORTS / name, args.repeats) for name in (args.corpora or CORPORA)]
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    if not args.corpora:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(OUT, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
