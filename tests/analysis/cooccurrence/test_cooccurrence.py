"""Term counting, pair measures, merging, exports and edge cases."""

import json
from pathlib import Path

import networkx as nx
import pandas as pd
import pytest

from helpers.analysis.cooccurrence import (RELEVANT_SHARE, TermMapOptions, analyse_cooccurrence, candidate_terms, default_min_occurrences,
                                  find_acronyms, network_writers, read_thesaurus)
from helpers.analysis.pipeline import AnalysisSettings, run_pipeline, write_outputs
from helpers.analysis.settings import SettingsError
from helpers.analysis.text.cleaning import analysis_text

from tests.support import SEED_DIR

SEED_N_TERMS = 50  # issue 21: stock terms out, nested merged, single words held to a stricter share, filled up to MIN_MAP_TERMS (was 96 by relevance alone)

# Four abstracts with known term sets (stop words and boilerplate vanish).
HAND_MADE = {
    "p1": "Quantum kernels. Galaxy clusters.",
    "p2": "Quantum kernels. Galaxy clusters. Quantum kernels again.",
    "p3": "Galaxy clusters. Spiking neurons.",
    "p4": "Spiking neurons. Quantum kernels.",
}


def hand_made_result(**options):
    raw = pd.Series(HAND_MADE)
    options = {"min_occurrences": 2, "relevant_share": 1.0, "thesaurus": {}, **options}
    return analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(**options))


def test_binary_counts_and_pairs_on_hand_made_corpus():
    result = hand_made_result(min_pair_papers=1)
    counts = dict(zip(result.terms["term"], result.terms["n_papers"]))
    # "quantum" occurs only inside "quantum kernel" (same papers), so the shorter term is dropped.
    assert counts == {"quantum kernel": 3, "galaxy cluster": 3, "spiking neuron": 2}
    pairs = result.pairs.set_index(["source", "target"])
    assert pairs["n_papers"].to_dict() == {
        ("galaxy cluster", "quantum kernel"): 2,
        ("galaxy cluster", "spiking neuron"): 1,
        ("quantum kernel", "spiking neuron"): 1,
    }
    # k_i = total co-occurrences: galaxy 3, quantum 3, spiking 2; m = 4.
    assert pairs.loc[("galaxy cluster", "quantum kernel"), "association_strength"] == pytest.approx(2 * 4 * 2 / (3 * 3), abs=1e-6)
    assert pairs.loc[("galaxy cluster", "spiking neuron"), "association_strength"] == pytest.approx(2 * 4 * 1 / (3 * 2), abs=1e-6)
    assert pairs.loc[("galaxy cluster", "quantum kernel"), "jaccard"] == pytest.approx(2 / (3 + 3 - 2), abs=1e-6)
    assert pairs.loc[("quantum kernel", "spiking neuron"), "jaccard"] == pytest.approx(1 / (3 + 2 - 1), abs=1e-6)


def test_threshold_hides_pairs_from_drawing_not_from_table():
    result = hand_made_result(min_pair_papers=2)
    assert len(result.pairs) == 3
    assert sorted(result.graph.edges()) == [("galaxy cluster", "quantum kernel")]


def test_no_pair_above_threshold_gives_a_message():
    result = hand_made_result(min_pair_papers=5)
    assert result.graph.number_of_edges() == 0
    assert result.message == "no pair of terms shares at least 5 abstracts, so the network has no links"
    assert result.modularity == 0.0
    assert result.terms["community"].is_unique


def test_no_term_frequent_enough_gives_a_message():
    raw = pd.Series({"p1": "Galaxy clusters collide.", "p2": "Spiking neurons fire."})
    result = analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(min_occurrences=2, thesaurus={}))
    assert result.terms.empty and result.pairs.empty
    assert result.message == "no term occurs in at least 2 abstracts"


# Golden rule: the exact terms each sentence must yield (and, by exactness, must not).
GOLDEN = {
    "We propose graph neural networks that learn quickly and require optimal deep features.":
        ["deep feature", "feature", "graph neural network", "network", "neural network", "optimal deep feature"],
    "The matrices and indices of the analyses test hypotheses about biases in Bayes classifiers.":
        ["analysis", "bayes classifier", "bias", "classifier", "hypothesis", "index", "matrix"],
    "Our frameworks and solutions (Smith et al., 2020) work.": [],
    "Offline reinforcement learning trains large language models with a sparse mixture of experts.":
        ["expert", "language model", "large language model", "learning", "mixture", "mixture of expert", "model",
         "offline reinforcement learning", "reinforcement learning", "sparse mixture", "sparse mixture of expert"],
    "To model pretrained language models, we design self-supervised objectives.":
        ["language model", "model", "objective", "pretrained language model", "self-supervised objective"],
}


