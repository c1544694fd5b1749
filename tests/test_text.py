"""Text preparation rules, one example each."""

import pytest

from helpers.analysis.text import analysis_text, fold_plural, segments, stop_words, theme_terms, tokenize


@pytest.mark.parametrize("raw, expected_tokens", [
    ("ﬁne-tuning ＬＬＭｓ", ["fine-tuning", "llms"]),                        # NFKC ligature, full width
    ("Graph Neural Networks", ["graph", "neural", "networks"]),               # lower case
    ("see https://github.com/a/b and www.x.org now", ["see", "and", "now"]),  # URLs removed
    ("scheme-less github.com/owner/repo here", ["scheme-less", "here"]),      # known host without scheme
    ("bound $O(\\sqrt{n})$ holds", ["bound", "holds"]),                        # inline math removed
    ("display $$x^2$$ and \\(y\\) too", ["display", "and", "too"]),            # other math delimiters
    ("<em>epistemic</em> <b>risk</b>", ["epistemic", "risk"]),                # HTML tags, text kept
    ("**bold** and *it* and _u_", ["bold", "and", "it", "and"]),              # Markdown marks dropped
    ("[our code](https://x.org/c) works", ["our", "code", "works"]),          # link text kept
    ("trained 7B models in 2024", ["trained", "models", "in"]),               # numbers dropped
    ("the model's state-of-the-art", ["the", "model", "state-of-the-art"]),   # possessive, hyphens
    ("AT&amp;T style entities", ["at", "style", "entities"]),                 # entities decoded
])
def test_analysis_text_rules(raw, expected_tokens):
    assert tokenize(analysis_text(raw)) == expected_tokens


def test_removed_spans_are_boundaries():
    assert list(segments(analysis_text("deep $x$ learning"))) == [["deep"], ["learning"]]
    assert list(segments("graph neural networks. next sentence")) == [
        ["graph", "neural", "networks"], ["next", "sentence"]]


def test_stop_words_include_sklearn_and_boilerplate():
    assert {"the", "and", "we", "propose", "paper", "method", "approach", "results", "show", "novel"} <= stop_words()


def test_theme_terms_have_bigrams_within_runs_only():
    assert theme_terms("graph networks. deep models") == [
        "graph", "network", "deep", "model", "graph network", "deep model"]


@pytest.mark.parametrize("word, folded", [
    ("networks", "network"), ("policies", "policy"), ("losses", "loss"), ("patches", "patch"),
    ("gnns", "gnn"), ("analysis", "analysis"), ("bias", "bias"), ("focus", "focus"), ("series", "series"),
])
def test_fold_plural(word, folded):
    assert fold_plural(word) == folded
