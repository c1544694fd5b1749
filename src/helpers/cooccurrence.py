"""Co-occurring terms: a term map in the manner of VOSviewer, built from sparse counts.

The steps of :func:`analyse_cooccurrence`, each a function of its own:

1. :func:`candidate_term_matrix`: which abstracts use which noun-phrase terms
   (:mod:`helpers.terms`), counted once per abstract, after merging variants
   through the thesaurus and the acronyms the abstracts define
   (:func:`acronym_merges`).
2. :func:`select_terms`: terms in at least :func:`default_min_occurrences`
   abstracts, then the most relevant share of them (:func:`relevance_scores`).
3. :func:`pair_table`: pair counts from one sparse product ``X.T @ X``, with
   VOSviewer's association strength.
4. :func:`term_network`: the drawn links, Louvain communities, a seeded layout.
"""

from __future__ import annotations

import csv
import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse, special

from helpers.terms import (MAX_TERM_WORDS, context_classes, fold_phrase, noun_phrase_spans, text_terms,
                           word_classes)
from helpers.text import TokenizedCorpus, analysis_texts_to_tokens

__all__ = [
    "RELEVANT_SHARE",
    "candidate_terms",
    "candidate_term_matrix",
    "acronym_definitions",
    "find_acronyms",
    "acronym_merges",
    "read_thesaurus",
    "default_min_occurrences",
    "context_topics",
    "relevance_scores",
    "select_terms",
    "default_min_pair_papers",
    "pair_table",
    "term_network",
    "analyse_cooccurrence",
    "CooccurrenceResult",
    "network_writers",
    "ordered_subgraph",
    "write_vosviewer_json",
    "write_vosviewer_map",
    "write_vosviewer_network",
    "explorer_url",
    "papers_with_terms",
    "strongest_pairs",
    "strongest_pairs_table",
    "chapter_values",
    "top_acronyms",
    "write_chapter_files",
    "downloads_html",
]

RELEVANT_SHARE = 0.6
VOSVIEWER_MIN_OCCURRENCES = 10
MIN_OCCURRENCES_FLOOR, MIN_OCCURRENCES_DIVISOR = 3, 3
MIN_OCCURRENCES_RULE = f"max({MIN_OCCURRENCES_FLOOR}, ceil(sqrt(N) / {MIN_OCCURRENCES_DIVISOR}))"
RELEVANCE_SMOOTHING = 10.0
RELEVANCE_TOPICS = 20
# The most frequent terms whose co-occurrence profiles define the topics of the relevance score.
CONTEXT_TERMS = 500
MAX_MAP_TERMS = 500
MAX_LINKS_PER_TERM = 4
LOUVAIN_SEED = 0
LOUVAIN_RESOLUTION = 1.0
LAYOUT_ITERATIONS = 100
# An acronym renames its letters in every abstract only when at least this many abstracts define it, all alike.
MIN_CORPUS_WIDE_DEFINITIONS = 2
# How many terms just below the relevance cut the result keeps, for the report and the chapter.
BELOW_CUT_ROWS = 10

# An acronym in parentheses, then the 1-8 words just before it. Searching for the parenthesis
# first and looking back is much faster than one pattern that starts at every word.
_ACRONYM_PAREN = re.compile(r"\(\s*([A-Z][A-Za-z0-9-]*?[A-Z][A-Za-z0-9-]*?)(s?)\s*\)")
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_WORD_SUFFIX = re.compile(r"[^\W\d_][\w'-]*$")
_LOOK_BACK = 400
_MAX_WORDS_BEFORE = 8


def _words_before(text: str, end: int) -> list[str]:
    """The up to 8 words separated by white space that end just before ``text[end]``.

    The first of them may be the tail of a longer piece (``(deep`` gives ``deep``).

    Examples
    --------
    >>> _words_before("see (deep neural networks (DNNs)", 26)
    ['deep', 'neural', 'networks']
    >>> _words_before("networks, (N)", 10)
    []
    """
    chunk = text[max(0, end - _LOOK_BACK):end]
    if not chunk or not chunk[-1].isspace():
        return []
    words: list[str] = []
    for piece in reversed(chunk.split()):
        if len(words) == _MAX_WORDS_BEFORE:
            break
        if _WORD.fullmatch(piece):
            words.append(piece)
            continue
        tail = _WORD_SUFFIX.search(piece)
        if tail:
            words.append(tail.group())
        break
    return words[::-1]




def default_min_occurrences(n_papers: int) -> int:
    """Minimum abstracts a term must occur in: ``max(3, ceil(sqrt(N) / 3))`` for ``N`` abstracts.

    VOSviewer's default is a fixed 10 occurrences; a fixed number keeps almost
    every term of a large corpus and almost none of a small one, so the
    threshold here grows with the square root of the corpus: the number of
    terms on the map grows with the corpus, but much more slowly.

    Examples
    --------
    >>> [default_min_occurrences(n) for n in (57, 495, 3_000, 20_000, 100_000)]
    [3, 8, 19, 48, 106]
    """
    return max(MIN_OCCURRENCES_FLOOR, math.ceil(math.sqrt(n_papers) / MIN_OCCURRENCES_DIVISOR))


def default_min_pair_papers(pair_papers: np.ndarray, n_terms: int) -> int:
    """The smallest count (at least 2) that leaves at most ``MAX_LINKS_PER_TERM`` links per term in the drawing.

    Examples
    --------
    >>> default_min_pair_papers(np.array([1, 2, 2, 2, 2, 2, 3]), 1)
    3
    >>> default_min_pair_papers(np.array([], dtype=int), 5)
    2
    """
    pair_papers = np.sort(np.asarray(pair_papers))[::-1]
    budget = MAX_LINKS_PER_TERM * n_terms
    if len(pair_papers) <= budget:
        return 2
    # The (budget + 1)-th largest count must be left out, so the threshold is just above it.
    return max(2, int(pair_papers[budget]) + 1)


def _validate(min_occurrences: int | None, relevant_share: float) -> None:
    whole = isinstance(min_occurrences, (int, np.integer)) and not isinstance(min_occurrences, bool)
    if min_occurrences is not None and (not whole or min_occurrences < 1):
        raise ValueError(f"min_occurrences (--min-occurrences) must be an integer >= 1, got {min_occurrences!r}")
    if isinstance(relevant_share, bool) or not isinstance(relevant_share, (int, float)) \
            or not 0 < relevant_share <= 1:
        raise ValueError(f"relevant_share (--relevant-share) must be a number in (0, 1], got {relevant_share!r}")




