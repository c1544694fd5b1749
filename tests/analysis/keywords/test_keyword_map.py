"""The map of authors' keywords: the readers fill ``keywords``, and the map counts them as an independent count does."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from tests.support import SEED_DIR, SHARED
from helpers.analysis.corpus import read_corpus
from helpers.analysis.keywords import NO_KEYWORDS, analyse_keywords, keyword_table

EXPORTS = SHARED / "corpora" / "exports"
ABSTRACT = "Broiler flocks were observed under heat stress in commercial houses over two summers."


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_wos_bibtex_keywords_lose_their_double_braces(tmp_path):
    bib = ("@article{ WOS:1,\nTitle = {{Heat stress in broilers}},\nAbstract = {{" + ABSTRACT + "}},\n"
           "Keywords = {{Heat stress; Broiler\n   welfare}},\nYear = {{2020}},\n}\n")
    papers = read_corpus(write(tmp_path, "savedrecs.bib", bib)).papers
    assert papers["keywords"].tolist() == ["Heat stress; Broiler welfare"]


def test_medline_mesh_keywords_without_stars_and_qualifiers(tmp_path):
    medline = ("PMID- 1\nTI  - Heat stress in broilers.\nAB  - " + ABSTRACT + "\n"
               "MH  - Animals\nMH  - *Chickens/physiology\nMH  - Heat Stress Disorders/*veterinary/prevention &\n"
               "      control\n\n"
               "PMID- 2\nTI  - Other.\nAB  - Laying hens kept in aviaries were compared with hens in cages.\n"
               "OT  - laying hens\nOT  - *aviary\nMH  - *Chickens\n")
    papers = read_corpus(write(tmp_path, "pubmed-x.txt", medline)).papers.set_index("title")
    # MeSH headings stand in for keywords only without OT; their major-topic stars and qualifiers are no part.
    assert papers.loc["Heat stress in broilers.", "keywords"] == "Animals; Chickens; Heat Stress Disorders"
    assert papers.loc["Other.", "keywords"] == "laying hens; *aviary"


# Six papers of a poultry corpus: case, plural, hyphen and space variants of the same keywords, one given twice.
POULTRY_KEYWORDS = [
    ["Heat stress", "Broilers", "Feed efficiency"],
    ["heat-stress", "broiler", "Welfare", "welfare"],
    ["Broiler", "Feed-efficiency", "Laying hens"],
    ["laying hen", "Welfare", "Heat Stress"],
    ["Broilers", "welfare", "Litter"],
    ["Laying Hens", "feed efficiency", "Heatstress"],
]


def wos_file(folder: Path, keyword_lists: list[list[str]]) -> Path:
    """A Web of Science plain-text export of one record per keyword list (``DE`` wrapped as the database wraps)."""
    records = []
    for number, keywords in enumerate(keyword_lists, start=1):
        first, *rest = "; ".join(keywords).split("; ", 2)
        de = f"DE {first}" + "".join(f";\n   {part}" for part in ["; ".join(rest)] if rest)
        records.append(f"PT J\nTI Paper {number} on poultry\nAB Paper {number}. {ABSTRACT}\n{de}\n"
                       f"PY 2020\nUT WOS:{number:015d}\nER\n")
    return write(folder, "savedrecs.txt", "FN Clarivate Analytics Web of Science\nVR 1.0\n" + "\n".join(records)
                 + "\nEF\n")


def independent_counts(keyword_lists: list[list[str]], spelling: dict[str, str]) -> tuple[Counter, Counter]:
    """Papers per keyword and per pair of keywords, each paper once, counted without the package."""
    papers: Counter = Counter()
    pairs: Counter = Counter()
    for keywords in keyword_lists:
        counted = {spelling[re.sub(r"[-\s]+", " ", k.lower()).removesuffix("s")] for k in keywords}
        papers.update(counted)
        pairs.update(itertools.combinations(sorted(counted), 2))
    return papers, pairs


def test_keyword_map_counts_match_an_independent_count(tmp_path):
    papers = read_corpus(wos_file(tmp_path, POULTRY_KEYWORDS)).papers
    keyword_map = analyse_keywords(papers["paper_id"].tolist(), papers["keywords"].tolist(), min_occurrences=2)
    spelling = {"heat stres": "heat stress", "heatstres": "heat stress", "broiler": "broiler", "feed efficiency":
                "feed efficiency", "welfare": "welfare", "laying hen": "laying hen", "litter": "litter"}
    expected_papers, expected_pairs = independent_counts(POULTRY_KEYWORDS, spelling)
    terms = keyword_map.network.terms
    assert dict(zip(terms["term"], terms["n_papers"])) == {k: n for k, n in expected_papers.items() if n >= 2}
    assert dict(zip(terms["term"], terms["n_papers"])) == {"heat stress": 4, "broiler": 4, "welfare": 3,
                                                           "feed efficiency": 3, "laying hen": 3}
    pairs = keyword_map.network.pairs
    kept = set(terms["term"])
    assert {(s, t): n for s, t, n in zip(pairs["source"], pairs["target"], pairs["n_papers"])} == {
        pair: n for pair, n in expected_pairs.items() if set(pair) <= kept}
    # VOSviewer's association strength 2 m c_ij / (k_i k_j), from the independent counts.
    kept_pairs = {pair: n for pair, n in expected_pairs.items() if set(pair) <= kept}
    m = sum(kept_pairs.values())
    k = Counter()
    for (a, b), n in kept_pairs.items():
        k[a] += n
        k[b] += n
    strength = {(s, t): a for s, t, a in zip(pairs["source"], pairs["target"], pairs["association_strength"])}
    assert strength == {(a, b): round(2 * m * n / (k[a] * k[b]), 6) for (a, b), n in kept_pairs.items()}
    assert keyword_map.network.settings.n_papers == 6 and keyword_map.message == ""
    assert set(keyword_map.network.communities["community"]) == set(terms["community"])
    # Spaces and hyphens: "Heatstress" is written by one paper, "heat stress" by more: one keyword, spelt as most do.
    merged = keyword_map.network.merges
    assert sorted(merged.loc[merged["to"] == "heat stress", "from"]) == ["Heat Stress", "Heat stress",
                                                                         "Heatstress", "heat-stress"]


def test_vocabulary_replaces_and_stops_keywords(tmp_path):
    papers = read_corpus(wos_file(tmp_path, POULTRY_KEYWORDS)).papers
    edits = {"broiler": "chicken", "laying hen": "chicken", "welfare": None}
    keyword_map = analyse_keywords(papers["paper_id"].tolist(), papers["keywords"].tolist(), min_occurrences=2,
                                   vocabulary=lambda term: edits.get(term, term))
    terms = keyword_map.network.terms
    # Broilers (4 papers) and laying hens (3) merged: 6 papers, each counted once; welfare nowhere.
    assert dict(zip(terms["term"], terms["n_papers"])) == {"chicken": 6, "heat stress": 4, "feed efficiency": 3}
    assert "welfare" not in set(keyword_map.network.pairs[["source", "target"]].to_numpy().ravel())
    assert keyword_map.network.settings.n_generic == 2  # "Welfare" and "welfare" as written
    merged = keyword_map.network.merges
    assert set(merged.loc[merged["source"] == "vocabulary", "from"]) == {"Broilers", "broiler", "Broiler",
                                                                         "laying hen", "Laying hens", "Laying Hens"}


def test_no_keywords_gives_an_empty_map_with_its_reason():
    keyword_map = analyse_keywords(["p1", "p2"], [None, ""])
    assert keyword_map.message == NO_KEYWORDS
    assert keyword_map.network.terms.empty and keyword_map.network.pairs.empty
    assert keyword_map.network.communities.empty


def test_keyword_table_spells_each_keyword_as_most_papers_do():
    table = keyword_table(["Life-cycle assessment; LCA", "life cycle assessments", "Lifecycle assessment"])
    assert table.values.tolist() == [["LCA", "lca", 1], ["Life-cycle assessment", "life cycle assessment", 1],
                                     ["Lifecycle assessment", "life cycle assessment", 1],
                                     ["life cycle assessments", "life cycle assessment", 1]]


def _wos_keyword_lists(path: Path) -> dict[str, list[str]]:
    """Each record's DE keywords by its UT key, read without the package's reader."""
    lists: dict[str, list[str]] = {}
    fields: dict[str, str] = {}
    tag = ""
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        if line.startswith("ER"):
            if "UT" in fields:
                lists[fields["UT"].strip()] = [k.strip() for k in fields.get("DE", "").split(";") if k.strip()]
            fields, tag = {}, ""
        elif line[:2].strip() and line[2:3] == " ":
            tag = line[:2]
            fields[tag] = line[3:]
        elif line.startswith("   ") and tag:
            fields[tag] += " " + line.strip()
    return lists


def _medline_keyword_lists(path: Path) -> dict[str, list[str]]:
    """Each record's OT keywords (else its MeSH descriptors) by its PMID."""
    lists = {}
    for record in re.split(r"\r?\n\s*\r?\n(?=PMID-)", path.read_text(encoding="utf-8")):
        joined = re.sub(r"\r?\n {6}", " ", record)
        tags = re.findall(r"^([A-Z]{2,4}) *- (.*)$", joined, flags=re.M)
        keywords = [value.strip() for tag, value in tags if tag == "OT"] or [
            value.split("/")[0].replace("*", "").strip() for tag, value in tags if tag == "MH"]
        lists[dict(tags)["PMID"].strip()] = keywords
    return lists


