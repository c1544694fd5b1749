"""How the analysis reads corpora of fields far from machine learning: the checks a researcher of that field makes.

For each export of ``../shared/corpora/exports/`` (Web of Science, Scopus and PubMed files of traffic safety,
poultry science, circular economy, decision analysis and innovation studies) and each ICML folder, this runs
``python -m helpers analyse`` and reads its tables:

- ``lost``: records that carry an abstract but became a 0-word block (the abstract removed with its
  copyright line);
- ``copyright_left``: analysed texts that still hold a copyright or licence statement;
- ``label_parts`` / ``label_parts_found``: the parts of every theme label and broad-theme label, and how many occur
  as written (whole words, any case) in the abstracts of that theme;
- ``labels_naming_twice``: labels whose two parts are an acronym and the long form the corpus defines for it
  (``polyaniline (PANI)``);
- ``themes``, ``smallest_theme``, ``themes_under_floor``: themes under max(5 papers, 1% of the papers);
- ``k_at_top``: the selection's best number of themes sits at the top of the range it searched.

Usage: ``python benchmarks/field_exports.py [CORPUS ...]`` -> ``benchmarks/results/field_exports.csv`` (one row
per corpus; with corpora given, only those, printed and not saved).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from helpers.analysis.cooccurrence.acronyms import acronym_definitions
from helpers.analysis.themes.k_range import candidate_ks

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "benchmarks" / "results" / "field_exports.csv"
EXPORTS = ("wos-traffic-safety.txt", "scopus-poultry.csv", "wos-circular-economy.txt", "pubmed-mcda.txt",
           "scopus-innovation.csv", "wos-mcda.bib", "scopus-mcda.bib")
ICML = ("icml-2023-2025", "icml2024-dev")
# A copyright or licence statement left in analysed text.
COPYRIGHT = re.compile(r"©\s*(?:(?:19|20)\d{2}|[A-Z])|\(c\)\s*(?:19|20)\d{2}|\bcopyright\b|all rights reserved|\blicensee\b"
                       r"|published by (?:elsevier|wiley|springer)|creative commons", re.IGNORECASE)
LABEL_SEPARATOR = re.compile(r"\s+·\s+|,\s+|\s+and\s+|\s+&\s+")


@dataclass(frozen=True)
class FieldCheck:
    """The checks of one corpus (see the module docstring)."""

    corpus: str
    papers: int
    lost: int
    copyright_left: int
    label_parts: int
    label_parts_found: int
    labels_naming_twice: int
    themes: int
    smallest_theme: int
    themes_under_floor: int
    k_at_top: bool
    missing_parts: str


def label_parts(label: str) -> list[str]:
    """The words of a label a reader reads as its parts ("broad: a, b", "a · b" and "a · b (general)" alike).

    Examples
    --------
    >>> label_parts("broad: light trapping, optical")
    ['light trapping', 'optical']
    >>> label_parts("pedot · pss"), label_parts("deep · features (general)")
    (['pedot', 'pss'], ['deep', 'features'])
    """
    label = re.sub(r"^\s*broad:\s*|\s*\(general\)\s*$", "", str(label))
    return [part.strip() for part in LABEL_SEPARATOR.split(label) if part.strip()]


def occurs(part: str, text: str) -> bool:
    """``part`` occurs in ``text`` as whole words, any case; a hyphen and a space count as the same.

    Examples
    --------
    >>> occurs("turn", "a turn-on probe"), occurs("pdm", "PDMS chips"), occurs("in vivo", "tested In-vivo")
    (False, False, True)
    """
    words = [re.escape(word) for word in re.split(r"[\s-]+", part.lower()) if word]
    pattern = r"(?<![\w-])" + r"[\s-]+".join(words) + r"(?![\w-])"
    return re.search(pattern, text.lower()) is not None


def names_twice(parts: list[str], definitions: set[tuple[str, str]]) -> bool:
    """Two parts of one label are an acronym and its long form as the corpus defines them."""
    lowered = [part.lower() for part in parts]
    return any((short, long) in definitions for short in lowered for long in lowered if short != long)


def check(name: str, out: Path) -> FieldCheck:
    """The checks on the tables ``analyse`` wrote to ``out``."""
    papers = pd.read_csv(out / "papers.csv", keep_default_na=False)
    blocks = pd.read_csv(out / "blocks.csv", keep_default_na=False)
    themes = pd.read_csv(out / "themes.csv", keep_default_na=False)
    hierarchy_path = out / "theme_hierarchy.csv"
    hierarchy = pd.read_csv(hierarchy_path, keep_default_na=False) if hierarchy_path.exists() else pd.DataFrame()
    summary = json.loads((out / "summary.json").read_text())
    lost = int(((blocks["kind"] == "too-short") & (blocks["n_words"] == 0)).sum())
    copyright_left = int(papers["text"].map(lambda text: bool(COPYRIGHT.search(text))).sum())
    published = papers["published_text"] if "published_text" in papers else papers["text"]
    source_text = published.where(published != "", papers["text"])
    definitions = acronym_definitions(source_text.tolist())
    pairs = {(str(row.acronym).lower(), str(row.long_form).lower()) for row in definitions.itertuples()} \
        if len(definitions) else set()
    n_parts = found = twice = 0
    missing: list[str] = []
    grains = [("theme", themes[["theme", "label"]].astype(str).itertuples(index=False))]
    if len(hierarchy):
        broad = hierarchy[["broad_theme", "broad_label"]].drop_duplicates().astype(str)
        grains.append(("broad_theme", broad.itertuples(index=False)))
    for column, rows in grains:
        for theme, label in rows:
            text = " ".join(source_text[papers[column].astype(str) == theme])
            parts = label_parts(label)
            twice += names_twice(parts, pairs)
            for part in parts:
                n_parts += 1
                if occurs(part, text):
                    found += 1
                else:
                    missing.append(part)
    floor = max(5, math.ceil(0.01 * len(papers)))
    selection = summary.get("theme_selection") or {}
    return FieldCheck(
        corpus=name, papers=len(papers), lost=lost, copyright_left=copyright_left, label_parts=n_parts,
        label_parts_found=found, labels_naming_twice=twice, themes=len(themes),
        smallest_theme=int(themes["n_papers"].min()) if len(themes) else 0,
        themes_under_floor=int((themes["n_papers"] < floor).sum()),
        k_at_top=bool(selection.get("at_top_of_range", len(themes) == candidate_ks(len(papers))[-1])),
        missing_parts="; ".join(missing[:12]))


def run(corpus: Path) -> FieldCheck:
    """``analyse`` on one corpus, then :func:`check`."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        subprocess.run([sys.executable, "-m", "helpers", "analyse", str(corpus), "--out", str(out)],
                       check=True, capture_output=True)
        return check(corpus.name, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    args = parser.parse_args(argv)
    if args.corpora:
        paths = args.corpora
    elif SHARED.is_dir():
        paths = [SHARED / "exports" / name for name in EXPORTS] + [SHARED / name for name in ICML]
    else:
        print(f"skipped: {SHARED} is absent (the dev corpora live beside the project, never in it)")
        return 0
    rows = [asdict(run(path)) for path in paths]
    table = pd.DataFrame(rows)
    with pd.option_context("display.width", 250, "display.max_colwidth", 60):
        print(table.to_string(index=False))
    if not args.corpora:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(OUT, index=False, lineterminator="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
