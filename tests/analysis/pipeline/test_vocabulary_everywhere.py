"""The researcher's thesaurus and stop terms reach every output: themes (vocabulary, labels), the term map and its
communities, the VOSviewer, Gephi and JSON exports, term change, bursts and the year overlay, the explorer's term
filter, the build key, the Reproduce rows and the command line. One small poultry corpus written here."""

from __future__ import annotations

import re

import pytest

from tests.support import run_in_process
from tests.support.corpus_files import write_csv_corpus
from helpers.analysis.cooccurrence.exporters import network_writers
from helpers.analysis.pipeline import AnalysisSettings, SettingsError, run_pipeline
from helpers.book.cache import build_key
from helpers.analysis.text.vocabulary_files import read_vocabulary
from helpers.web.explorer_data import explorer_data

# Two years of abstracts; "salmonella" is never part of a longer term, "bacteriophages" and "phages" are one idea.
ABSTRACTS = [
    (2020, "Bacteriophages reduced Salmonella in broiler litter. Litter moisture and ammonia were measured."),
    (2020, "Phages lowered Salmonella on carcass skin. Carcass skin was sampled after chilling."),
    (2020, "Bacteriophages and probiotics in drinking water. Salmonella fell in broiler litter."),
    (2020, "Litter moisture shaped ammonia emission in broiler houses. Ventilation rate mattered for ammonia."),
    (2020, "Salmonella persisted in broiler litter despite ventilation. Litter moisture stayed high."),
    (2020, "Probiotics in drinking water changed gut microbiota of laying hens. Egg production rose."),
    (2020, "Laying hens on probiotics showed better egg production. Gut microbiota shifted with feed."),
    (2021, "Therapy with phages against Salmonella in laying hens. Egg production was kept and gut microbiota stable."),
    (2021, "Bacteriophages on carcass skin after chilling. Salmonella declined with more phages."),
    (2021, "Ammonia emission and ventilation rate in broiler houses. Litter moisture drove ammonia."),
    (2021, "Phages in feed for broilers. Salmonella was shed and gut microbiota were recorded."),
    (2021, "Egg production of laying hens with probiotics in drinking water. Gut microbiota and feed intake."),
    (2021, "Contamination of carcass skin after chilling. Salmonella and phages on carcass skin."),
    (2021, "Ventilation rate and litter moisture in broiler houses. Ammonia emission fell."),
]
THESAURUS = "label\treplace by\nBacteriophages\tphage\ncarcass skin\tskin\n"
STOP_TERMS = "# not a topic here\nSalmonella\n"
REMOVED = ("salmonella", "bacteriophage", "carcass skin")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vocabulary")
    corpus = write_csv_corpus(folder / "poultry.csv", ["title", "year", "abstract"],
                              [(f"Paper {i}", year, text) for i, (year, text) in enumerate(ABSTRACTS)])
    (folder / "thesaurus.txt").write_text(THESAURUS, encoding="utf-8")
    (folder / "stop.txt").write_text(STOP_TERMS, encoding="utf-8")
    edits = read_vocabulary(folder / "thesaurus.txt", folder / "stop.txt")
    settings = AnalysisSettings(themes=2, min_occurrences=2, relevant_share=1.0, group_by="year")
    plain = run_pipeline([corpus], settings, n_jobs=1)
    edited = run_pipeline([corpus], AnalysisSettings(themes=2, min_occurrences=2, relevant_share=1.0, group_by="year", vocabulary=edits),
                          n_jobs=1)
    return folder, corpus, settings, edits, plain, edited


def papers_with(*words: str) -> int:
    """Abstracts that use any of ``words`` (counted here, independently of the analysis)."""
    return sum(any(re.search(rf"\b{w}", text, re.IGNORECASE) for w in words) for _, text in ABSTRACTS)


def map_terms(analysis) -> set[str]:
    return set(analysis.cooccurrence.terms["term"])


def test_without_files_the_terms_are_there(runs):
    *_, plain, _ = runs
    assert {"salmonella", "bacteriophage", "phage", "carcass skin"} <= map_terms(plain)
    assert plain.cooccurrence.vocabulary_changes.empty


def test_term_map_and_communities(runs):
    *_, edited = runs
    terms = edited.cooccurrence.terms.set_index("term")
    assert not set(REMOVED) & set(terms.index)
    # A merged term counts every abstract that uses either spelling, once.
    assert terms.loc["phage", "n_papers"] == papers_with("bacteriophage", "phage") == 7
    assert terms.loc["skin", "n_papers"] == papers_with("carcass skin") == 3
    pairs = edited.cooccurrence.pairs
    assert not set(REMOVED) & (set(pairs["source"]) | set(pairs["target"]))
    assert not set(REMOVED) & set(edited.cooccurrence.graph.nodes)
    top = " ".join(edited.cooccurrence.communities["top_terms"].astype(str))
    assert not any(re.search(rf"\b{term}\b", top) for term in REMOVED)
    assert edited.cooccurrence.vocabulary_changes.sort_values("term").values.tolist() == [
        ["bacteriophage", "phage", str(runs[0] / "thesaurus.txt")],
        ["carcass skin", "skin", str(runs[0] / "thesaurus.txt")],
        ["salmonella", "", str(runs[0] / "stop.txt")]]


