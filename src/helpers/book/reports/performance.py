"""Benchmark results (``benchmarks/results.csv``) checked against the targets they are held to.

``make bench`` writes one row per corpus size and stage: ``n_abstracts, stage,
seconds, ratio_to_baseline`` plus peak memory. These functions turn that table
into what the Performance page shows: the growth of each stage and the targets
met or missed. The targets are the benchmarks' own (``benchmarks/targets.csv``, read by
:mod:`helpers.book.reports.benchmark_targets`); the largest corpora's runs are :mod:`helpers.book.reports.performance_large`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from helpers.book.formatting import corpus_name, number
from helpers.book.inputs import page_input
from helpers.book.reports import drawing
from helpers.book.reports.benchmark_targets import (BASELINE, LDA_REFERENCE, STAGE_ORDER, TARGETS_FILE, TOTAL, Targets,
                                                    read_targets)
from helpers.book.reports.performance_large import large_runs, large_tables, one_file_runs

__all__ = ["TOTAL", "BASELINE", "LDA_REFERENCE", "STAGE_ORDER", "TARGETS_FILE", "Targets", "read_targets",
           "stage_growth", "growth_table", "stages_table", "targets", "targets_shown", "book_rows", "headline", "selection_evidence", "selection_search", "book_build_checks", "group_cost", "large_runs",
           "large_tables", "one_file_runs"]


def synthetic(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of synthetic corpora."""
    return results[results["corpus"] == "synthetic"]


