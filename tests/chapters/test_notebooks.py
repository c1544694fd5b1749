"""Every chapter runs as a plain Jupyter notebook (as ``make lab`` opens it), on a corpus set in its parameters cell."""

from __future__ import annotations

import json
import pickle
import re

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

from tests.support import ROOT, SEED_DIR
from tests.support.chapters import glue_names

PAGES = [ROOT / "intro.md", *sorted((ROOT / "chapters").glob("*.md"))]
@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """The first 8 abstracts of each seed file (24 papers): enough for themes, links and a term map."""
    folder = tmp_path_factory.mktemp("corpus")
    for path in sorted(SEED_DIR.glob("*.txt")):
        blocks = path.read_text(encoding="utf-8").split("\n\n")
        (folder / path.name).write_text("\n\n".join(blocks[:9]) + "\n", encoding="utf-8")
    return folder


def with_parameters(page, corpus):
    notebook = jupytext.read(page)
    cells = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, f"{page.name}: one parameters cell"
    source = cells[0].source
    assert re.search(r"^corpus = None", source, re.M), f"{page.name}: the parameters cell sets corpus"
    cells[0].source = re.sub(r"^corpus = None", f"corpus = {str(corpus)!r}", source, flags=re.M)
    return notebook


@pytest.mark.chapters
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_chapter_runs_as_a_notebook(page, small_corpus, tmp_path, monkeypatch):
    cache = small_corpus.parent / "analysis-cache"  # one analysis shared by every chapter
    monkeypatch.setenv("BOOK_ANALYSIS_CACHE", str(cache))
    monkeypatch.setenv("BOOK_FIGURE_DIR", str(tmp_path / "figures"))
    monkeypatch.delenv("BOOK_CORPUS", raising=False)
    notebook = with_parameters(page, small_corpus)
    # Last, the names the page glued (helpers.book.page keeps every value, sentence and figure it glues).
    notebook.cells.append(nbformat.v4.new_code_cell(
        "import json\nprint(json.dumps(sorted({*book.page.texts, *book.page.markdown, *book.page.figures})))"))
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(page.parent)}}).execute()
    errors = [o for c in notebook.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    # The contract between a page's report and its prose, both ways: every {glue} name of the text is glued by the
    # page's cells, and the cells glue nothing the text does not show (no page shows another page's glue).
    glued = set(json.loads(notebook.cells[-1].outputs[0]["text"]))
    shown = glue_names(page.read_text(encoding="utf-8"))
    if page.name == "change.md":  # one group of papers: What changed is left out of the book and draws nothing
        assert not any(name.startswith("fig_") and not name.endswith("_cite") for name in glued)
    else:
        assert shown - glued == set(), page.name
    assert glued - shown == set(), page.name
    # Every chapter read the parameters cell's corpus: one cached analysis, of its 24 papers.
    pickles = list(cache.glob("*.pickle"))
    assert len(pickles) == 1
    assert len(pickle.loads(pickles[0].read_bytes()).papers) == 24


def test_a_chapter_opened_in_jupyterlab_is_written_back_unchanged():
    """JupyterLab's jupytext rewrites a text notebook with its own header (versions, the kernel's display name):
    every chapter already carries that header, so opening and saving one changes no byte."""
    import jupytext

    for page in [ROOT / "intro.md", *sorted((ROOT / "chapters").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        notebook = jupytext.reads(text, fmt="md:myst")
        notebook.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                           "name": "python3"}
        assert jupytext.writes(notebook, fmt="md:myst") == text, page.name


def test_a_missing_corpus_file_is_one_line_in_a_notebook(tmp_path, monkeypatch):
    """Run as a notebook (as ``make lab`` does), a bad corpus stops the run with the message alone, naming
    the file; the cell still fails, so Run All stops there."""
    import nbformat
    from nbclient.exceptions import CellExecutionError

    monkeypatch.setenv("BOOK_NOTEBOOK", "1")
    monkeypatch.setenv("BOOK_ANALYSIS_CACHE", str(tmp_path / "cache"))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from helpers import book\nbook.analysis(corpus='no/such/abstracts.txt')")])
    with pytest.raises(CellExecutionError):
        NotebookClient(notebook, timeout=120, kernel_name="python3",
                       resources={"metadata": {"path": str(ROOT / "chapters")}}).execute()
    outputs = notebook.cells[0].outputs
    assert [o.get("output_type") for o in outputs] == ["stream"]
    lines = outputs[0]["text"].splitlines()
    assert len(lines) == 2 and lines[0].endswith("no/such/abstracts.txt: no such file or directory")
    assert lines[1] == "(run %tb in a cell for the traceback)"


@pytest.mark.chapters
def test_a_chapter_run_as_a_notebook_shows_its_values_and_figures(small_corpus, tmp_path, monkeypatch):
    """In a notebook of another Jupyter (whose Markdown is not filled in as ``make lab``'s is), the cells show
    what the book glues into the prose: the values, the sentences and the figures; the figures go to a folder of
    the notebook's own corpus and settings, and the download links point into it."""
    monkeypatch.delenv("BOOK_NOTEBOOK", raising=False)
    monkeypatch.setenv("JPY_SESSION_NAME", "links.md")
    monkeypatch.setenv("BOOK_ANALYSIS_CACHE", str(small_corpus.parent / "analysis-cache"))
    monkeypatch.delenv("BOOK_FIGURE_DIR", raising=False)
    monkeypatch.delenv("BOOK_CORPUS", raising=False)
    page = ROOT / "chapters" / "links.md"
    notebook = with_parameters(page, small_corpus)
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(page.parent)}}).execute()
    outputs = [o for c in notebook.cells for o in c.get("outputs", [])]
    markdown = "\n".join(o["data"].get("text/markdown", "") for o in outputs if "data" in o)
    assert "| `links_n_code` | 5 |" in markdown
    assert "`links_lead`: Of the 24 abstracts" in markdown
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 2  # the chapter's two figures
    html_links = "\n".join(o["data"].get("text/html", "") for o in outputs if "data" in o)
    folders = re.findall(r'href="(\.\./_build/notebooks/[0-9a-f]+/figures)/fig-links-shares\.png"', html_links)
    assert folders and (page.parent / folders[0] / "fig-links-shares.png").is_file()
    assert 'href="explorer.html' not in html_links and 'href="../figures/' not in html_links