def test_exports(runs, tmp_path):
    *_, plain, edited = runs
    for name, writer in network_writers(edited.cooccurrence).items():
        writer(tmp_path / name)
        text = (tmp_path / name).read_text(encoding="utf-8").lower()
        assert "salmonella" not in text and "bacteriophage" not in text and "carcass skin" not in text, name
        assert name == "vosviewer_network.txt" or re.search(r"\bphage\b", text), name  # that one holds ids only
    for name, writer in network_writers(plain.cooccurrence).items():  # the test can fail
        writer(tmp_path / f"plain-{name}")
        text = (tmp_path / f"plain-{name}").read_text(encoding="utf-8").lower()
        assert name == "vosviewer_network.txt" or "salmonella" in text, name


def test_themes_vocabulary_and_labels(runs):
    *_, plain, edited = runs
    plain_words = set(plain.themes.model.selection_vocabulary)
    words = set(edited.themes.model.selection_vocabulary)
    assert {"salmonella", "bacteriophage", "carcass skin"} <= plain_words
    assert not set(REMOVED) & words and {"phage", "skin"} <= words
    assert not set(REMOVED) & set(edited.themes.model.top_terms["term"])
    labels = " ".join(edited.themes.labels.values()).lower()
    assert "salmonella" not in labels and "bacteriophage" not in labels
    assert edited.themes.model.settings.vocabulary_changed == [2, 1]  # bacteriophage, carcass skin; salmonella


def test_term_change_bursts_and_overlay(runs):
    *_, plain, edited = runs
    assert edited.change is not None and plain.change is not None
    assert "salmonella" in set(plain.change.terms["term"])
    for table in (edited.change.terms, edited.change.bursts):
        assert not set(REMOVED) & set(table["term"])
    # The overlay's years are the change table's: the merged term has the years of both spellings' abstracts.
    row = edited.change.terms.set_index("term").loc["phage"]
    years = [year for year, text in ABSTRACTS if re.search(r"\b(bacterio)?phage", text, re.IGNORECASE)]
    assert row["n_papers"] == len(years) == 7


def test_explorer_term_filter(runs):
    *_, plain, edited = runs
    data = explorer_data(edited.papers.assign(display_title="t", authors="", text=""), edited.links.links,
                         edited.links.statements, edited.themes.labels, edited.cooccurrence)
    assert not set(REMOVED) & set(data["terms"]) and "phage" in data["terms"]
    plain_data = explorer_data(plain.papers.assign(display_title="t", authors="", text=""), plain.links.links,
                               plain.links.statements, plain.themes.labels, plain.cooccurrence)
    assert "salmonella" in plain_data["terms"]


def test_files_are_in_the_key_and_the_settings(runs, tmp_path):
    folder, corpus, settings, edits, *_ = runs
    with_files = AnalysisSettings(themes=2, min_occurrences=2, relevant_share=1.0, group_by="year", vocabulary=edits)
    assert [entry["kind"] for entry in with_files.as_dict()["vocabulary"]] == ["thesaurus", "stop terms"]
    assert "vocabulary" not in settings.as_dict()
    (tmp_path / "stop.txt").write_text(STOP_TERMS + "litter\n", encoding="utf-8")
    other = AnalysisSettings(themes=2, min_occurrences=2, relevant_share=1.0, group_by="year",
                             vocabulary=read_vocabulary(folder / "thesaurus.txt", tmp_path / "stop.txt"))
    keys = {build_key([corpus], s) for s in (settings, with_files, other)}
    assert len(keys) == 3


def test_command_line(runs, tmp_path):
    folder, corpus, *_ = runs
    out = tmp_path / "out"
    done = run_in_process("analyse", str(corpus), "--out", str(out), "--themes", "2", "--min-occurrences", "2", "--relevant-share", "1",
                          "--jobs", "1", "--quiet", "--thesaurus", str(folder / "thesaurus.txt"),
                          "--stop-terms", str(folder / "stop.txt"))
    assert done.returncode == 0, done.stderr
    terms = (out / "terms.csv").read_text(encoding="utf-8")
    assert "salmonella" not in terms and "bacteriophage" not in terms and "\nphage," in terms
    changes = (out / "vocabulary_changes.csv").read_text(encoding="utf-8").splitlines()
    assert changes[0] == "term,becomes,file" and len(changes) == 4
    left_out = (out / "left_out_terms.csv").read_text(encoding="utf-8").splitlines()
    assert left_out[0] == "term,n_papers,rule"


