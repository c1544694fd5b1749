"""What the group comparisons ("What changed") add to ``analyse``: 20,000 abstracts in 10 groups.

The target (issue 22): at 20,000 abstracts in 10 groups the group analyses add at most 30% to
``analyse``. The synthetic corpus of ``generate.py`` (20,000 abstracts, seed 0) is written as 10
files of 2,000 abstracts, one group per file, and ``analyse`` runs with ``--group-by file``: its
``change`` stage (:func:`helpers.analysis.pipeline.stages.analyse_group_change`: theme prevalence and its
bootstrap, the tests, the thematic map, term overlay and bursts, links per group) is what the group
analyses add to the other stages. (Without a ``group_by`` setting, as before the readers came in, the
stage is timed on ``analyse``'s result, the papers grouped by file.)
Writes ``benchmarks/group_results.csv``: ``n_abstracts, n_groups, analyse_seconds, groups_seconds,
added_share, limit, met, cores, n_jobs``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIMIT = 0.30


def grouped_corpus(n_abstracts: int, n_groups: int, folder: Path) -> list[Path]:
    """``generate.py``'s corpus re-cut into ``n_groups`` files of equal size (``group_01.txt`` ...)."""
    from generate import generate

    from helpers.analysis.corpus import read_corpus

    texts = read_corpus(generate(n_abstracts, folder / "generated")).papers["text"].tolist()
    size = -(-len(texts) // n_groups)
    files = []
    for index in range(n_groups):
        path = folder / f"group_{index + 1:02d}.txt"
        path.write_text(f"Synthetic group {index + 1}\n\n" + "\n\n".join(texts[index * size:(index + 1) * size])
                        + "\n", encoding="utf-8")
        files.append(path)
    return files


def measure(n_abstracts: int, n_groups: int, n_jobs: int | None) -> dict:
    from helpers.analysis.change import ordered_groups
    from helpers.analysis._parallel import available_cores
    from helpers.analysis.pipeline import AnalysisSettings, run_pipeline
    from helpers.analysis.pipeline.stages import analyse_group_change

    with tempfile.TemporaryDirectory() as folder:
        files = grouped_corpus(n_abstracts, n_groups, Path(folder))
        fields = {f.name for f in dataclasses.fields(AnalysisSettings)}
        settings = AnalysisSettings(**({"group_by": "file"} if "group_by" in fields else {}))
        analysis = run_pipeline(files, settings, n_jobs=n_jobs)
        if analysis.change is not None and "change" in analysis.timings:
            groups_seconds = analysis.timings["change"]
            analyse_seconds = sum(analysis.timings.values()) - groups_seconds
        else:
            analyse_seconds = sum(analysis.timings.values())
            papers = analysis.papers.assign(group=analysis.papers["source_file"])
            start = time.perf_counter()
            change = analyse_group_change(papers, ordered_groups(papers["group"]), analysis.themes,
                                          analysis.cooccurrence, analysis.links, analysis.settings)
            groups_seconds = time.perf_counter() - start
            assert len(change.groups) == n_groups
    share = groups_seconds / analyse_seconds
    return {"n_abstracts": len(analysis.papers), "n_groups": n_groups, "analyse_seconds": round(analyse_seconds, 3),
            "groups_seconds": round(groups_seconds, 3), "added_share": round(share, 4), "limit": LIMIT,
            "met": share <= LIMIT, "cores": os.cpu_count(), "n_jobs": n_jobs or available_cores()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--abstracts", type=int, default=20_000)
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--jobs", type=int, help="processes for the analysis (default: all cores)")
    args = parser.parse_args()
    import pandas as pd

    sys.path.insert(0, str(HERE))
    row = measure(args.abstracts, args.groups, args.jobs)
    print(f"{row['n_abstracts']} abstracts in {row['n_groups']} groups: analyse {row['analyse_seconds']:.1f} s, "
          f"group analyses {row['groups_seconds']:.2f} s = {row['added_share']:.1%} (limit {LIMIT:.0%})",
          file=sys.stderr)
    pd.DataFrame([row]).to_csv(HERE / "group_results.csv", index=False, lineterminator="\n")


if __name__ == "__main__":
    main()
