"""The co-occurrence analysis in one call (:func:`analyse_cooccurrence`) and its typed result."""

from __future__ import annotations

import operator
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.cooccurrence.acronyms import acronym_merges, acronym_table
from helpers.analysis.cooccurrence.candidates import merge_table, read_thesaurus
from helpers.analysis.cooccurrence.communities import community_table
from helpers.analysis.cooccurrence.counting import (
    bucket_counts,
    partition_candidates,
    partition_columns,
    partition_changed,
    partition_definitions,
    partition_edited,
    partition_summary,
    reduce_bucket,
    sum_matrices,
    summed_gram,
    take_columns,
)
from helpers.analysis.cooccurrence.network import (
    LOUVAIN_RESOLUTION,
    LOUVAIN_SEED,
    MAX_LINKS_PER_TERM,
    PAIR_COLUMNS,
    default_min_pair_papers,
    pair_table_of_gram,
    term_network,
)
from helpers.analysis.cooccurrence.relevance import (
    BELOW_CUT_ROWS,
    MAX_MAP_TERMS,
    RELEVANCE_SMOOTHING,
    RELEVANCE_TOPICS,
    RELEVANT_SHARE,
    candidate_min_papers,
    default_min_occurrences,
    select_from_gram,
)
from helpers.analysis.engine.local import LocalPartitions, PartitionRunner, partition_bounds, reduce_tree
from helpers.analysis.settings import check_share, check_whole
from helpers.analysis.text.noun_phrases import MAX_TERM_WORDS
from helpers.analysis.text.tokens import TokenizedCorpus, analysis_texts_to_tokens
from helpers.analysis.text.vocabulary import BUILT_IN_STOP_WORD, VocabularyEdits, add_up_left_out, left_out_words

#: The columns of :attr:`CooccurrenceResult.left_out` and :attr:`CooccurrenceResult.vocabulary_changes`.
LEFT_OUT_COLUMNS = ["term", "n_papers", "rule"]
CHANGE_COLUMNS = ["term", "becomes", "file"]
#: The rule of a term the ranking leaves out as generic (:func:`select_terms`).
GENERIC_TERM = "generic term"


@dataclass(frozen=True)
class CooccurrenceSettings:
    """What the term map was made with, as attributes (``result.settings.min_pair_papers``), in the order the
    Reproduce page lists them (:meth:`as_dict`).

    Attributes
    ----------
    min_occurrences : int
        Abstracts a term needs to be a candidate for the map.
    relevant_share : float
        Share of the eligible terms kept, best ranked first.
    min_pair_papers : int
        Abstracts a pair needs to be a link of the network.
    louvain_seed : int
    resolution : float
        The Louvain communities' seed and resolution.
    n_papers, n_candidates, n_eligible : int
        Abstracts counted, candidate terms, and terms with at least ``min_occurrences`` abstracts.
    relevance_smoothing : float
    relevance_topics : int
        The relevance score's smoothing and number of topics.
    max_map_terms, max_term_words, max_links_per_term : int
        The map's caps: terms, words a term, links a term.
    ranking : str
        The ranking the kept terms were chosen by (:func:`select_terms`).
    n_tokens, n_generic, n_nested : int
        Tokens counted, generic terms left out, terms nested in a longer one and merged into it.
    """

    min_occurrences: int
    relevant_share: float
    min_pair_papers: int
    louvain_seed: int
    resolution: float
    n_papers: int
    n_candidates: int
    n_eligible: int
    relevance_smoothing: float
    relevance_topics: int
    max_map_terms: int
    max_term_words: int
    max_links_per_term: int
    ranking: str
    n_tokens: int
    n_generic: int
    n_nested: int

    def as_dict(self) -> dict[str, Any]:
        """The settings by name, in the order above."""
        return asdict(self)