def test_malformed_file_is_one_line_exit_2_nothing_written(runs, tmp_path):
    _, corpus, *_ = runs
    bad = tmp_path / "bad thesaurus.txt"
    bad.write_text("label\treplace by\nphages\tphage\nstudy\n", encoding="utf-8")
    out = tmp_path / "out"
    done = run_in_process("analyse", str(corpus), "--out", str(out), "--thesaurus", str(bad))
    assert done.returncode == 2
    assert done.stderr == (f"error: {bad}: line 3: no tab between label and replace by (write the label and a tab "
                           "to remove a term), got 'study'\n")
    assert not out.exists()


def test_book_settings_read_the_files_as_the_command_line(runs, tmp_path):
    from helpers.analysis.text.vocabulary_files import VocabularyFiles, edits_of
    from helpers.book.settings import BookConfig

    folder, corpus, settings, edits, *_ = runs
    book = BookConfig.from_environment({"BOOK_CORPUS": str(corpus), "BOOK_THESAURUS": "thesaurus.txt",
                                        "BOOK_STOP_TERMS": str(folder / "stop.txt")}, root=folder)
    files = book.settings.vocabulary
    assert isinstance(files, VocabularyFiles)
    assert files.as_dict() == edits.as_dict()  # the same build key as analyse --thesaurus --stop-terms
    assert edits_of(files) == edits
    (tmp_path / "bad.txt").write_text("label\treplace by\na\tb\tc\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"^.*bad\.txt: line 2: more than two columns"):
        BookConfig.from_environment({"BOOK_THESAURUS": str(tmp_path / "bad.txt")}, root=folder)


def test_a_removed_long_form_leaves_the_acronym_table():
    import pandas as pd

    from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence
    from helpers.analysis.text.cleaning import analysis_text
    from helpers.analysis.text.vocabulary import VocabularyEdits

    raw = pd.Series({f"p{i}": text for i, text in enumerate([
        "Necrotic enteritis (NE) in broilers. Litter moisture rose.", "Necrotic enteritis (NE) and litter moisture.",
        "We scored NE lesions and litter moisture.", "Litter moisture and necrotic enteritis in broilers."])})
    plain = analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(min_occurrences=2, relevant_share=1.0))
    assert plain.acronyms["long_form"].tolist() == ["necrotic enteritis"]
    edited = analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(
        min_occurrences=2, relevant_share=1.0, edits=VocabularyEdits(frozenset({"necrotic enteritis"}), {})))
    assert edited.acronyms.empty and "necrotic enteritis" not in set(edited.terms["term"])


@pytest.mark.parametrize("n_parts", [1, 5, 57])
def test_edits_in_partitions_count_what_the_whole_counts(n_parts):
    import pandas as pd

    from tests.support import SEED_DIR
    from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence, analyse_partitions
    from helpers.analysis.corpus import read_corpus
    from helpers.analysis._parallel import LocalPartitions, partition_bounds
    from helpers.analysis.text.tokens import TokenPartitions, tokenize_corpus
    from helpers.analysis.text.vocabulary import VocabularyEdits

    class Bucketed(LocalPartitions):
        n_buckets = 3

    papers = read_corpus(SEED_DIR).papers
    texts = papers["text"].reset_index(drop=True)
    tokens = tokenize_corpus(texts.tolist(), papers["paper_id"], clean=True)
    edits = VocabularyEdits(frozenset({"optimization", "theory"}), {"representation": "feature", "gap": "feature"})
    whole = analyse_cooccurrence(texts, tokens, TermMapOptions(edits=edits))
    bounds = partition_bounds(len(tokens), n_parts)
    parts = analyse_partitions(Bucketed(), TokenPartitions(tokens, bounds),
                               [texts.iloc[start:stop].tolist() for start, stop in bounds], TermMapOptions(edits=edits))
    for name in ("terms", "pairs", "communities", "left_out", "vocabulary_changes"):
        pd.testing.assert_frame_equal(getattr(parts, name), getattr(whole, name), check_dtype=True)
    assert (parts.paper_terms != whole.paper_terms).nnz == 0
    terms = set(whole.terms["term"])
    assert not {"optimization", "theory", "representation", "gap"} & terms
    assert whole.vocabulary_changes["term"].tolist() == ["gap", "optimization", "representation", "theory"]


def test_fingerprint_refuses_a_malformed_book_file(runs, tmp_path, monkeypatch):
    _, corpus, *_ = runs
    bad = tmp_path / "stop.txt"
    bad.write_text("study\nlabel\treplace by\n", encoding="utf-8")
    monkeypatch.setenv("BOOK_STOP_TERMS", str(bad))
    done = run_in_process("fingerprint", str(corpus))
    assert done.returncode == 2
    assert done.stderr == (f"error: {bad}: line 2: a tab in a stop-term file (one term per line; give a "
                           "'label<TAB>replace by' file as the thesaurus)\n")
