"""Broad themes' labels: a label that describes every one of a broad theme's themes (:data:`BROAD_LABEL_RULE`).

A broad theme (:mod:`.hierarchy`) gathers themes that share their papers' vocabulary; naming it by its strongest
terms alone would describe its largest theme and leave the others out. :func:`broad_labels` picks the fewest of
its pooled top terms that between them name each of its themes, a term shared by several themes first.
"""

from __future__ import annotations

from typing import Collection, Sequence

import numpy as np
import pandas as pd

from helpers.analysis.text.noun_phrases import is_noun_phrase
from helpers.analysis.themes.concepts import Concept, _stock_terms, same_concept
from helpers.analysis.themes.labels import label_parts

__all__ = ["N_POOLED_TERMS", "N_COVER_TERMS", "BROAD_LABEL_RULE", "broad_labels"]

#: Terms a broad theme's label is chosen from: the strongest of its themes' pooled shown terms.
N_POOLED_TERMS = 10
#: A theme is described by a term among its label's parts and its first this many shown top terms.
N_COVER_TERMS = 5
BROAD_LABEL_RULE = (
    "a broad theme of one theme takes that theme's label; otherwise the fewest of its pooled top terms such that "
    f"each of its themes has one of them among its label's parts or first {N_COVER_TERMS} shown top terms (a term "
    "shared by several themes first, then the strongest), one concept each, at least two, strongest first"
)


def _names(term: str, other: str, same_thing: Collection[frozenset[str]]) -> bool:
    """Whether ``term`` names what ``other`` says: the same term or one concept
    (:func:`helpers.analysis.themes.concepts.same_concept`; an acronym names its expansion, ``llm`` a
    ``language model``).

    Examples
    --------
    >>> [_names(a, b, ()) for a, b in [("llm", "language model"), ("privacy", "private"), ("graph", "node")]]
    [True, True, False]
    """
    return term == other or same_concept(term, other, same_thing)


def _label(terms: list[str], weight: dict[str, float], pooled: Sequence[str],
           same_thing: Collection[frozenset[str]]) -> str:
    """Terms joined by `` · ``, the strongest first, each acronym by its expansion among the ``pooled`` terms (the one
    of most words), as a concept is named (:class:`helpers.analysis.themes.concepts.Concept`).

    Examples
    --------
    >>> _label(["rl", "regret"], {"rl": 3.0, "regret": 5.0}, ["regret", "rl", "reinforcement learning"], ())
    'regret · reinforcement learning'
    """
    def name(term: str) -> str:
        members = [term] + [other for other in pooled if other != term and _names(term, other, same_thing)]
        return Concept(tuple(members)).name

    return " · ".join(name(t) for t in sorted(terms, key=lambda t: -weight.get(t, 0.0)))


