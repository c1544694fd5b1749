"""The word-intrusion test of the themes (benchmarks/word_intrusion.py): items built blind and scored exactly."""

import sys

import numpy as np
import pandas as pd

from tests.support import ROOT
sys.path.insert(0, str(ROOT / "benchmarks"))

from word_intrusion import ThemeTerms, build_items, intruder_candidates, score_answers  # noqa: E402

BANDIT = ("bandit", "regret", "arm", "reward", "exploration", "policy")
PROTEIN = ("protein", "molecule", "drug", "binding", "structure")
GRAPH = ("graph", "node", "graph neural network", "edge", "message passing")
THEMES = [
    ThemeTerms("c", "book", 3, 1, BANDIT, BANDIT),
    ThemeTerms("c", "book", 3, 2, PROTEIN, (*PROTEIN, "graph")),
    ThemeTerms("c", "book", 3, 3, GRAPH, (*GRAPH, "structure")),
    ThemeTerms("c", "LDA", 2, 1, ("model", "learning", "bandit", "data", "protein"), ("model", "learning", "bandit", "data", "protein")),
    ThemeTerms("c", "LDA", 2, 2, ("graph", "model", "molecule", "method", "node"), ("graph", "model", "molecule", "method", "node")),
]


def test_an_intruder_is_high_in_another_theme_of_the_same_model_and_low_in_its_own():
    # "graph" and "structure" are among the protein theme's strongest terms; the LDA themes are another model.
    assert intruder_candidates(THEMES[1], THEMES) == [
        "arm", "bandit", "edge", "exploration", "graph neural network", "message passing", "node", "regret", "reward"]
    # A term sharing a word with the theme's own terms ("graph neural network" beside "graph") never intrudes.
    graph_words = ThemeTerms("c", "m", 2, 1, ("graph", "edge"), ("graph", "edge"))
    other = ThemeTerms("c", "m", 2, 2, ("graph neural network", "protein"), ())
    assert intruder_candidates(graph_words, [graph_words, other], n_top=2, n_high=2) == ["protein"]


def test_items_are_deterministic_and_hide_the_model():
    items, key = build_items(THEMES)
    assert items.values.tolist() == [
        ["w1", "node", "drug", "edge", "graph", "graph neural network", "message passing"],
        ["w2", "model", "graph", "method", "molecule", "protein", "node"],
        ["w3", "graph", "model", "bandit", "learning", "data", "protein"],
        ["w4", "bandit", "regret", "exploration", "reward", "arm", "binding"],
        ["w5", "message passing", "drug", "protein", "binding", "molecule", "structure"]]
    assert key.values.tolist() == [
        ["w1", "c", "book", 3, 3, "drug"], ["w2", "c", "LDA", 2, 2, "protein"], ["w3", "c", "LDA", 2, 1, "graph"],
        ["w4", "c", "book", 3, 1, "binding"], ["w5", "c", "book", 3, 2, "message passing"]]
    # The items name neither the model nor the corpus, and the ids do not follow the models' order.
    assert items.columns.tolist() == ["item", "term_1", "term_2", "term_3", "term_4", "term_5", "term_6"]
    assert not set(items.to_numpy().ravel()) & {"book", "LDA", "c"}
    assert key["model"].tolist() != sorted(key["model"].tolist(), key=["book", "LDA"].index)
    again, again_key = build_items(THEMES)
    assert again.equals(items) and again_key.equals(key)
    # Another seed draws other intruders or another order.
    assert not build_items(THEMES, seed=1)[0].equals(items)


def test_a_theme_gets_the_same_item_whatever_else_is_built():
    _, key = build_items(THEMES)
    _, book_only = build_items(THEMES[:3])
    assert sorted(book_only["intruder"]) == sorted(key.loc[key["model"] == "book", "intruder"])


def test_the_scorer_gives_exact_precision_and_confidence_per_model():
    key = pd.DataFrame({"item": ["w1", "w2", "w3", "w4", "w5"], "corpus": ["a", "a", "a", "b", "b"],
                        "model": ["book", "LDA", "book", "book", "LDA"], "k": [2, 2, 2, 2, 2],
                        "theme": [1, 1, 2, 1, 1], "intruder": ["drug", "graph", "Bandit", "node", "data"]})
    # w3 matched whatever the case and spaces; w5 unanswered counts as missed; w1's second answer is ignored.
    answers = pd.DataFrame({"item": ["w1", "w1", "w2", "w3", "w4"], "intruder": ["drug", "node", "model", " bandit", "edge"],
                            "confidence": [3, 1, 1, 2, 2]})
    scores = score_answers(key, answers)
    assert scores[["corpus", "model", "items", "answered", "right", "precision"]].values.tolist() == [
        ["a", "LDA", 1, 1, 0, 0.0], ["a", "book", 2, 2, 2, 1.0], ["b", "LDA", 1, 0, 0, 0.0], ["b", "book", 1, 1, 0, 0.0],
        ["all", "LDA", 2, 1, 0, 0.0], ["all", "book", 3, 3, 2, 0.666667]]
    assert scores["mean_confidence_right"].tolist()[1] == 2.5 and scores["mean_confidence_right"].tolist()[5] == 2.5
    assert np.isnan(scores["mean_confidence_right"].tolist()[0])
    assert np.allclose(scores["mean_confidence_wrong"].to_numpy(), [1.0, np.nan, np.nan, 2.0, 1.0, 2.0], equal_nan=True)
