"""helpers.book.build.prebuild: pages executed into jupyter-book's execution cache, as myst-nb would store them."""

from __future__ import annotations

from pathlib import Path

from jupyter_cache import get_cache

from helpers.book.build.prebuild import book_pages, execute_pages, pending_pages, read_page
from tests.support import ROOT


PAGE = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# A page

```{code-cell} ipython3
print(6 * 7)
```
"""


def test_the_book_pages_in_table_of_contents_order():
    pages = [page.relative_to(ROOT).as_posix() for page in book_pages(ROOT)]
    assert pages == ["intro.md", "chapters/corpus.md", "chapters/themes.md", "chapters/cooccurrence.md",
                     "chapters/links.md", "chapters/change.md", "chapters/explorer.md", "chapters/figures.md",
                     "chapters/cite.md", "chapters/reproduce.md", "chapters/validation.md", "chapters/performance.md"]
    assert all(page.exists() for page in book_pages(ROOT))


def test_a_one_group_build_executes_no_what_changed_page(seed_analysis):
    from helpers.book.build.toc import build_toc

    seed = seed_analysis
    pages = [page.name for page in book_pages(ROOT, build_toc(ROOT, seed))]
    assert "change.md" not in pages and pages[:2] == ["intro.md", "corpus.md"] and len(pages) == 11


def small_book(folder: Path, code: str = "print(6 * 7)") -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    (folder / "_config.yml").write_text("parse:\n  myst_enable_extensions:\n    - colon_fence\n")
    (folder / "intro.md").write_text(PAGE.replace("print(6 * 7)", code))
    return folder


def test_executed_pages_are_found_in_the_cache_and_a_changed_page_is_pending_again(tmp_path):
    root = small_book(tmp_path / "book")
    cache_path = tmp_path / "out" / "_build" / ".jupyter_cache"
    (root.parent / "out").mkdir()
    assert pending_pages(root, cache_path) == [root / "intro.md"]
    [(path, seconds, error)] = execute_pages([root / "intro.md"], root, cache_path, workers=1)
    assert (path, error) == (root / "intro.md", None) and seconds > 0
    assert pending_pages(root, cache_path) == []
    # What the build will merge: the output of the page's cell.
    _, merged = get_cache(str(cache_path)).merge_match_into_notebook(read_page(root / "intro.md", root))
    assert merged.cells[1].outputs[0]["text"] == "42\n"
    small_book(root, code="print(6 * 9)")
    assert pending_pages(root, cache_path) == [root / "intro.md"]


def test_a_failing_page_is_reported_and_left_to_the_build(tmp_path):
    root = small_book(tmp_path / "book", code="raise ValueError('bad page')")
    cache_path = tmp_path / "out" / "_build" / ".jupyter_cache"
    (root.parent / "out").mkdir()
    [(_, _, error)] = execute_pages([root / "intro.md"], root, cache_path, workers=1)
    assert error is not None and "bad page" in error
    assert pending_pages(root, cache_path) == [root / "intro.md"]


def test_a_failed_warm_up_leaves_the_worker_to_start_its_kernels_cold(monkeypatch, capsys):
    from helpers.book.build import prebuild, warm_kernels

    def broken() -> None:
        raise ImportError("no module named 'missing'")

    monkeypatch.setattr(warm_kernels, "warm_up", broken)
    prebuild._warm_worker()
    assert capsys.readouterr().err == ("prebuild: warm-up failed (ImportError: no module named 'missing'); "
                                       "pages start cold\n")


def test_pages_run_in_kernels_forked_from_the_warm_worker(tmp_path):
    # A forked kernel starts with what the worker's warm-up imported; a new Python would not have it.
    root = small_book(tmp_path / "book", code="import sys\nprint('helpers.book.pages' in sys.modules)")
    cache_path = tmp_path / "out" / "_build" / ".jupyter_cache"
    (root.parent / "out").mkdir()
    [(_, _, error)] = execute_pages([root / "intro.md"], root, cache_path, workers=1)
    assert error is None
    _, merged = get_cache(str(cache_path)).merge_match_into_notebook(read_page(root / "intro.md", root))
    assert merged.cells[1].outputs[0]["text"] == "True\n"
