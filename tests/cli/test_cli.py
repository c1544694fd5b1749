"""``python -m helpers analyse`` end to end: files written, exit codes, DIR untouched on error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.support import SEED_DIR, run_in_process

ABSTRACT = "We study graph neural networks for molecules and report strong results."


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m helpers ARGS`` in a process of its own (the error paths run in this one: ``run_in_process``)."""
    return subprocess.run([sys.executable, "-m", "helpers", *args], capture_output=True, text=True,
                          cwd=cwd)


@pytest.fixture(scope="module")
def seed_run(tmp_path_factory):
    """``analyse`` of the seed folder (its files in name order) in a process of its own, run once for the tests
    below (``make test-unit`` keeps a file's tests on one pytest-xdist worker): its result and output folder."""
    out = tmp_path_factory.mktemp("seed") / "out"
    return run("analyse", str(SEED_DIR), "--out", str(out), "--quiet", "--timings"), out


def test_analyse_seed_corpus_writes_tables(seed_run):
    result, out = seed_run
    assert result.returncode == 0, result.stderr
    timings = next(line for line in result.stderr.splitlines() if line.startswith("timings: "))
    stages = [part.split()[0] for part in timings.removeprefix("timings: ").split("; ")[0].split(", ")]
    assert stages == ["parse", "text", "themes", "cooccurrence", "links"]
    summary = json.loads((out / "summary.json").read_text())
    assert {k: summary[k] for k in ["files", "blocks", "abstracts", "unique_papers", "duplicates",
                                    "too_short", "skipped_files"]} == {
        "files": 3, "blocks": 60, "abstracts": 57, "unique_papers": 57, "duplicates": 0,
        "too_short": 0, "skipped_files": 0}
    papers = pd.read_csv(out / "papers.csv")
    blocks = pd.read_csv(out / "blocks.csv")
    assert len(papers) == 57 and papers["paper_id"].is_unique
    assert len(blocks) == 60
    assert not list(out.parent.glob(".out.*")), "staging folder or lock file left behind"


def test_bad_input_exits_2_and_leaves_out_untouched(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "papers.csv").write_text("old contents\n")
    (out / ".analyse-files").write_text("papers.csv\n")  # an earlier run's output (its own files are refused)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"Header\n\nnot \xfe utf8 at all in this abstract\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = run_in_process("analyse", str(bad), str(empty), "--out", str(out))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"error: {bad}: line 3, byte 12: invalid UTF-8")
    assert lines[1] == f"error: {empty}: file is empty"
    assert sorted(p.name for p in out.iterdir()) == [".analyse-files", "papers.csv"]
    assert (out / "papers.csv").read_text() == "old contents\n"


def test_missing_out_is_not_created_on_error(tmp_path):
    out = tmp_path / "never"
    result = run_in_process("analyse", str(tmp_path / "missing"), "--out", str(out))
    assert result.returncode == 2
    assert "no such file or directory" in result.stderr
    assert not out.exists()


def test_skip_bad_lists_skipped_files(tmp_path):
    (tmp_path / "good.txt").write_text(ABSTRACT + "\n")
    (tmp_path / "empty.txt").write_text("")
    out = tmp_path / "out"
    result = run_in_process("analyse", str(tmp_path / "good.txt"), str(tmp_path / "empty.txt"), "--out",
                 str(out), "--skip-bad", "--quiet")
    assert result.returncode == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["skipped_files"] == 1
    files = pd.read_csv(out / "files.csv")
    assert files.set_index("source_file").loc["empty.txt", "status"] == "skipped"


def test_help_documents_options():
    result = run("analyse", "--help")
    assert result.returncode == 0
    for option in ["--out", "--skip-bad", "--quiet", "PATH"]:
        assert option in result.stdout


def test_two_runs_are_byte_identical(seed_run, tmp_path):
    """A second process (its own hash seed) writes the same bytes as the first; ``--timings`` changes no file."""
    one = seed_run[1]
    assert run("analyse", str(SEED_DIR), "--out", str(tmp_path / "two"), "--quiet").returncode == 0
    files = sorted(path.relative_to(one) for path in one.rglob("*") if path.is_file())
    assert files == sorted(path.relative_to(tmp_path / "two") for path in (tmp_path / "two").rglob("*") if path.is_file())
    assert Path("papers/part-00000.parquet") in files
    for path in files:
        assert (one / path).read_bytes() == (tmp_path / "two" / path).read_bytes(), path


def test_reordering_files_changes_no_paper_id_or_theme(seed_run, tmp_path):
    """The seed's files named in reverse order give the paper ids, themes and terms of the folder (name order)."""
    files = sorted(str(p) for p in SEED_DIR.glob("*.txt"))
    assert len(files) == 3
    forward = seed_run[1]
    assert run("analyse", *files[::-1], "--out", str(tmp_path / "backward"), "--quiet").returncode == 0
    columns = ["paper_id", "theme", "theme_weight", "link_state"]
    forward_papers = pd.read_csv(forward / "papers.csv")[columns].sort_values("paper_id", ignore_index=True)
    backward = pd.read_csv(tmp_path / "backward" / "papers.csv")[columns].sort_values("paper_id", ignore_index=True)
    pd.testing.assert_frame_equal(forward_papers, backward)
    for name in ["themes.csv", "terms.csv", "term_pairs.csv"]:
        assert (forward / name).read_bytes() == (tmp_path / "backward" / name).read_bytes(), name


def test_bibtex_of_two_years_is_grouped_by_year(tmp_path):
    bib = tmp_path / "two.bib"
    entries = [(f"k{i}", 2023 + 2 * (i % 2), f"Paper {i} studies graphs and language models with method {i} today.")
               for i in range(6)]
    bib.write_text("".join(f"@InProceedings{{{key},\n  title = {{Title {key}}},\n  year = {{{year}}},\n"
                           f"  abstract = {{{text}}}\n}}\n\n" for key, year, text in entries))
    out = tmp_path / "out"
    # three papers a year: by default one period (2023–2025), so grouped by year as asked
    result = run_in_process("analyse", str(bib), "--out", str(out), "--quiet", "--group-by", "year")
    assert result.returncode == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["group_by"] == "year" and summary["groups"] == {"2023": 3, "2025": 3}
    papers = pd.read_csv(out / "papers.csv")
    assert papers[["title", "year", "group"]].values.tolist() == [
        [f"Title k{i}", 2023 + 2 * (i % 2), 2023 + 2 * (i % 2)] for i in range(6)]
    result = run_in_process("analyse", str(bib), "--out", str(out), "--quiet", "--group-by", "colour")
    assert result.returncode == 2
    assert result.stderr == ("error: --group-by / BOOK_GROUP_BY: must be year, file or a column of the input (title),"
                             " got 'colour'\n")