@dataclass(frozen=True)
class CooccurrenceResult:
    """Terms, pairs, the network and its communities.

    Attributes
    ----------
    terms : DataFrame
        ``term, n_papers, relevance, score, community, degree, link_strength, x, y`` (``score``: the
        ranking's, :func:`select_terms`).
    pairs : DataFrame
        :func:`pair_table` of the kept terms.
    graph : networkx.Graph
        Kept terms as nodes; edges for pairs with at least ``min_pair_papers``.
    communities : DataFrame
        ``community, n_terms, n_papers, top_terms`` (:func:`community_table`): ``n_terms`` every term of
        the community, ``n_papers`` the abstracts using any of its terms, each once; the one source of the
        chapter's table and the map's legend.
    acronyms : DataFrame
        :func:`find_acronyms`.
    merges : DataFrame
        Every merge applied (``from, to, source``; ``source`` is ``acronym``,
        ``acronym in defining abstracts``, ``thesaurus``, or ``nested``: a term with most of its
        abstracts inside one longer term, folded into it, :func:`nested_merges`).
    paper_terms : scipy.sparse.csr_matrix
        Binary papers x kept terms (rows in ``paper_ids`` order, columns in ``terms`` order).
    paper_ids : list of str
    modularity : float
    message : str
        Why there is no network to draw, or ``""``.
    settings : CooccurrenceSettings
        The thresholds, seeds and caps the map was made with, and its counts.
    below_cut : DataFrame
        ``term, n_papers, relevance``: the eligible terms just below the relevance cut, most relevant first.
    left_out : DataFrame
        ``term, n_papers, rule``: what the built-in rules leave out, most used first: the boilerplate list's nouns
        (``built-in stop word``: never a term) and the eligible terms the ranking leaves out as generic
        (``generic term``).
    vocabulary_changes : DataFrame
        ``term, becomes, file``: the candidate terms the researcher's files changed (``becomes`` empty: removed),
        and the first file that lists each.
    vocabulary_changed : tuple of int
        For each of the researcher's files, the candidate terms of these abstracts it changed.
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
    settings: CooccurrenceSettings
    below_cut: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["term", "n_papers", "relevance",
                                                                                   "score"]))
    left_out: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=LEFT_OUT_COLUMNS))
    vocabulary_changes: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=CHANGE_COLUMNS))
    vocabulary_changed: tuple[int, ...] = ()

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
    ranking: str = "combined",
    generic_terms: frozenset[str] | None = None,
    edits: VocabularyEdits | None = None,
) -> CooccurrenceResult:
    """Find terms, keep the relevant ones, count pairs and build the term network.

    Parameters
    ----------
    raw_texts : Series
        Stored text of each paper, in the order of ``analysis_texts`` (acronym
        definitions are found in their original case and applied by row). When
        indexed by ``paper_id`` (labels, not positions), the ids must be those of
        ``analysis_texts`` in that order.
    analysis_texts : TokenizedCorpus or Series
        :func:`helpers.analysis.text.tokens.tokenize_corpus` of the analysis texts, or the
        analysis texts indexed by ``paper_id``.
    min_occurrences : int, optional
        Terms must occur in at least this many abstracts (default
        :func:`default_min_occurrences`, which grows with the corpus).
    relevant_share : float
        Of those, keep this share, most relevant first (:func:`relevance_scores`);
        VOSviewer's default is 60%.
    ranking : {"combined", "relevance", "frequency"}
        How the eligible terms are ranked (:func:`select_terms`): the combined
        termhood score (default), VOSviewer's relevance alone, or occurrences.
    generic_terms : frozenset of str, optional
        The stock list of the combined ranking (default: the project's
        ``resources/generic_terms.txt``).
    min_pair_papers : int, optional
        Pairs sharing fewer papers are left out of the graph (never out of the
        pairs table). Default :func:`default_min_pair_papers`.
    edits : VocabularyEdits, optional
        The researcher's thesaurus and stop terms, applied to each abstract's candidate terms before any
        count is summed (:func:`helpers.analysis.cooccurrence.counting.partition_edited`).

    Raises
    ------
    SettingsError
        For a ``min_occurrences`` below 1 or a ``relevant_share`` outside (0, 1]
        (:mod:`helpers.analysis.settings`).
    ValueError
        When ``raw_texts`` and ``analysis_texts`` are not the same papers in the same order.
    """
    check_whole(min_occurrences, "min_occurrences", minimum=1, optional=True)
    check_share(relevant_share, "relevant_share")
    tokens = analysis_texts_to_tokens(analysis_texts)
    _check_same_papers(raw_texts, tokens)
    return analyse_partitions(LocalPartitions(), [tokens], [raw_texts.tolist()], min_occurrences=min_occurrences,
                              relevant_share=relevant_share, min_pair_papers=min_pair_papers, thesaurus=thesaurus,
                              seed=seed, resolution=resolution, ranking=ranking, generic_terms=generic_terms,
                              edits=edits)


def analyse_partitions(
    runner: PartitionRunner,
    token_parts: Sequence[Any],
    text_parts: Sequence[Any],
    *,
    min_occurrences: int | None = None,
    relevant_share: float = RELEVANT_SHARE,
    min_pair_papers: int | None = None,
    thesaurus: dict[str, str] | None = None,
    seed: int = LOUVAIN_SEED,
    resolution: float = LOUVAIN_RESOLUTION,
    ranking: str = "combined",
    generic_terms: frozenset[str] | None = None,
    edits: VocabularyEdits | None = None,
) -> CooccurrenceResult:
    """:func:`analyse_cooccurrence` of a corpus in consecutive partitions, counted where they are.

    ``token_parts`` are handles (values, or Dask futures) of each partition's
    :class:`helpers.analysis.text.tokens.TokenizedCorpus` and ``text_parts`` of its stored texts (a list of
    str), in corpus order; ``runner`` runs the per-partition steps of
    :mod:`helpers.analysis.cooccurrence.counting` and their reductions. Only counts come back: acronym
    definitions, the frequent candidates' abstracts and occurrences, their summed ``X.T @ X`` and the
    papers x map terms matrix. The result is the same for any cut into partitions (a tested equivalence).
    """
    check_whole(min_occurrences, "min_occurrences", minimum=1, optional=True)
    check_share(relevant_share, "relevant_share")
    summaries = runner.gather(runner.map(partition_summary, token_parts))
    paper_ids = [paper for ids, _ in summaries for paper in ids]
    bounds = np.cumsum([0] + [len(ids) for ids, _ in summaries])
    n_papers, n_tokens = len(paper_ids), sum(words for _, words in summaries)
    min_occurrences = default_min_occurrences(n_papers) if min_occurrences is None else int(min_occurrences)
    thesaurus = read_thesaurus() if thesaurus is None else thesaurus
    definitions = pd.concat([part.assign(row=part["row"] + int(first)) for part, first in
                             zip(runner.gather(runner.map(partition_definitions, text_parts)), bounds)],
                            ignore_index=True).astype({"row": "int64", "acronym": object, "long_form": object})
    acronyms = acronym_table(definitions)
    corpus_merges, local_merges = acronym_merges(definitions, thesaurus)
    merges = {**corpus_merges, **thesaurus}
    rows = local_merges["row"].to_numpy()
    local_parts = [local_merges[(rows >= first) & (rows < last)].assign(row=lambda t, first=first: t["row"] - first)
                   .reset_index(drop=True) for first, last in zip(bounds[:-1].tolist(), bounds[1:].tolist())]
    shared_merges = runner.share(merges)
    # The boilerplate nouns the texts use (never terms), counted before the candidates take memory.
    built_in = add_up_left_out(*runner.gather(runner.map(left_out_words, token_parts)))
    found = runner.map(partition_candidates, token_parts, [shared_merges] * len(token_parts), local_parts)
    changes = pd.DataFrame(columns=CHANGE_COLUMNS)
    changed_by_file: tuple[int, ...] = ()
    if edits is not None and not edits.empty:
        # The researcher's files at the edge of the stage: each abstract's candidates edited before any sum.
        shared_edits = runner.share(edits)
        changed = sorted(set().union(*runner.gather(runner.map(partition_changed, found,
                                                               [shared_edits] * len(found)))))
        changes, changed_by_file = _change_table(edits, changed), tuple(edits.changed_by_file(changed))
        found = runner.map(partition_edited, found, [shared_edits] * len(found))

    # The candidates' counts, summed by term; only those frequent enough for the map come back.
    pieces = runner.map(bucket_counts, found, [runner.n_buckets] * len(found))
    threshold = candidate_min_papers(min_occurrences, ranking)
    reduced = runner.gather([runner.submit(reduce_bucket, threshold,
                                           *(runner.submit(operator.getitem, piece, bucket) for piece in pieces))
                             for bucket in range(runner.n_buckets)])
    frequent = pd.concat([table for table, _ in reduced], ignore_index=True)
    frequent = frequent.iloc[np.argsort(frequent["term"].to_numpy().astype(str), kind="stable")]
    vocabulary = frequent["term"].to_numpy().astype(str).astype(object)
    n_candidates = sum(count for _, count in reduced)
    shared_vocabulary = runner.share(vocabulary)
    # Each partition's candidates give way to its binary papers x frequent candidates matrix: the
    # rare candidates (most of them) leave memory here, not at the end of the stage.
    columns = runner.map(partition_columns, found, [shared_vocabulary] * len(found))
    del found, pieces
    # One running sum of the partitions' products per reduction bucket (worker), not one product per partition.
    sums = [runner.submit(summed_gram, *columns[start:stop])
            for start, stop in partition_bounds(len(columns), runner.n_buckets)]
    gram = sum_matrices(reduce_tree(runner, sum_matrices, sums))
    selection = select_from_gram(gram, vocabulary, min_occurrences=min_occurrences, relevant_share=relevant_share,
                                 seed=seed, ranking=ranking, n_tokens=n_tokens or int(frequent["n_papers"].sum()),
                                 generic_terms=generic_terms, occurrences=frequent["occurrences"].to_numpy())
    papers_per_term = np.asarray(gram.diagonal()).ravel()
    kept_terms = pd.DataFrame({
        "term": vocabulary[selection.kept].astype(str),
        "n_papers": papers_per_term[selection.kept].astype(np.int64),
        "relevance": np.round(selection.relevance[selection.kept], 6),
        "score": np.round(selection.score[selection.kept], 6),
    })
    kept = selection.kept
    pairs = pair_table_of_gram(gram[kept][:, kept], kept_terms["term"].tolist()) if len(kept_terms) else pd.DataFrame(
        columns=PAIR_COLUMNS)
    if min_pair_papers is None:
        min_pair_papers = default_min_pair_papers(pairs["n_papers"].to_numpy(), len(kept_terms))
    graph, terms, modularity = term_network(kept_terms, pairs, min_pair_papers=min_pair_papers, seed=seed,
                                            resolution=resolution)
    message = ""
    if terms.empty:
        message = f"no term occurs in at least {min_occurrences} abstracts"
    elif not graph.number_of_edges():
        message = f"no pair of terms shares at least {min_pair_papers} abstracts, so the network has no links"
    shown_terms = (terms if len(terms) else kept_terms)["term"].to_numpy().astype(object)
    shown = runner.share(pd.Index(vocabulary).get_indexer(shown_terms))
    paper_terms = sparse.vstack(runner.gather(runner.map(take_columns, columns, [shown] * len(columns))),
                                format="csr").astype(np.int64)
    communities = community_table(terms, pairs, paper_terms)
    kept_set = set(selection.kept.tolist())
    below = [c for c in selection.ranked if c not in kept_set][:BELOW_CUT_ROWS]
    below_cut = pd.DataFrame({"term": vocabulary[below].astype(str),
                              "n_papers": papers_per_term[below].astype(np.int64),
                              "relevance": np.round(selection.relevance[below], 6),
                              "score": np.round(selection.score[below], 6)})
    settings = CooccurrenceSettings(
        min_occurrences=min_occurrences, relevant_share=relevant_share, min_pair_papers=min_pair_papers,
        louvain_seed=seed, resolution=resolution, n_papers=n_papers, n_candidates=int(n_candidates),
        n_eligible=selection.n_eligible, relevance_smoothing=RELEVANCE_SMOOTHING, relevance_topics=RELEVANCE_TOPICS,
        max_map_terms=MAX_MAP_TERMS, max_term_words=MAX_TERM_WORDS, max_links_per_term=MAX_LINKS_PER_TERM,
        ranking=ranking, n_tokens=n_tokens, n_generic=int(len(selection.generic)), n_nested=len(selection.nested))
    generic = pd.DataFrame({"term": vocabulary[selection.generic].astype(str),
                            "n_papers": papers_per_term[selection.generic].astype(np.int64), "rule": GENERIC_TERM})
    left_out = pd.concat([built_in.assign(rule=BUILT_IN_STOP_WORD), generic], ignore_index=True)
    left_out = left_out.sort_values(["n_papers", "term"], ascending=[False, True], kind="stable")
    return CooccurrenceResult(
        terms=terms, pairs=pairs, graph=graph, communities=communities, acronyms=_kept_acronyms(acronyms, edits),
        merges=_with_nested(merge_table(acronyms, local_merges, thesaurus), selection.nested), paper_terms=paper_terms,
        paper_ids=paper_ids, modularity=modularity, message=message,
        settings=settings, below_cut=below_cut, left_out=left_out[LEFT_OUT_COLUMNS].reset_index(drop=True),
        vocabulary_changes=changes, vocabulary_changed=changed_by_file,
    )


def _kept_acronyms(acronyms: pd.DataFrame, edits: VocabularyEdits | None) -> pd.DataFrame:
    """The acronym table without the acronyms whose long form the researcher removed (a removed term appears nowhere)."""
    if edits is None or edits.empty or not len(acronyms):
        return acronyms
    kept = [edits.apply(str(long)) is not None and edits.apply(str(short).lower()) is not None
            for short, long in zip(acronyms["acronym"], acronyms["long_form"])]
    return acronyms[kept].reset_index(drop=True)


def _change_table(vocabulary: VocabularyEdits, changed: Sequence[str]) -> pd.DataFrame:
    """``term, becomes, file`` of the changed candidate terms (``becomes`` empty: removed)."""
    rows = []
    for term in changed:
        becomes = vocabulary.apply(term)
        source = next((s.name for s in vocabulary.sources if term in s.labels), "")
        rows.append((term, becomes or "", source))
    return pd.DataFrame(rows, columns=CHANGE_COLUMNS).astype(object)


def _with_nested(merges: pd.DataFrame, nested: dict[str, str]) -> pd.DataFrame:
    """The merge table with the nested terms merged into longer ones (``source`` = ``nested``)."""
    if not nested:
        return merges
    rows = pd.DataFrame({"from": sorted(nested), "to": [nested[t] for t in sorted(nested)], "source": "nested"})
    return pd.concat([merges, rows.astype(object)], ignore_index=True)


def _check_same_papers(raw_texts: pd.Series, tokens: TokenizedCorpus) -> None:
    """Acronyms found in ``raw_texts`` row ``i`` rename terms in text ``i``: the rows must be the same papers."""
    if len(raw_texts) != len(tokens):
        raise ValueError(f"raw_texts has {len(raw_texts)} texts, analysis_texts {len(tokens)}")
    if pd.api.types.is_integer_dtype(raw_texts.index.dtype):
        return  # positions, not paper ids
    ids = raw_texts.index.astype(str)
    differ = np.flatnonzero(ids.to_numpy() != tokens.paper_ids.astype(str))
    if len(differ):
        row = int(differ[0])
        raise ValueError(f"raw_texts and analysis_texts differ in paper order: row {row} is {ids[row]}, "
                         f"not {tokens.paper_ids[row]}")


# What the chapter shows: a bounded page whatever the corpus size.
STRONGEST_PAIRS = 20


def papers_with_terms(result: CooccurrenceResult, terms: Iterable[str]) -> list[str]:
    """The ids of the papers that use every one of ``terms``, in ``paper_ids`` order.

    Examples
    --------
    >>> raw = pd.Series({"p1": "Galaxy clusters and quantum kernels.", "p2": "Galaxy clusters.",
    ...                  "p3": "Quantum kernels."})
    >>> from helpers.analysis.text.cleaning import analysis_text
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


