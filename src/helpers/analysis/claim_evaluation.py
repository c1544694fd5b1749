"""Scores of the availability classifier on labelled sentences: a development set and a held-out set.

``tests/evaluation/availability_claims.csv`` is the **development** set: the grammar's rules were extended
for what a first blind run on it missed, so its scores are not blind. ``tests/evaluation/availability_heldout.csv``
is the **held-out** set: sentences of other abstracts (ICML 2023 and 2025), labelled by reading before the
classifier was run on them and never tuned on; its score is the honest one. Both are scored alike:

1. :func:`with_context` gives each sentence the other labelled sentences of its abstract as context (every
   sentence with a URL is labelled, so a claim that points elsewhere finds the URL);
2. :func:`class_scores` counts, per class, the labelled sentences (support), the sentences predicted, the
   correct ones, and derives precision, recall and F1, with Wilson 95% intervals for precision and recall
   (few dangling and promised sentences: the intervals say how little their scores rest on);
3. :func:`score_sets` stacks the scores of several named sets (``benchmarks/availability_heldout.py``
   writes them to ``benchmarks/results/availability_heldout.csv``; the Validation page shows them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

from helpers.analysis.availability import STATEMENTS, classify_sentence
from helpers.analysis.statistics import wilson_interval

__all__ = ["SCORE_COLUMNS", "HELDOUT_COLUMNS", "class_scores", "with_context", "load_heldout", "predict",
           "score_sets"]

#: The columns of :func:`class_scores`, in order.
SCORE_COLUMNS = ["class", "support", "predicted", "correct", "precision", "precision_low", "precision_high",
                 "recall", "recall_low", "recall_high", "f1"]
#: The columns of the held-out file, in order.
HELDOUT_COLUMNS = ["corpus", "key", "sentence_no", "sentence", "class", "why", "drawn"]


def class_scores(labels: Sequence[str], predicted: Sequence[str]) -> pd.DataFrame:
    """Precision, recall and F1 per class of :data:`~helpers.analysis.availability.STATEMENTS`, with counts and
    Wilson 95% intervals (one row per class, columns :data:`SCORE_COLUMNS`).

    ``precision = correct / predicted`` and ``recall = correct / support`` are NaN (with their intervals)
    when their denominator is 0; ``f1`` is NaN unless both are defined and not both 0.

    Examples
    --------
    >>> scores = class_scores(["linked", "linked", "none", "dangling"], ["linked", "none", "none", "linked"])
    >>> linked = scores.set_index("class").loc["linked"]
    >>> [int(linked[c]) for c in ("support", "predicted", "correct")]
    [2, 2, 1]
    >>> [float(linked[c]) for c in ("precision", "recall")]
    [0.5, 0.5]
    >>> scores.set_index("class").loc["promised", ["support", "predicted"]].tolist()
    [0, 0]
    """
    if len(labels) != len(predicted):
        raise ValueError(f"{len(labels)} labels but {len(predicted)} predictions")
    unknown = sorted((set(labels) | set(predicted)) - set(STATEMENTS))
    if unknown:
        raise ValueError(f"unknown class(es) {unknown}; allowed: {', '.join(STATEMENTS)}")
    pairs = list(zip(labels, predicted))
    rows = []
    for name in STATEMENTS:
        support = sum(label == name for label, _ in pairs)
        guessed = sum(guess == name for _, guess in pairs)
        correct = sum(label == guess == name for label, guess in pairs)
        precision = correct / guessed if guessed else float("nan")
        recall = correct / support if support else float("nan")
        f1 = (2 * precision * recall / (precision + recall)
              if guessed and support and precision + recall else float("nan"))
        rows.append([name, support, guessed, correct, precision, *wilson_interval(correct, guessed),
                     recall, *wilson_interval(correct, support), f1])
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)


def with_context(labelled: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """``labelled`` with an ``abstract`` column: the labelled sentences of the same abstract (rows sharing the
    ``by`` columns), joined by spaces in the file's order.

    Examples
    --------
    >>> rows = pd.DataFrame({"key": ["a", "b", "a"], "sentence": ["One.", "Two.", "Three."]})
    >>> with_context(rows, ["key"])["abstract"].tolist()
    ['One. Three.', 'Two.', 'One. Three.']
    """
    joined = labelled.groupby(by, sort=False)["sentence"].agg(" ".join).rename("abstract")
    return labelled.join(joined, on=by)


def load_heldout(path: Path) -> pd.DataFrame:
    """The held-out set (columns :data:`HELDOUT_COLUMNS`), each sentence with its abstract's other labelled
    sentences as context (:func:`with_context` by ``corpus, key``).

    Raises
    ------
    ValueError
        When a column is missing or a class is not one of
        :data:`~helpers.analysis.availability.STATEMENTS`.
    """
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in HELDOUT_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}")
    unknown = sorted(set(table["class"]) - set(STATEMENTS))
    if unknown:
        raise ValueError(f"{path}: unknown class(es) {unknown}; allowed: {', '.join(STATEMENTS)}")
    return with_context(table, ["corpus", "key"])


def predict(labelled: pd.DataFrame) -> list[str]:
    """The classifier's class of each row (``sentence`` with its ``abstract`` as context)."""
    return [classify_sentence(s, a).statement for s, a in zip(labelled["sentence"], labelled["abstract"])]


def score_sets(sets: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`class_scores` of the classifier on each named labelled set, stacked: a ``set`` column first.

    Examples
    --------
    >>> rows = pd.DataFrame({"sentence": ["Code is public.", "We win."], "abstract": ["", ""],
    ...                      "class": ["dangling", "none"]})
    >>> score_sets({"toy": rows})[["set", "class", "support", "correct"]].values.tolist()[:2]
    [['toy', 'linked', 0, 0], ['toy', 'dangling', 1, 1]]
    """
    frames = [class_scores(list(table["class"]), predict(table)).assign(set=name) for name, table in sets.items()]
    return pd.concat(frames, ignore_index=True)[["set", *SCORE_COLUMNS]]
