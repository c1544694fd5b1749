"""Two grains of themes: the hierarchy rule, the broad labels, the mixed rule, papers.csv, theme_hierarchy.csv and
the explorer's data, on small corpora written here and on the seed corpus."""

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.corpus import read_corpus
from helpers.analysis.pipeline import run_pipeline, write_outputs
from helpers.analysis.themes.broad_labels import broad_labels
from helpers.analysis.themes.hierarchy import (broad_groups, broad_ids, n_broad_themes,
                                               paper_grains, theme_hierarchy, theme_profiles)
from helpers.analysis.themes.concepts import same_concept
from helpers.analysis.themes.labels import label_parts
from helpers.book.reports.theme_grains import grain_findings, hierarchy_table
from helpers.web.explorer import explorer_html
from helpers.web.explorer_data import explorer_data

from tests.support import ROOT, SEED_DIR

# The columns paper_grains gives after paper_id, in order (papers.csv holds them in this order too).
GRAIN_COLUMNS = ("second_theme", "second_theme_weight", "mixed", "broad_theme", "broad_theme_weight")


def test_the_number_of_broad_themes_is_the_rounded_square_root_at_least_two_at_most_k():
    assert [n_broad_themes(k) for k in range(1, 26)] == [
        1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5]
    assert broad_ids(27)[:3] == ["A", "B", "C"] and broad_ids(27)[25:] == ["Z", "AA"]


def test_themes_sharing_their_papers_terms_join_whatever_their_order():
    # Themes 1 and 3 speak of graphs, 2 and 4 of language; 5 of both: six papers, five themes, four terms.
    weights = np.array([[1, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1],
                        [0.5, 0, 0.5, 0, 0]], dtype=float)
    terms = sparse.csr_matrix([[1, 1, 0, 0], [1, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 1], [1, 1, 1, 0], [1, 0, 0, 0]])
    profiles = theme_profiles(weights, terms)
    assert profiles.round(4).tolist() == [[0.6, 0.4, 0, 0], [0, 0, 0.5, 0.5], [0.4286, 0.2857, 0, 0.2857],
                                          [0, 0.3333, 0.3333, 0.3333], [0.3333, 0.3333, 0.3333, 0]]
    groups = broad_groups(profiles, 2)
    assert [int(g == groups[0]) for g in groups] == [1, 0, 1, 0, 1]
    backwards = broad_groups(profiles[::-1], 2)[::-1]
    assert [int(g == backwards[0]) for g in backwards] == [1, 0, 1, 0, 1]
    # As many groups as themes: each theme alone; one theme: itself.
    assert broad_groups(profiles, 5).tolist() == [1, 2, 3, 4, 5]
    assert broad_groups(profiles[:1], 2).tolist() == [1]


def small_model():
    """Four themes, eight papers: themes 1 and 2 (graphs) hold five papers, 3 and 4 (language) three."""
    themes = pd.DataFrame({"theme": [1, 2, 3, 4], "label": ["graph · node", "message passing · gnn",
                                                            "language model · token", "reasoning · prompt"],
                           "n_papers": [3, 2, 2, 1]})
    top_terms = pd.DataFrame({
        "theme": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4], "rank": [1, 2, 3] * 4,
        "term": ["graph", "node", "edge", "message passing", "gnn", "graph neural network",
                 "language model", "llm", "token", "reasoning", "prompt", "llm"],
        "weight": [2.0, 1.0, 0.5, 1.0, 0.8, 0.6, 3.0, 2.0, 1.0, 1.0, 0.9, 0.8]})
    weights = pd.DataFrame({"paper_id": [f"p{i}" for i in range(8)],
                            "theme_1": [1.0, 0.6, 0.4, 0.0, 0.0, 0.0, 0.0, 0.3],
                            "theme_2": [0.0, 0.4, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0],
                            "theme_3": [0.0, 0.0, 0.6, 0.5, 0.0, 1.0, 0.2, 0.0],
                            "theme_4": [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.8, 0.0]})
    terms = sparse.csr_matrix([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0],
                               [0, 0, 1, 1], [0, 0, 1, 1], [1, 0, 0, 0]])
    return themes, top_terms, weights, terms


