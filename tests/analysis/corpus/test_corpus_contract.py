"""The corpus contract, one rule at a time, on tiny corpora written in the tests."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from helpers.analysis.corpus import (
    CorpusError,
    abstract_facts,
    normalise_text,
    parse_report,
    papers_per_header,
    read_corpus,
    source_names,
)
from helpers.analysis.readers.seed import join_lines

from tests.support import PMLR_SAMPLE, SEED_DIR

ABSTRACT_A = "We study graph neural networks for molecules and report strong results."
ABSTRACT_B = "Large language models hallucinate; we measure how often and why it happens."
ABSTRACT_C = "Quantum sampling algorithms beat classical ones on non-logconcave targets here."


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


# Rule 1: strict UTF-8, BOM dropped, invalid bytes located.
def test_bom_and_crlf_are_normalised(tmp_path):
    write(tmp_path, "a.txt", b"\xef\xbb\xbfICML 2024 Papers\r\n\r\n" + ABSTRACT_A.encode() + b"\r\n\r\n"
          + ABSTRACT_B.encode() + b"\r")
    corpus = read_corpus(tmp_path)
    assert corpus.headers == {"a.txt": "ICML 2024 Papers"}
    assert corpus.papers["text"].tolist() == [ABSTRACT_A, ABSTRACT_B]
    assert corpus.blocks["first_line"].tolist() == [1, 3, 5]


def test_invalid_utf8_names_file_line_and_byte(tmp_path):
    data = b"Header\n\nGood line one two three four.\n\nBad \xff byte in this abstract here.\n"
    write(tmp_path, "bad.txt", data)
    with pytest.raises(CorpusError) as error:
        read_corpus(tmp_path)
    message = str(error.value)
    assert "bad.txt" in message
    assert "line 5" in message
    offset = data.index(b"\xff")
    assert f"byte {offset}" in message
    assert "re-save the file as UTF-8" in message
    assert len(error.value.problems) == 1


# Rule 2: white space.
def test_unicode_spaces_zero_width_and_soft_hyphens():
    text = "a\u00a0b\tc\u2003\u2003d zero\u200bwidth soft\u00adhyphen  many   spaces"
    assert normalise_text(text) == "a b c d zerowidth softhyphen many spaces"


def test_latex_markdown_and_urls_are_kept(tmp_path):
    abstract = "We bound $\\pi(x) \\propto e^{-f}$ with **bold** claims; see https://x.org/a_(b)."
    write(tmp_path, "a.txt", abstract + "\n")
    paper = read_corpus(tmp_path).papers.iloc[0]
    assert paper["text"] == abstract
    assert paper["has_latex"] and paper["has_markdown"]


# Rule 3: blocks and hard wrapping.
def test_hard_wrapped_abstract_is_one_abstract(tmp_path):
    write(tmp_path, "a.txt", "Header\n\nWe use retrieval-\naugmented generation\nfor long\ndocuments today.\n")
    corpus = read_corpus(tmp_path)
    assert corpus.papers["text"].tolist() == [
        "We use retrieval-augmented generation for long documents today."
    ]
    assert corpus.blocks[["first_line", "last_line"]].values.tolist() == [[1, 1], [3, 6]]


def test_join_lines_keeps_dashes_with_spaces():
    assert join_lines(["one -", "two"]) == "one - two"
    assert join_lines(["state-of-the-", "art"]) == "state-of-the-art"


def test_several_blank_lines_separate_once(tmp_path):
    write(tmp_path, "a.txt", f"{ABSTRACT_A}\n\n\n   \n\n{ABSTRACT_B}\n")
    assert len(read_corpus(tmp_path).papers) == 2


# Rule 4: headers.
def test_chinese_header(tmp_path):
    write(tmp_path, "zh.txt", f"ICML 2024 论文列表\n\n{ABSTRACT_A}\n")
    corpus = read_corpus(tmp_path)
    assert corpus.headers == {"zh.txt": "ICML 2024 论文列表"}
    assert corpus.blocks["kind"].tolist() == ["header", "abstract"]


def test_no_header_when_first_block_is_a_sentence(tmp_path):
    write(tmp_path, "a.txt", f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    corpus = read_corpus(tmp_path)
    assert corpus.headers == {"a.txt": None}
    assert corpus.blocks["kind"].tolist() == ["abstract", "abstract"]


def test_long_first_line_is_not_a_header(tmp_path):
    first = " ".join(["word"] * 13)
    write(tmp_path, "a.txt", f"{first}\n\n{ABSTRACT_A}\n")
    assert read_corpus(tmp_path).blocks["kind"].tolist() == ["abstract", "abstract"]


def test_two_line_first_block_is_not_a_header(tmp_path):
    write(tmp_path, "a.txt", f"Short title\nsecond line\n\n{ABSTRACT_A}\n")
    assert read_corpus(tmp_path).headers == {"a.txt": None}


# Rule 5: too-short blocks are reported, not analysed.
def test_too_short_block_is_reported(tmp_path):
    write(tmp_path, "a.txt", f"Header\n\n{ABSTRACT_A}\n\nToo short here.\n\n{ABSTRACT_B}\n")
    corpus = read_corpus(tmp_path)
    assert corpus.blocks["kind"].tolist() == ["header", "abstract", "too-short", "abstract"]
    assert corpus.blocks["paper_id"].isna().tolist() == [True, False, True, False]
    assert len(corpus.papers) == 2
    assert corpus.summary()["too_short"] == 1
    assert corpus.papers["position"].tolist() == [1, 3]


# Rule 6: duplicates within and across files.
def test_duplicates_across_files(tmp_path):
    write(tmp_path, "a.txt", f"Header\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    write(tmp_path, "b.txt", f"{ABSTRACT_C}\n\n{ABSTRACT_A.upper()}\n\n  {ABSTRACT_B}  \n")
    corpus = read_corpus(tmp_path)
    assert len(corpus.papers) == 3
    assert corpus.blocks["kind"].tolist() == [
        "header", "abstract", "abstract", "abstract", "duplicate", "duplicate"
    ]
    first = corpus.papers.set_index("paper_id").loc[abstract_facts(ABSTRACT_A)["paper_id"]]
    assert first["occurrences"] == 2
    assert first["locations"] == "a.txt:1; b.txt:2"
    assert first["source_file"] == "a.txt"
    summary = corpus.summary()
    assert (summary["abstracts"], summary["unique_papers"], summary["duplicates"]) == (5, 3, 2)


def test_duplicate_within_one_file(tmp_path):
    write(tmp_path, "a.txt", f"{ABSTRACT_A}\n\n{ABSTRACT_A}\n")
    corpus = read_corpus(tmp_path)
    assert corpus.blocks["kind"].tolist() == ["abstract", "duplicate"]
    assert corpus.papers["occurrences"].tolist() == [2]


def test_compatibility_variants_are_duplicates(tmp_path):
    # The "fi" ligature and a full-width digit are the same text under NFKC: one paper, not two.
    plain = "We define a fine-grained benchmark of 3 efficient filters for finite fields."
    variant = "We de\ufb01ne a \ufb01ne-grained benchmark of \uff13 e\ufb03cient \ufb01lters for \ufb01nite \ufb01elds."
    write(tmp_path, "a.txt", f"{plain}\n\n{variant}\n")
    corpus = read_corpus(tmp_path)
    assert corpus.blocks["kind"].tolist() == ["abstract", "duplicate"]
    assert corpus.papers["paper_id"].tolist() == [abstract_facts(plain)["paper_id"]]
    assert abstract_facts(variant)["paper_id"] == abstract_facts(plain)["paper_id"]


def test_source_names_only_clashing_names_get_paths():
    files = [Path("x/a.txt"), Path("y/a.txt"), Path("x/b.txt")]
    assert source_names(files) == ["x/a.txt", "y/a.txt", "b.txt"]


# Rule 7: stable ids.
def test_paper_ids_do_not_depend_on_file_order(tmp_path):
    write(tmp_path, "a.txt", f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    write(tmp_path, "b.txt", f"{ABSTRACT_C}\n")
    forward = read_corpus([tmp_path / "a.txt", tmp_path / "b.txt"])
    backward = read_corpus([tmp_path / "b.txt", tmp_path / "a.txt"])
    ids = lambda c: dict(zip(c.papers["text"], c.papers["paper_id"]))  # noqa: E731
    assert ids(forward) == ids(backward)
    assert forward.sha256 == backward.sha256
    expected = "p" + hashlib.sha1(ABSTRACT_A.lower().encode()).hexdigest()[:12]
    assert ids(forward)[ABSTRACT_A] == expected


# Rule 8: bad inputs, all reported together.
def test_every_bad_file_is_reported_together(tmp_path):
    write(tmp_path, "empty.txt", "")
    write(tmp_path, "header_only.txt", "ICML 2024 Papers\n")
    write(tmp_path, "binary.txt", b"\x89PNG\x00\x00data")
    write(tmp_path, "good.txt", f"{ABSTRACT_A}\n")
    missing = tmp_path / "missing.txt"
    empty_dir = tmp_path / "nothing"
    empty_dir.mkdir()
    with pytest.raises(CorpusError) as error:
        read_corpus([tmp_path, missing, empty_dir])
    problems = error.value.problems
    assert len(problems) == 5
    joined = "\n".join(problems)
    assert "empty.txt: file is empty" in joined
    assert "header_only.txt: has a header ('ICML 2024 Papers') but no abstracts" in joined
    assert "binary.txt: line 1, byte 4: binary file" in joined
    assert f"{missing}: no such file or directory" in joined
    assert f"{empty_dir}: directory has no .txt files" in joined


def test_skip_bad_continues_and_reports(tmp_path):
    write(tmp_path, "a_good.txt", f"{ABSTRACT_A}\n")
    write(tmp_path, "b_empty.txt", "  \n\n")
    corpus = read_corpus(tmp_path, skip_bad=True)
    assert len(corpus.papers) == 1
    assert corpus.skipped_files == ["b_empty.txt"]
    assert corpus.summary()["skipped_files"] == 1
    report = parse_report(corpus).set_index("source_file")
    assert report.loc["b_empty.txt", "status"] == "skipped"
    assert "file is empty" in report.loc["b_empty.txt", "problem"]


def test_skip_bad_with_no_good_file_still_fails(tmp_path):
    write(tmp_path, "a.txt", "")
    with pytest.raises(CorpusError, match="no readable corpus file"):
        read_corpus(tmp_path, skip_bad=True)


def test_only_txt_files_in_name_order(tmp_path):
    write(tmp_path, "b.txt", f"{ABSTRACT_B}\n")
    write(tmp_path, "a.txt", f"{ABSTRACT_A}\n")
    write(tmp_path, "notes.md", "not a corpus file at all, five words")
    corpus = read_corpus(tmp_path)
    assert corpus.files["source_file"].tolist() == ["a.txt", "b.txt"]


# Rule 9: a giant block parses, word for word.
def test_giant_block(tmp_path):
    words = [f"w{i % 997}" for i in range(200_000)]
    lines = [" ".join(words[i:i + 20]) for i in range(0, len(words), 20)]
    write(tmp_path, "big.txt", "Header\n\n" + "\n".join(lines) + "\n")
    paper = read_corpus(tmp_path).papers.iloc[0]
    assert paper["n_words"] == 200_000
    assert paper["text"].split() == words


def test_parse_report_adds_up(tmp_path):
    write(tmp_path, "a.txt", f"Header\n\n{ABSTRACT_A}\n\nshort one\n")
    write(tmp_path, "b.txt", f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    report = parse_report(read_corpus(tmp_path))
    kinds = ["header", "abstract", "duplicate", "too-short"]
    assert (report[kinds].sum(axis=1) == report["blocks"]).all()
    total = report.iloc[-1]
    assert total[["blocks", "header", "abstract", "duplicate", "too-short"]].tolist() == [5, 1, 2, 1, 1]


# The real corpora.
def test_seed_corpus():
    corpus = read_corpus(SEED_DIR)
    assert len(corpus.files) == 3
    assert corpus.papers.groupby("source_file").size().tolist() == [19, 19, 19]
    assert len(corpus.papers) == 57
    assert set(corpus.headers.values()) == {"ICML 2024 Papers", "ICML 2024 论文列表"}
    assert (corpus.blocks["kind"].value_counts().to_dict()) == {"abstract": 57, "header": 3}
    assert papers_per_header(corpus)["papers"].tolist() == [38, 19]


def test_seed_texts_match_the_metadata_hashes():
    import pandas as pd

    metadata = pd.read_csv(SEED_DIR.parent / "icml2024-seed-metadata.csv")
    papers = read_corpus(SEED_DIR).papers
    merged = papers.merge(metadata, left_on=["source_file", "position"],
                          right_on=["source_file", "position"])
    assert len(merged) == 57
    assert (merged["text_sha1"] == merged["abstract_sha1"]).all()


@pytest.mark.skipif(not PMLR_SAMPLE.exists(), reason="../shared/corpora/pmlr-v235-sample not present")
def test_pmlr_sample_every_block_accounted_for():
    corpus = read_corpus(PMLR_SAMPLE)
    text = (PMLR_SAMPLE / "abstracts.txt").read_text(encoding="utf-8")
    n_blocks = len([b for b in text.split("\n\n") if b.strip()])
    assert len(corpus.blocks) == n_blocks == 151
    assert len(corpus.papers) == 150
    assert corpus.headers == {"abstracts.txt": "ICML 2024 Papers"}


def test_papers_per_header_counts_files_without_a_header(tmp_path):
    write(tmp_path, "a.txt", f"ICML 2024 Papers\n\n{ABSTRACT_A}\n")
    write(tmp_path, "b.txt", f"{ABSTRACT_B}\n\n{ABSTRACT_C}\n")
    corpus = read_corpus(tmp_path)
    assert corpus.headers == {"a.txt": "ICML 2024 Papers", "b.txt": None}
    assert papers_per_header(corpus).values.tolist() == [["(none)", 1, 2], ["ICML 2024 Papers", 1, 1]]
