"""Large corpus files read in pieces (helpers.analysis.corpus.file_pieces): the same blocks as read whole, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import SEED_DIR, SHARED
from helpers.analysis.corpus import file_pieces
from helpers.analysis.corpus import read_corpus, read_one_file, read_piece, read_whole_file
from helpers.analysis.corpus.file_pieces import ParsedPiece, join_pieces, split_file
from helpers.cli import main

SHARED_CORPORA = SHARED / "corpora"

# A seed-format file with what line numbering and block splitting must survive: a header, CRLF and CR line
# ends, blank lines of spaces and tabs, a Unicode line separator, a too-short block, no-break spaces.
TRICKY_SEED = (
    "\ufeffTest abstracts 2024\r\n\r\n"
    "We study graph neural networks\r\nfor molecules and proteins at scale.\r\n \t \r\n"
    "Short one.\n\n\n\n"
    "A second abstract\u2028with a line separator, and more words here.\n  \n"
    "Third abstract:\u00a0no-break  spaces and a hyphen-\nated word across lines.\r\r"
    "Fourth abstract after two carriage returns, long enough to count.\n\n\n"
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def blank_line_cuts(data: bytes, piece_bytes: int) -> list[int]:
    """The cuts by the rule, found line by line: each piece ends with the first blank line (spaces, tabs, CR)
    that begins at least ``piece_bytes`` after the piece's start."""
    blank_lines, start = [], 0
    for line in data.splitlines(keepends=True):
        if line.endswith(b"\n") and not line.strip(b" \t\r\n") and start > 0:
            blank_lines.append((start, start + len(line)))
        start += len(line)
    cuts = [0]
    for begin, end in blank_lines:
        if begin >= cuts[-1] + piece_bytes and end < len(data):
            cuts.append(end)
    return cuts + [len(data)]


@pytest.mark.parametrize("piece_bytes", [1, 30, 100])
def test_pieces_cover_every_byte_and_end_after_a_blank_line(tmp_path, piece_bytes):
    path = write(tmp_path, "a.txt", TRICKY_SEED)
    data = path.read_bytes()
    pieces = split_file(path, "a.txt", piece_bytes)
    cuts = blank_line_cuts(data, piece_bytes)
    assert [(piece.start, piece.stop) for piece in pieces] == list(zip(cuts, cuts[1:]))
    assert len(pieces) == {1: 7, 30: 4, 100: 3}[piece_bytes]


def test_small_files_and_records_that_span_blank_lines_are_one_piece(tmp_path):
    seed = write(tmp_path, "a.txt", TRICKY_SEED)
    bib = write(tmp_path, "a.bib", "@article{a,\n  abstract = {One two three four five.\n\nsix}\n}\n" * 20)
    assert len(split_file(seed, "a.txt")) == 1
    assert len(split_file(bib, "a.bib", piece_size=10)) == 1


@pytest.mark.parametrize("piece_bytes", [1, 2, 7, 30, 61, 100, 150, 1000])
def test_a_seed_file_read_in_pieces_equals_it_read_whole(tmp_path, piece_bytes):
    path = write(tmp_path, "a.txt", TRICKY_SEED)
    whole = read_whole_file(path, "a.txt")
    assert whole[0]["header"] == "Test abstracts 2024" and len(whole[1]) == 6
    assert [row["first_line"] for row in whole[1]] == [1, 3, 6, 10, 13, 16]  # the line separator and the two CRs end lines too
    assert read_one_file(path, "a.txt", piece_bytes) == whole


@pytest.mark.parametrize("piece_bytes", [1, 40, 120])
def test_a_json_lines_file_read_in_pieces_equals_it_read_whole(tmp_path, piece_bytes):
    lines = [json.dumps({"key": f"k{i}", "title": f"Paper {i}", "year": 2020 + i,
                         "abstract": f"Abstract number {i} has at least five words."}) for i in range(6)]
    lines[2] = json.dumps({"key": "k2", "title": "No abstract here"})
    path = write(tmp_path, "a.jsonl", "\r\n".join(lines[:3]) + "\n\n  \n" + "\n".join(lines[3:]) + "\n")
    whole = read_whole_file(path, "a.jsonl")
    assert [(row["kind"], row["first_line"], row["position"]) for row in whole[1]] == [
        ("abstract", 1, 1), ("abstract", 2, 2), ("no-abstract", 3, 3), ("abstract", 6, 4), ("abstract", 7, 5),
        ("abstract", 8, 6)]
    assert len(split_file(path, "a.jsonl", piece_bytes)) > 1
    assert read_one_file(path, "a.jsonl", piece_bytes) == whole


