"""BERTopic as a peer of the book's themes on the independent yardstick, and the word-intrusion items (issue 38).

Run in the benchmark-only environment (``make bench-peers``: ``.venv-peers``, with
``benchmarks/requirements-peers.txt`` and BERTopic installed without its neural dependencies); the book and
``make test`` never need it.

**BERTopic** (0.17) cannot load a sentence-transformer offline, so its document vectors are LSA vectors: the
sublinear TF-IDF of the book's own term counts (``theme_yardstick.book_counts``: words and word pairs, the book's
``min_df`` and ``max_df``) reduced by ``TruncatedSVD`` (seed 0, :data:`SVD_DIMENSIONS` dimensions, fewer on a
small corpus) and normalised. BERTopic's own pipeline then runs on them, in three ways (:data:`PIPELINES`), so
the peer is not one weak setting: UMAP (BERTopic's defaults: 15 neighbours, 5 dimensions, ``min_dist`` 0,
cosine; ``random_state`` 0, so deterministic) then k-means with k clusters (seed 0, 10 starts; BERTopic's
documented way to ask for a number of topics: exactly k topics, no outlier topic); the SVD vectors themselves
then k-means; UMAP then BERTopic's default HDBSCAN, its topics merged down to k with ``reduce_topics`` (only
where it finds at least k; its outliers stay outliers). Its c-TF-IDF (BERTopic's defaults) runs on the same
term counts, so its top terms come from the same vocabulary; they are shown by the book's rule (a phrase in
place of its own words) and scored on the yardstick of ``benchmarks/theme_yardstick.py`` at the k that file
records per corpus (the selection rule's and 16) -> ``benchmarks/results/theme_peers.csv``, one row per
pipeline (the Validation page shows the best).

**Word intrusion** (``benchmarks/word_intrusion.py``): the themes of the book, of LDA and of BERTopic at the
chosen k on :data:`INTRUSION_CORPORA` -> ``tests/evaluation/word_intrusion_items.csv`` (no model, no corpus)
and ``tests/evaluation/word_intrusion_key.csv``; BERTopic's items are those of its pipeline that scores best on
the yardstick there.

Usage: ``.venv-peers/bin/python benchmarks/theme_peers.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis import themes
from helpers.analysis.themes import counting as theme_counting

sys.path.insert(0, str(Path(__file__).resolve().parent))
from theme_yardstick import (  # noqa: E402
    CORPORA,
    RESULTS,
    analysis_texts,
    book_counts,
    lda_components,
    ranked_tops,
    reference_documents,
    yardstick,
)
from word_intrusion import ITEMS_FILE, KEY_FILE, ThemeTerms, build_items  # noqa: E402

SVD_DIMENSIONS = 100
INTRUSION_CORPORA = ("seed", "icml-2023-2025")


def lsa_vectors(counts: sparse.csr_matrix, *, dimensions: int = SVD_DIMENSIONS) -> np.ndarray:
    """Unit-length LSA document vectors: sublinear TF-IDF reduced by TruncatedSVD (seed 0)."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.preprocessing import normalize

    dimensions = min(dimensions, counts.shape[0] - 1, counts.shape[1] - 1)
    reduced = TruncatedSVD(n_components=dimensions, random_state=0).fit_transform(theme_counting._tfidf(counts))
    return normalize(reduced)


#: BERTopic's pipelines measured: how the LSA vectors are reduced and clustered. The table shows the best of them.
PIPELINES = ("UMAP + k-means", "SVD + k-means", "UMAP + HDBSCAN")


