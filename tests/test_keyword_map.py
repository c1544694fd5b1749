"""The map of authors' keywords: the readers fill ``keywords``, and the map counts them as an independent count does."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest

from conftest import SHARED
from helpers.analysis.corpus import read_corpus
from helpers.analysis.keywords import NO_KEYWORDS, analyse_keywords, keyword_table

EXPORTS = SHARED / "corpora" / "exports"
ABSTRACT = "Broiler flocks were observed under heat stress in commercial houses over two summers."


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_wos_bibtex_keywords_lose_their_double_braces(tmp_path):
    bib = ("@article{ WOS:1,\nTitle = {{Heat stress in broilers}},\nAbstract = {{" + ABSTRACT + "}},\n"
           "Keywords = {{Heat stress; Broiler\n   welfare}},\nYear = {{2020}},\n}\n")
    papers = read_corpus(write(tmp_path, "savedrecs.bib", bib)).papers
    assert papers["keywords"].tolist() == ["Heat stress; Broiler welfare"]


def test_medline_mesh_keywords_without_stars_and_qualifiers(tmp_path):
    medline = ("PMID- 1\nTI  - Heat stress in broilers.\nAB  - " + ABSTRACT + "\n"
               "MH  - Animals\nMH  - *Chickens/physiology\nMH  - Heat Stress Disorders/*veterinary/prevention &\n"
               "      control\n\n"
               "PMID- 2\nTI  - Other.\nAB  - Laying hens kept in aviaries were compared with hens in cages.\n"
               "OT  - laying hens\nOT  - *aviary\nMH  - *Chickens\n")
    papers = read_corpus(write(tmp_path, "pubmed-x.txt", medline)).papers.set_index("title")
    # MeSH headings stand in for keywords only without OT; their major-topic stars and qualifiers are no part.
    assert papers.loc["Heat stress in broilers.", "keywords"] == "Animals; Chickens; Heat Stress Disorders"
    assert papers.loc["Other.", "keywords"] == "laying hens; *aviary"