@pytest.mark.parametrize("sentence", sorted(GOLDEN))
def test_golden_terms(sentence):
    assert sorted(candidate_terms(analysis_text(sentence))) == GOLDEN[sentence]


def test_no_verb_adverb_or_bare_adjective_is_a_term():
    terms = candidate_terms(analysis_text("Models learn quickly; the neural and deep layers are optimal and diverse."))
    assert terms == {"model", "deep layer", "layer"}


def test_thesaurus_merges_variants(tmp_path):
    path = tmp_path / "thesaurus.csv"
    path.write_text("label,replace by\nNeural Nets,neural network\n")
    mapping = read_thesaurus(path)
    assert mapping == {"neural net": "neural network"}
    assert "neural network" in candidate_terms("deep neural nets", mapping)
    bad = tmp_path / "bad.csv"
    bad.write_text("from,to\n")
    with pytest.raises(ValueError, match="bad.csv: line 1"):
        read_thesaurus(bad)


def test_acronyms_merge_corpus_wide_when_defined_alike():
    texts = ["Graph neural networks (GNNs) are strong. GNNs scale.", "We train GNNs on graphs.",
             "Graph Neural Networks (GNN) again."]
    acronyms = find_acronyms(texts)
    assert acronyms.to_dict("records") == [
        {"acronym": "gnn", "long_form": "graph neural network", "n_papers": 2, "scope": "corpus"}]
    raw = pd.Series(texts, index=["p1", "p2", "p3"])
    result = analyse_cooccurrence(raw, raw.map(analysis_text),
                                  TermMapOptions(min_occurrences=2, relevant_share=1.0, thesaurus={}))
    assert dict(zip(result.terms["term"], result.terms["n_papers"]))["graph neural network"] == 3
    assert "gnn" not in set(result.terms["term"])
    assert result.merges.iloc[0].to_dict() == {"from": "gnn", "to": "graph neural network", "source": "acronym"}


def test_acronym_defined_once_renames_only_its_own_abstract():
    texts = ["An Adaptive Robust Method (ARM) picks each arm.", "Each bandit arm pays.", "The arm of a bandit."]
    acronyms = find_acronyms(texts)
    assert acronyms.to_dict("records") == [
        {"acronym": "arm", "long_form": "adaptive robust method", "n_papers": 1, "scope": "defining abstracts"}]
    raw = pd.Series(texts, index=["p1", "p2", "p3"])
    result = analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(
        min_occurrences=1, relevant_share=1.0, thesaurus={},
        ranking="relevance"))  # the combined ranking would fold "arm" into "bandit arm"
    column = list(result.terms["term"]).index("arm")
    rows = result.paper_terms[:, column].nonzero()[0].tolist()
    assert [result.paper_ids[r] for r in rows] == ["p2", "p3"]
    assert result.merges.to_dict("records") == [
        {"from": "arm", "to": "adaptive robust method", "source": "acronym in defining abstracts"}]


def test_inconsistent_long_forms_stay_local():
    acronyms = find_acronyms(["Proximal Policy Optimisation (PPO) here.", "Private Preference Oracles (PPO) there."])
    assert acronyms[["acronym", "n_papers", "scope"]].values.tolist() == [["ppo", 2, "defining abstracts"]]


def test_acronym_needs_matching_initials():
    assert find_acronyms(["We use a method (XYZ) here."]).empty


@pytest.fixture(scope="module")
def seed_outputs(tmp_path_factory, seed_analysis):
    folder = tmp_path_factory.mktemp("out")
    results = seed_analysis
    write_outputs(results, folder)
    return results, folder


