"""The How to cite, Reproduce and Figure index pages: what they read from CITATION.cff, requirements.txt, the
environment and the figure registry."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from tests.support import ROOT, SEED_DIR
from helpers.book.build.citation import book_bibtex, read_citation
from helpers.book.figures import FIGURES, GROUP_FIGURES, figure_bibtex, figure_citation
from helpers.book.reports import figure_index, reproduce
from helpers.book.settings import BookConfig


@pytest.fixture(scope="module")
def seed(seed_analysis):
    return seed_analysis


def test_the_book_bibtex_reads_authors_and_version_from_citation_cff(tmp_path):
    (tmp_path / "CITATION.cff").write_text('cff-version: 1.2.0\ntitle: "A book"\nversion: 2.1.0\n'
                                           'date-released: "2027-01-05"\nauthors:\n'
                                           '  - family-names: Lovelace\n    given-names: Ada\n'
                                           '  - name: "The B & C team"\n', encoding="utf-8")
    entry = book_bibtex(read_citation(tmp_path), corpus_sha256="0" * 64)
    assert entry.splitlines()[:5] == ["@software{a_book_2_1_0,", "  author  = {Lovelace, Ada and {The B \\& C team}},",
                                      "  title   = {{A book}},", "  version = {2.1.0},", "  year    = {2027},"]
    assert "url" not in entry
    assert max(len(line) for line in entry.splitlines()) <= 72


def test_the_cite_page_names_the_authors_of_the_file_and_says_when_addresses_are_relative(seed):
    values = reproduce.cite_values(seed, BookConfig.from_environment({}, root=ROOT))
    assert values["cite_authors"] == ", ".join(read_citation(ROOT).author_names)
    assert values["cite_authors"] != "The abstracts-book authors"
    assert "`BOOK_BASE_URL` is not set" in values["cite_address"]
    published = BookConfig.from_environment({"BOOK_BASE_URL": "https://example.org/book/"}, root=ROOT)
    assert reproduce.cite_values(seed, published)["cite_address"] == (
        "Figure citations give absolute addresses under https://example.org/book/ (`BOOK_BASE_URL`).")
    assert "  url     = {https://example.org/book/}," in reproduce.cite_blocks(seed, published)[1]


def test_figure_citations_are_absolute_under_the_base_url_and_never_a_relative_howpublished():
    sha = "ab" * 32
    assert figure_citation("fig-themes-map", "themes", version="0.1.0", corpus_sha256=sha, title="T",
                           base_url="https://example.org/book/") == (
        "T, version 0.1.0, corpus SHA-256 abababababab, https://example.org/book/chapters/themes.html#fig-themes-map")
    for label, chapter, caption in FIGURES + GROUP_FIGURES:
        relative = figure_bibtex(label, chapter, caption, version="0.1.0", corpus_sha256=sha, year="2026")
        assert "howpublished" not in relative and "url" not in relative
        absolute = figure_bibtex(label, chapter, caption, version="0.1.0", corpus_sha256=sha, year="2026",
                                 base_url="https://example.org/book/")
        page = "intro.html" if chapter == "intro" else f"chapters/{chapter}.html"
        assert f"  url     = {{https://example.org/book/{page}#{label}}}," in absolute


def test_the_rebuild_command_names_the_corpus_and_the_settings_that_differ(tmp_path):
    environment = {"BOOK_CORPUS": "../shared/corpora/icml-2023-2025", "BOOK_SEED": "3", "BOOK_RELEVANT_SHARE": "0.6",
                   "BOOK_GROUP_BY": "venue"}
    assert reproduce.rebuild_command(BookConfig.from_environment(environment, root=tmp_path)) == (
        "make book CORPUS=../shared/corpora/icml-2023-2025 BOOK_SEED=3 BOOK_GROUP_BY=venue")
    seed_config = BookConfig.from_environment({"BOOK_CORPUS": "data/raw"}, root=tmp_path)
    assert reproduce.rebuild_command(seed_config) == "make book"


def test_the_rebuild_command_gives_every_analysis_setting_by_the_variable_the_book_reads_it_from(tmp_path):
    environment = {"THEMES_K": "7", "BOOK_SEED": "3", "BOOK_MIN_OCCURRENCES": "4", "BOOK_RELEVANT_SHARE": "0.5",
                   "BOOK_GROUP_BY": "venue", "BOOK_PARTITIONS": "4"}
    # the engine's settings leave every result as it is: the command leaves them out
    assert reproduce.rebuild_command(BookConfig.from_environment(environment, root=tmp_path)) == (
        "make book THEMES_K=7 BOOK_SEED=3 BOOK_MIN_OCCURRENCES=4 BOOK_RELEVANT_SHARE=0.5 BOOK_GROUP_BY=venue")


def test_the_corpus_files_table_gives_each_file_its_blocks_and_sha256(seed):
    import hashlib

    table = reproduce.corpus_files(seed)
    files = sorted(SEED_DIR.glob("*.txt"))
    assert table.to_dict("list") == {"file": [f.name for f in files], "blocks": ["20", "20", "20"],
                                     "abstracts": ["19", "19", "19"],
                                     "SHA-256": [hashlib.sha256(f.read_bytes()).hexdigest() for f in files]}


def test_the_settings_are_a_table_of_text(seed):
    table = reproduce.settings_table(seed)
    assert list(table.columns) == ["part", "setting", "value"]
    rows = {(part, setting): value for part, setting, value in table.itertuples(index=False)}
    assert rows[("analysis", "seed")] == "0" and rows[("analysis", "themes")] == "—"
    assert rows[("analysis", "group_by")] == "none (from the corpus)"
    assert rows[("themes", "k_given")] == "no" and rows[("co-occurrence", "n_tokens")] == "9,347"


def test_the_libraries_are_every_pin_of_requirements_with_its_installed_version():
    table = reproduce.distributions(reproduce.read_requirements(ROOT))
    pins = [line.split("==")[0] for line in (ROOT / "requirements.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#")]
    assert table["package"].tolist() == pins
    for name in ["wordfreq", "textblob", "lemminflect", "bibtexparser", "dask", "pyarrow", "PyYAML"]:
        assert table.set_index("package").loc[name, "installed"] == version(name)
    assert (table["pinned"] == table["installed"]).all()


def test_the_figure_index_has_every_figure_once_with_thumbnail_links_and_citation():
    text = figure_index.figure_index(FIGURES, version="0.1.0", corpus_sha256="0" * 64,
                                     order=figure_index.chapter_order(ROOT), title="Book <i>x</i>")
    for label, chapter, caption in FIGURES:
        assert text.count(f"{{numref}}`{label}`") == 1
        assert f'<img src="../figures/thumbnails/{label}.png" alt="Thumbnail of the figure: ' in text
        for extension in ["png", "svg", "pdf", "csv"]:
            assert f'<a href="../figures/{label}.{extension}" download>{extension.upper()}</a>' in text
    assert "GROUP" not in text and "fig-change-" not in text
    assert "<i>" not in text and "Book &lt;i&gt;x&lt;/i&gt;" in text
    with_groups = figure_index.figure_index(FIGURES + GROUP_FIGURES, version="1", corpus_sha256="0" * 64,
                                            order=figure_index.chapter_order(ROOT))
    labels = [label for label, _, _ in figure_index.in_book_order(FIGURES + GROUP_FIGURES,
                                                                  figure_index.chapter_order(ROOT))]
    assert labels.index("fig-change-links") < labels.index("fig-performance-stages")
    assert with_groups.index("fig-change-links") < with_groups.index("{numref}`fig-performance-stages`")
