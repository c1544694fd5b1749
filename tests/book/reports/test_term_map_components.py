"""The static term map draws every sizeable set of linked terms, not only the largest: on Web of Science traffic
safety (729 abstracts) the drawn links split into sets of 120, 50 and 23 terms, and a map of the largest alone left
out the two largest communities (hazardous materials, emergency response) and the corpus's strongest pair."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import networkx as nx  # noqa: E402
import pandas as pd  # noqa: E402
from types import SimpleNamespace  # noqa: E402

from helpers.book.reports import network_figures as nf  # noqa: E402
from helpers.book.reports.map_labels import place_labels  # noqa: E402


def chain(graph: nx.Graph, names: list[str]) -> None:
    graph.add_edges_from((a, b, {"weight": 1.0}) for a, b in zip(names, names[1:]))


def split_result() -> SimpleNamespace:
    """Three sets of linked terms (6, 5 and 3 terms) and one term without a drawn link."""
    graph = nx.Graph()
    big, second, small = [f"crash {i}" for i in range(6)], [f"hazmat {i}" for i in range(5)], ["x", "y", "z"]
    for names in (big, second, small):
        chain(graph, names)
    graph.add_node("alone")
    terms = big + second + small + ["alone"]
    community = [1] * 6 + [2] * 5 + [3] * 3 + [4]
    table = pd.DataFrame({"term": terms, "n_papers": range(len(terms), 0, -1), "community": community,
                          "x": [i / 10 for i in range(len(terms))], "y": [(i % 4) / 10 for i in range(len(terms))]})
    communities = pd.DataFrame({"community": [1, 2, 3, 4], "n_terms": [6, 5, 3, 1],
                                "top_terms": ["crash 0", "hazmat 0", "x", "alone"]})
    return SimpleNamespace(terms=table, graph=graph, communities=communities, message="")


def test_every_set_of_at_least_five_linked_terms_is_drawn():
    figure, data = nf.term_map_figure(split_result(), corpus_label="test")
    legend = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    plt.close(figure)
    drawn = data.set_index("term")["drawn"]
    assert int(drawn.sum()) == 11
    assert drawn["hazmat 0"] and drawn["crash 0"] and not drawn["x"] and not drawn["alone"]
    assert [text.split(" ")[0] for text in legend] == ["1", "2"]


def test_without_a_set_of_five_the_largest_set_is_drawn():
    graph = nx.Graph()
    chain(graph, ["a", "b", "c"])
    chain(graph, ["d", "e"])
    graph.add_node("f")
    assert nf.drawn_terms(graph) == {"a", "b", "c"}
    assert nf.drawn_terms(nx.Graph()) == set()


def test_the_most_frequent_terms_are_labelled_even_in_a_crowd():
    """Traffic safety: 'hazardous material' (240 abstracts, the most frequent term) sat in a dense cluster and got
    no label, as every place beside it covered another node's centre."""
    import numpy as np

    anchors = np.array([[0.0, 0.0], [7.0, 0.0], [-7.0, 0.0], [0.0, 4.0], [0.0, -4.0]])
    corners = place_labels([(10, 4)] * 5, anchors, np.ones(5), (-50, -50, 50, 50))
    assert corners[0] is not None
    # A less frequent term in a crowd still gives way: its label would cover another node.
    crowd = place_labels([(10, 4)] * 5, anchors, np.ones(5), (-50, -50, 50, 50), n_sure=0)
    assert crowd[0] is None
