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
``BOOK_BASE_URL``
    where the book is published (``https://example.org/book/``): figure citations then give absolute
    addresses; it changes pages, so it is part of the build key (:func:`book_key`);
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
from helpers.book.lab import in_notebook

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

DEFAULT_CORPUS = "data/raw"
DEFAULT_CACHE = "_build/analysis-cache"
DEFAULT_FIGURE_DIR = "_build/figures"


def _setting(environment: Mapping[str, str], name: str, convert: type, what: str):
    """``environment[name]`` converted by ``convert`` (``int`` or ``float``), ``None`` when unset or blank."""
    value = environment.get(name, "").strip()
    if not value:
        return None
    try:
        return convert(value)
    except ValueError:
        raise SettingsError(f"{name}: must be {what}, got {value!r}") from None


def base_url(value: str | None) -> str | None:
    """``BOOK_BASE_URL`` checked and ending in ``/``; ``None`` when unset or blank.

    Examples
    --------
    >>> base_url("https://example.org/book"), base_url(" ")
    ('https://example.org/book/', None)
    >>> base_url("example.org/book")
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: BOOK_BASE_URL: must start with http:// or https://, got 'example.org/book'
    """
    value = (value or "").strip()
    if not value:
        return None
    if not value.startswith(("http://", "https://")) or any(c.isspace() or c in "\"<>{}" for c in value):
        raise SettingsError(f"BOOK_BASE_URL: must start with http:// or https://, got {value!r}")
    return value if value.endswith("/") else value + "/"


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


def _whole_number(environment: Mapping[str, str], name: str) -> int | None:
    return _setting(environment, name, int, "a whole number")


def _number(environment: Mapping[str, str], name: str) -> float | None:
    return _setting(environment, name, float, "a number")


@dataclass(frozen=True)
class BookConfig:
    """The book's settings: which corpus, which analysis settings, where files go.

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
        seed = _whole_number(environment, "BOOK_SEED")
        share = _number(environment, "BOOK_RELEVANT_SHARE")
        defaults = AnalysisSettings()
        thesaurus = environment.get("BOOK_THESAURUS", "").strip() or None
        stop_terms = environment.get("BOOK_STOP_TERMS", "").strip() or None
        settings = AnalysisSettings(themes=_whole_number(environment, "THEMES_K"),
                                    min_occurrences=_whole_number(environment, "BOOK_MIN_OCCURRENCES"),
                                    group_by=environment.get("BOOK_GROUP_BY", "").strip() or None,
                                    seed=defaults.seed if seed is None else seed,
                                    relevant_share=defaults.relevant_share if share is None else share,
                                    theme_names=checked_theme_file(under_root(theme_names)) if theme_names else None,
                                    vocabulary=_vocabulary(thesaurus and under_root(thesaurus),
                                                           stop_terms and under_root(stop_terms)))
        return cls(root=root, corpus_paths=tuple(under_root(p) for p in corpus.split()), settings=settings,
                   cache_dir=under_root(environment.get("BOOK_ANALYSIS_CACHE") or DEFAULT_CACHE),
                   figure_dir=under_root(environment.get("BOOK_FIGURE_DIR") or DEFAULT_FIGURE_DIR),
                   engine=EngineSettings.from_values(environment.get("BOOK_ENGINE", "").strip() or None,
                                                     environment.get("BOOK_DASK_SCHEDULER", "").strip() or None,
                                                     _whole_number(environment, "BOOK_PARTITIONS")),
                   base_url=base_url(environment.get("BOOK_BASE_URL")))


def checked_theme_file(path: Path) -> str:
    """``path`` as a setting, once it reads as a theme file (a malformed one is a one-line
    :class:`helpers.analysis.themes.naming.ThemeFileError`, before any build)."""
    from helpers.analysis.themes.naming import read_theme_file  # lazy: keeps this module's import light

    read_theme_file(path)
    return str(path)


def _vocabulary(thesaurus: Path | None, stop_terms: Path | None) -> Any:
    """The researcher's files, their form checked and their bytes hashed
    (:class:`helpers.analysis.text.vocabulary_files.VocabularyFiles`: their terms are spelled where the analysis
    runs, so a page that shows cached results reads no dictionary); ``None`` without either."""
    if thesaurus is None and stop_terms is None:
        return None
    from helpers.analysis.text.vocabulary_files import VocabularyFiles  # lazy: keeps this module's import light

    return VocabularyFiles.check(thesaurus, stop_terms)


def config(*, corpus: str | Sequence[str] | None = None, themes: int | None = None, seed: int | None = None,
           min_occurrences: int | None = None, relevant_share: float | None = None,
           group_by: str | None = None, thesaurus: str | None = None, stop_terms: str | None = None,
           theme_names: str | None = None) -> BookConfig:
    """The book's settings: from the environment, with any given here instead.

    A chapter's parameters cell passes its values here; ``None`` keeps the book's setting, so the
    book build (which leaves them ``None``) uses its environment, and a reader running a chapter as a
    notebook sets a corpus (a folder or file, or several; relative to the book's root) and settings.
    """
    given = (corpus, themes, seed, min_occurrences, relevant_share, group_by, thesaurus, stop_terms, theme_names)
    if _page_config is not None and all(value is None for value in given) and in_notebook():
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


def notebook_folders(book_config: BookConfig, environment: Mapping[str, str] | None = None) -> BookConfig:
    """In a notebook (:func:`helpers.book.lab.in_notebook`) without ``BOOK_FIGURE_DIR``, figures go to a folder
    of their own corpus and settings, ``_build/notebooks/<build key>/figures``, as each book build has its own
    (:func:`book_key`); the book's builds are left as they are."""
    environment = os.environ if environment is None else environment
    if not in_notebook(environment) or environment.get("BOOK_FIGURE_DIR"):
        return book_config
    folder = book_config.root / "_build" / "notebooks" / book_key(book_config) / "figures"
    return replace(book_config, figure_dir=folder)


def analysis(book_config: BookConfig | None = None, **settings: Any) -> "Analysis":
    """The analysis of the book's corpus, computed once per build key and cached on disk.

    ``settings`` (``corpus``, ``themes``, ``seed``, ``min_occurrences``, ``relevant_share``, ``group_by``,
    ``thesaurus``, ``stop_terms``, ``theme_names``) override the book's settings, as in :func:`config`.
    """
    from helpers.analysis.pipeline import cached_pipeline  # lazy: keeps this module's import light

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
    """The build folder's key: :func:`helpers.analysis.pipeline.build_key` with every file of
    :data:`helpers.book.inputs.PAGE_INPUTS`, and ``BOOK_BASE_URL`` when set (it changes the citations)."""
    from helpers.analysis.pipeline import build_key  # lazy: keeps this module's import light

    key = build_key(book_config.corpus_paths, book_config.settings, root=book_config.root,
                    extra_files=page_inputs(book_config.root))
    if book_config.base_url is None:
        return key
    return hashlib.sha256(json.dumps([key, {"BOOK_BASE_URL": book_config.base_url}]).encode()).hexdigest()[:16]


def with_titles(papers):
    """``papers`` with ``title``, ``authors`` and ``display_title`` from the book's metadata file
    (:func:`helpers.analysis.corpus.titles.with_titles`)."""
    # Lazy: keeps this module's import light.
    from helpers.analysis.corpus.titles import read_metadata, with_titles as add_titles

    return add_titles(papers, read_metadata(page_input(METADATA_FILE, root=config().root)))
