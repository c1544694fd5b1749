"""The papers' texts apart from the papers table (helpers.analysis.pipeline.paper_texts) and what reads them part by part."""

from __future__ import annotations

import dataclasses
import gc
import pickle

import pandas as pd
import pytest

from tests.support import SEED_DIR
from helpers.analysis.corpus import read_corpus
from helpers.analysis.corpus.titles import short_text, strip_markup
from helpers.analysis.pipeline.parquet_parts import write_paper_parts
from helpers.analysis.pipeline import AnalysisSettings
from helpers.book.cache import cached_pipeline
from helpers.analysis.pipeline import paper_texts as texts_module
from helpers.analysis.pipeline.paper_texts import PaperTexts
from helpers.book.reports.corpus import first_formula

IDS = ["a", "b", "c", "d", "e"]
TEXTS = ["alpha", "beta $x$", "gamma", "delta $y^2$", "epsilon"]


def test_texts_are_read_only_from_the_parts_that_hold_them(tmp_path, monkeypatch):
    texts = PaperTexts.write(IDS, [TEXTS[0:2], TEXTS[2:4], TEXTS[4:5]], tmp_path / "t",
                             bounds=[(0, 2), (2, 4), (4, 5)])
    read = []
    original = texts_module._read_text_part
    monkeypatch.setattr(texts_module, "_read_text_part", lambda path: read.append(path.name) or original(path))
    assert texts.take(["e", "a", "b"]) == ["epsilon", "alpha", "beta $x$"]
    assert read == ["texts-00000.parquet", "texts-00002.parquet"]
    with pytest.raises(KeyError, match="'z'"):
        texts.take(["a", "z"])


def test_a_part_of_the_wrong_size_is_refused(tmp_path):
    with pytest.raises(ValueError, match="text part 1 holds 1 texts, not 2"):
        PaperTexts.write(IDS, [TEXTS[0:2], TEXTS[2:3]], tmp_path / "t", bounds=[(0, 2), (2, 4), (4, 5)])
    with pytest.raises(ValueError, match="2 text parts written, not 3"):
        PaperTexts.write(IDS, [TEXTS[0:2], TEXTS[2:4]], tmp_path / "u", bounds=[(0, 2), (2, 4), (4, 5)])


def test_a_temporary_folder_goes_with_its_object_and_a_pickle_carries_its_texts():
    texts = PaperTexts.write(IDS, [TEXTS], bounds=[(0, 5)])
    folder = texts.folder
    assert folder.is_dir()
    copy = pickle.loads(pickle.dumps(texts))
    del texts
    gc.collect()
    assert not folder.exists()
    assert copy.folder is None and copy.take(["d"]) == ["delta $y^2$"]


def test_saved_texts_pickle_as_their_folder(tmp_path):
    saved = PaperTexts.in_memory(IDS, TEXTS, max_papers=2).saved(tmp_path / "k.texts")
    assert sorted(p.name for p in (tmp_path / "k.texts").iterdir()) == [
        "texts-00000.parquet", "texts-00001.parquet", "texts-00002.parquet"]
    assert saved.bounds == ((0, 2), (2, 4), (4, 5)) and saved.memory is None
    data = pickle.dumps(saved)
    assert b"epsilon" not in data and pickle.loads(data).take(["e", "c"]) == ["epsilon", "gamma"]


def test_the_first_formula_is_found_reading_only_papers_with_latex():
    papers = pd.DataFrame({"paper_id": IDS, "has_latex": [False, False, False, True, False]})
    assert first_formula(papers, PaperTexts.in_memory(IDS, TEXTS)) == "y^2"  # b's $x$ is not flagged
    assert first_formula(papers.assign(has_latex=False), PaperTexts.in_memory(IDS, TEXTS)) is None


def test_the_example_formula_is_the_first_with_an_operator_not_a_lone_symbol():
    from helpers.book.reports.corpus import is_example_formula

    # the three ICML years open with "$k$": a lone letter is no example of math
    texts = ["We find $k$ nodes $v_1, \\ldots, v_k$ in $O(n)$.", "Then $x = 1$."]
    assert first_formula(pd.DataFrame({"text": texts})) == "v_1, \\ldots, v_k"
    ids = ["a", "b", "c"]
    papers = pd.DataFrame({"paper_id": ids, "has_latex": [True, True, True]})
    stored = PaperTexts.in_memory(ids, ["$k$ and $\\alpha$", "$n$ and $p$", "$\\frac{a}{b}$"])
    assert first_formula(papers, stored) == "\\frac{a}{b}"
    # without one, the first formula all the same
    assert first_formula(pd.DataFrame({"text": ["only $k$ and $\\rho$", "$n$"]})) == "k"
    assert [is_example_formula(f) for f in ["k", "\\alpha", " x ", "10\\%", "x^2", "a+b", "L_1", "1/n",
                                            "\\mathcal{O}(1/\\log(n))", "(\\alpha-\\epsilon)", "x \\in S",
                                            "\\sqrt{m}", "x_t"]] == [False] * 4 + [True] * 9


def test_papers_csv_written_in_parts_is_the_whole_tables_csv(tmp_path, seed_analysis):
    analysis = seed_analysis
    whole = analysis.tables()["papers"]
    assert list(whole.columns[:5]) == ["paper_id", "source_file", "position", "text", "n_words"]
    assert whole["text"].tolist() == read_corpus(SEED_DIR).papers["text"].tolist()
    parted = dataclasses.replace(analysis, texts=PaperTexts.in_memory(
        analysis.papers["paper_id"].tolist(), whole["text"].tolist(), max_papers=20))
    table = write_paper_parts(parted.paper_parts(), tmp_path, tmp_path / "papers.csv")
    assert table.files == ["papers/part-00000.parquet", "papers/part-00001.parquet", "papers/part-00002.parquet"]
    assert (tmp_path / "papers.csv").read_text() == whole.to_csv(index=False, lineterminator="\n")
    assert pd.read_parquet(tmp_path / "papers").equals(whole)


def test_the_books_cache_holds_no_abstract_text(tmp_path):
    analysis = cached_pipeline([SEED_DIR], AnalysisSettings(), cache_dir=tmp_path)
    (pickled,) = tmp_path.glob("*.pickle")
    first = read_corpus(SEED_DIR).papers["text"].iloc[0]
    assert first[:60].encode() not in pickled.read_bytes()
    assert analysis.texts.folder == tmp_path / f"{analysis.cache_key}.texts"
    assert analysis.texts.take([analysis.papers["paper_id"].iloc[0]]) == [first]
    assert "text" not in analysis.papers and "text" not in analysis.corpus.papers


@pytest.mark.parametrize("text", ["One two three four five six seven eight nine", "One two three",
                                  "  spaced\n\nout  words ", "a <b>bold</b> start of an abstract here", "x__y z",
                                  "see [code](https://x.org) now", "**Strong** claim: one two three four five"])
def test_short_text_without_markup_takes_only_the_first_words(text):
    words = strip_markup(text).split()
    assert short_text(text) == " ".join(words[:8]) + ("…" if len(words) > 8 else "")