def real(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of real corpora."""
    return results[results["corpus"] != "synthetic"]


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
    order = {stage: i for i, stage in enumerate(STAGE_ORDER + [TOTAL, BASELINE, LDA_REFERENCE])}
    growth = growth.sort_values("stage", key=lambda s: s.map(order).fillna(len(order)), ignore_index=True)
    return growth


def growth_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`stage_growth` of the synthetic corpora as the page shows it: the stages measured at both sizes, each
    with its seconds at each size and how many times longer it took for how many times the abstracts.

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


LDA_FIT, TFIDF_PASS = "one LDA fit", "TF-IDF pass"


@dataclass(frozen=True)
class HeadlineRatio:
    """The command against a reference on one corpus: each real corpus against one LDA fit, the synthetic
    corpora of :attr:`Targets.max_ratio_at` against a TF-IDF pass (``reference_seconds``: ``None`` without the
    reference's own row)."""

    reference: str
    corpus: str
    n_abstracts: int
    seconds: float
    reference_seconds: float | None
    ratio: float
    limit: float

    @property
    def where(self) -> str:
        """The corpus as the targets name it."""
        if self.corpus == "synthetic":
            return f"{self.n_abstracts:,} abstracts"
        return f"{corpus_name(self.corpus)} ({self.n_abstracts:,} abstracts)"


def headline_ratios(results: pd.DataFrame, limits: Targets) -> list[HeadlineRatio]:
    """The command's headline ratios in ``results``, each with its limit: the real corpora first."""

    def reference_seconds(corpus: str, size: int, stage: str) -> float | None:
        row = results[(results["corpus"] == corpus) & (results["n_abstracts"] == size) & (results["stage"] == stage)]
        return float(row["seconds"].iloc[0]) if len(row) else None

    ratios = [HeadlineRatio(LDA_FIT, row.corpus, row.n_abstracts, float(row.seconds),
                            reference_seconds(row.corpus, row.n_abstracts, LDA_REFERENCE), float(row.ratio_to_lda),
                            limits.max_lda_ratio)
              for row in real(results)[lambda t: t["stage"] == TOTAL].itertuples() if pd.notna(row.ratio_to_lda)]
    made = synthetic(results)
    for size, limit in limits.max_ratio_at.items():
        total = made[(made["n_abstracts"] == size) & (made["stage"] == TOTAL)]
        if len(total):
            ratios.append(HeadlineRatio(TFIDF_PASS, "synthetic", size, float(total["seconds"].iloc[0]),
                                        reference_seconds("synthetic", size, BASELINE),
                                        float(total["ratio_to_baseline"].iloc[0]), limit))
    return ratios


def targets(results: pd.DataFrame, limits: Targets | None = None, book: pd.DataFrame | None = None) -> pd.DataFrame:
    """The benchmark targets (``limits``, default :func:`read_targets`), each checked where it was measured:
    ``target, measured, limit, met``.

    * on each real corpus: the command, start to exit, within ``max_lda_ratio`` times one LDA fit;
    * at 20,000 and 100,000 synthetic abstracts: within ``max_ratio_20k`` and ``max_ratio_100k`` times the
      TF-IDF baseline;
    * at the largest synthetic corpus: peak memory (the command's processes together) under ``max_peak_mib``
      and parsing faster than the baseline;
    * every stage close to linear: at most ``max_growth_per_tenfold`` times slower for 10 times the abstracts
      between the two largest synthetic corpora (the limit scales with their size ratio); stages shorter than
      ``min_timed_seconds`` at the largest size are left out;
    * with ``book`` (``benchmarks/book_results.csv``): each cold book build within its limit.

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "corpus": "synthetic", "n_abstracts": [10] * 3 + [100] * 3, "stage": ["parse", TOTAL, BASELINE] * 2,
    ...     "seconds": [1.0, 3.0, 1.0, 9.0, 30.0, 10.0], "ratio_to_baseline": [1, 3, 1, 0.9, 3, 1],
    ...     "ratio_to_lda": float("nan"), "peak_rss_mib": [10.0] * 6})
    >>> targets(table)[["target", "met"]].values.tolist()
    [['peak memory (MiB), 100 abstracts', True], ['parse / baseline, 100 abstracts', True], \
['parse growth, 100 vs 10 abstracts', True]]
    """
    limits = limits or read_targets()
    rows = [(f"analyse / {ratio.reference}, {ratio.where}", ratio.ratio, ratio.limit)
            for ratio in headline_ratios(results, limits)]
    made = synthetic(results)
    for row in book_rows(book).itertuples():
        rows.append((f"cold book build (s), {corpus_name(row.corpus)} ({row.n_abstracts:,} abstracts)",
                     float(row.value), float(row.limit)))
    largest_size = int(made["n_abstracts"].max())
    largest = made[made["n_abstracts"] == largest_size].set_index("stage")
    peak = float(largest["peak_rss_mib"].iloc[0])
    rows.append((f"peak memory (MiB), {largest_size:,} abstracts", round(peak, 1), limits.max_peak_mib))
    rows.append((f"parse / baseline, {largest_size:,} abstracts", float(largest.loc["parse", "ratio_to_baseline"]), 1.0))
    growth = stage_growth(made)
    sizes = sorted(made["n_abstracts"].unique())
    timed = (~growth["stage"].isin([TOTAL, BASELINE, LDA_REFERENCE])
             & (growth["seconds_large"] >= limits.min_timed_seconds))
    for row in growth[timed].itertuples():
        limit = round(limits.max_growth_per_tenfold / 10 * row.size_ratio, 2)
        rows.append((f"{row.stage} growth, {sizes[-1]:,} vs {sizes[-2]:,} abstracts", float(row.growth), limit))
    table = pd.DataFrame(rows, columns=["target", "measured", "limit"])
    table["met"] = table["measured"] <= table["limit"]
    parse = table["target"].str.startswith("parse / baseline")
    table.loc[parse, "met"] = table["measured"] < table["limit"]
    return table


def book_rows(book: pd.DataFrame | None) -> pd.DataFrame:
    """The cold builds of ``benchmarks/book_results.csv`` (``corpus, n_abstracts, value, limit``), none without it."""
    if book is None or book.empty:
        return pd.DataFrame(columns=["corpus", "n_abstracts", "value", "limit"])
    return book[book["measure"] == "cold book build (s)"]


def headline(results: pd.DataFrame | None, book: pd.DataFrame | None = None,
             limits: Targets | None = None) -> str:
    """The Performance page's opening sentences: each headline ratio and book build with its target, met or
    missed (Markdown).

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": "synthetic", "n_abstracts": [20_000] * 2, "stage": [TOTAL, BASELINE],
    ...     "seconds": [12.0, 3.0], "ratio_to_baseline": [4.0, 1.0], "ratio_to_lda": float("nan"),
    ...     "peak_rss_mib": [900.0] * 2})
    >>> headline(table)
    '`analyse` took 12.0 s on 20,000 synthetic abstracts, **4.0 times** a TF-IDF pass (3.0 s; target 4, met).'
    """
    if results is None:
        return "No benchmark results yet: run `make bench`."
    sentences = []
    for ratio in headline_ratios(results, limits or read_targets()):
        if ratio.reference_seconds is None:
            continue
        target = f"target {ratio.limit:g}, {_met(ratio.ratio, ratio.limit)}"
        if ratio.reference == LDA_FIT:
            sentences.append(f"`analyse` took {ratio.seconds:.1f} s from start to exit on {ratio.where}, "
                             f"**{ratio.ratio:.1f} times** one LDA fit of the same abstracts "
                             f"({ratio.reference_seconds:.2f} s; {target}).")
        else:
            sentences.append(f"`analyse` took {ratio.seconds:.1f} s on {ratio.n_abstracts:,} synthetic abstracts, "
                             f"**{ratio.ratio:.1f} times** a TF-IDF pass ({ratio.reference_seconds:.1f} s; {target}).")
    builds = book_rows(book)
    if len(builds):
        sentences.append("A cold `make book` took " + "; ".join(
            f"{row.value:.0f} s on {corpus_name(row.corpus)} ({row.n_abstracts:,} abstracts; target "
            f"{row.limit:g} s, {_met(row.value, row.limit)})" for row in builds.itertuples()) + ".")
    return " ".join(sentences)


def _met(measured: float, limit: float) -> str:
    return "met" if measured <= limit else "missed"


def read_results(path) -> pd.DataFrame | None:
    """A benchmark's results (``benchmarks/results.csv``, ...; a page input, :func:`helpers.book.inputs.page_input`),
    or ``None`` when the benchmark has not been run."""
    path = page_input(path)
    return pd.read_csv(path) if path.exists() else None


def targets_shown(results: pd.DataFrame | None, book: pd.DataFrame | None = None) -> pd.DataFrame:
    """:func:`targets` as the page shows them (``met`` or ``missed`` in words); empty without results."""
    if results is None:
        return pd.DataFrame()
    checks = targets(results, book=book)
    measured = [f"{value:,.0f}" if value >= 100 else f"{value:.2f}" for value in checks["measured"]]
    limits = [f"{value:,.0f}" if value >= 100 else f"{value:g}" for value in checks["limit"]]
    return checks.assign(measured=measured, limit=limits, met=checks["met"].map({True: "met", False: "missed"}))


def performance_findings(results: pd.DataFrame | None, limits: Targets | None = None,
                         book: pd.DataFrame | None = None) -> dict[str, object]:
    """Every value the Performance page glues, by glue name (``"(not measured)"`` without results); the targets
    ``limits`` default to :func:`read_targets`, ``book`` the book builds (``benchmarks/book_results.csv``)."""
    from helpers.analysis.corpus.file_pieces import PIECE_BYTES  # lazy: keeps this module's import light
    # Lazy: keeps this module's import light.
    from helpers.analysis.pipeline import MAX_CHUNK_ITEMS, MIN_PARALLEL_ITEMS
    from helpers.analysis.themes import (FINAL_SAMPLE, FINAL_TOL, MAX_CANDIDATES, N_SEEDS, SELECTION_SAMPLE, SELECTION_TOL,
                                TRANSFORM_BLOCK, candidate_ks)  # lazy: at the top it would load scipy and networkx

    limits = limits or read_targets()
    values = {
        "perf_parallel_items": f"{MIN_PARALLEL_ITEMS:,}",
        "perf_partition_items": f"{MAX_CHUNK_ITEMS:,}",
        "perf_piece_mib": f"{PIECE_BYTES / 2**20:g}",
        "perf_transform_block": f"{TRANSFORM_BLOCK:,}",
        "perf_final_sample": f"{FINAL_SAMPLE:,}",
        "perf_n_seeds": N_SEEDS,
        "perf_selection_tol": f"{SELECTION_TOL:g}",
        "perf_final_tol": f"{FINAL_TOL:g}",
        "perf_max_candidates": MAX_CANDIDATES,
        "perf_max_lda_ratio": f"{limits.max_lda_ratio:g}",
        "perf_max_ratio_20k": f"{limits.max_ratio_20k:g}",
        "perf_max_ratio_100k": f"{limits.max_ratio_100k:g}",
        "perf_max_gib": f"{limits.max_peak_mib / 1024:g}",
        "perf_max_growth": f"{limits.max_growth_per_tenfold:g}",
        "perf_min_timed": f"{limits.min_timed_seconds:g}",
        "perf_selection_sample": f"{SELECTION_SAMPLE:,}",
    }
    names = ["perf_largest", "perf_total_seconds", "perf_total_ratio", "perf_baseline_seconds",
             "perf_themes_seconds", "perf_cores", "perf_targets_met", "perf_targets", "perf_selection_fits",
             "perf_longest_stage"]
    if results is None:
        return {**values, **{name: "(not measured)" for name in names}}
    made = synthetic(results)
    size = int(made["n_abstracts"].max())
    largest = made[made["n_abstracts"] == size].set_index("stage")
    checks = targets(results, limits, book)
    stages = largest.loc[[stage for stage in STAGE_ORDER if stage in largest.index], "seconds"]
    return {
        **values,
        "perf_longest_stage": f"{stages.idxmax()} ({stages.max():.0f} s)",
        "perf_largest": f"{size:,}",
        "perf_selection_fits": len(candidate_ks(size)) * N_SEEDS,
        "perf_total_seconds": f"{largest.loc[TOTAL, 'seconds']:.0f}",
        "perf_total_ratio": f"{largest.loc[TOTAL, 'ratio_to_baseline']:.1f}",
        "perf_baseline_seconds": f"{largest.loc[BASELINE, 'seconds']:.1f}",
        "perf_themes_seconds": f"{largest.loc['themes', 'seconds']:.0f}",
        "perf_cores": int(largest["cores"].iloc[0]),
        "perf_targets_met": int(checks["met"].sum()),
        "perf_targets": len(checks),
    }


def stages_figure(results: pd.DataFrame | None):
    """Log-log lines of seconds per stage against corpus size, with the baseline; returns ``(figure, data)``."""
    import seaborn as sns  # lazy: slow to import

    if results is None:
        figure, axis = drawing.column_subplots(1.5)
        axis.axis("off")
        axis.text(0.5, 0.5, "No benchmark results yet: run make bench", ha="center", va="center")
        return figure, pd.DataFrame()
    shown = synthetic(results)[lambda t: t["stage"] != "corpus"]
    order = [s for s in STAGE_ORDER + [TOTAL, BASELINE, LDA_REFERENCE] if s in set(shown["stage"])]
    figure, axis = drawing.column_subplots(4.6)
    sns.lineplot(data=shown, x="n_abstracts", y="seconds", hue="stage", hue_order=order, style="stage",
                 style_order=order, markers=True, dashes=False, palette="colorblind", ax=axis)
    axis.set(xscale="log", yscale="log", xlabel="Abstracts in the corpus", ylabel="Seconds")
    handles, names = axis.get_legend_handles_labels()
    axis.get_legend().remove()  # under the plot, so the plot keeps the column's width
    figure.legend(handles, names, loc="outside lower center", ncols=3, fontsize=drawing.SMALL_PT, frameon=False)
    drawing.set_title(figure, "Time per stage of the analysis, with the TF-IDF and LDA references")
    return drawing.finish(figure), results


def explorer_readiness(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, object]]:
    """``benchmarks/explorer_results.csv`` with a ``met`` column, and its glue values.

    The explorer is usable when a word typed in its search box updates the count; each size has
    its own target (``target_seconds``) and every page must stay under ``max_page_height_px``.

    Examples
    --------
    >>> table = pd.DataFrame({"n_abstracts": [3000], "n_shown": [3000], "seconds": [0.6], "target_seconds": [1.0],
    ...                       "page_height_px": [4544], "max_page_height_px": [15000]})
    >>> explorer_readiness(table)[1]["perf_explorer_summary"]
    '3,000 abstracts: 0.60 s (target 1 s, met)'

    A size whose explorer holds a sample (``n_shown`` below ``n_abstracts``) says so:

    >>> sampled = table.assign(n_abstracts=[1_000_000], n_shown=[20_000])
    >>> explorer_readiness(sampled)[1]["perf_explorer_summary"]
    '1,000,000 abstracts (a seeded sample of 20,000 in the explorer): 0.60 s (target 1 s, met)'
    """
    from helpers.web.explorer import MAX_EXPLORER_PAPERS  # lazy: at the top it would load jinja2

    cap = {"perf_explorer_cap": f"{MAX_EXPLORER_PAPERS:,}"}
    if results is None or results.empty:
        return pd.DataFrame(), {"perf_explorer_summary": "(not measured: run benchmarks/explorer_ready.py)", **cap}
    table = results.assign(met=(results["seconds"] <= results["target_seconds"])
                           & (results["page_height_px"] <= results["max_page_height_px"]))

    def size(row) -> str:
        sample = (f" (a seeded sample of {row.n_shown:,} in the explorer)" if row.n_shown < row.n_abstracts
                  else "")
        return f"{row.n_abstracts:,} abstracts{sample}"

    summary = "; ".join(f"{size(row)}: {row.seconds:.2f} s (target {row.target_seconds:g} s, "
                        f"{'met' if row.met else 'missed'})" for row in table.itertuples())
    return table, {"perf_explorer_summary": summary, **cap}


def group_cost(results: pd.DataFrame | None) -> dict[str, str]:
    """``benchmarks/group_results.csv`` (``benchmarks/groups.py``) as the Performance page's sentence.

    Examples
    --------
    >>> table = pd.DataFrame({"n_abstracts": [20000], "n_groups": [10], "analyse_seconds": [40.0],
    ...                       "groups_seconds": [2.0], "added_share": [0.05], "limit": [0.3], "met": [True]})
    >>> group_cost(table)["perf_groups_summary"]
    '20,000 abstracts in 10 groups: analyse 40.0 s, the group analyses 2.00 s more, 5.0% (target at most 30%, met)'
    """
    if results is None or results.empty:
        return {"perf_groups_summary": "(not measured: run benchmarks/groups.py)"}
    return {"perf_groups_summary": "; ".join(
        f"{row.n_abstracts:,} abstracts in {row.n_groups} groups: analyse {row.analyse_seconds:.1f} s, the group "
        f"analyses {row.groups_seconds:.2f} s more, {row.added_share:.1%} (target at most {row.limit:.0%}, "
        f"{'met' if row.met else 'missed'})" for row in results.itertuples())}


def selection_evidence(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/selection_results.csv`` (ways of choosing k, per corpus: full fits scored by their best run first,
    the book's early-stopped fits scored by their mean, with its search stopped, last) as shown, and its glue values.

    ``perf_selection_summary`` is one Markdown list item per corpus comparing the first and the last way.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["x", "x"], "n_abstracts": [50, 50], "way": ["before", "now"],
    ...     "k_seed0": [8, 10], "k_mode": [8, 10], "mode_share": [0.9, 0.5], "expected_coherence": [0.36, 0.35],
    ...     "coherence_se": [0.008, 0.006], "fits": [45, 27], "fit_seconds": [1.8, 0.7]})
    >>> print(selection_evidence(table)[1]["perf_selection_summary"])
    - x (50 abstracts): with seed 0, 8 themes by full fits and 10 by the book's rule; expected coherence 0.360 \
and 0.350 (standard error about 0.007); 45 fits in 1.8 CPU seconds against 27 in 0.7 (2.6 times less).
    """
    if results is None or results.empty:
        return pd.DataFrame(), {"perf_selection_summary": "(not measured: run benchmarks/selection.py)"}
    lines = []
    for (corpus, size), rows in results.groupby(["corpus", "n_abstracts"], sort=False):
        full, book_rule = rows.iloc[0], rows.iloc[-1]
        lines.append(
            f"- {corpus_name(corpus)} ({number(int(size))} abstracts): with seed 0, {full.k_seed0} themes by "
            f"full fits and {book_rule.k_seed0} by the book's rule; expected coherence "
            f"{full.expected_coherence:.3f} and {book_rule.expected_coherence:.3f} (standard error about "
            f"{(full.coherence_se + book_rule.coherence_se) / 2:.3f}); {full.fits} fits in "
            f"{full.fit_seconds:.1f} CPU seconds against {book_rule.fits} in {book_rule.fit_seconds:.1f} "
            f"({full.fit_seconds / book_rule.fit_seconds:.1f} times less).")
    ways = {"before": "full fits, best run", "without the stop": "early stop, mean, every k",
            "now": "early stop, mean, search stopped (the book's)"}
    shown = pd.DataFrame({
        "corpus": [corpus_name(c) for c in results["corpus"]], "abstracts": results["n_abstracts"],
        "way": [ways.get(str(w).split(":")[0], str(w).split(":")[0]) for w in results["way"]],
        "k, seed 0": results["k_seed0"], "most frequent k": results["k_mode"], "its share": results["mode_share"],
        "expected coherence": results["expected_coherence"], "s.e.": results["coherence_se"],
        "fits": results["fits"], "CPU s": results["fit_seconds"],
    })
    return shown, {"perf_selection_summary": "\n".join(lines)}


def selection_search(results: pd.DataFrame | None) -> pd.DataFrame:
    """``benchmarks/results/selection_search.csv`` (``benchmarks/selection_search.py``: the themes of each corpus
    chosen with every candidate searched and with the search stopped) as the Performance page shows it; empty
    without it.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["seed"], "n_abstracts": [57], "k_before": [3], "k_after": [3],
    ...     "fits_before": [27], "fits_after": [15], "cpu_before": [1.2], "cpu_after": [0.6],
    ...     "coherence_before": [0.248], "coherence_after": [0.248], "same_themes": [True]})
    >>> selection_search(table).iloc[0].astype(str).tolist()
    ['seed', '57', '3', '3', '0.248', '0.248', 'yes', '27', '15', '1.2', '0.6']
    """
    if results is None or results.empty:
        return pd.DataFrame()
    return pd.DataFrame({
        "corpus": [corpus_name(c) for c in results["corpus"]], "abstracts": results["n_abstracts"],
        "k, every candidate": results["k_before"], "k, search stopped": results["k_after"],
        "coherence, every candidate": results["coherence_before"], "coherence, search stopped": results["coherence_after"],
        "same themes": ["yes" if same else "no" for same in results["same_themes"]],
        "fits, every candidate": results["fits_before"], "fits, search stopped": results["fits_after"],
        "CPU s, every candidate": results["cpu_before"], "CPU s, search stopped": results["cpu_after"],
    })


def book_build_checks(results: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """``benchmarks/book_results.csv`` (one block of measures per corpus) with ``met`` where a measure has a
    limit, and its glue values.

    Examples
    --------
    >>> table = pd.DataFrame({"corpus": ["x"] * 3, "n_abstracts": [495] * 3,
    ...     "measure": ["cold book build (s)", "warm book build (s)", "pages executed, warm build"],
    ...     "value": [55.0, 3.2, 0.0], "limit": [60.0, None, 0.0]})
    >>> checks, values = book_build_checks(table)
    >>> checks["met"].tolist(), values["perf_book_summary"]
    (['met', '', 'met'], 'x (495 abstracts): cold 55 s, warm 3 s; 2 of 2 targets met')
    """
    if results is None or results.empty:
        return pd.DataFrame(), {"perf_book_summary": "(not measured: run benchmarks/book_build.py)"}
    has_limit = results["limit"].notna()
    met = pd.Series("", index=results.index)
    met[has_limit] = (results.loc[has_limit, "value"] <= results.loc[has_limit, "limit"]).map(
        {True: "met", False: "missed"})

    def shown(number: float) -> str:
        return "" if pd.isna(number) else f"{number:.0f}" if float(number).is_integer() else f"{number:.2f}"

    table = pd.DataFrame({"corpus": [corpus_name(c) for c in results["corpus"]], "measure": results["measure"],
                          "value": results["value"].map(shown), "limit": results["limit"].map(shown), "met": met})
    summaries = []
    for corpus, rows in results.groupby("corpus", sort=False):
        value = rows.set_index("measure")["value"]
        summaries.append(f"{corpus_name(corpus)} ({rows['n_abstracts'].iloc[0]:,} abstracts): cold "
                         f"{value.get('cold book build (s)', float('nan')):.0f} s, warm "
                         f"{value.get('warm book build (s)', float('nan')):.0f} s")
    return table, {"perf_book_summary": "; ".join(summaries) + f"; {int((met == 'met').sum())} of "
                                                                f"{int(has_limit.sum())} targets met"}


#: The stages of ``analyse`` as the stage table's columns, in order.
STAGE_COLUMNS = {**{stage: stage for stage in STAGE_ORDER}, "cooccurrence": "co-occurrence", TOTAL: "command"}


def stages_table(results: pd.DataFrame) -> pd.DataFrame:
    """``benchmarks/results.csv`` as the page shows it: one row per stage (seconds), then the whole command as a
    multiple of the TF-IDF pass and of one LDA fit and its peak memory (MiB), one column per corpus — narrow
    enough for the page's column however many stages there are.

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
    page height and data file size."""
    names = {"n_abstracts": "abstracts", "n_shown": "papers shown", "seconds": "seconds to answer",
             "page_height_px": "page height (px)", "data_file_mib": "data file (MiB)", "met": "target"}
    table = explorer[list(names)].rename(columns=names)
    table["target"] = table["target"].map({True: "met", False: "missed"})
    return table