def test_exports_reread_with_same_nodes_and_edges(seed_outputs):
    results, folder = seed_outputs
    result = results.cooccurrence
    nodes = set(result.terms["term"])
    edges = {tuple(sorted(e)) for e in result.graph.edges()}
    for name in ["network.graphml", "network.gexf"]:
        graph = nx.read_graphml(folder / name) if name.endswith("graphml") else nx.read_gexf(folder / name)
        labels = nx.get_node_attributes(graph, "label")
        assert {labels.get(n, n) for n in graph.nodes} == nodes
        assert {tuple(sorted((labels.get(u, u), labels.get(v, v)))) for u, v in graph.edges()} == edges
    document = json.loads((folder / "network.json").read_text())
    items, links = document["network"]["items"], document["network"]["links"]
    assert {i["label"] for i in items} == nodes
    assert all({"id", "label", "x", "y", "cluster", "weights"} <= set(i) for i in items)
    assert all(set(i["weights"]) == {"Links", "Total link strength", "Occurrences"} for i in items)
    by_id = {i["id"]: i["label"] for i in items}
    assert {tuple(sorted((by_id[link["source_id"]], by_id[link["target_id"]]))) for link in links} == edges
    network_lines = (folder / "vosviewer_network.txt").read_text().splitlines()
    assert len(network_lines) == len(edges)
    map_table = pd.read_csv(folder / "vosviewer_map.txt", sep="\t")
    assert list(map_table.columns) == ["id", "label", "x", "y", "cluster", "weight<Occurrences>"]


@pytest.mark.parametrize("options, message", [
    ({"min_occurrences": 0}, "--min-occurrences: must be a whole number of at least 1, got 0"),
    ({"min_occurrences": 2.5}, "--min-occurrences: must be a whole number of at least 1, got 2.5"),
    ({"relevant_share": 0}, "--relevant-share: must be a number above 0 and at most 1, got 0"),
    ({"relevant_share": 1.5}, "--relevant-share: must be a number above 0 and at most 1, got 1.5"),
])
def test_bad_settings_name_the_option_and_range(options, message):
    # The same check as the CLI's and the book's (helpers.analysis.settings), named by the analysis's option.
    raw = pd.Series(HAND_MADE)
    with pytest.raises(SettingsError) as raised:
        analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(**options))
    assert str(raised.value) == message


def test_relevant_share_keeps_the_most_relevant_terms():
    full = hand_made_result()
    half = hand_made_result(relevant_share=0.5)
    assert len(full.terms) == 3 and len(half.terms) == 2
    assert half.settings.relevant_share == 0.5 and half.settings.min_occurrences == 2
    assert half.below_cut["term"].tolist() == sorted(set(full.terms["term"]) - set(half.terms["term"]))


def test_minimum_occurrences_grow_with_the_corpus():
    assert [default_min_occurrences(n) for n in (10, 57, 495, 3_000, 100_000)] == [3, 3, 8, 19, 106]
    assert RELEVANT_SHARE == 0.6


def test_network_writers_write_every_file(tmp_path):
    writers = network_writers(hand_made_result(min_pair_papers=1))
    assert sorted(writers) == ["network.gexf", "network.graphml", "network.json", "vosviewer_map.txt",
                               "vosviewer_network.txt"]
    for name, write in writers.items():
        write(tmp_path / name)
    assert len((tmp_path / "vosviewer_network.txt").read_text().splitlines()) == 3


def test_seed_network(seed_outputs):
    results, folder = seed_outputs
    result = results.cooccurrence
    assert result.settings.min_occurrences == 3 and result.settings.relevant_share == 0.6
    assert len(result.terms) == SEED_N_TERMS
    assert result.terms["n_papers"].min() == 3
    pairs = pd.read_csv(folder / "term_pairs.csv")
    assert (pairs["source"] < pairs["target"]).all()
    assert not pairs.duplicated(["source", "target"]).any()
    assert round(result.modularity, 6) == 0.391458


def test_deterministic(tmp_path, seed_analysis):
    """Two runs (the session's and a new one) write the same bytes."""
    for name, analysis in [("a", seed_analysis), ("b", run_pipeline([SEED_DIR], AnalysisSettings()))]:
        write_outputs(analysis, (tmp_path / name).mkdir() or tmp_path / name)
    files = sorted(path.relative_to(tmp_path / "a") for path in (tmp_path / "a").rglob("*") if path.is_file())
    # 10 CSV tables (theme_hierarchy.csv and left_out_terms.csv too), 5 network files, summary.json, 3 Parquet parts
    # and the starter theme file
    assert len(files) == 20 and Path("theme_names.tsv") in files
    for path in files:
        assert (tmp_path / "a" / path).read_bytes() == (tmp_path / "b" / path).read_bytes(), path


