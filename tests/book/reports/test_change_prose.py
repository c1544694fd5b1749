"""What changed reads as prose: the count of new terms introduces its list with a colon (poultry, Scopus: "4 of 50;
artificial intelligence (5); ..." read as a slip), and with no new term the sentence does not say "none" twice."""

from types import SimpleNamespace

import pandas as pd

from tests.support import ROOT
from helpers.book.reports.change import new_terms_sentence


def test_the_count_of_new_terms_introduces_its_list():
    chapter = (ROOT / "chapters" / "change.md").read_text(encoding="utf-8")
    assert "{glue:text}`change_n_terms`: {glue:md}`change_new_sentence`" in chapter.replace("\n", " ")


def test_new_terms_sentence_lists_them_or_says_every_term_is_older():
    terms = pd.DataFrame({"term": ["perception", "robot technology", "feed"], "new_in_latest": [True, True, False],
                          "n_latest": [4, 3, 5]})
    change = SimpleNamespace(terms=terms, groups=("2014–2020", "2021–2023"))
    assert new_terms_sentence(change, str) == "*perception* (4); *robot technology* (3)"
    older = SimpleNamespace(terms=terms.assign(new_in_latest=False), groups=change.groups)
    assert new_terms_sentence(older, str) == "every map term already occurs before 2021–2023"


def test_the_figure_index_names_the_prevalence_intervals_as_the_figure_does():
    """The figure index called them 'bootstrap intervals'; the figure and its caption draw Wilson 95% intervals."""
    from helpers.book.figures import GROUP_FIGURES

    titles = {label: title for label, _, title in GROUP_FIGURES}
    assert titles["fig-change-prevalence"] == "Theme shares per group, with Wilson 95% intervals"
