"""One formatting layer for every number and counted phrase the book prints.

Glued values (:func:`helpers.book.display.glue_all`) and table cells (:func:`display_table`) go through
these functions, so a page never shows ``17625`` beside ``17,625``, ``2590.000`` MiB, ``True`` or
"1 files".

Rules
-----
- Integers get thousands separators (``3,166``, ``17,625``); columns and glued names that hold years or
  other labels written as numbers keep their digits (``2024``).
- Floats: at least 100 → no decimals (``2,590``, ``12,500``), at least 10 → one decimal (``12.5``), smaller → the
  table's or caller's precision (three decimals by default, ``0.276``).
- Booleans are words (``yes``/``no``); a missing value is an em dash.
- Shares are percentages (:func:`percent`), changes of shares signed percentage points (:func:`points`), with
  their interval (:func:`interval`) and p-value (:func:`p_text`).
- A count and its noun agree: :func:`count` (``1 file``, ``3 files``, ``1 analysis``, ``2 analyses``).
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["MISSING", "IRREGULAR_PLURALS", "LABEL_NUMBER_COLUMNS", "CORPUS_NAMES", "plural", "number", "count",
           "percent", "points", "level_text", "interval", "p_text", "share_and_interval", "display_table",
           "corpus_name"]

MISSING = "\u2014"
"""What the book shows for a missing value (an em dash, never "nan")."""

#: Nouns whose plural is not the noun plus "s" (or "es" after s, x, z, ch, sh).
IRREGULAR_PLURALS = {
    "analysis": "analyses", "hypothesis": "hypotheses", "index": "indices", "matrix": "matrices",
    "child": "children", "person": "people", "is": "are", "has": "have", "was": "were",
    "contains": "contain", "says": "say", "gives": "give", "promises": "promise", "uses": "use",
    "links": "link", "does": "do", "claims": "claim", "holds": "hold",
}


def plural(noun: str, n: float = 2) -> str:
    """``noun`` in the form that agrees with ``n`` (the last word is inflected).

    Parameters
    ----------
    noun : str
        The noun (or phrase, or verb of a counted subject) in the singular.
    n : float, optional
        The number it agrees with (default: a plural).

    Returns
    -------
    str

    Examples
    --------
    >>> plural("file", 1), plural("file", 3), plural("linked paper", 2), plural("analysis", 0)
    ('file', 'files', 'linked papers', 'analyses')
    >>> plural("box", 2), plural("contains", 2), plural("contains", 1)
    ('boxes', 'contain', 'contains')
    """
    if n == 1:
        return noun
    head, _, last = noun.rpartition(" ")
    if last in IRREGULAR_PLURALS:
        inflected = IRREGULAR_PLURALS[last]
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        inflected = last + "es"
    elif last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        inflected = last[:-1] + "ies"
    else:
        inflected = last + "s"
    return f"{head} {inflected}" if head else inflected


def number(value: Any, *, precision: int = 3) -> str:
    """One number as the book prints it (see the module's rules).

    Parameters
    ----------
    value : Any
        An integer, float, boolean or missing value; anything else is printed as ``str``.
    precision : int, optional
        Decimals of a float under 10.

    Returns
    -------
    str

    Examples
    --------
    >>> number(17625), number(999), number(-12000), number(2590.0), number(12.54), number(0.27604)
    ('17,625', '999', '-12,000', '2,590', '12.5', '0.276')
    >>> number(True), number(float("nan")), number(None), number(0.5, precision=2)
    ('yes', '—', '—', '0.50')
    """
    if value is None:
        return MISSING
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, Integral):
        value = int(value)
        return f"{value:,}"
    if isinstance(value, Real):
        value = float(value)
        if math.isnan(value):
            return MISSING
        if math.isinf(value):
            return "∞" if value > 0 else "-∞"
        if abs(value) >= 100:
            rounded = round(value)
            return f"{rounded:,}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.{precision}f}"
    return str(value)


def count(n: int, noun: str, *, plural_form: str | None = None) -> str:
    """``n`` and ``noun``, agreeing: the one way the book writes a counted phrase.

    Parameters
    ----------
    n : int
        How many.
    noun : str
        What is counted, in the singular.
    plural_form : str, optional
        The plural where :func:`plural` would not give it.

    Returns
    -------
    str

    Examples
    --------
    >>> count(1, "file"), count(3, "file"), count(0, "linked paper"), count(12000, "abstract")
    ('1 file', '3 files', '0 linked papers', '12,000 abstracts')
    >>> count(2, "datum", plural_form="data")
    '2 data'
    """
    word = noun if n == 1 else (plural_form or plural(noun, n))
    return f"{number(int(n))} {word}"


def percent(share: float, *, decimals: int = 0) -> str:
    """A share in [0, 1] as a percentage.

    Parameters
    ----------
    share : float
        The share; a missing one (NaN or None) is :data:`MISSING`, on every page.
    decimals : int, optional
        Decimals of the percentage.

    Returns
    -------
    str

    Examples
    --------
    >>> percent(0.1496), percent(0.1496, decimals=1), percent(float("nan"))
    ('15%', '15.0%', '—')
    """
    if share is None or (isinstance(share, float) and math.isnan(share)):
        return MISSING
    return f"{100 * share:.{decimals}f}%"


def points(change: float) -> str:
    """A difference of shares in percentage points, signed.

    Parameters
    ----------
    change : float
        A difference of two shares, each in [0, 1].

    Returns
    -------
    str

    Examples
    --------
    >>> points(0.113881), points(-0.0723), points(0.0)
    ('+11.4 points', '-7.2 points', '+0.0 points')
    """
    return f"{100 * change:+.1f} points"


def level_text(level: float) -> str:
    """A confidence as a percentage, with as many decimals as it has (up to three).

    Parameters
    ----------
    level : float
        The confidence, in (0, 1).

    Returns
    -------
    str

    Examples
    --------
    >>> level_text(0.95), level_text(0.9875), level_text(0.991667)
    ('95%', '98.75%', '99.167%')
    """
    return f"{round(100 * level, 3):g}%"


def interval(low: float, high: float, unit: str = "", level: float = 0.95) -> str:
    """``"95% interval 5.8 to 17.8"`` from shares (as percentages or points).

    Parameters
    ----------
    low, high : float
        The interval's ends, as shares (or differences of shares).
    unit : str, optional
        ``"%"`` for shares; else the unit after the signed ends (``" points"``).
    level : float, optional
        The interval's confidence.

    Returns
    -------
    str

    Examples
    --------
    >>> interval(0.057918, 0.177908, " points"), interval(0.1, 0.2, "%")
    ('95% interval +5.8 to +17.8 points', '95% interval 10.0% to 20.0%')
    >>> interval(0.01, 0.2, " points", 0.9875)
    '98.75% interval +1.0 to +20.0 points'
    """
    if unit == "%":
        return f"{level_text(level)} interval {100 * low:.1f}% to {100 * high:.1f}%"
    return f"{level_text(level)} interval {100 * low:+.1f} to {100 * high:+.1f}{unit}"


def p_text(p: float) -> str:
    """A p-value with three significant digits, or ``"< 0.001"`` below that (APA style).

    Parameters
    ----------
    p : float
        The p-value.

    Returns
    -------
    str

    Examples
    --------
    >>> p_text(0.0421), p_text(0.00108), p_text(0.0), p_text(1.0)
    ('0.0421', '0.00108', '< 0.001', '1')
    """
    return "< 0.001" if p < 0.001 else f"{p:.3g}"


def share_and_interval(share: float, low: float, high: float) -> tuple[str, str]:
    """A share and its interval ("low to high") as percentages with one number of decimals: whole percentages,
    unless the share lies strictly between 0 and 1 but would print as 0% or 100% (1 of 729 papers), then one
    decimal for it and its interval alike.

    Parameters
    ----------
    share, low, high : float
        The share and its interval's ends, in [0, 1].

    Returns
    -------
    tuple of str
        The share and ``"low to high"``.

    Examples
    --------
    >>> share_and_interval(1 / 729, 0.00024, 0.0077), share_and_interval(0.1496, 0.10, 0.21)
    (('0.1%', '0.0% to 0.8%'), ('15%', '10% to 21%'))
    """
    whole = round(100 * share)
    decimals = 1 if 0 < share < 1 and whole in (0, 100) else 0
    return percent(share, decimals=decimals), f"{percent(low, decimals=decimals)} to {percent(high, decimals=decimals)}"


#: Columns that hold years or other labels written as numbers: never given thousands separators.
LABEL_NUMBER_COLUMNS = ("year", "group", "theme", "community", "k", "seed", "http_code", "rank")


def _is_label_column(name: Any) -> bool:
    words = str(name).lower().replace("_", " ").split()
    return any(word in LABEL_NUMBER_COLUMNS for word in words)


def display_table(table: pd.DataFrame, *, precision: int = 3) -> pd.DataFrame:
    """A copy of ``table`` with every number, boolean and missing value as the book prints it.

    Columns of labels written as numbers (years, theme numbers, ``k``; :data:`LABEL_NUMBER_COLUMNS`)
    keep their digits as they are. Text columns are left unchanged (escaping is the caller's job).

    Parameters
    ----------
    table : DataFrame
        Any table; its index and column names are kept.
    precision : int, optional
        Decimals of floats under 10.

    Returns
    -------
    DataFrame
        Text cells (object dtype).

    Examples
    --------
    >>> t = pd.DataFrame({"year": [2024], "papers": [12345], "mib": [2590.0], "ok": [True], "f": [0.12345]})
    >>> display_table(t).iloc[0].tolist()
    ['2024', '12,345', '2,590', 'yes', '0.123']
    """
    columns = []
    for position, column in enumerate(table.columns):
        values = table.iloc[:, position]
        if pd.api.types.is_bool_dtype(values):
            shown = [number(bool(v)) if not pd.isna(v) else MISSING for v in values]
        elif pd.api.types.is_numeric_dtype(values):
            if _is_label_column(column):
                shown = [MISSING if pd.isna(v) else str(int(v)) if float(v).is_integer() else str(v) for v in values]
            else:
                shown = [number(v.item() if isinstance(v, np.generic) else v, precision=precision) for v in values]
        elif values.dtype == object:
            shown = [number(v, precision=precision) if isinstance(v, (bool, np.bool_, float, np.floating))
                     else MISSING if v is None else v for v in values]
        else:
            shown = list(values)
        columns.append(pd.Series(shown, index=table.index, dtype=object))
    result = pd.concat(columns, axis=1) if columns else table.copy()
    result.columns = table.columns
    return result


#: How the book names the labelled corpora its validation and benchmarks were measured on.
CORPUS_NAMES = {
    "icml2024-dev": "ICML 2024 sample",
    "icml-2023-2025": "ICML 2023–2025",
    "pmlr-v235-sample": "PMLR v235 sample",
    "icml2024-dev + pmlr-v235-sample": "ICML 2024 sample + PMLR v235 sample",
    "held-out icml2023 + icml2025 (own labels)": "held-out ICML 2023 + 2025",
    "seed (data/raw)": "seed",
    "seed corpus": "the seed corpus",
    "synthetic (benchmarks/generate.py)": "synthetic",
    "all real": "all real ICML",
}


def corpus_name(name: str) -> str:
    """A benchmark or evaluation corpus as the book names it (:data:`CORPUS_NAMES`; others as given).

    Parameters
    ----------
    name : str
        The corpus as the result files name it.

    Returns
    -------
    str

    Examples
    --------
    >>> corpus_name("icml2024-dev"), corpus_name("synthetic")
    ('ICML 2024 sample', 'synthetic')
    """
    return CORPUS_NAMES.get(str(name), str(name))
