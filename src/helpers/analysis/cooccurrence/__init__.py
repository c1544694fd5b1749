"""Co-occurring terms: a term map in the manner of VOSviewer, built from sparse counts.

:func:`analyse_cooccurrence` (:mod:`.analyse`) runs the steps in order, each a function of its own module, with
the options of a :class:`TermMapOptions` (:mod:`.options`, checked once where they are built); the result is a
:class:`CooccurrenceResult` (:mod:`.result`).

1. :mod:`.candidates`, :func:`candidate_term_matrix`: which abstracts use which noun-phrase terms
   (:mod:`helpers.analysis.text.noun_phrases`), counted once per abstract, after merging variants
   through the thesaurus and the acronyms the abstracts define
   (:mod:`.acronyms`, found by the Schwartz-Hearst algorithm: :func:`acronym_merges`); :mod:`.counting` does
   it partition by partition and sums the counts.
2. :mod:`.selection`, :func:`select_terms`: terms in at least :func:`default_min_occurrences`
   abstracts (fewer for a phrase), stock terms left out and nested terms merged into the longer
   term (:mod:`.nested`, :func:`nested_merges`), then the best share of them by the combined termhood score of
   :mod:`.termhood` (VOSviewer's relevance, :func:`relevance_scores`; C-value; domain specificity against general
   English from ``wordfreq``; burstiness).
3. :mod:`.pairs`, :func:`pair_table`: pair counts from one sparse product ``X.T @ X``, with
   VOSviewer's association strength.
4. :mod:`.network`, :func:`term_network`: the drawn links (at most ``MAX_LINKS_PER_TERM`` per term),
   Louvain communities (:mod:`.communities`), a seeded layout (:mod:`.layout`); :mod:`.communities` also names
   each community by its own terms (the one table of communities) and measures how well they hold together.

:mod:`.exporters` writes the network for VOSviewer and Gephi; :mod:`.evaluation` measures the map
against the labelled terms of ``tests/evaluation/``.
"""

from helpers.analysis.cooccurrence.acronyms import acronym_definitions, acronym_merges, find_acronyms
from helpers.analysis.cooccurrence.candidates import candidate_term_matrix, candidate_terms, read_thesaurus
from helpers.analysis.cooccurrence.exporters import network_writers, vosviewer_document, write_vosviewer_json
from helpers.analysis.cooccurrence.analyse import analyse_cooccurrence, analyse_partitions, example_term_map
from helpers.analysis.cooccurrence.nested import nested_merges
from helpers.analysis.cooccurrence.network import default_min_pair_papers, term_network
from helpers.analysis.cooccurrence.options import CooccurrenceSettings, TermMapOptions
from helpers.analysis.cooccurrence.pairs import pair_table
from helpers.analysis.cooccurrence.result import CooccurrenceResult, distinct_pairs, papers_with_terms, strongest_pairs
from helpers.analysis.cooccurrence.selection import RANKINGS, RELEVANT_SHARE, default_min_occurrences, select_terms
from helpers.analysis.cooccurrence.termhood import context_topics, relevance_scores

__all__ = [
    # the map in one call, its options and its result
    "analyse_cooccurrence", "analyse_partitions", "TermMapOptions", "CooccurrenceSettings", "CooccurrenceResult",
    "papers_with_terms", "strongest_pairs", "distinct_pairs", "example_term_map",
    # candidate terms and acronyms
    "candidate_terms", "candidate_term_matrix", "read_thesaurus", "acronym_definitions", "find_acronyms",
    "acronym_merges",
    # the selection
    "RANKINGS", "RELEVANT_SHARE", "default_min_occurrences", "select_terms", "nested_merges", "context_topics",
    "relevance_scores",
    # pairs and the network
    "pair_table", "default_min_pair_papers", "term_network",
    # exports
    "network_writers", "vosviewer_document", "write_vosviewer_json",
]
