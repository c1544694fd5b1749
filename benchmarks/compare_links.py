"""Paper-by-paper differences of link state between an older classifier (git ``main``) and this tree's.

Usage: ``python benchmarks/compare_links.py CORPUS... [--ref main]``

The old ``helpers.links`` is read with ``git show REF:src/helpers/links.py`` (and its pattern file,
if it had one) into a temporary module, so both run on the same parsed corpus. Prints, per corpus,
the number of papers in each state before and after, then one row per paper whose state changed,
with the sentence that decided the new state (or, when the new state is ``none``, the old one's).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import types
from pathlib import Path

import pandas as pd

from helpers.corpus import read_corpus
from helpers.links import LINK_STATES, analyse_links

ROOT = Path(__file__).resolve().parents[1]


def _git_show(ref: str, path: str) -> str | None:
    result = subprocess.run(["git", "show", f"{ref}:{path}"], cwd=ROOT, capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


def load_old_links(ref: str = "main") -> types.ModuleType:
    """``helpers.links`` as it is at ``ref``, as a module of its own (its pattern CSV read from ``ref`` too)."""
    source = _git_show(ref, "src/helpers/links.py")
    if source is None:
        raise SystemExit(f"git show {ref}:src/helpers/links.py failed: is {ref!r} a branch of this repository?")
    csv_text = _git_show(ref, "src/helpers/resources/link_patterns.csv")
    module = types.ModuleType(f"old_links_{ref}")
    module.__dict__["__name__"] = module.__name__
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{ref}:src/helpers/links.py", "exec"), module.__dict__)
    if csv_text is not None and "resources" in module.__dict__:
        class _Files:  # what ``resources.files("helpers").joinpath(...).read_text()`` returns, from git
            def joinpath(self, *parts):
                return self

            def read_text(self, encoding="utf-8"):
                return csv_text

        module.resources = types.SimpleNamespace(files=lambda package: _Files())
    return module


def compare(papers: pd.DataFrame, old: types.ModuleType) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(counts, changed)``: papers per state before and after; every paper whose state changed."""
    old_states, old_statements = old.paper_link_states(papers)
    _, new_states, _ = analyse_links(papers, n_jobs=1)
    both = old_states[["paper_id", "link_state"]].rename(columns={"link_state": "before"}).merge(
        new_states.rename(columns={"link_state": "after"}), on="paper_id")
    counts = pd.DataFrame({"before": both["before"].value_counts(), "after": both["after"].value_counts()}
                          ).reindex(list(LINK_STATES)).fillna(0).astype(int)
    old_sentence = (old_statements.sort_values("sentence_no").groupby("paper_id")["sentence"].first()
                    if len(old_statements) else pd.Series(dtype=str))
    changed = both[both["before"] != both["after"]].copy()
    changed["sentence"] = [s if s else old_sentence.get(p, "") for p, s in
                           zip(changed["paper_id"], changed["claim_sentence"])]
    return counts, changed[["paper_id", "before", "after", "claim_reason", "sentence"]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="+", type=Path)
    parser.add_argument("--ref", default="main", help="git reference of the old classifier (default main)")
    args = parser.parse_args(argv)
    old = load_old_links(args.ref)
    with pd.option_context("display.max_colwidth", 200, "display.width", 250, "display.max_rows", None):
        for corpus in args.corpora:
            papers = read_corpus(corpus).papers
            counts, changed = compare(papers, old)
            print(f"## {corpus} ({len(papers)} papers)\n")
            print(counts.to_string(), "\n")
            print(f"{len(changed)} papers changed state")
            for row in changed.itertuples():
                print(f"- {row.paper_id}: {row.before} -> {row.after} ({row.claim_reason or 'no claim'})\n"
                      f"    {row.sentence}")
            print()


if __name__ == "__main__":
    main()
