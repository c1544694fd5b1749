"""Theme model: selection on separable synthetic data, determinism, edge cases, the seed corpus."""

import numpy as np
import pandas as pd
import pytest

from helpers.analysis.corpus import read_corpus
from helpers.analysis.pipeline import AnalysisSettings, run_pipeline
from helpers.analysis._parallel import LocalPartitions, partition_bounds
from helpers.analysis.text.tokens import TokenPartitions, analysis_texts_to_tokens, tokenize_corpus
from helpers.analysis.text.cleaning import analysis_text
from helpers.analysis import themes
from helpers.analysis.themes import counting, selection
from helpers.analysis.themes.labels import _labels, label_parts
from helpers.analysis.themes.scores import _scores, _top
from helpers.analysis.themes import SELECTION_RULE, ThemeOptions, ThemesError, candidate_ks, fit_themes, theme_counts

from tests.support import PMLR_SAMPLE, SEED_DIR

# The addresses of issue 20, which in a third of the seed abstracts made a theme of
# "zenodo, abcde, arxiv, doi, http, io, org, osf, record".
LINKS = ("zenodo.org/records/1234567, osf.io/abcde, doi:10.5281/zenodo.7654321, arXiv:2401.01234 and "
         "https//github.com/example/project")

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
    assert model.settings.k_candidates[0] == 2
    assert model.settings.chosen_k == 2
    assigned = model.paper_themes.set_index("paper_id")["theme"]
    groups = {topic: {assigned[p] for p, t in truth.items() if t == topic} for topic in (0, 1)}
    assert all(len(g) == 1 for g in groups.values()) and groups[0] != groups[1]
    top = model.themes["top_terms"].str.split(", ").map(set)
    for terms in top:
        assert terms <= set(ASTRONOMY) or terms <= set(COOKING)


def test_fixed_k_is_used():
    texts, _ = synthetic_texts()
    model = fit_themes(texts, ThemeOptions(k=3))
    assert len(model.themes) == 3 and model.settings.k_given
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
    # Issue 46: no theme under max(5 papers, 1%); k = 7 left themes of 3 and 4 papers.
    assert seed_model.settings.chosen_k == 3
    assert seed_model.settings.min_theme_papers == 5 and seed_model.settings.size_floor_met
    assert not seed_model.settings.k_at_top
    assert seed_model.paper_themes["theme"].notna().all()
    assert seed_model.themes["label"].tolist() == [
        # Issue 38: both parts among the theme's shown top terms, one concept each.
        "neural network · deep", "language model · preference", "complexity · gradient"]
    for label, top_terms in zip(seed_model.themes["label"], seed_model.themes["top_terms"]):
        assert set(label_parts(label)) <= set(top_terms.split(", "))
    assert seed_model.themes["n_papers"].tolist() == [18, 25, 14]
    assert seed_model.settings.comparison_documents == 57
    assert set(seed_model.comparison["model"]) == {"NMF (TF-IDF)", "LDA (counts)"}


@pytest.mark.skipif(not PMLR_SAMPLE.exists(), reason="../shared/corpora/pmlr-v235-sample not present")
def test_pmlr_sample_themes_are_balanced():
    papers = read_corpus(PMLR_SAMPLE).papers
    model = fit_themes(papers.set_index("paper_id")["text"].map(analysis_text))
    # Issue 46: 15 themes left one of 3 papers; every theme now holds at least max(5, 1%) of the 150.
    assert model.themes["n_papers"].tolist() == [14, 24, 8, 16, 13, 22, 12, 13, 10, 18]
    assert model.themes["n_papers"].min() >= model.settings.min_theme_papers == 5
    assert model.themes["label"].is_unique


