"""The book's title names the corpus's subject, from the export's own subject fields (Web of Science categories,
PubMed's MeSH major topics); small exports written here."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from tests.support import run_in_process
from helpers.analysis.corpus import read_corpus
from helpers.book.build.corpus_name import corpus_name
from helpers.book.build.title import book_title, figure_label, file_formats

ABSTRACT = "We counted {what} on {n} farms over three winters and report how housing changed the counts."

WOS_RECORD = """PT J
AU Doe, J
TI Paper {n}
SO {venue}
PY {year}
AB {abstract}
WC {wc}
SC {sc}
UT WOS:{n}
ER
"""


def wos_export(folder: Path) -> Path:
    records = [("J OF ANIMAL ECOLOGY", 2010, "Ecology; Zoology", "Environmental Sciences & Ecology; Zoology"),
               ("POULTRY SCIENCE", 2011, "Agriculture, Dairy & Animal Science", "Agriculture"),
               ("OIKOS", 2012, "Ecology", "Environmental Sciences & Ecology"),
               ("ANIMALS", 2012, "Zoology; Veterinary Sciences", "Zoology; Veterinary Sciences")]
    body = "\n".join(WOS_RECORD.format(n=n, venue=venue, year=year, wc=wc, sc=sc,
                                       abstract=ABSTRACT.format(what="birds", n=n))
                     for n, (venue, year, wc, sc) in enumerate(records, start=1))
    path = folder / "savedrecs.txt"
    path.write_text(f"FN Clarivate Analytics Web of Science\nVR 1.0\n{body}\nEF\n", encoding="utf-8")
    return path


def analysis_of(path: Path) -> SimpleNamespace:
    """What the title reads of an analysis: its papers and its corpus."""
    corpus = read_corpus(path)
    return SimpleNamespace(papers=corpus.papers, corpus=corpus)


def test_web_of_science_title_names_its_categories_and_book_title_overrides_it(tmp_path):
    analysis = analysis_of(wos_export(tmp_path))
    assert analysis.papers["subjects"].tolist() == [
        "Ecology; Zoology", "Agriculture, Dairy & Animal Science", "Ecology", "Zoology; Veterinary Sciences"]
    assert file_formats(analysis) == ["wos"]
    assert book_title(analysis, "") == "Ecology and Zoology, 2010\u20132012: 4 Web of Science abstracts"
    assert book_title(analysis, "Birds on farms") == "Birds on farms"
    # A figure's title line names the corpus in the short form.
    assert figure_label(analysis, "") == "Web of Science 2010\u20132012: 4 abstracts"
    assert figure_label(analysis, "Birds on farms") == "Birds on farms"


def test_research_areas_name_the_subject_without_categories(tmp_path):
    path = wos_export(tmp_path)
    path.write_text("\n".join(line for line in path.read_text().split("\n") if not line.startswith("WC ")))
    assert read_corpus(path).papers["subjects"].tolist() == [
        "Environmental Sciences & Ecology; Zoology", "Agriculture", "Environmental Sciences & Ecology",
        "Zoology; Veterinary Sciences"]
    assert book_title(analysis_of(path), "") == (
        "Environmental Sciences and Ecology; Zoology, 2010\u20132012: 4 Web of Science abstracts")


def test_pubmed_title_names_the_mesh_major_topics(tmp_path):
    records = []
    for n, (journal, headings) in enumerate([
            ("Poultry science", ["Animals", "*Chickens/physiology", "Housing, Animal"]),
            ("Animals", ["Animals", "Chickens/*physiology", "*Animal Welfare"]),
            ("Journal of animal science", ["*Animal Welfare", "Swine"])], start=1):
        mesh = "".join(f"MH  - {heading}\n" for heading in headings)
        records.append(f"PMID- {n}\nTI  - Paper {n}\nDP  - 202{n} Jan\nJT  - {journal}\n"
                       f"AB  - {ABSTRACT.format(what='hens', n=n)}\n{mesh}")
    path = tmp_path / "pubmed.txt"
    path.write_text("\n".join(records), encoding="utf-8")
    analysis = analysis_of(path)
    assert analysis.papers["subjects"].tolist() == ["Chickens", "Chickens; Animal Welfare", "Animal Welfare"]
    assert book_title(analysis, "") == "Animal Welfare and Chickens, 2021\u20132023: 3 PubMed abstracts"


def test_a_journal_holding_most_papers_names_the_subject_else_the_title_is_unchanged():
    papers = pd.DataFrame({"venue": ["Poultry Science"] * 2 + ["Animals", "Oikos", "Ibis"], "year": [2020] * 5})
    assert corpus_name(papers, {}).title == "Poultry Science, 2020: 5 abstracts"
    spread = papers.assign(venue=["A", "B", "C", "D", "E"])
    assert corpus_name(spread, {}).title == "5 venues 2020: 5 abstracts"
    assert corpus_name(spread, {}, fallback_subjects=["Heat Stress"]).title == "Heat Stress, 2020: 5 abstracts"
    icml = pd.DataFrame({"venue": ["ICML"] * 3, "year": [2023, 2024, 2025], "subjects": ["Robotics"] * 3})
    assert corpus_name(icml, {}).title == "ICML 2023\u20132025: 3 abstracts"


def test_papers_csv_has_the_subjects_column(tmp_path):
    out = tmp_path / "out"
    result = run_in_process("analyse", str(wos_export(tmp_path)), "--out", str(out), "--jobs", "1")
    assert result.returncode == 0, result.stderr
    papers = pd.read_csv(out / "papers.csv", keep_default_na=False, dtype=str)
    assert papers["subjects"].tolist() == [
        "Ecology; Zoology", "Agriculture, Dairy & Animal Science", "Ecology", "Zoology; Veterinary Sciences"]


def test_tab_delimited_and_bibtex_web_of_science_exports_carry_their_categories(tmp_path):
    tsv = tmp_path / "savedrecs.tsv"
    tsv.write_text("PT\tTI\tAB\tWC\tSC\tUT\n"
                   f"J\tPaper 1\t{ABSTRACT.format(what='hens', n=1)}\tEngineering, Civil; Ergonomics\tEngineering\tWOS:1\n"
                   f"J\tPaper 2\t{ABSTRACT.format(what='hens', n=2)}\t\tTransportation\tWOS:2\n", encoding="utf-8")
    assert read_corpus(tsv).papers["subjects"].tolist() == ["Engineering, Civil; Ergonomics", "Transportation"]
    bib = tmp_path / "savedrecs.bib"
    bib.write_text("@article{ WOS:1,\nTitle = {{Paper 1}},\nAbstract = {{" + ABSTRACT.format(what="hens", n=1)
                   + "}},\nWeb-of-Science-Categories  = {{Agriculture, Dairy \\& Animal Science}},\n"
                   "Research-Areas = {{Agriculture}},\n}\n", encoding="utf-8")
    assert read_corpus(bib).papers["subjects"].tolist() == ["Agriculture, Dairy & Animal Science"]


def test_scopus_title_names_its_index_keywords_and_the_database_from_its_record_keys(tmp_path):
    rows = [("Poultry Science", "Animals; Poultry; Heat stress"), ("Animals", "animals; poultry; housing"),
            ("Biosystems Engineering", "Agricultural robots; Article"), ("Oikos", "")]
    lines = ["Authors,Title,Year,Source title,Abstract,Index Keywords,EID"]
    lines += [f'Doe J.,Paper {n},2021,{venue},"{ABSTRACT.format(what="hens", n=n)}",{terms},2-s2.0-{n}'
              for n, (venue, terms) in enumerate(rows, start=1)]
    path = tmp_path / "scopus.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    analysis = analysis_of(path)
    assert analysis.papers["subjects"].tolist() == ["Animals; Poultry; Heat stress", "animals; poultry; housing",
                                                    "Agricultural robots; Article", ""]
    # "poultry" and "Poultry" are one subject, on 2 of the 3 papers with subjects, each other on 1 (33%); "Animals"
    # and "Article" are check tags, never a subject.
    assert book_title(analysis, "") == "Poultry and Agricultural Robots, 2021: 4 Scopus abstracts"
    assert figure_label(analysis, "") == "Scopus 2021: 4 abstracts"


def test_sentences_and_citations_name_the_subject_too():
    """Traffic safety (Web of Science): the title named "Transportation Science and Technology", but every page's
    lead and the citation ("... link availability in 729 abstracts from Web of Science, 1991–2018") never did."""
    from helpers.book.build.corpus_name import CorpusName

    traffic = CorpusName(("Web of Science",), 80, "1991–2018", 729, True, ("Transportation Science and Technology",))
    assert traffic.sentence_subject == "729 Web of Science abstracts on Transportation Science and Technology, 1991–2018"
    two = CorpusName((), 9, "", 1, subjects=("Poultry", "Robotics"))
    assert two.sentence_subject == "1 abstract on Poultry and Robotics"
    assert CorpusName(("PubMed",), 40, "1990–2023", 334, from_database=True).sentence_subject == (
        "334 abstracts from PubMed, 1990–2023")