@pytest.mark.parametrize("name, read", [("wos-circular-economy.txt", _wos_keyword_lists),
                                        ("wos-traffic-safety.txt", _wos_keyword_lists),
                                        ("pubmed-mcda.txt", _medline_keyword_lists)])
def test_real_export_keyword_counts_match_a_count_of_the_file(name, read):
    path = EXPORTS / name
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared dev exports are not in the repository)")
    corpus = read_corpus(path)
    papers = corpus.papers
    keyword_map = analyse_keywords(papers["paper_id"].tolist(), papers["keywords"].tolist())
    network = keyword_map.network
    assert len(network.terms) >= 10 and network.graph.number_of_edges() >= 5, keyword_map.message
    # Each map keyword's written forms (the package's merge), counted again in the file's own records.
    forms: dict[str, set[str]] = {}
    for written, keyword in zip(keyword_map.variants["written"], keyword_map.variants["keyword"]):
        forms.setdefault(keyword, set()).add(written)
    by_key = read(path)
    # Each paper's record (the one kept where the file gives a paper twice).
    kept = corpus.blocks[corpus.blocks["kind"] == "abstract"].set_index("paper_id")["key"]
    lists = [by_key[str(kept[paper])] for paper in papers["paper_id"]]
    edges = " \t\"'.,;:`*\u201c\u201d\u2018\u2019"
    counted = [{keyword for keyword in forms for k in keywords if k.strip(edges) in forms[keyword]}
               for keywords in lists]
    for term, n_papers in zip(network.terms["term"], network.terms["n_papers"]):
        assert sum(term in keywords for keywords in counted) == n_papers, term
    for source, target, n_papers in network.pairs[["source", "target", "n_papers"]].head(50).itertuples(index=False):
        assert sum({source, target} <= keywords for keywords in counted) == n_papers, (source, target)