def test_selection_scores_are_means_over_the_seeds_and_the_final_fit_is_converged(seed_model):
    """Coherence and diversity of a candidate are the means of its runs' scores (not the best run's),
    and the final model is the chosen k refitted to FINAL_TOL with the best selection seed."""
    papers = read_corpus(SEED_DIR).papers
    tokens = analysis_texts_to_tokens(papers.set_index("paper_id")["text"].map(analysis_text))
    terms = counting._partitioned_counts(LocalPartitions(), [tokens])
    counts = terms.rows(np.arange(terms.n_documents))
    tfidf = counting._tfidf(counts)
    binary = (counts > 0).astype(float)
    k = seed_model.settings.chosen_k
    with themes.model_fitting():
        runs = [selection._fit_nmf(tfidf, k, seed, themes.SELECTION_TOL) for seed in seed_model.settings.seeds]
        final = selection._fit_nmf(tfidf, k, seed_model.settings.final_seed, themes.FINAL_TOL)
    scores = [_scores(run.components_, terms.vocabulary, binary) for run in runs]
    row = seed_model.selection.set_index("k").loc[k]
    assert row["coherence"] == round(float(np.mean([np.mean(c) for c, _ in scores])), 6)
    assert row["diversity"] == round(float(np.mean([d for _, d in scores])), 6)
    best = int(np.argmin([run.reconstruction_err_ for run in runs]))
    assert seed_model.settings.final_seed == seed_model.settings.seeds[best]
    top = [terms.vocabulary[i] for i in _top(final.components_[0], themes.N_COHERENCE_TERMS)]
    # Issue 21: the final fit's top terms as fitted; the book shows "neural network" in place of its words.
    assert top[:3] == ["network", "neural", "neural network"]
    assert seed_model.themes["top_terms"].iloc[0].split(", ")[:3] == ["neural network", "deep", "theoretical"]
    assert round(float(np.mean(themes.npmi_coherence([_top(final.components_[0], themes.N_COHERENCE_TERMS)],
                                                     binary))), 6) == seed_model.themes["coherence"].iloc[0]


def test_top_indices_match_a_full_stable_sort_with_ties():
    rng = np.random.default_rng(0)
    for trial in range(300):
        weights = rng.integers(0, 4, rng.integers(1, 40)) / 3 if trial % 2 else rng.random(rng.integers(1, 40))
        n = int(rng.integers(1, 45))
        assert _top(weights, n) == np.argsort(-weights, kind="stable")[:n].tolist()


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
    assert table["k"].tolist() == [3, 3]
    pd.testing.assert_frame_equal(table, seed_model.comparison)


def test_each_selection_thread_fits_its_own_copy_of_the_matrix(monkeypatch):
    """scipy may tidy a sparse matrix in place (sorting, summing duplicates) while it is read: two NMF
    fits on threads sharing one matrix once failed with 'indices and data should have the same size'."""
    seen = []

    def record(tfidf, k, seed):
        seen.append(tfidf)
        return selection._Run(np.ones((k, tfidf.shape[1])), float(seed), tfidf.shape[0])

    monkeypatch.setattr(selection, "_selection_run", record)
    texts, _ = synthetic_texts()
    terms = counting._partitioned_counts(LocalPartitions(), [analysis_texts_to_tokens(texts)])
    shared = counting._tfidf(terms.rows(np.arange(terms.n_documents)))
    binary = (shared > 0).astype(float)
    selection._select(shared, binary, np.array([f"t{i}" for i in range(shared.shape[1])]), [2, 3], [0, 1], n_jobs=2)
    assert len(seen) == 4
    assert len({id(matrix) for matrix in seen} | {id(shared)}) == 5


def test_addresses_in_a_third_of_the_seed_abstracts_change_no_theme_and_no_term(seed_model):
    """The sentence added holds nothing but addresses and "and": with exactly the link finder's spans
    removed, the counts, the themes and the term map are those of the seed corpus itself."""
    from helpers.analysis.cooccurrence import analyse_cooccurrence

    raw = read_corpus(SEED_DIR).papers.set_index("paper_id")["text"]
    with_links = raw.copy()
    with_links.iloc[::3] = with_links.iloc[::3] + " " + LINKS + "."
    assert with_links.str.contains("osf.io/abcde", regex=False).sum() == 19
    model = fit_themes(with_links.map(analysis_text))
    assert model.selection_vocabulary.tolist() == seed_model.selection_vocabulary.tolist()
    pd.testing.assert_frame_equal(model.themes, seed_model.themes)
    pd.testing.assert_frame_equal(model.top_terms, seed_model.top_terms)
    fragments = {"zenodo", "abcde", "arxiv", "doi", "http", "https", "io", "org", "osf", "record"}
    assert fragments & set(model.top_terms["term"]) == set()
    linked_map = analyse_cooccurrence(with_links, with_links.map(analysis_text))
    seed_map = analyse_cooccurrence(raw, raw.map(analysis_text))
    pd.testing.assert_frame_equal(linked_map.terms, seed_map.terms)
    pd.testing.assert_frame_equal(linked_map.pairs, seed_map.pairs)