def broad_labels(members: Sequence[Sequence[int]], top_terms: pd.DataFrame, masses: Sequence[float],
                 labels: Sequence[str] | None = None, same_thing: Collection[frozenset[str]] = ()) -> list[str]:
    """One label per broad theme by :data:`BROAD_LABEL_RULE`: it names every one of the broad theme's themes.

    A broad theme's pooled terms are its themes' shown top terms (``top_terms``: ``theme, rank, term, weight``, the
    first :data:`N_POOLED_TERMS` of each theme), each weighted by its weight in each theme (as a share of that
    theme's strongest) times the theme's papers (``masses``, by 1-based theme); stock terms and word pairs that
    are no noun phrase are left out. ``labels`` are the themes' labels (by 1-based theme); ``same_thing`` the pairs
    the corpus defines as one thing (:func:`helpers.analysis.themes.concepts.same_concept`).

    Parameters
    ----------
    members : sequence of sequence of int
        Each broad theme's themes (1-based).
    top_terms : DataFrame
        ``theme, rank, term, weight``.
    masses : sequence of float
        Each theme's papers, by 1-based theme.
    labels : sequence of str, optional
        The themes' labels.
    same_thing : collection of frozenset
        Pairs of terms the corpus defines as one thing.

    Returns
    -------
    list of str
        One label per broad theme, in the order of ``members``.

    Examples
    --------
    >>> top = pd.DataFrame({"theme": [1, 1, 2, 2, 3, 3], "rank": [1, 2] * 3,
    ...                     "term": ["language model", "llm", "diffusion model", "image", "regret", "bandit"],
    ...                     "weight": [1.0, 0.8, 1.0, 0.5, 1.0, 0.9]})
    >>> broad_labels([[1, 2], [3]], top, [10, 5, 8], ["language model · llm", "diffusion model · image",
    ...                                               "regret · bandit"])
    ['language model · diffusion model', 'regret · bandit']
    """
    shown = top_terms[top_terms["rank"] <= N_POOLED_TERMS]
    stock = _stock_terms()
    said: dict[tuple[str, str], bool] = {}  # the greedy choice asks about the same pairs of terms again and again

    def names(term: str, other: str) -> bool:
        if (term, other) not in said:
            said[term, other] = _names(term, other, same_thing)
        return said[term, other]

    strongest = shown.groupby("theme")["weight"].transform("max")
    relative = (shown["weight"] / strongest.where(strongest > 0, 1.0)).to_numpy()
    mass = np.array([float(masses[int(t) - 1]) for t in shown["theme"]])
    terms_of: dict[int, list[str]] = {}
    for theme, term in zip(shown["theme"], shown["term"]):
        terms_of.setdefault(int(theme), []).append(str(term))
    result = []
    for group in members:
        pooled: dict[str, float] = {}
        for theme, term, value in zip(shown["theme"], shown["term"], relative * mass):
            if int(theme) in group:
                pooled[str(term)] = pooled.get(str(term), 0.0) + float(value)
        if len(group) == 1 and labels is not None:
            result.append(str(labels[group[0] - 1]))
            continue
        usable = [t for t in pooled if t not in stock and (" " not in t or is_noun_phrase(t))] or list(pooled)
        order = sorted(usable, key=lambda t: (-round(pooled[t], 9), usable.index(t)))
        described = {}
        for theme in group:
            own = [t for t in terms_of.get(theme, []) if t in usable][:N_COVER_TERMS]
            described[theme] = set(own) | set(label_parts(str(labels[theme - 1])) if labels is not None else [])

        def covers(term: str, theme: int) -> bool:
            return any(names(term, other) for other in described[theme])

        chosen: list[str] = []
        uncovered = set(group)
        while uncovered:
            options = [t for t in order if not any(names(t, c) for c in chosen)]
            gains = [(sum(covers(t, theme) for theme in uncovered), -i) for i, t in enumerate(options)]
            if not gains or max(gains)[0] == 0:
                break
            best = options[-max(gains)[1]]
            chosen.append(best)
            uncovered = {theme for theme in uncovered if not covers(best, theme)}
        spare = [t for t in order if not any(names(t, c) for c in chosen)]
        while spare and (len(chosen) < 2 or _label(chosen, pooled, order, same_thing) in result):
            chosen.append(spare.pop(0))
            spare = [t for t in spare if not any(names(t, c) for c in chosen)]
        label = _label(chosen, pooled, order, same_thing)
        result.append(label if label not in result else f"{label} ({len(result) + 1})")
    return result


def _pooled_terms(shown: pd.DataFrame, group: Sequence[int], masses: np.ndarray) -> list[str]:
    """A broad theme's pooled top terms, as :func:`broad_labels` ranks them."""
    part = shown[shown["theme"].isin(list(group))]
    strongest = part.groupby("theme")["weight"].transform("max")
    value = part["weight"] / strongest.where(strongest > 0, 1.0) * part["theme"].map(lambda t: masses[int(t) - 1])
    totals: dict[str, float] = {}
    for term, v in zip(part["term"].astype(str), value):
        totals[term] = totals.get(term, 0.0) + float(v)
    order = list(totals)
    return sorted(order, key=lambda t: (-round(totals[t], 9), order.index(t)))[:N_POOLED_TERMS]
