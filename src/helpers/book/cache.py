"""The book's cache of a run: the key of everything that changes a shown result (:func:`build_key`: corpus
files, settings, the package's source, the installed libraries) and :func:`cached_pipeline`."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import json
import os
import pickle
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

from helpers import __version__
from helpers.analysis.corpus import CorpusError, expand_paths, read_file_bytes, source_names
from helpers.analysis.pipeline.results import Analysis
from helpers.analysis.pipeline.run import run_pipeline
from helpers.analysis.settings import AnalysisSettings, EngineSettings

__all__ = ["source_fingerprint", "dependency_closure", "installed_closure", "environment_fingerprint", "corpus_files_fingerprint",
           "build_key", "cached_pipeline"]


def source_fingerprint() -> str:
    """SHA-256 of every file of the helpers package (code, resources, JavaScript, CSS), so any edit invalidates caches.

    Compiled bytecode is left out: it follows from the sources.

    Returns
    -------
    str
        The hex digest; it changes with any file of the package.

    Examples
    --------
    >>> len(source_fingerprint()), source_fingerprint() == source_fingerprint()
    (64, True)
    """
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parents[1]  # src/helpers
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".pyo"}:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dependency_closure(roots: Iterable[str], distributions: Iterable[Any] | None = None) -> dict[str, str]:
    """The installed distributions ``roots`` need, transitively: canonical name to version.

    Requirements whose markers exclude this machine (an extra, another platform or Python) are not
    followed; names not installed are left out.

    Parameters
    ----------
    roots
        Distribution names, as a requirements file spells them.
    distributions
        The installed distributions to look in (default: this environment's).

    Returns
    -------
    dict of str to str
        Each distribution needed, by canonical name, and its installed version.

    Examples
    --------
    >>> closure = dependency_closure(["seaborn"])
    >>> {"seaborn", "matplotlib", "numpy", "pandas"} <= closure.keys(), "jupyter-book" in closure
    (True, False)
    """
    from packaging.requirements import Requirement  # a dependency of pip, setuptools and Sphinx

    installed: dict[str, Any] = {}
    for dist in importlib.metadata.distributions() if distributions is None else distributions:
        name = dist.metadata["Name"]
        if name:
            installed.setdefault(_canonical(name), dist)
    closure: dict[str, str] = {}
    pending = [_canonical(root) for root in roots]
    while pending:
        name = pending.pop()
        if name in closure or name not in installed:
            continue
        dist = installed[name]
        closure[name] = dist.version
        for text in dist.requires or []:
            requirement = Requirement(text)
            # A requirement for an extra, another platform or another Python is not needed here.
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                pending.append(_canonical(requirement.name))
    return closure


@lru_cache(maxsize=8)
def installed_closure(roots: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """:func:`dependency_closure` of the installed distributions, sorted; read once per process (reading the
    metadata of every installed distribution is most of a fingerprint's time, and each page and the Sphinx
    build ask for it). A process keeps running the library versions it has imported, so the answer holds
    for as long as it runs.

    Parameters
    ----------
    roots
        Distribution names (a tuple: the cache's key).

    Returns
    -------
    tuple of (str, str)
        Canonical name and version pairs, sorted by name.

    Examples
    --------
    >>> dict(installed_closure(("seaborn",))) == dependency_closure(["seaborn"])
    True
    """
    return tuple(sorted(dependency_closure(roots).items()))


def environment_fingerprint(requirements: Path | None = None, distributions: Iterable[Any] | None = None) -> str:
    """SHA-256 of ``requirements.txt`` and of the installed versions of what it pins, transitively.

    A changed pin, or an upgrade made by hand without changing the pins, changes it: NMF, Louvain
    and the other libraries' results are then computed again. Distributions the pins do not need
    (JupyterLab, which ``make lab`` adds) leave it unchanged. Without a requirements file, the
    installed dependencies of the project itself count. The installed versions are read once per
    process (:func:`installed_closure`) unless ``distributions`` are given.

    Parameters
    ----------
    requirements
        The pins file; without one (or a missing file) the project's own dependencies count.
    distributions
        The installed distributions (default: this environment's, read once per process).

    Returns
    -------
    str
        The hex digest.

    Examples
    --------
    >>> environment_fingerprint() == environment_fingerprint(), len(environment_fingerprint())
    (True, 64)
    """
    digest = hashlib.sha256()
    if requirements is not None and requirements.exists():
        text = requirements.read_text(encoding="utf-8")
        digest.update(text.encode("utf-8"))
        roots = [match.group() for line in text.splitlines()
                 if (match := _NAME.match(line.split("#", 1)[0].strip()))]
    else:
        roots = ["helpers"]
    # The project itself is left out (its files are in source_fingerprint).
    closure = (dict(installed_closure(tuple(roots))) if distributions is None
               else dependency_closure(roots, distributions))
    closure.pop("helpers", None)
    digest.update("\n".join(f"{name}=={version}" for name, version in sorted(closure.items())).encode())
    return digest.hexdigest()


def corpus_files_fingerprint(paths: Sequence[str | Path]) -> list[tuple[str, str]]:
    """Each corpus file's name and SHA-256, in reading order (no parsing).

    Names and order are part of what the book shows (``source_file`` columns, per-file shares),
    so renaming or reordering files changes the fingerprint even when the bytes do not.

    Raises
    ------
    CorpusError
        When a path does not exist, a directory has no ``.txt`` files, or a file cannot be read.

    Parameters
    ----------
    paths
        Corpus files and folders, as the analysis reads them.

    Returns
    -------
    list of (str, str)
        Each file's name as the tables show it, and its SHA-256.

    Examples
    --------
    >>> import tempfile
    >>> corpus = Path(tempfile.mkdtemp()) / "hens.txt"
    >>> _ = corpus.write_bytes(b"Laying hens kept in aviaries.")
    >>> [(name, digest[:12]) for name, digest in corpus_files_fingerprint([corpus])]
    [('hens.txt', '1a2a81acd6bc')]
    """
    files, problems = expand_paths(list(paths))
    if problems:
        raise CorpusError(problems)
    return [(name, hashlib.sha256(read_file_bytes(path)).hexdigest())
            for name, path in zip(source_names(files), files)]


def build_key(paths: Sequence[str | Path], settings: AnalysisSettings, *, root: Path | None = None,
              extra_files: Sequence[Path] = ()) -> str:
    """Short hash of everything that changes a shown result: one book build per key.

    Covers the corpus files (names, order and bytes), the settings, the helpers' source and the
    library versions (``root/requirements.txt`` and what is installed), and ``extra_files`` (names and
    bytes: other files a page reads, such as the book's metadata and link checks) and the theme file.

    Parameters
    ----------
    paths
        The corpus files and folders.
    settings
        The analysis settings.
    root
        The book's root, whose ``requirements.txt`` counts (default: none, the project's dependencies count).
    extra_files
        Other files whose names and bytes count.

    Returns
    -------
    str
        16 hex digits.

    Examples
    --------
    >>> import tempfile
    >>> corpus = Path(tempfile.mkdtemp()) / "roads.txt"
    >>> _ = corpus.write_text("Crash rates on rural roads fell after the speed limit changed.")
    >>> key = build_key([corpus], AnalysisSettings())
    >>> len(key), key == build_key([corpus], AnalysisSettings(seed=1))
    (16, False)
    """
    requirements = root / "requirements.txt" if root is not None else None
    # The theme file counts by its bytes (its path is in the settings).
    theme_file = [Path(settings.theme_names)] if settings.theme_names is not None else []
    extras = [(Path(path).name, hashlib.sha256(Path(path).read_bytes()).hexdigest())
              for path in [*extra_files, *theme_file]]
    payload = json.dumps([corpus_files_fingerprint(paths), settings.as_dict(), source_fingerprint(),
                          environment_fingerprint(requirements)] + ([extras] if extras else []))
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def cached_pipeline(paths: Sequence[str | Path], settings: AnalysisSettings, *, cache_dir: Path,
                    root: Path | None = None, engine: EngineSettings = EngineSettings()) -> Analysis:
    """:func:`run_pipeline` (on ``engine``, which the key leaves out: the results do not depend on it),
    computed once per :func:`build_key`.

    The result is pickled under ``cache_dir`` in a file named by the key, the abstracts' texts in a folder
    beside it (``KEY.texts``); a partial file is never read (written aside, then renamed).

    Parameters
    ----------
    paths, settings, root
        What :func:`build_key` keys the run by: the corpus, its analysis settings and the book's root.
    cache_dir
        The folder of the cached analyses.
    engine
        Where the analysis runs when it is not cached.

    Returns
    -------
    Analysis
        The analysis, with its ``cache_key``.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> corpus = folder / "farms.txt"
    >>> _ = corpus.write_text("Broiler chickens grew faster on the new feed.\\n\\n"
    ...                       "Laying hens kept in aviaries had fewer fractures.\\n")
    >>> first = cached_pipeline([corpus], AnalysisSettings(), cache_dir=folder / "cache")
    >>> again = cached_pipeline([corpus], AnalysisSettings(), cache_dir=folder / "cache")  # read from the pickle
    >>> again.cache_key == first.cache_key, len(again.papers), sorted(p.suffix for p in (folder / "cache").iterdir())
    (True, 2, ['.pickle', '.texts'])
    """
    key = build_key(paths, settings, root=root)
    cache_file = cache_dir / f"{key}.pickle"
    if cache_file.exists() and (cache_dir / f"{key}.texts").is_dir():
        with cache_file.open("rb") as handle:
            return pickle.load(handle)
    cache_dir.mkdir(parents=True, exist_ok=True)
    analysis = run_pipeline(paths, settings, engine=engine)
    # The pickle names the texts' folder: a page that needs a few texts reads only their parts.
    assert analysis.texts is not None, "an analysis run keeps its papers' texts"
    analysis = dataclasses.replace(analysis, cache_key=key, texts=analysis.texts.saved(cache_dir / f"{key}.texts"))
    if analysis.themes.model is not None:
        # The themes page shows the LDA comparison (one LDA fit, computed on first use): fitted once, before the
        # pickle, so no page run on the cached analysis fits it again.
        _ = analysis.themes.model.comparison
    partial = cache_file.with_suffix(f".{os.getpid()}.tmp")
    with partial.open("wb") as handle:
        pickle.dump(analysis, handle)
    os.replace(partial, cache_file)
    return analysis