# Four abstracts that cite with "et al." in its spellings, four that do not.
CITING = pd.Series({
    "a1": "Differential privacy for private learning, as in Dwork et al. (2006).",
    "a2": "Private training under a privacy budget, following Abadi et al.",
    "a3": "Privacy amplification of private queries (Li et. al., 2020).",
    "a4": "Private data release with privacy accounting, as in Wu et al, 2021.",
    "b1": "Galaxy clusters seen by a telescope survey.",
    "b2": "Telescope images of galaxy mergers.",
    "b3": "A galaxy survey with a radio telescope.",
    "b4": "Telescope spectra of distant galaxy clusters.",
})


def test_et_al_is_no_theme_term_and_no_map_term():
    from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence

    model = fit_themes(CITING.map(analysis_text), ThemeOptions(k=2))
    assert model.themes["top_terms"].tolist() == [
        "galaxy cluster, telescope, survey, cluster seen, radio, distant galaxy, spectrum, galaxy merger, image",
        "privacy, private, amplification, query, differential, learning, budget, following, training, accounting",
    ]
    assert model.themes["label"].tolist() == ["galaxy cluster · telescope", "privacy · amplification"]
    # Neither the citation nor the names before it ("dwork et" was a top term).
    assert not {"et", "al", "et al", "dwork", "abadi", "li", "wu"} & set(model.top_terms["term"])
    result = analyse_cooccurrence(CITING, CITING.map(analysis_text),
                                  TermMapOptions(min_occurrences=1, relevant_share=1.0, thesaurus={}))
    # Issue 21: "following" is a stock term; "galaxy cluster" and "survey" fold into the longer terms that hold them.
    assert result.terms["term"].tolist() == [
        "differential privacy", "galaxy survey", "privacy accounting",
        "privacy amplification of private query", "privacy budget", "private data release", "private learning",
        "private training", "radio telescope", "spectrum of distant galaxy cluster",
        "telescope image of galaxy merger", "telescope spectrum", "telescope survey"]


def test_themes_spell_plurals_as_the_term_map_does():
    texts = pd.Series({
        "m1": "Low-rank matrices and their biases.", "m2": "Sparse matrices with biases in estimates.",
        "m3": "Random matrices carry biases.", "m4": "Biases of covariance matrices.",
        "g1": "Graph vertices and edges.", "g2": "Vertices of planar graph drawings.",
        "g3": "Graph edges join vertices.", "g4": "Coloring graph vertices.",
    })
    model = fit_themes(texts.map(analysis_text), ThemeOptions(k=2))
    # The suffix rule labelled these "graph · vertice" and "biase · matrice". Every top term of the first
    # theme shares a word with another ("graph vertex", "graph edge", "edge join"): one concept, so broad.
    assert model.themes["label"].tolist() == ["graph vertex (general)", "bias · matrix"]
    assert model.themes["top_terms"].tolist() == [
        "graph vertex, graph edge, coloring graph, edge join, join vertex, graph drawing, planar graph",
        "bias, matrix, low-rank, covariance, estimate, sparse, carry, random, edge join, graph edge"]


def test_a_value_error_inside_counting_is_no_quiet_note(monkeypatch, tmp_path):
    """Only a corpus too small for a model is a note; any other error inside counting propagates."""
    def broken(*args, **kwargs):
        raise ValueError("indices and data should have the same size")

    monkeypatch.setattr(counting, "theme_counts", broken)
    texts, _ = synthetic_texts()
    with pytest.raises(ValueError, match="^indices and data should have the same size$") as raised:
        fit_themes(texts)
    assert type(raised.value) is ValueError
    (tmp_path / "corpus.txt").write_text("Header\n\n" + "\n\n".join(texts) + "\n")
    with pytest.raises(ValueError, match="^indices and data should have the same size$"):
        run_pipeline([tmp_path], AnalysisSettings())


def test_a_corpus_without_terms_is_still_a_note(tmp_path):
    (tmp_path / "corpus.txt").write_text(
        "Header\n\nWe show that it is the one.\n\nThey show this to all of us.\n\n"
        "It is what we propose here.\n\nWe also show it to them.\n")
    results = run_pipeline([tmp_path], AnalysisSettings())
    assert results.themes.model is None
    assert results.themes.message == ("no terms left to model after stop words "
                                      "(no terms remain after min_df and max_df)")


