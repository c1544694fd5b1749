"""Theme model: selection on separable synthetic data, determinism, edge cases, the seed corpus."""

import numpy as np
import pandas as pd
import pytest

from helpers.corpus import read_corpus
from helpers.pipeline import AnalysisSettings, run_pipeline
from helpers.text import analysis_text
from helpers import themes
from helpers.themes import SELECTION_RULE, ThemesError, candidate_ks, fit_themes

from conftest import PMLR_SAMPLE, SEED_DIR

ASTRONOMY = ["galaxy", "telescope", "supernova", "redshift", "nebula", "quasar", "orbit", "comet",
             "photometry", "spectroscopy"]
COOKING = ["recipe", "oven", "flour", "butter", "saucepan", "simmer", "garlic", "basil", "pastry",
           "dough"]


def synthetic_texts(n_per_topic=12, seed=1):
    rng = np.random.default_rng(seed)
    texts, truth = {}, {}
    for topic, words in enumerate([ASTRONOMY, COOKING]):
        for i in range(n_per_topic):
            picked = rng.choice(words, size=7, replace=False)
            paper_id = f"p{topic}{i:02d}"
            texts[paper_id] = " ".join(picked) + "."
            truth[paper_id] = topic
    return pd.Series(texts), truth


def test_two_separate_vocabularies_give_two_themes():
    texts, truth = synthetic_texts()
    model = fit_themes(texts)
    assert model.settings["k_candidates"][0] == 2
    assert model.settings["chosen_k"] == 2
    assigned = model.paper_themes.set_index("paper_id")["theme"]
    groups = {topic: {assigned[p] for p, t in truth.items() if t == topic} for topic in (0, 1)}
    assert all(len(g) == 1 for g in groups.values()) and groups[0] != groups[1]
    top = model.themes["top_terms"].str.split(", ").map(set)
    for terms in top:
        assert terms <= set(ASTRONOMY) or terms <= set(COOKING)


def test_fixed_k_is_used():
    texts, _ = synthetic_texts()
    model = fit_themes(texts, k=3)
    assert len(model.themes) == 3 and model.settings["k_given"]
    assert model.selection["k"].tolist() == [3]


def test_deterministic():
    texts, _ = synthetic_texts()
    one, two = fit_themes(texts), fit_themes(texts)
    pd.testing.assert_frame_equal(one.themes, two.themes)
    pd.testing.assert_frame_equal(one.paper_themes, two.paper_themes)


@pytest.mark.parametrize("n", [0, 1])
def test_too_few_abstracts_is_a_clear_error(n):
    texts = pd.Series(["galaxy telescope supernova"] * n, index=[f"p{i}" for i in range(n)], dtype=str)
    with pytest.raises(ThemesError, match=f"at least 4 abstracts; this corpus has {n}"):
        fit_themes(texts)


def test_pipeline_reports_no_themes_without_crashing(tmp_path):
    (tmp_path / "one.txt").write_text("We study galaxies with a new telescope survey today.\n")
    results = run_pipeline([tmp_path], AnalysisSettings())
    assert results.themes.model is None
    assert "at least 4 abstracts" in results.themes.message
    assert results.papers["theme"].isna().all()


def test_candidate_range_scales_with_corpus():
    assert candidate_ks(57) == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert candidate_ks(150) == [3, 5, 7, 8, 10, 12, 14, 15, 17, 19]
    assert candidate_ks(100_000) == [3, 6, 9, 12, 15, 18, 21, 24, 27, 30]


def test_selection_rule_states_both_thresholds():
    assert f"stability is at least {themes.MIN_STABILITY:.2f}" in SELECTION_RULE
    assert f"diversity is at least {themes.MIN_DIVERSITY:.2f}" in SELECTION_RULE


@pytest.fixture(scope="module")
def seed_model():
    papers = read_corpus(SEED_DIR).papers
    return fit_themes(papers.set_index("paper_id")["text"].map(analysis_text))


def test_seed_corpus_themes(seed_model):
    assert seed_model.settings["chosen_k"] == 8
    assert seed_model.paper_themes["theme"].notna().all()
    assert seed_model.themes["label"].tolist() == [
        "deep · neural", "llm · language", "ai · paradigm", "client · fl", "graph · gnn",
        "feedback · regularization", "image · guidance", "algorithm · group"]
    assert seed_model.themes["n_papers"].tolist() == [9, 13, 3, 2, 5, 5, 10, 10]
    assert seed_model.settings["comparison_documents"] == 57
    assert set(seed_model.comparison["model"]) == {"NMF (TF-IDF)", "LDA (counts)"}


@pytest.mark.skipif(not PMLR_SAMPLE.exists(), reason="../shared/corpora/pmlr-v235-sample not present")
def test_pmlr_sample_themes_are_balanced():
    papers = read_corpus(PMLR_SAMPLE).papers
    model = fit_themes(papers.set_index("paper_id")["text"].map(analysis_text))
    assert model.themes["n_papers"].tolist() == [6, 7, 4, 6, 12, 11, 6, 17, 8, 10, 10, 8, 11, 11, 3, 7, 13]
    assert model.themes["label"].is_unique
