"""One run of the analysis: the corpus read, then each stage once, on the engine the settings name."""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from helpers.analysis.pipeline.results import Analysis
from helpers.analysis.pipeline.stages import (DaskStages, LocalStages, StageEngine, analyse_group_change,
                                              analyse_keyword_map, cut_while, name_themes, paper_table,
                                              start_theme_stage)
from helpers.analysis.settings import AnalysisSettings, EngineSettings

if TYPE_CHECKING:
    from helpers.analysis._parallel import ForkedCall

__all__ = ["run_pipeline", "read_ahead"]


@dataclass(frozen=True)
class RunOptions:
    """What a run reads and how (:func:`run_pipeline`'s arguments, but the engine).

    Attributes
    ----------
    paths : tuple of str or Path
        The corpus files and directories.
    settings : AnalysisSettings
    skip_bad : bool
        Continue with the good files when some are bad.
    n_jobs : int or None
        Processes, threads and BLAS threads to use (``None``: all cores).
    """

    paths: tuple[str | Path, ...]
    settings: AnalysisSettings = AnalysisSettings()
    skip_bad: bool = False
    n_jobs: int | None = None


class StageClock:
    """The seconds of each stage (added up when a stage runs in steps) and the progress bar over the stages.

    Examples
    --------
    >>> clock = StageClock()
    >>> clock("parse", sum, [1, 2])
    3
    >>> list(clock.timings)
    ['parse']
    """

    def __init__(self, progress: bool = False, stages: int = 5) -> None:
        self.timings: dict[str, float] = {}
        self.bar = None
        if progress:
            from tqdm.auto import tqdm  # lazy: progress bars only

            self.bar = tqdm(total=stages, desc="analyse", unit="stage")

    def __call__(self, name: str, compute: Callable[..., Any], *args: Any, done: bool = True) -> Any:
        """``compute(*args)``, its seconds added to stage ``name``; ``done``: the bar moves on a stage."""
        start = time.perf_counter()
        value = compute(*args)
        self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - start
        if self.bar is not None and done:
            self.bar.update(1)
        return value

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


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

    ``engine`` says where: this process (the default) or a Dask cluster
    (:mod:`helpers.analysis.pipeline.dask_engine`, whose per-partition stages give the same tables).

    ``n_jobs`` limits the processes, threads and BLAS threads used (default: all cores); results do not
    depend on it. ``n_jobs=1`` is one thread of work: nothing runs in the background. Whether it
    returns or raises, no thread it started is left running. ``progress`` shows a progress bar over
    the stages (tqdm).

    Parameters
    ----------
    paths : sequence of str or Path
        The corpus's files and folders.
    settings : AnalysisSettings, optional
        What changes the results (number of themes, seed, grouping, vocabulary files, ...).
    skip_bad : bool, default False
        Continue with the good files when some are bad.
    progress : bool, default False
    n_jobs : int, optional
    engine : EngineSettings, optional

    Returns
    -------
    Analysis

    Raises
    ------
    CorpusError
        For a bad corpus (every problem listed).
    SettingsError
        For a setting the corpus does not allow (a number of themes larger than the corpus, a
        ``group_by`` the papers cannot be grouped by).

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> analysis = run_pipeline([write_corpus({"a.txt": "Speed cameras cut crashes at rural junctions."})], n_jobs=1)
    >>> len(analysis.papers), analysis.summary["unique_papers"]
    (1, 1)
    """
    options = RunOptions(tuple([paths] if isinstance(paths, (str, Path)) else paths), settings, skip_bad, n_jobs)
    clock = StageClock(progress)
    # On the local engine a small corpus is read by a forked child while this process imports the stages' modules
    # (about 1.5 s, one core); it starts before any thread does.
    reading = read_ahead(options.paths, skip_bad) if engine.engine == "local" and n_jobs != 1 else None
    try:
        # The stages' modules are imported before the clock starts, so stage times mean the same whoever calls.
        import helpers.analysis.cooccurrence  # noqa: F401
        import helpers.analysis.corpus.groups  # noqa: F401
        import helpers.analysis.keywords  # noqa: F401
        import helpers.analysis.links  # noqa: F401
        import helpers.analysis.text.noun_phrases  # noqa: F401
        import helpers.analysis.themes  # noqa: F401
        from helpers.analysis.text.stop_words import stop_words  # lazy: keeps this module's import light

        stop_words()  # imports scikit-learn

        with fewer_collections():
            if engine.engine == "dask":
                # Lazy: keeps this module's import light.
                from helpers.analysis.pipeline.dask_engine import ClusterStages, dask_client

                with dask_client(engine, n_jobs) as client:
                    return run_stages(options, clock, DaskStages(ClusterStages(client, engine.partitions)))
            return run_stages(options, clock, LocalStages(n_jobs, reading))
    finally:
        if reading is not None:
            reading.close()


#: The largest corpus (bytes of its files) read ahead (:func:`read_ahead`): its tables come back pickled, which
#: costs little next to the reading up to about this size; a larger corpus is read in this process, in pieces.
READ_AHEAD_MAX_BYTES = 64 * 1024 * 1024


def read_ahead(paths: Sequence[str | Path], skip_bad: bool = False,
               max_bytes: int = READ_AHEAD_MAX_BYTES) -> "ForkedCall | None":
    """Start reading the corpus (:func:`helpers.analysis.corpus.read_corpus`) in a forked child, and cutting its
    abstracts into word ids (the text stage, :func:`helpers.analysis.pipeline.stages.analyse_text`) when they are
    fewer than :data:`helpers.analysis._parallel.MIN_PARALLEL_ITEMS`; or None where that cannot help: no ``fork``
    on this platform, or files of more than ``max_bytes`` together.

    Call it before starting any thread (the child may import what the readers need).

    Parameters
    ----------
    paths : sequence of str or Path
        The corpus's files and folders.
    skip_bad : bool, default False
        As for :func:`helpers.analysis.corpus.read_corpus`.
    max_bytes : int
        The largest corpus read ahead.

    Returns
    -------
    ForkedCall or None
        Its result is the corpus, its word ids (or None) and the seconds of each stage done (``parse``, ``text``),
        or the reading's error.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> folder = write_corpus({"a.txt": "Broiler chickens grew faster on the new feed."})
    >>> corpus, tokens, seconds = read_ahead([folder]).result()
    >>> len(corpus.papers), len(tokens), list(seconds), read_ahead([folder], max_bytes=10) is None
    (1, 1, ['parse', 'text'], True)
    """
    from helpers.analysis._parallel import ForkedCall, can_fork  # lazy: keeps this module's import light
    from helpers.analysis.corpus import expand_paths

    if not can_fork():
        return None
    files, _ = expand_paths(paths)
    try:
        size = sum(path.stat().st_size for path in files)
    except OSError:  # read in this process, which says what is wrong
        return None
    return ForkedCall(_read_and_cut, tuple(paths), skip_bad, name="helpers-read-ahead") if size <= max_bytes else None


def _read_and_cut(paths: Sequence[str | Path], skip_bad: bool) -> tuple[Any, Any, dict[str, float]]:
    from helpers.analysis._parallel import MIN_PARALLEL_ITEMS  # lazy: keeps this module's import light
    from helpers.analysis.corpus import read_corpus
    from helpers.analysis.pipeline.stages import analyse_text

    start = time.perf_counter()
    corpus = read_corpus(paths, skip_bad=skip_bad)
    seconds = {"parse": time.perf_counter() - start}
    tokens = None
    if len(corpus.papers) < MIN_PARALLEL_ITEMS:  # more would be cut on several processes, started from here
        start = time.perf_counter()
        tokens = analyse_text(corpus, 1)
        seconds["text"] = time.perf_counter() - start
    return corpus, tokens, seconds

#: Allocations between two collections of the youngest generation during a run (Python's default: 700).
GC_YOUNG_THRESHOLD = 10_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Within the block, Python's garbage collector leaves alone what is alive at its start (the modules and
    everything they hold: ``gc.freeze``) and collects the youngest objects after :data:`GC_YOUNG_THRESHOLD`
    allocations; both are restored after it.

    The collector looks for reference cycles; each full pass walks every tracked object, and a run with
    scikit-learn, pandas and the dictionaries loaded spent about 0.6 s of 5 s in such passes on 751 abstracts.
    Nothing a run computes depends on when cycles are freed.
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def run_stages(options: RunOptions, clock: StageClock, stages: StageEngine) -> Analysis:
    """The stages of :func:`run_pipeline` on ``stages``, in order: parse, text, themes (the final fit in a
    background thread) while terms and links are found, the texts set apart, the papers table, the change
    between groups."""
    from threadpoolctl import threadpool_limits  # lazy: only where threads are limited

    from helpers.analysis.corpus.groups import paper_groups  # lazy: keeps this module's import light
    from helpers.analysis.text.lexicon import load_dictionaries  # lazy: keeps this module's import light
    from helpers.analysis.themes import model_fitting  # lazy: at the top it would load scipy and networkx
    from helpers.analysis.themes.theme_file import read_theme_file  # lazy: keeps this module's import light

    settings, n_jobs = options.settings, options.n_jobs
    # A malformed theme file fails here, before anything is read (helpers.analysis.themes.naming).
    theme_file = read_theme_file(settings.theme_names) if settings.theme_names is not None else None
    corpus = clock("parse", stages.read_corpus, options.paths, options.skip_bad)
    groups = paper_groups(corpus.papers, corpus.fields, settings.group_by)  # a bad group_by fails here, at once
    # The term stage's dictionaries (about a second to read) load while the other stages run.
    dictionaries = load_dictionaries(background=n_jobs != 1)
    finish_themes = None
    try:
        with threadpool_limits(n_jobs) if n_jobs else nullcontext():
            runner, token_parts = clock("text", stages.tokenize, corpus)
            # Stages done ahead, in a child while this process imported: their own seconds.
            clock.timings.update(stages.seconds_ahead)
            with model_fitting():
                try:
                    # The final theme fit runs in a background thread while this one finds terms and links.
                    finish_themes = clock("themes", start_theme_stage, runner, token_parts, settings, n_jobs,
                                          done=False)
                    cooccurrence = clock("cooccurrence",
                                         lambda: dictionaries.result() or stages.cooccurrence(settings))
                    links = clock("links", stages.links)
                    # What the themes' labels read, cut while the themes are not ready (on one job: nothing; the
                    # dask engine keeps the texts on its workers).
                    pending = finish_themes
                    texts_here = corpus.papers["text"].tolist() if "text" in corpus.papers else []
                    cut = clock("themes", cut_while, texts_here, lambda: not pending.done(), done=False)
                    themes = clock("themes", finish_themes)
                finally:  # after an error too: no fit left running, and none outside model_fitting's limits
                    if finish_themes is not None:
                        finish_themes.wait()
    finally:
        dictionaries.wait()
        clock.close()
    corpus, texts = clock("text", stages.detach_texts, corpus, done=False)
    # Labels in the abstracts' own words, at both grains.
    themes, hierarchy = clock("themes", name_themes, themes, cooccurrence, texts, theme_file, corpus.sha256,
                              settings.seed, cut, done=False)
    papers = paper_table(corpus, themes, links, groups, hierarchy)
    # The keyword map is the co-occurrence of the papers' own keywords: its seconds count with the term map's.
    keywords = clock("cooccurrence", analyse_keyword_map, corpus, settings, done=False)
    # Papers without a value (the group "(none)") are in no comparison: groups.compared leaves them out.
    change = (clock("change", analyse_group_change, papers, groups.compared, themes, cooccurrence, links, settings,
                    done=False) if len(groups.compared) >= 2 else None)
    return Analysis(corpus=corpus, settings=settings, themes=themes, cooccurrence=cooccurrence,
                    links=links, papers=papers, timings=clock.timings, group_order=groups.order, group_by=groups.by,
                    group_min_papers=groups.min_papers, change=change, texts=texts,
                    hierarchy=hierarchy, keywords=keywords)