def test_a_label_phrase_is_a_noun_phrase():
    # The synthetic corpus labelled themes "discourse relies · claim", "avoid gradient · parameterization".
    vocabulary = np.array(["discourse relies", "claim", "discourse", "gradient descent"])
    class_terms = np.array([[9.0, 8, 7, 6], [1, 1, 1, 1]])
    assert _labels(class_terms, vocabulary, [[0, 1, 2, 3], [0, 1]]) == ["claim · discourse", "claim (general)"]


# Issue 38: the label rules, each on a few terms whose counts are written here. ``class_terms`` holds each
# term's occurrences in each theme's papers (rows: themes), ``shown`` each theme's shown top terms.
LABEL_VOCABULARY = np.array(["bandit", "client", "dp", "differential", "graph", "graph neural network", "language model",
                             "llm", "policy", "privacy", "private", "reasoning", "regret", "reinforcement learning",
                             "rl", "weight", "deep", "neural network", "data"])


def label_counts(rows: dict[int, dict[str, float]]) -> np.ndarray:
    """Themes x terms counts from ``{theme: {term: count}}`` (0-based themes)."""
    index = {str(term): i for i, term in enumerate(LABEL_VOCABULARY)}
    counts = np.zeros((max(rows) + 1, len(LABEL_VOCABULARY)))
    for theme, terms in rows.items():
        for term, count in terms.items():
            counts[theme, index[term]] = count
    return counts


def labels_of(shown: list[list[str]], rows: dict[int, dict[str, float]]) -> list[str]:
    index = {str(term): i for i, term in enumerate(LABEL_VOCABULARY)}
    return _labels(label_counts(rows), LABEL_VOCABULARY, [[index[t] for t in terms] for terms in shown])


@pytest.mark.parametrize("shown, counts, expected", [
    # "graph neural network" is the theme's strongest phrase by counts but not one of its shown terms.
    pytest.param([["graph", "regret", "bandit"], ["data", "weight"]],
                 {0: {"graph": 9, "regret": 8, "bandit": 7, "graph neural network": 20}, 1: {"data": 5, "weight": 5}},
                 ["graph · regret", "weight (general)"], id="label parts are among the shown top terms"),
    pytest.param([["rl", "policy", "reinforcement learning"], ["llm", "language model", "reasoning"]],
                 {0: {"rl": 9, "policy": 8, "reinforcement learning": 7},
                  1: {"llm": 9, "language model": 8, "reasoning": 7}},
                 ["reinforcement learning · policy", "language model · reasoning"],
                 id="an acronym beside its expansion is one concept"),
    pytest.param([["privacy", "private", "dp", "differential", "client"], ["graph", "graph neural network", "bandit"]],
                 {0: {"privacy": 9, "private": 8, "dp": 7, "differential": 6, "client": 5},
                  1: {"graph": 9, "graph neural network": 8, "bandit": 7}},
                 ["privacy · client", "graph neural network · bandit"],
                 id="a word beside a word of its stem or a phrase holding it is one concept"),
    # "regret": 9 of its 10 occurrences in theme 1, "bandit": 6 of 10; a phrase before a single word.
    pytest.param([["bandit", "regret"], ["policy", "reinforcement learning"]],
                 {0: {"bandit": 6, "regret": 9}, 1: {"bandit": 4, "regret": 1, "policy": 9, "reinforcement learning": 5}},
                 ["regret · bandit", "reinforcement learning · policy"], id="the more specific term comes first"),
    # "neural network" and "weight" hold half of their occurrences in each theme: neither names one.
    pytest.param([["neural network", "weight", "data"], ["neural network", "weight", "regret", "bandit"]],
                 {0: {"neural network": 5, "weight": 5, "data": 9},
                  1: {"neural network": 5, "weight": 5, "regret": 9, "bandit": 9}},
                 ["neural network · weight (general)", "regret · bandit"],
                 id="a theme of terms used across themes is general"),
    # Both themes are broad over the same terms: the second takes its next pair of concepts.
    pytest.param([["neural network", "weight", "deep"], ["neural network", "weight", "deep"]],
                 {0: {"neural network": 5, "weight": 5, "deep": 5}, 1: {"neural network": 5, "weight": 5, "deep": 5}},
                 ["neural network · weight (general)", "neural network · deep (general)"], id="labels are unique"),
])
def test_theme_labels_from_shown_terms_and_counts(shown, counts, expected):
    assert labels_of(shown, counts) == expected