def candidate_terms(text: str, merges: dict[str, str] | None = None) -> set[str]:
    """The distinct terms of one analysis text (the rule for one text, as a reader can check it).

    Terms are the noun phrases of :func:`helpers.terms.text_terms`; ``merges``
    (thesaurus and acronyms) then maps variants to one label.
    :func:`candidate_term_matrix` applies the same rule to a whole corpus at once.

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
) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Which texts hold which :func:`candidate_terms`, for a whole tokenised corpus at once.

    Each word type is tagged once (:func:`helpers.terms.word_classes`); the
    context rules and the noun-phrase spans are array operations over every
    position of the corpus. Equals :func:`candidate_terms` text by text (a
    tested equivalence).

    Parameters
    ----------
    merges : dict, optional
        Term -> term, applied in every text (thesaurus, corpus-wide acronyms).
    paper_merges : DataFrame, optional
        ``row, from, to``: term -> term in the text at position ``row`` only
        (acronyms defined there, :func:`acronym_merges`).

    Returns
    -------
    binary : csr_matrix of int64
        Texts x terms (1 where the text holds the term), rows in ``tokens`` order.
    terms : ndarray of str
        The terms in at least ``min_papers`` texts, sorted (column order).

    Examples
    --------
    >>> from helpers.text import tokenize_corpus
    >>> tokens = tokenize_corpus(["mixture of experts", "the expert"], ["a", "b"])
    >>> binary, terms = candidate_term_matrix(tokens)
    >>> terms.tolist(), binary.toarray().tolist()
    (['expert', 'mixture', 'mixture of expert'], [[1, 1, 1], [1, 0, 0]])
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

    def code_of(label: str, create: bool) -> int | None:
        nonlocal n_codes
        code = codes.code_for(label)
        if code is None:
            code = next((c for c, name in labels.items() if name == label), None)
        if code is None and create:
            code, n_codes = n_codes, n_codes + 1
            labels[code] = label
        return code

    if merges:
        sources = [(code_of(s, False), t) for s, t in sorted(merges.items())]
        sources = [(c, t) for c, t in sources if c is not None]
        targets = [code_of(t, True) for _, t in sources]
        remap = np.arange(n_codes, dtype=np.int64)
        for (source, _), target in zip(sources, targets):
            remap[source] = target
        term_code = remap[term_code]
    if paper_merges is not None and len(paper_merges):
        keyed = [(int(r), code_of(s, False), code_of(merges.get(t, t) if merges else t, True))
                 for r, s, t in paper_merges[["row", "from", "to"]].itertuples(index=False)]
        keyed = [(r, s, t) for r, s, t in keyed if s is not None]
        if keyed:
            local = np.array(keyed, dtype=np.int64)
            width = np.int64(n_codes)
            local_keys = local[:, 0] * width + local[:, 1]
            order = np.argsort(local_keys)
            local_keys, local_targets = local_keys[order], local[order, 2]
            occurrence_keys = rows * width + term_code
            at = np.minimum(np.searchsorted(local_keys, occurrence_keys), len(local_keys) - 1)
            hit = local_keys[at] == occurrence_keys
            term_code = np.where(hit, local_targets[at], term_code)
    binary = sparse.csr_matrix((np.ones(len(term_code), dtype=np.int32), (rows, term_code)),
                               shape=(len(tokens), n_codes))
    binary.sum_duplicates()
    binary.data[:] = 1
    papers = np.bincount(binary.indices, minlength=n_codes)
    kept = np.flatnonzero(papers >= max(min_papers, 1))
    terms = np.array([labels.get(int(c)) or codes.label(int(c)) for c in kept], dtype=object)
    alphabetical = np.argsort(terms.astype(str), kind="stable")
    return binary[:, kept[alphabetical]].tocsr().astype(np.int64), terms[alphabetical].astype(str).astype(object)


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

    def label(self, code: int) -> str:
        level = int(np.searchsorted(self.offsets, code, side="right")) - 1
        local = code - self.offsets[level]
        if level == 0:
            return str(self.vocabulary[local])
        key = int(self.keys[level][local])
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


def acronym_definitions(texts: Iterable[str]) -> pd.DataFrame:
    """Every acronym definition, as ``row, acronym, long_form`` (one row per text and acronym).

    An acronym in parentheses counts as defined when the initials of the words
    just before it spell it ("graph neural networks (GNNs)").

    Examples
    --------
    >>> acronym_definitions(["We train Graph Neural Networks (GNNs).", "No acronym here (XYZ)."])
       row acronym             long_form
    0    0     gnn  graph neural network
    """
    found: list[tuple[int, str, str]] = []
    for row, text in enumerate(texts):
        if "(" not in text:
            continue
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
        seen: set[tuple[str, str]] = set()
        for match in _ACRONYM_PAREN.finditer(text):
            words = _words_before(text, match.start())
            letters = [c for c in match.group(1) if c.isupper()]
            if len(letters) < 2 or len(words) < len(letters):
                continue
            candidate = words[-len(letters):]
            if [w[0].lower() for w in candidate] != [c.lower() for c in letters]:
                continue
            acronym = fold_phrase([match.group(1).lower()])
            long_form = fold_phrase(candidate)
            if acronym != long_form and (acronym, long_form) not in seen:
                seen.add((acronym, long_form))
                found.append((row, acronym, long_form))
    return pd.DataFrame(found, columns=["row", "acronym", "long_form"]).astype(
        {"row": "int64", "acronym": object, "long_form": object})


def find_acronyms(texts: Iterable[str]) -> pd.DataFrame:
    """Acronyms defined in the texts: ``acronym, long_form, n_papers, scope``.

    ``long_form`` is the most frequent definition (then the alphabetically
    first); ``scope`` says where the acronym is replaced by it: ``corpus`` when
    at least ``MIN_CORPUS_WIDE_DEFINITIONS`` abstracts define it and all of
    them alike, ``defining abstracts`` otherwise (one "Adaptive Robust Method
    (ARM)" must not rename every bandit's ``arm``).

    Examples
    --------
    >>> find_acronyms(["Graph Neural Networks (GNNs) scale.",
    ...                "Graph neural networks (GNN) and an Adaptive Robust Method (ARM)."])
      acronym               long_form  n_papers               scope
    0     arm  adaptive robust method         1  defining abstracts
    1     gnn    graph neural network         2              corpus
    """
    return _acronym_table(acronym_definitions(texts))


def _acronym_table(definitions: pd.DataFrame) -> pd.DataFrame:
    if definitions.empty:
        return pd.DataFrame({"acronym": pd.Series(dtype=object), "long_form": pd.Series(dtype=object),
                             "n_papers": pd.Series(dtype="int64"), "scope": pd.Series(dtype=object)})
    counts = definitions.groupby(["acronym", "long_form"]).size().rename("n_papers").reset_index()
    counts = counts.sort_values(["acronym", "n_papers", "long_form"], ascending=[True, False, True])
    n_forms = counts.groupby("acronym")["long_form"].transform("size")
    total = counts.groupby("acronym")["n_papers"].transform("sum")
    counts["scope"] = np.where((n_forms == 1) & (total >= MIN_CORPUS_WIDE_DEFINITIONS), "corpus",
                               "defining abstracts")
    counts["n_papers"] = total
    return counts.drop_duplicates("acronym").reset_index(drop=True)


def acronym_merges(definitions: pd.DataFrame, thesaurus: dict[str, str]) -> tuple[dict[str, str], pd.DataFrame]:
    """``(corpus-wide merges, per-abstract merges)`` from :func:`acronym_definitions`.

    Corpus-wide: acronyms whose ``scope`` is ``corpus`` (:func:`find_acronyms`).
    Per abstract (``row, from, to``): every other acronym, in the abstracts that
    define it, each with its own long form. The thesaurus applies to the long form.
    """
    table = _acronym_table(definitions)
    corpus_wide = table[table["scope"] == "corpus"]
    merges = {a: thesaurus.get(l, l) for a, l in zip(corpus_wide["acronym"], corpus_wide["long_form"])}
    local = definitions[~definitions["acronym"].isin(merges)].rename(columns={"acronym": "from", "long_form": "to"})
    local = local.assign(to=local["to"].map(lambda l: thesaurus.get(l, l)))
    return merges, local[["row", "from", "to"]].reset_index(drop=True)


def read_thesaurus(path: str | Path | None = None) -> dict[str, str]:
    """A VOSviewer-style thesaurus (CSV with columns ``label,replace by``) as a mapping.

    Without ``path``, the project's ``resources/thesaurus.csv`` is read. Labels
    are lower-cased and made singular like the terms they replace.
    """
    if path is None:
        content = resources.files("helpers").joinpath("resources", "thesaurus.csv").read_text("utf-8")
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


def pair_table(binary: sparse.csr_matrix, terms: list[str]) -> pd.DataFrame:
    """Every unordered pair of terms that share at least one paper.

    Columns ``source, target`` (alphabetical within the pair), ``n_papers``
    (papers with both), ``association_strength`` (VOSviewer's normalisation
    ``2 m c_ij / (k_i k_j)``, with ``k_i`` the total co-occurrences of term i
    and ``m`` the total over all pairs) and ``jaccard`` (``c_ij / (c_i + c_j -
    c_ij)`` with ``c_i`` the papers of term i). No Python loop over pairs.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]]))
    >>> pair_table(X, ["a", "b", "c"])
      source target  n_papers  association_strength   jaccard
    0      a      b         2              1.666667  0.666667
    1      a      c         1              1.111111  0.333333
    2      b      c         2              1.666667  0.666667
    """
    binary = sparse.csr_matrix(binary, dtype=np.int64)
    together = (binary.T @ binary).tocsr()
    papers_per_term = np.asarray(together.diagonal()).ravel()
    upper = sparse.triu(together, k=1).tocoo()
    c_ij = upper.data.astype(float)
    link_strength = np.asarray(together.sum(axis=1)).ravel() - papers_per_term
    m = c_ij.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        strength = 2 * m * c_ij / (link_strength[upper.row] * link_strength[upper.col])
    jaccard = c_ij / (papers_per_term[upper.row] + papers_per_term[upper.col] - c_ij)
    names = np.asarray(terms, dtype=object)
    first, second = names[upper.row], names[upper.col]
    swap = first > second
    source = np.where(swap, second, first)
    target = np.where(swap, first, second)
    table = pd.DataFrame({
        "source": source.astype(str), "target": target.astype(str), "n_papers": upper.data.astype(np.int64),
        "association_strength": np.round(strength, 6), "jaccard": np.round(jaccard, 6),
    })
    return table.sort_values(["source", "target"], ignore_index=True)




@dataclass(frozen=True)
class CooccurrenceResult:
    """Terms, pairs, the network and its communities.

    Attributes
    ----------
    terms : DataFrame
        ``term, n_papers, relevance, community, degree, link_strength, x, y``.
    pairs : DataFrame
        :func:`pair_table` of the kept terms.
    graph : networkx.Graph
        Kept terms as nodes; edges for pairs with at least ``min_pair_papers``.
    communities : DataFrame
        ``community, n_terms, n_papers, top_terms``.
    acronyms : DataFrame
        :func:`find_acronyms`.
    merges : DataFrame
        Every merge applied (``from, to, source``; ``source`` is ``acronym``,
        ``acronym in defining abstracts`` or ``thesaurus``).
    paper_terms : scipy.sparse.csr_matrix
        Binary papers x kept terms (rows in ``paper_ids`` order, columns in ``terms`` order).
    paper_ids : list of str
    modularity : float
    message : str
        Why there is no network to draw, or ``""``.
    settings : dict
        ``min_occurrences, relevant_share, min_pair_papers, louvain_seed,
        resolution, n_papers, n_candidates, n_eligible``.
    below_cut : DataFrame
        ``term, n_papers, relevance``: the eligible terms just below the relevance cut, most relevant first.
    """

    terms: pd.DataFrame
    pairs: pd.DataFrame
    graph: nx.Graph
    communities: pd.DataFrame
    acronyms: pd.DataFrame
    merges: pd.DataFrame
    paper_terms: sparse.csr_matrix
    paper_ids: list[str]
    modularity: float
    message: str
    settings: dict[str, Any] = field(default_factory=dict)
    below_cut: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["term", "n_papers", "relevance"]))

    def export_graph(self) -> nx.Graph:
        """The network for GraphML/GEXF: node attributes ``label, n_papers, community, relevance, x, y``."""
        graph = nx.Graph()
        for row in self.terms.itertuples(index=False):
            graph.add_node(row.term, label=row.term, n_papers=int(row.n_papers),
                           community=int(row.community), relevance=float(row.relevance),
                           x=float(row.x), y=float(row.y))
        for u, v, data in sorted(self.graph.edges(data=True)):
            source, target = sorted((u, v))
            graph.add_edge(source, target, weight=round(float(data["weight"]), 6),
                           n_papers=int(data["n_papers"]))
        return graph




def context_topics(cooccurrences: sparse.spmatrix, papers: np.ndarray, *, n_topics: int = RELEVANCE_TOPICS,
                   seed: int = 0) -> np.ndarray:
    """A topic for each term: the terms' co-occurrence profiles clustered by k-means (seeded).

    Only the ``CONTEXT_TERMS`` most frequent terms are clustered (by their
    co-occurrences with each other, the term itself included so that two
    terms that meet get alike profiles); every other term gets topic ``-1``
    and counts in no topic. This keeps the step fast for thousands of terms.

    Examples
    --------
    >>> c = sparse.csr_matrix(np.array([[0, 5, 0, 0], [5, 0, 0, 0], [0, 0, 0, 5], [0, 0, 5, 0]]))
    >>> context_topics(c, np.array([5, 5, 5, 5]), n_topics=2).tolist()
    [1, 1, 0, 0]
    """
    from sklearn.cluster import KMeans
    from sklearn.preprocessing import normalize
    from threadpoolctl import threadpool_limits

    matrix = sparse.csr_matrix(cooccurrences, dtype=float)
    n_terms = matrix.shape[0]
    topics = np.full(n_terms, -1, dtype=np.int64)
    context = np.sort(np.argsort(-np.asarray(papers), kind="stable")[:CONTEXT_TERMS])
    n_topics = max(1, min(n_topics, len(context)))
    if n_topics == 1:
        topics[context] = 0
        return topics
    among = matrix[context][:, context]
    with_self = among + sparse.diags(np.asarray(among.sum(axis=1)).ravel() + 1.0)
    profiles = normalize(normalize(with_self.tocsr(), norm="l1").toarray())
    # One thread: on a shared machine k-means' thread pool is slower than a single thread, and results match.
    with threadpool_limits(1):
        topics[context] = KMeans(n_clusters=n_topics, n_init=4, random_state=seed).fit_predict(profiles)
    return topics


def relevance_scores(cooccurrences: sparse.spmatrix, topics: np.ndarray | None = None, *,
                     smoothing: float = RELEVANCE_SMOOTHING) -> np.ndarray:
    """How unevenly each term's co-occurrences spread over the topics of the map (VOSviewer's idea).

    Following van Eck et al. (2010), as VOSviewer does, a term whose
    co-occurrences spread evenly over all topics is general (``model``,
    ``result``) and one whose co-occurrences concentrate on a few topics is
    specific. The score is the Kullback-Leibler divergence of the term's
    co-occurrence profile over the topics (:func:`context_topics`) from the
    profile of all co-occurrences, ``sum_T p_iT ln(p_iT / q_T)``, with
    ``p_iT = (c_iT + s q_T) / (k_i + s)``: ``c_iT`` the co-occurrences of
    term ``i`` with terms of topic ``T``, ``k_i`` all its co-occurrences, and
    ``s = smoothing`` co-occurrences spread like the corpus, so that a term
    seen in two abstracts does not look specific by chance alone.

    Parameters
    ----------
    cooccurrences : sparse matrix
        Terms x terms, ``c_ij`` abstracts holding both terms (the diagonal is ignored).
    topics : ndarray of int, optional
        Topic of each term (``-1``: in no topic); default: each term is its own topic.

    Examples
    --------
    Terms 0 and 1 meet both topics; terms 2 and 3 meet only topic 0 and are the most specific:

    >>> c = sparse.csr_matrix(np.array([[0, 9, 9, 9], [9, 0, 9, 0], [9, 9, 0, 0], [9, 0, 0, 0]]))
    >>> relevance_scores(c, np.array([0, 0, 1, 1]), smoothing=0).round(3).tolist()
    [0.174, 0.032, 0.47, 0.47]
    """
    matrix = _without_diagonal(sparse.csr_matrix(cooccurrences, dtype=float))
    n_terms = matrix.shape[0]
    topics = np.arange(n_terms) if topics is None else np.asarray(topics)
    counted = topics >= 0
    membership = sparse.csr_matrix((np.ones(int(counted.sum())), (np.flatnonzero(counted), topics[counted])),
                                   shape=(n_terms, int(topics.max()) + 1 if n_terms else 0))
    by_topic = np.asarray((matrix @ membership).todense())
    k = by_topic.sum(axis=1)
    if not k.sum():
        return np.zeros(n_terms)
    q = by_topic.sum(axis=0) / k.sum()
    present = q > 0
    p = (by_topic[:, present] + smoothing * q[present]) / (k + smoothing)[:, None]
    return special.xlogy(p, p / q[present]).sum(axis=1)


def _without_diagonal(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    """The matrix with its diagonal removed (``setdiag(0)`` is slow on large sparse matrices)."""
    result = (matrix - sparse.diags_array(matrix.diagonal(), dtype=matrix.dtype)).tocsr()
    result.eliminate_zeros()
    return result


@dataclass(frozen=True)
class TermSelection:
    """The terms kept for the map and the terms just below the cut.

    Attributes
    ----------
    kept : ndarray of int
        Column indices (into the candidate matrix) of the kept terms, in column order.
    relevance : ndarray of float
        Relevance of every candidate column (``nan`` below ``min_occurrences``).
    ranked : ndarray of int
        Candidate columns with at least ``min_occurrences`` abstracts, most relevant first.
    n_eligible : int
        How many candidates have at least ``min_occurrences`` abstracts (after nested terms are dropped).
    """

    kept: np.ndarray
    relevance: np.ndarray
    ranked: np.ndarray
    n_eligible: int


def select_terms(binary: sparse.csr_matrix, vocabulary: np.ndarray, *, min_occurrences: int,
                 relevant_share: float, seed: int = 0) -> TermSelection:
    """Terms in at least ``min_occurrences`` abstracts, then the ``relevant_share`` most relevant of them.

    At most ``MAX_MAP_TERMS`` terms are kept: a map with more is not legible
    and its layout takes minutes.

    A term that only ever occurs inside one longer term (same abstracts) is
    dropped first; relevance (:func:`relevance_scores`) is computed among the
    remaining terms, as VOSviewer does. Ties go to the more frequent term,
    then alphabetical order.

    The rule follows VOSviewer's "create map based on text data": a minimum
    number of occurrences (VOSviewer: 10; here :func:`default_min_occurrences`,
    which grows with the corpus), then the 60% most relevant terms.

    References
    ----------
    van Eck, N. J., Waltman, L., Noyons, E. C. M., and Buter, R. K. (2010). Automatic term
    identification for bibliometric mapping. Scientometrics, 82(3), 581-596.
    van Eck, N. J., and Waltman, L. (2011). Text mining and visualization using VOSviewer.
    ISSI Newsletter, 7(3), 50-54.
    van Eck, N. J., and Waltman, L. VOSviewer Manual (version 1.6.x), CWTS, Leiden University.
    """
    papers = np.asarray(binary.sum(axis=0)).ravel()
    eligible = np.flatnonzero(papers >= min_occurrences)
    eligible = np.setdiff1d(eligible, eligible[_nested_terms(vocabulary[eligible], binary[:, eligible])])
    relevance = np.full(len(vocabulary), np.nan)
    if not len(eligible):
        empty = np.array([], dtype=np.int64)
        return TermSelection(empty, relevance, empty, 0)
    columns = binary[:, eligible]
    cooccurrences = _without_diagonal((columns.T @ columns).tocsr())
    topics = context_topics(cooccurrences, papers[eligible], seed=seed)
    relevance[eligible] = np.round(relevance_scores(cooccurrences, topics), 9)
    ranked = eligible[np.lexsort((vocabulary[eligible].astype(str), -papers[eligible], -relevance[eligible]))]
    n_kept = min(math.ceil(relevant_share * len(eligible) - 1e-9), MAX_MAP_TERMS)
    return TermSelection(np.sort(ranked[:n_kept]), relevance, ranked, len(eligible))


def _layout(graph: nx.Graph, seed: int) -> dict[str, tuple[float, float]]:
    """Seeded layout: the largest linked component fills [-1, 1]; smaller ones and lone terms ring it.

    A spring layout of the whole graph pushes small components far out and
    squeezes the main one into the centre, so each component is laid out on
    its own and the small ones sit on a ring around the main one.
    """
    components = sorted((sorted(c) for c in nx.connected_components(graph) if len(c) > 1),
                        key=lambda c: (-len(c), c[0]))
    alone = [n for n in sorted(graph.nodes) if graph.degree(n) == 0]
    positions: dict[str, tuple[float, float]] = {}
    if components:
        positions.update(_spring(ordered_subgraph(graph, components[0]), seed, components[0], radius=1.0))
    satellites = [c for c in components[1:]] + [[n] for n in alone]
    ring = 1.25 if components else 1.0
    for members, angle in zip(satellites, np.linspace(0, 2 * np.pi, len(satellites), endpoint=False)):
        centre = np.array([ring * np.cos(angle), ring * np.sin(angle)])
        if len(members) == 1:
            positions[members[0]] = (round(float(centre[0]), 9), round(float(centre[1]), 9))
            continue
        local = _spring(ordered_subgraph(graph, members), seed, members, radius=0.04 * math.sqrt(len(members)))
        positions.update({n: (float(centre[0] + x), float(centre[1] + y)) for n, (x, y) in local.items()})
    return positions


def ordered_subgraph(graph: nx.Graph, nodes: Iterable[str]) -> nx.Graph:
    """A copy of the subgraph on ``nodes`` with nodes and edges in sorted order.

    ``graph.subgraph`` iterates its nodes in the order of a Python set, which
    changes from one process to the next (string hashing is randomised), and a
    seeded layout depends on node order: this keeps layouts byte-identical.
    """
    members = sorted(set(nodes))
    keep = set(members)
    ordered = nx.Graph()
    ordered.add_nodes_from((n, graph.nodes[n]) for n in members)
    ordered.add_edges_from(sorted((min(u, v), max(u, v), d) for u, v, d in graph.edges(members, data=True)
                                  if u in keep and v in keep))
    return ordered


def _spring(graph: nx.Graph, seed: int, nodes: list[str], *, radius: float) -> dict[str, tuple[float, float]]:
    """Seeded spring layout of a connected graph, centred and scaled to ``radius``."""
    raw = nx.spring_layout(graph, weight="weight", seed=seed, k=2.0 / math.sqrt(len(nodes)),
                           iterations=LAYOUT_ITERATIONS, method="force")
    coordinates = np.array([raw[n] for n in nodes])
    coordinates -= coordinates.mean(axis=0)
    coordinates *= radius / max(np.abs(coordinates).max(), 1e-12)
    return {n: (float(x), float(y)) for n, (x, y) in zip(nodes, coordinates)}


def _nested_terms(vocabulary: np.ndarray, binary: sparse.csr_matrix) -> np.ndarray:
    """Indices of terms that only ever occur inside one longer term (``tangent`` in ``tangent kernel``).

    Such a term occurs in exactly the papers of the longer term, so it adds
    nothing to the map. Every (shorter, longer) pair is tested at once: same
    number of papers, and as many papers holding both.

    Examples
    --------
    >>> X = sparse.csr_matrix(np.array([[1, 1, 1], [1, 0, 0], [0, 1, 1]]))
    >>> _nested_terms(np.array(["graph", "kernel", "tangent kernel"]), X).tolist()
    [1]
    """
    index = {str(term): position for position, term in enumerate(vocabulary)}
    shorter, longer = [], []
    for long_position, term in enumerate(vocabulary):
        words = str(term).split()
        for length in range(1, len(words)):
            for start in range(len(words) - length + 1):
                short = index.get(" ".join(words[start:start + length]))
                if short is not None:
                    shorter.append(short)
                    longer.append(long_position)
    short_columns, long_columns = np.array(shorter, dtype=np.int64), np.array(longer, dtype=np.int64)
    papers = np.asarray(binary.sum(axis=0)).ravel()
    same = papers[short_columns] == papers[long_columns]
    short_columns, long_columns = short_columns[same], long_columns[same]
    if not len(short_columns):
        return np.array([], dtype=int)
    both = np.asarray(binary[:, short_columns].multiply(binary[:, long_columns]).sum(axis=0)).ravel()
    return np.unique(short_columns[both == papers[short_columns]]).astype(int)




_PAIR_COLUMNS = ["source", "target", "n_papers", "association_strength", "jaccard"]


def term_network(terms: pd.DataFrame, pairs: pd.DataFrame, *, min_pair_papers: int, seed: int,
                 resolution: float) -> tuple[nx.Graph, pd.DataFrame, float]:
    """The drawn network: links for pairs in at least ``min_pair_papers`` abstracts, Louvain communities, layout.

    ``terms`` has ``term, n_papers, relevance``; returns the graph, ``terms``
    with ``community, degree, link_strength, x, y`` added (sorted by
    community, then occurrences), and the partition's modularity.
    """
    graph = nx.Graph()
    for row in terms.itertuples(index=False):
        graph.add_node(row.term, n_papers=int(row.n_papers), relevance=float(row.relevance))
    for row in pairs[pairs["n_papers"] >= min_pair_papers].itertuples(index=False):
        graph.add_edge(row.source, row.target, weight=float(row.association_strength), n_papers=int(row.n_papers))
    if graph.number_of_edges():
        partition = nx.community.louvain_communities(graph, weight="weight", resolution=resolution, seed=seed)
        modularity = float(nx.community.modularity(graph, partition, weight="weight", resolution=resolution))
    else:
        partition, modularity = [{t} for t in terms["term"]], 0.0
    positions = _layout(graph, seed)
    ordered = sorted(partition, key=lambda c: (-len(c), min(c)))
    community_of = {term: number for number, members in enumerate(ordered, start=1) for term in members}
    nx.set_node_attributes(graph, community_of, "community")
    placed = terms.assign(
        community=terms["term"].map(community_of).astype("int64"),
        degree=terms["term"].map(dict(graph.degree())).astype("int64"),
        link_strength=terms["term"].map(dict(graph.degree(weight="weight"))).astype(float).round(6),
        x=terms["term"].map(lambda t: round(positions[t][0], 6)).astype(float),
        y=terms["term"].map(lambda t: round(positions[t][1], 6)).astype(float),
    )
    placed = placed.sort_values(["community", "n_papers", "term"], ascending=[True, False, True], ignore_index=True)
    return graph, placed, modularity


def _merge_table(acronyms: pd.DataFrame, local: pd.DataFrame, thesaurus: dict[str, str]) -> pd.DataFrame:
    corpus_wide = acronyms[acronyms["scope"] == "corpus"]
    local_pairs = local[["from", "to"]].drop_duplicates().sort_values(["from", "to"])
    return pd.concat([
        pd.DataFrame({"from": corpus_wide["acronym"], "to": corpus_wide["long_form"], "source": "acronym"}),
        local_pairs.assign(source="acronym in defining abstracts"),
        pd.DataFrame({"from": list(thesaurus), "to": list(thesaurus.values()), "source": "thesaurus"}),
    ], ignore_index=True).astype(object)


def analyse_cooccurrence(
    raw_texts: pd.Series,
    analysis_texts: TokenizedCorpus | pd.Series,
    *,
    min_occurrences: int | None = None,
    relevant_share: float = RELEVANT_SHARE,
    min_pair_papers: int | None = None,
    thesaurus: dict[str, str] | None = None,
    seed: int = LOUVAIN_SEED,
    resolution: float = LOUVAIN_RESOLUTION,
) -> CooccurrenceResult:
    """Find terms, keep the relevant ones, count pairs and build the term network.

    Parameters
    ----------
    raw_texts : Series
        Stored text of each paper, in the order of ``analysis_texts`` (acronym
        definitions are found in their original case).
    analysis_texts : TokenizedCorpus or Series
        :func:`helpers.text.tokenize_corpus` of the analysis texts, or the
        analysis texts indexed by ``paper_id``.
    min_occurrences : int, optional
        Terms must occur in at least this many abstracts (default
        :func:`default_min_occurrences`, which grows with the corpus).
    relevant_share : float
        Of those, keep this share, most relevant first (:func:`relevance_scores`);
        VOSviewer's default is 60%.
    min_pair_papers : int, optional
        Pairs sharing fewer papers are left out of the graph (never out of the
        pairs table). Default :func:`default_min_pair_papers`.

    Raises
    ------
    ValueError
        For a ``min_occurrences`` below 1 or a ``relevant_share`` outside (0, 1].
    """
    _validate(min_occurrences, relevant_share)
    tokens = analysis_texts_to_tokens(analysis_texts)
    n_papers = len(tokens)
    min_occurrences = default_min_occurrences(n_papers) if min_occurrences is None else int(min_occurrences)
    thesaurus = read_thesaurus() if thesaurus is None else thesaurus
    definitions = acronym_definitions(raw_texts.tolist())
    acronyms = _acronym_table(definitions)
    corpus_merges, local_merges = acronym_merges(definitions, thesaurus)
    merges = {**corpus_merges, **thesaurus}
    binary, vocabulary = candidate_term_matrix(tokens, merges, paper_merges=local_merges)
    selection = select_terms(binary, vocabulary, min_occurrences=min_occurrences, relevant_share=relevant_share,
                             seed=seed)
    papers_per_term = np.asarray(binary.sum(axis=0)).ravel()
    kept_matrix = binary[:, selection.kept].tocsr()
    kept_terms = pd.DataFrame({
        "term": vocabulary[selection.kept].astype(str),
        "n_papers": papers_per_term[selection.kept].astype(np.int64),
        "relevance": np.round(selection.relevance[selection.kept], 6),
    })
    pairs = pair_table(kept_matrix, kept_terms["term"].tolist()) if len(kept_terms) else pd.DataFrame(
        columns=_PAIR_COLUMNS)
    if min_pair_papers is None:
        min_pair_papers = default_min_pair_papers(pairs["n_papers"].to_numpy(), len(kept_terms))
    graph, terms, modularity = term_network(kept_terms, pairs, min_pair_papers=min_pair_papers, seed=seed,
                                            resolution=resolution)
    message = ""
    if terms.empty:
        message = f"no term occurs in at least {min_occurrences} abstracts"
    elif not graph.number_of_edges():
        message = f"no pair of terms shares at least {min_pair_papers} abstracts, so the network has no links"
    communities = (terms.groupby("community")
                   .agg(n_terms=("term", "size"), n_papers=("n_papers", "sum"),
                        top_terms=("term", lambda t: ", ".join(t.head(8))))
                   .reset_index())
    column_of = {term: position for position, term in enumerate(kept_terms["term"])}
    paper_terms = kept_matrix[:, [column_of[t] for t in terms["term"]]].tocsr() if len(terms) else kept_matrix
    kept_set = set(selection.kept.tolist())
    below = [c for c in selection.ranked if c not in kept_set][:BELOW_CUT_ROWS]
    below_cut = pd.DataFrame({"term": vocabulary[below].astype(str),
                              "n_papers": papers_per_term[below].astype(np.int64),
                              "relevance": np.round(selection.relevance[below], 6)})
    settings = dict(min_occurrences=min_occurrences, relevant_share=relevant_share, min_pair_papers=min_pair_papers,
                    louvain_seed=seed, resolution=resolution, n_papers=n_papers,
                    n_candidates=int(len(vocabulary)), n_eligible=selection.n_eligible,
                    relevance_smoothing=RELEVANCE_SMOOTHING, relevance_topics=RELEVANCE_TOPICS,
                    max_map_terms=MAX_MAP_TERMS, max_term_words=MAX_TERM_WORDS,
                    max_links_per_term=MAX_LINKS_PER_TERM)
    return CooccurrenceResult(
        terms=terms, pairs=pairs, graph=graph, communities=communities, acronyms=acronyms,
        merges=_merge_table(acronyms, local_merges, thesaurus), paper_terms=paper_terms,
        paper_ids=[str(p) for p in tokens.paper_ids], modularity=modularity, message=message,
        settings=settings, below_cut=below_cut,
    )


def network_writers(result: CooccurrenceResult) -> dict[str, Callable[[Path], None]]:
    """The network export files, by name, each with the function that writes it."""
    return {
        "network.json": lambda path: write_vosviewer_json(result, path),
        "network.graphml": lambda path: nx.write_graphml(result.export_graph(), path),
        "network.gexf": lambda path: nx.write_gexf(result.export_graph(), path),
        "vosviewer_map.txt": lambda path: write_vosviewer_map(result, path),
        "vosviewer_network.txt": lambda path: write_vosviewer_network(result, path),
    }


def write_vosviewer_json(result: CooccurrenceResult, path: Path) -> None:
    """VOSviewer JSON (map and network in one file; VOSviewer 1.6.16 and later read it)."""
    path.write_text(json.dumps(vosviewer_document(result), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def vosviewer_document(result: CooccurrenceResult) -> dict:
    """The VOSviewer JSON document of the term map (what :func:`write_vosviewer_json` writes)."""
    ids = _vosviewer_ids(result)
    items = [
        {"id": ids[row.term], "label": row.term, "x": row.x, "y": row.y, "cluster": int(row.community),
         "weights": {"Links": int(row.degree), "Total link strength": float(row.link_strength),
                     "Occurrences": int(row.n_papers)}}
        for row in result.terms.itertuples(index=False)
    ]
    links = [
        {"source_id": ids[u], "target_id": ids[v], "strength": round(float(data["weight"]), 6)}
        for u, v, data in sorted(result.graph.edges(data=True), key=lambda e: (ids[e[0]], ids[e[1]]))
    ]
    document = {"network": {"items": items, "links": links}, "config": {
        "terminology": {"item": "Term", "items": "Terms", "link": "Co-occurrence link",
                        "links": "Co-occurrence links", "link_strength": "Association strength",
                        "total_link_strength": "Total link strength"}}}
    return document


def _vosviewer_ids(result: CooccurrenceResult) -> dict[str, int]:
    return {term: number for number, term in enumerate(result.terms["term"], start=1)}


def write_vosviewer_map(result: CooccurrenceResult, path: Path) -> None:
    """VOSviewer's tab-separated map file (``id, label, x, y, cluster, weight<Occurrences>``)."""
    ids = _vosviewer_ids(result)
    map_table = pd.DataFrame({
        "id": [ids[t] for t in result.terms["term"]], "label": result.terms["term"],
        "x": result.terms["x"], "y": result.terms["y"], "cluster": result.terms["community"],
        "weight<Occurrences>": result.terms["n_papers"],
    })
    map_table.to_csv(path, sep="\t", index=False, lineterminator="\n")