def test_analyse_writes_the_keyword_map_beside_the_term_map(tmp_path):
    from helpers.analysis.pipeline import run_pipeline, write_outputs

    analysis = run_pipeline([wos_file(tmp_path, POULTRY_KEYWORDS)], n_jobs=1)
    out = tmp_path / "out"
    out.mkdir()
    written = set(write_outputs(analysis, out))
    assert {"keywords.csv", "keyword_pairs.csv", "keyword_variants.csv", "keyword_network.json",
            "keyword_vosviewer_map.txt", "keyword_vosviewer_network.txt", "keyword_network.graphml",
            "keyword_network.gexf"} <= written
    # The default minimum on six papers with keywords is 2: the five keywords of the independent count.
    vosviewer_map = (out / "keyword_vosviewer_map.txt").read_text(encoding="utf-8").splitlines()
    assert vosviewer_map[0] == "id\tlabel\tx\ty\tcluster\tweight<Occurrences>"
    assert {line.split("\t")[1]: int(line.split("\t")[5]) for line in vosviewer_map[1:]} == {
        "heat stress": 4, "broiler": 4, "welfare": 3, "feed efficiency": 3, "laying hen": 3}
    # The chapter: the section's sentence with the counts, and every keyword map section kept.
    from helpers.book.reports.keywords import keywords_lead, left_out_sections

    assert left_out_sections(analysis) == ()
    assert keywords_lead(analysis)["cooccurrence_keywords_lead"].startswith(
        "6 papers of 6 give their authors' keywords, 6 distinct keywords once case, plural and hyphen variants are "
        "merged. The **5 keywords** given by at least 2 papers form the keyword map")


