"""Concepts: which of a theme's top terms say one thing, so that a label never names one thing twice.

A theme's label (:mod:`.labels`) and its broad theme (:mod:`.hierarchy`) compare terms as concepts: terms sharing a
word, words sharing a stem (``privacy``, ``private``), an acronym and its expansion (``llm``, ``language model``),
or a term and the abbreviation the corpus defines for it (``polyaniline (PANI)``); the term map's stock terms do not
count (:func:`same_concept`). :func:`theme_concepts` groups a theme's terms so, and :func:`concept_share` says how
much of a concept's use falls in one theme's papers.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Collection, Sequence

import numpy as np

from helpers.analysis.cooccurrence.termhood import read_any_field_generic_terms, read_generic_terms

__all__ = ["MIN_STEM", "SUFFIXES", "same_concept", "is_acronym_of", "share_stem", "Concept", "theme_concepts",
           "concept_share"]

#: Letters two words of one stem share at their start.
MIN_STEM = 3
#: Endings of words of one stem, after their shared start (``priv-acy``, ``priv-ate``; ``sampl-e``, ``sampl-ing``).
SUFFIXES = frozenset({
    "", "s", "e", "y", "es", "ed", "ing", "er", "ers", "or", "ors", "ion", "ions", "ation", "ations", "ate",
    "ated", "ator", "acy", "al", "ally", "ial", "ially", "ly", "ity", "ive", "ively", "ative", "ization", "ize",
    "ized", "ic", "ical", "ically", "ies", "ence", "ent", "ance", "ant", "ment", "able", "ability", "ness", "ual"})

_ACRONYM = re.compile(r"[a-z][a-z0-9]{1,4}")


def _initials(term: str) -> str:
    """First letters of a term's words, hyphenated parts apart (``in-context learning`` -> ``icl``)."""
    return "".join(part[0] for part in re.split(r"[\s\-]+", term) if part)


def is_acronym_of(word: str, term: str) -> bool:
    """Whether ``word`` (2 to 5 letters, one word) abbreviates ``term``: the initials of ``term``'s words
    are the word, or at least its first or last two letters (``llm`` of ``language model``, ``hdi`` of
    ``human development``).

    Parameters
    ----------
    word : str
        A possible acronym (lower case).
    term : str
        A term of one or more words.

    Returns
    -------
    bool
        Whether ``word`` abbreviates ``term``.

    Examples
    --------
    >>> [is_acronym_of(w, t) for w, t in [("rl", "reinforcement learning"), ("llm", "language model"),
    ...                                   ("icl", "in-context learning"), ("hdi", "human development"),
    ...                                   ("gnn", "graph"), ("rl", "policy")]]
    [True, True, True, True, False, False]
    """
    if " " in word or not _ACRONYM.fullmatch(word) or word == term:
        return False
    initials = _initials(term)
    return len(initials) >= 2 and (word == initials or (
        len(initials) < len(word) and (word.endswith(initials) or word.startswith(initials))))


def share_stem(first: str, second: str) -> bool:
    """Whether two words share a stem: the same first :data:`MIN_STEM` letters or more, each ending in one of
    :data:`SUFFIXES` after them.

    Parameters
    ----------
    first, second : str
        Two words in lower case.

    Returns
    -------
    bool
        Whether they are forms of one stem.

    Examples
    --------
    >>> [share_stem(a, b) for a, b in [("privacy", "private"), ("estimation", "estimator"), ("sample", "sampling"),
    ...                                ("generation", "generalization"), ("convex", "convergence"),
    ...                                ("transfer", "transformer"), ("vision", "visual")]]
    [True, True, True, False, False, False, True]
    """
    prefix = len(os.path.commonprefix([first, second]))
    return any(first[k:] in SUFFIXES and second[k:] in SUFFIXES for k in range(prefix, MIN_STEM - 1, -1))


