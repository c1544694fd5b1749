"""The corpus page describes how database exports are read too: on Web of Science and Scopus exports it said each
entry of "a bibliographic file (BibTeX, RIS, CSV, TSV or JSON Lines)" is a block, and its method said blocks are
separated by blank lines and the first is a header, which is true of plain-text files only."""

import pandas as pd

from tests.support import ROOT
from helpers.analysis.corpus import Corpus
from helpers.book.reports.corpus import record_note


def test_the_record_note_names_database_exports():
    blocks = pd.DataFrame({"kind": ["abstract", "no-abstract"], "key": ["WOS:1", "WOS:2"]})
    note = record_note(Corpus(papers=pd.DataFrame(), blocks=blocks, files=pd.DataFrame()))
    assert note.startswith("Each record of a database export (Web of Science, Scopus, PubMed and the others) or "
                           "entry of a bibliographic file (BibTeX, RIS, CSV, TSV or JSON Lines) is one block")


def test_the_method_says_which_rules_are_for_plain_text_files():
    chapter = " ".join((ROOT / "chapters" / "corpus.md").read_text(encoding="utf-8").split())
    assert "3. In a plain-text file, blocks are separated by blank lines" in chapter
    assert "4. A plain-text file's first block is a header when it is one short line" in chapter
