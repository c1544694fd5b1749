"""The book's build key covers every file a page reads: the corpus, the metadata CSV and the saved link checks."""

import shutil

from tests.support import ROOT, SEED_DIR, benchmark_results
from helpers.book.settings import BookConfig, book_key, page_inputs


def book_folder(tmp_path):
    (tmp_path / "_config.yml").write_text("title: t\n")
    shutil.copytree(SEED_DIR, tmp_path / "data" / "raw")
    shutil.copy(ROOT / "data" / "icml2024-seed-metadata.csv", tmp_path / "data")
    return BookConfig.from_environment({}, root=tmp_path)


def test_editing_the_metadata_changes_the_key(tmp_path):
    config = book_folder(tmp_path)
    before = book_key(config)
    assert book_key(config) == before
    metadata = tmp_path / "data" / "icml2024-seed-metadata.csv"
    metadata.write_text(metadata.read_text().replace("Learning", "Leaning", 1))
    assert book_key(config) != before


def test_a_new_link_check_changes_the_key(tmp_path):
    config = book_folder(tmp_path)
    before = book_key(config)
    checks = tmp_path / "data" / "linkcheck"
    checks.mkdir()
    (checks / "linkcheck-20261203T000000Z.csv").write_text("url,status,http_code,final_url,checked_at\n")
    assert page_inputs(tmp_path) == [tmp_path / "data" / "icml2024-seed-metadata.csv",
                                     checks / "linkcheck-20261203T000000Z.csv"]
    assert book_key(config) != before


def test_the_fingerprint_command_prints_the_book_key(tmp_path):
    import os
    import subprocess
    import sys

    config = book_folder(tmp_path)
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith("BOOK_") and name != "THEMES_K"}
    result = subprocess.run([sys.executable, "-m", "helpers", "fingerprint", "data/raw"], cwd=tmp_path,
                            capture_output=True, text=True, check=True, env=environment)
    assert result.stdout.strip() == book_key(config)


def test_the_term_quality_results_change_the_key(tmp_path):
    config = book_folder(tmp_path)
    before = book_key(config)
    results = benchmark_results(tmp_path)
    (results / "term_quality.csv").write_text("corpus,n_abstracts,ranking\n")
    assert page_inputs(tmp_path)[-1] == results / "term_quality.csv"
    assert book_key(config) != before


def append_row(path):
    """Append a copy of ``path``'s last line: one more row of the same shape."""
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines, lines[-1]]) + "\n", encoding="utf-8")


def test_a_new_benchmark_row_changes_the_key(tmp_path):
    config = book_folder(tmp_path)
    shutil.copytree(ROOT / "benchmarks", tmp_path / "benchmarks", ignore=shutil.ignore_patterns("*.py", "*.png"))
    before = book_key(config)
    for name in ["results.csv", "large_results.csv", "book_results.csv"]:
        append_row(tmp_path / "benchmarks" / name)
        after = book_key(config)
        assert after != before, name
        before = after


def test_a_new_evaluation_row_changes_the_key(tmp_path):
    config = book_folder(tmp_path)
    shutil.copytree(ROOT / "tests" / "evaluation", tmp_path / "tests" / "evaluation")
    before = book_key(config)
    append_row(tmp_path / "tests" / "evaluation" / "availability_first_run.csv")
    assert book_key(config) != before


def test_the_base_url_changes_the_key_and_a_bad_one_is_refused(tmp_path):
    import pytest
    from helpers.analysis.settings import SettingsError

    config = book_folder(tmp_path)
    published = BookConfig.from_environment({"BOOK_BASE_URL": "https://example.org/book"}, root=tmp_path)
    assert published.base_url == "https://example.org/book/"
    assert book_key(published) != book_key(config)
    assert book_key(BookConfig.from_environment({"BOOK_BASE_URL": " "}, root=tmp_path)) == book_key(config)
    with pytest.raises(SettingsError, match="BOOK_BASE_URL: must start with http:// or https://, got 'ftp://x'"):
        BookConfig.from_environment({"BOOK_BASE_URL": "ftp://x"}, root=tmp_path)
