"""Synthetic corpora in the seed format, made by sampling real sentences (fixed seed).

Sentences come from ``data/raw/`` and, where present, ``../shared/corpora/pmlr-v235-sample/``;
each synthetic abstract joins 6-10 sentences drawn at random, so vocabulary, markup, math and
URLs look like real abstracts while the corpus grows to any size.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from helpers.corpus import read_corpus
from helpers.links import split_sentences

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "data" / "raw", ROOT.parent / "shared" / "corpora" / "pmlr-v235-sample"]
PER_FILE = 5_000


def sentence_pool() -> list[str]:
    sources = [s for s in SOURCES if s.exists()]
    papers = read_corpus(sources).papers
    return [s for text in papers["text"] for s in split_sentences(text)]


def generate(n_abstracts: int, folder: Path, *, seed: int = 0) -> list[Path]:
    """Write ``n_abstracts`` synthetic abstracts into ``folder`` (5,000 per file); returns the files."""
    rng = np.random.default_rng(seed)
    pool = sentence_pool()
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for start in range(0, n_abstracts, PER_FILE):
        count = min(PER_FILE, n_abstracts - start)
        lengths = rng.integers(6, 11, size=count)
        blocks = [" ".join(pool[i] for i in rng.integers(0, len(pool), size=n)) + f" Study {start + k}."
                  for k, n in enumerate(lengths)]
        path = folder / f"synthetic_{start // PER_FILE:04d}.txt"
        path.write_text("Synthetic ICML abstracts\n\n" + "\n\n".join(blocks) + "\n", encoding="utf-8")
        files.append(path)
    return files


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("n", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(len(generate(args.n, args.folder, seed=args.seed)), "files")
