"""Bibliographic readers (BibTeX, RIS, CSV/TSV, JSON Lines) and groups, on tiny files written here and on
the shared ICML 2023-2025 BibTeX (skipped without ../shared)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import SHARED, run_in_process
from helpers.analysis.corpus import CorpusError, parse_report, read_corpus, source_names
from helpers.analysis.corpus.groups import paper_groups
from helpers.analysis.readers.latex import latex_to_text
from helpers.analysis.settings import AnalysisSettings, SettingsError

ICML = SHARED / "corpora" / "icml-2023-2025"
A = "We study graph neural networks for molecules and report strong results."
B = "Large language models hallucinate; we measure how often and why it happens."
C = "Quantum sampling algorithms beat classical ones on non-logconcave targets here."

BIB = f"""@Proceedings{{ICML-2023,
    booktitle = {{Proceedings of the 40th International Conference on Machine Learning}},
    shortname = {{ICML}},
    year = {{2023}}
}}

@InProceedings{{a23,
    title = {{{{C}}luster{{F}}u{{G}}: A {{B}}ayesian \\emph{{view}}}},
    author = {{Mitrovi\\'{{c}}, Slobodan and A. Mancisidor, Rogelio}},
    abstract = {{{A} Pages 1--18, within 10% of $\\tilde{{O}}(n)$.}},
    software = {{https://github.com/o/r}}
}}

@InProceedings{{b23,
    title = {{No Abstract Here}},
    author = {{Doe, Jane}}
}}

@InProceedings{{c23,
    title = {{Own Year}},
    year = {{2021}},
    crossref = {{ICML-2023}},
    abstract = {{{B}}}
}}

@InProceedings{{d23,
    title = {{Same abstract again}},
    abstract = {{{A} Pages 1--18, within 10% of $\\tilde{{O}}(n)$.}}
}}
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bibtex_entries_years_latex_and_every_entry_accounted_for(tmp_path):
    corpus = read_corpus(write(tmp_path, "v.bib", BIB))
    blocks = corpus.blocks
    assert blocks[["block", "first_line", "last_line", "kind", "key"]].values.tolist() == [
        [1, 1, 5, "proceedings", "ICML-2023"], [2, 7, 12, "abstract", "a23"], [3, 14, 17, "no-abstract", "b23"],
        [4, 19, 24, "abstract", "c23"], [5, 26, 29, "duplicate", "d23"]]
    papers = corpus.papers
    assert papers["title"].tolist() == ["ClusterFuG: A Bayesian view", "Own Year"]
    assert papers["authors"].tolist() == ["Slobodan Mitrović; Rogelio A. Mancisidor", ""]
    assert papers["year"].tolist() == [2023, 2021]  # from the proceedings, then its own field
    assert papers["venue"].tolist() == ["ICML", "ICML"]
    assert papers["software"].tolist() == ["https://github.com/o/r", ""]
    assert papers["text"].tolist()[0] == A + " Pages 1–18, within 10% of $\\tilde{O}(n)$."
    assert corpus.headers == {"v.bib": "Proceedings of the 40th International Conference on Machine Learning"}
    report = parse_report(corpus)
    assert report.columns.tolist() == ["source_file", "status", "file_header", "blocks", "header", "abstract",
                                       "duplicate", "too-short", "no-abstract", "proceedings", "problem"]
    assert report.iloc[0][["blocks", "abstract", "duplicate", "no-abstract", "proceedings"]].tolist() == [5, 2, 1, 1, 1]
    assert corpus.summary()["no_abstract"] == 1
    assert corpus.fields.columns.tolist() == ["paper_id", "crossref"]


def test_malformed_bibtex_names_file_and_line(tmp_path):
    path = write(tmp_path, "bad.bib", f"@article{{ok, abstract = {{{A}}}}}\n\n@article{{broken,\n  title = {{Open,\n"
                                      f"  abstract = {{{B}}},\n}}\n\n@article{{next, abstract = {{{C}}}}}\n")
    with pytest.raises(CorpusError) as error:
        read_corpus(path)
    assert error.value.problems == [f"{path}: line 3: malformed BibTeX entry: Unexpected block start: `@article`."
                                    " Was still looking for field-value closing `,` or `}`"]


def test_bibtex_without_abstracts_is_an_error(tmp_path):
    path = write(tmp_path, "none.bib", "@article{x, title = {T}}\n")
    with pytest.raises(CorpusError, match=r"none.bib: has no abstracts \(1 entries, none with an abstract"):
        read_corpus(path)


def test_ris_records_and_an_unclosed_record(tmp_path):
    ris = (f"TY  - CONF\nID  - r1\nTI  - A {{B}}ayesian Title\nAU  - Doe, Jane\nAU  - Roe, R.\nPY  - 2024///\n"
           f"T2  - ICML\nDO  - 10.1/x\nUR  - https://x.org/a\nAB  - {A}\nER  - \n\nTY  - JOUR\nTI  - No abstract\nER  - \n")
    corpus = read_corpus(write(tmp_path, "a.ris", ris))
    assert corpus.blocks[["first_line", "last_line", "kind", "key"]].values.tolist() == [
        [1, 11, "abstract", "r1"], [13, 15, "no-abstract", ""]]
    paper = corpus.papers.iloc[0]
    assert [paper[c] for c in ["title", "authors", "year", "venue", "doi", "url"]] == [
        "A Bayesian Title", "Jane Doe; R. Roe", 2024, "ICML", "10.1/x", "https://x.org/a"]
    bad = write(tmp_path, "bad.ris", f"TY  - CONF\nAB  - {A}\nER  - \nTY  - CONF\nAB  - {B}\n")
    with pytest.raises(CorpusError) as error:
        read_corpus(bad)
    assert error.value.problems == [f"{bad}: line 4: this record has no end ('ER  - ' line)"]


def test_csv_tsv_and_jsonl_with_named_columns(tmp_path):
    write(tmp_path, "a.csv", f'Title,Abstract,Year,track\n"One, with comma","{A}",2023,main\nEmpty,,2023,main\n')
    write(tmp_path, "b.tsv", f"title\tabstract\tyear\tvenue\ttrack\nTwo\t{B}\t2024-05-01\tICML\tdemo\n")
    write(tmp_path, "c.jsonl", json.dumps({"key": "k3", "title": "Th{r}ee", "year": 2025, "authors": ["X Y", "Z"],
                                           "abstract": C, "track": "main"}) + "\n\n")
    corpus = read_corpus(tmp_path)
    assert corpus.files["source_file"].tolist() == ["a.csv", "b.tsv", "c.jsonl"]
    assert corpus.blocks[["source_file", "first_line", "kind"]].values.tolist() == [
        ["a.csv", 2, "abstract"], ["a.csv", 3, "no-abstract"], ["b.tsv", 2, "abstract"], ["c.jsonl", 1, "abstract"]]
    papers = corpus.papers
    assert papers[["title", "year", "venue", "authors"]].values.tolist() == [
        ["One, with comma", 2023, "", ""], ["Two", 2024, "ICML", ""], ["Three", 2025, "", "X Y; Z"]]
    assert corpus.fields.set_index("paper_id")["track"].tolist() == ["main", "demo", "main"]
    groups = paper_groups(papers, corpus.fields, "track")
    assert groups.names.tolist() == ["main", "demo", "main"] and groups.order == ("demo", "main")


def test_a_plain_table_keywords_column_gives_the_papers_keywords(tmp_path):
    """A CSV or JSON Lines file of the user's own with a ``keywords`` (or ``author keywords``) column: those are the
    papers' keywords, as a database export's are (the keyword map reads them)."""
    write(tmp_path, "a.csv", f'title,abstract,keywords\nOne,"{A}","broiler; feed efficiency"\n')
    write(tmp_path, "b.jsonl", json.dumps({"title": "Two", "abstract": B, "author keywords": "crash risk"}) + "\n")
    papers = read_corpus(tmp_path).papers
    assert papers["keywords"].tolist() == ["broiler; feed efficiency", "crash risk"]


def test_missing_abstract_column_and_bad_rows_are_one_line_errors(tmp_path):
    no_column = write(tmp_path, "x.csv", "title,year\nA,2023\n")
    with pytest.raises(CorpusError) as error:
        read_corpus(no_column)
    assert error.value.problems == [f"{no_column}: line 1: has no 'abstract' column (columns: title, year)"]
    ragged = write(tmp_path, "y.csv", f"title,abstract\nA,{A}\nB,{B},extra\n")
    with pytest.raises(CorpusError, match=r"y.csv: line 3: has 3 fields where the header has 2"):
        read_corpus(ragged)
    bad_json = write(tmp_path, "z.jsonl", json.dumps({"abstract": A}) + "\n{not json}\n")
    with pytest.raises(CorpusError, match=r"z.jsonl: line 2: invalid JSON"):
        read_corpus(bad_json)
    no_field = write(tmp_path, "w.jsonl", json.dumps({"title": "T"}) + "\n")
    with pytest.raises(CorpusError) as error:
        read_corpus(no_field)
    assert error.value.problems == [f"{no_field}: has no 'abstract' field in any line"]


def test_latex_decoding_keeps_math_urls_and_percent():
    assert latex_to_text(r"\"{o}ver {S}em{S}up--{XC} \textit{et al.} ``q'' a---b") == "över SemSup–XC et al. “q” a—b"
    assert latex_to_text(r"10% & $\mathcal{O}(\sqrt{T})$ at https://x.org/~u/a_b%20c") \
        == r"10% & $\mathcal{O}(\sqrt{T})$ at https://x.org/~u/a_b%20c"
    assert latex_to_text("<em>kept</em> as\n  written") == "<em>kept</em> as written"


def test_source_names_linear_with_clashes():
    files = [Path("a/x.bib"), Path("b/x.bib"), Path("c/y.bib")] + [Path(f"d/{i}.txt") for i in range(20_000)]
    names = source_names(files)
    assert names[:3] == ["a/x.bib", "b/x.bib", "y.bib"] and names[-1] == "19999.txt"


def test_group_by_validation_names_the_option(tmp_path):
    with pytest.raises(SettingsError, match=r"^--group-by: must be year, venue, file or a column"):
        AnalysisSettings(group_by="")
    corpus = read_corpus(write(tmp_path, "v.bib", BIB))
    with pytest.raises(SettingsError) as error:
        paper_groups(corpus.papers, corpus.fields, "track")
    assert str(error.value) == ("--group-by: must be year, venue, file or a column of the input "
                                "(title, authors, software, crossref), got 'track'")
    assert paper_groups(corpus.papers, corpus.fields, "year").order == ("2021", "2023")
    assert paper_groups(corpus.papers, corpus.fields, None).order == ("2021–2023",)  # too few for two periods
    assert paper_groups(corpus.papers, corpus.fields, "venue").order == ("ICML",)
    assert AnalysisSettings().as_dict() == {"seed": 0, "themes": None, "min_occurrences": None, "relevant_share": 0.6}
    assert AnalysisSettings(group_by="file").as_dict()["group_by"] == "file"


def test_cli_bad_group_by_exits_2_and_writes_nothing(tmp_path):
    corpus = write(tmp_path, "a.txt", f"{A}\n\n{B}\n")
    out = tmp_path / "out"
    result = run_in_process("analyse", str(corpus), "--out", str(out), "--group-by", "year")
    assert result.returncode == 2
    assert result.stderr == "error: --group-by / BOOK_GROUP_BY: must be file, got 'year'\n"
    assert not out.exists()


@pytest.mark.skipif(not ICML.exists(), reason="../shared/corpora/icml-2023-2025 not present")
@pytest.mark.parametrize("name, entries, software, year", [("icml2023.bib", 132, 0, 2023),
                                                           ("icml2025.bib", 124, 76, 2025)])
def test_shared_icml_bibtex_every_entry_parsed(name, entries, software, year):
    path = ICML / name
    text = path.read_text(encoding="utf-8")
    keys = [line.split("{", 1)[1].rstrip(",\n") for line in text.splitlines() if line.startswith("@InProceedings{")]
    corpus = read_corpus(path)
    blocks = corpus.blocks
    assert len(keys) == entries
    assert blocks.loc[blocks["kind"] == "abstract", "key"].tolist() == keys  # none lost, in file order
    assert blocks["kind"].value_counts().to_dict() == {"abstract": entries, "proceedings": 1}
    assert len(corpus.papers) == entries
    assert corpus.papers["year"].tolist() == [year] * entries
    assert set(corpus.papers["venue"]) == {"ICML"}
    assert int((corpus.papers["software"] != "").sum()) == software


@pytest.mark.skipif(not ICML.exists(), reason="../shared/corpora/icml-2023-2025 not present")
def test_shared_icml_titles_and_years_exactly():
    corpus = read_corpus(ICML)
    papers = corpus.papers.set_index(corpus.blocks.loc[corpus.blocks["kind"] == "abstract", "key"].to_numpy())
    assert papers.loc["abbas23", ["title", "year"]].tolist() == [
        "ClusterFuG: Clustering Fully connected Graphs by Multicut", 2023]
    assert papers.loc["ma23i", ["title", "year"]].tolist() == ["Calibrating Multimodal Learning", 2023]
    assert papers.loc["amancisidor25", ["title", "authors", "year"]].tolist() == [
        "Aggregation of Dependent Expert Distributions in Multimodal Variational Autoencoders",
        "Rogelio A. Mancisidor; Robert Jenssen; Shujian Yu; Michael Kampffmeyer", 2025]
    assert papers.loc["li25i", ["title", "year"]].tolist() == ["Eliciting Language Model Behaviors with Investigator Agents", 2025]
    assert papers.loc["fourati24b", ["title", "year", "venue"]].tolist() == [
        "Federated Combinatorial Multi-Agent Multi-Armed Bandits", 2024, "ICML"]
    assert paper_groups(corpus.papers, corpus.fields, None).order == ("2023", "2024", "2025")
    assert corpus.papers.groupby("year").size().to_dict() == {2023: 132, 2024: 495, 2025: 124}


def test_book_group_by_setting(tmp_path):
    from helpers.book.settings import BookConfig

    assert BookConfig.from_environment({"BOOK_GROUP_BY": " venue "}, root=tmp_path).settings.group_by == "venue"
    assert BookConfig.from_environment({}, root=tmp_path).settings.group_by is None
    corpus = write(tmp_path, "a.txt", f"{A}\n\n{B}\n")
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("BOOK_")}
    result = subprocess.run([sys.executable, "-m", "helpers", "fingerprint", str(corpus)], capture_output=True,
                            text=True, env=dict(env, BOOK_GROUP_BY="venue"))
    assert result.returncode == 2
    assert result.stderr == "error: --group-by / BOOK_GROUP_BY: must be file, got 'venue'\n"


def test_a_tilde_accent_in_an_author_name_is_a_letter_not_a_tie():
    from helpers.analysis.readers.bibtex import authors_text

    assert authors_text(r"Silvestre, Jo\~{a}o Pedro and Mu\~noz, Ana and Doe~Smith, Jane") == \
        "João Pedro Silvestre; Ana Muñoz; Jane Doe Smith"


def test_title_scripts_become_unicode_where_every_character_has_one():
    from helpers.analysis.readers.latex import math_as_text, scripts_as_unicode

    assert [math_as_text(t) for t in [r"I$^2$SB: Image-to-Image Schrödinger Bridge", r"N$\text{{A}}^\text{2}$Q",
                                      r"E$^2$GAN", r"Generalize to $D^T$ Tasks", r"$x_{i}$ and $x_{ij}^{-1}$",
                                      r"$C^*$-Algebraic", r"$A^{\top}$, $f^\prime$, $10^{10}$"]] == [
        "I²SB: Image-to-Image Schrödinger Bridge", "NA²Q", "E²GAN", "Generalize to Dᵀ Tasks", "xᵢ and xᵢⱼ⁻¹",
        "C*-Algebraic", "Aᵀ, f′, 10¹⁰"]
    # a script with a character that has no Unicode form keeps its TeX reading, as before
    assert [math_as_text(t) for t in [r"the $n^{1.5}$ barrier", r"$\bf{\Phi}_\textrm{Flow}$", r"$\mathcal{H}_\infty$",
                                      r"$q^{q}$"]] == ["the n^1.5 barrier", "Φ_Flow", "ℋ_∞", "q^q"]
    # outside math: a caret after a letter, digit or ")" with digits, one letter or a group; "_" only with braces
    assert [scripts_as_unicode(t) for t in ["I^2SB", "NA^2Q", "x_{i} and O(n^2)", "x^10 y^{n+1}", "snake_case_name",
                                            "a ^ b", "^2 first", "c^{1.5}"]] == [
        "I²SB", "NA²Q", "xᵢ and O(n²)", "x¹⁰ yⁿ⁺¹", "snake_case_name", "a ^ b", "^2 first", "c^{1.5}"]
    assert math_as_text("I^2SB, no math") == "I²SB, no math"


def test_a_font_macro_that_lost_its_braces_keeps_its_letter():
    from helpers.analysis.readers.latex import math_as_text

    # the seed's metadata file writes $\mathcalO(L)$ (PMLR's braces removed)
    assert math_as_text(r"with $\mathcalO(L)$ memory and $\mathbbR^d$") == "with 𝒪(L) memory and ℝᵈ"
    assert math_as_text(r"$\mathcal{O}(1)$ and $\mathrm{softmax}$") == "𝒪(1) and softmax"
