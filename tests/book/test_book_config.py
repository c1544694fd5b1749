"""The book reads every setting of the environment once, in BookConfig: the title and the notebook flags too."""

import os
from pathlib import Path

from helpers.book.lab import notebook as lab_notebook
from helpers.book.build.title import book_title, citation_title, figure_label, given_title
from helpers.book.settings import BookConfig, config


def test_the_title_and_the_notebook_flags_are_read_by_book_config():
    read = BookConfig.from_environment({"BOOK_TITLE": "  Birds on farms ", "BOOK_NOTEBOOK": "1"}, root=Path("/b"))
    assert (read.title, read.notebook, read.lab_prose, read.notebook_figures) == ("Birds on farms", True, True, True)
    other_jupyter = BookConfig.from_environment({"JPY_SESSION_NAME": "links.md", "BOOK_FIGURE_DIR": "f"},
                                                root=Path("/b"))
    assert (other_jupyter.title, other_jupyter.notebook, other_jupyter.lab_prose,
            other_jupyter.notebook_figures, other_jupyter.cells_show_values) == (None, True, False, False, True)
    book_build = BookConfig.from_environment({"BOOK_TITLE": " "}, root=Path("/b"))
    assert (book_build.title, book_build.notebook, book_build.cells_show_values) == (None, False, False)


def test_the_pages_title_follows_the_books_setting(monkeypatch):
    monkeypatch.setattr("helpers.book.settings._page_config", None)
    monkeypatch.setenv("BOOK_TITLE", "Birds on farms")
    assert config().title == given_title() == "Birds on farms"
    monkeypatch.setenv("BOOK_TITLE", "")
    assert given_title() is None
    assert given_title(" Poultry ") == "Poultry"


def test_a_given_title_names_the_book_its_figures_and_its_citation(monkeypatch):
    class Unnamed:  # an analysis whose name would need its corpus: never asked for when a title is given
        def __getattr__(self, name):
            raise AssertionError(name)

    monkeypatch.setattr("helpers.book.settings._page_config", None)
    monkeypatch.setenv("BOOK_TITLE", "Traffic safety")
    assert [book_title(Unnamed()), figure_label(Unnamed()), citation_title(Unnamed())] == ["Traffic safety"] * 3
    assert book_title(Unnamed(), "Poultry") == "Poultry"


def test_only_the_error_handler_reads_the_notebook_flag_outside_book_config():
    """The notebook's one-line errors are set up at import, before any setting is read (a bad one is one line too)."""
    source = Path(lab_notebook.__file__).read_text(encoding="utf-8")
    assert source.count("os.environ") == 1 and "in_notebook(os.environ)" in source
    assert lab_notebook.in_notebook(dict(os.environ, BOOK_NOTEBOOK="1"))
