"""Term counting, pair measures, merging, exports and edge cases."""

import json

import networkx as nx
import pandas as pd
import pytest

from helpers.cooccurrence import analyse_cooccurrence, candidate_terms, find_acronyms, read_thesaurus
from helpers.pipeline import AnalysisSettings, run_pipeline, write_outputs
from helpers.text import analysis_text

from conftest import SEED_DIR

# Four abstracts with known term sets (stop words and boilerplate vanish).
HAND_MADE = {
    "p1": "Quantum kernels. Galaxy clusters.",
    "p2": "Quantum kernels. Galaxy clusters. Quantum kernels again.",
    "p3": "Galaxy clusters. Spiking neurons.",
    "p4": "Spiking neurons. Quantum kernels.",
}


def hand_made_result(**options):
    raw = pd.Series(HAND_MADE)
    return analyse_cooccurrence(raw, raw.map(analysis_text), min_papers=2, thesaurus={}, **options)


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
    result = analyse_cooccurrence(raw, raw.map(analysis_text), min_papers=2, thesaurus={})
    assert result.terms.empty and result.pairs.empty
    assert result.message == "no term occurs in at least 2 abstracts"


def test_plural_folding_and_phrase_rules():
    assert candidate_terms("neural networks") == {"neural", "network", "neural network"}
    assert "the model" not in candidate_terms("the model")
    assert candidate_terms("quickly converging") == {"converging"}


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


def test_acronyms_merge_with_long_form():
    texts = ["Graph neural networks (GNNs) are strong. GNNs scale.", "We train GNNs on graphs."]
    acronyms = find_acronyms(texts)
    assert acronyms.to_dict("records") == [
        {"acronym": "gnn", "long_form": "graph neural network", "n_papers": 1}]
    raw = pd.Series(texts, index=["p1", "p2"])
    result = analyse_cooccurrence(raw, raw.map(analysis_text), min_papers=2, thesaurus={})
    assert dict(zip(result.terms["term"], result.terms["n_papers"]))["graph neural network"] == 2
    assert "gnn" not in set(result.terms["term"])
    assert result.merges.iloc[0].to_dict() == {"from": "gnn", "to": "graph neural network", "source": "acronym"}


def test_acronym_needs_matching_initials():
    assert find_acronyms(["We use a method (XYZ) here."]).empty


@pytest.fixture(scope="module")
def seed_outputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("out")
    results = run_pipeline([SEED_DIR], AnalysisSettings())
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
    assert {tuple(sorted((by_id[l["source_id"]], by_id[l["target_id"]]))) for l in links} == edges
    network_lines = (folder / "vosviewer_network.txt").read_text().splitlines()
    assert len(network_lines) == len(edges)
    map_table = pd.read_csv(folder / "vosviewer_map.txt", sep="\t")
    assert list(map_table.columns) == ["id", "label", "x", "y", "cluster", "weight<Occurrences>"]


def test_seed_network(seed_outputs):
    results, folder = seed_outputs
    result = results.cooccurrence
    assert len(result.terms) == 60
    assert result.terms["n_papers"].min() >= result.settings["min_papers"] == 2
    pairs = pd.read_csv(folder / "term_pairs.csv")
    assert (pairs["source"] < pairs["target"]).all()
    assert not pairs.duplicated(["source", "target"]).any()
    assert 0 < result.modularity < 1


def test_deterministic(tmp_path):
    for name in ["a", "b"]:
        write_outputs(run_pipeline([SEED_DIR], AnalysisSettings()), (tmp_path / name).mkdir() or tmp_path / name)
    for path in sorted((tmp_path / "a").iterdir()):
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes(), path.name
