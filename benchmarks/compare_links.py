"""Paper-by-paper differences of link state between an older version of the book (a git reference) and this tree.

Usage: ``python benchmarks/compare_links.py CORPUS... [--ref 1bf22d0]``

The whole ``src/helpers`` package at ``REF`` is extracted (``git archive``) into a temporary folder and
run in a separate process, so the old links code runs with its own patterns and helpers. Prints, per
corpus, the number of papers in each state before and after, then one row per paper whose state
changed, with the sentence that decided the new state.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pandas as pd

from helpers.analysis.corpus import read_corpus
from helpers.analysis.links.states import LINK_STATES, analyse_links

ROOT = Path(__file__).resolve().parents[1]
BEFORE_THE_CLAIM_GRAMMAR = "1bf22d0"  # the last commit with the pattern-list classifier

# The program run on the old package (its flat layout: helpers.corpus, helpers.links).
_OLD_STATES = """
import sys
from helpers.corpus import read_corpus
from helpers.links import analyse_links
states = analyse_links(read_corpus(sys.argv[1]).papers, n_jobs=1)[1]
states[["paper_id", "link_state"]].to_csv(sys.stdout, index=False)
"""


def old_states(corpus: Path, ref: str) -> pd.DataFrame:
    """``paper_id, link_state`` of every paper as the helpers package at ``ref`` computes them."""
    archive = subprocess.run(["git", "archive", ref, "src/helpers"], cwd=ROOT, capture_output=True, check=True)
    with tempfile.TemporaryDirectory() as folder:
        tarfile.open(fileobj=io.BytesIO(archive.stdout)).extractall(folder, filter="data")
        output = subprocess.run([sys.executable, "-c", _OLD_STATES, str(corpus)], capture_output=True, text=True,
                                check=True, env={"PYTHONPATH": str(Path(folder) / "src"), "PATH": "/usr/bin:/bin"})
    return pd.read_csv(io.StringIO(output.stdout))


def compare(corpus: Path, ref: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(counts, changed)``: papers per state before and after; every paper whose state changed."""
    _, new_states, _ = analyse_links(read_corpus(corpus).papers, n_jobs=1)
    both = old_states(corpus, ref).rename(columns={"link_state": "before"}).merge(
        new_states.rename(columns={"link_state": "after"}), on="paper_id")
    counts = pd.DataFrame({"before": both["before"].value_counts(), "after": both["after"].value_counts()}
                          ).reindex(list(LINK_STATES)).fillna(0).astype(int)
    changed = both[both["before"] != both["after"]]
    return counts, changed[["paper_id", "before", "after", "claim_reason", "claim_sentence"]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="+", type=Path)
    parser.add_argument("--ref", default=BEFORE_THE_CLAIM_GRAMMAR,
                        help=f"git reference of the old classifier (default {BEFORE_THE_CLAIM_GRAMMAR})")
    args = parser.parse_args(argv)
    for corpus in args.corpora:
        counts, changed = compare(corpus.resolve(), args.ref)
        print(f"## {corpus} ({int(counts['after'].sum())} papers)\n")
        print(counts.to_string(), "\n")
        print(f"{len(changed)} papers changed state")
        for row in changed.itertuples():
            print(f"- {row.paper_id}: {row.before} -> {row.after} ({row.claim_reason or 'no claim'})\n"
                  f"    {row.claim_sentence}")
        print()


if __name__ == "__main__":
    main()
