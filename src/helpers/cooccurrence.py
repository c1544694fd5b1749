"""Co-occurring terms: a term network in the manner of VOSviewer, built from sparse counts.

Terms are 1-3 word phrases that neither start nor end with a stop word,
plural-folded, merged through a user-editable thesaurus and through acronyms the
abstracts define themselves ("graph neural networks (GNNs)"). Counting is binary:
a term counts once per abstract. Pair counts come from one sparse product
``X.T @ X`` of the paper x term matrix.
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
from typing import Any, Iterable

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse
from helpers.text import (TokenizedCorpus, analysis_texts_to_tokens, fold_plural, linking_words, segments,
                          stop_words)

__all__ = [
    "candidate_terms",
    "candidate_term_matrix",
    "find_acronyms",
    "read_thesaurus",
    "default_min_papers",
    "relevance_scores",
    "default_min_pair_papers",
    "pair_table",
    "analyse_cooccurrence",
    "CooccurrenceResult",
    "write_vosviewer_json",
    "write_vosviewer_map",
    "write_vosviewer_network",
]

TOP_N = 60
LOUVAIN_SEED = 0
LOUVAIN_RESOLUTION = 1.0

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


def default_min_papers(n_papers: int) -> int:
    """Minimum abstracts a term must occur in: 2, or 0.5% of the corpus when larger.

    Examples
    --------
    >>> default_min_papers(57), default_min_papers(10_000), default_min_papers(100_000)
    (2, 50, 500)
    """
    return max(2, math.ceil(0.005 * n_papers))


def default_min_pair_papers(pair_papers: np.ndarray, n_terms: int) -> int:
    """The smallest count (at least 2) that leaves at most 4 links per term in the drawing.

    Examples
    --------
    >>> default_min_pair_papers(np.array([1, 2, 2, 2, 2, 2, 3]), 1)
    3
    >>> default_min_pair_papers(np.array([], dtype=int), 5)
    2
    """
    threshold = 2
    while (pair_papers >= threshold).sum() > 4 * n_terms:
        threshold += 1
    return threshold


def fold_term(words: Iterable[str]) -> str:
    """Plural-fold each word of a term and join with spaces."""
    return " ".join(fold_plural(word) for word in words)


# Nouns and adjectives ending in -ly that are not adverbs.
_LY_WORDS = frozenset({"anomaly", "assembly", "butterfly", "family", "fly", "monopoly", "poly", "rely",
                       "reply", "supply", "apply", "imply", "multiply", "comply", "italy", "ally"})


def _is_adverb(word: str) -> bool:
    return word.endswith("ly") and len(word) > 4 and word not in _LY_WORDS


def candidate_terms(text: str, merges: dict[str, str] | None = None) -> set[str]:
    """The distinct candidate terms of one analysis text.

    A term is 1-3 adjacent words within one run (no punctuation, formula or
    number between them) that does not start or end with a stop word; a
    three-word term may have a linking word (``of``, ``and``, ...) in the
    middle. A term does not start or end with an ``-ly`` adverb either.
    Words are plural-folded, then ``merges`` (thesaurus and acronyms) maps
    variants to one label. This is the rule for one text, as a reader can
    check it; :func:`candidate_term_matrix` applies it to a whole corpus at once.

    Examples
    --------
    >>> sorted(candidate_terms("mixture of experts for graph networks"))
    ['expert', 'graph', 'graph network', 'mixture', 'mixture of expert', 'network']
    >>> sorted(candidate_terms("gnns work", {"gnn": "graph neural network"}))
    ['graph neural network']
    """
    stops, linking = stop_words(), linking_words()
    merges = merges or {}
    found: set[str] = set()
    for run in segments(text):
        n_words = len(run)
        for start in range(n_words):
            if run[start] in stops or _is_adverb(run[start]):
                continue
            for length in (1, 2, 3):
                end = start + length
                if end > n_words:
                    break
                if run[end - 1] in stops or _is_adverb(run[end - 1]):
                    continue
                if length == 3 and run[start + 1] in stops and run[start + 1] not in linking:
                    continue
                if length == 2 and run[start + 1] in stops:
                    continue
                term = fold_term(run[start:end])
                found.add(merges.get(term, term))
    return found


def candidate_term_matrix(
    tokens: TokenizedCorpus, merges: dict[str, str] | None = None, *, min_papers: int = 1,
) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Which texts hold which :func:`candidate_terms`, for a whole tokenised corpus at once.

    Equals ``CountVectorizer(analyzer=lambda t: candidate_terms(t, merges),
    binary=True, min_df=min_papers)`` on the analysis texts (a tested
    equivalence), with array operations over every position of the corpus
    instead of a Python loop over texts.

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
    merges = merges or {}
    folded_vocabulary, folded_id = tokens.folded
    n_folded = len(folded_vocabulary)
    linking = linking_words()
    edge_word = ~tokens.is_stop & ~np.fromiter(map(_is_adverb, tokens.vocabulary), dtype=bool,
                                               count=len(tokens.vocabulary))
    middle_word = ~tokens.is_stop | np.fromiter((w in linking for w in tokens.vocabulary), dtype=bool,
                                                count=len(tokens.vocabulary))
    ids, text_of = tokens.token_ids, tokens.text_index()
    words = folded_id[ids]
    edge, middle = edge_word[ids], middle_word[ids]
    # Every text ends with a boundary (never an edge or middle word), so no n-gram crosses texts.
    one = np.flatnonzero(edge)
    two = one[edge[one + 1]]
    three = one[middle[one + 1] & edge[np.minimum(one + 2, len(ids) - 1)]]
    three = three[three + 2 < len(ids)]
    # Word pairs (two-word terms and the first two words of three-word terms) get compact codes.
    pair_positions = np.concatenate([two, three])
    pair_codes, pair_keys = pd.factorize(words[pair_positions].astype(np.int64) * n_folded
                                         + words[pair_positions + 1])
    pair_keys = np.asarray(pair_keys, dtype=np.int64)
    triple_codes, triple_keys = pd.factorize(pair_codes[len(two):] * n_folded + words[three + 2])
    triple_keys = np.asarray(triple_keys, dtype=np.int64)
    n_pairs = len(pair_keys)
    codes = np.concatenate([words[one], n_folded + pair_codes[:len(two)], n_folded + n_pairs + triple_codes])
    rows = np.concatenate([text_of[one], text_of[two], text_of[three]])

    def label(code: int) -> str:
        if code < n_folded:
            return str(folded_vocabulary[code])
        if code < n_folded + n_pairs:
            key = pair_keys[code - n_folded]
            return f"{folded_vocabulary[key // n_folded]} {folded_vocabulary[key % n_folded]}"
        key = triple_keys[code - n_folded - n_pairs]
        return f"{label(n_folded + key // n_folded)} {folded_vocabulary[key % n_folded]}"

    n_codes = n_folded + n_pairs + len(triple_keys)
    labels: dict[int, str] = {}
    if merges:
        # Map each merged variant's code to its target's code (or a new code past the end).
        word_index = {str(w): i for i, w in enumerate(folded_vocabulary)}
        pair_index = pd.Index(pair_keys)
        triple_index = pd.Index(triple_keys)
        code_of_label: dict[str, int] = {}
        for source in merges:
            code = _code_for(source.split(), word_index, pair_index, triple_index, n_folded, n_pairs)
            if code is not None:
                code_of_label[source] = code
        targets = {t for s, t in merges.items() if s in code_of_label}
        for target in sorted(targets):
            code = _code_for(target.split(), word_index, pair_index, triple_index, n_folded, n_pairs)
            if code is None:
                code, n_codes = n_codes, n_codes + 1
            code_of_label.setdefault(target, code)
            labels[code] = target
        remap = np.arange(n_codes, dtype=np.int64)
        for source, code in code_of_label.items():
            if source in merges:
                remap[code] = code_of_label[merges[source]]
        codes = remap[codes]
    binary = sparse.csr_matrix((np.ones(len(codes), dtype=np.int32),
                                (rows.astype(np.int32), codes.astype(np.int32))), shape=(len(tokens), n_codes))
    binary.sum_duplicates()
    binary.data[:] = 1
    papers = np.bincount(binary.indices, minlength=n_codes)
    kept = np.flatnonzero(papers >= max(min_papers, 1))
    terms = np.array([labels.get(c) or label(c) for c in kept], dtype=object)
    alphabetical = np.argsort(terms, kind="stable")
    return binary[:, kept[alphabetical]].tocsr().astype(np.int64), terms[alphabetical]


def _code_for(words: list[str], word_index: dict[str, int], pair_index: pd.Index, triple_index: pd.Index,
              n_folded: int, n_pairs: int) -> int | None:
    """The code :func:`candidate_term_matrix` gives a 1-3 word term, or None if no text holds it."""
    if not 1 <= len(words) <= 3 or any(w not in word_index for w in words):
        return None
    folded = [word_index[w] for w in words]
    if len(words) == 1:
        return folded[0]
    pair = pair_index.get_indexer([folded[0] * n_folded + folded[1]])[0]
    if pair < 0:
        return None
    if len(words) == 2:
        return n_folded + int(pair)
    triple = triple_index.get_indexer([int(pair) * n_folded + folded[2]])[0]
    return None if triple < 0 else n_folded + n_pairs + int(triple)


def find_acronyms(texts: Iterable[str]) -> pd.DataFrame:
    """Acronyms defined in the texts, as ``acronym, long_form, n_papers``.

    An acronym in parentheses counts as defined when the initials of the words
    just before it spell it ("graph neural networks (GNNs)"). When one acronym
    is defined with several long forms, the most frequent (then alphabetically
    first) wins.

    Examples
    --------
    >>> find_acronyms(["We train Graph Neural Networks (GNNs) and Large Language Models (LLMs)."])
      acronym             long_form  n_papers
    0     gnn  graph neural network         1
    1     llm  large language model         1
    """
    counts: dict[tuple[str, str], int] = {}
    for text in texts:
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
            acronym = fold_plural(match.group(1).lower())
            long_form = fold_term(w.lower() for w in candidate)
            if acronym != long_form:
                seen.add((acronym, long_form))
        for pair in seen:
            counts[pair] = counts.get(pair, 0) + 1
    table = pd.DataFrame([(a, l, n) for (a, l), n in counts.items()],
                         columns=["acronym", "long_form", "n_papers"])
    table = table.sort_values(["acronym", "n_papers", "long_form"], ascending=[True, False, True])
    return table.drop_duplicates("acronym").reset_index(drop=True)


def read_thesaurus(path: str | Path | None = None) -> dict[str, str]:
    """A VOSviewer-style thesaurus (CSV with columns ``label,replace by``) as a mapping.

    Without ``path``, the project's ``resources/thesaurus.csv`` is read. Labels
    are lower-cased and plural-folded like the terms they replace.
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
        label, replacement = (fold_term(c.strip().lower().split()) for c in row[:2])
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


