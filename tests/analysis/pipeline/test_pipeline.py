"""The analysis object, the book's settings, the cache key and user errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support import SEED_DIR, run_in_process
from helpers.analysis import _parallel as local
from helpers.analysis.themes import selection
from helpers.book import BookConfig
from helpers.analysis.pipeline import AnalysisSettings, SettingsError, run_pipeline
from helpers.book.cache import build_key, cached_pipeline, dependency_closure, environment_fingerprint

SEED_FILES = sorted(SEED_DIR.glob("*.txt"))


def copy_seed(folder, names=None):
    folder.mkdir()
    for index, path in enumerate(SEED_FILES):
        shutil.copy(path, folder / (names[index] if names else path.name))
    return folder


def key(paths, root, settings=AnalysisSettings()):
    return build_key(paths, settings, root=root)


def test_build_key_covers_names_order_settings_and_pins(tmp_path):
    root = tmp_path / "book"
    root.mkdir()
    (root / "requirements.txt").write_text("numpy==2.3.0\n")
    corpus = copy_seed(tmp_path / "corpus")
    files = sorted(corpus.glob("*.txt"))
    original = key([corpus], root)
    assert key([corpus], root) == original, "an unchanged tree keeps its key"
    assert key(files, root) == original, "a folder is its files in name order"
    assert key(files[::-1], root) != original, "file order is shown (per-file tables)"
    assert key([corpus], root, AnalysisSettings(themes=5)) != original
    renamed = copy_seed(tmp_path / "renamed", ["a.txt", "b.txt", "c.txt"])
    assert key([renamed], root) != original, "file names are shown (source_file)"
    (root / "requirements.txt").write_text("numpy==2.3.1\n")
    assert key([corpus], root) != original, "a changed pin recomputes everything"


def test_cached_pipeline_recomputes_for_a_renamed_file(tmp_path):
    corpus = copy_seed(tmp_path / "corpus")
    first = cached_pipeline([corpus], AnalysisSettings(), cache_dir=tmp_path / "cache")
    assert first.cache_key and set(first.papers["source_file"]) == {p.name for p in SEED_FILES}
    (corpus / SEED_FILES[0].name).rename(corpus / "renamed.txt")
    second = cached_pipeline([corpus], AnalysisSettings(), cache_dir=tmp_path / "cache")
    assert second.cache_key != first.cache_key
    assert "renamed.txt" in set(second.papers["source_file"])
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 2


def test_book_config_reads_every_setting(tmp_path):
    config = BookConfig.from_environment(
        {"BOOK_CORPUS": "x /abs/y", "THEMES_K": " 7 ", "BOOK_SEED": "3", "BOOK_ANALYSIS_CACHE": "c",
         "BOOK_FIGURE_DIR": "/f"}, root=tmp_path)
    assert config.corpus_paths == (tmp_path / "x", Path("/abs/y"))
    assert config.settings == AnalysisSettings(seed=3, themes=7)
    assert (config.cache_dir, config.figure_dir.as_posix()) == (tmp_path / "c", "/f")
    defaults = BookConfig.from_environment({}, root=tmp_path)
    assert defaults.corpus_paths == (tmp_path / "data" / "raw",)
    assert defaults.settings == AnalysisSettings()


@pytest.mark.parametrize("environment, message", [
    ({"THEMES_K": "eight"}, "THEMES_K: must be a whole number, got 'eight'"),
    ({"THEMES_K": "0"}, "--themes / THEMES_K: must be a whole number of at least 1, got 0"),
    ({"BOOK_SEED": "-1"}, "--seed / BOOK_SEED: must be a whole number of at least 0, got -1"),
])
def test_bad_book_settings_are_one_line_errors(environment, message, tmp_path):
    with pytest.raises(SettingsError) as error:
        BookConfig.from_environment(environment, root=tmp_path)
    assert str(error.value) == message


def test_too_many_themes_exits_2_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    result = run_in_process("analyse", str(SEED_DIR), "--out", str(out), "--themes", "500", "--quiet")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: --themes / THEMES_K: must be between 1 and 57 for this corpus (57 abstracts, 707 terms), got 500"]
    assert not out.exists()


def test_fingerprint_rejects_a_bad_themes_setting(monkeypatch):
    monkeypatch.setenv("THEMES_K", "many")
    result = run_in_process("fingerprint", str(SEED_DIR))
    assert (result.returncode, result.stderr.strip()) == (2, "error: THEMES_K: must be a whole number, got 'many'")


def test_a_corpus_too_small_for_themes_is_reported_not_an_error(tmp_path):
    corpus = tmp_path / "tiny.txt"
    corpus.write_text("Header\n\nWe study galaxies with a new telescope survey today.\n\n"
                      "We cook pasta with fresh tomato sauce and basil leaves.\n")
    result = run_in_process("analyse", str(corpus), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "note: no themes: themes need at least 4 abstracts; this corpus has 2")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["themes_message"] == "themes need at least 4 abstracts; this corpus has 2"
    assert (tmp_path / "out" / "themes.csv").read_text() == "theme,label,top_terms,n_papers,coherence,shown_coherence\n"


def test_two_processes_give_the_same_analysis(monkeypatch, seed_analysis):
    # Lower the size thresholds so the multi-process paths run on the seed corpus.
    monkeypatch.setattr(local, "MIN_PARALLEL_ITEMS", 10)
    monkeypatch.setattr(selection, "MIN_PARALLEL_DOCUMENTS", 10)
    one = seed_analysis  # n_jobs=1
    two = run_pipeline([SEED_DIR], AnalysisSettings(), n_jobs=2)
    assert local.worker_count(2, 57) == 2
    for name, table in one.tables().items():  # the CSV files must be byte-identical
        assert table.to_csv(index=False) == two.tables()[name].to_csv(index=False), name


def test_analysis_papers_join_every_stage(seed_analysis):
    analysis = seed_analysis
    assert list(analysis.papers.columns[-11:]) == [
        "theme", "theme_weight", "second_theme", "second_theme_weight", "mixed", "broad_theme", "broad_theme_weight",
        "link_state", "promised_too", "n_urls", "group"]
    assert analysis.papers["paper_id"].tolist() == analysis.corpus.papers["paper_id"].tolist()
    # Issue 38: parts among its top terms; issue 46: as the abstracts write them.
    assert analysis.themes.labels[1] == "neural networks · deep"
    assert analysis.summary["themes_k"] == 3 and not analysis.summary["themes_k_at_top"]
    assert analysis.summary["themes_min_theme_papers"] == 5 and analysis.summary["themes_size_floor_met"]
    assert list(analysis.timings) == ["parse", "text", "themes", "cooccurrence", "links"]
    assert analysis.summary["themes_message"] == "" and analysis.summary["unique_papers"] == 57
    # One group (the seed has no years): nothing compared, papers.csv and summary.json as before.
    assert analysis.group_order == ("all",) and analysis.group_by is None
    assert set(analysis.papers["group"]) == {"all"} and "group" not in analysis.tables()["papers"]
    assert "groups" not in analysis.summary and "group_by" not in analysis.summary["settings"]


@pytest.mark.parametrize("option, value, message", [
    ("--min-occurrences", "0", "error: --min-occurrences / BOOK_MIN_OCCURRENCES: must be a whole number of at least 1, got 0"),
    ("--relevant-share", "1.5", "error: --relevant-share / BOOK_RELEVANT_SHARE: must be a number above 0 and at most 1, got 1.5"),
    ("--jobs", "0", "error: --jobs: must be a whole number of at least 1, got 0"),
])
def test_bad_term_map_options_exit_2(option, value, message, tmp_path):
    result = run_in_process("analyse", str(SEED_DIR), "--out", str(tmp_path / "out"), option, value, "--quiet")
    assert (result.returncode, result.stderr.strip()) == (2, message)
    assert not (tmp_path / "out").exists()


def test_term_map_settings_reach_the_map():
    from helpers.analysis.cooccurrence import RELEVANT_SHARE

    assert AnalysisSettings().relevant_share == RELEVANT_SHARE
    analysis = run_pipeline([SEED_DIR], AnalysisSettings(min_occurrences=4, relevant_share=0.5))
    assert analysis.cooccurrence.settings.min_occurrences == 4
    assert analysis.cooccurrence.settings.relevant_share == 0.5
    # Issue 21: a multi-word term needs multi_word_min_occurrences(4) == 3 abstracts; stock and nested terms go;
    # half the eligible phrases and 0.3 times that share of the single words are kept, then the next best
    # terms of any length fill the map up to min(MIN_MAP_TERMS, half of all eligible terms).
    terms = analysis.cooccurrence.terms
    assert (terms["n_papers"].min(), len(terms)) == (3, 26)
    single = terms.loc[~terms["term"].str.contains(" "), "n_papers"]
    assert (len(single), int(single.min())) == (15, 4)  # every single word in at least min_occurrences (4)


class _FakeDistribution:
    def __init__(self, name: str, version: str, requires: list[str] | None = None) -> None:
        self.metadata = {"Name": name}
        self.version = version
        self.requires = requires


def test_environment_fingerprint_counts_only_what_the_pins_need(tmp_path):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("# pins\nalpha==1.0  # the analysis\n")
    base = [_FakeDistribution("alpha", "1.0", ["Beta_Lib>=2", "gamma; extra == 'docs'"]),
            _FakeDistribution("beta-lib", "2.1"), _FakeDistribution("gamma", "3.0")]
    fingerprint = environment_fingerprint(requirements, base)
    # JupyterLab installed beside the pins (make lab) changes nothing; so does the extra-only gamma.
    assert environment_fingerprint(requirements, base + [_FakeDistribution("jupyterlab", "4.6.6")]) == fingerprint
    upgraded = [base[0], _FakeDistribution("beta-lib", "2.2"), base[2]]
    assert environment_fingerprint(requirements, upgraded) != fingerprint
    assert dependency_closure(["alpha"], base) == {"alpha": "1.0", "beta-lib": "2.1"}


def test_chunks_hold_at_most_max_chunk_items(monkeypatch):
    """The local engine's chunks: four per worker, more when one would hold over MAX_CHUNK_ITEMS items."""
    monkeypatch.setattr(local, "MIN_PARALLEL_ITEMS", 10)
    monkeypatch.setattr(local, "MAX_CHUNK_ITEMS", 3)
    assert local.map_chunks(len, list(range(25)), n_jobs=2) == [3, 3, 3, 3, 3, 3, 3, 2, 2]
    monkeypatch.setattr(local, "MAX_CHUNK_ITEMS", 20)
    assert local.map_chunks(len, list(range(25)), n_jobs=2) == [4, 3, 3, 3, 3, 3, 3, 3]


def test_small_chunks_give_the_same_analysis(monkeypatch, seed_analysis):
    """Chunks of at most 7 papers (nine chunks of the seed corpus): the CSVs of one process in one piece."""
    one = seed_analysis  # n_jobs=1
    monkeypatch.setattr(local, "MIN_PARALLEL_ITEMS", 10)
    monkeypatch.setattr(local, "MAX_CHUNK_ITEMS", 7)
    assert local.chunk_count(57, 2) == 9
    chunked = run_pipeline([SEED_DIR], AnalysisSettings(), n_jobs=2)
    for name, table in one.tables().items():
        assert table.to_csv(index=False) == chunked.tables()[name].to_csv(index=False), name