def same_concept(first: str, second: str, same_thing: Collection[frozenset[str]] = ()) -> bool:
    """Whether two terms say one thing: they share a word, two of their words share a stem
    (:func:`share_stem`), one is the other's acronym (:func:`is_acronym_of`), or the pair is one of
    ``same_thing`` (a term and the abbreviation the corpus defines for it). Stock words are left out
    (``diffusion model`` and ``generative model`` share only ``model``).

    Parameters
    ----------
    first, second : str
        Two terms as the themes spell them.
    same_thing : collection of frozenset
        Pairs of terms the corpus defines as one thing.

    Returns
    -------
    bool
        Whether a label should name only one of them.

    Examples
    --------
    >>> [same_concept(a, b) for a, b in [("language model", "llm"), ("differential privacy", "private"),
    ...                                  ("graph", "graph neural network"), ("diffusion model", "generative model"),
    ...                                  ("regret", "bandit")]]
    [True, True, True, False, False]
    >>> same_concept("pani", "polyaniline"), same_concept("pani", "polyaniline", {frozenset(("polyaniline", "pani"))})
    (False, True)
    """
    if same_thing and _defined_as_one(first, second, same_thing):
        return True
    stock = _stock_terms()
    words_first = [w for w in first.split() if w not in stock]
    words_second = [w for w in second.split() if w not in stock]
    return (bool(set(words_first) & set(words_second))
            or any(share_stem(a, b) for a in words_first for b in words_second)
            or is_acronym_of(first, second) or is_acronym_of(second, first))


def _defined_as_one(first: str, second: str, same_thing: Collection[frozenset[str]]) -> bool:
    """Whether one term is a term of a pair of ``same_thing`` and the other is, or holds as its words, the pair's
    other term (``pani`` and ``polyaniline film``).

    Examples
    --------
    >>> pairs = {frozenset(("pani", "polyaniline"))}
    >>> [_defined_as_one(a, b, pairs) for a, b in [("pani", "polyaniline film"), ("polyaniline", "pani"),
    ...                                             ("pani", "film")]]
    [True, True, False]
    """
    if frozenset((first, second)) in same_thing:
        return True
    partners = _partners(same_thing if isinstance(same_thing, frozenset) else frozenset(same_thing))
    return (any(f" {long} " in f" {second} " for long in partners.get(first, ()))
            or any(f" {long} " in f" {first} " for long in partners.get(second, ())))


@lru_cache(maxsize=16)
def _partners(same_thing: frozenset[frozenset[str]]) -> dict[str, tuple[str, ...]]:
    """Each term of a pair of ``same_thing`` with the other terms it is paired with (looked up once per collection:
    :func:`_defined_as_one` is asked about every pair of terms a label compares).

    Examples
    --------
    >>> _partners(frozenset({frozenset(("pani", "polyaniline")), frozenset(("hg",))}))
    {'pani': ('polyaniline',), 'polyaniline': ('pani',)}
    """
    partners: dict[str, list[str]] = {}
    for pair in sorted(same_thing, key=sorted):
        if len(pair) != 2:
            continue
        one, other = sorted(pair)
        partners.setdefault(one, []).append(other)
        partners.setdefault(other, []).append(one)
    return {term: tuple(others) for term, others in sorted(partners.items())}


@dataclass(frozen=True)
class Concept:
    """One thing a theme's top terms say (:func:`theme_concepts`).

    Attributes
    ----------
    members : tuple of str
        Its terms, by weight.
    name : str
        The member it is shown by.

    Examples
    --------
    >>> Concept(("dp", "differential privacy", "private")).name
    'differential privacy'
    """

    members: tuple[str, ...]

    @property
    def name(self) -> str:
        """The member of most words (the most specific; an expansion, not its acronym), the first by weight
        among equals that is no acronym of another member (``privacy`` beside ``dp``, ``private``)."""
        named = [term for term in self.members if not any(is_acronym_of(term, other) or len(term) < len(other)
                                                          and " " not in term and _ACRONYM.fullmatch(term)
                                                          and not share_stem(term, other.split()[0])
                                                          for other in self.members)]
        return max(named or self.members, key=lambda term: (len(term.split()), -self.members.index(term)))


