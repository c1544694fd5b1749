"""A blind word-intrusion test of theme models (Chang et al. 2009, "Reading tea leaves"; issue 38).

Each theme becomes an **item**: its first :data:`N_TOP` shown top terms and one **intruder**, a term
among the first :data:`N_HIGH` shown terms of another theme of the same model (high there) that is not
among this theme's strongest terms (low here: outside its ``ranked`` terms, the 25 strongest) and shares
no word with the item's own terms, drawn with a seeded generator; the six terms are shuffled with the
same generator. Items of every model and corpus are then mixed in one seeded order and numbered with
opaque ids, so a reader sees neither the model nor the corpus (``word_intrusion_items.csv``); which item
is which, and its intruder, is in a separate key (``word_intrusion_key.csv``). A reader who never sees
the key picks the intruder of each item and a confidence from 1 (a guess) to 3 (sure)
(``word_intrusion_answers.csv``: ``item, intruder, confidence``); :func:`score_answers` gives each model's
precision (the share of its items whose intruder was found; an item left unanswered counts as missed)
and the mean confidence of the right answers.

Usage: ``python benchmarks/word_intrusion.py`` scores ``tests/evaluation/word_intrusion_answers.csv``
against the key -> ``benchmarks/results/word_intrusion.csv`` (the items and the key are written by
``benchmarks/theme_peers.py``, which fits the models).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
EVALUATION = ROOT / "tests" / "evaluation"
ITEMS_FILE = EVALUATION / "word_intrusion_items.csv"
KEY_FILE = EVALUATION / "word_intrusion_key.csv"
ANSWERS_FILE = EVALUATION / "word_intrusion_answers.csv"
RESULTS_FILE = ROOT / "benchmarks" / "results" / "word_intrusion.csv"
#: A theme's terms an item shows, and the terms of another theme an intruder is drawn from.
N_TOP = 5
N_HIGH = 5
SEED = 0
KEY_COLUMNS = ["item", "corpus", "model", "k", "theme", "intruder"]
SCORE_COLUMNS = ["corpus", "model", "items", "answered", "right", "precision", "mean_confidence_right",
                 "mean_confidence_wrong"]


@dataclass(frozen=True)
class ThemeTerms:
    """One theme of one model, as the item builder needs it.

    Attributes
    ----------
    corpus, model : str
        Where the theme comes from (kept in the key only).
    k : int
        The model's number of themes.
    theme : int
        The theme's number in its model.
    shown : tuple of str
        Its top terms in the order shown, strongest first (at least :data:`N_TOP`).
    ranked : tuple of str
        Its strongest terms (a term among them is never its intruder).
    """

    corpus: str
    model: str
    k: int
    theme: int
    shown: tuple[str, ...]
    ranked: tuple[str, ...]


def _generator(seed: int, *names: object) -> np.random.Generator:
    """A generator of its own for each theme, so adding a model or corpus changes no other item."""
    return np.random.default_rng([seed, zlib.crc32("|".join(map(str, names)).encode())])


def intruder_candidates(theme: ThemeTerms, others: Sequence[ThemeTerms], *, n_top: int = N_TOP,
                        n_high: int = N_HIGH) -> list[str]:
    """The terms that may intrude on ``theme``: high in another theme of its model (same corpus and k), low in
    this one, sharing no word with its first ``n_top`` terms; sorted.

    Examples
    --------
    >>> a = ThemeTerms("c", "m", 2, 1, ("bandit", "regret", "arm"), ("bandit", "regret", "arm", "reward"))
    >>> b = ThemeTerms("c", "m", 2, 2, ("protein", "reward", "bandit arm", "molecule"), ())
    >>> intruder_candidates(a, [b], n_top=3, n_high=3)
    ['protein']
    """
    own = set(theme.ranked) | set(theme.shown)
    words = {word for term in theme.shown[:n_top] for word in term.split()}
    same = (theme.corpus, theme.model, theme.k)
    candidates = {term for other in others if other.theme != theme.theme and (other.corpus, other.model, other.k) == same
                  for term in other.shown[:n_high]}
    return sorted(term for term in candidates if term not in own and not words & set(term.split()))


def build_items(themes: Sequence[ThemeTerms], *, seed: int = SEED, n_top: int = N_TOP,
                n_high: int = N_HIGH) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The word-intrusion items (no model, no corpus) and their key.

    Intruders come from the other themes of the same model, corpus and k. Every theme with a candidate
    gives one item; a theme without one raises (it would leave the model's precision unmeasured there).

    Returns
    -------
    items : DataFrame
        ``item, term_1 .. term_<n_top + 1>``, by item id.
    key : DataFrame
        ``item, corpus, model, k, theme, intruder``, by item id.

    Examples
    --------
    >>> a = ThemeTerms("c", "m", 2, 1, ("bandit", "regret"), ("bandit", "regret"))
    >>> b = ThemeTerms("c", "m", 2, 2, ("protein", "molecule"), ("protein", "molecule"))
    >>> items, key = build_items([a, b], n_top=2, n_high=1)
    >>> items.columns.tolist(), key["intruder"].tolist()
    (['item', 'term_1', 'term_2', 'term_3'], ['protein', 'bandit'])
    """
    rows, keys = [], []
    for theme in themes:
        candidates = intruder_candidates(theme, themes, n_top=n_top, n_high=n_high)
        if len(theme.shown) < n_top or not candidates:
            raise ValueError(f"theme {theme.theme} of {theme.model} (k={theme.k}) on {theme.corpus} has "
                             f"{len(theme.shown)} shown terms and {len(candidates)} intruder candidates")
        generator = _generator(seed, theme.corpus, theme.model, theme.k, theme.theme)
        intruder = candidates[int(generator.integers(len(candidates)))]
        terms = [*theme.shown[:n_top], intruder]
        rows.append([terms[i] for i in generator.permutation(len(terms))])
        keys.append([theme.corpus, theme.model, theme.k, theme.theme, intruder])
    order = np.random.default_rng(seed).permutation(len(rows))
    width = len(str(len(rows)))
    ids = [f"w{rank + 1:0{width}d}" for rank in range(len(rows))]
    item_of = {int(index): ids[rank] for rank, index in enumerate(order)}
    items = pd.DataFrame([[item_of[i], *row] for i, row in enumerate(rows)],
                         columns=["item", *(f"term_{j + 1}" for j in range(n_top + 1))])
    key = pd.DataFrame([[item_of[i], *row] for i, row in enumerate(keys)], columns=KEY_COLUMNS)
    return (items.sort_values("item", ignore_index=True), key.sort_values("item", ignore_index=True))


