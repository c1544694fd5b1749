"""The map terms over the groups: each term's mean year and first group, the new terms, and Kleinberg's bursts."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.change.group_order import group_numbers, paper_rows

__all__ = ["BURST_SCALE", "BURST_GAMMA", "MIN_BURST_GROUPS", "BURST_COLUMNS", "term_change",
           "kleinberg_states", "term_bursts"]

#: Kleinberg's two-state model: the burst state's rate is this many times the base rate (CiteSpace: 2).
BURST_SCALE = 2.0
#: Kleinberg's cost of entering the burst state, ``gamma * ln(number of groups)`` (CiteSpace: 1).
BURST_GAMMA = 1.0
#: Bursts are detected over at least this many groups.
MIN_BURST_GROUPS = 4
BURST_COLUMNS = ["term", "start_group", "end_group", "n_groups", "n_papers", "weight"]


def _term_group_counts(papers: pd.DataFrame, groups: Sequence[str], paper_terms: sparse.csr_matrix,
                       paper_ids: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Papers using each term per group (terms x groups) and papers per group."""
    rows = paper_rows(paper_ids, papers)
    codes = group_numbers(papers, groups)
    keep = (rows >= 0) & (codes >= 0)
    indicator = sparse.csr_matrix((np.ones(int(keep.sum())), (rows[keep], codes[keep])),
                                  shape=(paper_terms.shape[0], len(groups)))
    counts = (paper_terms.T.astype(float) @ indicator).toarray().round().astype(np.int64)
    totals = np.bincount(codes[codes >= 0], minlength=len(groups)).astype(np.int64)
    return counts, totals


