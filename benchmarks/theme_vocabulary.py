"""Themes on two vocabularies (issue 21): today's unigrams and bigrams against the term map's noun phrases.

For the seed (57 abstracts) and icml2024-dev (495), the theme model is fitted twice with the book's
settings (seed 0, k chosen by the selection rule): on its own vocabulary (``theme_counts``) and on
the term map's noun phrases (acronyms and thesaurus merged, stock terms left out, each phrase counted
once as its longest term: ``term_occurrences`` and ``longest_term_counts``). Reported: the chosen
k, the mean NPMI coherence of the themes' top 10 terms (the book's yardstick, each on its own
vocabulary), and how many theme labels hold only terms labelled generic or not a term in
``tests/evaluation/term_labels.csv``.

Usage: ``python benchmarks/theme_vocabulary.py`` -> ``benchmarks/results/theme_vocabulary.csv``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis import themes
from helpers.analysis.cooccurrence.candidates import (
    acronym_definitions,
    acronym_merges,
    longest_term_counts,
    read_thesaurus,
    term_occurrences,
)
from helpers.analysis.cooccurrence.evaluation import read_term_labels, term_key
from helpers.analysis.cooccurrence.termhood import read_generic_terms
from helpers.analysis.corpus import read_corpus
from helpers.analysis.text import tokenize_corpus

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "benchmarks" / "results" / "theme_vocabulary.csv"


def noun_phrase_counts(texts: pd.Series, tokens):
    """A ``theme_counts`` replacement: the term map's noun phrases, each phrase counted once."""
    thesaurus = read_thesaurus()
    corpus_wide, local = acronym_merges(acronym_definitions(texts.tolist()), thesaurus)
    found = term_occurrences(tokens, {**corpus_wide, **thesaurus}, paper_merges=local)
    stock = read_generic_terms()

    def counts(tokens, *, min_df=1, max_df=1.0, max_features=None):
        n = len(tokens)
        binary = sparse.csr_matrix((np.ones(len(found.codes)), (found.rows, found.codes)), shape=(n, found.n_codes))
        binary.sum_duplicates()
        df = np.bincount(binary.indices, minlength=found.n_codes)
        allowed = (df >= min_df) & (df <= max_df * n)
        for code in np.flatnonzero(allowed):
            allowed[code] = found.label(code) not in stock
        matrix = longest_term_counts(found, n, allowed)
        counted = np.bincount(matrix.indices, minlength=found.n_codes)
        columns = np.flatnonzero(counted >= max(min_df, 1))
        names = np.array([found.label(c) for c in columns], dtype=object)
        order = np.argsort(names, kind="stable")
        columns, names = columns[order], names[order]
        if max_features is not None and len(columns) > max_features:
            frequency = np.asarray(matrix.sum(axis=0)).ravel()[columns]
            chosen = np.sort(np.argsort(-frequency, kind="stable")[:max_features])
            columns, names = columns[chosen], names[chosen]
        return matrix[:, columns].tocsr(), names

    return counts


def fit(name: str, paths: list[Path], labels: dict[str, str]) -> list[dict]:
    papers = read_corpus(paths).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    rows = []
    original = themes.theme_counts
    for vocabulary in ("unigrams and bigrams (kept)", "term map noun phrases (tried)"):
        themes.theme_counts = original if vocabulary.startswith("unigrams") else noun_phrase_counts(papers["text"],
                                                                                                    tokens)
        try:
            model = themes.fit_themes(tokens, seed=0)
        finally:
            themes.theme_counts = original
        generic_only = sum(all(labels.get(term_key(t)) in ("G", "X") for t in label.split(" · "))
                           for label in model.themes["label"])
        rows.append(dict(corpus=name, n_abstracts=len(papers), vocabulary=vocabulary,
                         n_terms=int(model.settings["vocabulary"]), k=int(model.settings["chosen_k"]),
                         npmi=round(float(model.themes["coherence"].mean()), 6),
                         generic_only_labels=int(generic_only), labels=" | ".join(model.themes["label"])))
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def main() -> None:
    labels = read_term_labels(ROOT / "tests" / "evaluation" / "term_labels.csv")
    rows = fit("seed", [ROOT / "data" / "raw"], labels)
    dev = SHARED / "icml2024-dev" / "abstracts.txt"
    if dev.exists():
        rows += fit("icml2024-dev", [dev], labels)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT, index=False, lineterminator="\n")
    print(OUT)


if __name__ == "__main__":
    main()