def distinct_pairs(result: CooccurrenceResult, top: int) -> pd.DataFrame:
    """The strongest pairs (:func:`strongest_pairs` order) of which no two share a community or an example paper.

    A pair is taken when neither of its terms' communities is one an earlier pair took, and one of its papers
    is the example of no earlier pair; that paper (the first such in ``paper_ids`` order) is its ``example``.
    So a few strongest pairs show as many regions of the map, each with a paper of its own.

    Examples
    --------
    >>> raw = pd.Series({"p1": "Galaxy clusters and quantum kernels.", "p2": "Galaxy clusters and dark matter.",
    ...                  "p3": "Quantum kernels and dark matter.", "p4": "Galaxy clusters and quantum kernels."})
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> result = analyse_cooccurrence(raw, raw.map(analysis_text), min_occurrences=2, relevant_share=1.0, thesaurus={})
    >>> distinct_pairs(result, 3)[["source", "target", "n_papers", "example"]].values.tolist()
    [['galaxy cluster', 'quantum kernel', 2, 'p1']]
    """
    community = dict(zip(result.terms["term"], result.terms["community"]))
    taken_communities: set[int | None] = set()  # None: a term the terms table does not list
    taken_papers: set[str] = set()
    rows: list[dict[str, Any]] = []
    for pair in strongest_pairs(result, len(result.pairs)).to_dict("records"):
        if len(rows) == top:
            break
        theirs = {community.get(pair["source"]), community.get(pair["target"])}
        if theirs & taken_communities:
            continue
        example = next((paper for paper in papers_with_terms(result, [pair["source"], pair["target"]])
                        if paper not in taken_papers), None)
        if example is None:
            continue
        taken_communities |= theirs
        taken_papers.add(example)
        rows.append({**pair, "example": example})
    return pd.DataFrame(rows, columns=[*result.pairs.columns, "example"]).reset_index(drop=True)
