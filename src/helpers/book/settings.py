"""The book's settings and its cached analysis.

Every setting the book reads from the environment is read here, once, by
:meth:`BookConfig.from_environment`:

``BOOK_CORPUS``
    corpus paths, space separated (default ``data/raw``), relative to the book's root;
``THEMES_K``
    number of themes (default: chosen by the selection rule);
``BOOK_SEED``
    first random seed (default 0);
``BOOK_MIN_OCCURRENCES``, ``BOOK_RELEVANT_SHARE``
    the term map's thresholds (default: grows with the corpus; 0.6);
``BOOK_GROUP_BY``
    how papers are grouped for the comparisons: ``year``, ``venue``, ``file`` or a column of the
    input (default: year when the papers carry at least two years, else one group);
``BOOK_THEME_NAMES``
    a theme file that renames and merges the themes (:mod:`helpers.analysis.themes.naming`; the themes page offers
    a starter file), relative to the book's root; ignored with a one-line warning when written for another corpus
    or settings;
``BOOK_THESAURUS``, ``BOOK_STOP_TERMS``
    the researcher's own vocabulary: a VOSviewer thesaurus file (``label<TAB>replace by``) and a file of terms
    to remove, one per line, relative to the book's root, applied to every analysis
    (:mod:`helpers.analysis.text.vocabulary`; their SHA-256 are in the build key);
``BOOK_ANALYSIS_CACHE``
    folder of the analysis cache (default ``_build/analysis-cache``);
``BOOK_FIGURE_DIR``
    folder for figure files and data downloads (default ``_build/figures``);
``BOOK_FIGURES_IN_BACKGROUND``
    ``1``: each figure's SVG and PDF are written by a forked child while the page goes on
    (:mod:`helpers.book.figure_writers`); the build's page step and ``make lab`` set it;
``BOOK_BASE_URL``
    where the book is published (``https://example.org/book/``): figure citations then give absolute
    addresses; it changes pages, so it is part of the build key (:func:`book_key`);
``BOOK_TITLE``
    the book's title, instead of the one named after its corpus (:mod:`helpers.book.build.title`);
``BOOK_NOTEBOOK``
    ``1`` when ``make lab`` runs the chapters in JupyterLab, whose contents manager fills their prose in
    (:mod:`helpers.book.lab`); any Jupyter server's ``JPY_SESSION_NAME`` also says a chapter runs as a notebook;
``BOOK_DASK_SCHEDULER``, ``BOOK_ENGINE``, ``BOOK_PARTITIONS``
    run the analysis on the Dask cluster of this scheduler (``tcp://HOST:PORT``), or with ``BOOK_ENGINE=dask``
    on a local cluster, in this many partitions (:class:`helpers.analysis.settings.EngineSettings`; the
    results, and so the build key, are the same).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from helpers.analysis.settings import OPTIONS, AnalysisSettings, EngineSettings, SettingsError
from helpers.book.inputs import book_root, page_input, page_inputs  # noqa: F401  (page_inputs: the build key's files)
from helpers.book.lab.notebook import in_notebook, prose_resolved
from helpers.book.setting_values import base_url, checked_theme_file, number, vocabulary_files, whole_number

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

DEFAULT_CORPUS = "data/raw"
DEFAULT_CACHE = "_build/analysis-cache"
DEFAULT_FIGURE_DIR = "_build/figures"


#: The environment variable the book reads each analysis setting from.
ENVIRONMENT_NAMES = {"themes": "THEMES_K", "seed": "BOOK_SEED", "min_occurrences": "BOOK_MIN_OCCURRENCES",
                     "relevant_share": "BOOK_RELEVANT_SHARE", "group_by": "BOOK_GROUP_BY",
                     "theme_names": "BOOK_THEME_NAMES", "engine": "BOOK_ENGINE", "scheduler": "BOOK_DASK_SCHEDULER",
                     "partitions": "BOOK_PARTITIONS"}


def book_named(error: SettingsError) -> SettingsError:
    """An analysis setting's error naming the book's environment variable beside the option (both give it).

    Examples
    --------
    >>> str(book_named(SettingsError("must be a whole number of at least 1, got 0", setting="themes")))
    '--themes / THEMES_K: must be a whole number of at least 1, got 0'
    """
    return error.named({name: f"{OPTIONS[name]} / {variable}" for name, variable in ENVIRONMENT_NAMES.items()})


@dataclass(frozen=True)
class BookConfig:
    """The book's settings: which corpus, which analysis settings, where files go.

    Attributes
    ----------
    root
        The book's root; relative paths start here.
    corpus_paths
        ``BOOK_CORPUS``.
    settings
        The analysis settings (``THEMES_K``, ``BOOK_SEED``, ...).
    cache_dir, figure_dir
        ``BOOK_ANALYSIS_CACHE`` and ``BOOK_FIGURE_DIR``.
    engine
        Where the analysis runs.
    base_url
        ``BOOK_BASE_URL``.
    title, notebook, lab_prose, notebook_figures
        ``BOOK_TITLE`` and how a chapter runs as a notebook (each described where it is declared).

    Examples
    --------
    >>> config = BookConfig.from_environment({"THEMES_K": "8", "BOOK_CORPUS": "a b"}, root=Path("/book"))
    >>> config.settings.themes, [p.as_posix() for p in config.corpus_paths]
    (8, ['/book/a', '/book/b'])
    >>> BookConfig.from_environment({"THEMES_K": "eight"})
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: THEMES_K: must be a whole number, got 'eight'
    """

    root: Path
    corpus_paths: tuple[Path, ...]
    settings: AnalysisSettings = field(default_factory=AnalysisSettings)
    cache_dir: Path = Path(DEFAULT_CACHE)
    figure_dir: Path = Path(DEFAULT_FIGURE_DIR)
    engine: EngineSettings = field(default_factory=EngineSettings)
    base_url: str | None = None
    #: ``BOOK_TITLE``: the book's title instead of the one named after its corpus.
    title: str | None = None
    #: The chapter runs as a notebook in Jupyter rather than for the book (:func:`helpers.book.lab.notebook.in_notebook`).
    notebook: bool = False
    #: ``make lab``'s contents manager fills the notebook's prose in (:func:`helpers.book.lab.notebook.prose_resolved`).
    lab_prose: bool = False
    #: In a notebook without ``BOOK_FIGURE_DIR``: figures go to a folder of their own corpus (:func:`notebook_folders`).
    notebook_figures: bool = False
    figures_in_background: bool = False

    @property
    def cells_show_values(self) -> bool:
        """A notebook whose prose is not filled in by ``make lab``: its cells show what they glue under themselves.

        Examples
        --------
        >>> BookConfig(Path("."), (), notebook=True).cells_show_values
        True
        >>> BookConfig(Path("."), (), notebook=True, lab_prose=True).cells_show_values
        False
        """
        return self.notebook and not self.lab_prose

    @classmethod
    def from_environment(cls, environment: Mapping[str, str] | None = None, *, root: Path | None = None
                         ) -> "BookConfig":
        """Read the settings from ``environment`` (default ``os.environ``); relative paths start at ``root``."""
        environment = os.environ if environment is None else environment
        try:
            return cls._from_environment(environment, root=root or book_root())
        except SettingsError as error:
            raise book_named(error) from None

    @classmethod
    def _from_environment(cls, environment: Mapping[str, str], *, root: Path) -> "BookConfig":

        def under_root(value: str) -> Path:
            path = Path(value)
            return path if path.is_absolute() else root / path

        corpus = environment.get("BOOK_CORPUS", "").strip() or DEFAULT_CORPUS
        theme_names = environment.get("BOOK_THEME_NAMES", "").strip()
        seed = whole_number(environment, "BOOK_SEED")
        share = number(environment, "BOOK_RELEVANT_SHARE")
        defaults = AnalysisSettings()
        thesaurus = environment.get("BOOK_THESAURUS", "").strip() or None
        stop_terms = environment.get("BOOK_STOP_TERMS", "").strip() or None
        settings = AnalysisSettings(themes=whole_number(environment, "THEMES_K"),
                                    min_occurrences=whole_number(environment, "BOOK_MIN_OCCURRENCES"),
                                    group_by=environment.get("BOOK_GROUP_BY", "").strip() or None,
                                    seed=defaults.seed if seed is None else seed,
                                    relevant_share=defaults.relevant_share if share is None else share,
                                    theme_names=checked_theme_file(under_root(theme_names)) if theme_names else None,
                                    vocabulary=vocabulary_files(thesaurus and under_root(thesaurus),
                                                           stop_terms and under_root(stop_terms)))
        return cls(root=root, corpus_paths=tuple(under_root(p) for p in corpus.split()), settings=settings,
                   cache_dir=under_root(environment.get("BOOK_ANALYSIS_CACHE") or DEFAULT_CACHE),
                   figure_dir=under_root(environment.get("BOOK_FIGURE_DIR") or DEFAULT_FIGURE_DIR),
                   engine=EngineSettings.from_values(environment.get("BOOK_ENGINE", "").strip() or None,
                                                     environment.get("BOOK_DASK_SCHEDULER", "").strip() or None,
                                                     whole_number(environment, "BOOK_PARTITIONS")),
                   base_url=base_url(environment.get("BOOK_BASE_URL")),
                   title=environment.get("BOOK_TITLE", "").strip() or None,
                   notebook=in_notebook(environment), lab_prose=prose_resolved(environment),
                   notebook_figures=in_notebook(environment) and not environment.get("BOOK_FIGURE_DIR"),
                   figures_in_background=environment.get("BOOK_FIGURES_IN_BACKGROUND", "").strip() == "1")



def config(*, corpus: str | Sequence[str] | None = None, themes: int | None = None, seed: int | None = None,
           min_occurrences: int | None = None, relevant_share: float | None = None,
           group_by: str | None = None, thesaurus: str | None = None, stop_terms: str | None = None,
           theme_names: str | None = None) -> BookConfig:
    """The book's settings: from the environment, with any given here instead.

    A chapter's parameters cell passes its values here; ``None`` keeps the book's setting, so the
    book build (which leaves them ``None``) uses its environment, and a reader running a chapter as a
    notebook sets a corpus (a folder or file, or several; relative to the book's root) and settings.

    Parameters
    ----------
    corpus
        A corpus folder or file, or several, relative to the book's root.
    themes, seed, min_occurrences, relevant_share, group_by
        The analysis settings, as ``analyse``'s options of those names.
    thesaurus, stop_terms, theme_names
        The researcher's files, relative to the book's root.

    Returns
    -------
    BookConfig
        The settings, figures in a notebook's own folder when it runs as one (:func:`notebook_folders`).

    Examples
    --------
    >>> config(themes=6, seed=2).settings.themes, config(themes=6, seed=2).settings.seed
    (6, 2)
    """
    given = (corpus, themes, seed, min_occurrences, relevant_share, group_by, thesaurus, stop_terms, theme_names)
    if _page_config is not None and all(value is None for value in given) and _page_config.notebook:
        return _page_config  # a notebook's later cells (figures, tables) follow its parameters cell
    book_config = BookConfig.from_environment()
    if corpus is not None:
        paths = [corpus] if isinstance(corpus, (str, Path)) else list(corpus)
        book_config = replace(book_config, corpus_paths=tuple(
            Path(p) if Path(p).is_absolute() else book_config.root / p for p in paths))
    if any(value is not None for value in (themes, seed, min_occurrences, relevant_share, group_by)):
        now = book_config.settings
        book_config = replace(book_config, settings=replace(
            now, themes=now.themes if themes is None else themes, seed=now.seed if seed is None else seed,
            min_occurrences=now.min_occurrences if min_occurrences is None else min_occurrences,
            relevant_share=now.relevant_share if relevant_share is None else relevant_share,
            group_by=now.group_by if group_by is None else group_by))
    if theme_names is not None:
        path = Path(theme_names) if Path(theme_names).is_absolute() else book_config.root / theme_names
        book_config = replace(book_config, settings=replace(book_config.settings,
                                                            theme_names=checked_theme_file(path)))
    if thesaurus is not None or stop_terms is not None:
        # A file given here replaces the book's file of its kind; the other kind stays as the book has it.
        environment = dict(os.environ)
        environment.update({name: str(value) for name, value in (("BOOK_THESAURUS", thesaurus),
                                                                 ("BOOK_STOP_TERMS", stop_terms)) if value is not None})
        from_files = BookConfig.from_environment(environment, root=book_config.root).settings.vocabulary
        book_config = replace(book_config, settings=replace(book_config.settings, vocabulary=from_files))
    return notebook_folders(book_config)


#: The settings of the page being run, once its :func:`analysis` call has named them: a chapter run as a
#: notebook with its own corpus saves its figures in that corpus's folder, not the book's.
_page_config: BookConfig | None = None


def notebook_folders(book_config: BookConfig) -> BookConfig:
    """In a notebook without ``BOOK_FIGURE_DIR`` (:attr:`BookConfig.notebook_figures`), figures go to a folder
    of their own corpus and settings, ``_build/notebooks/<build key>/figures``, as each book build has its own
    (:func:`book_key`); the book's builds are left as they are.

    Parameters
    ----------
    book_config
        The settings as read, figures in the book's folder.

    Returns
    -------
    BookConfig
        ``book_config``, its ``figure_dir`` moved when it runs as a notebook.

    Examples
    --------
    >>> book = BookConfig(Path("/book"), (), figure_dir=Path("/book/_build/figures"))
    >>> notebook_folders(book) is book
    True
    """
    if not book_config.notebook_figures:
        return book_config
    folder = book_config.root / "_build" / "notebooks" / book_key(book_config) / "figures"
    return replace(book_config, figure_dir=folder)


def analysis(book_config: BookConfig | None = None, **settings: Any) -> "Analysis":
    """The analysis of the book's corpus, computed once per build key and cached on disk.

    ``settings`` (``corpus``, ``themes``, ``seed``, ``min_occurrences``, ``relevant_share``, ``group_by``,
    ``thesaurus``, ``stop_terms``, ``theme_names``) override the book's settings, as in :func:`config`.

    Parameters
    ----------
    book_config
        The settings (default: :func:`config` of ``settings``).
    **settings
        Settings a chapter's parameters cell gives.

    Returns
    -------
    Analysis
        The analysis, from the cache when it is there.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "roads.txt").write_text("Crash rates on rural roads fell after the speed limit changed.\\n")
    >>> book = BookConfig(folder, (folder / "roads.txt",), cache_dir=folder / "cache")
    >>> len(analysis(book).papers), len(analysis(book).cache_key)  # the second call reads the cache
    (1, 16)
    """
    from helpers.book.cache import cached_pipeline  # lazy: keeps this module's import light

    global _page_config
    book_config = book_config or config(**settings)
    _page_config = book_config
    try:
        return cached_pipeline(book_config.corpus_paths, book_config.settings, cache_dir=book_config.cache_dir,
                               root=book_config.root, engine=book_config.engine)
    except SettingsError as error:
        raise book_named(error) from None




#: The metadata file of the seed corpus (titles, authors), relative to the book's root.
METADATA_FILE = "data/icml2024-seed-metadata.csv"
# The term map measured against the labelled terms (benchmarks/term_quality.py), shown in the co-occurrence chapter.
TERM_QUALITY_FILE = "benchmarks/results/term_quality.csv"
# The term communities measured (benchmarks/community_quality.py), on Validation.
COMMUNITY_QUALITY_FILE = "benchmarks/results/community_quality.csv"
# The themes fitted on two vocabularies (benchmarks/theme_vocabulary.py), cited in the themes chapter.
THEME_VOCABULARY_FILE = "benchmarks/results/theme_vocabulary.csv"
# The themes and LDA on the independent yardstick of issue 38 (benchmarks/theme_yardstick.py), on Validation.
THEME_YARDSTICK_FILE = "benchmarks/results/theme_yardstick.csv"
# BERTopic on the same yardstick (benchmarks/theme_peers.py, make bench-peers), on Validation beside it.
THEME_PEERS_FILE = "benchmarks/results/theme_peers.csv"
# The blind word-intrusion test of the themes and their peers (benchmarks/word_intrusion.py), on Validation.
WORD_INTRUSION_FILE = "benchmarks/results/word_intrusion.csv"
# The checks a researcher of another field makes, on the dev exports (benchmarks/field_exports.py), on Validation.
FIELD_EXPORTS_FILE = "benchmarks/results/field_exports.csv"
# Every figure's text size where it is read (benchmarks/figure_text.py), on Validation.
FIGURE_TEXT_FILE = "benchmarks/results/figure_text.csv"


def book_key(book_config: BookConfig) -> str:
    """The build folder's key: :func:`helpers.book.cache.build_key` with every file of
    :data:`helpers.book.inputs.PAGE_INPUTS`, and ``BOOK_BASE_URL`` when set (it changes the citations).

    Parameters
    ----------
    book_config
        The book's settings (corpus, analysis settings, root, ``BOOK_BASE_URL``).

    Returns
    -------
    str
        The key (16 hex digits), the name of the build's folder.

    Examples
    --------
    >>> book = config()
    >>> book_key(book) == book_key(book), len(book_key(book))
    (True, 16)
    """
    from helpers.book.cache import build_key  # lazy: keeps this module's import light

    key = build_key(book_config.corpus_paths, book_config.settings, root=book_config.root,
                    extra_files=page_inputs(book_config.root))
    if book_config.base_url is None:
        return key
    return hashlib.sha256(json.dumps([key, {"BOOK_BASE_URL": book_config.base_url}]).encode()).hexdigest()[:16]


def with_titles(papers):
    """``papers`` with ``title``, ``authors`` and ``display_title`` from the book's metadata file
    (:func:`helpers.analysis.corpus.titles.with_titles`).

    Parameters
    ----------
    papers
        The papers table.

    Returns
    -------
    DataFrame
        ``papers`` with the columns added.

    Examples
    --------
    >>> import pandas as pd
    >>> papers = with_titles(pd.DataFrame({"paper_id": ["x"], "text_sha1": ["0" * 40],
    ...                                    "text": ["Hens on farms."]}))
    >>> papers["display_title"].tolist()  # a paper the file does not list: its id and its opening words
    ['x: Hens on farms.']
    """
    # Lazy: keeps this module's import light.
    from helpers.analysis.corpus.titles import read_metadata, with_titles as add_titles

    return add_titles(papers, read_metadata(page_input(METADATA_FILE, root=config().root)))
