"""Candidate terms of the term map: noun phrases per abstract, merged through the thesaurus and the acronyms the
abstracts define (:mod:`.acronyms`)."""

from __future__ import annotations

import bisect
import csv
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.text.noun_phrases import MAX_TERM_WORDS, context_classes, noun_phrase_spans, text_terms
from helpers.analysis.text.tokens import TokenizedCorpus
from helpers.analysis.text.word_classes import fold_phrase, word_classes


def candidate_terms(text: str, merges: dict[str, str] | None = None) -> set[str]:
    """The distinct terms of one analysis text (the rule for one text, as a reader can check it).

    Terms are the noun phrases of :func:`helpers.analysis.text.noun_phrases.text_terms`; ``merges``
    (thesaurus and acronyms) then maps variants to one label.
    :func:`candidate_term_matrix` applies the same rule to a whole corpus at once.

    Parameters
    ----------
    text : str
        One analysis text (:func:`helpers.analysis.text.cleaning.analysis_text`).
    merges : dict of str to str, optional
        Variant -> the label it is counted as.

    Returns
    -------
    set of str

    Examples
    --------
    >>> sorted(candidate_terms("we train a mixture of experts"))
    ['expert', 'mixture', 'mixture of expert']
    >>> sorted(candidate_terms("gnns work", {"gnn": "graph neural network"}))
    ['graph neural network']
    """
    merges = merges or {}
    return {merges.get(label, label) for label in (" ".join(words) for words in text_terms(text))}


