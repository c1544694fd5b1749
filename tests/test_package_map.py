"""The package map (src/helpers/README.md) links every module of the package, and links nothing else."""

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "helpers"
LINK = re.compile(r"\]\(([^)\s]+\.py)\)")


def linked_modules(readme: str) -> list[str]:
    """The ``.py`` targets of the Markdown links of ``readme``, in order (a package is its ``__init__.py``)."""
    return LINK.findall(readme)


def package_modules(package: Path = PACKAGE) -> set[str]:
    return {path.relative_to(package).as_posix() for path in package.rglob("*.py")
            if "__pycache__" not in path.parts}


def test_the_map_links_every_module_once_and_only_modules_that_exist():
    linked = linked_modules((PACKAGE / "README.md").read_text(encoding="utf-8"))
    modules = package_modules()
    assert sorted(modules - set(linked)) == []  # a module the map does not show
    assert sorted(set(linked) - modules) == []  # a link to a module that is not there
    assert sorted(name for name in set(linked) if linked.count(name) > 1) == []


def test_the_check_sees_a_missing_and_a_stale_module(tmp_path):
    (tmp_path / "analysis").mkdir()
    for name in ("cli.py", "analysis/__init__.py", "analysis/new.py"):
        (tmp_path / name).write_text("")
    readme = "- [`cli.py`](cli.py)\n- [`analysis/`](analysis/__init__.py): [`old.py`](analysis/old.py)\n"
    linked = set(linked_modules(readme))
    assert package_modules(tmp_path) - linked == {"analysis/new.py"}
    assert linked - package_modules(tmp_path) == {"analysis/old.py"}
