"""Every public name of the package has a numpy docstring: ``Parameters``, ``Returns`` (or ``Yields``) and
``Examples`` (issue #50); and every name the docstrings and pages point to exists.

A public name is a function or class named in the ``__all__`` of a module of ``helpers`` and defined in the
package (a name re-exported by a package's ``__init__``, such as those of :mod:`helpers.book.display`, is checked
once, under the module that defines it).

A name pointed to is the target of a ``:func:``, ``:class:``, ``:mod:``, ``:data:``, ``:meth:``, ``:attr:`` or
``:exc:`` role, or a dotted ``helpers.x.y`` name, in the package's modules and READMEs, the chapters and the
project's README: a name that moved or was removed leaves a reader looking for something that is not there."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import helpers
from tests.support import ROOT

#: Sections a public name may go without, each with its reason: ``{"module.name": ({section, ...}, reason)}``.
PAGE_EXAMPLES = "a page function glues into a running notebook: its examples are the chapters that call it"
EXEMPT: dict[str, tuple[set[str], str]] = {
    f"helpers.book.pages.{name}": ({"Examples"}, PAGE_EXAMPLES)
    for name in ("themes", "cooccurrence", "term_map_view", "keyword_views", "change", "links", "explorer",
                 "performance")
}
EXEMPT["helpers.analysis.themes.model.PendingThemes"] = (
    {"Attributes"}, "made only by start_themes, from its background call; model.py has no room under 400 lines")


def public_names() -> dict[str, object]:
    """Every function and class named in an ``__all__`` of ``helpers`` and defined in the package, by
    ``module.qualname``."""
    found: dict[str, object] = {}
    for info in pkgutil.walk_packages(helpers.__path__, "helpers."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if not getattr(obj, "__module__", "").startswith("helpers"):
                continue
            found.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    return found


def has_section(doc: str, *titles: str) -> bool:
    """Whether ``doc`` has one of the numpy sections ``titles`` (a title underlined with dashes)."""
    lines = doc.splitlines()
    return any(line.strip() in titles and following.strip().startswith("---") and set(following.strip()) == {"-"}
               for line, following in zip(lines, lines[1:]))


def takes_fields(cls: type) -> bool:
    """Whether a class holds fields of its own (a named tuple, a dataclass) or its own ``__init__`` takes
    parameters; an exception that only carries its message, or a protocol, has nothing to list."""
    if getattr(cls, "_is_protocol", False):
        return False
    if hasattr(cls, "_fields") or hasattr(cls, "__dataclass_fields__"):
        return True
    init = vars(cls).get("__init__")
    return init is not None and len(inspect.signature(init).parameters) > 1


def missing_sections(obj) -> set[str]:
    """The numpy sections the docstring of a public function or class lacks."""
    doc = inspect.getdoc(obj) or ""
    missing = set()
    if inspect.isclass(obj):
        if takes_fields(obj) and not has_section(doc, "Attributes", "Parameters"):
            missing.add("Attributes")
    else:
        signature = inspect.signature(obj)
        if [p for p in signature.parameters if p not in ("self", "cls")] and not has_section(doc, "Parameters"):
            missing.add("Parameters")
        if signature.return_annotation not in (None, "None") and not has_section(doc, "Returns", "Yields"):
            missing.add("Returns")
    if not has_section(doc, "Examples"):
        missing.add("Examples")
    return missing


def test_the_section_check_reads_numpy_titles():
    doc = "Summary.\n\nParameters\n----------\nx : int\n    A value.\n\nReturns\n-------\nint\n"
    assert has_section(doc, "Parameters") and has_section(doc, "Returns", "Yields")
    assert not has_section(doc, "Examples") and not has_section("Parameters: none", "Parameters")

    def undocumented(x: int) -> int:
        return x

    def quiet(x: int) -> None:
        """Nothing.

        Parameters
        ----------
        x : int
            Ignored.

        Examples
        --------
        >>> quiet(1)
        """

    assert missing_sections(undocumented) == {"Parameters", "Returns", "Examples"}
    assert missing_sections(quiet) == set()


def test_every_public_name_has_a_numpy_docstring():
    names = public_names()
    assert len(names) > 400
    missing = {}
    for key, obj in names.items():
        lacking = missing_sections(obj) - EXEMPT.get(key, (set(), ""))[0]
        if lacking:
            missing[key] = sorted(lacking)
    assert missing == {}, "write these sections (numpy docstring style), or exempt the name in EXEMPT with a reason"


def test_every_exemption_names_a_public_name_that_needs_it():
    names = public_names()
    assert sorted(set(EXEMPT) - set(names)) == []
    assert [key for key, (sections, _) in EXEMPT.items() if not sections & missing_sections(names[key])] == []


#: A Sphinx role's target (``:func:`~helpers.x.f```, ``:mod:`.sibling```, ``:meth:`title <Class.method>```).
ROLE = re.compile(r":(?:func|class|mod|data|meth|attr|exc):`~?(?:[^`<]*<)?([^`<>]+?)>?`")
#: A dotted name of the package in prose or code (``helpers.book.formatting``), not inside a path.
DOTTED = re.compile(r"(?<![\w./-])helpers(?:\.[A-Za-z_]\w*)+")


def _attribute(obj: object, names: list[str]) -> bool:
    """Whether ``obj.a.b`` exists for ``names`` ``[a, b]``; the last may be a field a class declares (a dataclass
    field without a default has no class attribute)."""
    for index, name in enumerate(names):
        if hasattr(obj, name):
            obj = getattr(obj, name)
        elif index == len(names) - 1 and inspect.isclass(obj):
            return any(name in getattr(cls, "__annotations__", {}) for cls in obj.__mro__)
        else:
            return False
    return True


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def resolves(target: str, module: ModuleType | None, package: str, defined: set[str]) -> bool:
    """Whether a reference names something: an absolute dotted name (``helpers.x.f``, ``pandas.read_csv``), a
    module relative to ``package`` (``.sibling``), a name of ``module`` or of one of its classes, or (for a
    short name written in another module's prose) a name defined somewhere in the package (``defined``)."""
    target = target.strip().removesuffix("()")
    if target.startswith("."):
        up = len(target) - len(target.lstrip("."))
        parts = package.split(".")
        target = ".".join(parts[:len(parts) - up + 1] + [target.lstrip(".")])
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        found = _module(".".join(parts[:cut]))
        if found is not None:
            return _attribute(found, parts[cut:])
    if module is not None and (_attribute(module, parts) or any(
            _attribute(cls, parts) for cls in vars(module).values() if inspect.isclass(cls))):
        return True
    return parts[0] != "helpers" and target in defined


def defined_names() -> set[str]:
    """Every name the package's modules define or import, and ``Class.attribute`` of each class in them."""
    names: set[str] = set()
    for info in pkgutil.walk_packages(helpers.__path__, "helpers."):
        if info.name.endswith("__main__"):
            continue
        for name, value in vars(importlib.import_module(info.name)).items():
            names.add(name)
            if inspect.isclass(value):
                names |= {f"{name}.{attribute}" for cls in value.__mro__ if cls is not object
                          for attribute in [*vars(cls), *getattr(cls, "__annotations__", {})]}
    return names


def broken_references(path: Path, defined: set[str]) -> list[str]:
    """The references of a module, README or page that name nothing, as ``file:line: reference``."""
    text = path.read_text(encoding="utf-8")
    module, package = None, "helpers"
    source = ROOT / "src"
    if path.is_relative_to(source):
        dotted = ".".join(path.relative_to(source).with_suffix("").parts)
        if path.suffix == ".py":
            module = importlib.import_module(dotted.removesuffix(".__init__"))
            package = module.__name__ if path.name == "__init__.py" else module.__name__.rpartition(".")[0]
        else:
            package = dotted.rpartition(".")[0]
    roles = list(ROLE.finditer(text))
    found = [(match.start(), match.group(0)) for match in roles if not resolves(match.group(1), module, package, defined)]
    found += [(match.start(), match.group(0)) for match in DOTTED.finditer(text)
              if not any(role.start() < match.start() < role.end() for role in roles)
              and not resolves(match.group(0), None, package, defined)]
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return [f"{where}:{text.count(chr(10), 0, start) + 1}: {reference}" for start, reference in sorted(found)]


def test_the_reference_check_finds_a_name_that_is_not_there(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("See :func:`helpers.book.formatting.count`, :mod:`helpers.analysis.out_path` and "
                    "``helpers.analysis.errors.shown_name``;\n:func:`helpers.book.formatting.counted`, "
                    ":class:`helpers.analysis.texts.PaperTexts`, :func:`pandas.read_csv`, :func:`pandas.read_cvs`, "
                    ":attr:`helpers.analysis.themes.ThemeModel.themes`, :func:`nowhere_at_all`.\n", encoding="utf-8")
    assert broken_references(page, defined_names()) == [
        f"{page}:2: :func:`helpers.book.formatting.counted`", f"{page}:2: :class:`helpers.analysis.texts.PaperTexts`",
        f"{page}:2: :func:`pandas.read_cvs`", f"{page}:2: :func:`nowhere_at_all`"]
    page.write_text("Run ``python -m helpers.book.build.prebuild``, not helpers.book.build.prebuilt.\n", encoding="utf-8")
    assert broken_references(page, defined_names()) == [f"{page}:1: helpers.book.build.prebuilt"]


def test_every_reference_names_something_that_exists():
    files = [*sorted((ROOT / "src" / "helpers").rglob("*.py")), *sorted((ROOT / "src" / "helpers").rglob("*.md")),
             *sorted((ROOT / "chapters").glob("*.md")), ROOT / "README.md", ROOT / "intro.md"]
    files = [path for path in files if path.name != "__main__.py"]
    defined = defined_names()
    broken = [problem for path in files for problem in broken_references(path, defined)]
    assert broken == [], "point these references at the names' places now (or drop them)"