def test_the_hierarchy_of_a_small_model_nests_its_themes_lettered_by_papers():
    themes, top_terms, weights, terms = small_model()
    hierarchy = theme_hierarchy(themes, top_terms, weights, [f"p{i}" for i in range(8)], terms)
    table = hierarchy.table
    assert table[["broad_theme", "theme", "n_papers", "broad_n_papers"]].values.tolist() == [
        ["A", 1, 3, 5], ["A", 2, 2, 5], ["B", 3, 2, 3], ["B", 4, 1, 3]]
    assert hierarchy.broad_of == {1: "A", 2: "A", 3: "B", 4: "B"}
    assert table.drop_duplicates("broad_theme")["broad_label"].tolist() == [
        "graph neural network · message passing", "language model · reasoning"]
    # Label rules: both parts among the broad theme's pooled top terms, one concept each, no label twice.
    for label, pooled in zip(table["broad_label"], table["broad_top_terms"]):
        first, second = label_parts(label)
        assert {first, second} <= set(pooled.split(", ")) and not same_concept(first, second)
    assert table.drop_duplicates("broad_theme")["broad_label"].is_unique
    assert hierarchy.broad["themes"].tolist() == [[1, 2], [3, 4]]
    # Without the map's terms, the themes' own top terms decide: "llm" joins themes 3 and 4 first.
    assert theme_hierarchy(themes, top_terms, weights).broad_of == {1: "A", 2: "A", 3: "B", 4: "B"}


def test_a_broad_label_never_says_one_concept_twice_nor_repeats_another():
    top = pd.DataFrame({"theme": [1, 1, 1, 2, 2, 2, 3, 3, 3], "rank": [1, 2, 3] * 3,
                        "term": ["llm", "language model", "reasoning", "rl", "reinforcement learning", "policy",
                                 "llm", "language model", "reasoning"],
                        "weight": [1.0, 0.9, 0.5, 1.0, 0.9, 0.8, 1.0, 0.9, 0.5]})
    # "llm" and "language model" are one concept, named by its expansion; the third saying the same takes its number.
    assert broad_labels([[1], [2], [3]], top, [10, 10, 1]) == [
        "language model · reasoning", "reinforcement learning · policy", "language model · reasoning (3)"]
    # Terms pooled from several themes: "rl" is not spelled by "reasoning" and "llm" of two other themes.
    assert broad_labels([[1, 2], [3]], top, [10, 10, 1]) == [
        "language model · reinforcement learning", "language model · reasoning"]


def test_a_broad_label_names_every_one_of_its_themes_not_only_its_largest():
    # Issue 46: ICML's "image · representation" held the language-model theme; a large theme's terms outweigh
    # the small themes' in the pooled weights, but every theme gets a part of the label.
    top = pd.DataFrame({"theme": [1] * 4 + [2] * 3 + [3] * 3, "rank": [1, 2, 3, 4, 1, 2, 3, 1, 2, 3],
                        "term": ["image", "representation", "vision", "feature", "llm", "language model", "reasoning",
                                 "protein", "molecule", "binding"],
                        "weight": [1.0, 0.9, 0.8, 0.7, 1.0, 0.9, 0.5, 1.0, 0.9, 0.2]})
    labels = ["image · vision", "language model · reasoning", "protein · molecule"]
    assert broad_labels([[1, 2, 3]], top, [100, 10, 10], labels) == ["image · language model · protein"]
    # A term several themes share covers them at once: "representation" names themes 1 and 3.
    top.loc[top["term"] == "binding", "term"] = "representation"
    assert broad_labels([[1, 2, 3]], top, [100, 10, 10], labels) == ["representation · language model"]
    # A broad theme of one theme is named as that theme.
    assert broad_labels([[2]], top, [100, 10, 10], labels) == ["language model · reasoning"]


def test_a_broad_label_counts_a_defined_abbreviation_as_its_term():
    top = pd.DataFrame({"theme": [1, 1, 2, 2], "rank": [1, 2, 1, 2], "term": ["pani", "film", "polyaniline", "sensor"],
                        "weight": [1.0, 0.5, 1.0, 0.5]})
    labels = ["pani · film", "polyaniline · sensor"]
    assert broad_labels([[1, 2]], top, [10, 10], labels) == ["pani · polyaniline"]
    assert broad_labels([[1, 2]], top, [10, 10], labels, {frozenset(("pani", "polyaniline"))}) == [
        "polyaniline · film"]


