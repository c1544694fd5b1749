"""The term map's measured quality, read from the benchmarks' result files for the chapter and the Validation page.

The term map is measured against terms and sub-fields labelled by reading (``benchmarks/term_quality.py``,
``benchmarks/community_quality.py``); the pages show those measurements, never this corpus's, so they are read
here apart from the page's own values (:mod:`helpers.book.reports.cooccurrence`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from helpers.book.formatting import corpus_name, percent
from helpers.book.reports.benchmark_targets import read_results
from helpers.book.settings import COMMUNITY_QUALITY_FILE, TERM_QUALITY_FILE

__all__ = ["RANKING_NAMES", "read_term_quality", "term_quality", "community_quality"]


# The rankings compared in the chapter, as the table names them.
RANKING_NAMES = {"frequency": "frequency", "relevance": "VOSviewer relevance", "combined": "combined score (the book's)"}


def read_term_quality(root: Path) -> pd.DataFrame | None:
    """``benchmarks/results/term_quality.csv`` under the book's ``root``, or ``None`` when it was not measured.

    Parameters
    ----------
    root : Path
        The book's root, where ``benchmarks/results/`` holds the file.

    Returns
    -------
    DataFrame or None

    Examples
    --------
    >>> read_term_quality(Path("/nonexistent")) is None
    True
    """
    return read_results(TERM_QUALITY_FILE, root=root)


def term_quality(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/results/term_quality.csv`` as the chapter shows it, and its glue values.

    The glue values are those of the largest real corpus measured against the labels the
    settings were chosen on (``co_q_*``), and of the held-out corpus measured against its own
    labels (``co_qh_*``; corpus name starting with ``held-out``): the F share and landmark recall of
    each ranking, and the corpus's size (and name, for the first); the table has every measure.
    Without results every value says how to measure.

    Parameters
    ----------
    results : DataFrame or None
        The file's rows (:func:`read_term_quality`).

    Returns
    -------
    table : DataFrame
        One row per corpus and ranking, as the page shows it.
    values : dict
        The glue values, by name.

    Examples
    --------
    >>> table, values = term_quality(None)
    >>> table.empty, values["co_q_corpus"], values["co_qh_field_share_combined"]
    (True, '(not measured: run benchmarks/term_quality.py)', '(not measured: run benchmarks/term_quality.py)')
    """
    measures = ("field_share", "landmark_recall")  # glued; the multi-word share is in the table only
    described = {"co_q": ("corpus", "n_abstracts"), "co_qh": ("n_abstracts",)}
    if results is None or results.empty:
        missing = "(not measured: run benchmarks/term_quality.py)"
        return pd.DataFrame(), {f"{p}_{n}": missing for p, names in described.items() for n in names} | {
            f"{p}_{n}_{r}": missing for n in measures for r in RANKING_NAMES for p in described}
    # Short cells and headers, so the measures fit the page's column; the CSV has every count.
    table = pd.DataFrame({
        "corpus": [f"{corpus_name(name)} ({n:,})" for name, n in zip(results["corpus"], results["n_abstracts"])],
        "ranking": results["ranking"].map(RANKING_NAMES), "terms": results["n_terms"],
        "F share": [percent(share) + (f" ({u} unlabelled)" if u else "")
                    for share, u in zip(results["field_share"], results["n_unlabelled"])],
        "multi-word": results["multi_word_share"].map(percent),
        "landmarks": [f"{f} of {n}" for f, n in zip(results["n_landmarks_found"], results["n_landmarks"])],
        "nested in top 20": results["nested_top_pairs"],
        "one-term non-F comm.": results["generic_single_communities"],
    })
    heldout = results["corpus"].str.startswith("held-out")
    real = results[~results["corpus"].str.startswith("synthetic") & ~heldout]
    largest = real[real["n_abstracts"] == real["n_abstracts"].max()]
    values: dict[str, str] = {}
    for prefix, rows in (("co_q", largest), ("co_qh", results[heldout])):
        if rows.empty:
            values |= {f"{prefix}_{n}": "(not measured)" for n in described[prefix]} | {
                f"{prefix}_{n}_{r}": "(not measured)" for n in measures for r in RANKING_NAMES}
            continue
        if "corpus" in described[prefix]:
            values[f"{prefix}_corpus"] = corpus_name(rows["corpus"].iloc[0])
        values[f"{prefix}_n_abstracts"] = str(int(rows["n_abstracts"].iloc[0]))
        for row in rows.itertuples(index=False):
            values[f"{prefix}_field_share_{row.ranking}"] = percent(row.field_share)
            values[f"{prefix}_landmark_recall_{row.ranking}"] = percent(row.landmark_recall)
    return table, values


