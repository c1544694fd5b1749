"""No stale page: every file a page reads is in helpers.book.inputs.PAGE_INPUTS (and so in the build key), and the
chapters and report modules read such files only through page_input."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.support import ROOT
from helpers.book.inputs import PAGE_INPUTS, page_input, page_inputs

# Calls that read a file, with where the path is: the receiver of a method ("self") or an argument's position.
READERS = {"read_csv": 0, "read_json": 0, "read_parquet": 0, "read_table": 0, "read_metadata": 0,
           "load_evaluation_set": 0, "link_health": 1, "latest_check": 0, "open": 0,
           "read_text": "self", "read_bytes": "self"}
# Reads that are not a page's: the prebuild reads the table of contents and the pages themselves to execute them;
# drawn_pixels reads the figure its page has just saved, figure_record the size record saved with
# it; figure_text measures saved figures (for the test and benchmark of text sizes, never a page).
NOT_PAGE_READS = {("prebuild.py", "book_pages"), ("prebuild.py", "read_page"), ("figure_pixels.py", "drawn_pixels"),
                  ("figures.py", "figure_record"), ("figure_text.py", "svg_texts"),
                  ("figure_text.py", "folder_text_sizes"), ("warm_kernels.py", "_run_kernel"),  # a kernel's stdin
                  # The build key hashes the files that change a result (the page inputs among them) and the cache
                  # keeps the analysis under it.
                  ("cache.py", "source_fingerprint"), ("cache.py", "environment_fingerprint"),
                  ("cache.py", "build_key"), ("cache.py", "cached_pipeline"),
                  # A figure's own files: its PNG measured, the background writers' locks and errors.
                  ("figures.py", "save_page_figure"), ("figure_writers.py", "write_in_background"),
                  ("figure_writers.py", "_finished"), ("figure_writers.py", "wait_for_writers")}


def chapter_code(path: Path) -> str:
    """The code cells of a MyST chapter, one after another (magics and shell lines dropped)."""
    cells = re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    return "\n".join(line for cell in cells for line in cell.splitlines()
                     if not line.lstrip().startswith(("%", "!", ":")))


def sources() -> list[tuple[str, str]]:
    """(name, Python source) of every module of helpers.book and the code of every chapter."""
    modules = sorted((ROOT / "src" / "helpers" / "book").rglob("*.py"))
    pages = [ROOT / "intro.md", *sorted((ROOT / "chapters").glob("*.md"))]
    return ([(path.name, path.read_text(encoding="utf-8")) for path in modules]
            + [(path.name, chapter_code(path)) for path in pages])


def is_page_input_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "page_input"


def unlisted_reads(name: str, source: str) -> list[str]:
    """The reads in ``source`` whose path does not come from ``page_input``: ``"name:line: code"`` each."""
    tree = ast.parse(source)
    from_page_input = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
                       and is_page_input_call(node.value) for target in node.targets if isinstance(target, ast.Name)}
    functions = {child: node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                 for child in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        reader = getattr(node.func, "attr", getattr(node.func, "id", None))
        if reader not in READERS or (name, functions.get(node)) in NOT_PAGE_READS:
            continue
        where = READERS[reader]
        if where == "self" or (reader == "open" and isinstance(node.func, ast.Attribute)):
            path = node.func.value if isinstance(node.func, ast.Attribute) else None
        else:
            path = node.args[where] if len(node.args) > where else None
        listed = is_page_input_call(path) or (isinstance(path, ast.Name) and path.id in from_page_input)
        if path is None or not listed:
            found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_page_input_gives_listed_files_under_the_root(tmp_path):
    assert page_input("benchmarks/results.csv", root=tmp_path) == tmp_path / "benchmarks" / "results.csv"
    assert page_input(tmp_path / "tests" / "evaluation" / "x.csv", root=tmp_path) == tmp_path / "tests/evaluation/x.csv"
    assert page_input("data/linkcheck", root=tmp_path) == tmp_path / "data" / "linkcheck"


@pytest.mark.parametrize("path", ["benchmarks/out/profile.csv", "benchmarks/run.py", "tests/evaluation/README.md",
                                  "data/raw/a.txt", "benchmarks/../secret.csv", "../benchmarks/results.csv",
                                  "/etc/passwd", "notes.csv"])
def test_page_input_refuses_a_file_outside_the_list(tmp_path, path):
    with pytest.raises(ValueError, match="is not a page input: add it to helpers.book.inputs.PAGE_INPUTS"):
        page_input(path, root=tmp_path)


def test_the_list_matches_the_files_the_pages_show():
    listed = [path.relative_to(ROOT).as_posix() for path in page_inputs(ROOT)]
    for name in ["CITATION.cff", "requirements.txt", "benchmarks/results.csv", "benchmarks/large_results.csv", "benchmarks/targets.csv",
                 "benchmarks/results/term_quality.csv", "tests/evaluation/availability_claims.csv",
                 "tests/evaluation/availability_first_run.csv"]:
        assert name in listed
    assert len([name for name in listed if re.fullmatch(r"benchmarks/[^/]+\.csv", name)]) == 8
    assert len(listed) == len(set(listed))
    assert PAGE_INPUTS[0] == "CITATION.cff"


def test_the_scan_finds_a_read_around_the_list():
    source = ("import pandas as pd\nfrom helpers import book\n"
              "ok = book.page_input('benchmarks/results.csv')\npd.read_csv(ok)\n"
              "pd.read_csv(book.page_input('benchmarks/results.csv'))\n"
              "pd.read_csv(root / 'benchmarks' / 'results.csv')\n(root / 'x.txt').read_text()\n")
    assert unlisted_reads("page.md", source) == ["page.md:6: pd.read_csv(root / 'benchmarks' / 'results.csv')",
                                                 "page.md:7: (root / 'x.txt').read_text()"]


def test_no_chapter_or_report_reads_a_file_around_the_list():
    found = [read for name, source in sources() for read in unlisted_reads(name, source)]
    assert found == []
