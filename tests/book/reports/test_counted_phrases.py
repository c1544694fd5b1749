"""Counted phrases of the corpus page, the landing page and the tables' notes agree with their numbers, and a
database's placeholder for "no author" is never shown as an author."""

from __future__ import annotations

from pathlib import Path

from helpers.analysis.corpus import read_corpus
from helpers.book.page_tables import rows_note
from helpers.book.reports.corpus import headers_sentence, parse_sentence
from helpers.book.reports.reproduce import rebuild_command
from helpers.book.settings import BookConfig

SCOPUS_HEADER = '"Authors","Author full names","Author(s) ID","Title","Year","Source title","DOI","Abstract","EID"\n'


def scopus_row(authors: str, full_names: str, title: str, abstract: str, eid: str) -> str:
    return f'"{authors}","{full_names}","","{title}","2021","Poultry Science","","{abstract}","{eid}"\n'


def test_a_kind_of_block_is_plural_in_its_head_noun(tmp_path: Path):
    # Two records without an abstract and two blocks too short: "2 entries without an abstract", never
    # "2 entry without an abstracts".
    (tmp_path / "a.txt").write_text("Header line\n\nToo short.\n\nAlso short.\n\n"
                                    "Broiler chickens gain weight faster on diets with more protein and fibre.\n",
                                    encoding="utf-8")
    text = parse_sentence(read_corpus([tmp_path / "a.txt"]))
    assert text == ("The book read 1 file holding 4 blocks and entries: 1 header, 1 abstract and 2 blocks too short "
                    "to be abstracts. That leaves 1 distinct paper for the analysis.")
    export = tmp_path / "scopus.csv"
    export.write_text(SCOPUS_HEADER + scopus_row("Doe J.", "Doe, Jane (1)", "A", "[No abstract available]", "e1")
                      + scopus_row("Roe R.", "Roe, Rick (2)", "B", "[No abstract available]", "e2")
                      + scopus_row("Poe P.", "Poe, Pat (3)", "C", "Laying hens in cages lay fewer eggs than free "
                                   "range hens in the same barn.", "e3"), encoding="utf-8")
    assert parse_sentence(read_corpus([export])) == (
        "The book read 1 file holding 3 blocks and entries: 1 abstract and 2 entries without an abstract. That "
        "leaves 1 distinct paper for the analysis.")


def test_the_headers_sentence_fits_the_files(tmp_path: Path):
    export = tmp_path / "scopus.csv"
    export.write_text(SCOPUS_HEADER + scopus_row("Poe P.", "Poe, Pat (3)", "C", "Laying hens in cages lay fewer "
                                                 "eggs than free range hens.", "e3"), encoding="utf-8")
    assert headers_sentence(read_corpus([export])) == "No file here has one."  # never "use 0 distinct headers"
    (tmp_path / "a.txt").write_text("Poultry papers\n\nLaying hens in cages lay fewer eggs than hens outside.\n",
                                    encoding="utf-8")
    assert headers_sentence(read_corpus([tmp_path / "a.txt"])) == "The file has one, shown below."


def test_a_table_note_agrees_with_its_rows():
    assert [rows_note(1, 1), rows_note(3, 3), rows_note(0, 0), rows_note(20, 21)] == [
        "The row as CSV", "All 3 rows as CSV", "No rows; the column names as CSV", "20 of 21 rows shown; all rows"]


def test_no_author_name_available_is_no_author(tmp_path: Path):
    export = tmp_path / "scopus.csv"
    export.write_text(SCOPUS_HEADER + scopus_row("[No author name available]", "[No author name available]", "A",
                                                 "Laying hens in cages lay fewer eggs than free range hens.", "e1")
                      + scopus_row("Doe J., Roe R.", "Doe, Jane (57196280682); Roe, Rick (56580618100)", "B",
                                   "Broiler chickens gain weight faster on diets with more protein.", "e2"),
                      encoding="utf-8")
    papers = read_corpus([export]).papers.sort_values("title")
    assert papers["authors"].tolist() == ["", "Jane Doe; Rick Roe"]


def test_the_rebuild_command_shows_the_corpus_as_given(tmp_path: Path):
    book = tmp_path / "book"
    outside = tmp_path / "exports" / "wos-traffic-safety.txt"
    config = BookConfig.from_environment({"BOOK_CORPUS": str(outside)}, root=book)
    assert rebuild_command(config) == f"make book CORPUS={outside}"
    config = BookConfig.from_environment({"BOOK_CORPUS": "../exports/a.txt data/raw"}, root=book)
    assert rebuild_command(config) == "make book CORPUS='../exports/a.txt data/raw'"


def test_one_paper_is_never_papers():
    import pandas as pd

    from helpers.book.reports.links import venue_code_table
    from helpers.web.explorer import explorer_markdown

    assert "of the 1 paper is" in explorer_markdown(1)
    papers = pd.DataFrame({"venue_code_field": [True, True], "venue_code": [True, False],
                           "link_state": ["none", "linked"]})
    assert ">the 1 paper</a>" in venue_code_table(papers)["explorer"].iloc[0]


def test_one_heading_left_out_is_one_heading_and_no_markup_is_one_sentence():
    import pandas as pd

    from helpers.analysis.corpus import Corpus
    from helpers.book.reports.corpus import markup_paragraph, record_note

    blocks = pd.DataFrame({"kind": ["abstract"], "key": ["e1"]})
    cleaning = pd.DataFrame({"source_file": ["s.csv"], "boilerplate_sentences": [81], "structured_headings": [1],
                             "extra_fields": [0], "merged_records": [0]})
    note = record_note(Corpus(papers=pd.DataFrame(), blocks=blocks, files=pd.DataFrame(), cleaning=cleaning))
    assert "81 publisher sentences (copyright and licence statements) and 1 structured-abstract heading are" in note
    none = pd.DataFrame({"has_latex": [False, False], "has_markdown": [False, False]})
    assert markup_paragraph(none, None) == ("No abstract contains LaTeX (such as `$\\pi(x)$`) or Markdown markup "
                                            "(such as `*emphasis*` or `[text](url)`).")