def theme_concepts(terms: Sequence[str], same_thing: Collection[frozenset[str]] = ()) -> list[Concept]:
    """A theme's terms (by weight) grouped into concepts (:func:`same_concept`), in the order of their first term.

    A term joins the first concept it is one thing with; a two-letter word whose letters are the first
    letters of two single-word terms of the list (``dp`` beside ``differential`` and ``privacy``) joins
    those terms' concepts, which become one.

    Parameters
    ----------
    terms : sequence of str
        A theme's terms, by weight.
    same_thing : collection of frozenset
        Pairs of terms the corpus defines as one thing.

    Returns
    -------
    list of Concept
        The concepts, each with its members by weight.

    Examples
    --------
    >>> [c.members for c in theme_concepts(["llm", "reasoning", "language model", "token"])]
    [('llm', 'language model'), ('reasoning',), ('token',)]
    >>> [c.name for c in theme_concepts(["privacy", "dp", "private", "differential", "client"])]
    ['privacy', 'client']
    """
    spelled = _spelled_pairs(terms)
    groups: list[list[str]] = []
    for term in terms:
        joined = [group for group in groups
                  if any(same_concept(term, member, same_thing) or frozenset((term, member)) in spelled
                         for member in group)]
        if not joined:
            groups.append([term])
            continue
        for other in joined[1:]:
            joined[0].extend(other)
            groups.remove(other)
        joined[0].append(term)
    order = {term: i for i, term in enumerate(terms)}
    return [Concept(tuple(sorted(group, key=order.__getitem__))) for group in groups]


def _spelled_pairs(terms: Sequence[str]) -> set[frozenset[str]]:
    """Links of a two-letter word to two single-word ``terms`` whose first letters spell it (``dp``:
    ``differential``, ``privacy``).

    Examples
    --------
    >>> sorted(sorted(pair) for pair in _spelled_pairs(["privacy", "dp", "differential", "client"]))
    [['differential', 'dp'], ['dp', 'privacy']]
    """
    singles = [t for t in terms if " " not in t]
    links: set[frozenset[str]] = set()
    for word in singles:
        if len(word) != 2 or not _ACRONYM.fullmatch(word):
            continue
        for first in singles:
            for second in singles:
                if len({word, first, second}) == 3 and first[0] == word[0] and second[0] == word[1]:
                    links |= {frozenset((word, first)), frozenset((word, second))}
    return links


def concept_share(concept: Concept, theme: int, class_terms: np.ndarray, index: dict[str, int]) -> float:
    """Share of the concept's occurrences (all members) that are in the papers of ``theme`` (0-based row of
    ``class_terms``, themes x terms summed over each theme's papers); 0 for a concept never counted.

    Parameters
    ----------
    concept : Concept
        Some of a theme's terms.
    theme : int
        The theme, as a row of ``class_terms``.
    class_terms : ndarray
        Themes x terms: each term's occurrences summed over each theme's papers.
    index : dict of str to int
        Each term's column in ``class_terms``.

    Returns
    -------
    float
        Between 0 and 1.

    Examples
    --------
    >>> class_terms = np.array([[6.0, 3.0], [2.0, 1.0]])
    >>> concept_share(Concept(("rl", "reinforcement learning")), 0, class_terms,
    ...               {"rl": 0, "reinforcement learning": 1})
    0.75
    """
    columns = [index[term] for term in concept.members]
    total = float(class_terms[:, columns].sum())
    return float(class_terms[theme, columns].sum()) / total if total > 0 else 0.0


def _stock_terms() -> frozenset[str]:
    return read_generic_terms() | read_any_field_generic_terms()