def candidate_term_matrix(
    tokens: TokenizedCorpus,
    merges: dict[str, str] | None = None,
    *,
    min_papers: int = 1,
    paper_merges: pd.DataFrame | None = None,
    counts: bool = False,
) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Which texts hold which :func:`candidate_terms`, for a whole tokenised corpus at once.

    Each word type is tagged once (:func:`helpers.analysis.text.word_classes.word_classes`); the
    context rules and the noun-phrase spans are array operations over every
    position of the corpus. Equals :func:`candidate_terms` text by text (a
    tested equivalence).

    Parameters
    ----------
    merges : dict, optional
        Term -> term, applied in every text (thesaurus, corpus-wide acronyms).
    paper_merges : DataFrame, optional
        ``row, from, to``: term -> term in the text at position ``row`` only
        (acronyms defined there, :func:`acronym_merges`). Of two rows with the
        same ``row`` and ``from`` (an acronym defined twice in one abstract), the
        first applies.
    counts : bool
        Return the number of occurrences of each term in each text instead of 1
        (a term found inside a phrase counts there too: "kernel" in "graph kernel").

    Returns
    -------
    binary : csr_matrix of int64
        Texts x terms (1 where the text holds the term, or its occurrences when
        ``counts``), rows in ``tokens`` order.

    Raises
    ------
    ValueError
        When a ``paper_merges`` row is no position of ``tokens``.
    terms : ndarray of str
        The terms in at least ``min_papers`` texts, sorted (column order).

    Examples
    --------
    >>> from helpers.analysis.text.tokens import tokenize_corpus
    >>> tokens = tokenize_corpus(["mixture of experts", "the expert"], ["a", "b"])
    >>> binary, terms = candidate_term_matrix(tokens)
    >>> terms.tolist(), binary.toarray().tolist()
    (['expert', 'mixture', 'mixture of expert'], [[1, 1, 1], [1, 0, 0]])
    >>> candidate_term_matrix(tokenize_corpus(["the expert and the expert"], ["a"]), counts=True)[0].toarray()
    array([[2]])
    """
    found = term_occurrences(tokens, merges, paper_merges=paper_merges)
    rows, term_code, n_codes = found.rows, found.codes, found.n_codes
    binary = sparse.csr_matrix((np.ones(len(term_code), dtype=np.int32), (rows, term_code)),
                               shape=(len(tokens), n_codes))
    binary.sum_duplicates()
    if not counts:
        binary.data[:] = 1
    papers = np.bincount(binary.indices, minlength=n_codes)
    kept = np.flatnonzero(papers >= max(min_papers, 1))
    terms = np.array([found.label(int(c)) for c in kept], dtype=object)
    alphabetical = np.argsort(terms.astype(str), kind="stable")
    return binary[:, kept[alphabetical]].tocsr().astype(np.int64), terms[alphabetical].astype(str).astype(object)


@dataclass(frozen=True)
class TermOccurrences:
    """Every term occurrence of a tokenised corpus, after merges: text row, term code, last word, length.

    Attributes
    ----------
    rows, codes, ends, lengths : ndarray of int64
        Per occurrence: its text, its term (a code, :meth:`label` names it), the position
        of its last word in ``token_ids`` and its number of words.
    n_codes : int
        Codes run from 0 to ``n_codes - 1`` (not every code occurs).
    """

    rows: np.ndarray
    codes: np.ndarray
    ends: np.ndarray
    lengths: np.ndarray
    n_codes: int
    term_codes: "_TermCodes"
    merged_labels: dict[int, str]

    def label(self, code: int) -> str:
        """The term a code stands for."""
        return self.merged_labels.get(int(code)) or self.term_codes.label(int(code))


def term_occurrences(tokens: TokenizedCorpus, merges: dict[str, str] | None = None, *,
                     paper_merges: pd.DataFrame | None = None) -> TermOccurrences:
    """The term occurrences :func:`candidate_term_matrix` counts (same arguments), one per noun-phrase span.

    Raises
    ------
    ValueError
        When a ``paper_merges`` row is no position of ``tokens``.
    """
    classes = word_classes(tokens.vocabulary)
    folded_vocabulary, folded_id = np.unique(classes.folded.astype(str), return_inverse=True)
    n_folded = len(folded_vocabulary)
    ids = tokens.token_ids
    starts, lengths = noun_phrase_spans(context_classes(ids, classes))
    words = folded_id[ids].astype(np.int64)
    codes = _TermCodes(words, starts, lengths, n_folded, folded_vocabulary)
    rows = tokens.text_index()[starts].astype(np.int64)
    term_code = codes.final
    labels: dict[int, str] = {}
    n_codes = codes.n_codes

    def code_of(label: str) -> int | None:
        code = codes.code_for(label)
        if code is None:
            code = next((c for c, name in labels.items() if name == label), None)
        return code

    def code_or_new(label: str) -> int:
        nonlocal n_codes
        code = code_of(label)
        if code is None:
            code, n_codes = n_codes, n_codes + 1
            labels[code] = label
        return code

    if merges:
        found = [(code_of(s), t) for s, t in sorted(merges.items())]
        sources = [(c, t) for c, t in found if c is not None]
        targets = [code_or_new(t) for _, t in sources]
        remap = np.arange(n_codes, dtype=np.int64)
        for (source, _), target in zip(sources, targets):
            remap[source] = target
        term_code = remap[term_code]
    if paper_merges is not None and len(paper_merges):
        outside = paper_merges["row"][(paper_merges["row"] < 0) | (paper_merges["row"] >= len(tokens))]
        if len(outside):
            raise ValueError(f"paper_merges row {int(outside.iloc[0])} is outside the corpus ({len(tokens)} texts)")
        keyed = [(int(r), code_of(s), code_or_new(merges.get(t, t) if merges else t))
                 for r, s, t in paper_merges[["row", "from", "to"]].itertuples(index=False)]
        keyed = [(r, s, t) for r, s, t in keyed if s is not None]
        if keyed:
            local = np.array(keyed, dtype=np.int64)
            width = np.int64(n_codes)
            local_keys = local[:, 0] * width + local[:, 1]
            # Stable: of two merges for one acronym in one text, searchsorted finds the first defined.
            order = np.argsort(local_keys, kind="stable")
            local_keys, local_targets = local_keys[order], local[order, 2]
            occurrence_keys = rows * width + term_code
            at = np.minimum(np.searchsorted(local_keys, occurrence_keys), len(local_keys) - 1)
            hit = local_keys[at] == occurrence_keys
            term_code = np.where(hit, local_targets[at], term_code)
    return TermOccurrences(rows, term_code, starts + lengths - 1, lengths.astype(np.int64), n_codes, codes, labels)


def longest_term_counts(found: TermOccurrences, n_texts: int, allowed: np.ndarray) -> sparse.csr_matrix:
    """Texts x codes counts where each noun phrase counts once, as its longest allowed term.

    Of the left-shortened forms of one phrase (``graph neural network``, ``neural network``,
    ``network``: occurrences that end at the same word), only the longest whose code is
    ``allowed`` (a boolean array over codes) is counted, so a phrase is never counted
    beside its own words.

    Examples
    --------
    >>> from helpers.analysis.text.tokens import tokenize_corpus
    >>> tokens = tokenize_corpus(["graph neural networks", "neural networks"], ["a", "b"])
    >>> found = term_occurrences(tokens)
    >>> allowed = np.zeros(found.n_codes, dtype=bool)
    >>> names = {found.label(c): c for c in found.codes.tolist()}
    >>> allowed[[names["neural network"], names["network"]]] = True
    >>> counts = longest_term_counts(found, 2, allowed)
    >>> {found.label(c): counts[:, c].toarray().ravel().tolist() for c in np.flatnonzero(counts.sum(axis=0))}
    {'neural network': [1.0, 1.0]}
    """
    keep = np.asarray(allowed)[found.codes]
    ends, lengths, codes, rows = found.ends[keep], found.lengths[keep], found.codes[keep], found.rows[keep]
    order = np.lexsort((-lengths, ends))
    first = np.r_[True, ends[order][1:] != ends[order][:-1]] if len(order) else np.array([], dtype=bool)
    chosen = order[first]
    counts = sparse.csr_matrix((np.ones(len(chosen), dtype=np.float64), (rows[chosen], codes[chosen])),
                               shape=(n_texts, found.n_codes))
    counts.sum_duplicates()
    return counts


class _TermCodes:
    """Integer codes for word sequences of up to ``MAX_TERM_WORDS + 1`` words (one per distinct sequence).

    A sequence of length ``L`` is coded by factorising (code of its first
    ``L - 1`` words, its last word) among all sequences of that length; codes
    of different lengths are offset so they never collide.
    """

    def __init__(self, words: np.ndarray, starts: np.ndarray, lengths: np.ndarray, n_words: int,
                 vocabulary: np.ndarray) -> None:
        self.n_words = n_words
        self.vocabulary = vocabulary
        self.keys: list[pd.Index] = [pd.RangeIndex(n_words)]
        self.offsets = [0]
        code = words[starts]
        self.final = code.copy()
        active = np.arange(len(starts))
        offset = n_words
        for length in range(2, MAX_TERM_WORDS + 2):
            active = active[lengths[active] >= length]
            if not len(active):
                break
            level_codes, keys = pd.factorize(code[active] * n_words + words[starts[active] + length - 1])
            code[active] = level_codes
            self.keys.append(pd.Index(np.asarray(keys, dtype=np.int64)))
            self.offsets.append(offset)
            done = lengths[active] == length
            self.final[active[done]] = offset + level_codes[done]
            offset += len(keys)
        self.n_codes = offset
        self.index = {str(w): i for i, w in enumerate(vocabulary)}
        self._key_values = [keys.to_numpy() for keys in self.keys]  # read one by one: an array, not an Index

    def label(self, code: int) -> str:
        level = bisect.bisect_right(self.offsets, code) - 1
        local = code - self.offsets[level]
        if level == 0:
            return str(self.vocabulary[local])
        key = int(self._key_values[level][local])
        previous, word = divmod(key, self.n_words)
        return f"{self.label(self.offsets[level - 1] + previous) if level > 1 else self.vocabulary[previous]} " \
               f"{self.vocabulary[word]}"

    def code_for(self, label: str) -> int | None:
        """The code of a term, or None if no text holds it."""
        words = label.split()
        if not words or len(words) > len(self.keys) or any(w not in self.index for w in words):
            return None
        code = self.index[words[0]]
        for level, word in enumerate(words[1:], start=1):
            position = self.keys[level].get_indexer([code * self.n_words + self.index[word]])[0]
            if position < 0:
                return None
            code = int(position)
        return self.offsets[len(words) - 1] + code




def read_thesaurus(path: str | Path | None = None) -> dict[str, str]:
    """A VOSviewer-style thesaurus (CSV with columns ``label,replace by``) as a mapping.

    Without ``path``, the project's ``resources/thesaurus.csv`` is read. Labels
    are lower-cased and made singular like the terms they replace.

    Parameters
    ----------
    path : str or Path, optional
        The researcher's thesaurus file.

    Returns
    -------
    dict of str to str
        Label -> replacement, both folded as terms are.

    Raises
    ------
    ValueError
        For a file without the header, or a line without two cells (naming the file and line).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "thesaurus.csv"
    >>> _ = path.write_text("label,replace by\\nbroiler chickens,broiler\\n", encoding="utf-8")
    >>> read_thesaurus(path)
    {'broiler chicken': 'broiler'}
    """
    if path is None:
        content = resources.files("helpers.analysis").joinpath("resources", "thesaurus.csv").read_text("utf-8")
    else:
        content = Path(path).read_text(encoding="utf-8")
    rows = [row for row in csv.reader(line for line in content.splitlines()
                                      if line.strip() and not line.startswith("#"))]
    if not rows or [c.strip().lower() for c in rows[0][:2]] != ["label", "replace by"]:
        raise ValueError(f"{path or 'thesaurus.csv'}: line 1: expected the header 'label,replace by'")
    mapping = {}
    for number, row in enumerate(rows[1:], start=2):
        if len(row) < 2:
            raise ValueError(f"{path or 'thesaurus.csv'}: line {number}: expected 'label,replace by'")
        label, replacement = (fold_phrase(c.strip().lower().split()) for c in row[:2])
        mapping[label] = replacement
    return mapping


def merge_table(acronyms: pd.DataFrame, local: pd.DataFrame, thesaurus: dict[str, str]) -> pd.DataFrame:
    corpus_wide = acronyms[acronyms["scope"] == "corpus"]
    local_pairs = local[["from", "to"]].drop_duplicates().sort_values(["from", "to"])
    return pd.concat([
        pd.DataFrame({"from": corpus_wide["acronym"], "to": corpus_wide["long_form"], "source": "acronym"}),
        local_pairs.assign(source="acronym in defining abstracts"),
        pd.DataFrame({"from": list(thesaurus), "to": list(thesaurus.values()), "source": "thesaurus"}),
    ], ignore_index=True).astype(object)
