"""The upward search of the number of themes stops at the first k under the diversity threshold, or after two ks
under the size floor, once a smaller k qualifies (helpers.analysis.themes.selection.search_done): the larger ks are
never fitted."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from helpers.analysis.themes import selection


@pytest.fixture
def fitted(monkeypatch):
    """Runs whose diversity is ``1 - k / 50`` (under 0.8 from k = 11) and whose stability is ``stable``; the ks
    fitted, seed by seed."""
    fits: list[tuple[int, int]] = []
    state = {"stable": 0.9}

    def run(tfidf, k, seed):
        fits.append((k, seed))
        return selection._Run(np.full((k, 4), 1.0 + seed), float(k + seed), 10)

    monkeypatch.setattr(selection, "_selection_run", run)
    monkeypatch.setattr(selection, "_scores", lambda components, vocabulary, binary:
                        ([0.1 * len(components)], 1 - len(components) / 50))
    monkeypatch.setattr(selection, "stability", lambda runs: state["stable"])
    return fits, state


def select(ks, min_papers=0.0, qualified=False):
    tfidf = sparse.csr_matrix(np.ones((6, 4)))
    return selection._select(tfidf, tfidf, np.array(list("abcd")), ks, [0, 1, 2], 1, min_papers, qualified)


def test_the_search_stops_at_the_first_k_under_the_diversity_threshold(fitted):
    fits, _ = fitted
    table, best_seeds = select([15, 3, 6, 12, 9, 18])
    assert table["k"].tolist() == [3, 6, 9, 12]
    assert fits == [(k, seed) for k in (3, 6, 9, 12) for seed in (0, 1, 2)]
    assert table["eligible"].tolist() == [True, True, True, False]
    assert best_seeds == {3: 0, 6: 0, 9: 0, 12: 0}
    assert selection.choose_k(table) == 9


def test_the_search_goes_on_while_no_smaller_k_qualifies(fitted):
    fits, state = fitted
    # No k holds themes of the floor's size: every k is searched.
    assert select([3, 6, 9, 12, 15], min_papers=11)[0]["k"].tolist() == [3, 6, 9, 12, 15]
    state["stable"] = 0.5  # nothing stable enough
    assert select([3, 12, 15])[0]["k"].tolist() == [3, 12, 15]
    # ... unless an earlier search (the range below an extension) found one that qualifies.
    assert select([12, 15], qualified=True)[0]["k"].tolist() == [12]
    assert len(fits) == 3 * (5 + 3 + 1)


def test_the_search_stops_after_two_ks_under_the_size_floor(fitted, monkeypatch):
    fits, _ = fitted

    def run(tfidf, k, seed):  # the smallest theme shrinks as k grows: 21, 15, 9, 6, 3 and 0 papers
        fits.append((k, seed))
        return selection._Run(np.full((k, 4), 1.0 + seed), float(k + seed), 30 - 3 * k)

    monkeypatch.setattr(selection, "_selection_run", run)
    table, _ = select([3, 5, 7, 8, 9, 10], min_papers=10)
    assert table["k"].tolist() == [3, 5, 7, 8]
    assert fits == [(k, seed) for k in (3, 5, 7, 8) for seed in (0, 1, 2)]
    assert table["readable"].tolist() == [True, True, False, False]
    assert selection.choose_k(table) == 5
