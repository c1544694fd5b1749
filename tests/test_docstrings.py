"""Every public name of the package has a numpy docstring: ``Parameters``, ``Returns`` (or ``Yields``) and
``Examples`` (issue #50).

A public name is a function or class named in the ``__all__`` of a module of ``helpers`` and defined in the
package (a name re-exported by a package's ``__init__``, such as those of :mod:`helpers.book.display`, is checked
once, under the module that defines it)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import helpers

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
