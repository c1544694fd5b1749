"""Co-occurring terms: a term map in the manner of VOSviewer, built from sparse counts.

The steps of :func:`analyse_cooccurrence` (:mod:`.result`), each a function of its own, one module a job:

1. :mod:`.candidates`, :func:`candidate_term_matrix`: which abstracts use which noun-phrase terms
   (:mod:`helpers.analysis.text.noun_phrases`), counted once per abstract, after merging variants
   through the thesaurus and the acronyms the abstracts define
   (:mod:`.acronyms`, found by the Schwartz-Hearst algorithm: :func:`acronym_merges`).
2. :mod:`.relevance`, :func:`select_terms`: terms in at least :func:`default_min_occurrences`
   abstracts (half that for a phrase), stock terms left out and nested terms merged into the longer
   term (:mod:`.nested`, :func:`nested_merges`), then the best share of them by the combined termhood score of :mod:`.termhood`
   (VOSviewer's relevance, :func:`relevance_scores`; C-value; domain specificity against general
   English from ``wordfreq``).
3. :mod:`.network`, :func:`pair_table`: pair counts from one sparse product ``X.T @ X``, with
   VOSviewer's association strength.
4. :mod:`.network`, :func:`term_network`: the drawn links (at most ``MAX_LINKS_PER_TERM`` per term),
   Louvain communities (:func:`louvain_partition`), a seeded layout; :mod:`.communities` names each
   community by its own terms (:func:`community_table`, the one table of communities) and measures how
   well they hold together (:func:`community_cohesion`).

:mod:`.exporters` writes the network for VOSviewer and Gephi; :mod:`.evaluation` measures the map
against the labelled terms of ``tests/evaluation/``.
"""

from helpers.analysis.cooccurrence.acronyms import acronym_definitions, acronym_merges, find_acronyms
from helpers.analysis.cooccurrence.candidates import candidate_term_matrix, candidate_terms, read_thesaurus
from helpers.analysis.cooccurrence.exporters import (
                                                    network_writers,
                                                    vosviewer_document,
                                                    write_vosviewer_json,
                                                    write_vosviewer_map,
                                                    write_vosviewer_network,
)
from helpers.analysis.cooccurrence.nested import nested_merges
from helpers.analysis.cooccurrence.network import default_min_pair_papers, ordered_subgraph, pair_table, term_network
from helpers.analysis.cooccurrence.relevance import (
                                                    RANKINGS,
                                                    RELEVANT_SHARE,
                                                    context_topics,
                                                    default_min_occurrences,
                                                    relevance_scores,
                                                    select_terms,
)
from helpers.analysis.cooccurrence.result import (
                                                    CooccurrenceResult,
                                                    CooccurrenceSettings,
                                                    analyse_cooccurrence,
                                                    analyse_partitions,
                                                    distinct_pairs,
                                                    papers_with_terms,
                                                    strongest_pairs,
)

__all__ = [
    "RANKINGS", "nested_merges", "RELEVANT_SHARE", "candidate_terms", "candidate_term_matrix", "acronym_definitions", "find_acronyms",
    "acronym_merges", "read_thesaurus", "default_min_occurrences", "context_topics", "relevance_scores",
    "select_terms", "default_min_pair_papers", "pair_table", "term_network", "analyse_cooccurrence",
    "analyse_partitions",
    "CooccurrenceResult", "CooccurrenceSettings", "network_writers", "ordered_subgraph", "vosviewer_document", "write_vosviewer_json",
    "write_vosviewer_map", "write_vosviewer_network", "papers_with_terms", "strongest_pairs", "distinct_pairs",
]
