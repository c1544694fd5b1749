"""Themes on two vocabularies (issue 21): today's unigrams and bigrams against the term map's noun phrases.

For the seed (57 abstracts) and icml2024-dev (495), the theme model is fitted with the book's
settings (seed 0, k chosen by the selection rule) on its own vocabulary (``theme_counts``) and on
the term map's candidate noun phrases (singular, acronyms and thesaurus merged, stock terms left
out, single nouns included, each phrase counted once as its longest term: ``term_occurrences`` and
``longest_term_counts``) at a document-frequency floor of 2 (the themes' own ``min_df``). Variants:
floors of 3 and 5; only the term map's kept phrases as terms of several words (any other phrase
counts as its longest allowed shorter form, down to its head noun: the single candidate nouns at
floor 2); only the terms at least 10 or 100 times as frequent in the abstracts as in general
English (``termhood.specificity`` >= 1 or 2). Where the two main vocabularies chose different k,
each is also fitted at the k the other one chose.

Also tried (issue 21, item 4): a **phrase-merged** vocabulary, in which the term map's kept
phrases consume their words in each abstract (longest first, left to right; :func:`phrase_merged_counts`)
and every other word stays a unigram of today's vocabulary (a variant also keeps today's bigrams of
two such words); a theme's top terms skip a term inside a higher-ranked phrase of the same theme
(:func:`distinct_top_terms`), and every measure of these rows is of those top terms.

Reported per fit: the terms and the mean number of distinct terms of an abstract; the chosen k;
``npmi``, the mean NPMI coherence of the themes' top 10 terms as the model scores itself (on its
own counts: for the noun phrases a phrase inside a longer kept one is not counted there, so this
yardstick differs between the vocabularies); ``npmi_reference``, the same top terms scored on one
common reference for both: a term is present in an abstract when its words (spelled as both
vocabularies spell them, a noun in its singular) occur there one after another, inside a longer
phrase or not (for unigrams and bigrams this is exactly their own yardstick, so ``npmi_reference``
equals ``npmi`` for the kept vocabulary); ``npmi_reference_words``, the same with a multi-word term
present where all its words occur anywhere in the abstract (a check of that choice);
``npmi_reference_distinct``, the reference NPMI without the pairs of a phrase and its own words
(one term inside the other, or two words that form a bigram of the vocabulary);
``npmi_reference_noun_terms``, that over the pairs of two term-map candidates (noun phrases after
merges) only, and ``noun_term_share``, the share of top terms that are such candidates (the unigram
themes also list adjectives and fragments: ``neural``, ``differentially``); ``never_together``, the
share of the pairs of ``npmi_reference_distinct`` that share no abstract; ``top_df_median``, the
median number of abstracts of a top term (reference); ``nested_themes``, the themes whose top 10
terms list a phrase beside a term inside it; ``generic_only_labels``, the theme labels that hold
only terms labelled generic or not a term in ``tests/evaluation/term_labels.csv``.

Usage: ``python benchmarks/theme_vocabulary.py`` -> ``benchmarks/results/theme_vocabulary.csv``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis import themes
from helpers.analysis.cooccurrence import analyse_cooccurrence
from helpers.analysis.cooccurrence.acronyms import acronym_definitions, acronym_merges
from helpers.analysis.cooccurrence.candidates import (
    candidate_term_matrix,
    longest_term_counts,
    read_thesaurus,
    term_occurrences,
)
from helpers.analysis.cooccurrence.evaluation import read_term_labels, term_key
from helpers.analysis.cooccurrence.termhood import read_generic_terms, specificity
from helpers.analysis.corpus import read_corpus
from helpers.analysis.text.word_classes import word_classes
from helpers.analysis.text.tokens import tokenize_corpus

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "benchmarks" / "results" / "theme_vocabulary.csv"


def noun_phrase_counts(texts: pd.Series, tokens, phrases: frozenset[str] | None = None,
                       min_specificity: float | None = None):
    """A ``theme_counts`` replacement: the term map's noun phrases, each phrase counted once.

    With ``phrases``, a term of several words is a term only when it is one of them (a phrase
    outside them counts as its longest allowed shorter form, down to its head noun). With
    ``min_specificity``, only terms at least that specific against general English (``termhood.specificity``
    of their abstracts) are terms.
    """
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
            label = found.label(code)
            allowed[code] = label not in stock and (phrases is None or " " not in label or label in phrases)
        if min_specificity is not None:
            codes = np.flatnonzero(allowed)
            labels = [found.label(c) for c in codes]
            n_tokens = int((tokens.token_ids != 0).sum())
            allowed[codes] = specificity(labels, df[codes], n_tokens) >= min_specificity
        matrix = longest_term_counts(found, n, allowed)
        counted = np.bincount(matrix.indices, minlength=found.n_codes)
        columns = np.flatnonzero(counted >= max(min_df, 1))
        names = np.array([found.label(c) for c in columns], dtype=object)
        columns, names = themes.alphabetical_top_terms(matrix, columns, names, max_features)
        return matrix[:, columns].tocsr(), names

    return counts


def _window_codes(sequence: np.ndarray, n_words: int, longest: int) -> tuple[dict, dict]:
    """Codes of every run of 1..``longest`` words (``-1`` across a boundary), and the keys to look runs up."""
    level_codes, level_keys = {1: sequence}, {}
    for length in range(2, longest + 1):
        previous, last = level_codes[length - 1][:len(sequence) - length + 1], sequence[length - 1:]
        valid = (previous >= 0) & (last >= 0)
        codes, keys = pd.factorize(np.where(valid, previous * n_words + last, -1))
        level_codes[length], level_keys[length] = np.where(valid, codes, -1), pd.Index(np.asarray(keys))
    return level_codes, level_keys


def _run_code(words: list[str], index: dict[str, int], n_words: int, level_keys: dict) -> int:
    """The code of a run of words (:func:`_window_codes`), or ``-1`` when it never occurs."""
    if any(word not in index for word in words):
        return -1
    code = index[words[0]]
    for length, word in enumerate(words[1:], start=2):
        code = int(level_keys[length].get_indexer([code * n_words + index[word]])[0])
        if code < 0:
            return -1
    return code


def phrase_merged_counts(tokens, phrases: frozenset[str], *, min_df: int = 1, max_df: float = 1.0,
                         max_features: int | None = None, bigrams: bool = False):
    """A ``theme_counts`` replacement: the phrases consume their words, every other word is a unigram.

    Words are spelled as the themes and the term map spell them (a noun in its singular). In each
    abstract the longest phrases are matched first, left to right, and a run of words already
    taken by a longer phrase is not matched again; the words no phrase took are counted as today's
    unigrams (stop words dropped), and with ``bigrams`` also as today's bigrams of two such words
    that are adjacent.

    Examples
    --------
    >>> from helpers.analysis.text.tokens import tokenize_corpus
    >>> tokens = tokenize_corpus(["deep reinforcement learning and reinforcement learning agents"], ["a"])
    >>> counts, terms = phrase_merged_counts(tokens, frozenset({"reinforcement learning",
    ...                                                         "deep reinforcement learning"}))
    >>> dict(zip(terms.tolist(), counts.toarray()[0].astype(int).tolist()))
    {'agent': 1, 'deep reinforcement learning': 1, 'reinforcement learning': 1}
    """
    classes = word_classes(tokens.vocabulary)
    folded_vocabulary, folded_id = np.unique(classes.folded.astype(str), return_inverse=True)
    index = {word: i for i, word in enumerate(folded_vocabulary)}
    n_words = len(folded_vocabulary)
    ids = tokens.token_ids
    sequence = np.where(ids == 0, -1, folded_id[ids]).astype(np.int64)
    text_of = tokens.text_index()
    phrases_sorted = sorted(p for p in phrases if " " in p)
    longest = max((len(p.split()) for p in phrases_sorted), default=1)
    level_codes, level_keys = _window_codes(sequence, n_words, longest)
    consumed = np.zeros(len(sequence), dtype=bool)
    rows: list[int] = []
    columns: list[int] = []
    for length in range(longest, 1, -1):
        wanted = {}
        for column, phrase in enumerate(phrases_sorted):
            if len(phrase.split()) == length:
                code = _run_code(phrase.split(), index, n_words, level_keys)
                if code >= 0:
                    wanted[code] = column
        if not wanted:
            continue
        codes = level_codes[length]
        starts = np.flatnonzero(np.isin(codes, list(wanted)))
        taken = np.concatenate([[0], np.cumsum(consumed)])
        starts = starts[taken[starts + length] - taken[starts] == 0]
        end = -1
        for start in starts.tolist():  # left to right; two matches of one length never overlap
            if start >= end:
                consumed[start:start + length] = True
                rows.append(int(text_of[start]))
                columns.append(wanted[int(codes[start])])
                end = start + length
    keep = ~consumed & ~classes.is_stop[ids] & (ids != 0)
    n_phrases = len(phrases_sorted)
    all_rows = [np.asarray(rows, dtype=np.int64), text_of[keep]]
    all_columns = [np.asarray(columns, dtype=np.int64), n_phrases + sequence[keep]]
    names = phrases_sorted + [str(w) for w in folded_vocabulary]
    width = n_phrases + n_words
    if bigrams:
        pair = keep[:-1] & keep[1:]
        codes, distinct = pd.factorize(sequence[:-1][pair] * n_words + sequence[1:][pair])
        all_rows.append(text_of[:-1][pair])
        all_columns.append(width + codes)
        names += [f"{folded_vocabulary[c // n_words]} {folded_vocabulary[c % n_words]}" for c in np.asarray(distinct)]
        width += len(distinct)
    all_rows, all_columns = np.concatenate(all_rows), np.concatenate(all_columns)
    counts = sparse.csr_matrix((np.ones(len(all_rows)), (all_rows, all_columns)), shape=(len(tokens), width))
    counts.sum_duplicates()
    names = np.array(names, dtype=object)
    df = np.bincount(counts.indices, minlength=width)
    kept = np.flatnonzero((df >= min_df) & (df <= max_df * len(tokens)))
    kept, terms = themes.alphabetical_top_terms(counts, kept, names[kept], max_features)
    return counts[:, kept].tocsr(), terms


def distinct_top_terms(ranked: list[str], n: int = themes.N_COHERENCE_TERMS) -> list[str]:
    """The first ``n`` of a theme's terms by weight, skipping a term inside a higher-ranked phrase.

    Examples
    --------
    >>> distinct_top_terms(["reinforcement learning", "reinforcement", "policy", "learning", "reward"], 3)
    ['reinforcement learning', 'policy', 'reward']
    """
    chosen: list[str] = []
    for term in ranked:
        if any(len(longer.split()) > len(term.split()) and inside(term, longer) for longer in chosen):
            continue
        chosen.append(term)
        if len(chosen) == n:
            break
    return chosen


def reference_presence(tokens, terms: list[str]) -> sparse.csc_matrix:
    """Abstracts x terms: 1 where the term's words occur one after another (nested or not)."""
    folded_vocabulary, folded_id = np.unique(word_classes(tokens.vocabulary).folded.astype(str), return_inverse=True)
    index = {word: i for i, word in enumerate(folded_vocabulary)}
    n_words = len(folded_vocabulary)
    sequence = np.where(tokens.token_ids == 0, -1, folded_id[tokens.token_ids]).astype(np.int64)
    text_of = tokens.text_index()
    longest = max(len(term.split()) for term in terms)
    level_codes, level_keys = _window_codes(sequence, n_words, longest)
    rows, columns = [], []
    for column, term in enumerate(terms):
        words = term.split()
        code = _run_code(words, index, n_words, level_keys)
        if code < 0:
            continue
        texts = np.unique(text_of[np.flatnonzero(level_codes[len(words)] == code)])
        rows.append(texts)
        columns.append(np.full(len(texts), column))
    rows, columns = (np.concatenate(a) if a else np.array([], dtype=np.int64) for a in (rows, columns))
    return sparse.csc_matrix((np.ones(len(rows)), (rows, columns)), shape=(len(tokens), len(terms)))