def test_no_keyword_files_for_a_corpus_without_keywords(tmp_path):
    from helpers.analysis.pipeline import run_pipeline, write_outputs

    analysis = run_pipeline([SEED_DIR], n_jobs=1)
    assert analysis.keywords is not None and analysis.keywords.message == NO_KEYWORDS
    written = write_outputs(analysis, tmp_path)
    assert not [name for name in written if name.startswith("keyword")]
    from helpers.book.reports.keywords import KEYWORD_MAP_SECTIONS, keywords_lead, left_out_sections

    # The chapter says so in one sentence and leaves out the keyword map's sections (figure, files, method).
    assert left_out_sections(analysis) == KEYWORD_MAP_SECTIONS
    assert keywords_lead(analysis) == {"cooccurrence_keywords_lead": "No paper of this corpus gives keywords of its "
                                                                     "own, so there is no keyword map."}


def test_explorer_data_lists_every_keyword_and_each_papers_keywords():
    from helpers.web.explorer_columns import paper_keyword_lists

    cells = [";".join(keywords) for keywords in POULTRY_KEYWORDS] + [None]
    variants = keyword_table(cells)
    keywords, lists = paper_keyword_lists(pd.Series(cells), variants)
    assert keywords == ["broiler", "feed efficiency", "heat stress", "laying hen", "litter", "welfare"]
    assert [[keywords[i] for i in found] for found in lists] == [
        ["broiler", "feed efficiency", "heat stress"], ["broiler", "heat stress", "welfare"],
        ["broiler", "feed efficiency", "laying hen"], ["heat stress", "laying hen", "welfare"],
        ["broiler", "litter", "welfare"], ["feed efficiency", "heat stress", "laying hen"], []]


def test_keyword_map_clicks_open_the_explorers_keyword_filter():
    from helpers.web.term_map import term_map_data

    document = {"network": {"items": [{"id": 1, "label": "heat stress"}], "links": []}}
    assert term_map_data(document, explorer_filter="keyword")["filter"] == "keyword"
    assert "filter" not in term_map_data(document)
    with pytest.raises(ValueError, match="explorer_filter must be"):
        term_map_data(document, explorer_filter="javascript")


def test_the_researchers_thesaurus_and_stop_terms_reach_the_keyword_map(tmp_path):
    from helpers.analysis.pipeline import AnalysisSettings, run_pipeline, write_outputs
    from helpers.analysis.text.vocabulary_files import read_vocabulary

    # VOSviewer's thesaurus as written (header, tab); a stop-term file; both name spellings the papers use.
    (tmp_path / "thesaurus.txt").write_text("label\treplace by\nBroilers\tchicken\nlaying-hens\tchicken\n"
                                            "feed efficiencies\tfeed conversion\n", encoding="utf-8")
    (tmp_path / "stop.txt").write_text("# not a topic here\nWelfare\n", encoding="utf-8")
    edits = read_vocabulary(tmp_path / "thesaurus.txt", tmp_path / "stop.txt")
    analysis = run_pipeline([wos_file(tmp_path, POULTRY_KEYWORDS)], AnalysisSettings(vocabulary=edits), n_jobs=1)
    terms = analysis.keywords.network.terms
    assert dict(zip(terms["term"], terms["n_papers"])) == {"chicken": 6, "heat stress": 4, "feed conversion": 3}
    out = tmp_path / "out"
    out.mkdir()
    write_outputs(analysis, out)
    exported = (out / "keyword_vosviewer_map.txt").read_text(encoding="utf-8")
    assert "welfare" not in exported and "broiler" not in exported and "laying hen" not in exported