#: How the Validation page names each way of finding communities (the weights: ``a`` or ``c ln a``).
WEIGHT_NAMES = {"association": "a", "information": "c ln a"}


def community_quality(root: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/results/community_quality.csv`` as the Validation page shows it, and the values its sentence
    glues (``cq_*``: the three-year corpus's measures each way, the development corpus named); every value
    "not measured" without the file.

    Parameters
    ----------
    root : Path
        The book's root (``benchmarks/results/community_quality.csv`` under it).

    Returns
    -------
    table : DataFrame
        One row per corpus and way of finding communities.
    values : dict
        The glue values, by name.

    Examples
    --------
    >>> table, values = community_quality(Path("/nonexistent"))
    >>> table.empty, values["cq_ratio_book"]
    (True, 'not measured')
    """
    results = read_results(COMMUNITY_QUALITY_FILE, root=root)
    names = [f"cq_{n}_{m}" for n in ("ratio", "together", "apart", "communities") for m in ("base", "book")]
    names += ["cq_corpus", "cq_n_abstracts", "cq_development"]
    if results is None:
        return pd.DataFrame(), dict.fromkeys(names, "not measured")
    table = pd.DataFrame({
        "corpus": [f"{corpus_name(c)} ({n:,})" for c, n in zip(results["corpus"], results["n_abstracts"])],
        "communities": [f"{WEIGHT_NAMES.get(w, w)}, resolution {r:g}" + (" (the book's)" if m == "book" else "")
                        for w, r, m in zip(results["weighting"], results["resolution"], results["method"])],
        "count (largest)": [f"{n} ({m})" for n, m in zip(results["n_communities"], results["largest_community"])],
        "inside / between": [f"{a:.2f} / {b:.2f} ({r:.1f}x)"
                             for a, b, r in zip(results["within"], results["between"], results["ratio"])],
        "one sub-field together": [f"{a} of {n}" for a, n in zip(results["n_together"], results["n_same_field"])],
        "two sub-fields apart": [f"{a} of {n}" for a, n in zip(results["n_apart"], results["n_other_field"])],
    })
    values = dict.fromkeys(names, "not measured")
    development = results[results["corpus"].str.startswith("icml2024-dev")]
    if len(development):
        values["cq_development"] = corpus_name(development["corpus"].iloc[0])
    real = results[~results["corpus"].str.startswith("synthetic") & (results["corpus"] != "seed")
                   & ~results["corpus"].str.startswith("icml2024-dev")]
    if len(real):
        largest = real[real["n_abstracts"] == real["n_abstracts"].max()]
        values["cq_corpus"] = corpus_name(largest["corpus"].iloc[0])
        values["cq_n_abstracts"] = f"{int(largest['n_abstracts'].iloc[0]):,}"
        for row in largest.itertuples(index=False):
            key = "book" if row.method == "book" else "base"
            values[f"cq_ratio_{key}"] = f"{row.ratio:.1f}"
            values[f"cq_together_{key}"] = f"{row.n_together} of {row.n_same_field}"
            values[f"cq_apart_{key}"] = f"{row.n_apart} of {row.n_other_field}"
            values[f"cq_communities_{key}"] = str(int(row.n_communities))
    return table, values
