"""CSV files that are safe to open in a spreadsheet: no cell the project writes starts a formula.

Excel and LibreOffice run a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in some versions, a
tab or carriage return) as a formula, so a title such as ``=HYPERLINK("https://…"&A1)`` taken from an input
file would run when ``papers.csv`` is opened. Every CSV the project writes goes through
:func:`formula_safe`: such a text cell is written with an apostrophe in front (``'=HYPERLINK(…)``), which
spreadsheets show as text and hide the apostrophe of; numbers are never changed. Parquet files keep the
values as read.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO

import pandas as pd

__all__ = ["FORMULA_STARTS", "formula_safe", "write_csv"]

#: The first characters that make a spreadsheet read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_safe(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with an apostrophe before every text cell that starts with one of :data:`FORMULA_STARTS`
    (the same object when there is none).

    Parameters
    ----------
    table : DataFrame
        A table about to be written as CSV.

    Returns
    -------
    DataFrame
        The table with such cells guarded.

    Examples
    --------
    >>> table = pd.DataFrame({"title": ['=HYPERLINK("x")', "@SUM(1+1)", "A title", ""], "n": [-1, 2, 3, 4]})
    >>> formula_safe(table)["title"].tolist(), formula_safe(table)["n"].tolist()
    (['\\'=HYPERLINK("x")', "'@SUM(1+1)", 'A title', ''], [-1, 2, 3, 4])
    >>> safe = pd.DataFrame({"title": ["fine"]}); formula_safe(safe) is safe
    True
    """
    changed = {}
    for name in table.columns:
        column = table[name]
        if not (pd.api.types.is_object_dtype(column) or pd.api.types.is_string_dtype(column)):
            continue
        first = column.str[:1] if pd.api.types.is_string_dtype(column) else column.map(
            lambda value: value[:1] if isinstance(value, str) else "")
        mask = first.isin(FORMULA_STARTS).fillna(False).astype(bool)
        if mask.any():
            changed[name] = column.where(~mask, "'" + column.astype(str))
    return table.assign(**changed) if changed else table


def write_csv(table: pd.DataFrame, target: str | Path | IO[str], **options) -> None:
    """``table`` written as CSV (no index, ``\\n`` line ends) after :func:`formula_safe`; ``options`` go to
    :meth:`pandas.DataFrame.to_csv`.

    Parameters
    ----------
    table : DataFrame
        The table.
    target : str, Path or text file
        Where to write it.
    **options
        More options of :meth:`pandas.DataFrame.to_csv`.

    Returns
    -------
    None

    Examples
    --------
    >>> import io
    >>> buffer = io.StringIO()
    >>> write_csv(pd.DataFrame({"title": ["=1+1"], "n": [-1]}), buffer)
    >>> buffer.getvalue()
    "title,n\\n'=1+1,-1\\n"
    """
    formula_safe(table).to_csv(target, **{"index": False, "lineterminator": "\n", **options})
