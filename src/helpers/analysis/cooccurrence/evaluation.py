"""How good the term map's terms are, measured against terms labelled by reading (``tests/evaluation/``).

The labels (``term_labels.csv``: ``term,label,note``, label ``F`` field term, ``G`` generic,
``X`` not a term) and the landmarks (``landmarks.csv``: ``term,why``) were written by a reader who
had not seen the map (``tests/evaluation/TERMS.md``). :func:`map_quality` compares one
:class:`~helpers.analysis.cooccurrence.result.CooccurrenceResult` with them.
"""

from __future__ import annotations

import csv
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from helpers.analysis.cooccurrence.result import CooccurrenceResult, strongest_pairs

LABELS = ("F", "G", "X")

_SPACES = re.compile(r"[\s-]+")


def term_key(term: str) -> str:
    """How labelled and found terms are compared: lower case, a hyphen counts as a space.

    Examples
    --------
    >>> term_key("Chain-of-Thought"), term_key("chain of  thought")
    ('chain of thought', 'chain of thought')
    """
    return _SPACES.sub(" ", str(term).strip().lower())


def one_inside_other(first: str, second: str) -> bool:
    """Whether one term is a run of the other's words.

    Examples
    --------
    >>> one_inside_other("language model", "large language model"), one_inside_other("model", "modeling")
    (True, False)
    """
    return f" {first} " in f" {second} " or f" {second} " in f" {first} "


def read_term_labels(path: str | Path) -> dict[str, str]:
    """``term -> label`` from a ``term,label,note`` CSV; a bad row is a one-line error naming file and line."""
    path = Path(path)
    labels: dict[str, str] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or not {"term", "label"} <= set(reader.fieldnames):
            raise ValueError(f"{path}: line 1: expected the header 'term,label,note'")
        for line, row in enumerate(reader, start=2):
            label = (row["label"] or "").strip()
            if label not in LABELS or not (row["term"] or "").strip():
                raise ValueError(f"{path}: line {line}: label must be one of {', '.join(LABELS)}, got {label!r}")
            labels[term_key(row["term"])] = label
    return labels


def read_landmarks(path: str | Path) -> list[str]:
    """The landmark terms of a ``term,why`` CSV, in file order."""
    path = Path(path)
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or "term" not in reader.fieldnames:
            raise ValueError(f"{path}: line 1: expected the header 'term,why'")
        return [term_key(row["term"]) for row in reader if (row["term"] or "").strip()]


def read_landmark_fields(path: str | Path) -> dict[str, str]:
    """``term -> sub-field`` from a ``field,term`` CSV (terms as :func:`term_key` compares them)."""
    path = Path(path)
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or not {"field", "term"} <= set(reader.fieldnames):
            raise ValueError(f"{path}: line 1: expected the header 'field,term'")
        return {term_key(row["term"]): row["field"].strip() for row in reader if (row["term"] or "").strip()}


@dataclass(frozen=True)
class MapQuality:
    """The term map measured against the labels.

    Attributes
    ----------
    n_terms : terms on the map.
    n_labelled, n_unlabelled : map terms with and without a label.
    field_share, generic_share, not_term_share : shares of the labelled map terms labelled F, G, X.
    multi_word_share : share of the map terms of more than one word.
    landmark_recall : share of the landmarks on the map (``n_landmarks_found`` of ``n_landmarks``).
    nested_top_pairs : pairs among the strongest 20 where one term contains the other.
    generic_single_communities : communities of one term that is not labelled F.
    n_communities : communities of the map.
    """

    n_terms: int
    n_labelled: int
    n_unlabelled: int
    field_share: float
    generic_share: float
    not_term_share: float
    multi_word_share: float
    landmark_recall: float
    n_landmarks_found: int
    n_landmarks: int
    nested_top_pairs: int
    generic_single_communities: int
    n_communities: int

    def as_row(self) -> dict[str, float | int]:
        return {k: round(v, 6) if isinstance(v, float) else v for k, v in asdict(self).items()}


def map_quality(result: CooccurrenceResult, labels: dict[str, str], landmarks: list[str]) -> MapQuality:
    """:class:`MapQuality` of ``result`` (labels and landmarks keyed by :func:`term_key`).

    Examples
    --------
    >>> import pandas as pd
    >>> from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> raw = pd.Series({"a": "Graph kernels and quantum kernels.", "b": "Graph kernels, quantum kernels."})
    >>> options = TermMapOptions(min_occurrences=2, relevant_share=1.0)
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text), options)
    >>> quality = map_quality(result, {"graph kernel": "F", "quantum kernel": "G"}, ["graph kernel", "regret"])
    >>> quality.field_share, quality.multi_word_share, quality.landmark_recall
    (0.5, 1.0, 0.5)
    """
    keys = [term_key(t) for t in result.terms["term"]]
    found = [labels[k] for k in keys if k in labels]
    n_labelled = len(found)

    def share(label: str) -> float:
        return found.count(label) / n_labelled if n_labelled else 0.0

    on_map = set(keys)
    top = strongest_pairs(result)
    n_nested = sum(one_inside_other(s, t) for s, t in zip(top["source"], top["target"]))
    singles = result.communities[result.communities["n_terms"] == 1]["top_terms"]
    generic_singles = sum(labels.get(term_key(t)) != "F" for t in singles)
    multi = sum(" " in t for t in result.terms["term"])
    n_found = sum(landmark in on_map for landmark in landmarks)
    return MapQuality(
        n_terms=len(keys), n_labelled=n_labelled, n_unlabelled=len(keys) - n_labelled,
        field_share=share("F"), generic_share=share("G"), not_term_share=share("X"),
        multi_word_share=multi / len(keys) if keys else 0.0,
        landmark_recall=n_found / len(landmarks) if landmarks else 0.0, n_landmarks_found=n_found,
        n_landmarks=len(landmarks), nested_top_pairs=int(n_nested), generic_single_communities=int(generic_singles),
        n_communities=int(len(result.communities)),
    )