def test_chapters_shown_in_jupyterlab_are_saved_back_byte_identical():
    """``make lab`` shows each chapter's glue as ``{eval}`` expressions and writes the book's form back on save:
    every chapter opened and saved unchanged is the same file, and no glue role or directive is left to show raw."""
    import copy

    from helpers.book.lab.markdown import shown_in_lab, written_from_lab

    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        notebook = jupytext.reads(text, fmt="md:myst")
        shown = shown_in_lab(copy.deepcopy(notebook))
        raw = [c.source for c in shown.cells if c.cell_type == "markdown" and re.search(r"\{glue", c.source)]
        assert not raw, (page.name, raw[:1])
        saved = written_from_lab(shown)
        saved.metadata.pop("language_info")
        assert jupytext.writes(saved, fmt="md:myst") == text, page.name


def test_page_values_answer_the_chapter_markdown_in_jupyterlab():
    """The ``{eval}`` expressions of a chapter shown in Lab ask ``book.page`` for the values its cells glued."""
    from helpers.book.display import glue_all, glue_markdown
    from helpers.book.lab.markdown import to_lab
    from helpers.book.lab.page_values import PageValues, page

    glue_all({"lab_test_n": 17625, "lab_test_year": 2024})
    glue_markdown({"lab_test_lead": "The *papers* ({numref}`fig-links-shares`)"})
    shown = to_lab("{glue:text}`lab_test_n` in {glue:text}`lab_test_year`: {glue:md}`lab_test_lead`")
    calls = re.findall(r"\{eval\}`book\.page\.(\w+)\(\"(\w+)\"\)`", shown)
    assert [getattr(page, function)(name) for function, name in calls] == [
        "17,625", "2024", "The papers (the figure Share of papers giving a link, with Wilson intervals)"]
    assert PageValues().text("lab_test_n") == "[lab_test_n: run the cells above]"
