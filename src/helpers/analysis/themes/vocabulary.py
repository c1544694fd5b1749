"""Theme vocabulary: the words and word pairs the topic models count, spelled as the term map spells them.

:func:`theme_terms` is the rule for one text; :func:`theme_counts` counts it for a whole corpus at once
(for one partition of it: :mod:`helpers.analysis.themes.counting`). :class:`ThemesError` is the error of a
corpus that cannot be modelled, whichever step finds it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.text.tokens import TokenizedCorpus, segments
from helpers.analysis.text.word_classes import folded_or_stopped, word_classes

__all__ = ["ThemesError", "KOutOfRange", "theme_terms", "alphabetical_top_terms", "theme_counts"]


class ThemesError(ValueError):
    """The corpus cannot be modelled (too few abstracts or terms): one line saying why.

    Examples
    --------
    >>> str(ThemesError("3 abstracts: at least 10 are needed"))
    '3 abstracts: at least 10 are needed'
    """


class KOutOfRange(ThemesError):
    """The number of themes asked for is outside what the corpus allows (a user error, not the corpus's).

    Examples
    --------
    >>> isinstance(KOutOfRange("themes=40 is above 12"), ThemesError)
    True
    """


@lru_cache(maxsize=100_000)
def _theme_word(word: str) -> str | None:
    """A word as the themes spell it (the term map's singular of a noun), or ``None`` for a stop word."""
    return folded_or_stopped(word)


def theme_terms(text: str) -> list[str]:
    """Unigrams and bigrams of an analysis text for the topic models.

    Words are spelled as in the term map: a noun in its singular form
    (:attr:`helpers.analysis.text.word_classes.WordClasses.folded`, lemminflect's
    ``matrices -> matrix``), every other word as written; stop words, checked on
    the singular too (``frameworks``), are dropped; a bigram joins two non-stop
    words that are adjacent in the text (never across a boundary). The rule for one
    text; :func:`theme_counts` counts it for a whole corpus at once.

    Parameters
    ----------
    text : str
        An analysis text (:func:`helpers.analysis.text.cleaning.analysis_text`).

    Returns
    -------
    list of str
        Its unigrams in order, then its bigrams in order.

    Examples
    --------
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> theme_terms(analysis_text("We propose graph neural networks for molecules."))
    ['graph', 'neural', 'network', 'molecule', 'graph neural', 'neural network']
    >>> theme_terms("biases of random matrices")
    ['bias', 'random', 'matrix', 'random matrix']
    """
    unigrams: list[str] = []
    bigrams: list[str] = []
    for run in segments(text):
        previous: str | None = None
        for token in run:
            spelled = _theme_word(token)
            if spelled is None:
                previous = None
                continue
            unigrams.append(spelled)
            if previous is not None:
                bigrams.append(f"{previous} {spelled}")
            previous = spelled
    return unigrams + bigrams


def alphabetical_top_terms(counts: sparse.spmatrix, columns: np.ndarray, terms: np.ndarray,
                           max_features: int | None) -> tuple[np.ndarray, np.ndarray]:
    """``columns`` and their ``terms`` in alphabetical order, cut to the ``max_features`` most frequent.

    The cut keeps alphabetical order, and ties in frequency go to the alphabetically first term.

    Parameters
    ----------
    counts : sparse matrix
        Texts x every counted term.
    columns : ndarray of int
        The columns of ``counts`` kept so far.
    terms : ndarray of str
        Their terms.
    max_features : int or None
        The most terms to keep (``None``: all).

    Returns
    -------
    columns : ndarray of int
        The columns kept, in their terms' alphabetical order.
    terms : ndarray of str
        Their terms.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 5, 2], [0, 1, 2]]))
    >>> columns, terms = alphabetical_top_terms(X, np.array([0, 1, 2]), np.array(["b", "c", "a"]), 2)
    >>> columns.tolist(), terms.tolist()
    ([2, 1], ['a', 'c'])
    """
    alphabetical = np.argsort(terms, kind="stable")
    columns, terms = columns[alphabetical], terms[alphabetical]
    if max_features is not None and len(columns) > max_features:
        frequency = np.asarray(counts.sum(axis=0)).ravel()[columns]
        chosen = np.sort(np.argsort(-frequency, kind="stable")[:max_features])
        columns, terms = columns[chosen], terms[chosen]
    return columns, terms


def theme_counts(
    tokens: TokenizedCorpus, *, min_df: int = 1, max_df: float = 1.0, max_features: int | None = None,
) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Counts of :func:`theme_terms` per text, without a Python loop over texts.

    The result equals ``CountVectorizer(analyzer=theme_terms, min_df=min_df,
    max_df=max_df, max_features=max_features)`` on the analysis texts (a tested
    equivalence), except that ties at the ``max_features`` cut-off keep the
    alphabetically first terms.

    Returns
    -------
    counts : csr_matrix of float64
        Texts x terms, rows in ``tokens`` order.
    vocabulary : ndarray of str
        The terms, sorted (column order).

    Parameters
    ----------
    tokens : TokenizedCorpus
        The corpus's texts, tokenized once (:func:`helpers.analysis.text.tokens.tokenize_corpus`).
    min_df : int
        The fewest texts a term must be in.
    max_df : float
        The largest share of texts a term may be in.
    max_features : int, optional
        The most terms kept, the most frequent.

    Raises
    ------
    ThemesError
        When no term is left (the corpus is too small or holds only stop words).

    Examples
    --------
    >>> from helpers.analysis.text.tokens import tokenize_corpus
    >>> tokens = tokenize_corpus(["graph networks for graphs", "neural networks"], ["a", "b"])
    >>> counts, vocabulary = theme_counts(tokens)
    >>> vocabulary.tolist()
    ['graph', 'graph network', 'network', 'neural', 'neural network']
    >>> counts.toarray().astype(int).tolist()
    [[2, 1, 1, 0, 0], [0, 0, 1, 1, 1]]
    """
    classes = word_classes(tokens.vocabulary)
    folded_vocabulary, folded_id = np.unique(classes.folded.astype(str), return_inverse=True)
    folded_vocabulary = folded_vocabulary.astype(object)
    ids = tokens.token_ids
    text_of = tokens.text_index()
    keep = ~classes.is_stop[ids]
    folded_words = folded_id.astype(np.int32)[ids]
    # Each text ends with a boundary, so adjacent kept positions are in one run of one text.
    pair = keep[:-1] & keep[1:]
    n_folded = len(folded_vocabulary)
    codes = np.concatenate([folded_words[keep],
                            n_folded + folded_words[:-1][pair].astype(np.int64) * n_folded + folded_words[1:][pair]])
    rows = np.concatenate([text_of[keep], text_of[:-1][pair]])
    # Hash-based factorize: faster and lighter than sorting; column order is fixed by the terms below.
    columns, distinct = pd.factorize(codes)
    del codes
    distinct = np.asarray(distinct)
    counts = sparse.csr_matrix((np.ones(len(columns), dtype=np.int32), (rows, columns.astype(np.int32))),
                               shape=(len(tokens), len(distinct)))
    del rows, columns
    counts.sum_duplicates()
    counts = counts.astype(np.float64)
    document_frequency = np.bincount(counts.indices, minlength=len(distinct))
    mask = (document_frequency >= min_df) & (document_frequency <= max_df * len(tokens))
    kept = np.flatnonzero(mask)
    terms = np.array([
        folded_vocabulary[c] if c < n_folded
        else f"{folded_vocabulary[(c - n_folded) // n_folded]} {folded_vocabulary[(c - n_folded) % n_folded]}"
        for c in distinct[kept]
    ], dtype=object)
    kept, terms = alphabetical_top_terms(counts, kept, terms, max_features)
    if not len(kept):
        raise ThemesError("no terms remain after min_df and max_df")
    # Sorted column indices: a row's TF-IDF (a sum over its entries) is then the same bits in any partition.
    counts = counts[:, kept].tocsr()
    counts.sort_indices()
    return counts, terms
