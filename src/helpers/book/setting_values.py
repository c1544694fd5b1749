"""One setting of the book's environment read and checked: numbers, the web address, the researcher's files.

:meth:`helpers.book.settings.BookConfig.from_environment` reads every variable through these, so a bad value
is one line naming the variable and what it must be.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from helpers.analysis.settings import SettingsError

__all__ = ["whole_number", "number", "base_url", "checked_theme_file", "vocabulary_files"]


def _converted(environment: Mapping[str, str], name: str, convert: type, what: str):
    """``environment[name]`` converted by ``convert`` (``int`` or ``float``), ``None`` when unset or blank."""
    value = environment.get(name, "").strip()
    if not value:
        return None
    try:
        return convert(value)
    except ValueError:
        raise SettingsError(f"{name}: must be {what}, got {value!r}") from None


def whole_number(environment: Mapping[str, str], name: str) -> int | None:
    """``environment[name]`` as a whole number, ``None`` when unset or blank.

    Parameters
    ----------
    environment
        Environment variables.
    name
        The variable (``THEMES_K``, ``BOOK_SEED``, ...).

    Returns
    -------
    int or None
        The number.

    Examples
    --------
    >>> whole_number({"THEMES_K": " 8 "}, "THEMES_K"), whole_number({}, "THEMES_K")
    (8, None)
    >>> whole_number({"THEMES_K": "eight"}, "THEMES_K")
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: THEMES_K: must be a whole number, got 'eight'
    """
    return _converted(environment, name, int, "a whole number")


def number(environment: Mapping[str, str], name: str) -> float | None:
    """``environment[name]`` as a number, ``None`` when unset or blank.

    Parameters
    ----------
    environment, name
        As :func:`whole_number` takes them (``BOOK_RELEVANT_SHARE``).

    Returns
    -------
    float or None
        The number.

    Examples
    --------
    >>> number({"BOOK_RELEVANT_SHARE": "0.5"}, "BOOK_RELEVANT_SHARE")
    0.5
    """
    return _converted(environment, name, float, "a number")


def base_url(value: str | None) -> str | None:
    """``BOOK_BASE_URL`` checked and ending in ``/``; ``None`` when unset or blank.

    Parameters
    ----------
    value
        ``BOOK_BASE_URL`` as set.

    Returns
    -------
    str or None
        The address, ending in ``/``.

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


def checked_theme_file(path: Path) -> str:
    """``path`` as a setting, once it reads as a theme file (a malformed one is a one-line
    :class:`helpers.analysis.themes.theme_file.ThemeFileError`, before any build).

    Parameters
    ----------
    path
        The theme file.

    Returns
    -------
    str
        ``path`` as the analysis settings hold it.

    Examples
    --------
    >>> checked_theme_file(Path("no/such/themes.tsv"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    helpers.analysis.themes.theme_file.ThemeFileError: ...themes.tsv: cannot be read (No such file or directory)
    """
    from helpers.analysis.themes.theme_file import read_theme_file  # lazy: keeps this module's import light

    read_theme_file(path)
    return str(path)


def vocabulary_files(thesaurus: Path | None, stop_terms: Path | None) -> Any:
    """The researcher's files, their form checked and their bytes hashed
    (:class:`helpers.analysis.text.vocabulary_files.VocabularyFiles`: their terms are spelled where the analysis runs, so a
    page that shows cached results reads no dictionary); ``None`` without either.

    Parameters
    ----------
    thesaurus, stop_terms
        ``BOOK_THESAURUS`` and ``BOOK_STOP_TERMS``, as paths.

    Returns
    -------
    VocabularyFiles or None
        The files, checked.

    Examples
    --------
    >>> vocabulary_files(None, None) is None
    True
    """
    if thesaurus is None and stop_terms is None:
        return None
    from helpers.analysis.text.vocabulary_files import VocabularyFiles  # lazy: keeps this module's import light

    return VocabularyFiles.check(thesaurus, stop_terms)
