"""Theme coherence on an independent yardstick, and the theme labels checked (issue 38).

The yardstick: the mean over themes of the NPMI of every pair of a theme's top 10 terms, where a term
is present in an abstract when its words occur there one after another (as a phrase, inside a longer
one or not; ``theme_vocabulary.reference_presence``), counted on **reference documents** that are not
the model's own counts: the union of every real ICML corpus at hand (the seed, ``pmlr-v235-sample``,
``icml2024-dev`` and ``icml-2023-2025`` of ``../shared/corpora``; an abstract in several of them counted
once). A pair never seen together scores -1, as in the book's own coherence.

Per corpus and number of themes (the k the book's selection rule chooses, and 16):

* **book themes**: ``fit_themes`` with the book's settings; its shown top 10 terms (the themes table);
* **LDA**: scikit-learn's ``LatentDirichletAllocation`` (batch, seed 0, 50 iterations) at the same k on
  the same term counts (``theme_counts`` with the book's ``min_df`` and ``max_df``), every abstract; its
  top terms shown by the same rule (``themes.shown_terms``: a phrase in place of its own words), so
  neither model scores the pairs of a phrase and its own words.

The labels of the book's themes at the chosen k are checked on every corpus, on each database export of
``../shared/corpora/exports`` (other fields; not part of the yardstick's reference) and on a synthetic corpus of
3,000 abstracts (``python benchmarks/generate.py 3000 DIR``; pass ``--synthetic DIR``): label parts
outside the theme's top 10 terms, labels naming one concept twice (``theme_labels.same_concept``), labels
given to more than one theme.

Usage: ``python benchmarks/theme_yardstick.py [--synthetic DIR]`` ->
``benchmarks/results/theme_yardstick.csv`` and ``benchmarks/results/theme_labels.csv``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis import themes
from helpers.analysis.corpus import read_corpus
from helpers.analysis._parallel import LocalPartitions
from helpers.analysis.text.cleaning import analysis_text
from helpers.analysis.text.tokens import tokenize_corpus
from helpers.analysis.themes import counting as theme_counting
from helpers.analysis.themes.concepts import same_concept
from helpers.analysis.themes.labels import GENERAL_SUFFIX, label_parts
from helpers.analysis.themes.scores import _top

sys.path.insert(0, str(Path(__file__).resolve().parent))
from theme_vocabulary import reference_presence  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
RESULTS = ROOT / "benchmarks" / "results"
CORPORA = {"seed": ROOT / "data" / "raw", "pmlr-v235-sample": SHARED / "pmlr-v235-sample",
           "icml2024-dev": SHARED / "icml2024-dev", "icml-2023-2025": SHARED / "icml-2023-2025"}
FIXED_K = 16
LDA_ITERATIONS = 50
REFERENCE = "the corpus and the other real ICML corpora (their union, each abstract once)"


def label_checks(corpus: str, model: themes.ThemeModel) -> pd.DataFrame:
    """One row per theme: its label, top terms and the three checks of issue 38."""
    labels = model.themes["label"].tolist()
    rows = []
    for theme, label, top in zip(model.themes["theme"], labels, model.themes["top_terms"]):
        parts, terms = label_parts(label), top.split(", ")
        rows.append(dict(corpus=corpus, k=len(labels), theme=int(theme), label=label, top_terms=top,
                         general=label.endswith(GENERAL_SUFFIX),
                         parts_outside_top=sum(part not in terms for part in parts),
                         one_concept_twice=any(same_concept(a, b) for i, a in enumerate(parts) for b in parts[i + 1:]),
                         duplicate=labels.count(label) > 1))
    return pd.DataFrame(rows)


def book_counts(texts: pd.Series) -> tuple[sparse.csr_matrix, np.ndarray]:
    """The theme model's term counts of the analysis texts (rows in ``paper_id`` order) and their terms."""
    terms = theme_counting._partitioned_counts(LocalPartitions(), [tokenize_corpus(texts.tolist(), texts.index.to_numpy())])
    return terms.rows(np.arange(terms.n_documents)), terms.vocabulary


