"""The package's layers (analysis < web < book < command line) and no import cycle, imports inside functions counted."""

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "helpers"
# Lowest first: a module may import its own layer and the layers before it, never one after it.
LAYERS = ("helpers.analysis", "helpers.web", "helpers.book", "helpers.cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported_modules(path: Path) -> set[str]:
    """Every project module ``path`` imports, wherever the import stands (functions and TYPE_CHECKING too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "helpers"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "helpers":
            assert node.level == 0, f"{path}: relative import"
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in MODULES else node.module)
    return found


def import_graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        for target in imported_modules(path):
            assert target in MODULES, f"{name} imports {target}, which is not a module of the package"
            graph.add_edge(name, target)
    return graph


def layer(module: str) -> int | None:
    for rank, prefix in enumerate(LAYERS):
        if module == prefix or module.startswith(prefix + "."):
            return rank
    return None


def test_every_module_is_in_a_layer():
    outside = sorted(m for m in MODULES if layer(m) is None)
    assert outside == ["helpers", "helpers.__main__"]


@pytest.mark.parametrize("lower", LAYERS[:-1])
def test_no_layer_imports_a_layer_above_it(lower):
    graph = import_graph()
    rank = LAYERS.index(lower)
    upward = sorted((source, target) for source, target in graph.edges
                    if layer(source) == rank and (layer(target) or 0) > rank)
    assert upward == []


def test_no_import_cycle():
    assert list(nx.simple_cycles(import_graph())) == []


def test_the_checks_see_an_upward_import_and_a_cycle(tmp_path):
    # The test's own reading of imports, on a module written here: a function-level import counts.
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from helpers.book.settings import config\n    import helpers.web.explorer\n")
    assert imported_modules(module) == {"helpers.book.settings", "helpers.web.explorer"}
    graph = nx.DiGraph([("helpers.analysis.a", "helpers.book.b"), ("helpers.book.b", "helpers.analysis.a")])
    assert list(nx.simple_cycles(graph)) != []


def test_the_layers_are_drawn_in_the_package_readme():
    readme = (PACKAGE / "README.md").read_text(encoding="utf-8")
    for prefix in LAYERS:
        assert prefix.removeprefix("helpers.") in readme


# The analysis's own order, lowest first. The parallel helpers run calls and know no stage; the readers are the
# leaf the corpus calls; the stages (and the loose modules of the analysis's root) know nothing of the pipeline
# that runs them, the Dask engine included. A package of the analysis must be named here to have a place.
ANALYSIS_TIERS = (
    ("helpers.analysis._parallel",),
    ("helpers.analysis.readers",),
    ("helpers.analysis.corpus", "helpers.analysis.text", "helpers.analysis.themes", "helpers.analysis.cooccurrence",
     "helpers.analysis.keywords", "helpers.analysis.links", "helpers.analysis.change"),
    ("helpers.analysis.pipeline",),
)
STAGE_TIER = 2


def analysis_tier(module: str) -> int | None:
    """The tier of a module of the analysis (the root's loose modules are stages); None outside the analysis."""
    for rank, names in enumerate(ANALYSIS_TIERS):
        if any(module == name or module.startswith(name + ".") for name in names):
            return rank
    return STAGE_TIER if module.startswith("helpers.analysis.") else None


def test_every_analysis_package_has_a_tier():
    packages = {name for name, path in MODULES.items()
                if path.name == "__init__.py" and name.startswith("helpers.analysis.") and name.count(".") == 2}
    named = {name for names in ANALYSIS_TIERS for name in names}
    assert sorted(packages - named) == []


def test_the_analysis_imports_only_down_its_tiers():
    graph = import_graph()
    upward = sorted((source, target) for source, target in graph.edges
                    if analysis_tier(source) is not None and analysis_tier(target) is not None
                    and analysis_tier(target) > analysis_tier(source))
    assert upward == []


def test_the_tiers_see_a_stage_importing_the_pipeline():
    assert analysis_tier("helpers.analysis.links.states") < analysis_tier("helpers.analysis.pipeline.results")
    assert analysis_tier("helpers.analysis._parallel") < analysis_tier("helpers.analysis.corpus.groups")
    assert analysis_tier("helpers.book.settings") is None


def test_the_parallel_helpers_are_private_to_the_analysis():
    # The book and the web layer read what they need of them through helpers.analysis.pipeline.
    outside = sorted(source for source, target in import_graph().edges
                     if target == "helpers.analysis._parallel" and layer(source) != 0)
    assert outside == []


def analysis_package(module: str) -> str | None:
    """The package (or root module) of the analysis that ``module`` belongs to: ``helpers.analysis.corpus``, ..."""
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["helpers", "analysis"] and len(parts) > 2 else None


def test_no_arrow_runs_both_ways_between_the_analysis_packages():
    # One family per package: if corpus imports engine and engine imports corpus, neither is below the other.
    packages = nx.DiGraph()
    for source, target in import_graph().edges:
        low, high = analysis_package(target), analysis_package(source)
        if low is not None and high is not None and low != high:
            packages.add_edge(high, low)
    assert sorted(sorted(cycle) for cycle in nx.simple_cycles(packages)) == []
