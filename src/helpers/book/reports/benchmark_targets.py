"""The benchmarks' stages and the targets they are held to (``benchmarks/targets.csv``), read for the Performance
page (:mod:`helpers.book.reports.performance`), and the one reader of a benchmark's result file
(:func:`read_results`), which the Performance and Validation pages share."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pandas as pd

from helpers.book.inputs import page_input

__all__ = ["TOTAL", "BASELINE", "LDA_REFERENCE", "STAGE_ORDER", "TARGETS_FILE", "Targets", "read_targets", "read_results"]

#: The whole command as a user runs it: ``python -m helpers analyse``, start to exit (median of three runs).
TOTAL = "analyse (command, start to exit)"
BASELINE = "baseline TfidfVectorizer"
LDA_REFERENCE = "reference LDA (15 topics)"
#: The command's stages as ``analyse --timings`` prints them, and ``start-up``: the rest of its time (imports,
#: reading the settings, leaving).
STAGE_ORDER = ["start-up", "parse", "text", "themes", "cooccurrence", "links", "change", "write"]
#: The targets the benchmarks are held to: ``name, limit, target`` (what is measured where), one row each.
TARGETS_FILE = "benchmarks/targets.csv"


@dataclass(frozen=True)
class Targets:
    """The limits of :data:`TARGETS_FILE`, by name (:func:`read_targets`).

    Attributes
    ----------
    max_lda_ratio : float
        On each real corpus, the command (start to exit) within this many LDA fits.
    max_ratio_20k, max_ratio_100k : float
        At 20,000 and 100,000 synthetic abstracts, the command within this many TF-IDF passes.
    max_peak_mib : float
        At the largest synthetic corpus, peak memory (the command's processes together, MiB).
    max_growth_per_tenfold : float
        Every stage between the two largest synthetic corpora: at most this many times slower for ten times the
        abstracts.
    min_timed_seconds : float
        Shorter stages are timer noise, not held to a growth target.
    max_dask_ratio : float
        ``make bench-large``: the dask engine within this factor of the local engine's wall time at 100,000 abstracts.
    max_large_gib : float
        ... and every process together within this memory (the machine's) at 1,000,000 abstracts: their largest
        resident memory at one time where measured, else the sum of each process's own peak (an upper bound).
    max_stage_growth : float
        ... and every stage (of at least ``min_timed_seconds`` at 100,000) within this factor from 100,000 to
        1,000,000.
    max_book_seed_seconds, max_book_years_seconds : float
        A cold ``make book`` (empty build folder and analysis cache, warm virtual environment) on the seed and on
        ICML 2023-2025 within this many seconds (``benchmarks/book_results.csv``).
    max_notebook_page_seconds : float
        The slowest page re-run as a notebook as ``make lab`` runs it (a new kernel, every cell), the analysis
        cached, within this many seconds (``benchmarks/book_results.csv``).

    Examples
    --------
    >>> read_targets().max_peak_mib > 0
    True
    """

    max_lda_ratio: float
    max_ratio_20k: float
    max_ratio_100k: float
    max_peak_mib: float
    max_growth_per_tenfold: float
    min_timed_seconds: float
    max_dask_ratio: float
    max_large_gib: float
    max_stage_growth: float
    max_book_seed_seconds: float
    max_book_years_seconds: float
    max_notebook_page_seconds: float

    @property
    def max_ratio_at(self) -> dict[int, float]:
        """The whole analysis within this many TF-IDF passes, by corpus size."""
        return {20_000: self.max_ratio_20k, 100_000: self.max_ratio_100k}


def read_targets(path: str = TARGETS_FILE) -> Targets:
    """The benchmarks' targets (a page input, :func:`helpers.book.inputs.page_input`).

    Parameters
    ----------
    path : str, optional
        The targets file, relative to the book's root.

    Returns
    -------
    Targets

    Examples
    --------
    >>> read_targets().max_ratio_at
    {20000: 4.0, 100000: 3.0}

    Raises
    ------
    ValueError
        When the file lacks a target or names one this module does not know.
    """
    table = pd.read_csv(page_input(path))
    limits = dict(zip(table["name"], table["limit"]))
    names = [field.name for field in fields(Targets)]
    if set(limits) != set(names):
        raise ValueError(f"{path}: the targets must be exactly {', '.join(names)}; "
                         f"missing {sorted(set(names) - set(limits))}, unknown {sorted(set(limits) - set(names))}")
    return Targets(**{name: float(limits[name]) for name in names})


def read_results(path: str | Path, *, root: Path | None = None, **options: Any) -> pd.DataFrame | None:
    """A benchmark's result file, or ``None`` when the benchmark has not been run (the file is absent).

    Parameters
    ----------
    path : str or Path
        The file, relative to the book's root (``"benchmarks/results.csv"``): a page input
        (:func:`helpers.book.inputs.page_input`).
    root : Path, optional
        The book's root (default: the book's own).
    **options
        Passed to :func:`pandas.read_csv` (``keep_default_na=False``, ...).

    Returns
    -------
    DataFrame or None
        The file's rows as written.

    Examples
    --------
    >>> read_results(TARGETS_FILE)["name"].iloc[0], read_results(TARGETS_FILE, root=Path("/nonexistent"))
    ('max_lda_ratio', None)
    """
    file = page_input(path, root=None if root is None else Path(root))
    return pd.read_csv(file, **options) if file.is_file() else None
