"""The whole analysis as one function, shared by the CLI and the book.

:func:`run_pipeline` parses the corpus and runs every analysis stage; each
stage returns a frozen, typed result and :class:`Analysis` holds them all.
:func:`cached_pipeline` does the same but keeps the result on disk, keyed by
everything that changes a shown result (:func:`build_key`), so the book's
chapters compute it once per build instead of once per chapter.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import json
import os
import pickle
import re
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

import pandas as pd

from helpers import __version__
from helpers.analysis.corpus import Corpus, CorpusError, expand_paths, read_corpus
from helpers.analysis.settings import AnalysisSettings, EngineSettings, SettingsError

if TYPE_CHECKING:  # heavy modules, imported when a stage runs
    from helpers.analysis.change import ChangeResult
    from helpers.analysis.cooccurrence import CooccurrenceResult
    from helpers.analysis.engine.dask_cluster import ClusterStages
    from helpers.analysis.groups import Groups
    from helpers.analysis.engine.local import PartitionRunner
    from helpers.analysis.text import TokenizedCorpus, TokenPartitions
    from helpers.analysis.engine.paper_texts import PaperTexts
    from helpers.analysis.themes import PendingThemes, ThemeModel


@dataclass(frozen=True)
class ThemesResult:
    """The theme model, or why there is none.

    Attributes
    ----------
    model : ThemeModel or None
        ``None`` when the corpus is too small for any theme model.
    message : str
        Why there is no model (``""`` when there is one).
    """

    model: "ThemeModel | None"
    message: str = ""

    @property
    def table(self) -> pd.DataFrame:
        """``theme, label, top_terms, n_papers, coherence, shown_coherence``; empty (with those columns) without
        a model."""
        if self.model is None:
            return pd.DataFrame(columns=["theme", "label", "top_terms", "n_papers", "coherence", "shown_coherence"])
        return self.model.themes

    @property
    def labels(self) -> dict[int, str]:
        """Theme number to label (empty without a model)."""
        return {int(t): str(label) for t, label in zip(self.table["theme"], self.table["label"])}


@dataclass(frozen=True)
class LinkTables:
    """The links analysis (:func:`helpers.analysis.links.analyse_links`).

    Attributes
    ----------
    links : DataFrame
        One row per (paper, URL) with its host and kind.
    states : DataFrame
        One row per paper: ``paper_id, link_state, promised_too, n_urls`` (and more columns where
        :func:`helpers.analysis.links.analyse_links` documents them).
    statements : DataFrame
        One row per sentence that says something about code or data.
    """

    links: pd.DataFrame
    states: pd.DataFrame
    statements: pd.DataFrame


@dataclass(frozen=True)
class Analysis:
    """Everything the book and the CLI show about one corpus.

    Attributes
    ----------
    corpus : Corpus
        The parsed corpus (papers, blocks, files); its papers table holds each abstract's ``opening``
        (:func:`helpers.analysis.metadata.short_text`) instead of its text.
    settings : AnalysisSettings
    themes : ThemesResult
    cooccurrence : CooccurrenceResult
    links : LinkTables
    papers : DataFrame
        One row per paper: the corpus columns (with ``title, authors, year, venue, doi, url,
        software`` when any input file carries them, ``keywords`` and ``published_text`` when some paper
        has them, and ``opening``; no ``text``) plus ``theme`` (nullable),
        ``theme_weight``, ``link_state``, ``promised_too``, ``n_urls``, ``venue_code_field``,
        ``venue_code`` and ``venue_code_url`` where the input has a code field
        (:func:`helpers.analysis.links.venue_code_links`), and ``group`` (text; ``"all"`` without grouping).
    timings : Mapping[str, float]
        Seconds per stage, ``parse`` first.
    cache_key : str
        :func:`build_key` of the book build that computed it (``""`` outside the book).
    group_order : tuple of str
        The groups of ``papers["group"]`` in order (years ascending, otherwise sorted names;
        :func:`helpers.analysis.groups.paper_groups`); one group: nothing is compared.
    group_by : str or None
        What the groups are (``year``, ``venue``, ``file`` or a column); ``None`` for one group.
    group_min_papers : int
        The fewest papers of a period when sparse years were merged (the default grouping by year,
        :func:`helpers.analysis.groups.merge_years`); 0 when each group is as given.
    change : ChangeResult or None
        What changed between the groups of papers (:func:`analyse_group_change`); ``None`` with one group.
    texts : PaperTexts or None
        The papers' abstract texts in parts, read on demand (:mod:`helpers.analysis.engine.paper_texts`).
    """

    corpus: Corpus
    settings: AnalysisSettings
    themes: ThemesResult
    cooccurrence: "CooccurrenceResult"
    links: LinkTables
    papers: pd.DataFrame
    timings: Mapping[str, float]
    cache_key: str = ""
    group_order: tuple[str, ...] = ("all",)
    group_by: str | None = None
    group_min_papers: int = 0
    change: "ChangeResult | None" = None
    texts: "PaperTexts | None" = None

    @property
    def summary(self) -> dict[str, Any]:
        """The corpus counts of ``summary.json`` plus the settings and whether themes were fitted
        (and, with two groups or more, what they are and their papers)."""
        groups = {}
        if len(self.group_order) > 1:
            counts = self.papers["group"].value_counts()
            groups = {"group_by": self.group_by,
                      "groups": {name: int(counts.get(name, 0)) for name in self.group_order}}
            if self.group_min_papers:
                groups["min_papers_per_period"] = self.group_min_papers
        return dict(self.corpus.summary(), settings=self.settings.as_dict(), themes_message=self.themes.message,
                    helpers_version=__version__, **groups)

    @property
    def corpus_label(self) -> str:
        """The short corpus identity printed in figure titles."""
        return f"corpus SHA-256 {self.corpus.sha256[:12]}"

    def paper_parts(self) -> Iterator[pd.DataFrame]:
        """The rows of ``papers.csv`` in the parts of :attr:`texts` (one part's texts in memory at a time):
        :attr:`papers` with each abstract's ``text`` (fourth column) instead of its ``opening``, and without
        the ``group`` column when there is one group."""
        papers = self.papers.drop(columns="opening")
        if len(self.group_order) <= 1:
            papers = papers.drop(columns="group")
        for index, (start, stop) in enumerate(self.texts.bounds):
            part = papers.iloc[start:stop].copy()
            part.insert(3, "text", pd.Series(self.texts.part(index), index=part.index))
            yield part

    def tables(self, with_papers: bool = True) -> dict[str, pd.DataFrame]:
        """The CSV outputs, by file stem; ``papers`` (every abstract's text: :meth:`paper_parts` joined) only
        ``with_papers``."""
        papers = {"papers": pd.concat(list(self.paper_parts()), ignore_index=True)} if with_papers else {}
        return {
            **papers, "blocks": self.corpus.blocks, "files": self.corpus.files,
            "themes": self.themes.table, "terms": self.cooccurrence.terms, "term_pairs": self.cooccurrence.pairs,
            "links": self.links.links, "link_statements": self.links.statements,
            # Records merged into another record of the same paper, when there are any (database exports).
            **({"merges": self.corpus.merges} if len(self.corpus.merges) else {}),
            **(self.change.tables() if self.change is not None else {}),
        }


def analyse_text(corpus: Corpus, n_jobs: int | None = None) -> "TokenizedCorpus":
    from helpers.analysis.text import tokenize_corpus

    papers = corpus.papers
    return tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True, n_jobs=n_jobs)


def _openings(texts: Sequence[str]) -> list[str]:
    from helpers.analysis.metadata import short_text

    return [short_text(text) for text in texts]


def detach_texts(corpus: Corpus, n_jobs: int | None = None) -> tuple[Corpus, "PaperTexts"]:
    """The corpus with each abstract's ``opening`` (last column) instead of its ``text``, and the texts apart,
    as the dask engine's parse gives them (:func:`helpers.analysis.corpus.without_texts`)."""
    from helpers.analysis.engine.local import map_chunks
    from helpers.analysis.engine.paper_texts import PaperTexts

    papers = corpus.papers
    texts = papers["text"].tolist()
    openings = [opening for chunk in map_chunks(_openings, texts, n_jobs=n_jobs) for opening in chunk]
    light = papers.drop(columns="text").assign(opening=pd.Series(openings, index=papers.index))
    return dataclasses.replace(corpus, papers=light), PaperTexts.in_memory(papers["paper_id"].tolist(), texts)


def local_token_partitions(tokens: "TokenizedCorpus") -> "TokenPartitions":
    """The local engine's partitions of the word ids: consecutive papers, at most
    :data:`helpers.analysis.engine.local.MAX_CHUNK_ITEMS` each (each made when a stage asks for it)."""
    from helpers.analysis.engine.local import chunk_count, partition_bounds
    from helpers.analysis.text import TokenPartitions

    return TokenPartitions(tokens, partition_bounds(len(tokens), chunk_count(len(tokens), 1, 1)))


def analyse_themes(tokens: "TokenizedCorpus", settings: AnalysisSettings, n_jobs: int | None = None
                   ) -> ThemesResult:
    """The theme model; a corpus too small for one gives a result with a message, not an error.

    Raises
    ------
    SettingsError
        When ``settings.themes`` is larger than the corpus allows.
    """
    from helpers.analysis.engine.local import LocalPartitions
    from helpers.analysis.themes import model_fitting

    with model_fitting():
        return start_theme_stage(LocalPartitions(), local_token_partitions(tokens), settings, n_jobs)()


class ThemeStage:
    """The theme stage started by :func:`start_theme_stage`: call it for its :class:`ThemesResult`.

    :meth:`wait` waits for the final fit's thread without taking its result, so that a pipeline
    whose later stage failed leaves no fit running.
    """

    def __init__(self, pending: "PendingThemes | None", message: str = "") -> None:
        self._pending, self._message = pending, message

    def __call__(self) -> ThemesResult:
        if self._pending is None:
            return ThemesResult(None, self._message)
        return ThemesResult(self._pending.result())

    def wait(self) -> None:
        """Wait until the final fit's thread (if any) has ended."""
        if self._pending is not None:
            self._pending.wait()


def start_theme_stage(runner: "PartitionRunner", token_parts: Sequence[Any], settings: AnalysisSettings,
                      n_jobs: int | None = None) -> ThemeStage:
    """Start :func:`analyse_themes` on the word ids in partitions (``token_parts``, handles on ``runner``:
    :func:`helpers.analysis.themes.start_partitioned_themes`); call the returned stage for its result.

    The final model fit runs in a background thread meanwhile (with ``n_jobs=1`` it runs before this
    returns); every abstract is weighted on ``runner`` when the result is asked for.

    Raises
    ------
    SettingsError
        When ``settings.themes`` is larger than the corpus allows.
    """
    from helpers.analysis.themes import KOutOfRange, ThemesError, start_partitioned_themes

    # Call inside helpers.analysis.themes.model_fitting(), as run_pipeline does.
    try:
        pending = start_partitioned_themes(runner, token_parts, k=settings.themes, seed=settings.seed,
                                           n_jobs=n_jobs)
    except KOutOfRange as error:
        raise SettingsError(f"--themes / THEMES_K: {error}") from None
    except ThemesError as error:
        return ThemeStage(None, str(error))
    return ThemeStage(pending)


def analyse_terms(corpus: Corpus, tokens: "TokenizedCorpus", settings: AnalysisSettings
                  ) -> "CooccurrenceResult":
    """The term map, counted in partitions of at most :data:`helpers.analysis.engine.local.MAX_CHUNK_ITEMS`
    papers as on the dask engine (:func:`helpers.analysis.cooccurrence.analyse_partitions`)."""
    from helpers.analysis.cooccurrence import analyse_partitions
    from helpers.analysis.engine.local import LocalPartitions

    parts = local_token_partitions(tokens)
    texts = corpus.papers["text"]
    return analyse_partitions(LocalPartitions(), parts,
                              [texts.iloc[start:stop].tolist() for start, stop in parts.bounds], seed=settings.seed,
                              min_occurrences=settings.min_occurrences, relevant_share=settings.relevant_share)


def analyse_link_tables(corpus: Corpus, n_jobs: int | None = None) -> LinkTables:
    from helpers.analysis.links import analyse_links

    return LinkTables(*analyse_links(corpus.papers, n_jobs=n_jobs))


def paper_table(corpus: Corpus, themes: ThemesResult, links: LinkTables, groups: "Groups | None" = None
                ) -> pd.DataFrame:
    """One row per paper: the corpus columns, the strongest theme, the link state, the code link given to the
    venue (``venue_code_field, venue_code, venue_code_url`` where the input has a code field:
    :func:`helpers.analysis.links.venue_code_links`) and the group."""
    from helpers.analysis.links import VENUE_CODE_COLUMNS, venue_code_links

    papers = corpus.papers.copy()
    if themes.model is None:
        papers["theme"] = pd.array([pd.NA] * len(papers), dtype="Int64")
        papers["theme_weight"] = 0.0
    else:
        merged = papers[["paper_id"]].merge(themes.model.paper_themes, on="paper_id", how="left")
        papers["theme"] = merged["theme"].astype("Int64").to_numpy()
        papers["theme_weight"] = merged["theme_weight"].to_numpy()
    states = papers[["paper_id"]].merge(links.states, on="paper_id", how="left")
    for column in ("link_state", "promised_too", "n_urls"):
        papers[column] = states[column].to_numpy()
    # The code link given to the venue (software field, url on a code host): beside the state, never in it.
    venue = venue_code_links(corpus.papers)
    if len(venue):
        for column in VENUE_CODE_COLUMNS[1:]:
            papers[column] = venue[column].to_numpy()
    papers["group"] = groups.names.to_numpy() if groups is not None else "all"
    return papers


def analyse_group_change(papers: pd.DataFrame, groups: Sequence[str], themes: ThemesResult,
                         cooccurrence: "CooccurrenceResult", links: LinkTables, settings: AnalysisSettings
                         ) -> "ChangeResult":
    """:func:`helpers.analysis.change.analyse_change` on the stages' results (two groups or more)."""
    from helpers.analysis.change import analyse_change

    return analyse_change(papers, groups, themes.labels, terms=cooccurrence.terms["term"].tolist(),
                          paper_terms=cooccurrence.paper_terms, paper_ids=cooccurrence.paper_ids,
                          links=links.links, seed=settings.seed)


def run_pipeline(
    paths: Sequence[str | Path],
    settings: AnalysisSettings = AnalysisSettings(),
    *,
    skip_bad: bool = False,
    progress: bool = False,
    n_jobs: int | None = None,
    engine: EngineSettings = EngineSettings(),
) -> Analysis:
    """Parse ``paths`` and run every stage.

    ``engine`` says where: this process (the default) or a Dask cluster (:mod:`helpers.analysis.engine.dask_cluster`,
    whose per-partition stages give the same tables).

    ``n_jobs`` limits the processes, threads and BLAS threads used (default: all cores); results do not
    depend on it. ``n_jobs=1`` is one thread of work: nothing runs in the background. Whether it
    returns or raises, no thread it started is left running. ``progress`` shows a progress bar over
    the stages (tqdm).

    Raises
    ------
    CorpusError
        For a bad corpus (every problem listed).
    SettingsError
        For a setting the corpus does not allow (a number of themes larger than the corpus, a
        ``group_by`` the papers cannot be grouped by).
    """
    timings: dict[str, float] = {}
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=5, desc="analyse", unit="stage")

    def timed(name: str, compute, *args, done: bool = True):
        start = time.perf_counter()
        value = compute(*args)
        timings[name] = timings.get(name, 0.0) + time.perf_counter() - start
        if bar is not None and done:
            bar.update(1)
        return value

    # The stages' modules are imported before the clock starts, so stage times mean the same whoever calls.
    import helpers.analysis.cooccurrence  # noqa: F401
    import helpers.analysis.groups  # noqa: F401
    import helpers.analysis.links  # noqa: F401
    import helpers.analysis.terms  # noqa: F401
    import helpers.analysis.themes  # noqa: F401
    from helpers.analysis.text import stop_words

    stop_words()  # imports scikit-learn

    if engine.engine == "dask":
        from helpers.analysis.engine.dask_cluster import ClusterStages, dask_client

        with dask_client(engine, n_jobs) as client:
            return _run_stages(paths, settings, skip_bad, n_jobs, timings, timed, bar,
                               ClusterStages(client, engine.partitions))
    return _run_stages(paths, settings, skip_bad, n_jobs, timings, timed, bar, None)


def _run_stages(paths: Sequence[str | Path], settings: AnalysisSettings, skip_bad: bool, n_jobs: int | None,
                timings: dict[str, float], timed, bar, cluster: "ClusterStages | None") -> Analysis:
    """The stages of :func:`run_pipeline`: parse, text and links here, or per partition on ``cluster``."""
    from threadpoolctl import threadpool_limits

    from helpers.analysis.groups import paper_groups
    from helpers.analysis.engine.local import LocalPartitions
    from helpers.analysis.terms import load_dictionaries
    from helpers.analysis.themes import model_fitting

    if cluster is None:
        corpus = timed("parse", lambda: read_corpus(paths, skip_bad=skip_bad))
    else:
        corpus = timed("parse", cluster.read_corpus, paths, skip_bad)
    groups = paper_groups(corpus.papers, corpus.fields, settings.group_by)  # a bad group_by fails here, at once
    # The term stage's dictionaries (about a second to read) load while the other stages run.
    dictionaries = load_dictionaries(background=n_jobs != 1)
    finish_themes = None
    try:
        with threadpool_limits(n_jobs) if n_jobs else nullcontext():
            if cluster is None:
                tokens = timed("text", analyse_text, corpus, n_jobs)
                runner, token_parts = LocalPartitions(), local_token_partitions(tokens)
            else:
                cluster.start(corpus)  # the links are found on the workers while themes and terms run here
                timed("text", cluster.wait_for_tokens)
                runner, token_parts = cluster.runner(), cluster.token_parts
            with model_fitting():
                try:
                    # The final theme fit runs in a background thread while this one finds terms and links.
                    finish_themes = timed("themes", start_theme_stage, runner, token_parts, settings, n_jobs,
                                          done=False)
                    cooccurrence = timed("cooccurrence", lambda: dictionaries.result() or (
                        analyse_terms(corpus, tokens, settings) if cluster is None else cluster.cooccurrence(settings)))
                    if cluster is None:
                        links = timed("links", analyse_link_tables, corpus, n_jobs)
                    else:
                        links = timed("links", lambda: LinkTables(*cluster.links()))
                    themes = timed("themes", finish_themes)
                    if cluster is not None:  # each part of the texts from the workers to a folder, one at a time
                        texts = timed("text", cluster.texts, corpus.papers["paper_id"].tolist(), done=False)
                finally:  # after an error too: no fit left running, and none outside model_fitting's limits
                    if finish_themes is not None:
                        finish_themes.wait()
    finally:
        dictionaries.wait()
        if bar is not None:
            bar.close()
    if cluster is None:
        corpus, texts = timed("text", detach_texts, corpus, n_jobs, done=False)
    papers = paper_table(corpus, themes, links, groups)
    # Papers without a value (the group "(none)") are in no comparison: groups.compared leaves them out.
    change = (timed("change", analyse_group_change, papers, groups.compared, themes, cooccurrence, links, settings,
                    done=False) if len(groups.compared) >= 2 else None)
    return Analysis(corpus=corpus, settings=settings, themes=themes, cooccurrence=cooccurrence,
                    links=links, papers=papers, timings=timings, group_order=groups.order, group_by=groups.by,
                    group_min_papers=groups.min_papers, change=change, texts=texts)


def write_outputs(analysis: Analysis, folder: Path) -> list[str]:
    """Write the tables as CSV, the per-paper ones also as Parquet parts
    (:func:`helpers.analysis.engine.parquet_parts.write_partitioned_tables`), the network files and ``summary.json``
    into ``folder``; returns the names. The abstracts' texts are read one part at a time
    (:meth:`Analysis.paper_parts`)."""
    from helpers.analysis.cooccurrence.exporters import network_writers
    from helpers.analysis.engine.parquet_parts import write_paper_parts, write_partitioned_tables
    from helpers.analysis.spreadsheet import write_csv

    # The papers table, with every abstract's text, is written one part at a time.
    papers = write_paper_parts(analysis.paper_parts(), folder, folder / "papers.csv")
    written = ["papers.csv"]
    tables = analysis.tables(with_papers=False)
    for name, table in tables.items():
        write_csv(table, folder / f"{name}.csv")
        written.append(f"{name}.csv")
    written.extend(papers.files)
    for partitioned in write_partitioned_tables(dict(tables, papers=analysis.papers), folder,
                                                names=("links", "link_statements")):
        written.extend(partitioned.files)
    for name, writer in network_writers(analysis.cooccurrence).items():
        writer(folder / name)
        written.append(name)
    (folder / "summary.json").write_text(json.dumps(analysis.summary, indent=2, sort_keys=True) + "\n")
    written.append("summary.json")
    return written


def source_fingerprint() -> str:
    """SHA-256 of every file of the helpers package (code, resources, JavaScript, CSS), so any edit invalidates caches.

    Compiled bytecode is left out: it follows from the sources.
    """
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parents[1]
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


def environment_fingerprint(requirements: Path | None = None, distributions: Iterable[Any] | None = None) -> str:
    """SHA-256 of ``requirements.txt`` and of the installed versions of what it pins, transitively.

    A changed pin, or an upgrade made by hand without changing the pins, changes it: NMF, Louvain
    and the other libraries' results are then computed again. Distributions the pins do not need
    (JupyterLab, which ``make lab`` adds) leave it unchanged. Without a requirements file, the
    installed dependencies of the project itself count.
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
    closure = dependency_closure(roots, distributions)
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
        When a path does not exist or a directory has no ``.txt`` files.
    """
    from helpers.analysis.corpus import source_names

    files, problems = expand_paths(list(paths))
    if problems:
        raise CorpusError(problems)
    return [(name, hashlib.sha256(path.read_bytes()).hexdigest())
            for name, path in zip(source_names(files), files)]


def build_key(paths: Sequence[str | Path], settings: AnalysisSettings, *, root: Path | None = None,
              extra_files: Sequence[Path] = ()) -> str:
    """Short hash of everything that changes a shown result: one book build per key.

    Covers the corpus files (names, order and bytes), the settings, the helpers' source and the
    library versions (``root/requirements.txt`` and what is installed), and ``extra_files`` (names and
    bytes: other files a page reads, such as the book's metadata and link checks).
    """
    requirements = root / "requirements.txt" if root is not None else None
    extras = [(Path(path).name, hashlib.sha256(Path(path).read_bytes()).hexdigest()) for path in extra_files]
    payload = json.dumps([corpus_files_fingerprint(paths), settings.as_dict(), source_fingerprint(),
                          environment_fingerprint(requirements)] + ([extras] if extras else []))
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def cached_pipeline(paths: Sequence[str | Path], settings: AnalysisSettings, *, cache_dir: Path,
                    root: Path | None = None, engine: EngineSettings = EngineSettings()) -> Analysis:
    """:func:`run_pipeline` (on ``engine``, which the key leaves out: the results do not depend on it),
    computed once per :func:`build_key`.

    The result is pickled under ``cache_dir`` in a file named by the key, the abstracts' texts in a folder
    beside it (``KEY.texts``); a partial file is never read (written aside, then renamed).
    """
    key = build_key(paths, settings, root=root)
    cache_file = cache_dir / f"{key}.pickle"
    if cache_file.exists() and (cache_dir / f"{key}.texts").is_dir():
        with cache_file.open("rb") as handle:
            return pickle.load(handle)
    cache_dir.mkdir(parents=True, exist_ok=True)
    analysis = run_pipeline(paths, settings, engine=engine)
    # The pickle names the texts' folder: a page that needs a few texts reads only their parts.
    analysis = dataclasses.replace(analysis, cache_key=key, texts=analysis.texts.saved(cache_dir / f"{key}.texts"))
    partial = cache_file.with_suffix(f".{os.getpid()}.tmp")
    with partial.open("wb") as handle:
        pickle.dump(analysis, handle)
    os.replace(partial, cache_file)
    return analysis