def write_vosviewer_network(result: CooccurrenceResult, path: Path) -> None:
    """VOSviewer's three-column network file (``id id strength``), one line per drawn link."""
    ids = _vosviewer_ids(result)
    with path.open("w", encoding="utf-8") as handle:
        for u, v, data in sorted(result.graph.edges(data=True), key=lambda e: (ids[e[0]], ids[e[1]])):
            a, b = sorted((ids[u], ids[v]))
            handle.write(f"{a}\t{b}\t{data['weight']:.6f}\n")


# What the chapter shows: a bounded page whatever the corpus size.
STRONGEST_PAIRS = 20
MOST_RELEVANT_SHOWN = 20
PAIR_EXAMPLES = 2
EXAMPLE_TITLE_CHARS = 60  # example titles are shortened so the table stays short
ACRONYM_ROWS = 15
EXPLORER_PAGE = "explorer.html"


def explorer_url(terms: Iterable[str]) -> str:
    """The explorer filtered to papers using every one of ``terms`` (one ``term`` parameter each).

    Examples
    --------
    >>> explorer_url(["mixture of expert", "a&b"])
    'explorer.html?term=mixture+of+expert&term=a%26b'
    """
    from urllib.parse import urlencode

    return f"{EXPLORER_PAGE}?{urlencode([('term', t) for t in terms])}"


