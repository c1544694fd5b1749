"""A term map a reader can trust: communities measured, one table for every count of
terms, a link cap true by construction, ego figures with few labels that do not overlap, and landing-page
pairs from different communities with example papers of their own."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from helpers.analysis.cooccurrence import (  # noqa: E402
    TermMapOptions,
    analyse_cooccurrence,
    distinct_pairs,
    vosviewer_document,
)
from helpers.analysis.cooccurrence.communities import community_cohesion, community_table, term_cohesion  # noqa: E402
from helpers.analysis.cooccurrence.evaluation import read_landmark_fields  # noqa: E402
from helpers.analysis.cooccurrence.network import MAX_LINKS_PER_TERM, cap_links  # noqa: E402
from helpers.analysis.text.cleaning import analysis_text  # noqa: E402
from helpers.book.reports import community_figures, network_figures as nf  # noqa: E402
from helpers.book.reports.cooccurrence import community_terms, strongest_pairs_table  # noqa: E402
from helpers.web.term_map import term_map_data  # noqa: E402

from tests.support import ROOT, benchmark_results  # noqa: E402


@pytest.fixture(scope="module")
def seed(seed_analysis):
    return seed_analysis.cooccurrence


def small(texts: dict[str, str], **options):
    raw = pd.Series(texts)
    options = {"min_occurrences": 2, "relevant_share": 1.0, "thesaurus": {}, **options}
    return analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(**options))


# A hub term ("quantum kernel") in every abstract, each other term in two of them.
STAR = {f"p{i}": f"Quantum kernels. {name}." for i, name in enumerate(
    ["Galaxy clusters", "Spiking neurons", "Protein folds", "Dark matter", "Tidal waves", "Solar flares"] * 2)}


def test_no_term_has_more_links_than_the_cap_on_a_star():
    result = small(STAR, min_pair_papers=1)
    assert result.graph.degree("quantum kernel") == MAX_LINKS_PER_TERM == 4
    # Six partners share two abstracts each with the hub: the pairs table keeps all six.
    assert len(result.pairs[(result.pairs["source"] == "quantum kernel") | (result.pairs["target"] == "quantum kernel")]) == 6


def test_the_link_cap_holds_on_the_seed(seed):
    degrees = dict(seed.graph.degree())
    assert max(degrees.values()) == MAX_LINKS_PER_TERM
    assert seed.graph.number_of_edges() == 58 and seed.settings.min_pair_papers == 2


def test_cap_links_keeps_the_strongest_first():
    pairs = pd.DataFrame({"source": ["a", "b", "c", "a"], "target": ["hub", "hub", "hub", "b"],
                          "n_papers": [2, 2, 2, 2], "association_strength": [3.0, 2.0, 1.0, 0.5]})
    assert cap_links(pairs, 1)[["source", "target"]].values.tolist() == [["a", "hub"]]
    assert cap_links(pairs, 2)[["source", "target"]].values.tolist() == [["a", "hub"], ["b", "hub"], ["a", "b"]]


def test_static_legend_interactive_legend_and_table_give_the_same_counts(seed):
    table = seed.communities
    assert table["n_terms"].tolist() == [9, 9, 7, 7, 6, 4, 4, 4]
    assert table["n_terms"].sum() == len(seed.terms)
    figure, data = nf.term_map_figure(seed, corpus_label="seed")
    shown = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    plt.close(figure)
    drawn = set(data.loc[data["drawn"], "community"])
    expected = [f"{row.community} ({row.n_terms} {'term' if row.n_terms == 1 else 'terms'}): "
                + ", ".join(row.top_terms.split(", ")[:3]) for row in table.itertuples() if row.community in drawn]
    assert shown == expected
    assert shown[0] == "1 (9 terms): human feedback, rlhf, reinforcement learning"
    interactive = term_map_data(vosviewer_document(seed), community_terms=community_terms(seed))
    counted = [entry["n_terms"] for entry in interactive["legend"] if not entry["other"]]
    assert counted == table["n_terms"].tolist()
    named = [[interactive["terms"][i]["label"] for i in entry["top"]] for entry in interactive["legend"]]
    assert named == [row.split(", ")[:3] for row in table["top_terms"]]


def test_a_term_without_links_keeps_its_communitys_colour():
    result = small(STAR, min_pair_papers=1)
    unlinked = [t for t in result.terms["term"] if result.graph.degree(t) == 0]
    assert len(unlinked) == 2
    data = term_map_data(vosviewer_document(result))
    by_label = {t["label"]: t for t in data["terms"]}
    community = dict(zip(result.terms["term"], result.terms["community"]))
    assert all(by_label[t]["colour"] == nf.community_colours(pd.Series([community[t]]))[0] for t in unlinked)


def test_community_table_names_communities_by_their_own_terms():
    terms = pd.DataFrame({"term": ["model", "policy", "reward", "graph", "node"], "community": [1, 1, 1, 2, 2],
                          "n_papers": [50, 10, 8, 9, 7]})
    # "model" meets every term; "policy" and "reward" mostly each other.
    pairs = pd.DataFrame({"source": ["model", "model", "model", "model", "policy", "graph"],
                          "target": ["policy", "reward", "graph", "node", "reward", "node"],
                          "n_papers": [2, 2, 6, 6, 7, 6]})
    assert term_cohesion(terms, pairs).to_dict() == {"model": 1.0, "policy": 9.0, "reward": 9.0, "graph": 3.0,
                                                      "node": 3.0}
    import numpy as np
    from scipy import sparse

    table = community_table(terms, pairs, sparse.csr_matrix(np.eye(5, dtype=int)))
    assert table["top_terms"].tolist() == ["policy, reward, model", "graph, node"]
    assert table["n_terms"].tolist() == [3, 2]


def test_cohesion_of_the_seed_communities(seed):
    measured = community_cohesion(seed.terms, seed.pairs)
    assert (round(measured.within, 2), round(measured.between, 2)) == (3.52, 0.69)


def test_landmark_fields_are_landmarks_of_the_development_set():
    from helpers.analysis.cooccurrence.evaluation import read_landmarks

    fields = read_landmark_fields(ROOT / "tests" / "evaluation" / "landmark_fields.csv")
    assert len(fields) == 51 and len(set(fields.values())) == 13
    assert set(fields) <= set(read_landmarks(ROOT / "tests" / "evaluation" / "landmarks.csv"))


# Two tight groups of terms; one abstract ("p0") holds the strongest pair of each, so the second pair takes another.
GROUPS = {
    "p0": "Reward models. Policy gradients. Graph kernels. Node embeddings.",
    "p1": "Reward models. Policy gradients.", "p2": "Reward models. Policy gradients. Value functions.",
    "p3": "Policy gradients. Value functions.", "p4": "Reward models. Value functions.",
    "p5": "Graph kernels. Node embeddings.", "p6": "Graph kernels. Node embeddings. Message passing.",
    "p7": "Node embeddings. Message passing.", "p8": "Graph kernels. Message passing.",
}


def test_landing_pairs_come_from_different_communities_with_papers_of_their_own():
    result = small(GROUPS)
    community = dict(zip(result.terms["term"], result.terms["community"]))
    assert community["reward model"] == community["policy gradient"] != community["graph kernel"]
    pairs = distinct_pairs(result, 3)
    assert pairs[["source", "target", "example"]].values.tolist() == [
        ["graph kernel", "node embedding", "p0"], ["policy gradient", "reward model", "p1"]]
    seen = [{community[p.source], community[p.target]} for p in pairs.itertuples()]
    assert not seen[0] & seen[1]


def test_landing_pairs_on_the_seed(seed):
    pairs = distinct_pairs(seed, 3)
    assert pairs[["source", "target"]].values.tolist() == [
        ["reinforcement learning", "rlhf"], ["large language model", "prediction"], ["feature", "representation"]]
    assert pairs["example"].is_unique
    community = dict(zip(seed.terms["term"], seed.terms["community"]))
    used = [c for p in pairs.itertuples() for c in {community[p.source], community[p.target]}]
    assert len(used) == len(set(used))


def test_strongest_pairs_table_gives_each_pair_a_first_example_of_its_own(seed):
    table = strongest_pairs_table(seed, {})
    first = table["examples"].str.extract(r'#paper-([^"]+)"')[0]
    assert first.head(10).is_unique


def test_ego_figure_has_few_labels_and_none_overlap(seed):
    figure, data = community_figures.ego_figure(seed, corpus_label="seed")
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    assert data.groupby("hub").size().to_dict() == {"human feedback": 5, "label": 3, "probability distribution": 5}
    for axis in figure.axes:
        boxes = [text.get_window_extent(renderer) for text in axis.texts]
        assert len(boxes) <= 15
        assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    plt.close(figure)


def test_ego_figure_on_a_star_caps_the_partners():
    result = small(STAR, min_pair_papers=1, resolution=1.0)
    assert community_figures.ego_hubs(result) == ["quantum kernel"]  # one community at resolution 1, named by its hub
    assert len(community_figures.ego_partners(result, "quantum kernel")) == 6
    assert len(community_figures.ego_partners(result, "quantum kernel", 3)) == 3


def test_communities_do_not_depend_on_the_order_of_the_tables(seed):
    from helpers.analysis.cooccurrence.communities import louvain_partition

    first, _ = louvain_partition(seed.terms["term"], seed.pairs)
    shuffled, _ = louvain_partition(seed.terms["term"].sample(frac=1, random_state=1),
                                    seed.pairs.sample(frac=1, random_state=2))
    assert sorted(map(sorted, first)) == sorted(map(sorted, shuffled))
    assert len(first) == seed.terms["community"].nunique() == 8


def test_pair_weights_need_a_pair_above_chance():
    from helpers.analysis.cooccurrence.communities import pair_weights

    pairs = pd.DataFrame({"n_papers": [1, 4, 9], "association_strength": [20.0, 1.0, 0.9]})
    assert pair_weights(pairs, "information").round(4).tolist() == [2.9957, 0.0, 0.0]
    with pytest.raises(ValueError, match="weighting must be one of association, information, got 'pmi'"):
        pair_weights(pairs, "pmi")


def test_validation_table_of_community_quality(tmp_path):
    from helpers.book.reports.term_map_quality import community_quality

    (tmp_path / "_config.yml").write_text("")
    results = benchmark_results(tmp_path)
    (results / "community_quality.csv").write_text(
        "corpus,n_abstracts,method,weighting,resolution,starts,n_terms,n_communities,largest_community,within,"
        "between,ratio,n_together,n_same_field,n_apart,n_other_field,modularity\n"
        "icml-2023-2025,751,\"association strength, resolution 1\",association,1.0,1,211,10,36,2.88,0.78,3.7,13,21,"
        "280,304,0.36\n"
        "icml-2023-2025,751,book,information,2.0,10,211,19,23,4.21,0.78,5.4,13,21,293,304,0.33\n")
    table, values = community_quality(tmp_path)
    assert table["communities"].tolist() == ["a, resolution 1", "c ln a, resolution 2 (the book's)"]
    assert table["inside / between"].tolist() == ["2.88 / 0.78 (3.7x)", "4.21 / 0.78 (5.4x)"]
    assert (values["cq_ratio_base"], values["cq_ratio_book"], values["cq_apart_book"], values["cq_n_abstracts"]) == (
        "3.7", "5.4", "293 of 304", "751")
    assert values["cq_development"] == "not measured"