@dataclass
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
    acronyms, merges : DataFrame
        Acronyms found and every merge applied (``from, to, source``).
    paper_terms : scipy.sparse.csr_matrix
        Binary papers x kept terms (rows in ``paper_ids`` order).
    message : str
        Why there is no network to draw, or ``""``.
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


def relevance_scores(papers_per_term: np.ndarray, n_papers: int) -> np.ndarray:
    """Relevance of each term: ``n * ln(N / n)`` for a term in ``n`` of ``N`` papers.

    The score peaks for terms in about a third of the papers (``N / e``): terms
    in nearly every abstract (``model``) say little about any part of the
    corpus, terms in two or three say little about the corpus as a whole.

    Examples
    --------
    >>> relevance_scores(np.array([57, 38, 13, 2]), 57).round(2).tolist()
    [0.0, 15.41, 19.22, 6.7]
    """
    papers_per_term = np.asarray(papers_per_term, dtype=float)
    return papers_per_term * np.log(n_papers / np.maximum(papers_per_term, 1))


def _layout(graph: nx.Graph, seed: int) -> dict[str, tuple[float, float]]:
    """Seeded spring layout of the linked terms in [-1, 1]; unlinked terms on a ring around them."""
    linked = [n for n in sorted(graph.nodes) if graph.degree(n) > 0]
    alone = [n for n in sorted(graph.nodes) if graph.degree(n) == 0]
    positions: dict[str, tuple[float, float]] = {}
    if linked:
        core = graph.subgraph(linked)
        spread = 2.0 / math.sqrt(len(linked))
        raw = nx.spring_layout(core, weight="weight", seed=seed, k=spread, iterations=200)
        coordinates = np.array([raw[n] for n in linked])
        coordinates -= coordinates.mean(axis=0)
        coordinates /= max(np.abs(coordinates).max(), 1e-12)
        positions.update({n: (float(x), float(y)) for n, (x, y) in zip(linked, coordinates)})
    radius = 1.25 if linked else 1.0
    for n, angle in zip(alone, np.linspace(0, 2 * np.pi, len(alone), endpoint=False)):
        positions[n] = (radius * float(np.cos(angle)), radius * float(np.sin(angle)))
    return positions


