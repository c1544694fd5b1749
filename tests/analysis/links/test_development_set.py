"""The availability classifier against its development set (tests/evaluation/availability_claims.csv, labelled by
reading): the rules may be tuned on these sentences, so a high bar is kept here. The held-out set, on which
nothing may be tuned, has no score test (tests/analysis/links/test_heldout_scorer.py checks its form and the arithmetic)."""

from __future__ import annotations

import pytest

from tests.support import ROOT
from helpers.analysis.links.availability import STATEMENTS
from helpers.analysis.links.evaluation import confusion_matrix, evaluate_verdicts
from helpers.book.reports.links import evaluation_set

@pytest.fixture(scope="module")
def scores():
    labelled = evaluation_set(ROOT)
    assert labelled is not None and len(labelled) == 758
    return evaluate_verdicts(labelled).set_index("class")


def test_precision_and_recall_per_class(scores):
    assert scores.loc[list(STATEMENTS), ["precision", "recall"]].to_dict(orient="index") == {
        state: {"precision": 1.0, "recall": 1.0} for state in STATEMENTS}


def test_confusion_matrix(scores):
    # Every labelled sentence, by its label (rows) and the classifier's verdict (columns): a single
    # misclassified sentence fails, where a precision bound of 0.9 would let 6 of 60 linked claims go.
    labelled = evaluation_set(ROOT)
    assert confusion_matrix(labelled).to_dict(orient="index") == {
        "linked": {"linked": 60, "dangling": 0, "promised": 0, "none": 0},
        "dangling": {"linked": 0, "dangling": 5, "promised": 0, "none": 0},
        "promised": {"linked": 0, "dangling": 0, "promised": 1, "none": 0},
        "none": {"linked": 0, "dangling": 0, "promised": 0, "none": 692},
    }


def test_the_set_covers_every_class_with_its_counts(scores):
    assert scores["support"].to_dict() == {"linked": 60, "dangling": 5, "promised": 1, "none": 692}
