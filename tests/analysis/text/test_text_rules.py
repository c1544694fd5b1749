"""Text preparation rules, one example each."""

import pytest

from helpers.analysis.text.lexicon import singular
from helpers.analysis.text.word_classes import NOUN, word_classes
from helpers.analysis.text.cleaning import analysis_text
from helpers.analysis.text.stop_words import stop_words
from helpers.analysis.text.tokens import segments, tokenize, tokenize_corpus
from helpers.analysis.themes import theme_counts, theme_terms

from tests.support import SEED_DIR

# The addresses of issue 20 that became a theme ("zenodo, abcde, arxiv, doi, http, io, org, osf, record").
LINKS = ("zenodo.org/records/1234567, osf.io/abcde, doi:10.5281/zenodo.7654321, arXiv:2401.01234 and "
         "https//github.com/example/project")


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


@pytest.mark.parametrize("raw, expected_tokens", [
    (f"data at {LINKS} today", ["data", "at", "and", "today"]),                   # every kind of issue 20
    ("see https://x.org and https://x.org again", ["see", "and", "again"]),          # every occurrence
    ("code at github.com/ owner/repo is public", ["code", "at", "is", "public"]),    # a stray space inside
    ("weights on Hugging Face (acme/model-one) now", ["weights", "on", "hugging", "face", "now"]),  # hub ids
    ("[https://github.com/a/b](https://github.com/a/b) works", ["works"]),            # a URL as link text
    ('<a href="https://x.org">code</a> here', ["code", "here"]),                     # the URL, not the tag
    ("[run](javascript:alert(1)) now", ["run", "now"]),                           # no link: its text stays
])
def test_analysis_text_removes_the_spans_the_link_finder_finds(raw, expected_tokens):
    assert tokenize(analysis_text(raw)) == expected_tokens


def test_analysis_text_of_every_link_kind():
    # Each span is the finder's match, its trailing comma or full stop included.
    assert analysis_text(f"Data: {LINKS}.") == "data:  |   |   |   |  and  | "


def test_et_al_and_the_name_before_it_are_removed_in_every_spelling():
    text = analysis_text("As Smith et al. (2020), Li et. al., Wu et al and Xu et.al. show, privacy holds.")
    assert tokenize(text) == ["as", "and", "show", "privacy", "holds"]
    assert tokenize(analysis_text("Budget allocation, et alia.")) == ["budget", "allocation", "et", "alia"]


@pytest.mark.parametrize("word, folded", [
    ("networks", "network"), ("policies", "policy"), ("losses", "loss"), ("patches", "patch"),
    ("gnns", "gnn"), ("analysis", "analysis"), ("bias", "bias"), ("focus", "focus"), ("series", "series"),
    ("matrices", "matrix"), ("biases", "bias"), ("analyses", "analysis"), ("indices", "index"),
    ("vertices", "vertex"), ("hypotheses", "hypothesis"), ("criteria", "criterion"), ("dynamics", "dynamics"),
])
def test_themes_fold_plurals_with_the_term_maps_singular(word, folded):
    assert theme_terms(word) == [folded]
    assert singular(word) == folded


def test_theme_terms_drop_a_plural_of_a_stop_word_and_keep_verbs_as_written():
    assert "framework" in stop_words()
    assert theme_terms("frameworks does graphs") == ["does", "graph", "does graph"]


def test_themes_and_term_map_spell_every_seed_noun_alike():
    from helpers.analysis.corpus import read_corpus

    papers = read_corpus(SEED_DIR).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    classes = word_classes(tokens.vocabulary)
    _, vocabulary = theme_counts(tokens)
    theme_words = {word for term in vocabulary for word in term.split()}
    nouns = set(classes.folded[classes.word_class == NOUN])
    plurals = {str(w) for w, f in zip(tokens.vocabulary, classes.folded) if f != w}
    assert theme_words & plurals == set()
    assert {"matrix", "bias", "analysis"} <= theme_words & nouns