def ranked_tops(weights: np.ndarray, counts: sparse.csr_matrix, vocabulary: np.ndarray) -> list[tuple[list[str], list[str]]]:
    """Each theme's top 10 terms shown as the book shows its own (a phrase for its words), and its 25 strongest.

    ``weights`` holds one row of term weights per theme, over the columns of ``counts``.
    """
    document_frequency = np.bincount(counts.indices, minlength=counts.shape[1])
    tops = []
    for component in weights:
        ranked = _top(component, 2 * themes.N_DIVERSITY_TERMS)
        n_abstracts = {str(vocabulary[i]): int(document_frequency[i]) for i in ranked}
        terms = [str(vocabulary[i]) for i in ranked]
        tops.append((themes.shown_terms(terms, themes.N_COHERENCE_TERMS, n_abstracts), terms[:themes.N_DIVERSITY_TERMS]))
    return tops


def lda_components(counts: sparse.csr_matrix, k: int) -> np.ndarray:
    """scikit-learn LDA's theme-term weights at ``k`` (batch, seed 0, :data:`LDA_ITERATIONS` iterations)."""
    from sklearn.decomposition import LatentDirichletAllocation

    with themes.model_fitting():
        lda = LatentDirichletAllocation(n_components=k, random_state=0, learning_method="batch",
                                        max_iter=LDA_ITERATIONS).fit(counts)
    return lda.components_


def lda_tops(counts: sparse.csr_matrix, vocabulary: np.ndarray, k: int) -> list[list[str]]:
    """LDA's top 10 terms per theme at ``k``, shown as the book shows its own (a phrase for its words)."""
    return [shown for shown, _ in ranked_tops(lda_components(counts, k), counts, vocabulary)]


def reference_documents(corpora: dict[str, pd.Series]):
    """The yardstick's reference: every corpus's abstracts together, each once, tokenised."""
    union = pd.concat(list(corpora.values()))
    union = union[~union.duplicated()]
    return tokenize_corpus(union.tolist(), [f"r{i}" for i in range(len(union))])


def yardstick(tops: list[list[str]], reference_tokens) -> float:
    """Mean over themes of the mean NPMI of their top terms' pairs on the reference documents."""
    terms = sorted({t for top in tops for t in top})
    position = {t: i for i, t in enumerate(terms)}
    presence = reference_presence(reference_tokens, terms)
    return float(np.mean(themes.npmi_coherence([[position[t] for t in top] for top in tops], presence)))


def analysis_texts(path: Path) -> pd.Series:
    papers = read_corpus(path).papers
    return papers.set_index("paper_id")["text"].map(analysis_text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=Path, help="a folder of synthetic abstracts (benchmarks/generate.py)")
    arguments = parser.parse_args()
    corpora = {name: analysis_texts(path) for name, path in CORPORA.items() if path.exists()}
    reference_tokens = reference_documents(corpora)
    scores, checks = [], []
    for name, texts in corpora.items():
        chosen = themes.fit_themes(texts)
        checks.append(label_checks(name, chosen))
        counts, vocabulary = book_counts(texts)
        for k_rule, k in [("chosen", int(chosen.settings.chosen_k)), ("fixed", FIXED_K)]:
            model = chosen if k_rule == "chosen" else themes.fit_themes(texts, themes.ThemeOptions(k=k))
            book_tops = [top.split(", ") for top in model.themes["top_terms"]]
            lda = lda_tops(counts, vocabulary, k)
            book_score, lda_score = yardstick(book_tops, reference_tokens), yardstick(lda, reference_tokens)
            scores.append(dict(corpus=name, n_abstracts=len(texts), k_rule=k_rule, k=k,
                               book_npmi=round(book_score, 6), lda_npmi=round(lda_score, 6),
                               ratio=round(book_score / lda_score, 6) if lda_score > 0 else np.nan,
                               reference_documents=len(reference_tokens), reference=REFERENCE))
            print(scores[-1])
    for path in sorted((SHARED / "exports").glob("*.*")):
        if path.suffix in {".txt", ".bib", ".csv"}:  # database exports of other fields: labels only
            checks.append(label_checks(f"exports/{path.name}", themes.fit_themes(analysis_texts(path))))
    if arguments.synthetic is not None:
        checks.append(label_checks("synthetic", themes.fit_themes(analysis_texts(arguments.synthetic))))
    RESULTS.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(scores).to_csv(RESULTS / "theme_yardstick.csv", index=False, lineterminator="\n")
    labels = pd.concat(checks, ignore_index=True)
    labels.to_csv(RESULTS / "theme_labels.csv", index=False, lineterminator="\n")
    print(labels.groupby("corpus")[["parts_outside_top", "one_concept_twice", "duplicate", "general"]].sum())


if __name__ == "__main__":
    main()
