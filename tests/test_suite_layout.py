"""The test suite's own layout: a tree that mirrors the package, with no test file importing another.

A test file sits in the folder of what it tests (``tests/analysis/themes/`` for ``helpers.analysis.themes``), not
flat in ``tests/``: only the tests of the whole package stay there. Helpers that several test files share live in
``tests/support/`` and fixtures in a ``conftest.py``: a test file that imports another runs that file's module code
(and its fixtures' names) a second time, under another name, and ties the two files' fates together."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support import ROOT

TESTS = ROOT / "tests"
PACKAGE = ROOT / "src" / "helpers"
#: The tests of the package as a whole (its layers, its map, its docstrings) and of this suite stay at the top of ``tests/``.
FLAT_ALLOWED = {"test_docstrings.py", "test_layers.py", "test_package_map.py", "test_suite_layout.py"}
#: Folders that mirror no package folder: the browser and notebook runs of the built book, the benchmarks' own
#: tests (``benchmarks/``), the shared helpers, and the data the tests read (``js``'s node tests, evaluation sets).
NOT_MIRRORED = {"browser", "chapters", "benchmarks", "support", "js", "evaluation"}


def python_files() -> list[Path]:
    """Every Python file of the suite but the node tests' folder."""
    return sorted(p for p in TESTS.rglob("*.py") if "js" not in p.relative_to(TESTS).parts[:1]
                  and "__pycache__" not in p.parts)


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports, at its top or inside a function, as ``a.b.c`` (``from a.b import c`` gives both
    ``a.b`` and ``a.b.c``, since ``c`` may be a module)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return names


def forbidden_imports(path: Path) -> list[str]:
    """The test files and conftest modules a file imports.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     source = Path(folder) / "test_a.py"
    ...     _ = source.write_text("import os\\nfrom test_b import x\\nfrom tests.support import ROOT\\n"
    ...                           "def f():\\n    from tests.web import test_explorer\\n    import conftest\\n")
    ...     forbidden_imports(source)
    ['conftest', 'test_b', 'tests.web.test_explorer']
    """
    return sorted({name for name in imported_modules(path)
                   if name.split(".")[-1].startswith("test_") or name.split(".")[-1] == "conftest"})


def test_no_test_file_imports_another_test_file_or_a_conftest():
    found = {str(path.relative_to(TESTS)): forbidden_imports(path) for path in python_files()}
    assert {file: names for file, names in found.items() if names} == {}, (
        "move what is shared into tests/support/ (helpers) or a conftest.py (fixtures)")


def test_only_the_whole_package_tests_are_flat():
    flat = {path.name for path in TESTS.glob("test_*.py")}
    assert flat - FLAT_ALLOWED == set(), "move these into the folder of what they test (tests/analysis/..., tests/book/...)"
    assert FLAT_ALLOWED <= flat


def test_every_test_folder_mirrors_a_part_of_the_package_and_is_a_package():
    folders = sorted({path.parent for path in python_files()} - {TESTS})
    unmirrored, not_packages = [], []
    for folder in folders:
        relative = folder.relative_to(TESTS)
        if relative.parts[0] not in NOT_MIRRORED and not (
                (PACKAGE / relative).is_dir() or PACKAGE.joinpath(*relative.parts).with_suffix(".py").is_file()):
            unmirrored.append(relative.as_posix())
        if not (folder / "__init__.py").is_file():
            not_packages.append(relative.as_posix())
    assert len(folders) > 10
    assert unmirrored == [], "a test folder names a package folder or module of src/helpers"
    assert not_packages == [], "without __init__.py, two test files of one name in two folders collide"