def score_answers(key: pd.DataFrame, answers: pd.DataFrame) -> pd.DataFrame:
    """Each model's intruder-detection precision and confidence, per corpus and over all of them.

    ``answers`` holds ``item, intruder, confidence`` (1-3); an item without an answer counts as missed.
    Rows: one per corpus and model, then one per model over every corpus (corpus ``all``).

    Examples
    --------
    >>> key = pd.DataFrame({"item": ["w1", "w2"], "corpus": ["c", "c"], "model": ["m", "m"], "k": [2, 2],
    ...                     "theme": [1, 2], "intruder": ["protein", "bandit"]})
    >>> answers = pd.DataFrame({"item": ["w1", "w2"], "intruder": ["Protein ", "regret"], "confidence": [3, 1]})
    >>> score_answers(key, answers)[["corpus", "right", "precision", "mean_confidence_right"]].values.tolist()
    [['c', 1, 0.5, 3.0], ['all', 1, 0.5, 3.0]]
    """
    given = answers.assign(answer=answers["intruder"].astype(str).str.strip().str.lower())
    given = given.drop_duplicates("item", keep="first").set_index("item")
    judged = key.assign(answered=key["item"].isin(given.index),
                        answer=key["item"].map(given["answer"]), confidence=key["item"].map(given["confidence"]))
    judged["right"] = judged["answer"] == judged["intruder"].str.lower()
    rows = []
    for corpus_rule in ["each", "all"]:
        groups = judged.groupby(["corpus", "model"], sort=True) if corpus_rule == "each" else \
            judged.assign(corpus="all").groupby(["corpus", "model"], sort=True)
        for (corpus, model), group in groups:
            right = group[group["right"]]
            wrong = group[~group["right"] & group["answered"]]
            rows.append(dict(corpus=corpus, model=model, items=len(group), answered=int(group["answered"].sum()),
                             right=len(right), precision=round(len(right) / len(group), 6),
                             mean_confidence_right=round(float(right["confidence"].mean()), 6) if len(right) else np.nan,
                             mean_confidence_wrong=round(float(wrong["confidence"].mean()), 6) if len(wrong) else np.nan))
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)


def main() -> None:
    if not ANSWERS_FILE.is_file():
        raise SystemExit(f"no answers yet: a blind reader writes {ANSWERS_FILE.relative_to(ROOT)} from the items alone")
    scores = score_answers(pd.read_csv(KEY_FILE), pd.read_csv(ANSWERS_FILE))
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    scores.to_csv(RESULTS_FILE, index=False, lineterminator="\n")
    print(scores.to_string(index=False))


if __name__ == "__main__":
    main()
