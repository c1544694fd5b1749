"""The vectorised counting and the multi-process stages give exactly what the per-text rules give."""

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_extraction.text import CountVectorizer

import helpers.analysis._parallel
from helpers.analysis.cooccurrence import (acronym_definitions, acronym_merges, candidate_term_matrix, candidate_terms,
                                  find_acronyms, read_thesaurus)
from helpers.analysis.corpus import read_corpus
from helpers.analysis.links.states import analyse_links, find_links
from helpers.analysis.text.cleaning import analysis_text
from helpers.analysis.text.tokens import segments, tokenize_corpus
from helpers.analysis.themes import ThemeOptions, fit_themes, theme_counts, theme_terms

from tests.support import PMLR_SAMPLE, SEED_DIR

# Texts that stress the tokeniser: possessives, dashes, numbers, single letters, markup, URLs, math.
AWKWARD = [
    "The model's outputs -- and the models’ inputs — are 3 times x better; see www.x.org/a.b.",
    "<em>Graph</em> neural networks (GNNs) on $\\mathbb{R}^n$: fine-tuning, top-5 and A/B tests.",
    "Mixture of experts for graph networks. **Mixture of experts** again!",
    "",
    "só café naïve résumé ﬁne-tuning ＧＮＮｓ",
    "Hg2+ and Cu(II) in PDMS (PDMS) on GaAs in Oeiras, CuSO4 center dot 5H2O in vitro; GGGGG and LLMs; C++ a+b",
]


def corpora():
    texts = {"awkward": pd.Series(AWKWARD, index=[f"p{i}" for i in range(len(AWKWARD))])}
    for name, folder in [("seed", SEED_DIR), ("pmlr", PMLR_SAMPLE)]:
        if folder.exists():
            papers = read_corpus(folder).papers
            texts[name] = papers.set_index("paper_id")["text"]
    return texts


CORPORA = corpora()


@pytest.fixture(params=sorted(CORPORA))
def raw(request):
    return CORPORA[request.param]


def test_tokens_hold_the_runs_of_segments(raw):
    cleaned = raw.map(analysis_text)
    tokens = tokenize_corpus(cleaned.tolist(), cleaned.index, n_jobs=1)
    assert tokens.paper_ids.tolist() == cleaned.index.tolist()
    for i, text in enumerate(cleaned):
        words = tokens.vocabulary[tokens.token_ids[tokens.starts[i]:tokens.starts[i + 1]]]
        runs, run = [], []
        for word in words:
            if word == "|":
                runs, run = (runs + [run], []) if run else (runs, [])
            else:
                run.append(word)
        assert not run  # every text ends with a boundary
        assert runs == list(segments(text))


def test_theme_counts_equal_count_vectorizer(raw):
    cleaned = raw.map(analysis_text)
    tokens = tokenize_corpus(cleaned.tolist(), cleaned.index)
    for options in [dict(min_df=1, max_df=1.0), dict(min_df=2, max_df=0.6), dict(min_df=1, max_df=0.9)]:
        reference = CountVectorizer(analyzer=theme_terms, dtype=np.float64, **options)
        try:
            expected = reference.fit_transform(cleaned.tolist())
        except ValueError:
            with pytest.raises(ValueError):
                theme_counts(tokens, **options)
            continue
        counts, vocabulary = theme_counts(tokens, **options)
        assert vocabulary.tolist() == reference.get_feature_names_out().tolist()
        assert (counts != expected).nnz == 0


def test_theme_counts_max_features_keeps_the_most_frequent():
    tokens = tokenize_corpus(["alpha alpha alpha beta beta gamma", "alpha beta delta"], ["a", "b"])
    counts, vocabulary = theme_counts(tokens, max_features=2)
    assert vocabulary.tolist() == ["alpha", "beta"]
    assert counts.toarray().tolist() == [[3.0, 2.0], [1.0, 1.0]]