def papers_with_terms(result: CooccurrenceResult, terms: Iterable[str]) -> list[str]:
    """The ids of the papers that use every one of ``terms``, in ``paper_ids`` order.

    Examples
    --------
    >>> raw = pd.Series({"p1": "Galaxy clusters and quantum kernels.", "p2": "Galaxy clusters.",
    ...                  "p3": "Quantum kernels."})
    >>> from helpers.text import analysis_text
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text), min_occurrences=2, relevant_share=1.0, thesaurus={})
    >>> papers_with_terms(result, ["galaxy cluster", "quantum kernel"])
    ['p1']
    """
    column_of = {term: position for position, term in enumerate(result.terms["term"])}
    matrix = result.paper_terms.tocsc()
    rows = np.ones(matrix.shape[0], dtype=bool)
    for term in terms:
        rows &= matrix[:, column_of[term]].toarray().ravel() > 0
    return [result.paper_ids[i] for i in np.flatnonzero(rows)]


def strongest_pairs(result: CooccurrenceResult, top: int = STRONGEST_PAIRS) -> pd.DataFrame:
    """The ``top`` pairs sharing the most abstracts (ties: association strength, then names): :func:`pair_table` rows."""
    return result.pairs.sort_values(["n_papers", "association_strength", "source", "target"],
                                    ascending=[False, False, True, True]).head(top).reset_index(drop=True)