def word_presence(tokens, terms: list[str]) -> sparse.csc_matrix:
    """Abstracts x terms: 1 where every word of the term (``of`` aside) occurs somewhere in the abstract."""
    words = sorted({w for term in terms for w in term.split() if w != "of"})
    present = reference_presence(tokens, words).toarray() > 0
    position = {w: i for i, w in enumerate(words)}
    columns = [np.logical_and.reduce([present[:, position[w]] for w in term.split() if w != "of"]) for term in terms]
    return sparse.csc_matrix(np.column_stack(columns).astype(float))


def inside(first: str, second: str) -> bool:
    """Whether one term's words are a run of the other's (``network`` in ``neural network``)."""
    short, long = sorted((first.split(), second.split()), key=len)
    return short != long and any(long[i:i + len(short)] == short for i in range(len(long) - len(short) + 1))


def npmi_pair(together: np.ndarray, n: int) -> float:
    """NPMI of one pair from a 2-column presence array, as ``themes.npmi_coherence`` scores it."""
    joint = (together[:, 0] & together[:, 1]).sum() / n
    if joint == 0:
        return -1.0
    if joint == 1:
        return 1.0
    return float(np.log(joint / (together[:, 0].mean() * together[:, 1].mean())) / -np.log(joint))


def measures(model, tokens, vocabulary: set[str], candidates: set[str], tops: list[list[str]] | None = None) -> dict:
    tops = [terms.split(", ") for terms in model.themes["top_terms"]] if tops is None else tops
    terms = sorted({t for top in tops for t in top})
    position = {t: i for i, t in enumerate(terms)}
    reference = reference_presence(tokens, terms)
    indices = [[position[t] for t in top] for top in tops]
    present = reference.toarray() > 0
    own_words = lambda a, b: inside(a, b) or f"{a} {b}" in vocabulary or f"{b} {a}" in vocabulary  # noqa: E731
    nouns = [npmi_pair(present[:, [position[a], position[b]]], len(tokens))
             for top in tops for i, a in enumerate(top) for b in top[i + 1:]
             if a in candidates and b in candidates and not own_words(a, b)]
    distinct = [npmi_pair(present[:, [position[a], position[b]]], len(tokens))
                for top in tops for i, a in enumerate(top) for b in top[i + 1:] if not own_words(a, b)]
    return dict(
        npmi_reference=round(float(np.mean(themes.npmi_coherence(indices, reference))), 6),
        npmi_reference_words=round(float(np.mean(themes.npmi_coherence(indices, word_presence(tokens, terms)))), 6),
        npmi_reference_distinct=round(float(np.mean(distinct)), 6),
        npmi_reference_noun_terms=round(float(np.mean(nouns)), 6),
        noun_term_share=round(float(np.mean([t in candidates for top in tops for t in top])), 6),
        never_together=round(float(np.mean(np.array(distinct) == -1.0)), 6),
        top_df_median=float(np.median(np.asarray(reference.sum(axis=0)).ravel())),
        nested_themes=int(sum(any(inside(a, b) for i, a in enumerate(top) for b in top[i + 1:]) for top in tops)),
    )


