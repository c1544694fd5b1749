"""The availability classifier against the sentences labelled by reading (tests/evaluation/)."""

from __future__ import annotations

import pytest

from conftest import ROOT
from helpers.analysis.availability import STATEMENTS, evaluate_verdicts
from helpers.book.reports.links import evaluation_set

MIN_SCORE = 0.9


@pytest.fixture(scope="module")
def scores():
    labelled = evaluation_set(ROOT)
    assert labelled is not None and len(labelled) == 758
    return evaluate_verdicts(labelled).set_index("class")


@pytest.mark.parametrize("state", STATEMENTS)
def test_precision_and_recall_per_class(scores, state):
    row = scores.loc[state]
    assert row["support"] > 0
    assert row["precision"] >= MIN_SCORE, f"{state}: precision {row['precision']:.2f}"
    assert row["recall"] >= MIN_SCORE, f"{state}: recall {row['recall']:.2f}"


def test_the_set_covers_every_class_with_its_counts(scores):
    assert scores["support"].to_dict() == {"linked": 60, "dangling": 5, "promised": 1, "none": 692}
