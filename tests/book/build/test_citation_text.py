"""Citation text and BibTeX entries never break a word across lines ("co- occurring")."""

import re

import pytest

from helpers.book.build.citation import book_bibtex, parse_citation, wrap_words
from helpers.book.figures import figure_bibtex

TITLE = "Co-occurring terms and link-availability in road-safety abstracts: a well-known co-occurrence study"
CITATION = parse_citation(f'title: "{TITLE}"\nversion: 1.0\ndate-released: 2026-12-02\nauthors:\n'
                          '  - name: "The cross-field team"\n')


def words(text):
    """The words of an entry as a reader reads them, lines joined with a space (as BibTeX and LaTeX join them)."""
    return " ".join(line.strip() for line in text.splitlines()).split()


@pytest.mark.parametrize("width", [40, 50, 60, 72])
def test_bibtex_entries_keep_every_hyphenated_word_whole(width):
    entries = [figure_bibtex("fig-a-b", "a", "A caption", version="1", corpus_sha256="0" * 64, year="2026",
                             title=TITLE, width=width),
               book_bibtex(CITATION, corpus_sha256="ab" * 32, width=width)]
    for entry in entries:
        shown = words(entry)
        for word in ["Co-occurring", "link-availability", "road-safety", "well-known", "co-occurrence"]:
            assert any(word in token for token in shown), (word, width, entry)
        assert not [line for line in entry.splitlines() if re.search(r"\w-$", line.rstrip())], entry


def test_wrap_words_never_splits_a_word_even_when_longer_than_the_width():
    assert wrap_words("a co-occurring term", 8) == ["a", "co-occurring", "term"]
    assert wrap_words("x " * 3 + "https://example.org/a-very-long-path", 10) == [
        "x x x", "https://example.org/a-very-long-path"]
