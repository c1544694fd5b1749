"""Theme labels: two of a theme's shown top terms, one concept each, marked "(general)" when none names it.

The rule (the rule of this module's docstring), for each theme in number order:

1. The candidates are the theme's shown top terms (the ``top_terms`` of the themes table), without the
   term map's stock terms (``resources/generic_terms.txt`` and ``generic_terms_any_field.txt``) and
   word pairs that are no noun phrase by the term map's rule (``discourse relies``).
2. Candidates that say one thing are one *concept* (:func:`same_concept`): terms sharing a word, words
   sharing a stem (``privacy``, ``private``), an acronym and its expansion (``llm``, ``language model``;
   ``dp`` beside ``differential`` and ``privacy``), a term and the abbreviation the corpus defines for it
   (``polyaniline (PANI)``, ``mercury (Hg)``: ``same_thing``); stock words do not count. A concept is named by its
   member of most words (the most specific), the first by weight among equals that is no acronym.
3. A concept is *specific* to the theme when at least :data:`MIN_LABEL_SHARE` of its members'
   occurrences are in the theme's papers (:func:`concept_share`): a term used mostly in one theme's
   papers names it, one used across themes (``neural network`` at ICML) does not.
4. With two specific concepts the label names the first two by weight, the more specific first
   (more words first, then the higher share): ``"language model · reasoning"``. Otherwise the theme's
   terms are common across the corpus: it is named by its first two concepts, marked *general*
   (:data:`GENERAL_SUFFIX`): ``"machine learning · prediction (general)"``.
5. A label already given to an earlier theme takes the theme's next concept instead, else its number.

Each part is then shown as the abstracts write it (:func:`written_forms`, :func:`written_label`): the term's most
frequent spelling in the theme's papers (``nanochannels``, ``PDMS``, ``Higgs boson``), never a folded form that
does not occur.

The shown top terms come first (:func:`shown_terms`): a theme's terms by weight, a noun phrase in place of
its own words.
"""

from __future__ import annotations

import re
from typing import Collection, Mapping, Sequence

import numpy as np

from helpers.analysis.cooccurrence.nested import NESTED_SHARE
from helpers.analysis.text.noun_phrases import is_noun_phrase
from helpers.analysis.themes.concepts import Concept, _stock_terms, concept_share, theme_concepts
from helpers.analysis.themes.scores import N_COHERENCE_TERMS, N_DIVERSITY_TERMS, _top

__all__ = ["MIN_LABEL_SHARE", "GENERAL_SUFFIX", "label_parts", "theme_labels", "shown_terms"]

#: Share of a concept's occurrences that must fall in one theme's papers for it to name that theme.
MIN_LABEL_SHARE = 0.55
#: The end of the label of a theme whose terms are common across the corpus (none is used mostly in its papers).
GENERAL_SUFFIX = " (general)"


def theme_labels(shown: Sequence[Sequence[str]], class_terms: np.ndarray, vocabulary: Sequence[str],
                 same_thing: Collection[frozenset[str]] = ()) -> list[str]:
    """One label per theme by the rule of this module's docstring, unique across themes.

    Parameters
    ----------
    shown : list of list of str
        Each theme's shown top terms, by weight (the themes table's ``top_terms``).
    class_terms : ndarray
        Themes x terms: each term's occurrences summed over each theme's papers.
    vocabulary : sequence of str
        The terms of ``class_terms``'s columns.
    same_thing : collection of frozenset
        Pairs of terms the corpus defines as one thing (a term and its abbreviation, :func:`same_concept`).

    Returns
    -------
    list of str
        One label per theme, in theme order.

    Examples
    --------
    >>> vocabulary = ["rl", "policy", "reinforcement learning", "data", "weight", "graph", "node"]
    >>> class_terms = np.array([[9.0, 8, 7, 5, 4, 1, 0], [1, 2, 1, 5, 6, 9, 8], [0, 0, 0, 5, 6, 0, 1]])
    >>> theme_labels([["rl", "policy", "reinforcement learning"], ["graph", "node", "data"],
    ...               ["data", "weight", "node"]], class_terms, vocabulary)
    ['reinforcement learning · policy', 'graph · node', 'weight · node (general)']
    """
    index = {str(term): i for i, term in enumerate(vocabulary)}
    stock = _stock_terms()
    labels: list[str] = []
    for theme, terms in enumerate(shown):
        terms = [str(t) for t in terms]
        # A pair of words that is no noun phrase ("discourse relies") names nothing.
        terms = [t for t in terms if " " not in t or is_noun_phrase(t)] or terms
        concepts = theme_concepts([t for t in terms if t not in stock] or terms, same_thing)
        shares = [concept_share(c, theme, class_terms, index) for c in concepts]
        specific = [(c, s) for c, s in zip(concepts, shares) if s >= MIN_LABEL_SHARE]
        options = [_specific_label(pair) for pair in _pairs(specific)] if len(specific) >= 2 else []
        options += [" · ".join(c.name for c in pair) + GENERAL_SUFFIX for pair in _pairs(concepts)]
        if len(concepts) == 1:
            options.append(f"{concepts[0].name}{GENERAL_SUFFIX}")
        label = next((option for option in options if option not in labels), None)
        labels.append(label if label is not None else f"{options[0] if options else 'theme'} ({theme + 1})")
    return labels


