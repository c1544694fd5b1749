"""``analyse --out DIR``: DIR replaced whole or not at all, its own files kept, one run at a time, stale staging
folders cleaned, and Ctrl-C, SIGTERM and kill -9 at each step leaving the old tables or the new ones, never a mix."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import run_in_process
from helpers.analysis.output_folder import MANIFEST, PAUSE_VARIABLE, OutputFolder, foreign_files, stale_folders

FIRST = ("Header one\n\nWe study graph neural networks for molecules and report strong results.\n\n"
         "Crash counts on rural roads fall after speed cameras are installed at junctions.\n")
SECOND = ("Header two\n\nBroiler chickens gain weight faster on a diet with more protein.\n\n"
          "Catalysts made of nickel split water at a lower voltage than platinum.\n\n"
          "Survey answers show that nurses sleep less on night shifts.\n")


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative path: bytes)."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


def leftovers(out: Path) -> list[str]:
    """What a run may leave beside ``out``: staging or old folders, the lock file."""
    return sorted(path.name for path in out.parent.iterdir() if path.name.startswith(f".{out.name}."))


@pytest.fixture
def corpora(tmp_path):
    """Two small corpora and ``out`` holding an earlier run of the first."""
    first = write(tmp_path / "corpora", "first.txt", FIRST)
    second = write(tmp_path / "corpora", "second.txt", SECOND)
    out = tmp_path / "out"
    assert run_in_process("analyse", str(first), "--out", str(out), "--quiet").returncode == 0
    return first, second, out


def test_a_run_replaces_every_table_of_the_earlier_one(corpora):
    first, second, out = corpora
    (out / "theme_change.csv").write_text("stale,table\n")  # as an earlier grouped run left it
    with (out / MANIFEST).open("a") as manifest:
        manifest.write("theme_change.csv\n")
    old = snapshot(out)
    result = run_in_process("analyse", str(second), "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    new = snapshot(out)
    assert "theme_change.csv" not in new
    assert '"files": 1' in new["summary.json"].decode() and b"Broiler" in new["papers.csv"]
    assert sorted(new) == sorted(name for name in old if name != "theme_change.csv")
    assert new[MANIFEST].decode().splitlines()[1:] == sorted(name for name in new if name != MANIFEST)
    assert leftovers(out) == []


def test_files_analyse_did_not_write_are_refused_unless_force(corpora):
    first, second, out = corpora
    (out / "my notes.txt").write_text("mine")
    (out / "papers" / "extra.parquet").write_text("mine too")
    (out / "drafts").mkdir()
    before = snapshot(out)
    result = run_in_process("analyse", str(second), "--out", str(out), "--quiet")
    assert result.returncode == 2
    assert result.stderr == (f"error: {out}: holds 3 files analyse did not write (drafts, my notes.txt, "
                             "papers/extra.parquet); move them away, or use --force to replace the folder whole\n")
    assert snapshot(out) == before and (out / "drafts").is_dir() and leftovers(out) == []
    result = run_in_process("analyse", str(second), "--out", str(out), "--quiet", "--force")
    assert result.returncode == 0, result.stderr
    assert foreign_files(out) == [] and not (out / "drafts").exists() and b"Broiler" in (out / "papers.csv").read_bytes()


def test_a_folder_without_a_manifest_counts_as_the_users(tmp_path):
    corpus = write(tmp_path, "a.txt", FIRST)
    write(tmp_path / "out", "papers.csv", "written by hand\n")
    result = run_in_process("analyse", str(corpus), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 2
    assert result.stderr == (f"error: {tmp_path / 'out'}: holds 1 file analyse did not write (papers.csv); "
                             "move it away, or use --force to replace the folder whole\n")


@pytest.mark.parametrize("where, message", [
    ("corpora", "--out is the corpus path {corpora}; choose a folder outside the corpus"),
    ("corpora/out", "--out is inside the corpus folder {corpora}; choose a folder outside it"),
    (".", "the corpus path {corpora} is inside --out, which is replaced whole; choose another folder"),
])
def test_out_may_not_be_or_hold_or_lie_in_a_corpus_path(tmp_path, where, message):
    corpora = tmp_path / "corpora"
    write(corpora, "a.txt", FIRST)
    before = snapshot(tmp_path)
    out = tmp_path / where
    result = run_in_process("analyse", str(corpora), "--out", str(out), "--quiet")
    assert result.returncode == 2
    assert result.stderr == f"error: {out}: {message.format(corpora=corpora)}\n"
    assert snapshot(tmp_path) == before and sorted(path.name for path in tmp_path.iterdir()) == ["corpora"]


def test_out_that_is_a_file_a_system_folder_or_under_a_file_is_one_line(tmp_path):
    corpus = write(tmp_path, "a.txt", FIRST)
    (tmp_path / "taken").write_text("a file")
    cases = {
        str(tmp_path / "taken"): "--out is a file, not a folder; give a folder (new or earlier output)",
        "/proc/analyse-out": "--out is under a system folder (/proc, /sys); choose a folder of your own",
        str(tmp_path / "taken" / "out"): f"{tmp_path / 'taken'} is a file, not a folder; --out cannot go inside it",
    }
    for out, message in cases.items():
        result = run_in_process("analyse", str(corpus), "--out", out, "--quiet")
        assert (result.returncode, result.stderr) == (2, f"error: {out}: {message}\n")
    assert (tmp_path / "taken").read_text() == "a file"


def test_an_out_name_with_white_space_at_its_end_is_quoted_as_every_file_name_a_problem_shows(tmp_path):
    corpus = write(tmp_path, "a.txt", FIRST)
    (tmp_path / "taken ").write_text("a file")
    result = run_in_process("analyse", str(corpus), "--out", str(tmp_path / "taken "), "--quiet")
    assert (result.returncode, result.stderr) == (
        2, f"error: '{tmp_path}/taken ': --out is a file, not a folder; give a folder (new or earlier output)\n")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_out_in_a_read_only_folder_is_one_line(tmp_path):
    corpus = write(tmp_path, "a.txt", FIRST)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    result = run_in_process("analyse", str(corpus), "--out", str(locked / "out"), "--quiet")
    assert (result.returncode, result.stderr) == (
        2, f"error: {locked / 'out'}: cannot write into its folder {locked} (Permission denied)\n")


def test_missing_parents_are_made_and_removed_again_on_error(tmp_path):
    out = tmp_path / "a" / "b" / "out"
    result = run_in_process("analyse", str(tmp_path / "missing.txt"), "--out", str(out), "--quiet")
    assert result.returncode == 2 and "no such file or directory" in result.stderr
    assert list(tmp_path.iterdir()) == []
    result = run_in_process("analyse", str(write(tmp_path, "c.txt", FIRST)), "--out", str(out), "--quiet")
    assert result.returncode == 0 and (out / "papers.csv").is_file()


def test_a_second_run_stops_while_the_folder_is_locked(corpora):
    first, second, out = corpora
    before = snapshot(out)
    with OutputFolder(out.resolve()):
        result = run_in_process("analyse", str(second), "--out", str(out), "--quiet")
    assert result.returncode == 2
    assert result.stderr == (f"error: {out}: another analyse run is writing it (lock {out.parent / '.out.lock'}); "
                             "wait for it to end\n")
    assert snapshot(out) == before and leftovers(out) == []


def test_a_stale_staging_folder_is_removed_by_the_next_run(corpora):
    first, second, out = corpora
    write(out.parent / ".out.staging-k1ll3d_9", "papers.csv", "half written")
    write(out.parent / ".out.old-k1ll3d_9", "papers.csv", "set aside")
    write(out.parent / ".out.staging-notours", "keep.txt", "not a staging name")
    assert [path.name for path in stale_folders(out)] == [".out.old-k1ll3d_9", ".out.staging-k1ll3d_9"]
    assert run_in_process("analyse", str(second), "--out", str(out), "--quiet").returncode == 0
    assert leftovers(out) == [".out.staging-notours"]


def test_ctrl_c_during_the_analysis_is_one_line_and_out_unchanged(corpora, monkeypatch):
    import helpers.analysis.pipeline as pipeline

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    first, second, out = corpora
    before = snapshot(out)
    monkeypatch.setattr(pipeline, "run_pipeline", interrupted)
    result = run_in_process("analyse", str(second), "--out", str(out), "--quiet")
    assert (result.returncode, result.stderr) == (130, f"interrupted; {out} unchanged\n")
    assert snapshot(out) == before and leftovers(out) == []


def paused_run(corpus: Path, out: Path, step: str) -> subprocess.Popen:
    """``analyse CORPUS --out OUT`` in a process of its own, returned once it sleeps at ``step``."""
    process = subprocess.Popen([sys.executable, "-m", "helpers", "analyse", str(corpus), "--out", str(out), "--quiet"],
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ, **{PAUSE_VARIABLE: step}),
                               # Ctrl-C as in a terminal, even when this test runs where SIGINT is ignored (nohup, &)
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    line = process.stderr.readline()
    if line != f"paused at {step}\n":
        process.kill()
        pytest.fail(f"the run did not pause at {step}: {line}{process.communicate()[1]}")
    return process


def test_kill_9_before_the_swap_leaves_the_old_tables_and_the_next_run_cleans_up(corpora):
    first, second, out = corpora
    before = snapshot(out)
    process = paused_run(second, out, "staged")
    try:
        busy = run_in_process("analyse", str(second), "--out", str(out), "--quiet")  # the other process holds the lock
        assert (busy.returncode, busy.stderr.count("\n")) == (2, 1) and "another analyse run" in busy.stderr
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate()
    assert snapshot(out) == before
    stale = [name for name in leftovers(out) if name != ".out.lock"]
    assert len(stale) == 1 and stale[0].startswith(".out.staging-")
    assert snapshot(out.parent / stale[0])["papers.csv"] != before["papers.csv"]  # the new tables, never swapped in
    result = run_in_process("analyse", str(second), "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    assert leftovers(out) == [] and b"Broiler" in (out / "papers.csv").read_bytes()


@pytest.mark.parametrize("stop, code, word", [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_ctrl_c_or_sigterm_before_the_swap_is_one_line_and_out_unchanged(corpora, stop, code, word):
    first, second, out = corpora
    before = snapshot(out)
    process = paused_run(second, out, "staged")
    process.send_signal(stop)
    try:
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()  # when the signal did not stop it (nothing happens when it did)
    assert (process.returncode, stderr) == (code, f"{word}; {out} unchanged\n")
    assert snapshot(out) == before and leftovers(out) == []


def test_kill_9_after_the_swap_leaves_the_new_tables_whole(corpora, tmp_path):
    first, second, out = corpora
    assert run_in_process("analyse", str(second), "--out", str(tmp_path / "reference"), "--quiet").returncode == 0
    process = paused_run(second, out, "swapped")
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert snapshot(out) == snapshot(tmp_path / "reference")
    stale = [name for name in leftovers(out) if name != ".out.lock"]
    assert len(stale) == 1 and b"graph neural" in (out.parent / stale[0] / "papers.csv").read_bytes()  # the old
    assert run_in_process("analyse", str(first), "--out", str(out), "--quiet").returncode == 0
    assert leftovers(out) == []


def test_the_dask_engines_workers_leave_ctrl_c_to_the_command():
    """The local cluster's worker processes ignore SIGINT (Ctrl-C reaches every process of the terminal's group):
    the command alone stops, closes the cluster and prints its one line, with no traceback from the workers."""
    pytest.importorskip("distributed")
    from helpers.analysis.pipeline.dask_engine import dask_client
    from helpers.analysis.settings import EngineSettings

    handler = signal.getsignal(signal.SIGINT)
    with dask_client(EngineSettings.from_values("dask", None, None), n_jobs=1) as client:
        assert signal.getsignal(signal.SIGINT) is handler
        (pid,) = client.run(os.getpid).values()
        assert list(client.run(lambda: signal.getsignal(signal.SIGINT) is signal.SIG_IGN).values()) == [True]
        os.kill(pid, signal.SIGINT)
        assert list(client.run(os.getpid).values()) == [pid]


def test_without_the_one_step_exchange_two_renames_replace_the_folder(corpora, monkeypatch):
    import helpers.analysis.output_folder as output_folder

    first, second, out = corpora
    monkeypatch.setattr(output_folder, "exchange", lambda first, second: False)  # not Linux, or a file system without it
    assert run_in_process("analyse", str(second), "--out", str(out), "--quiet").returncode == 0
    assert b"Broiler" in (out / "papers.csv").read_bytes() and foreign_files(out) == [] and leftovers(out) == []


def test_a_link_to_the_folder_stays_a_link_to_the_new_tables(corpora):
    first, second, out = corpora
    link = out.parent / "latest"
    link.symlink_to(out, target_is_directory=True)
    assert run_in_process("analyse", str(second), "--out", str(link), "--quiet").returncode == 0
    assert link.is_symlink() and b"Broiler" in (link / "papers.csv").read_bytes() and leftovers(out) == []


def test_a_full_disk_while_writing_is_one_line_and_out_unchanged(corpora, monkeypatch):
    import errno

    import helpers.analysis.pipeline as pipeline

    def disk_full(analysis, folder):
        (folder / "papers.csv").write_text("half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(folder / "papers.csv"))

    first, second, out = corpora
    before = snapshot(out)
    monkeypatch.setattr(pipeline, "write_outputs", disk_full)
    result = run_in_process("analyse", str(second), "--out", str(out), "--quiet")
    assert (result.returncode, result.stderr) == (
        1, f"error: {out}: cannot write the tables (No space left on device); {out} unchanged\n")
    assert snapshot(out) == before and leftovers(out) == []