def strongest_pairs_table(result: CooccurrenceResult, titles: dict[str, str], *, top: int = STRONGEST_PAIRS,
                          examples: int = PAIR_EXAMPLES) -> pd.DataFrame:
    """The ``top`` pairs sharing the most abstracts (ties: association strength), for the chapter.

    Columns ``pair, papers, association strength, jaccard, examples, all``:
    ``examples`` links up to ``examples`` papers to their explorer rows and
    ``all`` links "all N papers" to the explorer filtered on both terms; both
    are escaped HTML. The table never has more than ``top`` rows.
    """
    import html

    columns = ["pair", "papers", "association strength", "jaccard", "examples", "all"]
    if result.pairs.empty:
        return pd.DataFrame(columns=columns)
    from helpers.metadata import shorten_title

    strongest = strongest_pairs(result, top)
    rows = []
    for pair in strongest.itertuples(index=False):
        ids = papers_with_terms(result, [pair.source, pair.target])
        links = "; ".join(f'<a href="{EXPLORER_PAGE}#paper-{html.escape(i, quote=True)}">'
                          f"{html.escape(shorten_title(str(titles.get(i, i)), EXAMPLE_TITLE_CHARS))}</a>"
                          for i in ids[:examples])
        everything = (f'<a href="{html.escape(explorer_url([pair.source, pair.target]), quote=True)}">'
                      f"all {len(ids)} papers</a>")
        rows.append({"pair": f"{pair.source} + {pair.target}", "papers": int(pair.n_papers),
                     "association strength": pair.association_strength, "jaccard": pair.jaccard,
                     "examples": links, "all": everything})
    return pd.DataFrame(rows, columns=columns)


