"""Synthetic corpora in the seed format, made from real abstracts (fixed seed).

The real abstracts are those of ``data/raw/`` and, where present, the shared corpora
``../shared/corpora/icml2024-dev/`` and ``../shared/corpora/pmlr-v235-sample/`` (about 700 ICML
2024 abstracts). A third of the synthetic abstracts are real abstracts taken whole; the others keep
most sentences of one real abstract, in order, and mix in sentences of one or two others. So the
vocabulary, topics, markup, math and URLs look like a real conference while the corpus grows to any
size. A running number ends each abstract, so no two are duplicates.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from helpers.analysis.corpus import read_corpus
from helpers.analysis.links.urls import split_sentences

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
SOURCES = [ROOT / "data" / "raw", SHARED / "icml2024-dev" / "abstracts.txt", SHARED / "pmlr-v235-sample"]
PER_FILE = 5_000
WHOLE_SHARE = 1 / 3


def real_abstracts() -> list[list[str]]:
    """Every available real abstract, as its list of sentences."""
    papers = read_corpus([s for s in SOURCES if s.exists()]).papers
    return [split_sentences(text) for text in papers["text"]]


def synthetic_abstract(abstracts: list[list[str]], rng: np.random.Generator) -> str:
    """A real abstract whole, or most of one real abstract with sentences of one or two others mixed in."""
    anchor = abstracts[rng.integers(len(abstracts))]
    if rng.random() < WHOLE_SHARE or len(anchor) < 3:
        return " ".join(anchor)
    keep = np.sort(rng.choice(len(anchor), size=max(2, int(len(anchor) * 0.7)), replace=False))
    sentences = [anchor[i] for i in keep]
    for _ in range(rng.integers(1, 3)):
        other = abstracts[rng.integers(len(abstracts))]
        sentences.insert(int(rng.integers(1, len(sentences) + 1)), other[rng.integers(len(other))])
    return " ".join(sentences)


def generate(n_abstracts: int, folder: Path, *, seed: int = 0) -> list[Path]:
    """Write ``n_abstracts`` synthetic abstracts into ``folder`` (5,000 per file); returns the files."""
    rng = np.random.default_rng(seed)
    abstracts = real_abstracts()
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for start in range(0, n_abstracts, PER_FILE):
        count = min(PER_FILE, n_abstracts - start)
        blocks = [f"{synthetic_abstract(abstracts, rng)} Study {start + k}." for k in range(count)]
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
    print(len(generate(args.n, args.folder, seed=args.seed)), "files from", len(real_abstracts()), "real abstracts")