def test_a_tiny_corpus_is_labelled_by_its_own_terms():
    texts = pd.Series({
        "r1": "Reinforcement learning (RL) learns a policy from reward.",
        "r2": "Offline RL with a policy and reinforcement learning.",
        "r3": "An RL agent improves its policy by reinforcement learning.",
        "r4": "Policy gradients in reinforcement learning and RL.",
        "p1": "Differential privacy (DP) keeps private data private.",
        "p2": "Private learning under differential privacy with DP noise.",
        "p3": "DP and privacy budgets for private queries.",
        "p4": "Privacy accounting of DP training, private and differential.",
    })
    model = fit_themes(texts.map(analysis_text), ThemeOptions(k=2))
    assert model.themes["top_terms"].tolist() == [
        "private, dp, differential privacy, noise, data, privacy accounting, training, privacy budget, query, learns",
        "policy, reinforcement learning, rl, agent, gradient, offline, learns, reward"]
    assert model.themes["label"].tolist() == ["differential privacy · noise", "reinforcement learning · policy"]


def test_shown_top_terms_never_list_a_phrase_beside_a_word_of_it(seed_model):
    """Issue 21: "reinforcement, reinforcement learning, learning" read as one term listed three times."""
    for theme, terms in seed_model.top_terms.groupby("theme"):
        shown = list(terms.sort_values("rank")["term"])
        words = {term for term in shown if " " not in term}
        assert not [p for p in shown if " " in p and words & set(p.split())], theme
    # NPMI of the shown terms: lower where "network, neural, neural network" counted their own co-occurrence
    assert seed_model.themes["shown_coherence"].tolist() == [0.128665, 0.072924, 0.296391]
    assert seed_model.themes["coherence"].tolist() == [0.200846, 0.198198, 0.296391]


class ThreeBuckets(LocalPartitions):
    n_buckets = 3


@pytest.mark.parametrize("bounds", [[(0, 57)], [(0, 20), (20, 57)], [(0, 5), (5, 6), (6, 40), (40, 57)]])
def test_the_vocabulary_of_partitions_is_the_whole_corpus_cut(monkeypatch, bounds):
    """Summed by term in three buckets, each cut to the most frequent before the corpus's cut: the vocabulary
    and counts of counting the corpus in one piece (theme_counts with min_df, max_df and max_features)."""
    papers = read_corpus(SEED_DIR).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    monkeypatch.setattr(counting, "MAX_TERMS", 150)
    counted = counting._partitioned_counts(ThreeBuckets(), TokenPartitions(tokens, bounds))
    counts, vocabulary = theme_counts(tokens, min_df=2, max_df=themes.MAX_DF, max_features=150)
    assert len(vocabulary) == 150
    assert counted.vocabulary.tolist() == vocabulary.tolist()
    order = np.argsort(tokens.paper_ids, kind="stable")
    assert (counted.rows(np.arange(57)) != counts[order]).nnz == 0
    assert counted.rows(np.array([40, 3, 12])).toarray().tolist() == counts[order][[40, 3, 12]].toarray().tolist()
    assert counted.document_frequency.tolist() == np.bincount(counts.indices, minlength=150).tolist()


def test_themes_are_the_same_in_any_partitions_and_blocks(monkeypatch):
    papers = read_corpus(SEED_DIR).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)

    def model(bounds):
        with themes.model_fitting():
            return themes.start_partitioned_themes(ThreeBuckets(), TokenPartitions(tokens, bounds),
                                                   themes.ThemeOptions(k=5, n_jobs=1)).result()

    monkeypatch.setattr(counting, "TRANSFORM_BLOCK", 10)
    models = [model(bounds) for bounds in ([(0, 57)], [(0, 20), (20, 57)], partition_bounds(57, 7))]
    for other in models[1:]:
        for name in ("themes", "paper_themes", "weights", "top_terms", "selection"):
            pd.testing.assert_frame_equal(getattr(other, name), getattr(models[0], name))
    assert models[0].themes["n_papers"].sum() == 57
