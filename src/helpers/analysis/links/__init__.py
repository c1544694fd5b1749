"""Link availability: the code and data links of each paper, what its sentences say about them, and whether they work.

The steps of :func:`analyse_links` (:mod:`.states`), one module a job:

1. :mod:`.urls`, :func:`find_urls`: the URLs of an abstract, broken ones repaired; :func:`split_sentences`
   cuts the abstract into sentences. The leaf: the text stage removes the spans it finds
   (:func:`find_url_spans`). :mod:`.hosts` classifies each URL's host (:func:`classify_host`,
   :data:`HOST_KINDS`).
2. :mod:`.availability`, :func:`abstract_verdicts`: what each sentence says about the paper's own code and
   data (:func:`classify_sentence`, one of :data:`STATEMENTS`), from the claim :mod:`.claims` finds in it with
   the words and patterns of :mod:`.grammar`.
3. :mod:`.states`, :func:`analyse_links`: the links, the sentences' statements and one link state per paper
   (:data:`LINK_STATES`), with their shares (:func:`state_shares`) and the code links given to the venue
   (:func:`venue_code_links`, :func:`venue_code_shares`).

:mod:`.linkcheck` checks online whether the links are alive (:func:`run_linkcheck`; never part of the
book build); :mod:`.evaluation` scores the classifier on the labelled sentences of ``tests/evaluation/``
(:func:`evaluate_verdicts`, :func:`class_scores`).
"""

from helpers.analysis.links.availability import STATEMENTS, SentenceVerdict, abstract_verdicts, classify_sentence
from helpers.analysis.links.evaluation import (
                                                HELDOUT_COLUMNS,
                                                SCORE_COLUMNS,
                                                class_scores,
                                                confusion_matrix,
                                                evaluate_verdicts,
                                                load_evaluation_set,
                                                load_heldout,
                                                predict,
                                                resolve_export_sentences,
                                                score_sets,
                                                with_context,
)
from helpers.analysis.links.hosts import HOST_KINDS, LINKED_KINDS, classify_host
from helpers.analysis.links.linkcheck import check_url, check_urls, latest_check, link_health, run_linkcheck, write_check
from helpers.analysis.links.states import (
                                                LINK_STATES,
                                                LINKS_COLUMNS,
                                                STATEMENTS_COLUMNS,
                                                STATES_COLUMNS,
                                                VENUE_CODE_COLUMNS,
                                                VENUE_SHARE_COLUMNS,
                                                analyse_links,
                                                distinct_urls,
                                                find_links,
                                                state_shares,
                                                venue_code_links,
                                                venue_code_shares,
)
from helpers.analysis.links.urls import (
                                                FoundUrl,
                                                clean_url,
                                                find_url_spans,
                                                find_urls,
                                                is_safe_url,
                                                split_sentences,
)

__all__ = [
    "FoundUrl", "find_urls", "find_url_spans", "clean_url", "is_safe_url", "classify_host",
    "split_sentences", "HOST_KINDS", "LINKED_KINDS",
    "SentenceVerdict", "classify_sentence", "abstract_verdicts", "STATEMENTS",
    "find_links", "analyse_links", "state_shares", "distinct_urls", "venue_code_links", "venue_code_shares",
    "LINK_STATES", "LINKS_COLUMNS", "STATES_COLUMNS", "STATEMENTS_COLUMNS", "VENUE_CODE_COLUMNS",
    "VENUE_SHARE_COLUMNS",
    "check_url", "check_urls", "write_check", "latest_check", "link_health", "run_linkcheck",
    "SCORE_COLUMNS", "HELDOUT_COLUMNS", "class_scores", "with_context", "load_heldout", "predict", "score_sets",
    "load_evaluation_set", "resolve_export_sentences", "confusion_matrix", "evaluate_verdicts",
]
