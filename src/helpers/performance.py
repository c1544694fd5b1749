"""Benchmark results (``benchmarks/results.csv``) checked against the targets they are held to.

``make bench`` writes one row per corpus size and stage: ``n_abstracts, stage,
seconds, ratio_to_baseline`` plus peak memory. These functions turn that table
into what the Performance page shows: the growth of each stage and the targets
met or missed.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["TOTAL", "BASELINE", "STAGE_ORDER", "stage_growth", "targets"]

TOTAL = "analyse (all stages)"
BASELINE = "baseline TfidfVectorizer"
STAGE_ORDER = ["parse", "corpus", "text", "themes", "cooccurrence", "links", "write"]
MAX_TOTAL_RATIO = 5.0
MAX_PEAK_MIB = 4096
MAX_GROWTH_PER_TENFOLD = 12.0
MIN_TIMED_SECONDS = 1.0  # shorter stages are timer noise, not held to the growth target


def stage_growth(results: pd.DataFrame) -> pd.DataFrame:
    """How much each stage's time grows from the second-largest to the largest corpus.

    Columns ``stage, seconds_small, seconds_large, size_ratio, growth``;
    ``growth`` is the time ratio, to compare with ``size_ratio`` (linear
    growth gives equal numbers).

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
    order = {stage: i for i, stage in enumerate(STAGE_ORDER + [TOTAL, BASELINE])}
    growth = growth.sort_values("stage", key=lambda s: s.map(order).fillna(len(order)), ignore_index=True)
    return growth


def targets(results: pd.DataFrame) -> pd.DataFrame:
    """The benchmark targets at the largest corpus measured: ``target, measured, limit, met``.

    * the whole analysis within 5 times the baseline;
    * peak memory (main process plus workers) under 4 GiB;
    * parsing faster than the baseline;
    * every stage close to linear: at most 12 times slower for 10 times the abstracts
      (the limit scales with the size ratio of the two largest corpora); stages
      shorter than a second at the largest size are left out.

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "n_abstracts": [10] * 3 + [100] * 3, "stage": ["parse", TOTAL, BASELINE] * 2,
    ...     "seconds": [1.0, 3.0, 1.0, 9.0, 30.0, 10.0], "ratio_to_baseline": [1, 3, 1, 0.9, 3, 1],
    ...     "peak_rss_mib": [10.0] * 6, "worker_peak_rss_mib": [5.0] * 6})
    >>> targets(table)[["target", "met"]].values.tolist()
    [['whole analysis / baseline', True], ['peak memory (MiB)', True], ['parse / baseline', True], \
['parse growth, 100 vs 10 abstracts', True]]
    """
    largest = results[results["n_abstracts"] == results["n_abstracts"].max()].set_index("stage")
    peak = float(largest["peak_rss_mib"].iloc[0])
    if "worker_peak_rss_mib" in largest:
        peak += float(largest["worker_peak_rss_mib"].fillna(0).iloc[0])
    rows = [
        ("whole analysis / baseline", float(largest.loc[TOTAL, "ratio_to_baseline"]), MAX_TOTAL_RATIO),
        ("peak memory (MiB)", round(peak, 1), MAX_PEAK_MIB),
        ("parse / baseline", float(largest.loc["parse", "ratio_to_baseline"]), 1.0),
    ]
    growth = stage_growth(results)
    sizes = sorted(results["n_abstracts"].unique())
    timed = ~growth["stage"].isin([TOTAL, BASELINE]) & (growth["seconds_large"] >= MIN_TIMED_SECONDS)
    for row in growth[timed].itertuples():
        limit = round(MAX_GROWTH_PER_TENFOLD / 10 * row.size_ratio, 2)
        rows.append((f"{row.stage} growth, {sizes[-1]:,} vs {sizes[-2]:,} abstracts", float(row.growth), limit))
    table = pd.DataFrame(rows, columns=["target", "measured", "limit"])
    table["met"] = table["measured"] <= table["limit"]
    table.loc[table["target"] == "parse / baseline", "met"] = table["measured"] < table["limit"]
    return table
