"""The whole analysis as one function, shared by the CLI and the book.

:func:`run_pipeline` parses the corpus and runs every analysis stage;
:func:`cached_pipeline` does the same but keeps the result on disk, keyed by
the corpus hash, the settings and the helpers' own source, so the book's
chapters compute it once per build instead of once per chapter.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import pickle
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import pandas as pd

from helpers import __version__
from helpers.corpus import Corpus, files_sha256, read_corpus

CORPUS_ENV = "BOOK_CORPUS"
DEFAULT_CORPUS = "data/raw"
CACHE_ENV = "BOOK_ANALYSIS_CACHE"


@dataclass(frozen=True)
class AnalysisSettings:
    """Every setting that changes a result. Shown in the book and part of the cache key."""

    seed: int = 0
    themes: int | None = None

    @classmethod
    def from_namespace(cls, args: argparse.Namespace) -> "AnalysisSettings":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in vars(args).items() if k in names and v is not None})

    @classmethod
    def from_environment(cls) -> "AnalysisSettings":
        """Settings for the book: ``THEMES_K`` fixes the number of themes."""
        themes = os.environ.get("THEMES_K", "").strip()
        return cls(themes=int(themes) if themes else None)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# A stage reads and adds tables in ``results``; ``n_jobs`` is how many processes it may use.
Stage = Callable[[dict[str, Any], AnalysisSettings, "int | None"], None]


def stage_corpus(results: dict[str, Any], settings: AnalysisSettings, n_jobs: int | None = None) -> None:
    corpus: Corpus = results["corpus"]
    results["papers"] = corpus.papers.copy()
    results["blocks"] = corpus.blocks
    results["files"] = corpus.files
    results["summary"] = corpus.summary()


def stage_text(results: dict[str, Any], settings: AnalysisSettings, n_jobs: int | None = None) -> None:
    from helpers.text import tokenize_corpus

    papers = results["papers"]
    results["tokens"] = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True,
                                        n_jobs=n_jobs)


def stage_themes(results: dict[str, Any], settings: AnalysisSettings, n_jobs: int | None = None) -> None:
    from helpers.themes import ThemesError, fit_themes

    papers = results["papers"]
    try:
        model = fit_themes(results["tokens"], k=settings.themes, seed=settings.seed, n_jobs=n_jobs)
    except ThemesError as error:
        results["themes_message"] = str(error)
        results["theme_model"] = None
        results["themes"] = pd.DataFrame(
            columns=["theme", "label", "top_terms", "n_papers", "coherence"])
        papers["theme"] = pd.array([pd.NA] * len(papers), dtype="Int64")
        papers["theme_weight"] = 0.0
        return
    results["themes_message"] = ""
    results["theme_model"] = model
    results["themes"] = model.themes
    merged = papers[["paper_id"]].merge(model.paper_themes, on="paper_id", how="left")
    papers["theme"] = merged["theme"].astype("Int64").to_numpy()
    papers["theme_weight"] = merged["theme_weight"].to_numpy()


def stage_cooccurrence(results: dict[str, Any], settings: AnalysisSettings, n_jobs: int | None = None) -> None:
    from helpers.cooccurrence import analyse_cooccurrence

    papers = results["papers"]
    result = analyse_cooccurrence(papers["text"], results["tokens"], seed=settings.seed)
    results["cooccurrence"] = result
    results["terms"] = result.terms
    results["term_pairs"] = result.pairs


def network_writers(result: Any) -> dict[str, Callable[[Path], None]]:
    """The network export files, by name, each with the function that writes it."""
    import networkx as nx

    from helpers.cooccurrence import write_vosviewer_json, write_vosviewer_map, write_vosviewer_network

    return {
        "network.json": lambda path: write_vosviewer_json(result, path),
        "network.graphml": lambda path: nx.write_graphml(result.export_graph(), path),
        "network.gexf": lambda path: nx.write_gexf(result.export_graph(), path),
        "vosviewer_map.txt": lambda path: write_vosviewer_map(result, path),
        "vosviewer_network.txt": lambda path: write_vosviewer_network(result, path),
    }


def stage_links(results: dict[str, Any], settings: AnalysisSettings, n_jobs: int | None = None) -> None:
    from helpers.links import analyse_links

    papers = results["papers"]
    links, states, statements = analyse_links(papers, n_jobs=n_jobs)
    results["links"] = links
    results["link_statements"] = statements
    papers["link_state"] = states["link_state"].to_numpy()
    papers["promised_too"] = states["promised_too"].to_numpy()
    papers["n_urls"] = states["n_urls"].to_numpy()


STAGES: list[tuple[str, Stage]] = [
    ("corpus", stage_corpus),
    ("text", stage_text),
    ("themes", stage_themes),
    ("cooccurrence", stage_cooccurrence),
    ("links", stage_links),
]


def run_pipeline(
    paths: Sequence[str | Path],
    settings: AnalysisSettings = AnalysisSettings(),
    *,
    skip_bad: bool = False,
    progress: bool = False,
    n_jobs: int | None = None,
) -> dict[str, Any]:
    """Parse ``paths`` and run every stage; returns a dict of tables and figures' data.

    ``results["timings"]`` holds the seconds each stage took (``parse`` first).
    ``n_jobs`` limits the processes used (default: all cores); results do not depend on it.
    """
    timings: dict[str, float] = {}
    start = time.perf_counter()
    corpus = read_corpus(paths, skip_bad=skip_bad)
    timings["parse"] = time.perf_counter() - start
    results: dict[str, Any] = {"corpus": corpus, "settings": settings.as_dict()}
    stages = STAGES
    if progress:
        from tqdm.auto import tqdm

        stages = tqdm(STAGES, desc="analyse", unit="stage")
    for name, stage in stages:
        start = time.perf_counter()
        stage(results, settings, n_jobs)
        timings[name] = time.perf_counter() - start
    results["timings"] = timings
    return results


OUTPUT_TABLES = ["papers", "blocks", "files", "themes", "terms", "term_pairs", "links", "link_statements"]


def write_outputs(results: dict[str, Any], folder: Path) -> list[str]:
    """Write the tables as CSV plus ``summary.json`` into ``folder``; returns the file names."""
    written = []
    for name in OUTPUT_TABLES:
        if name in results:
            results[name].to_csv(folder / f"{name}.csv", index=False, lineterminator="\n")
            written.append(f"{name}.csv")
    writers = network_writers(results["cooccurrence"]) if "cooccurrence" in results else {}
    for name, writer in writers.items():
        writer(folder / name)
        written.append(name)
    summary = dict(results["summary"], settings=results["settings"], helpers_version=__version__)
    (folder / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    written.append("summary.json")
    return written


def corpus_paths_from_environment(root: Path | None = None) -> list[Path]:
    """Corpus paths for the book: ``$BOOK_CORPUS`` (space separated) or ``data/raw``.

    Relative paths are taken from the book's root folder (``root``).
    """
    root = root or book_root()
    spec = os.environ.get(CORPUS_ENV, "").strip() or DEFAULT_CORPUS
    return [p if p.is_absolute() else root / p for p in map(Path, spec.split())]


def book_root() -> Path:
    """The repository root: the folder holding ``_config.yml`` above the current folder."""
    here = Path.cwd().resolve()
    for folder in [here, *here.parents]:
        if (folder / "_config.yml").exists():
            return folder
    return here


def source_fingerprint() -> str:
    """SHA-256 of the helpers package's own files, so a code change invalidates caches."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).parent
    for path in sorted(package.rglob("*")):
        if path.is_file() and path.suffix in {".py", ".txt", ".csv", ".json"}:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build_key(paths: Sequence[str | Path], settings: AnalysisSettings | None = None) -> str:
    """Short hash of the corpus, the settings and the code: one book build per key."""
    settings = settings or AnalysisSettings.from_environment()
    payload = json.dumps([files_sha256(paths), settings.as_dict(), source_fingerprint()])
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def cached_pipeline(
    paths: Sequence[str | Path] | None = None,
    settings: AnalysisSettings | None = None,
    *,
    cache_dir: Path | None = None,
) -> dict[str, Any]:
    """:func:`run_pipeline`, computed once per corpus, settings and code version.

    The result is pickled under ``cache_dir`` (default ``$BOOK_ANALYSIS_CACHE``
    or ``_build/analysis-cache`` in the book's root) in a file named by the
    hash of all three (:func:`build_key`).
    """
    paths = list(paths) if paths is not None else corpus_paths_from_environment()
    settings = settings or AnalysisSettings.from_environment()
    key = build_key(paths, settings)
    if cache_dir is None:
        cache_dir = Path(os.environ.get(CACHE_ENV) or "_build/analysis-cache")
        cache_dir = cache_dir if cache_dir.is_absolute() else book_root() / cache_dir
    cache_file = cache_dir / f"{key}.pickle"
    if cache_file.exists():
        with cache_file.open("rb") as handle:
            return pickle.load(handle)
    results = run_pipeline(paths, settings)
    results["cache_key"] = key
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = cache_file.with_suffix(f".{os.getpid()}.tmp")
    with partial.open("wb") as handle:
        pickle.dump(results, handle)
    os.replace(partial, cache_file)
    return results
