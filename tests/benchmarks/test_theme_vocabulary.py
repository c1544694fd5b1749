"""The phrase-merged theme vocabulary tried in ``benchmarks/theme_vocabulary.py``."""

from __future__ import annotations

import sys

from tests.support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from theme_vocabulary import distinct_top_terms, phrase_merged_counts, reference_presence  # noqa: E402

from helpers.analysis.text.cleaning import analysis_text  # noqa: E402
from helpers.analysis.text.tokens import tokenize_corpus


def test_phrases_take_their_words_longest_first_and_other_words_stay_unigrams():
    texts = ["Deep reinforcement learning agents learn policies.",
             "Reinforcement learning with large language models; language models and learning."]
    tokens = tokenize_corpus([analysis_text(t) for t in texts], ["a", "b"])
    phrases = frozenset({"reinforcement learning", "deep reinforcement learning", "large language model",
                         "language model", "kernel"})  # a single word is no phrase: it stays a unigram
    counts, terms = phrase_merged_counts(tokens, phrases)
    table = {t: c for t, c in zip(terms.tolist(), counts.toarray().astype(int).T.tolist())}
    assert table == {"agent": [1, 0], "deep reinforcement learning": [1, 0], "language model": [0, 1],
                     "large language model": [0, 1], "learn": [1, 0], "learning": [0, 1], "policy": [1, 0],
                     "reinforcement learning": [0, 1]}


def test_bigrams_of_the_words_no_phrase_took():
    tokens = tokenize_corpus([analysis_text("Graph neural networks and sparse graph kernels.")], ["a"])
    counts, terms = phrase_merged_counts(tokens, frozenset({"graph neural network"}), bigrams=True)
    assert dict(zip(terms.tolist(), counts.toarray()[0].astype(int).tolist())) == {
        "graph": 1, "graph kernel": 1, "graph neural network": 1, "kernel": 1, "sparse": 1, "sparse graph": 1}


def test_min_df_and_max_features_as_today():
    tokens = tokenize_corpus(["graph kernel graph", "graph kernel", "kernel"], ["a", "b", "c"])
    counts, terms = phrase_merged_counts(tokens, frozenset({"graph kernel"}), min_df=2)
    # "graph" outside the phrase and "kernel" outside it are in one abstract each
    assert terms.tolist() == ["graph kernel"] and counts.toarray().astype(int).tolist() == [[1], [1], [0]]
    assert phrase_merged_counts(tokens, frozenset({"graph kernel"}), max_features=1)[1].tolist() == ["graph kernel"]


def test_top_terms_skip_a_term_inside_a_higher_ranked_phrase():
    ranked = ["reinforcement learning", "reinforcement", "learning", "policy", "time series", "series", "reward"]
    assert distinct_top_terms(ranked, 4) == ["reinforcement learning", "policy", "time series", "reward"]
    # a word ranked above its phrase stays, and so does the phrase
    assert distinct_top_terms(["learning", "reinforcement learning", "reward"], 3) == [
        "learning", "reinforcement learning", "reward"]


def test_reference_presence_marks_the_abstracts_where_a_term_s_words_follow_each_other():
    texts = ["Heat stress lowers feed intake in broilers.", "Feed and heat: stress of broilers.",
             "Broilers under heat stress eat less feed."]
    tokens = tokenize_corpus([analysis_text(t) for t in texts], ["a", "b", "c"])
    terms = ["heat stress", "feed intake", "broiler", "stress heat", "water"]
    presence = reference_presence(tokens, terms).toarray().astype(int)
    # a phrase needs its words one after another (not across "heat: stress"); an unknown word is nowhere
    assert presence.T.tolist() == [[1, 0, 1], [1, 0, 0], [1, 1, 1], [0, 0, 0], [0, 0, 0]]
