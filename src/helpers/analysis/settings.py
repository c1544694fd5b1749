"""Every setting a user gives (CLI option, book setting, function argument), validated in one place.

A setting is named by the analysis: by the command's option that gives it (:data:`OPTIONS`), so an error reads
``--themes: must be a whole number of at least 1, got 0``. A :class:`SettingsError` carries the setting's name
apart from the problem, so a layer that reads the setting from elsewhere names it its own way
(:meth:`SettingsError.named`: the book adds its environment variable).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Mapping, Protocol, Sequence

import numpy as np

__all__ = ["OPTIONS", "GROUP_BY_NAMES", "ENGINES", "SettingsError", "AnalysisSettings", "EngineSettings",
           "check_group_by", "check_whole", "check_share"]

#: The analysis's name of each setting: the command's option that gives it.
OPTIONS = {"themes": "--themes", "seed": "--seed", "min_occurrences": "--min-occurrences",
           "relevant_share": "--relevant-share", "jobs": "--jobs", "group_by": "--group-by",
           "theme_names": "--theme-names", "engine": "--engine", "scheduler": "--scheduler",
           "partitions": "--partitions"}
#: The ways to group papers that need no column name (``year`` and ``venue`` need the papers to carry them).
GROUP_BY_NAMES = ("year", "venue", "file")


class VocabularySetting(Protocol):
    """The researcher's thesaurus and stop terms (:class:`helpers.analysis.text.vocabulary.VocabularyEdits`), as the
    settings need them: the files by name and SHA-256."""

    def as_dict(self) -> list[dict[str, str]]:
        """Each file's kind, name and SHA-256."""


class SettingsError(ValueError):
    """A user setting (CLI option, book setting or argument) has a value outside what it allows: one line that
    names the setting and the allowed values.

    Parameters
    ----------
    problem : str
        What is wrong, without the setting's name (or the whole line when ``setting`` is ``None``).
    setting : str, optional
        The setting's name (a key of :data:`OPTIONS`); the message starts with its option.

    Attributes
    ----------
    setting : str or None
        As given.
    problem : str
        As given.

    Examples
    --------
    >>> error = SettingsError("must be a whole number of at least 1, got 0", setting="themes")
    >>> str(error), error.setting
    ('--themes: must be a whole number of at least 1, got 0', 'themes')
    >>> str(error.named({"themes": "the number of themes"}))
    'the number of themes: must be a whole number of at least 1, got 0'
    """

    def __init__(self, problem: str, *, setting: str | None = None) -> None:
        self.setting, self.problem = setting, problem
        super().__init__(f"{OPTIONS.get(setting, setting)}: {problem}" if setting is not None else problem)

    def named(self, names: Mapping[str, str]) -> "SettingsError":
        """The same error with its setting named as ``names`` names it (``self`` when ``names`` has no name for it).

        Parameters
        ----------
        names : mapping of str to str
            A setting's name (a key of :data:`OPTIONS`) -> how the caller names it.

        Returns
        -------
        SettingsError
            An error of the same class, with the same ``setting`` and ``problem``.

        Examples
        --------
        >>> str(SettingsError("must be file, got 'year'", setting="group_by").named({"themes": "k"}))
        "--group-by: must be file, got 'year'"
        """
        if self.setting is None or self.setting not in names:
            return self
        error = copy.copy(self)
        error.args = (f"{names[self.setting]}: {self.problem}",)
        return error


