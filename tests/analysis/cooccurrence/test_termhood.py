"""Termhood: specificity against general English, C-value, stock terms, nested terms, acronyms."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence, find_acronyms, pair_table
from helpers.analysis.cooccurrence.acronyms import acronym_definitions, schwartz_hearst_long_form
from helpers.analysis.cooccurrence.nested import nested_merges
from helpers.analysis.cooccurrence.selection import multi_word_min_occurrences, select_terms
from helpers.analysis.cooccurrence.termhood import c_values, english_word_frequency, read_generic_terms, specificity
from helpers.analysis.text.cleaning import analysis_text


def test_schwartz_hearst_examples_of_the_paper_and_of_the_field():
    # The paper's running example, then the three acronyms the initials-only rule missed (issue 21).
    assert schwartz_hearst_long_form("HSF", "expression of Heat shock transcription factor") == \
        "Heat shock transcription factor"
    assert schwartz_hearst_long_form("RLHF", "trained with reinforcement learning from human feedback") == \
        "reinforcement learning from human feedback"
    assert schwartz_hearst_long_form("CoT", "prompting with chain-of-thought") == "chain-of-thought"
    assert schwartz_hearst_long_form("MoE", "a sparse Mixture of Experts") == "Mixture of Experts"
    # The first letter must begin a word: "shock" does not start with h, so "Heat" is taken.
    assert schwartz_hearst_long_form("HS", "Heat shock") == "Heat shock"
    assert schwartz_hearst_long_form("XYZ", "no such letters here") is None


def test_acronym_definitions_find_rlhf_cot_moe_and_drop_possessives():
    texts = ["We align models by Reinforcement Learning from Human Feedback (RLHF).",
             "Chain-of-Thought (CoT) prompting and a Mixture of Experts (MoE) layer.",
             "Large Language Models' (LLMs) errors."]
    table = acronym_definitions(texts)
    assert table.to_dict("records") == [
        {"row": 0, "acronym": "rlhf", "long_form": "reinforcement learning from human feedback"},
        {"row": 1, "acronym": "cot", "long_form": "chain-of-thought"},
        {"row": 1, "acronym": "moe", "long_form": "mixture of expert"},
        {"row": 2, "acronym": "llm", "long_form": "large language model"},
    ]


def test_a_dominant_long_form_is_corpus_wide():
    texts = ["Stochastic Gradient Descent (SGD) a."] * 2 + ["Stochastic Gradient Method (SGD) b."]
    assert find_acronyms(texts).to_dict("records") == [
        {"acronym": "sgd", "long_form": "stochastic gradient descent", "n_papers": 3, "scope": "corpus"}]


def test_english_frequency_is_looked_up_once_per_word():
    english_word_frequency.cache_clear()
    specificity(["neural network", "network", "neural"], np.array([5.0, 5.0, 5.0]), 1000)
    assert english_word_frequency.cache_info().misses == 2


def test_specificity_ranks_field_words_above_general_english():
    values = specificity(["respect", "kernel", "rlhf"], np.array([30.0, 30.0, 30.0]), 100_000)
    assert values.round(3).tolist() == [0.448, 1.897, 5.477]


def test_c_value_subtracts_the_mean_of_longer_candidates():
    values, own = c_values(["network", "neural network", "graph"], np.array([10.0, 6.0, 4.0]),
                           ["network", "neural network", "graph", "deep neural network", "graph network"],
                           np.array([10.0, 6.0, 4.0, 2.0, 4.0]))
    # network: 10 - mean(6, 2, 4); neural network: 6 - 2; graph: 4 - 4 (always inside "graph network")
    assert own.tolist() == [6.0, 4.0, 0.0]
    assert values.round(4).tolist() == [6.0, 6.3399, 0.0]


def test_stock_terms_are_singular_and_include_the_issue_examples():
    stock = read_generic_terms()
    assert {"experimental result", "real-world scenario", "theoretical analysis", "art", "respect"} <= stock


def test_nested_merge_and_no_pair_of_a_term_inside_another():
    X = sparse.csr_matrix(np.array([[1, 1, 1], [1, 1, 0], [1, 0, 1], [0, 0, 1]]))
    terms = np.array(["language model", "large language model", "graph"])
    assert [t.tolist() for t in nested_merges(terms, X)] == [[0], [1]]
    pairs = pair_table(X, terms.tolist())
    assert pairs[["source", "target", "n_papers"]].values.tolist() == [
        ["graph", "language model", 2], ["graph", "large language model", 1]]


def test_multi_word_minimum():
    assert [multi_word_min_occurrences(m) for m in (3, 4, 9, 106)] == [3, 3, 4, 43]


def test_rankings_choose_from_the_same_candidates():
    texts = pd.Series(["Graph kernels and the respect of graph kernels.", "Graph kernels respect.",
                       "Quantum kernels, respect.", "Quantum kernels and graph kernels."], index=list("abcd"))
    kept = {ranking: analyse_cooccurrence(texts, texts.map(analysis_text), TermMapOptions(
                min_occurrences=2, relevant_share=1.0, thesaurus={}, ranking=ranking)).terms["term"].sort_values().tolist()
            for ranking in ("frequency", "relevance", "combined")}
    assert kept == {"frequency": ["graph kernel", "kernel", "quantum kernel", "respect"],
                    "relevance": ["graph kernel", "kernel", "quantum kernel", "respect"],
                    "combined": ["graph kernel", "quantum kernel"]}  # respect: stock; kernel: inside graph kernel


def test_unknown_ranking_is_named():
    import pytest

    with pytest.raises(ValueError, match="ranking must be one of combined, relevance, frequency, got 'x'"):
        select_terms(sparse.csr_matrix((1, 1)), np.array(["a"]), min_occurrences=1, relevant_share=1.0, ranking="x")


def test_the_labelled_sets_load_and_a_bad_label_names_its_line(tmp_path):
    import pytest

    from tests.support import ROOT
    from helpers.analysis.cooccurrence.evaluation import read_landmarks, read_term_labels

    labels = read_term_labels(ROOT / "tests" / "evaluation" / "term_labels.csv")
    # 1,361 rows; "closed form"/"closed-form" and "time step"/"time-step" are one key each (a hyphen is a space).
    assert (len(labels), sorted(set(labels.values()))) == (1359, ["F", "G", "X"])
    assert len(read_landmarks(ROOT / "tests" / "evaluation" / "landmarks.csv")) == 64
    bad = tmp_path / "labels.csv"
    bad.write_text("term,label,note\nkernel,F,\nrespect,Q,\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"labels.csv: line 3: label must be one of F, G, X, got 'Q'"):
        read_term_labels(bad)


def test_burstiness_is_mean_occurrences_per_abstract_using_the_term():
    from helpers.analysis.cooccurrence.termhood import burstiness

    assert burstiness(np.array([6, 5, 0, 2]), np.array([2, 5, 0, 4])).tolist() == [3.0, 1.0, 1.0, 1.0]


def test_candidate_counts_count_every_occurrence_and_a_head_inside_its_phrase():
    from helpers.analysis.cooccurrence import candidate_term_matrix
    from helpers.analysis.text.tokens import tokenize_corpus

    tokens = tokenize_corpus(["graph kernels beat the graph. graph", "a kernel"], ["a", "b"])
    counts, terms = candidate_term_matrix(tokens, counts=True)
    binary, same = candidate_term_matrix(tokens)
    assert terms.tolist() == same.tolist() == ["graph", "graph kernel", "kernel"]
    # "graph" twice on its own (a modifier is no term of its own), "kernel" once inside "graph kernels"
    assert counts.toarray().tolist() == [[2, 1, 1], [0, 0, 1]]
    assert binary.toarray().tolist() == [[1, 1, 1], [0, 0, 1]]


def test_combined_score_of_four_signals_and_a_weight_per_signal():
    import pytest

    from helpers.analysis.cooccurrence.termhood import SCORE_WEIGHTS, SIGNALS, combined_scores

    assert len(SIGNALS) == len(SCORE_WEIGHTS) == 4
    signals = [np.array([1.0, 2.0]), np.array([2.0, 1.0]), np.array([1.0, 2.0]), np.array([1.0, 2.0])]
    # ranks: term 0 (0.5, 1, 0.5, 0.5), term 1 (1, 0.5, 1, 1); geometric means 0.5^(3/4) and 0.5^(1/4)
    assert combined_scores(signals, np.array([False, False])).round(4).tolist() == [0.5946, 0.8409]
    with pytest.raises(ValueError, match="4 signals but 3 weights"):
        combined_scores(signals, np.array([False, False]), weights=(1, 1, 1))


def test_combined_ranking_keeps_a_smaller_share_of_single_words_than_of_phrases():
    from helpers.analysis.cooccurrence.selection import SINGLE_WORD_SHARE, _best_by_length

    assert SINGLE_WORD_SHARE == 0.3
    ranked = np.array([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22])
    multi = np.array([False, True, False, True, False, False, False, False, True, False, False, False, False])
    # 3 phrases -> ceil(0.6 * 3) = 2; 10 single words -> ceil(0.18 * 10) = 2; order of ``ranked`` kept
    assert _best_by_length(ranked, multi, 0.6, min_terms=0).tolist() == [10, 11, 12, 13]


def test_a_small_corpus_map_is_filled_up_to_the_floor_with_the_next_best_terms():
    from helpers.analysis.cooccurrence.selection import MIN_MAP_TERMS, _best_by_length

    assert MIN_MAP_TERMS == 50
    ranked = np.array([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22])
    multi = np.array([False, True, False, True, False, False, False, False, True, False, False, False, False])
    # by length: [10, 11, 12, 13] (above); the floor 6 adds the next best, 14 and 15, whatever their length
    assert _best_by_length(ranked, multi, 0.6, min_terms=6).tolist() == [10, 11, 12, 13, 14, 15]
    # never more than the plain share: ceil(0.6 * 13) = 8
    assert _best_by_length(ranked, multi, 0.6, min_terms=50).tolist() == [10, 11, 12, 13, 14, 15, 16, 17]


def test_select_terms_scores_burstiness_from_the_occurrences():
    X = sparse.csr_matrix(np.array([[1, 1], [1, 1], [1, 0], [0, 1]]))
    selection = select_terms(X, np.array(["kernel", "graph"]), min_occurrences=3, relevant_share=1.0,
                             n_tokens=100, generic_terms=frozenset(), occurrences=np.array([9, 3]))
    assert selection.burstiness.tolist() == [3.0, 1.0]
    # both are single words: ceil(1.0 * 0.3 * 2) = 1 by length, the floor of MIN_MAP_TERMS fills up to ceil(1.0 * 2)
    assert selection.kept.tolist() == [0, 1]


def test_a_term_meeting_the_others_in_one_abstract_joins_their_community():
    from helpers.analysis.cooccurrence.network import CLUSTER_MIN_PAIR_PAPERS, term_network

    assert CLUSTER_MIN_PAIR_PAPERS == 1
    X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [1, 1, 1], [0, 0, 1]]))
    names = ["graph", "kernel", "quantum"]
    terms = pd.DataFrame({"term": names, "n_papers": [3, 3, 2], "relevance": [0.1, 0.1, 0.1]})
    graph, placed, _ = term_network(terms, pair_table(X, names), min_pair_papers=2, seed=0, resolution=1.0)
    # "quantum" shares one abstract with each: no drawn link, but no community of its own either
    assert placed.set_index("term")["degree"].to_dict() == {"graph": 1, "kernel": 1, "quantum": 0}
    assert placed["community"].nunique() == 1


def test_the_held_out_labelled_sets_load():
    from tests.support import ROOT
    from helpers.analysis.cooccurrence.evaluation import read_landmarks, read_term_labels

    labels = read_term_labels(ROOT / "tests" / "evaluation" / "term_labels_heldout.csv")
    assert (len(labels), sorted(set(labels.values()))) == (1053, ["F", "G", "X"])
    assert len(read_landmarks(ROOT / "tests" / "evaluation" / "landmarks_heldout.csv")) == 60


def test_term_quality_glues_the_largest_dev_corpus_and_the_held_out_rows_apart():
    from helpers.book.reports.term_map_quality import term_quality

    rows = [(corpus, n, ranking, share) for corpus, n in (("seed", 57), ("dev", 644), ("synthetic x", 3000),
                                                          ("held-out y", 256))
            for ranking, share in (("frequency", 0.2), ("relevance", 0.4), ("combined", n / 1000))]
    results = pd.DataFrame(rows, columns=["corpus", "n_abstracts", "ranking", "field_share"]).assign(
        n_terms=10, n_unlabelled=0, multi_word_share=0.5, n_landmarks_found=3, n_landmarks=60, landmark_recall=0.05,
        nested_top_pairs=0, generic_single_communities=0)
    table, values = term_quality(results)
    assert len(table) == 12
    assert (values["co_q_corpus"], values["co_q_field_share_combined"]) == ("dev", "64%")
    assert (values["co_qh_n_abstracts"], values["co_qh_field_share_combined"],
            values["co_qh_field_share_relevance"]) == ("256", "26%", "40%")


def test_a_phrase_of_a_stock_head_is_a_stock_term_and_never_reaches_the_map():
    from helpers.analysis.cooccurrence.termhood import is_stock_term

    stock = frozenset({"number", "variety of"})
    assert [is_stock_term(t, stock) for t in ("number", "number of auditor", "chain of thought", "variety")] == [
        True, True, False, False]
    X = sparse.csr_matrix(np.ones((3, 2), dtype=np.int64))
    selection = select_terms(X, np.array(["graph kernel", "number of graph"]), min_occurrences=3,
                             relevant_share=1.0, n_tokens=100, generic_terms=frozenset({"number"}))
    assert selection.generic.tolist() == [1] and selection.kept.tolist() == [0]


def test_the_stock_phrase_count_a_page_states_is_the_list_it_applies():
    """The term-map page states how many stock phrases the list holds without loading the dictionary that folds
    them: the count must be the number of phrases the analysis applies (no two lines fold to one phrase)."""
    from helpers.analysis.cooccurrence.termhood import count_generic_terms, read_generic_terms

    assert count_generic_terms() == len(read_generic_terms())