@pytest.mark.parametrize("text, problem", [
    ("One two three four five six.\n\n" * 5 + "Bad byte \udcff here in the last block.\n",
     "a.txt: line 11, byte 159: invalid UTF-8 (byte 0xff); re-save the file as UTF-8"),
    ("Just A Header\n\n" + " \n\n" * 30, "a.txt: has a header ('Just A Header') but no abstracts"),
    ("\n\n" * 40 + "Short.\n\nAlso short.\n", "a.txt: has no abstracts (no block of at least 5 words)"),
])
def test_a_problem_anywhere_in_a_file_is_named_as_when_read_whole(tmp_path, text, problem):
    path = tmp_path / "a.txt"
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    assert len(split_file(path, "a.txt", 16)) > 1
    result = read_one_file(path, "a.txt", 16)
    assert result == read_whole_file(path, "a.txt")
    assert result[2] == [f"{path.parent}/{problem}"]


def test_a_header_only_in_a_later_piece_is_found_by_reading_whole(tmp_path):
    # The first piece is blank lines only: the file's first block (a header) is in the second piece.
    path = write(tmp_path, "a.txt", "\n" * 80 + "A Header Line\n\nOne two three four five six.\n")
    assert len(split_file(path, "a.txt", 20)) > 1
    result = read_one_file(path, "a.txt", 20)
    assert result == read_whole_file(path, "a.txt")
    assert result[0]["header"] == "A Header Line"


def test_join_gives_up_on_a_piece_with_a_problem():
    good = ParsedPiece(None, [dict(block=1, position=1, first_line=1, last_line=1, kind="abstract")], 2)
    assert join_pieces("a.txt", "a.txt", [good, ParsedPiece(None, [], 0, "invalid UTF-8")], "0" * 64) is None
    assert join_pieces("a.txt", "a.txt", [ParsedPiece(None, [], 3), good], "0" * 64) is None
    assert join_pieces("a.txt", "a.txt", [good], "0" * 64)[0]["n_blocks"] == 1


def test_read_piece_numbers_from_its_own_start(tmp_path):
    path = write(tmp_path, "a.txt", "Header Of File\n\nOne two three four five.\n\nSix seven eight nine ten.\n")
    first, second = split_file(path, "a.txt", 20)
    assert (first.start, first.stop, second.stop) == (0, 42, 68)
    parsed = read_piece(second)
    assert parsed.header is None and parsed.n_lines == 1
    assert [(row["block"], row["position"], row["first_line"], row["text"]) for row in parsed.rows] == [
        (1, 1, 1, "Six seven eight nine ten.")]


def test_the_seed_corpus_in_one_file_gives_the_same_tables_in_pieces(tmp_path, monkeypatch):
    """The 57 seed abstracts in one file of 74 KB, pieces of 4 KB: every table analyse writes is the same."""
    texts = read_corpus(SEED_DIR).papers["text"].tolist()
    (tmp_path / "corpus").mkdir()
    write(tmp_path / "corpus", "all.txt", "ICML abstracts\n\n" + "\n\n".join(texts + texts[:3]) + "\n")
    outputs = {}
    for name, size in (("whole", file_pieces.PIECE_BYTES), ("pieces", 4096)):
        monkeypatch.setattr(file_pieces, "PIECE_BYTES", size)
        assert main(["analyse", str(tmp_path / "corpus"), "--out", str(tmp_path / name), "--quiet"]) == 0
        outputs[name] = {path.name: path.read_bytes() for path in (tmp_path / name).rglob("*") if path.is_file()}
    data = (tmp_path / "corpus" / "all.txt").read_bytes()
    pieces = split_file(tmp_path / "corpus" / "all.txt", "all.txt", 4096)
    assert [piece.stop for piece in pieces] == blank_line_cuts(data, 4096)[1:]
    assert len(pieces) == 16 and len(data) == 74_221
    assert outputs["pieces"] == outputs["whole"]


@pytest.mark.skipif(not SHARED_CORPORA.is_dir(), reason="needs ../shared/corpora (the project's development data)")
def test_the_real_corpora_read_in_pieces_equal_them_read_whole():
    files = [path for path in sorted(SHARED_CORPORA.rglob("*")) if path.suffix in (".txt", ".jsonl")]
    assert files
    for path in files:
        assert read_one_file(path, path.name, 4096) == read_whole_file(path, path.name), path
