"""The held-out availability set and the scorer: the file's form and the arithmetic, never a score to chase.

``tests/evaluation/availability_heldout.csv`` is the honest test of the classifier (README there): no test
demands a score on it, so a failure can never invite tuning the grammar to its sentences. What is tested is
that the file is what the README says (every class in the scheme, its sources, no sentence shared with the
development set, the sentences quoted as published) and that the scores are computed exactly.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from tests.support import ROOT
from helpers.analysis.links.availability import STATEMENTS
from helpers.analysis.links.evaluation import (HELDOUT_COLUMNS, SCORE_COLUMNS, class_scores, load_heldout,
                                               score_sets, with_context)
from helpers.book.reports.validation import CLAIM_COLUMNS, claim_scores

EVALUATION = ROOT / "tests" / "evaluation"
HELDOUT = EVALUATION / "availability_heldout.csv"
ICML = ROOT.parent / "shared" / "corpora" / "icml-2023-2025"


def _rows(table: pd.DataFrame) -> dict:
    return {row["class"]: [None if isinstance(v, float) and math.isnan(v) else round(v, 4) if isinstance(v, float)
                           else v for v in (row[c] for c in SCORE_COLUMNS[1:])] for row in table.to_dict("records")}


def test_class_scores_arithmetic_on_a_set_written_here():
    # 3 linked (2 found, 1 called none), 2 dangling (1 found, 1 called linked), 1 none called dangling, 2 none
    # right, no promised at all.
    labels = ["linked", "linked", "linked", "dangling", "dangling", "none", "none", "none"]
    guesses = ["linked", "linked", "none", "dangling", "linked", "dangling", "none", "none"]
    # support, predicted, correct, precision [low, high], recall [low, high], f1 (Wilson 95%: 2/3 -> 0.2077 to
    # 0.9385, 1/2 -> 0.0945 to 0.9055, 2/3 again for none)
    assert _rows(class_scores(labels, guesses)) == {
        "linked": [3, 3, 2, 0.6667, 0.2077, 0.9385, 0.6667, 0.2077, 0.9385, 0.6667],
        "dangling": [2, 2, 1, 0.5, 0.0945, 0.9055, 0.5, 0.0945, 0.9055, 0.5],
        "promised": [0, 0, 0, None, None, None, None, None, None, None],
        "none": [3, 3, 2, 0.6667, 0.2077, 0.9385, 0.6667, 0.2077, 0.9385, 0.6667],
    }


def test_class_scores_f1_is_undefined_when_nothing_is_right_and_precision_when_nothing_is_predicted():
    scores = class_scores(["dangling", "none"], ["none", "none"]).set_index("class")
    assert scores.loc["dangling", ["support", "predicted", "correct", "recall"]].tolist() == [1, 0, 0, 0.0]
    assert math.isnan(scores.loc["dangling", "precision"]) and math.isnan(scores.loc["dangling", "f1"])
    assert scores.loc["none", ["precision", "recall"]].tolist() == [0.5, 1.0]
    assert round(scores.loc["none", "f1"], 4) == 0.6667


def test_class_scores_rejects_unknown_classes_and_unequal_lengths():
    with pytest.raises(ValueError, match="unknown class"):
        class_scores(["linked"], ["maybe"])
    with pytest.raises(ValueError, match="1 labels but 2 predictions"):
        class_scores(["linked"], ["linked", "none"])


def test_score_sets_runs_the_classifier_with_each_abstracts_other_sentences_as_context():
    # The claim points ("here") to a URL in another sentence of its abstract: linked only with that context.
    rows = pd.DataFrame({"corpus": ["c", "c", "c"], "key": ["a", "a", "b"], "sentence_no": ["1", "2", "1"],
                         "sentence": ["Our code is available here.", "See https://github.com/a/b.",
                                      "Our code is available here."],
                         "class": ["linked", "linked", "dangling"]})
    scores = score_sets({"toy": with_context(rows, ["corpus", "key"])}).set_index("class")
    assert scores.loc["linked", ["set", "support", "predicted", "correct"]].tolist() == ["toy", 2, 2, 2]
    assert scores.loc["dangling", ["support", "predicted", "correct"]].tolist() == [1, 1, 1]


def _write_sets(root: Path, heldout: list[tuple[str, str]]) -> None:
    folder = root / "tests" / "evaluation"
    folder.mkdir(parents=True)
    pd.DataFrame({"corpus": "seed", "paper_id": ["p1", "p2"], "sentence_no": ["1", "1"],
                  "sentence": ["Code is public.", "We win."], "class": ["dangling", "none"],
                  "why": ["", ""]}).to_csv(folder / "availability_claims.csv", index=False)
    pd.DataFrame([{"corpus": "x.bib", "key": f"k{i}", "sentence_no": "1", "sentence": s, "class": c, "why": "",
                   "drawn": "all"} for i, (s, c) in enumerate(heldout)]).to_csv(
        folder / "availability_heldout.csv", index=False)


def test_claim_scores_table_errors_and_glued_values_on_sets_written_here(tmp_path):
    _write_sets(tmp_path, [("Code is at https://github.com/a/b.", "linked"), ("Our data is public.", "dangling"),
                           ("We train on public data.", "none"), ("Code will be released.", "none")])
    table, wrong, values = claim_scores(tmp_path)
    assert list(table.columns) == CLAIM_COLUMNS
    rows = {(r[0], r[1]): r[2:] for r in table.itertuples(index=False)}
    assert list(rows) == [(s, c) for s in ["held-out", "development"] for c in STATEMENTS]
    assert rows["held-out", "none"] == (2, "1.00 (0.21–1.00)", "0.50 (0.09–0.91)", "0.67")
    assert rows["held-out", "promised"] == (0, "0.00 (0.00–0.79)", "n/a", "n/a")
    assert rows["development", "dangling"] == (1, "1.00 (0.21–1.00)", "1.00 (0.21–1.00)", "1.00")
    assert rows["development", "promised"] == (0, "n/a", "n/a", "n/a")
    assert wrong.to_dict("records") == [
        {"label": "none", "predicted": "promised", "sentence": "Code will be released."}]
    assert {k: values[k] for k in ["links_heldout_n", "links_heldout_papers", "links_heldout_wrong", "links_dev_n",
                                   "links_heldout_dangling_recall", "links_heldout_dangling_recall_ci",
                                   "links_heldout_linked_support"]} == {
        "links_heldout_n": "4", "links_heldout_papers": "4", "links_heldout_wrong": "1 sentence", "links_dev_n": "2",
        "links_heldout_dangling_recall": "1.00", "links_heldout_dangling_recall_ci": "0.21 to 1.00",
        "links_heldout_linked_support": "1"}
    # Only the classes the page prints are glued (the promised class has a sentence of its own, the table all).
    assert not any(name.startswith(("links_heldout_promised_", "links_heldout_none_")) for name in values
                   if name != "links_heldout_promised_note")
    assert values["links_heldout_promised_note"].startswith("no held-out sentence is a promise")


def test_load_heldout_refuses_a_class_outside_the_scheme(tmp_path):
    path = tmp_path / "h.csv"
    pd.DataFrame([dict.fromkeys(HELDOUT_COLUMNS, "x")]).to_csv(path, index=False)
    with pytest.raises(ValueError, match="unknown class"):
        load_heldout(path)


# ---- the held-out file itself: well-formed, disjoint from the development set, quoted as published ----

@pytest.fixture(scope="module")
def heldout() -> pd.DataFrame:
    return pd.read_csv(HELDOUT, dtype=str, keep_default_na=False)


def test_heldout_file_has_its_columns_and_every_label_in_the_scheme(heldout):
    assert list(heldout.columns) == HELDOUT_COLUMNS
    assert set(heldout["class"]) <= set(STATEMENTS)
    assert set(heldout["drawn"]) == {"all", "sample"}
    assert heldout["why"].str.strip().ne("").all() and heldout["sentence"].str.strip().ne("").all()
    assert heldout["sentence_no"].str.fullmatch(r"[1-9]\d*").all()
    assert not heldout.duplicated(["corpus", "key", "sentence_no"]).any()
    assert len(heldout) >= 120


def test_heldout_comes_from_corpora_the_development_sets_do_not_use(heldout):
    development = pd.read_csv(EVALUATION / "availability_claims.csv", dtype=str, keep_default_na=False)
    exports = pd.read_csv(EVALUATION / "availability_exports.csv", dtype=str, keep_default_na=False)
    assert set(heldout["corpus"]) == {"icml2023.bib", "icml2025.bib"}
    assert not set(heldout["corpus"]) & (set(development["corpus"]) | set(exports["corpus"]))
    normalised = lambda texts: {" ".join(t.split()).lower() for t in texts}  # noqa: E731
    assert not normalised(heldout["sentence"]) & normalised(development["sentence"])


@pytest.mark.skipif(not ICML.exists(), reason="../shared/corpora/icml-2023-2025 not present (the quotes are checked "
                                              "against it)")
def test_heldout_sentences_are_quoted_as_published(heldout):
    from helpers.analysis.corpus import read_corpus
    from helpers.analysis.links.urls import split_sentences

    for name, rows in heldout.groupby("corpus"):
        corpus = read_corpus(ICML / name)
        blocks = corpus.blocks.merge(corpus.papers[["paper_id", "text"]], on="paper_id")
        texts = dict(zip(blocks["key"], blocks["text"]))
        for row in rows.itertuples():
            assert split_sentences(texts[row.key])[int(row.sentence_no) - 1] == row.sentence, (name, row.key)
