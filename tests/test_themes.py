"""Theme model: selection on separable synthetic data, determinism, edge cases, the seed corpus."""

import numpy as np
import pandas as pd
import pytest

from helpers.analysis.corpus import read_corpus
from helpers.analysis.pipeline import AnalysisSettings, run_pipeline
from helpers.analysis.text import analysis_text
from helpers.analysis import themes
from helpers.analysis.themes import SELECTION_RULE, ThemesError, candidate_ks, fit_themes

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
    assert seed_model.settings["chosen_k"] == 10
    assert seed_model.paper_themes["theme"].notna().all()
    assert seed_model.themes["label"].tolist() == [
        "alignment · feature", "client · fl", "ai · llm", "generation · strategy", "feedback · preference",
        "video · transformer", "image · deep", "algorithm · group", "uncertainty · predictive", "graph · gnn"]
    assert seed_model.themes["n_papers"].tolist() == [5, 3, 3, 8, 4, 7, 7, 10, 5, 5]
    assert seed_model.settings["comparison_documents"] == 57
    assert set(seed_model.comparison["model"]) == {"NMF (TF-IDF)", "LDA (counts)"}


@pytest.mark.skipif(not PMLR_SAMPLE.exists(), reason="../shared/corpora/pmlr-v235-sample not present")
def test_pmlr_sample_themes_are_balanced():
    papers = read_corpus(PMLR_SAMPLE).papers
    model = fit_themes(papers.set_index("paper_id")["text"].map(analysis_text))
    assert model.themes["n_papers"].tolist() == [16, 12, 4, 12, 12, 13, 7, 7, 5, 9, 11, 10, 8, 15, 9]
    assert model.themes["label"].is_unique


def test_selection_scores_are_means_over_the_seeds_and_the_final_fit_is_converged(seed_model):
    """Coherence and diversity of a candidate are the means of its runs' scores (not the best run's),
    and the final model is the chosen k refitted to FINAL_TOL with the best selection seed."""
    papers = read_corpus(SEED_DIR).papers
    tokens = themes.analysis_texts_to_tokens(papers.set_index("paper_id")["text"].map(analysis_text))
    terms = themes._count_terms(tokens)
    tfidf = themes._tfidf(terms.counts)
    binary = (terms.counts > 0).astype(float)
    k = seed_model.settings["chosen_k"]
    with themes.model_fitting():
        runs = [themes._fit_nmf(tfidf, k, seed, themes.SELECTION_TOL) for seed in seed_model.settings["seeds"]]
        final = themes._fit_nmf(tfidf, k, seed_model.settings["final_seed"], themes.FINAL_TOL)
    scores = [themes._scores(run.components_, terms.vocabulary, binary) for run in runs]
    row = seed_model.selection.set_index("k").loc[k]
    assert row["coherence"] == round(float(np.mean([np.mean(c) for c, _ in scores])), 6)
    assert row["diversity"] == round(float(np.mean([d for _, d in scores])), 6)
    best = int(np.argmin([run.reconstruction_err_ for run in runs]))
    assert seed_model.settings["final_seed"] == seed_model.settings["seeds"][best]
    top = [terms.vocabulary[i] for i in themes._top(final.components_[0], themes.N_COHERENCE_TERMS)]
    assert seed_model.themes["top_terms"].iloc[0] == ", ".join(top)


def test_top_indices_match_a_full_stable_sort_with_ties():
    rng = np.random.default_rng(0)
    for trial in range(300):
        weights = rng.integers(0, 4, rng.integers(1, 40)) / 3 if trial % 2 else rng.random(rng.integers(1, 40))
        n = int(rng.integers(1, 45))
        assert themes._top(weights, n) == np.argsort(-weights, kind="stable")[:n].tolist()


def test_npmi_of_repeated_and_overlapping_top_terms():
    counts = np.array([[1, 1, 0, 0], [1, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 0]])
    # Themes share terms (one product serves all of them) and a single-term theme scores 0.
    scores = themes.npmi_coherence([[0, 1], [1, 0], [2, 3], [3], [0, 2]], counts)
    assert [round(s, 6) for s in scores] == [0.415037, 0.415037, 0.0, 0.0, -1.0]


def test_the_lda_comparison_is_computed_when_first_asked_for(seed_model):
    import dataclasses
    import pickle

    fresh = pickle.loads(pickle.dumps(dataclasses.replace(seed_model)))
    assert "comparison" not in vars(fresh)  # a fitted model (the book's cached analysis) carries no LDA fit
    table = fresh.comparison
    assert table["model"].tolist() == ["NMF (TF-IDF)", "LDA (counts)"]
    assert table["k"].tolist() == [10, 10]
    pd.testing.assert_frame_equal(table, seed_model.comparison)


def test_each_selection_thread_fits_its_own_copy_of_the_matrix(monkeypatch):
    """scipy may tidy a sparse matrix in place (sorting, summing duplicates) while it is read: two NMF
    fits on threads sharing one matrix once failed with 'indices and data should have the same size'."""
    seen = []

    def record(tfidf, k, seed):
        seen.append(tfidf)
        return themes._Run(np.ones((k, tfidf.shape[1])), float(seed))

    monkeypatch.setattr(themes, "_selection_run", record)
    texts, _ = synthetic_texts()
    shared = themes._tfidf(themes._count_terms(themes.analysis_texts_to_tokens(texts)).counts)
    binary = (shared > 0).astype(float)
    themes._select(shared, binary, np.array([f"t{i}" for i in range(shared.shape[1])]), [2, 3], [0, 1], n_jobs=2)
    assert len(seen) == 4
    assert len({id(matrix) for matrix in seen} | {id(shared)}) == 5
