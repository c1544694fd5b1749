"""The web layer's shipped files (``static/``) and the one JSON escaper for data inside pages.

The browser programs are real files, ``static/*.js`` and ``static/*.css``, linted and unit-tested
under ``tests/js`` (ESLint, ``node --test``); Python reads them as package data and inlines them, so a
page needs no file of its own and works opened from disk. Only data is filled in, as
:func:`script_json`.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from jinja2.utils import htmlsafe_json_dumps

STATIC_PACKAGE = "helpers.web"
STATIC_FOLDER = "static"


def static_text(name: str) -> str:
    """The text of ``static/<name>``, a file shipped with the package.

    Parameters
    ----------
    name
        The file's name in ``static/``.

    Returns
    -------
    str
        Its UTF-8 text.

    Examples
    --------
    >>> static_text("explorer.css").splitlines()[1]
    '.bd-main .bd-content .bd-article-container { max-width: none; }'
    """
    return resources.files(STATIC_PACKAGE).joinpath(STATIC_FOLDER, name).read_text(encoding="utf-8")


def inline_script(source: str, *, name: str = "script") -> str:
    """``source`` as one inline ``<script>``; it must hold nothing that would end the element early.

    Parameters
    ----------
    source
        The script.
    name
        The script's name, for the error.

    Returns
    -------
    str
        The ``<script>`` element.

    Raises
    ------
    ValueError
        When ``source`` holds ``</script`` or ``<!--`` (any case), naming the script.

    Examples
    --------
    >>> inline_script("var a = 1;\\n")
    '<script>\\nvar a = 1;\\n</script>'
    >>> inline_script("x = '</SCRIPT>';", name="bad.js")
    Traceback (most recent call last):
    ...
    ValueError: bad.js cannot be inlined: it holds '</script' or '<!--'
    """
    lowered = source.lower()
    if "</script" in lowered or "<!--" in lowered:
        raise ValueError(f"{name} cannot be inlined: it holds '</script' or '<!--'")
    return f"<script>\n{source}</script>"


def script_json(value: Any, *, ascii_only: bool = False) -> str:
    """Compact JSON safe inside any ``<script>``: ``<``, ``>``, ``&``, ``'`` as ``\\u`` escapes (jinja2's ``tojson``).

    Keys keep their order (the callers build them in a fixed order); ``ascii_only`` also writes every
    non-ASCII character as a ``\\u`` escape, for files written as ASCII. NaN and infinities are refused.

    Parameters
    ----------
    value
        JSON-serialisable data (NaN and infinities are refused).
    ascii_only
        Also escape every non-ASCII character.

    Returns
    -------
    str
        The JSON text.

    Examples
    --------
    >>> script_json({"t": "</script><b>&'é"})
    '{"t":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026\\\\u0027é"}'
    >>> script_json({"t": "é·"}, ascii_only=True)
    '{"t":"\\\\u00e9\\\\u00b7"}'
    """
    return str(htmlsafe_json_dumps(value, ensure_ascii=ascii_only, separators=(",", ":"), allow_nan=False))