VOCABULARIES = {
    "unigrams and bigrams (kept)": None,
    "term map noun phrases (tried)": 2,
    "term map noun phrases at floor 3 (variant)": 3,
    "term map noun phrases at floor 5 (variant)": 5,
    "candidate nouns and the term map's kept phrases (variant)": 2,
    "term map noun phrases at least 10 times as frequent as in English (variant)": 2,
    "term map noun phrases at least 100 times as frequent as in English (variant)": 2,
    "term map phrases merged, other words as unigrams (merged)": None,
    "term map phrases merged, other words as unigrams and bigrams (merged variant)": None,
}


def fit(name: str, paths: list[Path], labels: dict[str, str]) -> list[dict]:
    papers = read_corpus(paths).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    rows = []
    original = themes.theme_counts
    chosen: dict[str, int] = {}
    thesaurus = read_thesaurus()
    corpus_wide, local = acronym_merges(acronym_definitions(papers["text"].tolist()), thesaurus)
    candidates = set(candidate_term_matrix(tokens, {**corpus_wide, **thesaurus}, paper_merges=local)[1].astype(str))
    term_map = analyse_cooccurrence(papers["text"], tokens)
    map_phrases = frozenset(t for t in term_map.terms["term"] if " " in t)

    def run(vocabulary: str, floor: int | None, k: int | None) -> None:
        merged = "phrases merged" in vocabulary
        if merged:
            themes.theme_counts = lambda t, *, min_df=1, max_df=1.0, max_features=None: phrase_merged_counts(
                t, map_phrases, min_df=min_df, max_df=max_df, max_features=max_features,
                bigrams="bigrams" in vocabulary)
        elif floor is not None:
            counts = noun_phrase_counts(
                papers["text"], tokens, map_phrases if "map's kept phrases" in vocabulary else None,
                1.0 if "10 times" in vocabulary else 2.0 if "100 times" in vocabulary else None)
            themes.theme_counts = lambda t, *, min_df=1, max_df=1.0, max_features=None: counts(
                t, min_df=max(min_df, floor), max_df=max_df, max_features=max_features)
        try:
            model = themes.fit_themes(tokens, themes.ThemeOptions(k=k, seed=0))
        finally:
            themes.theme_counts = original
        generic_only = sum(all(labels.get(term_key(t)) in ("G", "X") for t in label.split(" · "))
                           for label in model.themes["label"])
        tops, npmi = None, round(float(model.themes["coherence"].mean()), 6)
        if merged:
            ranked = model.top_terms.sort_values(["theme", "rank"]).groupby("theme")["term"].agg(list)
            tops = [distinct_top_terms(terms) for terms in ranked]
            position = {t: i for i, t in enumerate(model.selection_vocabulary.astype(str))}
            own = sparse.csc_matrix((model.selection_counts > 0).astype(float))
            npmi = round(float(np.mean(themes.npmi_coherence([[position[t] for t in top] for top in tops], own))), 6)
        rows.append(dict(corpus=name, n_abstracts=len(papers), vocabulary=vocabulary,
                         k_rule="chosen" if k is None else "other vocabulary's k",
                         n_terms=int(model.settings.vocabulary),
                         terms_per_abstract=round(float(np.diff(model.selection_counts.indptr).mean()), 6),
                         k=int(model.settings.chosen_k),
                         npmi=npmi,
                         **measures(model, tokens, set(model.selection_vocabulary.astype(str)), candidates, tops),
                         generic_only_labels=int(generic_only), labels=" | ".join(model.themes["label"])))
        print(rows[-1], file=sys.stderr, flush=True)
        if k is None:
            chosen[vocabulary] = rows[-1]["k"]

    for vocabulary, floor in VOCABULARIES.items():
        run(vocabulary, floor, None)
    kept, tried = list(VOCABULARIES)[:2]
    if chosen[kept] != chosen[tried]:
        run(kept, None, chosen[tried])
        run(tried, VOCABULARIES[tried], chosen[kept])
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
