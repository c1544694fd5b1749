"""The Performance page's tables of ``benchmarks/results.csv``: time per stage and corpus, each stage's growth with
the corpus, and the paper explorer's readiness.

Numbers are formatted here, at the last step, so the tables stay narrow enough for the page's column; the
targets they are checked against are in :mod:`helpers.book.reports.performance`.
"""

from __future__ import annotations

import pandas as pd

from helpers.book.formatting import corpus_name
from helpers.book.reports.benchmark_targets import BASELINE, LDA_REFERENCE, STAGE_ORDER, TOTAL

__all__ = ["LDA_FIT", "TFIDF_PASS", "STAGE_COLUMNS", "synthetic", "real", "stage_growth", "growth_table", "stages_table", "explorer_table"]

LDA_FIT, TFIDF_PASS = "one LDA fit", "TF-IDF pass"


def synthetic(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of synthetic corpora.

    Parameters
    ----------
    results : DataFrame
        Benchmark rows with a ``corpus`` column.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> synthetic(pd.DataFrame({"corpus": ["synthetic", "icml-2023-2025"]}))["corpus"].tolist()
    ['synthetic']
    """
    return results[results["corpus"] == "synthetic"]


def real(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of real corpora.

    Parameters
    ----------
    results : DataFrame
        Benchmark rows; every corpus but ``synthetic`` is real.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> real(pd.DataFrame({"corpus": ["synthetic", "seed"]}))["corpus"].tolist()
    ['seed']
    """
    return results[results["corpus"] != "synthetic"]


def stage_growth(results: pd.DataFrame) -> pd.DataFrame:
    """How much each stage's time grows from the second-largest to the largest corpus.

    Columns ``stage, seconds_small, seconds_large, size_ratio, growth``;
    ``growth`` is the time ratio, to compare with ``size_ratio`` (linear
    growth gives equal numbers).

    Parameters
    ----------
    results : DataFrame
        The rows of ``benchmarks/results.csv``, of two corpus sizes or more.

    Returns
    -------
    DataFrame
        One row per stage timed at both sizes.

    Examples
    --------
    >>> table = pd.DataFrame({"n_abstracts": [10, 10, 100, 100], "stage": ["parse", "themes"] * 2,
    ...                       "seconds": [1.0, 4.0, 10.0, 8.0]})
    >>> stage_growth(table)[["stage", "size_ratio", "growth"]].values.tolist()
    [['parse', 10.0, 10.0], ['themes', 10.0, 2.0]]
    """
    sizes = sorted(results["n_abstracts"].unique())
    if len(sizes) < 2:
        return pd.DataFrame(columns=["stage", "seconds_small", "seconds_large", "size_ratio", "growth"])
    small, large = sizes[-2], sizes[-1]
    table = results.pivot_table(index="stage", columns="n_abstracts", values="seconds", aggfunc="first")
    growth = pd.DataFrame({
        "stage": table.index,
        "seconds_small": table[small].to_numpy(),
        "seconds_large": table[large].to_numpy(),
    })
    growth["size_ratio"] = float(large / small)
    growth["growth"] = (growth["seconds_large"] / growth["seconds_small"]).round(2)
    order = {stage: i for i, stage in enumerate(STAGE_ORDER + [TOTAL, BASELINE, LDA_REFERENCE])}
    growth = growth.sort_values("stage", key=lambda s: s.map(order).fillna(len(order)), ignore_index=True)
    return growth


def growth_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`stage_growth` of the synthetic corpora as the page shows it: the stages measured at both sizes, each
    with its seconds at each size and how many times longer it took for how many times the abstracts.

    Parameters
    ----------
    results : DataFrame
        The rows of ``benchmarks/results.csv`` (the synthetic corpora's are read).

    Returns
    -------
    DataFrame
        Empty with fewer than two synthetic sizes.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": "synthetic", "n_abstracts": [10, 10, 100, 100],
    ...                       "stage": ["parse", "themes"] * 2, "seconds": [1.0, 4.0, 10.0, 8.0]})
    >>> growth_table(table).to_dict("list")
    {'stage': ['parse', 'themes'], 'seconds, 10': ['1.00', '4.00'], 'seconds, 100': ['10.0', '8.00'], \
'abstracts ×': ['10', '10'], 'time ×': ['10.0', '2.0']}
    """
    made = synthetic(results)
    sizes = sorted(made["n_abstracts"].unique())
    growth = stage_growth(made).dropna(subset=["growth"])
    if len(sizes) < 2 or growth.empty:
        return pd.DataFrame()
    labels = {BASELINE: TFIDF_PASS, **STAGE_COLUMNS}
    return pd.DataFrame({
        "stage": growth["stage"].map(lambda stage: labels.get(stage, stage)),
        f"seconds, {sizes[-2]:,}": growth["seconds_small"].map(_seconds),
        f"seconds, {sizes[-1]:,}": growth["seconds_large"].map(_seconds),
        "abstracts ×": growth["size_ratio"].map(lambda ratio: f"{ratio:g}"),
        "time ×": growth["growth"].map(_ratio),
    })


#: The stages of ``analyse`` as the stage table's columns, in order.
STAGE_COLUMNS = {**{stage: stage for stage in STAGE_ORDER}, "cooccurrence": "co-occurrence", TOTAL: "command"}


def stages_table(results: pd.DataFrame) -> pd.DataFrame:
    """``benchmarks/results.csv`` as the page shows it: one row per stage (seconds), then the whole command as a
    multiple of the TF-IDF pass and of one LDA fit and its peak memory (MiB), one column per corpus — narrow
    enough for the page's column however many stages there are.

    Parameters
    ----------
    results : DataFrame
        The rows of ``benchmarks/results.csv``.

    Returns
    -------
    DataFrame
        ``stage`` then one column per corpus.

    Examples
    --------
    >>> rows = [("c", 10, stage, 1.234, 2.0, 0.5, 300.0) for stage in ("parse", TOTAL)]
    >>> results = pd.DataFrame(rows, columns=["corpus", "n_abstracts", "stage", "seconds", "ratio_to_baseline",
    ...                                       "ratio_to_lda", "peak_rss_mib"])
    >>> stages_table(results).to_dict("list")
    {'stage': ['parse', 'command', '× TF-IDF', '× LDA', 'peak MiB'], 'c, 10': ['1.23', '1.23', '2.0', '0.5', '300']}
    """
    order = list(dict.fromkeys(zip(results["corpus"], results["n_abstracts"])))
    stages = results[results["stage"].isin(STAGE_COLUMNS)]
    seconds = stages.pivot_table(index="stage", columns=["corpus", "n_abstracts"], values="seconds", aggfunc="first")
    seconds = seconds.reindex(index=[s for s in STAGE_COLUMNS if s in seconds.index], columns=order)
    whole = results[results["stage"] == TOTAL].set_index(["corpus", "n_abstracts"]).reindex(order)
    rows = {STAGE_COLUMNS[stage]: [_seconds(value) for value in seconds.loc[stage]] for stage in seconds.index}
    rows["× TF-IDF"] = [_ratio(value) for value in whole["ratio_to_baseline"]]
    rows["× LDA"] = [_ratio(value) for value in whole["ratio_to_lda"]]
    rows["peak MiB"] = ["—" if pd.isna(value) else f"{value:,.0f}" for value in whole["peak_rss_mib"]]
    columns = [f"{corpus_name(corpus)}, {size:,}" for corpus, size in order]
    table = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    return table.rename_axis("stage").reset_index()


def _seconds(value: float) -> str:
    """Seconds as the stage table shows them: three significant figures at most, ``—`` when not measured."""
    return "—" if pd.isna(value) else f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:,.0f}"


def _ratio(value: float) -> str:
    return "—" if pd.isna(value) else f"{value:.1f}"


def explorer_table(explorer: pd.DataFrame) -> pd.DataFrame:
    """The explorer's readiness as the page shows it: abstracts, papers shown, seconds until the search answers,
    page height and data file size.

    Parameters
    ----------
    explorer : DataFrame
        :func:`helpers.book.reports.performance_checks.explorer_readiness`' table.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> table = pd.DataFrame({"n_abstracts": [3000], "n_shown": [3000], "seconds": [0.6], "page_height_px": [4544],
    ...                       "data_file_mib": [2.5], "met": [True]})
    >>> explorer_table(table)["target"].tolist()
    ['met']
    """
    names = {"n_abstracts": "abstracts", "n_shown": "papers shown", "seconds": "seconds to answer",
             "page_height_px": "page height (px)", "data_file_mib": "data file (MiB)", "met": "target"}
    table = explorer[list(names)].rename(columns=names)
    table["target"] = table["target"].map({True: "met", False: "missed"})
    return table