def test_candidate_term_matrix_equals_count_vectorizer(raw):
    cleaned = raw.map(analysis_text)
    tokens = tokenize_corpus(cleaned.tolist(), cleaned.index)
    thesaurus = read_thesaurus()
    corpus_merges, paper_merges = acronym_merges(acronym_definitions(raw.tolist()), thesaurus)
    merges = {**corpus_merges, **thesaurus}
    # A merge target that is no term of any text, and a chain (only one step is applied).
    merges.update({"graph": "graph learning method overall", "neural network": "network"})
    for mapping, local in [({}, None), (merges, paper_merges)]:
        per_text = [dict(mapping) for _ in range(len(cleaned))]
        if local is not None:
            first = local.drop_duplicates(["row", "from"])  # an acronym defined twice in one text: the first
            for row, source, target in first[["row", "from", "to"]].itertuples(index=False):
                per_text[row][source] = mapping.get(target, target)
        for min_papers in (1, 2):
            texts = iter(range(len(cleaned)))
            reference = CountVectorizer(analyzer=lambda text: candidate_terms(text, per_text[next(texts)]),
                                        binary=True, min_df=min_papers, dtype=np.int64)
            expected = reference.fit_transform(cleaned.tolist())
            binary, terms = candidate_term_matrix(tokens, mapping, min_papers=min_papers, paper_merges=local)
            assert terms.tolist() == reference.get_feature_names_out().tolist()
            assert (binary != expected).nnz == 0


def test_acronym_definitions_need_the_words_just_before():
    table = find_acronyms([
        "We study (deep neural networks (DNNs) here.",          # the word after '(' still counts
        "One two three four five six seven eight nine ten (OTTFFSSENT).",  # more letters than 8 words
        "Networks, (N) and x3d models (DM).",                    # punctuation breaks the words
        "Vision transformers(ViTs) need a space.",
    ])
    assert table[["acronym", "long_form"]].values.tolist() == [["dnn", "deep neural network"]]


@pytest.mark.skipif(not PMLR_SAMPLE.exists(), reason="needs ../shared/corpora/pmlr-v235-sample")
def test_several_processes_give_the_same_tables(monkeypatch):
    papers = read_corpus(PMLR_SAMPLE).papers
    serial_tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True, n_jobs=1)
    serial_links = analyse_links(papers, n_jobs=1)
    monkeypatch.setattr(helpers.analysis._parallel, "MIN_PARALLEL_ITEMS", 10)
    parallel_tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True, n_jobs=2)
    parallel_links = analyse_links(papers, n_jobs=2)
    for field in ("token_ids", "starts", "vocabulary", "paper_ids"):
        assert np.array_equal(getattr(serial_tokens, field), getattr(parallel_tokens, field))
    for serial, parallel in zip(serial_links, parallel_links):
        pd.testing.assert_frame_equal(serial, parallel)
    links = find_links(papers)
    pd.testing.assert_frame_equal(serial_links[0], links)


@pytest.mark.skipif(not PMLR_SAMPLE.exists(), reason="needs ../shared/corpora/pmlr-v235-sample")
def test_selection_on_a_sample_then_a_final_fit_on_every_abstract():
    papers = read_corpus(PMLR_SAMPLE).papers
    texts = papers.set_index("paper_id")["text"].map(analysis_text)
    model = fit_themes(texts, ThemeOptions(sample_size=60, n_jobs=1))
    again = fit_themes(texts, ThemeOptions(sample_size=60, n_jobs=2))
    settings = model.settings
    assert settings.selection_documents == 60 and settings.final_fit_documents == 150
    assert settings.selection_vocabulary < settings.vocabulary
    assert settings.final_seed in settings.seeds
    assert model.paper_themes["theme"].notna().sum() == 150
    assert model.themes["n_papers"].sum() == 150
    pd.testing.assert_frame_equal(model.themes, again.themes)
    pd.testing.assert_frame_equal(model.paper_themes, again.paper_themes)