def _nested_terms(vocabulary: np.ndarray, binary: sparse.csr_matrix) -> np.ndarray:
    """Indices of terms that only ever occur inside one longer term (``tangent`` in ``tangent kernel``).

    Such a term occurs in exactly the papers of the longer term, so it adds
    nothing to the map.
    """
    index = {str(term): position for position, term in enumerate(vocabulary)}
    columns = binary.tocsc()
    papers = np.asarray(binary.sum(axis=0)).ravel()
    redundant: set[int] = set()
    for long_position, term in enumerate(vocabulary):
        words = str(term).split()
        for length in range(1, len(words)):
            for start in range(len(words) - length + 1):
                short = index.get(" ".join(words[start:start + length]))
                if short is None or short in redundant or papers[short] != papers[long_position]:
                    continue
                a, b = columns[:, short], columns[:, long_position]
                if (a != b).nnz == 0:
                    redundant.add(short)
    return np.array(sorted(redundant), dtype=int)


def analyse_cooccurrence(
    raw_texts: pd.Series,
    analysis_texts: TokenizedCorpus | pd.Series,
    *,
    min_papers: int | None = None,
    top_n: int = TOP_N,
    min_pair_papers: int | None = None,
    thesaurus: dict[str, str] | None = None,
    seed: int = LOUVAIN_SEED,
    resolution: float = LOUVAIN_RESOLUTION,
) -> CooccurrenceResult:
    """Find terms, count pairs, and build the term network.

    Parameters
    ----------
    raw_texts : Series
        Stored text of each paper (acronym definitions are found in their
        original case).
    analysis_texts : TokenizedCorpus or Series
        :func:`helpers.text.tokenize_corpus` of the analysis texts, or the
        analysis texts indexed by ``paper_id``.
    min_papers : int, optional
        Keep terms in at least this many abstracts (default
        :func:`default_min_papers`).
    top_n : int
        Then keep the ``top_n`` terms by :func:`relevance_scores`, so neither
        generic terms (``model``) nor one-off phrases fill the map. A term
        that occurs only inside one longer term is dropped first.
    min_pair_papers : int, optional
        Pairs sharing fewer papers are left out of the graph (never out of the
        pairs table). Default :func:`default_min_pair_papers`.
    """
    tokens = analysis_texts_to_tokens(analysis_texts)
    n_papers = len(tokens)
    min_papers = default_min_papers(n_papers) if min_papers is None else min_papers
    thesaurus = read_thesaurus() if thesaurus is None else thesaurus
    acronyms = find_acronyms(raw_texts.tolist())
    # Acronyms first, then the thesaurus on the result, so both can apply to one term.
    merges = {acronym: thesaurus.get(long_form, long_form)
              for acronym, long_form in zip(acronyms["acronym"], acronyms["long_form"])}
    merges.update(thesaurus)
    merge_table = pd.concat([
        acronyms.rename(columns={"acronym": "from", "long_form": "to"})[["from", "to"]].assign(source="acronym"),
        pd.DataFrame({"from": list(thesaurus), "to": list(thesaurus.values())}).assign(source="thesaurus"),
    ], ignore_index=True)
    paper_ids = [str(p) for p in tokens.paper_ids]
    binary, vocabulary = candidate_term_matrix(tokens, merges,
                                               min_papers=min_papers if n_papers >= min_papers else 1)
    papers_per_term = np.asarray(binary.sum(axis=0)).ravel()
    if len(vocabulary):
        relevance = np.round(relevance_scores(papers_per_term, n_papers), 9)
        redundant = _nested_terms(vocabulary, binary)
        relevance[redundant] = -1.0
        order = np.lexsort((vocabulary, -papers_per_term, -relevance))
        order = np.sort(order[relevance[order] >= 0][:top_n])
    else:
        relevance, order = np.array([]), np.array([], dtype=int)
    kept = binary[:, order].tocsr()
    kept_terms = [str(t) for t in vocabulary[order]]
    pairs = pair_table(kept, kept_terms) if kept_terms else pd.DataFrame(
        columns=["source", "target", "n_papers", "association_strength", "jaccard"])

    if min_pair_papers is None:
        min_pair_papers = default_min_pair_papers(pairs["n_papers"].to_numpy(), len(kept_terms))
    settings = dict(min_papers=min_papers, top_n=top_n, min_pair_papers=min_pair_papers,
                    louvain_seed=seed, resolution=resolution, n_papers=n_papers,
                    n_candidates=int(len(vocabulary)))
    graph = nx.Graph()
    for index, term in zip(order, kept_terms):
        graph.add_node(term, n_papers=int(papers_per_term[index]), relevance=round(float(relevance[index]), 6))
    drawn = pairs[pairs["n_papers"] >= min_pair_papers]
    for row in drawn.itertuples(index=False):
        graph.add_edge(row.source, row.target, weight=float(row.association_strength),
                       n_papers=int(row.n_papers))
    message = ""
    if not kept_terms:
        message = f"no term occurs in at least {min_papers} abstracts"
    elif drawn.empty:
        message = f"no pair of terms shares at least {min_pair_papers} abstracts, so the network has no links"

    if graph.number_of_edges():
        found = nx.community.louvain_communities(graph, weight="weight", resolution=resolution, seed=seed)
        modularity = float(nx.community.modularity(graph, found, weight="weight", resolution=resolution))
    else:
        found = [{t} for t in kept_terms]
        modularity = 0.0
    positions = _layout(graph, seed)
    found = sorted(found, key=lambda c: (-len(c), min(c)))
    community_of = {term: number for number, members in enumerate(found, start=1) for term in members}

    terms = pd.DataFrame({
        "term": kept_terms,
        "n_papers": [int(papers_per_term[i]) for i in order],
        "relevance": [round(float(relevance[i]), 6) for i in order],
    })
    terms["community"] = terms["term"].map(community_of).astype("int64") if len(terms) else pd.Series(dtype="int64")
    terms["degree"] = terms["term"].map(dict(graph.degree())).fillna(0).astype("int64")
    terms["link_strength"] = terms["term"].map(
        dict(graph.degree(weight="weight"))).fillna(0).astype(float).round(6)
    terms["x"] = terms["term"].map(lambda t: round(float(positions[t][0]), 6))
    terms["y"] = terms["term"].map(lambda t: round(float(positions[t][1]), 6))
    nx.set_node_attributes(graph, dict(zip(terms["term"], terms["community"].astype(int))), "community")
    terms = terms.sort_values(["community", "n_papers", "term"], ascending=[True, False, True],
                              ignore_index=True)
    communities = (terms.groupby("community")
                   .agg(n_terms=("term", "size"), n_papers=("n_papers", "sum"),
                        top_terms=("term", lambda t: ", ".join(t.head(8))))
                   .reset_index())
    column_of = {term: position for position, term in enumerate(kept_terms)}
    kept = kept[:, [column_of[t] for t in terms["term"]]] if len(terms) else kept
    return CooccurrenceResult(
        terms=terms, pairs=pairs, graph=graph, communities=communities, acronyms=acronyms,
        merges=merge_table, paper_terms=kept.tocsr(), paper_ids=paper_ids, modularity=modularity,
        message=message, settings=settings,
    )


def write_vosviewer_json(result: CooccurrenceResult, path: Path) -> None:
    """VOSviewer JSON (map and network in one file; VOSviewer 1.6.16 and later read it)."""
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
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


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