# Figures and chapter values: each returns a figure and the rows it shows; the page stays bounded.
def test_term_map_figure_returns_figure_and_one_row_per_term():
    from helpers.book.reports.network_figures import term_map_figure, term_map_values

    result = hand_made_result(min_pair_papers=1)
    figure, data = term_map_figure(result, corpus_label="test")
    assert sorted(text.get_text() for text in figure.axes[0].texts) == sorted(data.loc[data["labelled"], "term"])
    assert sorted(data["term"]) == ["galaxy cluster", "quantum kernel", "spiking neuron"]
    assert data["drawn"].all() and data["labelled"].all()
    assert term_map_values(data) == {"co_n_drawn": 3, "co_n_labelled": 3, "co_min_drawn_set": 5, "co_max_labels": 40}


def test_term_map_leaves_out_terms_without_links():
    from helpers.book.reports.network_figures import term_map_figure

    figure, data = term_map_figure(hand_made_result(min_pair_papers=2), corpus_label="test")
    assert data.set_index("term")["drawn"].to_dict() == {
        "galaxy cluster": True, "quantum kernel": True, "spiking neuron": False}


def test_ego_and_theme_figures_return_their_rows():
    from helpers.book.reports.community_figures import community_theme_figure, ego_figure

    result = hand_made_result(min_pair_papers=1, resolution=1.0)  # one community of three terms at resolution 1
    _, ego = ego_figure(result, corpus_label="test")
    # One hub, the term naming the one community, with its two partners.
    assert ego[["hub", "neighbour"]].values.tolist() == [["galaxy cluster", "quantum kernel"],
                                                         ["galaxy cluster", "spiking neuron"]]
    themes = pd.Series({"p1": 1, "p2": 1, "p3": 2, "p4": 2})
    _, table = community_theme_figure(result, themes, {1: "a", 2: "b"}, corpus_label="test")
    assert table.columns.tolist() == ["community", "1. a", "2. b"]
    _, empty = community_theme_figure(result, themes, {}, corpus_label="test")
    assert empty.empty


def test_strongest_pairs_are_bounded_and_link_to_the_explorer():
    from helpers.book.reports.cooccurrence import strongest_pairs_table

    result = hand_made_result(min_pair_papers=1)
    table = strongest_pairs_table(result, {"p1": "<b>One</b>"}, top=2, examples_per_pair=1)
    assert table["pair"].tolist() == ["galaxy cluster + quantum kernel", "galaxy cluster + spiking neuron"]
    assert table["examples"][0] == '<a href="explorer.html#paper-p1">&lt;b&gt;One&lt;/b&gt;</a>'
    assert table["all"][0] == '<a href="explorer.html?term=galaxy%20cluster&amp;term=quantum%20kernel">all 2 papers</a>'


def test_chapter_values_have_defaults_without_a_network():
    from helpers.book.reports.cooccurrence import chapter_values

    raw = pd.Series({"p1": "Galaxy clusters collide.", "p2": "Spiking neurons fire."})
    values = chapter_values(analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(thesaurus={})))
    assert values["co_n_terms"] == 0 and values["co_n_edges"] == 0 and values["co_below_cut"] == "none"
    assert values["co_message"] == "no term occurs in at least 3 abstracts"


def test_stored_and_analysis_texts_must_be_the_same_papers_in_the_same_order():
    """Acronym definitions are found in the stored texts and applied by row to the analysis texts."""
    raw = pd.Series({"p1": "Graph neural networks (GNNs) scale.", "p2": "Quantum kernels.", "p3": "GNNs."})
    with pytest.raises(ValueError, match="^raw_texts has 2 texts, analysis_texts 3$"):
        analyse_cooccurrence(raw.iloc[:2], raw.map(analysis_text), TermMapOptions(thesaurus={}))
    with pytest.raises(ValueError, match="^raw_texts and analysis_texts differ in paper order: row 0 is p3, not p1$"):
        analyse_cooccurrence(raw.iloc[::-1], raw.map(analysis_text), TermMapOptions(thesaurus={}))


def test_per_abstract_merges_must_name_rows_of_the_corpus():
    from helpers.analysis.cooccurrence import candidate_term_matrix
    from helpers.analysis.text.tokens import tokenize_corpus

    tokens = tokenize_corpus(["the gnns scale"], ["p1"])
    merges = pd.DataFrame({"row": [1], "from": ["gnn"], "to": ["graph neural network"]})
    with pytest.raises(ValueError, match=r"^paper_merges row 1 is outside the corpus \(1 texts\)$"):
        candidate_term_matrix(tokens, paper_merges=merges)