def _pairs(items: list) -> list[tuple]:
    """Pairs of ``items`` in order of their second then first position: (0, 1), (0, 2), (1, 2), (0, 3), ..."""
    return [(items[i], items[j]) for j in range(1, len(items)) for i in range(j)]


def _specific_label(pair: tuple[tuple[Concept, float], tuple[Concept, float]]) -> str:
    """``"a · b"``, the more specific concept first: more words, then the higher share, then by weight."""
    ordered = sorted(enumerate(pair), key=lambda item: (-len(item[1][0].name.split()), -item[1][1], item[0]))
    return " · ".join(concept.name for _, (concept, _share) in ordered)


def shown_terms(ranked: list[str], n: int, n_abstracts: Mapping[str, int]) -> list[str]:
    """The first ``n`` of a theme's terms by weight as the book shows them: a phrase in place of its own words.

    A single word whose abstracts hold, in at least :data:`NESTED_SHARE` of them, a noun
    phrase (by the term map's rule, :func:`helpers.analysis.text.noun_phrases.is_noun_phrase`) among the
    theme's first :data:`N_DIVERSITY_TERMS` terms is shown as that phrase, at the word's
    place (the rule by which the term map merges nested terms), unless a word of that phrase
    is shown already. A phrase after one of its shown words (a word used more widely than in
    the phrase) and a word after its shown phrase are left out. So a theme reads "neural
    network, graph", never "network, neural, neural network", and no phrase is shown beside
    a word of it. ``n_abstracts`` gives each term's abstracts. The model, its selection and
    its coherence in the comparisons are those of all its terms.

    Parameters
    ----------
    ranked : list of str
        A theme's terms by weight.
    n : int
        How many to show.
    n_abstracts : mapping of str to int
        Each term's abstracts.

    Returns
    -------
    list of str
        At most ``n`` terms, by weight.

    Examples
    --------
    >>> counts = {"neural": 9, "network": 12, "neural network": 8, "graph": 20, "deep": 5}
    >>> shown_terms(["network", "neural", "neural network", "graph", "deep"], 3, counts)
    ['neural network', 'graph', 'deep']
    >>> counts = {"convergence": 10, "rate": 30, "bound": 5, "convergence rate": 4}
    >>> shown_terms(["convergence", "bound", "convergence rate", "rate"], 3, counts)  # 4 < 0.5 * 10
    ['convergence', 'bound', 'rate']
    >>> shown_terms(["graph", "graph neural", "neural"], 3, {"graph": 9, "graph neural": 9, "neural": 9})
    ['graph', 'neural']
    """
    phrases = [term for term in ranked[:N_DIVERSITY_TERMS] if " " in term and is_noun_phrase(term)]
    shown: list[str] = []

    def nested_in_shown(term: str) -> bool:
        return any(set(term.split()) & set(other.split()) and (" " in term) != (" " in other) for other in shown)

    for term in ranked:
        host = None if " " in term else next(
            (phrase for phrase in phrases if term in phrase.split()
             and n_abstracts[phrase] >= NESTED_SHARE * n_abstracts[term]), None)
        # A phrase after a word of it (one used more widely), or a word after its phrase, adds nothing.
        chosen = next((t for t in (host, term) if t is not None and t not in shown and not nested_in_shown(t)), None)
        if chosen is None:
            continue
        shown.append(chosen)
        if len(shown) == n:
            break
    return shown


def _shown_indices(components: np.ndarray, vocabulary: np.ndarray, document_frequency: np.ndarray
                   ) -> list[list[int]]:
    """Each theme's shown terms (:func:`shown_terms`) as vocabulary indices."""
    shown = []
    # Twice the shown terms are ranked, so that words shown as their phrase leave no gap.
    for component in components:
        ranked = [i for i in _top(component, 2 * N_DIVERSITY_TERMS) if component[i] > 0]
        index_of = {str(vocabulary[i]): i for i in ranked}
        n_abstracts = {term: int(document_frequency[i]) for term, i in index_of.items()}
        shown.append([index_of[t] for t in shown_terms(list(index_of), N_DIVERSITY_TERMS, n_abstracts)])
    return shown


def _labels(class_terms: np.ndarray, vocabulary: np.ndarray, shown: list[list[int]]) -> list[str]:
    """Each theme's label from its shown top terms (the themes table's ``top_terms``), by
    the rule of this module's docstring.

    Examples
    --------
    >>> vocabulary = np.array(["bandit", "language model", "llm", "reasoning", "regret"])
    >>> class_terms = np.array([[0.0, 6, 9, 4, 0], [5, 0, 1, 0, 7]])
    >>> _labels(class_terms, vocabulary, [[2, 1, 3], [4, 0, 2]])
    ['language model · reasoning', 'regret · bandit']
    """
    return theme_labels([[str(vocabulary[i]) for i in indices[:N_COHERENCE_TERMS]] for indices in shown],
                        class_terms, [str(term) for term in vocabulary])


def label_parts(label: str) -> list[str]:
    """The terms a label names (without :data:`GENERAL_SUFFIX` or a theme's number).

    Parameters
    ----------
    label : str
        A theme's label.

    Returns
    -------
    list of str
        Its terms, in order.

    Examples
    --------
    >>> label_parts("machine learning · prediction (general)"), label_parts("regret · bandit (3)")
    (['machine learning', 'prediction'], ['regret', 'bandit'])
    """
    return re.sub(r" \((?:general|\d+)\)$", "", label.removesuffix(GENERAL_SUFFIX)).split(" · ")