def chapter_values(result: CooccurrenceResult) -> dict[str, Any]:
    """Every number the co-occurrence chapter shows, by glue name (defaults when there is no network).

    Examples
    --------
    >>> raw = pd.Series({"p1": "Galaxy clusters."})
    >>> from helpers.text import analysis_text
    >>> values = chapter_values(analyse_cooccurrence(raw, raw.map(analysis_text)))
    >>> values["co_n_terms"], values["co_modularity"], values["co_relevant_share"]
    (0, '0.000', '60%')
    """
    terms, settings = result.terms, result.settings
    multi_term = result.communities[result.communities["n_terms"] > 1] if len(terms) else result.communities
    most_relevant = terms.sort_values(["relevance", "n_papers", "term"], ascending=[False, False, True])
    return {
        "co_min_occurrences": settings["min_occurrences"],
        "co_relevant_share": f"{settings['relevant_share']:.0%}",
        "co_vosviewer_share": f"{RELEVANT_SHARE:.0%}",
        "co_vosviewer_min_occurrences": VOSVIEWER_MIN_OCCURRENCES,
        "co_min_occurrences_rule": MIN_OCCURRENCES_RULE,
        "co_n_candidates": settings["n_candidates"],
        "co_n_eligible": settings["n_eligible"],
        "co_n_terms": len(terms),
        "co_max_map_terms": settings["max_map_terms"],
        "co_multi_word_share": f"{terms['term'].str.contains(' ').mean():.0%}" if len(terms) else "0%",
        "co_max_term_words": settings["max_term_words"],
        "co_relevance_topics": settings["relevance_topics"],
        "co_context_terms": CONTEXT_TERMS,
        "co_relevance_smoothing": f"{settings['relevance_smoothing']:g}",
        "co_n_pairs": len(result.pairs),
        "co_n_edges": result.graph.number_of_edges(),
        "co_min_pair_papers": settings["min_pair_papers"],
        "co_max_links_per_term": settings["max_links_per_term"],
        "co_n_communities": int(terms["community"].nunique()) if len(terms) else 0,
        "co_n_multi": len(multi_term),
        "co_modularity": f"{result.modularity:.3f}",
        "co_resolution": settings["resolution"],
        "co_seed": settings["louvain_seed"],
        "co_n_acronyms": len(result.acronyms),
        "co_n_acronyms_corpus": int((result.acronyms["scope"] == "corpus").sum()),
        "co_min_definitions": MIN_CORPUS_WIDE_DEFINITIONS,
        "co_acronym_rows": ACRONYM_ROWS,
        "co_n_thesaurus": int((result.merges["source"] == "thesaurus").sum()),
        "co_top_pairs": STRONGEST_PAIRS,
        "co_community_rows": COMMUNITY_ROWS,
        "co_pair_examples": PAIR_EXAMPLES,
        "co_below_cut": ", ".join(result.below_cut["term"]) or "none",
        "co_n_most_relevant": MOST_RELEVANT_SHOWN,
        "co_most_relevant": ", ".join(most_relevant["term"].head(MOST_RELEVANT_SHOWN)) or "none",
        "co_message": result.message or "every kept term has at least one drawn link or stands alone",
    }


