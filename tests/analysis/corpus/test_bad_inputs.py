"""Hostile and broken corpus files: each is one line naming the file and the place, exit 2 and nothing written;
with ``--skip-bad`` the file is skipped and counted. Every corpus here is written by the test itself."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT, run_in_process
from helpers.analysis.corpus import CorpusError, read_corpus, read_one_file
from helpers.analysis.corpus.decoding import gunzip

ABSTRACT = "We study traffic safety at rural crossings and report crash counts per year."
DEEP = "[" * 100_000 + "]" * 100_000
SRC = ROOT / "src"


def _write(folder: Path, name: str, data: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


#: name, content, the problem after "NAME: " (each case is a kind the issue lists).
CASES = [
    ("surrogate.json", '[{"title": "T", "abstract": "' + ABSTRACT + ' \\udfff"}]',
     "line 1: a lone UTF-16 surrogate (\\udfff) in a JSON string, which is no text; write the character itself or"
     " its full pair"),
    ("surrogate.jsonl", '{"abstract": "' + ABSTRACT + '"}\n{"abstract": "\\uD800 ' + ABSTRACT + '"}\n',
     "line 2: a lone UTF-16 surrogate (\\ud800) in a JSON string, which is no text; write the character itself or"
     " its full pair"),
    ("deep.json", DEEP,
     "line 1: JSON nested too deeply to read (arrays or objects inside each other about 1,000 levels deep or more)"),
    ("deep-field.jsonl", '{"abstract": "' + ABSTRACT + '"}\n\n{"abstract": "' + ABSTRACT + '", "x": ' + DEEP + "}\n",
     "line 3: JSON nested too deeply to read (arrays or objects inside each other about 1,000 levels deep or more)"),
    ("positions-text.jsonl", '{"id": "https://openalex.org/W1", "abstract_inverted_index": {"We": "0"}}\n',
     "line 1: abstract_inverted_index: the positions of 'We' are text, expected an array of whole numbers"),
    ("positions-list.jsonl", '{"id": "https://openalex.org/W1", "abstract_inverted_index": {"We": [[0]]}}\n',
     "line 1: abstract_inverted_index: a position of 'We' is an array, expected a whole number from 0"),
    ("positions-int.jsonl", '{"id": "https://openalex.org/W1", "abstract_inverted_index": {"We": 0}}\n',
     "line 1: abstract_inverted_index: the positions of 'We' are a number, expected an array of whole numbers"),
    ("index-text.json", '{"results": [{"id": "https://openalex.org/W1", "abstract_inverted_index": "We"}]}',
     "line 1: abstract_inverted_index is text, expected an object"),
    ("openalex-keywords.jsonl", '{"id": "https://openalex.org/W1", "keywords": 5, "abstract_inverted_index": {}}\n',
     "line 1: field 'keywords' is a number, expected an array"),
    ("openalex-title.jsonl", '{"id": "https://openalex.org/W1", "title": {"a": 1}, "abstract_inverted_index": {}}\n',
     "line 1: field 'title' is an object, expected text"),
    ("abstract-object.jsonl", '{"abstract": {"text": "' + ABSTRACT + '"}}\n',
     "line 1: field 'abstract' is an object, expected text"),
    ("title-array.json", '[{"abstract": "' + ABSTRACT + '"},\n {"abstract": "' + ABSTRACT + '", "title": ["T"]}]',
     "line 2: field 'title' is an array, expected text"),
    ("authors-object.jsonl", '{"abstract": "' + ABSTRACT + '", "authors": [{"name": "A"}]}\n',
     "line 1: field 'authors' is an object, expected text"),
    ("year-true.jsonl", '{"abstract": "' + ABSTRACT + '", "year": true}\n',
     "line 1: field 'year' is true or false, expected text"),
    ("year-huge.jsonl", '{"abstract": "' + ABSTRACT + '", "year": 1' + "0" * 30 + "}\n",
     "line 1: year of 31 digits is out of range (1500 to 2199)"),
    ("year-float.jsonl", '{"abstract": "' + ABSTRACT + '", "year": 1e308}\n',
     "line 1: year of 309 digits is out of range (1500 to 2199)"),
    ("year-negative.csv", f"abstract,year\n{ABSTRACT},2020\n{ABSTRACT} Two,-5\n", None),  # text: no year, as before
    ("year-negative.jsonl", '{"abstract": "' + ABSTRACT + '", "year": -5}\n',
     "line 1: year -5 is out of range (1500 to 2199)"),
    ("long-number.jsonl", '{"abstract": "' + ABSTRACT + '", "n": ' + "9" * 5000 + "}\n",
     "line 1: a whole number of more than 4,300 digits"),
    ("repeated.csv", f"Abstract,title,abstract\n{ABSTRACT},T,Other words entirely here today\n",
     "line 1: column 'abstract' appears twice in the header (columns 1 and 3); rename or remove one"),
    ("repeated-key.jsonl", '{"abstract": "' + ABSTRACT + '", "year": 2020, "abstract": "Other words entirely."}\n',
     "line 1: key 'abstract' appears twice in one object; remove one"),
    ("repeated-key-case.json", '[{"Abstract": "' + ABSTRACT + '", "abstract ": "' + ABSTRACT + ' Two."}]',
     "line 1: key 'abstract' appears twice in one object (keys 1 and 2); rename or remove one"),
    ("utf16.txt", ("Header\n\n" + ABSTRACT + "\n").encode("utf-16"), "line 1: UTF-16 text: save as UTF-8"),
    ("utf16be.csv", ("title,abstract\nT," + ABSTRACT + "\n").encode("utf-16-be"), "line 1: UTF-16 text: save as UTF-8"),
    ("utf32.jsonl", ('{"abstract": "' + ABSTRACT + '"}\n').encode("utf-32"), "line 1: UTF-32 text: save as UTF-8"),
    ("broken.jsonl.gz", gzip.compress(b"{}", mtime=0)[:10] + b"\x07" * 20,
     "not a gzip file (Error -3 while decompressing data: invalid block type)"),
]
PROBLEMS = {name: problem for name, _, problem in CASES}


@pytest.mark.parametrize("name, data, problem", [case for case in CASES if case[2]], ids=[c[0] for c in CASES if c[2]])
def test_bad_file_is_one_line_exit_2_nothing_written(tmp_path, name, data, problem):
    path = _write(tmp_path, name, data)
    out = tmp_path / "out"
    result = run_in_process("analyse", str(path), "--out", str(out), "--quiet")
    assert (result.returncode, result.stderr) == (2, f"error: {path}: {problem}\n")
    assert not out.exists()


def test_numbers_in_text_are_no_year_and_no_error(tmp_path):
    corpus = read_corpus(_write(tmp_path, "year-negative.csv", dict((c[0], c[1]) for c in CASES)["year-negative.csv"]))
    assert corpus.papers["year"].tolist()[0] == 2020 and corpus.papers["year"].isna().tolist() == [False, True]


def test_a_key_repeated_inside_a_field_is_no_problem(tmp_path):
    corpus = read_corpus(_write(tmp_path, "a.jsonl", '{"abstract": "' + ABSTRACT + '", "x": {"b": 1, "b": 2}}\n'))
    assert corpus.fields["x"].tolist() == ["{'b': 2}"]


def test_skip_bad_skips_and_counts_every_bad_file(tmp_path):
    bad = [_write(tmp_path, name, data) for name, data, problem in CASES if problem]
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    good = _write(tmp_path, "good.txt", ABSTRACT + "\n")
    corpus = read_corpus([*bad, fifo, good, "/dev/null"], skip_bad=True)
    assert len(corpus.papers) == 1
    skipped = corpus.files.set_index("source_file").query("status == 'skipped'")
    assert len(skipped) == len(bad) + 2 == corpus.summary()["skipped_files"]
    assert skipped.loc["pipe.txt", "problem"] == f"{fifo}: not a regular file but a FIFO (named pipe)"
    assert skipped.loc["null", "problem"] == "/dev/null: not a regular file but a character device"
    assert skipped.loc["repeated.csv", "problem"] == f"{tmp_path / 'repeated.csv'}: {PROBLEMS['repeated.csv']}"


def test_skip_bad_on_the_command_line_counts_them(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    paths = [_write(tmp_path, "deep.json", DEEP), fifo, _write(tmp_path, "good.txt", ABSTRACT + "\n")]
    out = tmp_path / "out"
    result = run_in_process("analyse", *map(str, paths), "--out", str(out), "--quiet", "--skip-bad")
    assert result.returncode == 0, result.stderr
    assert json.loads((out / "summary.json").read_text())["skipped_files"] == 2


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_device_is_named_never_read(tmp_path, device):
    result = run_in_process("analyse", device, "--out", str(tmp_path / "out"))
    assert (result.returncode, result.stderr) == (2, f"error: {device}: not a regular file but a character device\n")


def test_a_fifo_is_named_never_opened(tmp_path):
    fifo = tmp_path / "abstracts.txt"
    os.mkfifo(fifo)  # opening it would wait for a writer: the test would hang
    result = run_in_process("analyse", str(fifo), "--out", str(tmp_path / "out"))
    assert (result.returncode, result.stderr) == (2, f"error: {fifo}: not a regular file but a FIFO (named pipe)\n")


def test_an_odd_file_name_is_quoted_on_one_line(tmp_path):
    path = _write(tmp_path, "empty\nname.txt", "")
    result = run_in_process("analyse", str(path), "--out", str(tmp_path / "out"))
    assert (result.returncode, result.stderr) == (2, f"error: {str(path)!r}: file is empty\n")


def test_a_control_character_in_a_header_stays_on_one_line(tmp_path):
    path = _write(tmp_path, "a.csv", '"ti\ntle",summary\nT,x\n')
    result = run_in_process("analyse", str(path), "--out", str(tmp_path / "out"))
    assert (result.returncode, result.stderr) == (
        2, f"error: {path}: line 1: has no 'abstract' column (columns: ti\\ntle, summary)\n")


def _without_read_override(code: str) -> subprocess.CompletedProcess:
    """``code`` run by this Python without the right to read what its mode forbids: as root, without
    CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (``setpriv``); as any other user, as it is."""
    command = [sys.executable, "-c", code]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: a mode 000 file stays readable")
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--inh-caps=-all", *command]
    result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(SRC)})
    if result.returncode != 0 and result.stderr.startswith("setpriv:"):
        pytest.skip(f"root cannot give up its read override here: {result.stderr.strip()}")
    return result


READ = """
import sys
from helpers.analysis.corpus import CorpusError, read_corpus
try:
    corpus = read_corpus(sys.argv[1:] if len(sys.argv) > 1 else {paths!r}, skip_bad={skip_bad})
    print(corpus.summary()["skipped_files"], corpus.files["problem"].tolist())
