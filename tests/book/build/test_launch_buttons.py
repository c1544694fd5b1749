"""Launch buttons (Binder) come from CITATION.cff's repository-code; without it there are none and the Cite page says
how to set one."""

from types import SimpleNamespace

import pytest

from helpers.book.build.citation import BINDER_URL, parse_citation
from helpers.book.reports.reproduce import launch_sentence
from helpers.book.build.sphinx_ext import _launch_buttons

CFF = 'title: "A book"\nversion: 1.0\ndate-released: 2026-12-02\nauthors:\n  - name: "T"\n'
BOOK_OPTIONS = {"launch_buttons": {"notebook_interface": "classic", "thebe": False}, "home_page_in_toc": True}


def theme_options(tmp_path, cff):
    (tmp_path / "CITATION.cff").write_text(cff, encoding="utf-8")
    config = SimpleNamespace(html_theme_options={key: (dict(value) if isinstance(value, dict) else value)
                                                 for key, value in BOOK_OPTIONS.items()})
    _launch_buttons(SimpleNamespace(srcdir=str(tmp_path)), config)
    return config.html_theme_options


def test_a_repository_address_gives_every_chapter_a_binder_button(tmp_path):
    options = theme_options(tmp_path, CFF + "repository-code: https://github.com/soil-lab/abstracts-book/\n")
    assert options == {"launch_buttons": {"notebook_interface": "jupyterlab", "thebe": False,
                                          "binderhub_url": BINDER_URL},
                       "home_page_in_toc": True, "repository_url": "https://github.com/soil-lab/abstracts-book",
                       "repository_branch": "HEAD"}
    assert launch_sentence(parse_citation(CFF + "repository-code: https://gitlab.com/a/b\n").repository_code) == (
        "Each chapter has a launch button (the rocket at the top of the page) that opens it as a notebook on "
        "Binder, from the repository https://gitlab.com/a/b named in `CITATION.cff`.")


def test_without_a_repository_address_there_is_no_button_and_the_cite_page_says_how_to_set_one(tmp_path):
    assert theme_options(tmp_path, CFF) == BOOK_OPTIONS
    assert parse_citation(CFF).repository_code == ""
    assert "`repository-code: https://github.com/OWNER/REPO`" in launch_sentence("")


def test_a_repository_address_binder_cannot_launch_is_a_one_line_error(tmp_path):
    with pytest.raises(ValueError, match="^CITATION.cff: repository-code must be a https://github.com/OWNER/REPO"):
        theme_options(tmp_path, CFF + "repository-code: ftp://example.org/book\n")
