"""The links chapter on a corpus where few abstracts give a link: one paragraph that says so and what it means, no
shares, tables or figures of zeros, and context (NeurIPS 2019) only at machine learning venues."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from docutils import nodes
from docutils.utils import new_document
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser

from helpers.analysis.pipeline import run_pipeline
from helpers.book.build import sphinx_ext
from helpers.book.reports.figure_index import book_figures
from helpers.book.reports import link_context, links as report

from tests.support import page_doctree

POULTRY = [
    "Broiler chickens fed diets with more crude protein gained weight faster over six weeks in two barns.",
    "Laying hens kept in enriched cages laid fewer cracked eggs than hens kept in conventional battery cages.",
    "Our data on litter moisture in turkey houses are available at https://osf.io/abcde for other researchers.",
    "Heat stress lowered feed intake and egg weight of laying hens in a tropical climate over two summers.",
]


def corpus(folder: Path, header: str, abstracts: list[str]) -> Path:
    folder.mkdir()
    (folder / "a.txt").write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def poultry(tmp_path_factory):
    return run_pipeline([corpus(tmp_path_factory.mktemp("p") / "poultry", "Poultry Science 2021", POULTRY)])


def test_few_links_are_one_paragraph_and_no_figures(poultry):
    assert report.few_links(poultry.papers)  # 1 of 4 papers gives a link
    lead = report.chapter_lead(poultry)
    assert lead["links_few_note"].startswith("With 1 paper giving a link, fewer than 10, this page shows no shares, "
                                             "tables or figures")
    assert "rarely point readers to code or data" in lead["links_few_note"]
    shown = [label for label, _, _ in book_figures(poultry)]
    assert "fig-links-shares" not in shown and "fig-links-host-kinds" not in shown and "fig-corpus-lengths" in shown


def test_neurips_is_context_only_at_machine_learning_venues(poultry, tmp_path):
    assert "NeurIPS" not in link_context.context_paragraph(poultry)
    assert "Pineau" not in link_context.references(poultry) and "Cochran" in link_context.references(poultry)
    icml = run_pipeline([corpus(tmp_path / "icml", "ICML 2024 Papers", POULTRY)])
    assert link_context.context_paragraph(icml).startswith("At NeurIPS 2019, about 75% of accepted papers")
    assert "Pineau" in link_context.references(icml)
    assert link_context.change_context(poultry) == {"change_links_context": "", "change_links_context_reference": ""}
    assert "Coakley et al. (2026)" in link_context.change_context(icml)["change_links_context"]


def test_without_any_link_the_page_says_so_and_leaves_out_repairs_and_checks(tmp_path):
    no_links = run_pipeline([corpus(tmp_path / "none", "Poultry Science 2021", POULTRY[:2] + POULTRY[3:])])
    assert "The abstracts hold no link." in report.chapter_lead(no_links)["links_lead"]
    assert report.left_out_sections(no_links.papers, no_links.links.links) == (
        "sec-links-shares", "sec-links-hosts", "sec-links-repaired", "sec-links-health")


def test_few_links_point_to_no_test_per_group(tmp_path):
    from helpers.analysis.settings import AnalysisSettings
    from helpers.book.reports.change import pointer

    folder = corpus(tmp_path / "two", "Poultry Science 2021", POULTRY)
    (folder / "b.txt").write_text("Poultry Science 2022\n\n" + "\n\n".join(
        text.replace("hens", "quails") for text in POULTRY[:2] + POULTRY[3:]) + "\n", encoding="utf-8")
    two_files = run_pipeline([folder], AnalysisSettings(group_by="file"))
    assert pointer(two_files, "links").startswith("The papers form 2 groups")  # the other chapters' pointer
    assert link_context.change_pointer(two_files) == ""  # 1 linked paper: no share per group to compare


def test_ten_linked_papers_keep_the_shares():
    assert not report.few_links(pd.DataFrame({"link_state": ["linked"] * 10 + ["none"] * 5}))
    assert report.few_links(pd.DataFrame({"link_state": ["linked"] * 9 + ["dangling"] * 20}))


def links_doctree() -> nodes.document:
    """A page as Sphinx reads it (labels already on their sections): a lead, two sections of shares, a method."""
    document = new_document("links.md", get_default_settings(Parser))
    page = nodes.section(ids=["sec-links"])
    page += nodes.paragraph(text="Lead.")
    for label in ("sec-links-shares", "sec-links-hosts", "sec-links-health", "sec-links-method"):
        page += nodes.section("", nodes.paragraph(text=label), ids=[label, label.split("-")[-1]])
    document += page
    return document


@pytest.mark.parametrize("few", [True, False])
def test_the_book_leaves_the_sections_of_shares_out(monkeypatch, few):
    states = ["linked"] * (1 if few else 10) + ["none"] * 3
    links = pd.DataFrame({"url": ["https://osf.io/abcde"]})
    monkeypatch.setattr(sphinx_ext, "analysis", lambda: SimpleNamespace(
        papers=pd.DataFrame({"link_state": states}), links=SimpleNamespace(links=links)))
    doctree = links_doctree()
    sphinx_ext._drop_sections(SimpleNamespace(env=SimpleNamespace(docname="chapters/links")), doctree)
    ids = {i for section in doctree.findall(nodes.section) for i in section["ids"]}
    assert ("sec-links-shares" in ids, "sec-links-hosts" in ids, "sec-links-method" in ids) == (not few, not few, True)
    assert "sec-links-health" in ids  # a link to check
    other = links_doctree()
    sphinx_ext._drop_sections(SimpleNamespace(env=SimpleNamespace(docname="chapters/themes")), other)
    assert "sec-links-hosts" in {i for section in other.findall(nodes.section) for i in section["ids"]}


def test_the_sections_go_before_the_page_contents_are_collected():
    """Sphinx's collectors (the page's contents in the sidebar) read the page at ``doctree-read`` with priority 500:
    the sections are dropped before, so the contents never list a section the page does not show."""
    calls = []
    app = SimpleNamespace(connect=lambda event, handler, priority=500: calls.append((event, handler, priority)),
                          add_css_file=lambda name: None, setup_extension=lambda name: None)
    sphinx_ext.setup(app)
    assert [priority for event, handler, priority in calls if handler is sphinx_ext._drop_sections] == [100]


def change_doctree() -> nodes.document:
    """The What changed page as Sphinx reads it: themes, terms, the section of links per group and the method."""
    return page_doctree("change", ("sec-change-themes", "sec-change-links", "sec-change-method"))


@pytest.mark.parametrize("few", [True, False])
def test_what_changed_shows_no_links_per_group_when_few_papers_link(monkeypatch, few):
    """The links chapter says it shows no shares per group below 10 linked papers; What changed must not show
    them either (a 12-row table of zeros and a chi-square test on 1 linked paper, on Web of Science traffic safety)."""
    states = ["linked"] * (1 if few else 10) + ["none"] * 3
    monkeypatch.setattr(sphinx_ext, "analysis", lambda: SimpleNamespace(
        papers=pd.DataFrame({"link_state": states}), links=SimpleNamespace(links=pd.DataFrame({"url": ["x"]}))))
    doctree = change_doctree()
    sphinx_ext._drop_sections(SimpleNamespace(env=SimpleNamespace(docname="chapters/change")), doctree)
    ids = {i for section in doctree.findall(nodes.section) for i in section["ids"]}
    assert ("sec-change-links" in ids, "sec-change-themes" in ids, "sec-change-method" in ids) == (not few, True, True)


def test_few_links_leave_the_change_figure_and_key_finding_out(tmp_path):
    from helpers.analysis.settings import AnalysisSettings
    from helpers.book.reports.change import landing_block

    folder = corpus(tmp_path / "two", "Poultry Science 2021", POULTRY)
    (folder / "b.txt").write_text("Poultry Science 2022\n\n" + "\n\n".join(
        text.replace("hens", "quails") for text in POULTRY[:2] + POULTRY[3:]) + "\n", encoding="utf-8")
    two_files = run_pipeline([folder], AnalysisSettings(group_by="file"))
    shown = [label for label, _, _ in book_figures(two_files)]
    assert "fig-change-links" not in shown and "fig-change-prevalence" in shown
    block = landing_block(two_files)
    assert block.startswith("- **What changed**") and "Papers linking" not in block and "chi-square" not in block


def test_the_paragraph_for_a_corpus_without_any_link_says_none_not_fewer_or_rarely():
    from helpers.book.reports.links import few_links_paragraph

    none = few_links_paragraph(0)
    assert none.startswith("No paper gives a link, so this page shows no shares, tables or figures of links")
    assert "fewer than" not in none and "rarely" not in none
    assert "the abstracts of this corpus never point readers to code or data" in none
    assert few_links_paragraph(3).startswith("With 3 papers giving a link, fewer than 10, this page shows")
