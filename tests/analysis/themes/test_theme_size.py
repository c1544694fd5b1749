"""Themes of a readable size: no theme under max(5 papers, 1% of the papers), and a chosen k at
the top of the searched range is said to be so."""

import numpy as np
import pandas as pd

from helpers.analysis.themes.k_range import k_at_top, min_theme_papers, theme_sizes
from helpers.analysis.themes.selection import choose_k


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


def extension_corpus():
    """150 abstracts on 30 topics of their own words, five abstracts a topic."""
    texts = [" ".join(f"topic{t}word{w}" for w in range(6)) + f" variant{i % 5}" for t in range(30) for i in range(5)]
    return pd.Series(texts, index=[f"p{i:03d}" for i in range(len(texts))])


def fake_select(best):
    """A selection whose coherence peaks at ``best`` (every candidate eligible and readable), as ``_select`` returns."""
    def select(tfidf, binary, vocabulary, ks, seeds, n_jobs, min_papers=0.0, qualified=False):
        table = pd.DataFrame({"k": ks, "smallest": 5, "coherence": [-abs(k - best) for k in ks], "diversity": 0.9,
                              "stability": 0.9})
        table["score"] = 0.5
        table["eligible"] = table["readable"] = True
        return table, {k: seeds[0] for k in ks}
    return select


def test_a_best_k_at_the_top_of_the_range_extends_the_search_above_it(monkeypatch):
    from helpers.analysis.themes import fit_themes, selection

    monkeypatch.setattr(selection, "_select", fake_select(23))
    fitted = fit_themes(extension_corpus())
    # candidate_ks(150) ends at 19; the search goes on at the same step up to the floor's 30 themes.
    assert fitted.settings.k_candidates == [3, 5, 7, 8, 10, 12, 14, 15, 17, 19, 21, 23, 25, 27, 29]
    assert fitted.settings.chosen_k == 23 and not fitted.settings.k_at_top
    assert fitted.selection["k"].tolist() == fitted.settings.k_candidates
    monkeypatch.setattr(selection, "_select", fake_select(100))
    still = fit_themes(extension_corpus())
    # Still best at the top of the extended range: chosen, and flagged as the largest searched.
    assert (still.settings.k_candidates[-1], still.settings.chosen_k, still.settings.k_at_top) == (29, 29, True)
    monkeypatch.setattr(selection, "_select", fake_select(10))
    inside = fit_themes(extension_corpus())
    assert inside.settings.k_candidates[-1] == 19 and inside.settings.chosen_k == 10


def test_the_book_s_selection_table_shows_the_size_floor():
    """Poultry (Scopus, 67 abstracts): k = 6 to 12 were 'eligible' with more coherence than the chosen k = 3, whose
    smallest theme alone reached the floor; the table must show why (smallest theme, eligible only above it)."""
    from helpers.book.reports.themes import selection_table

    table = pd.DataFrame({"k": [3, 6], "coherence": [0.22, 0.40], "diversity": [0.96, 0.91],
                          "stability": [0.99, 0.90], "score": [0.66, 0.70], "eligible": [True, True],
                          "smallest": [19, 3], "readable": [True, False], "chosen": [True, False]})
    shown = selection_table(table)
    assert shown.columns.tolist() == ["k", "coherence", "diversity", "stability", "score", "smallest theme",
                                      "eligible", "chosen"]
    assert shown["smallest theme"].tolist() == [19, 3]
    assert shown["eligible"].tolist() == [True, False]
    # A table without the floor's columns (an older cache) shows what it has.
    assert selection_table(table.drop(columns=["smallest", "readable"]))["eligible"].tolist() == [True, True]


def test_the_selection_figure_marks_each_k_under_the_size_floor():
    """Poultry: the figure circled k = 3, the least coherent, with nothing to show that k = 4 to 13 had a theme under
    the floor; each such k is now hollow in every panel."""
    from types import SimpleNamespace

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from helpers.book.reports.theme_figures import selection_figure

    selection = pd.DataFrame({"k": [3, 4, 5], "coherence": [0.2, 0.3, 0.4], "diversity": [0.9, 0.9, 0.9],
                              "stability": [0.9, 0.9, 0.9], "score": [0.5, 0.6, 0.7], "eligible": [True] * 3,
                              "smallest": [20, 3, 2], "readable": [True, False, False],
                              "chosen": [True, False, False]})
    settings = SimpleNamespace(min_diversity=0.8, min_stability=0.8, chosen_k=3, min_theme_papers=5)
    figure, _ = selection_figure(SimpleNamespace(selection=selection, settings=settings), "test")
    for axis in figure.axes:
        crossed = [c for c in axis.collections if c.get_label() == "under the size floor"]
        assert len(crossed) == 1 and crossed[0].get_offsets()[:, 0].tolist() == [4, 5]
    plt.close(figure)
