"""Small corpus files written by more than one test file."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.support import SEED_DIR


def write_software_bib(folder: Path) -> None:
    """Three ICML 2025 BibTeX entries with PMLR's ``software`` field: a code link in the abstract and the field,
    one in the field only, and a field holding no link."""
    entries = [("a25", "We study graphs. Our code is at https://github.com/o/a.", "https://github.com/o/a"),
               ("b25", "We study language models and their errors in detail.", "https://github.com/o/b"),
               ("c25", "We study quantum sampling and its limits in detail.", ".")]
    (folder / "icml.bib").write_text("\n".join(
        f"@InProceedings{{{key},\n  title = {{T {key}}},\n  year = {{2025}},\n  abstract = {{{text}}},\n"
        f"  software = {{{software}}}\n}}\n" for key, text, software in entries), encoding="utf-8")


def seed_abstracts(n: int) -> list[str]:
    """The first ``n`` blocks of the seed files of at least 30 words (header lines are shorter)."""
    blocks: list[str] = []
    for path in sorted(SEED_DIR.glob("*.txt")):
        for block in path.read_text(encoding="utf-8").split("\n\n"):
            text = " ".join(block.split())
            if len(text.split()) >= 30 and text not in blocks:
                blocks.append(text)
    return blocks[:n]


def write_csv_corpus(path: Path, header: list[str], rows) -> Path:
    """A CSV corpus of ``rows`` under ``header``, as a spreadsheet would save it (UTF-8, the csv module's quoting)."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def write_multi_year_corpus(path: Path, n: int) -> Path:
    """``n`` seed abstracts given as NeurIPS papers of 2022, 2023 and 2024 in turn, as a CSV corpus."""
    return write_csv_corpus(path, ["title", "year", "venue", "abstract"],
                            [[f"Paper {index + 1}", 2022 + index % 3, "NeurIPS", abstract]
                             for index, abstract in enumerate(seed_abstracts(n))])