def test_an_acronym_defined_twice_in_one_abstract_takes_its_first_long_form():
    """Ties in the per-abstract merges (one abstract, one acronym, two long forms) keep text order: the
    first definition wins in every abstract (an unstable sort picked either, here in 55 of 130)."""
    first_rank = ("Learning to rank (LTR), sparse kernel machines (SKM), latent topic regression (LTR), "
                  "structured kernel models (SKM) and dense neural nets (DNN): the LTR works.")
    first_regression = first_rank.replace("Learning to rank", "Latent topic regression", 1).replace(
        "latent topic regression (LTR)", "learning to rank (LTR)")
    texts = [first_rank if i % 2 else first_regression for i in range(130)] + [
        "Sparse kernel machines (SKM) once.", "Structured kernel models (SKM) twice."]
    from helpers.analysis.cooccurrence import acronym_definitions, acronym_merges, candidate_term_matrix
    from helpers.analysis.text.tokens import tokenize_corpus

    corpus_wide, local = acronym_merges(acronym_definitions(texts), {})
    assert corpus_wide == {"dnn": "dense neural net"} and len(local) == 522
    tokens = tokenize_corpus([analysis_text(t) for t in texts], [f"p{i:03d}" for i in range(len(texts))])
    binary, terms = candidate_term_matrix(tokens, corpus_wide, paper_merges=local)
    # "learning to rank" is no noun phrase: it is a term only where the acronym's occurrence becomes it.
    column = terms.tolist().index("learning to rank")
    assert binary[:, column].nonzero()[0].tolist() == list(range(1, 130, 2))


def test_density_view_has_one_row_per_drawn_term():
    from helpers.book.reports.network_figures import density_figure

    figure, data = density_figure(hand_made_result(min_pair_papers=1), corpus_label="test")
    assert sorted(text.get_text() for text in figure.axes[0].texts) == sorted(data.loc[data["labelled"], "term"])
    assert sorted(data["term"]) == ["galaxy cluster", "quantum kernel", "spiking neuron"]
    assert data["density"].between(0, 1).all() and data["labelled"].all()
    _, empty = density_figure(hand_made_result(min_pair_papers=9), corpus_label="test")
    assert empty.empty


def test_a_community_counts_each_of_its_papers_once():
    result = hand_made_result()
    terms = result.terms.set_index("term")["community"]
    papers_using = {"quantum kernel": {"p1", "p2", "p4"}, "galaxy cluster": {"p1", "p2", "p3"},
                    "spiking neuron": {"p3", "p4"}}
    for row in result.communities.itertuples(index=False):
        members = [term for term, community in terms.items() if community == row.community]
        assert row.n_papers == len(set().union(*(papers_using[t] for t in members)))
    assert result.communities["n_papers"].max() <= len(HAND_MADE)


def test_static_term_map_uses_the_interactive_maps_colours_and_has_a_legend():
    from helpers.book.reports.network_figures import term_map_figure
    from helpers.web.term_map import community_colour

    result = hand_made_result(min_pair_papers=1, resolution=1.0)  # one community at resolution 1
    figure, data = term_map_figure(result, corpus_label="test")
    assert data["colour"].tolist() == [community_colour(int(c)) for c in data["community"]]
    legend = figure.axes[0].get_legend()
    shown = [text.get_text() for text in legend.get_texts()]
    assert shown == ["1 (3 terms): galaxy cluster, quantum kernel, spiking neuron"]


def test_a_selection_taken_from_a_larger_selection_is_the_same_matrix():
    import numpy as np
    from scipy import sparse

    from helpers.analysis.cooccurrence.selection import _among

    rng = np.random.default_rng(3)
    papers = sparse.random(60, 40, density=0.15, random_state=4, format="csr")
    papers.data[:] = 1
    gram = sparse.csr_matrix((papers.T @ papers).astype(np.int64))
    first = np.sort(rng.choice(40, size=25, replace=False))
    later = np.sort(rng.choice(first, size=12, replace=False))
    direct, nested = _among(gram, later), _among(_among(gram, first), np.searchsorted(first, later))
    assert direct.nnz > 20
    assert (direct.indptr.tolist(), direct.indices.tolist(), direct.data.tolist()) == \
        (nested.indptr.tolist(), nested.indices.tolist(), nested.data.tolist())