def test_mixed_means_the_strongest_theme_holds_less_than_half():
    weights = pd.DataFrame({"paper_id": ["half", "under", "pure", "none", "tie"],
                            "theme_1": [0.5, 0.499999, 1.0, 0.0, 0.4], "theme_2": [0.3, 0.3, 0.0, 0.0, 0.4],
                            "theme_3": [0.2, 0.200001, 0.0, 0.0, 0.2]})
    grains = paper_grains(weights, {1: "A", 2: "B", 3: "B"})
    assert list(grains.columns) == ["paper_id", *GRAIN_COLUMNS]
    assert grains.drop(columns="paper_id").values.tolist() == [
        [2, 0.3, False, "A", 0.5], [2, 0.3, True, "A", 0.499999], [pd.NA, 0.0, False, "A", 1.0],
        [pd.NA, 0.0, False, "", 0.0], [2, 0.4, True, "A", 0.4]]


def test_seed_corpus_two_grains(seed_analysis, tmp_path):
    analysis = seed_analysis
    table = analysis.hierarchy.table
    assert table[["broad_theme", "theme"]].values.tolist() == [["A", 1], ["A", 2], ["B", 3]]
    # Broad theme A names both its themes ("neural networks · deep", "language models · preference"), each part
    # as its abstracts write it.
    assert table.drop_duplicates("broad_theme")[["broad_label", "broad_n_papers"]].values.tolist() == [
        ["language models · neural networks", 43], ["complexity · gradient", 14]]
    texts = read_corpus(SEED_DIR).papers.set_index("paper_id")["text"]
    papers = analysis.papers
    for broad, label in zip(table["broad_theme"], table["broad_label"]):
        written = " ".join(texts[papers.loc[papers["broad_theme"] == broad, "paper_id"]])
        first, second = label_parts(label)
        assert first in written and second in written and not same_concept(first, second)
    assert int(papers["mixed"].sum()) == 0
    assert bool((papers["mixed"] == (papers["theme_weight"] < 0.5)).all())
    assert papers.groupby("broad_theme").size().to_dict() == {"A": 43, "B": 14}
    # The grains nest: a paper's broad theme is its strongest theme's.
    assert bool((papers["broad_theme"] == papers["theme"].map(analysis.hierarchy.broad_of)).all())
    assert bool((papers["broad_theme_weight"] >= papers["theme_weight"] - 1e-9).all())
    lead = grain_findings(analysis)["themes_grains_lead"]
    assert lead == ("At a coarser grain the 3 themes form **2 broad themes**: *language models · neural networks* "
                    "(43 papers) and *complexity · gradient* (14 papers). 0 of the 57 papers "
                    "(0%) are *mixed*, no theme holding half their weight; at the broad grain none is.")
    shown = hierarchy_table(analysis)
    assert shown[["papers", "mixed"]].values.tolist() == [[43, 0], [14, 0]]
    assert shown["explorer"].tolist()[0] == '<a href="explorer.html?broad=A">all 43 papers</a>'