def top_acronyms(result: CooccurrenceResult, rows: int = ACRONYM_ROWS) -> pd.DataFrame:
    """The ``rows`` acronyms defined in the most abstracts (the chapter offers all as CSV)."""
    return (result.acronyms.sort_values(["n_papers", "acronym"], ascending=[False, True]).head(rows)
            .rename(columns={"n_papers": "defined in papers"}).reset_index(drop=True))


COMMUNITY_ROWS = 15
# Files the chapter offers for download, next to the figures (``network_writers`` plus the tables).
CHAPTER_FILES = ("network.json", "vosviewer_map.txt", "vosviewer_network.txt", "network.graphml", "network.gexf",
                 "terms.csv", "term_pairs.csv", "acronyms.csv")


def write_chapter_files(result: CooccurrenceResult, folder: Path) -> list[Path]:
    """Write the network files and the terms, pairs and acronym tables into ``folder``; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    tables = {"terms.csv": result.terms, "term_pairs.csv": result.pairs, "acronyms.csv": result.acronyms}
    writers = {**network_writers(result), **{
        name: (lambda path, table=table: table.to_csv(path, index=False, lineterminator="\n"))
        for name, table in tables.items()}}
    for name in CHAPTER_FILES:
        writers[name](folder / name)
    return [folder / name for name in CHAPTER_FILES]


def downloads_html(base: str = "../figures") -> str:
    """One line of download links to :data:`CHAPTER_FILES`.

    Examples
    --------
    >>> downloads_html().count("download>")
    8
    """
    names = {"network.json": "VOSviewer JSON", "vosviewer_map.txt": "VOSviewer map",
             "vosviewer_network.txt": "VOSviewer network", "network.graphml": "GraphML",
             "network.gexf": "GEXF (Gephi)"}
    links = " · ".join(f'<a href="{base}/{name}" download>{names.get(name, name)}</a>' for name in CHAPTER_FILES)
    return f'<p class="network-downloads">Network files: {links}</p>'