def test_a_thesaurus_label_copied_from_keywords_csv_matches_its_keyword(tmp_path):
    from helpers.analysis.text.vocabulary_files import read_vocabulary

    cells = ["Hazardous materials transportation; Risk", "hazardous materials transportation; Hazmat", "Risk"]
    plain = analyse_keywords(["a", "b", "c"], cells, min_occurrences=1)
    assert "hazardous materials transportation" in set(plain.network.terms["term"])
    # The thesaurus file spells its labels as terms ("material"), the keyword keeps the authors' inner plural.
    (tmp_path / "thesaurus.txt").write_text("label\treplace by\nhazardous materials transportation\thazmat\n",
                                            encoding="utf-8")
    edited = analyse_keywords(["a", "b", "c"], cells, min_occurrences=1,
                              vocabulary=read_vocabulary(tmp_path / "thesaurus.txt", None))
    assert dict(zip(edited.network.terms["term"], edited.network.terms["n_papers"])) == {"hazmat": 2, "risk": 2}


def test_the_static_keyword_map_names_keywords_in_its_title_and_legend(tmp_path):
    import matplotlib.pyplot as plt

    from helpers.analysis.pipeline import run_pipeline
    from helpers.book.reports.keywords import keyword_map_figure

    analysis = run_pipeline([wos_file(tmp_path, POULTRY_KEYWORDS)], n_jobs=1)
    figure, data = keyword_map_figure(analysis, "Poultry")
    axis = figure.axes[0]
    legend = axis.get_legend()
    texts = [axis.get_title(), legend.get_title().get_text(), *(text.get_text() for text in legend.get_texts())]
    plt.close(figure)
    assert texts[0].startswith("Keyword map: the ") and " keywords of 5, Poultry" in texts[0].replace("\n", " ")
    assert texts[1] == "Largest communities (keywords in each, drawn or not; top keywords)"
    assert all(" keyword" in text and " term" not in text for text in texts[2:]) and len(texts) > 2
    assert "keyword" in data.columns


def test_the_interactive_keyword_map_names_keywords():
    from helpers.web.term_map import term_map_html

    document = {"network": {"items": [{"id": 1, "label": "heat stress", "cluster": 1},
                                      {"id": 2, "label": "broiler", "cluster": 1}],
                            "links": [{"source_id": 1, "target_id": 2, "strength": 1.0}]}}
    page = term_map_html(document, explorer_filter="keyword")
    assert 'placeholder="Find a keyword"' in page and "Interactive map of 2 keywords and 1 co-occurrence link." in page
    assert 'placeholder="Find a term"' in term_map_html(document)


@pytest.mark.parametrize("cells, shown", [([None, "", None], False), (["Broilers; Feed", "broiler; feed"], True),
                                          (["Broilers", "Feed"], False)])
def test_the_page_leaves_the_keyword_map_out_without_one(monkeypatch, cells, shown):
    """No keywords, or fewer than two keywords on the map: the chapter keeps its sentence and drops the map's
    sections (figure, files, interactive view, method); with a map it keeps them."""
    from types import SimpleNamespace

    from docutils import nodes

    from tests.support import page_doctree
    from helpers.book.build import sphinx_ext

    keyword_map = analyse_keywords([f"p{i}" for i in range(len(cells))], cells, min_occurrences=2)
    monkeypatch.setattr(sphinx_ext, "analysis", lambda: SimpleNamespace(keywords=keyword_map))
    doctree = page_doctree("cooccurrence", ("sec-cooccurrence-network", "sec-cooccurrence-keywords",
                                            "sec-cooccurrence-keyword-map", "sec-cooccurrence-keyword-method"))
    sphinx_ext._drop_sections(SimpleNamespace(env=SimpleNamespace(docname="chapters/cooccurrence")), doctree)
    ids = {i for section in doctree.findall(nodes.section) for i in section["ids"]}
    assert {"sec-cooccurrence-network", "sec-cooccurrence-keywords"} <= ids
    assert ("sec-cooccurrence-keyword-map" in ids, "sec-cooccurrence-keyword-method" in ids) == (shown, shown)