def bertopic_weights(counts: sparse.csr_matrix, k: int, pipeline: str) -> tuple[np.ndarray, int] | None:
    """BERTopic's c-TF-IDF term weights of its ``k`` topics (one row per topic, columns of ``counts``) and the
    abstracts it leaves as outliers; ``None`` when the pipeline cannot give ``k`` topics.

    ``pipeline`` is one of :data:`PIPELINES`: UMAP (BERTopic's defaults, seed 0) or none (the SVD vectors as they
    are), then k-means with ``k`` clusters (seed 0, 10 starts), or BERTopic's default HDBSCAN (10 abstracts a
    cluster at least) with its topics merged down to ``k`` (``nr_topics``; ``None`` when it finds fewer).
    Each abstract is handed to BERTopic as its term counts spelled out (term ``j`` as the token ``t<j>``), with
    a ``CountVectorizer`` fixed to those tokens, so c-TF-IDF counts exactly the book's terms.
    """
    from bertopic import BERTopic
    from bertopic.dimensionality import BaseDimensionalityReduction
    from hdbscan import HDBSCAN
    from sklearn.cluster import KMeans
    from sklearn.feature_extraction.text import CountVectorizer
    from umap import UMAP

    tokens = np.array([f"t{j}" for j in range(counts.shape[1])])
    documents = [" ".join(np.repeat(tokens[row.indices], row.data.astype(int))) for row in counts]
    reduction = BaseDimensionalityReduction() if pipeline.startswith("SVD") else UMAP(
        n_neighbors=15, n_components=5, min_dist=0.0, metric="cosine", random_state=0)
    hdbscan = pipeline.endswith("HDBSCAN")
    clustering = HDBSCAN(min_cluster_size=10, metric="euclidean", cluster_selection_method="eom",
                         prediction_data=True) if hdbscan else KMeans(n_clusters=k, random_state=0, n_init=10)
    model = BERTopic(umap_model=reduction, hdbscan_model=clustering,
                     vectorizer_model=CountVectorizer(vocabulary=list(tokens), token_pattern=r"\S+", lowercase=False),
                     top_n_words=2 * themes.N_DIVERSITY_TERMS, calculate_probabilities=False)
    embeddings = lsa_vectors(counts)
    topics, _ = model.fit_transform(documents, embeddings=embeddings)
    if hdbscan:
        found = len(set(topics) - {-1})
        if found < k:
            return None
        # nr_topics counts the outlier topic as one.
        topics = model.reduce_topics(documents, nr_topics=k + (-1 in set(topics))).topics_
    if sorted(set(topics) - {-1}) != list(range(k)):
        raise RuntimeError(f"BERTopic ({pipeline}) gave topics {sorted(set(topics))}, not 0..{k - 1}")
    column = {token: j for j, token in enumerate(tokens)}
    order = [column[t] for t in model.vectorizer_model.get_feature_names_out()]
    weights = np.zeros((k, counts.shape[1]))
    offset = 1 if -1 in set(topics) else 0  # c-TF-IDF's first row is the outlier topic's
    weights[:, order] = model.c_tf_idf_.toarray()[offset:offset + k]
    return weights, int(np.sum(np.asarray(topics) == -1))


def theme_terms(corpus: str, model: str, k: int, tops: list[tuple[list[str], list[str]]]) -> list[ThemeTerms]:
    return [ThemeTerms(corpus, model, k, i + 1, tuple(shown), tuple(ranked)) for i, (shown, ranked) in enumerate(tops)]


def book_terms(corpus: str, model: themes.ThemeModel) -> list[ThemeTerms]:
    """The book's themes as the item builder reads them: shown top terms and 25 strongest terms."""
    ranked = model.top_terms.sort_values(["theme", "rank"]).groupby("theme")["term"].apply(tuple)
    return [ThemeTerms(corpus, "book", len(model.themes), int(theme), tuple(top.split(", ")), ranked[theme])
            for theme, top in zip(model.themes["theme"], model.themes["top_terms"])]


def main() -> None:
    measured = pd.read_csv(RESULTS / "theme_yardstick.csv")
    corpora = {name: analysis_texts(path) for name, path in CORPORA.items() if path.exists()}
    reference_tokens = reference_documents(corpora)
    rows, intrusion = [], []
    for name, texts in corpora.items():
        counts, vocabulary = book_counts(texts)
        for row in measured[measured["corpus"] == name].itertuples():
            best = None
            for pipeline in PIPELINES:
                fitted = bertopic_weights(counts, int(row.k), pipeline)
                tops = None if fitted is None else ranked_tops(fitted[0], counts, vocabulary)
                score = np.nan if tops is None else yardstick([shown for shown, _ in tops], reference_tokens)
                rows.append(dict(corpus=name, n_abstracts=len(texts), k_rule=row.k_rule, k=int(row.k), pipeline=pipeline,
                                 outliers=np.nan if fitted is None else fitted[1], bertopic_npmi=round(score, 6),
                                 reference_documents=len(reference_tokens)))
                print(rows[-1], flush=True)
                if tops is not None and (best is None or score > best[0]):
                    best = (score, tops)
            if name in INTRUSION_CORPORA and row.k_rule == "chosen":
                book = themes.fit_themes(texts)
                book_score = yardstick([top.split(", ") for top in book.themes["top_terms"]], reference_tokens)
                if len(book.themes) != row.k or round(book_score, 6) != row.book_npmi:
                    raise SystemExit(f"{name}: the book's themes ({len(book.themes)}, {book_score:.6f}) are not those of "
                                     f"theme_yardstick.csv ({row.k}, {row.book_npmi}): run benchmarks/theme_yardstick.py first")
                lda = ranked_tops(lda_components(counts, int(row.k)), counts, vocabulary)
                # BERTopic's items come from its pipeline that scores best on the yardstick there.
                intrusion += [*book_terms(name, book), *theme_terms(name, "LDA", int(row.k), lda),
                              *theme_terms(name, "BERTopic", int(row.k), best[1])]
    RESULTS.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(RESULTS / "theme_peers.csv", index=False, lineterminator="\n")
    items, key = build_items(intrusion)
    items.to_csv(ITEMS_FILE, index=False, lineterminator="\n")
    key.to_csv(KEY_FILE, index=False, lineterminator="\n")
    print(key.groupby(["corpus", "model"]).size())


if __name__ == "__main__":
    main()
