"""A bad setting is named by the analysis (its option); the book and the command line add the book's variable."""

import re
from pathlib import Path

import pytest

from helpers.analysis.settings import OPTIONS, AnalysisSettings, EngineSettings, SettingsError
from helpers.book.settings import ENVIRONMENT_NAMES, BookConfig, book_named
from helpers.cli import main

ROOT = Path(__file__).resolve().parents[2]
ANALYSIS = ROOT / "src" / "helpers" / "analysis"


def test_the_analysis_names_a_setting_by_its_option_only():
    with pytest.raises(SettingsError) as raised:
        AnalysisSettings(themes=0)
    assert (str(raised.value), raised.value.setting, raised.value.problem) == (
        "--themes: must be a whole number of at least 1, got 0", "themes",
        "must be a whole number of at least 1, got 0")
    with pytest.raises(SettingsError) as raised:
        EngineSettings(partitions=0)
    assert str(raised.value) == "--partitions: must be a whole number of at least 1, got 0"


def test_the_book_names_its_variable_beside_the_option():
    with pytest.raises(SettingsError) as raised:
        BookConfig.from_environment({"BOOK_RELEVANT_SHARE": "1.5"})
    assert str(raised.value) == ("--relevant-share / BOOK_RELEVANT_SHARE: must be a number above 0 and at most 1, "
                                 "got 1.5")
    assert raised.value.setting == "relevant_share"
    # Named twice, the same line; an error without a setting stays as it is.
    assert str(book_named(raised.value)) == str(raised.value)
    plain = SettingsError("BOOK_BASE_URL: must start with http:// or https://, got 'x'")
    assert book_named(plain) is plain


def test_the_command_line_names_both(capsys, tmp_path):
    assert main(["analyse", str(ROOT / "data" / "raw"), "--out", str(tmp_path / "out"), "--min-occurrences", "0", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "error: --min-occurrences / BOOK_MIN_OCCURRENCES: must be a whole number of at least 1, got 0\n")
    assert not (tmp_path / "out").exists()


def test_every_book_variable_names_a_setting_of_the_analysis():
    assert set(ENVIRONMENT_NAMES) <= set(OPTIONS)


def test_the_analysis_settings_spell_no_book_variable():
    text = (ANALYSIS / "settings.py").read_text(encoding="utf-8")
    assert re.findall(r"\bBOOK_[A-Z_]+|\bTHEMES_K\b", text) == []