def test_seed_outputs_have_the_new_columns_and_file_byte_identical_on_a_rerun(seed_analysis, tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    for folder in (first, second):
        folder.mkdir()
        write_outputs(seed_analysis if folder == first else run_pipeline([SEED_DIR]), folder)
    for name in ("theme_hierarchy.csv", "papers.csv"):
        assert (first / name).read_bytes() == (second / name).read_bytes()
    header = (first / "papers.csv").read_text().splitlines()[0].split(",")
    at = header.index("theme_weight")
    assert header[at + 1:at + 6] == list(GRAIN_COLUMNS)
    assert (first / "theme_hierarchy.csv").read_text().splitlines()[0] == (
        "broad_theme,broad_label,broad_top_terms,broad_n_papers,theme,label,n_papers")


def test_hierarchy_csv_cells_are_formula_safe(tmp_path):
    from helpers.analysis.spreadsheet import write_csv

    themes, top_terms, weights, terms = small_model()
    hierarchy = theme_hierarchy(themes.assign(label=["=cmd|' /C calc'!A0", "b", "c", "d"]), top_terms, weights,
                                [f"p{i}" for i in range(8)], terms)
    write_csv(hierarchy.table, tmp_path / "theme_hierarchy.csv")
    assert "'=cmd" in (tmp_path / "theme_hierarchy.csv").read_text()


def test_explorer_data_carries_both_grains_escaped():
    themes, top_terms, weights, terms = small_model()
    hierarchy = theme_hierarchy(themes, top_terms, weights, [f"p{i}" for i in range(8)], terms)
    grains = paper_grains(weights, hierarchy.broad_of)
    papers = pd.DataFrame({"paper_id": [f"p{i}" for i in range(8)], "display_title": ["t"] * 8,
                           "authors": [""] * 8, "theme": pd.array([1, 1, 3, 2, 2, 3, 4, 1], dtype="Int64"),
                           "theme_weight": [1.0, 0.6, 0.6, 0.5, 1.0, 1.0, 0.8, 1.0], "link_state": ["none"] * 8,
                           "n_words": [10] * 8, "source_file": ["a.txt"] * 8, "position": range(8), "text": ["x"] * 8})
    papers = papers.merge(grains, on="paper_id")
    data = explorer_data(papers, pd.DataFrame(columns=["paper_id", "url", "kind"]),
                         pd.DataFrame(columns=["paper_id", "sentence_no", "statement", "sentence"]),
                         dict(zip(themes["theme"], themes["label"])), hierarchy=hierarchy.table)
    assert data["broad"] == {"A": "graph neural network · message passing", "B": "language model · reasoning"}
    assert data["theme_broad"] == {"1": "A", "2": "A", "3": "B", "4": "B"}
    assert data["papers"]["share"] == [100, 60, 60, 50, 100, 100, 80, 100]
    assert data["papers"]["theme2"] == [None, 2, 1, 3, None, None, 3, None]
    assert data["papers"]["share2"] == [0, 40, 40, 50, 0, 0, 20, 0]
    page = explorer_html(with_broad=True)
    assert '<select class="explorer-broad" aria-label="Filter by broad theme">' in page
    assert '<select class="explorer-broad"' not in explorer_html()


def test_the_hierarchy_table_escapes_labels_in_its_html_column():
    from types import SimpleNamespace

    table = pd.DataFrame({"broad_theme": ["A"], "broad_label": ["<b>x</b> · y"], "broad_n_papers": [1], "theme": [1],
                          "label": ["<script>alert(1)</script> · z"], "n_papers": [1]})
    papers = pd.DataFrame({"broad_theme": ["A"], "mixed": [False]})
    rows = hierarchy_table(SimpleNamespace(hierarchy=SimpleNamespace(table=table), papers=papers))
    assert rows["themes (papers)"].tolist() == ["1. &lt;script&gt;alert(1)&lt;/script&gt; · z (1)"]
    assert rows["broad theme"].tolist() == ["A. <b>x</b> · y"]  # a text column: the table escapes it


def test_the_pdf_book_reads_the_themes_of_a_broad_theme_apart():
    from types import SimpleNamespace

    from helpers.book.display import markdown_cell

    table = pd.DataFrame({"broad_theme": ["A", "A"], "broad_label": ["x · y"] * 2, "broad_n_papers": [3, 3],
                          "theme": [1, 2], "label": ["a · b", "c & d"], "n_papers": [2, 1]})
    rows = hierarchy_table(SimpleNamespace(hierarchy=SimpleNamespace(table=table),
                                           papers=pd.DataFrame({"broad_theme": ["A"] * 3, "mixed": [False] * 3})))
    assert markdown_cell(rows["themes (papers)"].iloc[0], is_html=True) == r"1. a · b \(2\); 2. c &amp; d \(1\)"


def test_the_broad_mixed_count_agrees_with_its_noun():
    """Poultry (Scopus, 67 abstracts): the method read 'when its broad theme's themes together do (1 papers)'."""
    from types import SimpleNamespace

    table = pd.DataFrame({"broad_theme": ["A", "A", "B"], "broad_label": ["x · y", "x · y", "z"],
                          "broad_n_papers": [3, 3, 1], "theme": [1, 3, 2], "label": ["a", "c", "b"],
                          "n_papers": [2, 1, 1]})
    papers = pd.DataFrame({"theme": [1, 3, 2, 1], "mixed": [True, True, False, False],
                           "broad_theme": ["A", "A", "B", "A"], "broad_theme_weight": [0.9, 0.4, 1.0, 1.0]})
    analysis = SimpleNamespace(hierarchy=SimpleNamespace(table=table, rule="r"), papers=papers,
                               themes=SimpleNamespace(table=table))
    assert grain_findings(analysis)["themes_broad_mixed_n"] == "1 paper"
    assert grain_findings(SimpleNamespace(hierarchy=SimpleNamespace(table=table, rule="r"), themes=None,
                                          papers=papers.assign(broad_theme_weight=0.4)))["themes_broad_mixed_n"] == "4 papers"
    chapter = (ROOT / "chapters" / "themes.md").read_text(encoding="utf-8")
    assert "({glue:text}`themes_broad_mixed_n`)" in chapter and "`themes_broad_mixed_n` papers" not in chapter