def term_change(papers: pd.DataFrame, groups: Sequence[str], terms: Sequence[str],
                paper_terms: sparse.csr_matrix, paper_ids: Sequence[str]) -> pd.DataFrame:
    """Per map term: its papers, first group, mean group position and mean year, and whether it is new.

    ``mean_position`` is the mean over the term's papers of their group's number (1 = first group);
    ``mean_year`` the mean of their ``year`` (a column of ``papers``; else the group as a number when
    every group is a year; else empty): VOSviewer's overlay colour. ``balanced_year`` weighs the groups
    alike instead of their papers: the mean of the groups' years (a group's year: the mean year of its
    papers) weighted by the share of each group's papers using the term, so one large group does not
    pull every term to its year (the book's overlay colour; empty without years). ``new_in_latest``:
    used in the latest group and in no earlier one. Rows by ``n_papers`` (most first), then term.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id`` and ``group`` (and ``year`` where the input has it).
    groups : sequence of str
        The groups, in order.
    terms : sequence of str
        The term map's terms, one per column of ``paper_terms``.
    paper_terms : csr_matrix
        Binary papers x terms.
    paper_ids : sequence of str
        The paper of each row of ``paper_terms``.

    Returns
    -------
    DataFrame
        ``term, n_papers, first_group, mean_position, mean_year, balanced_year, n_latest, new_in_latest``.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 0], [1, 0], [1, 1]]))
    >>> papers = pd.DataFrame({"paper_id": ["a", "b", "c"], "group": ["2023", "2024", "2025"]})
    >>> table = term_change(papers, ["2023", "2024", "2025"], ["model", "agent"], X, ["a", "b", "c"])
    >>> table[["term", "n_papers", "first_group", "mean_year", "new_in_latest"]]
        term  n_papers first_group  mean_year  new_in_latest
    0  model         3        2023     2024.0          False
    1  agent         1        2025     2025.0           True

    Three papers of 2023 and one of 2025, the term in one of each: its papers' mean year is 2024.0, but
    it is in a third of 2023's papers and all of 2025's, so weighed alike the groups give
    ``(2023 / 3 + 2025) / (1 / 3 + 1) = 2024.5``:

    >>> X = sparse.csr_matrix(np.array([[1], [0], [0], [1]]))
    >>> papers = pd.DataFrame({"paper_id": list("abcd"), "group": ["2023"] * 3 + ["2025"]})
    >>> term_change(papers, ["2023", "2025"], ["agent"], X, list("abcd"))[["mean_year", "balanced_year"]]
       mean_year  balanced_year
    0     2024.0         2024.5
    """
    counts, totals = _term_group_counts(papers, groups, paper_terms, paper_ids)
    n_papers = counts.sum(axis=1)
    positions = np.arange(1, len(groups) + 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_position = (counts @ positions) / n_papers
    group_years = np.full(len(groups), np.nan)
    if "year" in papers and papers["year"].notna().any():
        codes = group_numbers(papers, groups)
        known = pd.to_numeric(papers["year"], errors="coerce").to_numpy(dtype=float)
        for index in range(len(groups)):
            inside = known[(codes == index) & ~np.isnan(known)]
            group_years[index] = inside.mean() if len(inside) else np.nan
        rows = paper_rows(paper_ids, papers)
        years = pd.to_numeric(papers["year"], errors="coerce").to_numpy(dtype=float)
        keep = (rows >= 0) & ~np.isnan(years)
        year_of_row = np.zeros(paper_terms.shape[0])
        has_year = np.zeros(paper_terms.shape[0])
        year_of_row[rows[keep]], has_year[rows[keep]] = years[keep], 1.0
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_year = (paper_terms.T @ year_of_row) / (paper_terms.T @ has_year)
    elif all(str(g).lstrip("-").isdigit() for g in groups):
        group_years = np.array([int(g) for g in groups], dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_year = (counts @ group_years) / n_papers
    else:
        mean_year = np.full(len(terms), np.nan)
    dated = ~np.isnan(group_years) & (totals > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = counts[:, dated] / totals[dated]
        balanced_year = (shares @ group_years[dated]) / shares.sum(axis=1) if dated.any() else np.full(len(terms),
                                                                                                         np.nan)
    first = np.where(n_papers > 0, (counts > 0).argmax(axis=1), -1)
    table = pd.DataFrame({
        "term": [str(t) for t in terms], "n_papers": n_papers.astype(np.int64),
        "first_group": [groups[f] if f >= 0 else "" for f in first],
        "mean_position": np.round(mean_position.astype(float), 6),
        "mean_year": np.round(np.asarray(mean_year, dtype=float), 6),
        "balanced_year": np.round(np.asarray(balanced_year, dtype=float), 6),
        "n_latest": counts[:, -1].astype(np.int64),
        "new_in_latest": (counts[:, -1] > 0) & (counts[:, :-1].sum(axis=1) == 0),
    })
    return table.sort_values(["n_papers", "term"], ascending=[False, True], kind="mergesort").reset_index(drop=True)


def kleinberg_states(counts: np.ndarray, totals: np.ndarray, *, scale: float = BURST_SCALE,
                     gamma: float = BURST_GAMMA) -> tuple[np.ndarray, np.ndarray]:
    r"""Kleinberg's two-state burst model over batches, for many series at once.

    Kleinberg, J. (2002). Bursty and hierarchical structure in streams. *Proc. KDD 2002*, 91-101
    (section 4, "enumerating bursts" over batches of documents; CiteSpace's burst detection). Batch
    ``t`` has ``d_t`` documents (``totals``) of which ``r_t`` use the term (``counts``). The base state
    emits relevant documents at the overall rate ``p_0 = sum r / sum d``, the burst state at
    ``p_1 = min(scale * p_0, 1 - 1e-9)``. A state's cost in batch ``t`` is
    :math:`\sigma_i(t) = -\ln\left[\binom{d_t}{r_t} p_i^{r_t} (1 - p_i)^{d_t - r_t}\right]`; entering the
    burst state costs :math:`\gamma \ln n` (``n`` batches), leaving it nothing, and the series starts in
    the base state. The Viterbi algorithm finds the state sequence of least total cost. A burst is a
    maximal run of burst states; its weight is :math:`\sum_t \sigma_0(t) - \sigma_1(t)` over the run
    (the binomial coefficient cancels and is left out).

    Parameters
    ----------
    counts : array of shape (n_series, n_batches)
        ``r_t`` of each series (term).
    totals : array of shape (n_batches,)
        ``d_t``, the same for every series.

    Returns
    -------
    states : int array like ``counts``
        0 (base) or 1 (burst).
    gain : float array like ``counts``
        :math:`\sigma_0(t) - \sigma_1(t)`, for the bursts' weights.

    Examples
    --------
    Ten documents a batch; the term is in all ten of the middle batch and none of the others, so
    ``p_0 = 1/3`` and ``p_1 = 2/3``; the middle batch gains ``10 ln 2 = 6.93`` in the burst state, more
    than the ``ln 3 = 1.10`` of entering it; the others are cheaper in the base state:

    >>> states, gain = kleinberg_states(np.array([[0, 10, 0], [3, 3, 3]]), np.array([10, 10, 10]))
    >>> states
    array([[0, 1, 0],
           [0, 0, 0]])
    >>> round(float(gain[0, 1]), 4)
    6.9315
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    totals = np.asarray(totals, dtype=float)
    n_series, n_batches = counts.shape
    if n_batches == 0 or n_series == 0:
        return np.zeros(counts.shape, dtype=np.int64), np.zeros(counts.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        base = np.clip(counts.sum(axis=1) / totals.sum(), 1e-12, 1 - 1e-9)[:, None]
    burst = np.minimum(scale * base, 1 - 1e-9)
    misses = totals[None, :] - counts

    def cost(rate: np.ndarray) -> np.ndarray:
        return -(counts * np.log(rate) + misses * np.log1p(-rate))

    cost0, cost1 = cost(base), cost(burst)
    enter = gamma * math.log(n_batches) if n_batches > 1 else gamma * 0.0
    # Viterbi with two states: best total cost ending in each state, and where it came from.
    total0, total1 = cost0[:, 0].copy(), cost1[:, 0] + enter
    from1 = np.zeros((n_series, n_batches), dtype=bool)  # base at t reached from burst at t - 1
    stay1 = np.zeros((n_series, n_batches), dtype=bool)  # burst at t reached from burst at t - 1
    for t in range(1, n_batches):
        from1[:, t] = total1 < total0
        stay1[:, t] = total1 <= total0 + enter
        new0 = np.minimum(total0, total1) + cost0[:, t]
        new1 = np.where(stay1[:, t], total1, total0 + enter) + cost1[:, t]
        total0, total1 = new0, new1
    states = np.zeros((n_series, n_batches), dtype=np.int64)
    state = (total1 < total0).astype(np.int64)
    for t in range(n_batches - 1, -1, -1):
        states[:, t] = state
        if t:
            state = np.where(state == 1, stay1[:, t], from1[:, t]).astype(np.int64)
    return states, cost0 - cost1


def term_bursts(papers: pd.DataFrame, groups: Sequence[str], terms: Sequence[str], paper_terms: sparse.csr_matrix,
                paper_ids: Sequence[str], *, scale: float = BURST_SCALE, gamma: float = BURST_GAMMA
                ) -> pd.DataFrame:
    """Every burst of every map term over the groups (:func:`kleinberg_states`).

    Each burst's first and last group, its length in groups, the papers using the term in it, and its weight;
    strongest first (ties: term, then start).

    Parameters
    ----------
    papers, groups, terms, paper_terms, paper_ids
        As for :func:`term_change`.
    scale, gamma : float
        Kleinberg's rate ratio and cost of entering the burst state (:func:`kleinberg_states`).

    Returns
    -------
    DataFrame
        One row per burst, columns :data:`BURST_COLUMNS`.

    Examples
    --------
    The term is in both papers of group 2 and in none of the others (``p_0 = 1/3``, ``p_1 = 2/3``):
    group 2 gains ``2 ln 2 = 1.386`` in the burst state, more than the ``ln 3`` of entering it.

    >>> X = sparse.csr_matrix(np.array([[0], [0], [1], [1], [0], [0]]))
    >>> papers = pd.DataFrame({"paper_id": list("abcdef"), "group": ["1", "1", "2", "2", "3", "3"]})
    >>> term_bursts(papers, ["1", "2", "3"], ["agent"], X, list("abcdef"))
        term start_group end_group  n_groups  n_papers    weight
    0  agent           2         2         1         2  1.386294
    """
    counts, totals = _term_group_counts(papers, groups, paper_terms, paper_ids)
    states, gain = kleinberg_states(counts, totals, scale=scale, gamma=gamma)
    rows = []
    for index in np.flatnonzero(states.any(axis=1)):
        run_start = None
        for t in range(len(groups) + 1):
            inside = bool(t < len(groups) and states[index, t] == 1)
            if inside and run_start is None:
                run_start = t
            elif not inside and run_start is not None:
                rows.append(dict(term=str(terms[int(index)]), start_group=groups[run_start], end_group=groups[t - 1],
                                 n_groups=t - run_start, n_papers=int(counts[index, run_start:t].sum()),
                                 weight=round(float(gain[index, run_start:t].sum()), 6), start=run_start))
                run_start = None
    if not rows:
        return pd.DataFrame(columns=BURST_COLUMNS)
    table = pd.DataFrame(rows).sort_values(["weight", "term", "start"], ascending=[False, True, True],
                                           kind="mergesort")
    return table[BURST_COLUMNS].reset_index(drop=True)
