"""Themes of a readable size (issue 46, item 5): no theme under max(5 papers, 1% of the papers), and a chosen k at
the top of the searched range is said to be so."""

import numpy as np
import pandas as pd

from helpers.analysis.themes.selection import choose_k, k_at_top, min_theme_papers, theme_sizes


def test_floor_is_five_papers_or_one_percent():
    assert [min_theme_papers(n) for n in (10, 57, 497, 500, 501, 856, 10_000)] == [5, 5, 5, 5, 6, 9, 100]


def test_theme_sizes_count_each_paper_once_in_its_strongest_theme():
    weights = np.array([[0.0, 0.3, 0.7], [0.6, 0.4, 0.0], [0.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.1, 0.0, 0.2]])
    assert theme_sizes(weights).tolist() == [2, 0, 2]


def test_a_k_with_a_theme_under_the_floor_is_not_chosen_even_when_most_coherent():
    # Chemistry at 30 themes: the most coherent k had themes of 2 papers.
    table = pd.DataFrame({"k": [10, 20, 30], "coherence": [0.30, 0.35, 0.40], "score": [0.2, 0.5, 0.9],
                          "eligible": [True, True, True], "smallest": [12, 6, 2], "readable": [True, True, False]})
    assert choose_k(table) == 20
    assert choose_k(table.assign(readable=[True, False, False])) == 10
    # No k reaches the floor: the k whose smallest theme is largest (ties to the smaller k).
    assert choose_k(table.assign(readable=False, smallest=[4, 4, 2])) == 10


def test_k_at_the_top_of_the_range_is_flagged_unless_given():
    assert k_at_top([3, 6, 9, 12], 12, k_given=False)
    assert not k_at_top([3, 6, 9, 12], 9, k_given=False)
    assert not k_at_top([12], 12, k_given=True)


def test_a_k_at_the_top_of_the_range_is_not_called_chosen(seed_analysis):
    import dataclasses

    from helpers.analysis.pipeline import ThemesResult
    from helpers.book.reports.themes import theme_findings

    analysis = seed_analysis
    assert theme_findings(analysis)["themes_k_how"] == "was chosen by the rule above"
    assert analysis.summary["themes_k_at_top"] is False
    model = analysis.themes.model
    at_top = dataclasses.replace(model, settings=dataclasses.replace(model.settings, k_at_top=True))
    flagged = dataclasses.replace(analysis, themes=ThemesResult(at_top))
    assert theme_findings(flagged)["themes_k_how"] == (
        "is the largest candidate searched, so the rule's best may lie above it (it was not chosen among more)")
    assert flagged.summary["themes_k_at_top"] is True
