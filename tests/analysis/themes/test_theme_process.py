"""The theme selection's fits in a forked process while the caller works: the same table and themes as in one
thread, its errors raised in the caller, and no process left behind."""

from __future__ import annotations

import multiprocessing
import os

import pandas as pd
import pytest

from helpers.analysis.themes import ThemeOptions, fit_themes, forked, model

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="the selection runs in a forked process only where processes fork")


def _pid_and_sum(values: list[int]) -> tuple[int, int]:
    return os.getpid(), sum(values)


def _fails(message: str) -> None:
    raise ValueError(message)


def test_a_forked_call_returns_its_value_from_another_process():
    before = set(multiprocessing.active_children())  # joblib's workers of earlier tests may be there
    pid, total = forked._in_forked_process(_pid_and_sum, [1, 2, 3])
    assert (pid != os.getpid(), total) == (True, 6)
    assert set(multiprocessing.active_children()) <= before


def test_a_forked_call_s_error_is_raised_in_the_caller():
    before = set(multiprocessing.active_children())
    with pytest.raises(ValueError, match="no themes here"):
        forked._in_forked_process(_fails, "no themes here")
    assert set(multiprocessing.active_children()) <= before


def _texts() -> pd.Series:
    topics = [["polymer", "membrane", "coating", "film"], ["traffic", "crash", "driver", "speed"],
              ["broiler", "poultry", "feed", "flock"]]
    texts = [" ".join(words[(i + j) % 4] for j in range(6)) + f" sample{i % 5}"
             for i in range(30) for words in topics]
    return pd.Series(texts, index=[f"p{i}" for i in range(len(texts))])


def test_the_selection_in_a_process_gives_the_themes_of_one_thread(monkeypatch):
    calls = []

    def recorded(*args):
        calls.append(args[0].__name__)
        return forked._in_forked_process(*args)

    monkeypatch.setattr(model, "_in_forked_process", recorded)
    in_process = fit_themes(_texts(), ThemeOptions(n_jobs=2))
    one_thread = fit_themes(_texts(), ThemeOptions(n_jobs=1))
    assert calls == ["_search"]
    pd.testing.assert_frame_equal(in_process.selection, one_thread.selection)
    pd.testing.assert_frame_equal(in_process.themes, one_thread.themes)
    pd.testing.assert_frame_equal(in_process.weights, one_thread.weights)
    assert in_process.settings == one_thread.settings