@dataclass(frozen=True)
class AnalysisSettings:
    """Every setting that changes a result. Shown in the book and part of the cache key.

    Attributes
    ----------
    seed : int
        First random seed (themes use ``seed, seed + 1, ...``; the term map's layout uses ``seed``).
    themes : int or None
        Number of themes; ``None`` lets the model-selection rule choose.
    min_occurrences : int or None
        Abstracts a term must occur in to be on the term map; ``None``: grows with the corpus
        (:data:`helpers.analysis.cooccurrence.selection.MIN_OCCURRENCES_RULE`).
    relevant_share : float
        Share of those terms kept, most relevant first (VOSviewer's default, 60%).
    group_by : str or None
        How papers are grouped for the comparisons: ``year``, ``venue``, ``file`` or the name of a
        column of the input; ``None``: by year when the papers carry at least two years, else one group
        (checked against the corpus by :func:`check_group_by`).
    theme_names : str or None
        A theme file that renames and merges the themes (:mod:`helpers.analysis.themes.naming`); ``None``: the
        rule's labels. The build key holds its SHA-256.
    vocabulary : VocabularyEdits or None
        The researcher's thesaurus and stop terms
        (:func:`helpers.analysis.text.vocabulary_files.read_vocabulary`), applied to every analysis's terms;
        in :meth:`as_dict` (so in the cache key) by each file's SHA-256.

    Examples
    --------
    >>> AnalysisSettings(themes=8, seed=3).as_dict()
    {'seed': 3, 'themes': 8, 'min_occurrences': None, 'relevant_share': 0.6}
    """

    seed: int = 0
    themes: int | None = None
    min_occurrences: int | None = None
    relevant_share: float = 0.6
    group_by: str | None = None
    theme_names: str | None = None
    vocabulary: VocabularySetting | None = None

    def __post_init__(self) -> None:
        check_whole(self.themes, "themes", minimum=1, optional=True)
        check_whole(self.seed, "seed", minimum=0)
        check_whole(self.min_occurrences, "min_occurrences", minimum=1, optional=True)
        check_share(self.relevant_share, "relevant_share")
        if self.group_by is not None and (not isinstance(self.group_by, str) or not self.group_by.strip()):
            raise SettingsError(f"must be year, venue, file or a column name, got {self.group_by!r}",
                                setting="group_by")
        if self.theme_names is not None and (not isinstance(self.theme_names, str) or not self.theme_names.strip()):
            raise SettingsError(f"must be a file, got {self.theme_names!r}", setting="theme_names")

    @classmethod
    def from_namespace(cls, args: argparse.Namespace) -> "AnalysisSettings":
        names = {f.name for f in dataclasses.fields(cls)} - {"vocabulary"}  # files: read by the caller
        return cls(**{k: v for k, v in vars(args).items() if k in names and v is not None})

    def as_dict(self) -> dict[str, Any]:
        """The settings by name; ``group_by`` and ``theme_names`` only when given (the first's default follows from
        the corpus), the vocabulary files by name and SHA-256 only when given."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for name in ("group_by", "theme_names"):
            if values[name] is None:
                del values[name]
        vocabulary = values.pop("vocabulary")
        if vocabulary is not None:  # only when given: the keys of runs without files stay as they were
            values["vocabulary"] = vocabulary.as_dict()
        return values


def check_group_by(value: str, columns: Sequence[str], *, has_year: bool, has_venue: bool) -> None:
    """Raise :class:`SettingsError` unless ``value`` is a way to group these papers.

    ``columns`` are the input's column names (metadata and other fields); ``year`` and ``venue``
    need the papers to carry them; ``file`` always works.

    Parameters
    ----------
    value : str
        The way to group asked for.
    columns : sequence of str
        The input's column names.
    has_year, has_venue : bool
        Whether the papers carry a year, a venue.

    Returns
    -------
    None
        Raises :class:`SettingsError` instead when ``value`` does not apply.

    Examples
    --------
    >>> check_group_by("year", ["title", "year"], has_year=True, has_venue=False)
    >>> check_group_by("track", ["title", "year"], has_year=True, has_venue=False)
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: --group-by: must be year, file or a column of the input (title), got 'track'
    """
    allowed = [name for name, ok in (("year", has_year), ("venue", has_venue), ("file", True)) if ok]
    if value in allowed or (value not in GROUP_BY_NAMES and value in columns):
        return
    others = [c for c in columns if c not in GROUP_BY_NAMES]
    choices = ", ".join(allowed[:-1]) + (" or " if len(allowed) > 1 else "") + allowed[-1]
    if others:
        choices = ", ".join(allowed) + f" or a column of the input ({', '.join(others)})"
    raise SettingsError(f"must be {choices}, got {value!r}", setting="group_by")


def check_whole(value: Any, name: str, *, minimum: int, optional: bool = False) -> None:
    """Raise :class:`SettingsError` unless ``value`` is a whole number of at least ``minimum`` (or ``None``).

    Parameters
    ----------
    value : object
        The value given.
    name : str
        The setting's name (a key of :data:`OPTIONS`).
    minimum : int
        The smallest value allowed.
    optional : bool
        Whether ``None`` is allowed.

    Returns
    -------
    None
        Raises :class:`SettingsError` instead when ``value`` is outside what the setting allows.

    Examples
    --------
    >>> check_whole(3, "themes", minimum=1)
    >>> check_whole(2.5, "min_occurrences", minimum=1)
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: --min-occurrences: must be a whole number of at least 1, got 2.5
    """
    if value is None and optional:
        return
    whole = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if not whole or value < minimum:
        raise SettingsError(f"must be a whole number of at least {minimum}, got {value!r}", setting=name)


def check_share(value: Any, name: str) -> None:
    """Raise :class:`SettingsError` unless ``value`` is a number above 0 and at most 1.

    Parameters
    ----------
    value : object
        The share given.
    name : str
        The setting's name (a key of :data:`OPTIONS`).

    Returns
    -------
    None
        Raises :class:`SettingsError` instead when ``value`` is no share in (0, 1].

    Examples
    --------
    >>> check_share(0.6, "relevant_share")
    >>> check_share(0, "relevant_share")
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: --relevant-share: must be a number above 0 and at most 1, got 0
    """
    number = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
    if not number or not 0 < value <= 1:
        raise SettingsError(f"must be a number above 0 and at most 1, got {value!r}", setting=name)


#: The engines ``analyse --engine`` runs on.
ENGINES = ("local", "dask")
_SCHEDULER = re.compile(r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})")


@dataclass(frozen=True)
class EngineSettings:
    """Where the analysis runs; never part of the cache key, as the results do not depend on it.

    Attributes
    ----------
    engine : str
        ``"local"`` (this process and its own workers, the default) or ``"dask"`` (a Dask cluster:
        :mod:`helpers.analysis.pipeline.dask_engine`).
    scheduler : str or None
        Address ``tcp://HOST:PORT`` (or ``tls://``) of a running Dask scheduler; ``None`` with the
        dask engine starts a local cluster for the run. A scheduler implies the dask engine.
    partitions : int or None
        Partitions of the papers on the dask engine (default: two per worker).

    Examples
    --------
    >>> EngineSettings(scheduler="tcp://10.0.0.5:8786").engine
    'dask'
    >>> EngineSettings(engine="spark")
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: --engine: must be one of local, dask, got 'spark'
    >>> EngineSettings(scheduler="10.0.0.5:8786")
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: --scheduler: must be an address tcp://HOST:PORT (or tls://HOST:PORT), got '10.0.0.5:8786'
    """

    engine: str = "local"
    scheduler: str | None = None
    partitions: int | None = None

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise SettingsError(f"must be one of {', '.join(ENGINES)}, got {self.engine!r}", setting="engine")
        if self.scheduler is not None:
            match = isinstance(self.scheduler, str) and _SCHEDULER.fullmatch(self.scheduler)
            if not match or not 0 < int(match.group(3)) < 65536:
                raise SettingsError(f"must be an address tcp://HOST:PORT (or tls://HOST:PORT), got {self.scheduler!r}",
                                    setting="scheduler")
            object.__setattr__(self, "engine", "dask")
        if self.partitions is not None:
            whole = isinstance(self.partitions, (int, np.integer)) and not isinstance(self.partitions, bool)
            if not whole or self.partitions < 1:
                raise SettingsError(f"must be a whole number of at least 1, got {self.partitions!r}",
                                    setting="partitions")

    @classmethod
    def from_values(cls, engine: str | None = None, scheduler: str | None = None,
                    partitions: int | None = None) -> "EngineSettings":
        """The settings from CLI options or book settings (``None``: not given).

        Examples
        --------
        >>> EngineSettings.from_values("local", "tcp://h:1")
        Traceback (most recent call last):
        ...
        helpers.analysis.settings.SettingsError: --scheduler: needs the dask engine, got --engine local
        """
        if engine == "local" and scheduler is not None:
            raise SettingsError("needs the dask engine, got --engine local", setting="scheduler")
        return cls(engine=engine or "local", scheduler=scheduler, partitions=partitions)