except CorpusError as error:
    print(error.problems)
"""


def test_an_unreadable_file_is_one_line_and_skipped(tmp_path):
    unreadable = _write(tmp_path, "locked.txt", ABSTRACT + "\n")
    good = _write(tmp_path, "good.txt", ABSTRACT + " Again.\n")
    unreadable.chmod(0)
    failed = _without_read_override(READ.format(paths=[str(unreadable)], skip_bad=False))
    assert failed.stdout.strip() == str([f"{unreadable}: cannot read (Permission denied)"]), failed.stderr
    skipped = _without_read_override(READ.format(paths=[str(unreadable), str(good)], skip_bad=True))
    assert skipped.stdout.strip() == f"1 {[f'{unreadable}: cannot read (Permission denied)', '']}", skipped.stderr


def test_an_unreadable_folder_is_one_line(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    _write(folder, "a.txt", ABSTRACT + "\n")
    folder.chmod(0)
    try:
        failed = _without_read_override(READ.format(paths=[str(folder)], skip_bad=False))
    finally:
        folder.chmod(0o755)
    assert failed.stdout.strip() == str([f"{folder}: cannot list the directory (Permission denied)"]), failed.stderr


def test_jsonl_gz_is_read_in_pieces_as_the_file_itself(tmp_path, monkeypatch):
    lines = "".join(json.dumps({"key": f"k{i}", "abstract": f"{ABSTRACT} Number {i}.", "year": 2000 + i % 20}) + "\n"
                    for i in range(200))
    plain = read_one_file(_write(tmp_path, "works.jsonl", lines), "works.jsonl")
    packed = _write(tmp_path, "works.jsonl.gz", gzip.compress(lines.encode()))

    def whole(*args):
        raise AssertionError("a .jsonl.gz of more than one piece was decompressed whole")

    monkeypatch.setattr("helpers.analysis.corpus.decoding.gunzip", whole)
    file_row, rows, problems = read_one_file(packed, "works.jsonl.gz", piece_size=1000)
    assert problems == [] and file_row["n_blocks"] == 200
    assert [dict(r, source_file="") for r in rows] == [dict(r, source_file="") for r in plain[1]]


def test_a_gzip_read_whole_is_refused_beyond_its_limit(tmp_path):
    path = tmp_path / "works.json.gz"
    with pytest.raises(CorpusError) as error:
        gunzip(path, gzip.compress(b" " * 3 * 2**20), limit=2**21)
    assert error.value.problems == [f"{path}: expands to more than 2 MiB, the most a compressed file is read whole;"
                                    " decompress it (gunzip) and give the file itself"]
