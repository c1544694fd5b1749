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

:func:`load_evaluation_set` and :func:`load_heldout` read the two sets; :func:`evaluate_verdicts` and
:func:`confusion_matrix` score any labelled ``sentence, abstract, class`` table as it is; :func:`resolve_export_sentences` reads the sentences of a set that
names them by place (``tests/evaluation/availability_exports.csv``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

from helpers.analysis.links.availability import STATEMENTS, classify_sentence
from helpers.analysis.links.urls import split_sentences
from helpers.analysis.statistics import wilson_interval

__all__ = ["SCORE_COLUMNS", "DEVELOPMENT_COLUMNS", "HELDOUT_COLUMNS", "class_scores", "with_context", "load_heldout", "predict",
           "score_sets", "load_evaluation_set", "resolve_export_sentences", "confusion_matrix", "evaluate_verdicts"]

#: The columns of :func:`class_scores`, in order.
SCORE_COLUMNS = ["class", "support", "predicted", "correct", "precision", "precision_low", "precision_high",
                 "recall", "recall_low", "recall_high", "f1"]
#: The columns of the development file, in order.
DEVELOPMENT_COLUMNS = ["corpus", "paper_id", "sentence_no", "sentence", "class", "why"]
#: The columns of the held-out file, in order.
HELDOUT_COLUMNS = ["corpus", "key", "sentence_no", "sentence", "class", "why", "drawn"]


def class_scores(labels: Sequence[str], predicted: Sequence[str]) -> pd.DataFrame:
    """Precision, recall and F1 per class of :data:`~helpers.analysis.links.availability.STATEMENTS`, with counts and
    Wilson 95% intervals (one row per class, columns :data:`SCORE_COLUMNS`).

    ``precision = correct / predicted`` and ``recall = correct / support`` are NaN (with their intervals)
    when their denominator is 0; ``f1`` is NaN unless both are defined and not both 0.

    Parameters
    ----------
    labels : sequence of str
        Each sentence's labelled class.
    predicted : sequence of str
        The classifier's class of each, in the same order.

    Returns
    -------
    DataFrame
        One row per class of :data:`~helpers.analysis.links.availability.STATEMENTS`.

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

    Parameters
    ----------
    labelled : DataFrame
        With a ``sentence`` column and the ``by`` columns.
    by : list of str
        The columns that name an abstract.

    Returns
    -------
    DataFrame
        ``labelled`` with ``abstract`` added.

    Examples
    --------
    >>> rows = pd.DataFrame({"key": ["a", "b", "a"], "sentence": ["One.", "Two.", "Three."]})
    >>> with_context(rows, ["key"])["abstract"].tolist()
    ['One. Three.', 'Two.', 'One. Three.']
    """
    joined = labelled.groupby(by, sort=False)["sentence"].agg(" ".join).rename("abstract")
    return labelled.join(joined, on=by)


def _read_labelled(path: str | Path, columns: Sequence[str], by: list[str]) -> pd.DataFrame:
    """A labelled set with ``columns``, each sentence with its abstract's other labelled sentences as context
    (:func:`with_context` by the ``by`` columns); blank cells are empty strings."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}")
    unknown = sorted(set(table["class"]) - set(STATEMENTS))
    if unknown:
        raise ValueError(f"{path}: unknown class(es) {unknown}; allowed: {', '.join(STATEMENTS)}")
    return with_context(table, by)


def load_evaluation_set(path: str | Path) -> pd.DataFrame:
    """The development set (columns :data:`DEVELOPMENT_COLUMNS`), each sentence with its abstract's other labelled
    sentences as context (:func:`with_context` by ``paper_id``).

    Parameters
    ----------
    path : str or Path
        The CSV file (``tests/evaluation/availability_claims.csv``).

    Returns
    -------
    DataFrame
        Its rows, blank cells as ``""``, with ``abstract`` added.

    Raises
    ------
    ValueError
        When a column is missing or a class is not one of
        :data:`~helpers.analysis.links.availability.STATEMENTS`.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "set.csv"
    >>> _ = path.write_text("corpus,paper_id,sentence_no,sentence,class,why\\n"
    ...                     "seed,p1,1,We win.,none,\\nseed,p1,2,Code is public.,dangling,no link\\n")
    >>> load_evaluation_set(path)["abstract"].tolist()
    ['We win. Code is public.', 'We win. Code is public.']
    """
    return _read_labelled(path, DEVELOPMENT_COLUMNS, ["paper_id"])


def load_heldout(path: str | Path) -> pd.DataFrame:
    """The held-out set (columns :data:`HELDOUT_COLUMNS`), each sentence with its abstract's other labelled
    sentences as context (:func:`with_context` by ``corpus, key``).

    Parameters
    ----------
    path : str or Path
        The CSV file (``tests/evaluation/availability_heldout.csv``).

    Returns
    -------
    DataFrame
        One row per labelled sentence, with the ``abstract`` it is judged in.

    Raises
    ------
    ValueError
        When the file lacks one of :data:`HELDOUT_COLUMNS`, or labels a sentence with an unknown class.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "heldout.csv"
    >>> _ = path.write_text("corpus,key,sentence_no,sentence,class,why\\nx.bib,k,1,We win.,none,\\n")
    >>> load_heldout(path)
    Traceback (most recent call last):
    ...
    ValueError: ...heldout.csv: missing column(s) ['drawn']
    """
    return _read_labelled(path, HELDOUT_COLUMNS, ["corpus", "key"])


def predict(labelled: pd.DataFrame) -> list[str]:
    """The classifier's class of each row (``sentence`` with its ``abstract`` as context).

    Parameters
    ----------
    labelled : DataFrame
        ``sentence`` and ``abstract`` of each row.

    Returns
    -------
    list of str
        One class of :data:`~helpers.analysis.links.availability.STATEMENTS` per row.

    Examples
    --------
    >>> predict(pd.DataFrame({"sentence": ["Code is public.", "We win."], "abstract": ["", ""]}))
    ['dangling', 'none']
    """
    return [classify_sentence(s, a).statement for s, a in zip(labelled["sentence"], labelled["abstract"])]


def score_sets(sets: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`class_scores` of the classifier on each named labelled set, stacked: a ``set`` column first.

    Parameters
    ----------
    sets : mapping of str to DataFrame
        Each set's name to its rows (``sentence, abstract, class``).

    Returns
    -------
    DataFrame
        ``set`` and :data:`SCORE_COLUMNS`, one row per set and class.

    Examples
    --------
    >>> rows = pd.DataFrame({"sentence": ["Code is public.", "We win."], "abstract": ["", ""],
    ...                      "class": ["dangling", "none"]})
    >>> score_sets({"toy": rows})[["set", "class", "support", "correct"]].values.tolist()[:2]
    [['toy', 'linked', 0, 0], ['toy', 'dangling', 1, 1]]
    """
    frames = [class_scores(list(table["class"]), predict(table)).assign(set=name) for name, table in sets.items()]
    return pd.concat(frames, ignore_index=True)[["set", *SCORE_COLUMNS]]


def resolve_export_sentences(labelled: pd.DataFrame, corpora: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The sentences of a labelled set that names them by place (``corpus, key, sentence_no, sentence_sha1``,
    as ``tests/evaluation/availability_exports.csv``, which holds no text of the exports it labels): each row
    with its ``sentence`` and its whole analysed ``abstract``, read from ``corpora`` (a corpus file's name to
    its ``blocks`` joined with its papers' ``text``: ``key, kind, text``).

    Parameters
    ----------
    labelled : DataFrame
        ``corpus, key, sentence_no, sentence_sha1`` (and the set's other columns).
    corpora : dict of str to DataFrame
        Each corpus file's name to its records: ``key, kind, text``.

    Returns
    -------
    DataFrame
        ``labelled`` with ``sentence`` and ``abstract`` added.

    Raises
    ------
    ValueError
        When a row's record or sentence is not found, or the sentence found is not the one labelled (its
        SHA-1 differs: the export or the reading changed).

    Examples
    --------
    >>> corpora = {"x.bib": pd.DataFrame({"key": ["k"], "kind": ["abstract"], "text": ["We win. Code is public."]})}
    >>> labelled = pd.DataFrame({"corpus": ["x.bib"], "key": ["k"], "sentence_no": ["2"],
    ...                          "sentence_sha1": [hashlib.sha1(b"Code is public.").hexdigest()[:12]]})
    >>> resolve_export_sentences(labelled, corpora)[["sentence", "abstract"]].values.tolist()
    [['Code is public.', 'We win. Code is public.']]
    """
    rows = []
    for row in labelled.to_dict("records"):
        records = corpora[row["corpus"]]
        found = records[(records["key"] == row["key"]) & (records["kind"] == "abstract")]
        if found.empty:
            raise ValueError(f"{row['corpus']}: no abstract with key {row['key']!r}")
        abstract = found["text"].iloc[0]
        sentences = split_sentences(abstract)
        number = int(row["sentence_no"])
        sentence = sentences[number - 1] if 0 < number <= len(sentences) else ""
        if hashlib.sha1(sentence.encode("utf-8")).hexdigest()[:12] != row["sentence_sha1"]:
            raise ValueError(f"{row['corpus']}: {row['key']} sentence {number} is not the sentence labelled")
        rows.append(dict(row, sentence=sentence, abstract=abstract))
    return pd.DataFrame(rows)


def confusion_matrix(labelled: pd.DataFrame) -> pd.DataFrame:
    """Counts of (labelled class, predicted class): rows are labels, columns predictions.

    Parameters
    ----------
    labelled : DataFrame
        ``sentence, abstract, class`` of each row.

    Returns
    -------
    DataFrame
        Classes x classes of :data:`~helpers.analysis.links.availability.STATEMENTS`, counts.

    Examples
    --------
    >>> rows = pd.DataFrame({"sentence": ["Code is public.", "We win."], "abstract": ["", ""],
    ...                      "class": ["dangling", "none"]})
    >>> int(confusion_matrix(rows).loc["dangling", "dangling"])
    1
    """
    predicted = predict(labelled)
    matrix = pd.crosstab(pd.Categorical(labelled["class"], STATEMENTS), pd.Categorical(predicted, STATEMENTS),
                         dropna=False)
    matrix.index.name, matrix.columns.name = "label", "predicted"
    return matrix.astype(int)


def evaluate_verdicts(labelled: pd.DataFrame) -> pd.DataFrame:
    """Precision, recall, F1 and support per class of :func:`classify_sentence` on labelled rows.

    Parameters
    ----------
    labelled : DataFrame
        The labelled sentences: ``sentence``, its ``abstract`` and its ``class``.

    Returns
    -------
    DataFrame
        ``class, precision, recall, f1, support``, one row per class of
        :data:`~helpers.analysis.links.availability.STATEMENTS` (NaN where a ratio has no denominator).

    Examples
    --------
    >>> rows = pd.DataFrame({"sentence": ["Code is public.", "We win.", "Code will be released."],
    ...                      "abstract": ["", "", ""], "class": ["dangling", "none", "promised"]})
    >>> evaluate_verdicts(rows)[["class", "precision", "recall", "support"]].values.tolist()[1:3]
    [['dangling', 1.0, 1.0, 1], ['promised', 1.0, 1.0, 1]]
    """
    matrix = confusion_matrix(labelled)
    rows = []
    for name in STATEMENTS:
        hits = int(matrix.loc[name, name])
        predicted, support = int(matrix[name].sum()), int(matrix.loc[name].sum())
        precision = hits / predicted if predicted else float("nan")
        recall = hits / support if support else float("nan")
        f1 = (2 * precision * recall / (precision + recall)
              if predicted and support and precision + recall else float("nan"))
        rows.append(dict(**{"class": name}, precision=precision, recall=recall, f1=f1, support=support))
    return pd.DataFrame(rows, columns=["class", "precision", "recall", "f1", "support"])
