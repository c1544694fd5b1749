"""Theme labels: two of a theme's shown top terms, one concept each, marked "(general)" when none names it.

The rule (:data:`LABEL_RULE`), for each theme in number order:

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

import html
import os
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from collections import Counter
from typing import Collection, Iterable, Mapping, Sequence

import numpy as np

from helpers.analysis.cooccurrence.nested import NESTED_SHARE
from helpers.analysis.cooccurrence.termhood import read_any_field_generic_terms, read_generic_terms
from helpers.analysis.text.noun_phrases import is_noun_phrase
from helpers.analysis.themes.scores import N_COHERENCE_TERMS, N_DIVERSITY_TERMS, _top

__all__ = ["LABEL_RULE", "MIN_LABEL_SHARE", "GENERAL_SUFFIX", "label_parts", "written_forms", "written_forms_of_tokens", "written_tokens", "written_label", "same_concept", "is_acronym_of", "share_stem",
           "Concept", "theme_concepts", "concept_share", "theme_labels", "shown_terms"]

#: Share of a concept's occurrences that must fall in one theme's papers for it to name that theme.
MIN_LABEL_SHARE = 0.55
#: Letters two words of one stem share at their start.
MIN_STEM = 3
#: Endings of words of one stem, after their shared start (``priv-acy``, ``priv-ate``; ``sampl-e``, ``sampl-ing``).
SUFFIXES = frozenset({
    "", "s", "e", "y", "es", "ed", "ing", "er", "ers", "or", "ors", "ion", "ions", "ation", "ations", "ate",
    "ated", "ator", "acy", "al", "ally", "ial", "ially", "ly", "ity", "ive", "ively", "ative", "ization", "ize",
    "ized", "ic", "ical", "ically", "ies", "ence", "ent", "ance", "ant", "ment", "able", "ability", "ness", "ual"})
#: The end of the label of a theme whose terms are common across the corpus (none is used mostly in its papers).
GENERAL_SUFFIX = " (general)"
LABEL_RULE = (
    "two of the theme's ten shown top terms, stock terms and word pairs that are no noun phrase left out; an acronym, "
    "its expansion (or the abbreviation the abstracts define for a term) and words "
    "of one stem count as one concept; a concept names the theme when at least "
    f"{MIN_LABEL_SHARE:.0%} of its occurrences are in the theme's papers; the first two such concepts "
    "by weight, the more specific first (more words, then the higher share), else the theme's first two "
    "concepts marked '(general)'; each shown as the theme's abstracts most often write it"
)

_ACRONYM = re.compile(r"[a-z][a-z0-9]{1,4}")


def _initials(term: str) -> str:
    """First letters of a term's words, hyphenated parts apart (``in-context learning`` -> ``icl``)."""
    return "".join(part[0] for part in re.split(r"[\s\-]+", term) if part)


def is_acronym_of(word: str, term: str) -> bool:
    """Whether ``word`` (2 to 5 letters, one word) abbreviates ``term``: the initials of ``term``'s words
    are the word, or at least its first or last two letters (``llm`` of ``language model``, ``hdi`` of
    ``human development``).

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
    """One thing a theme's top terms say: its ``members`` (terms, by weight) and the ``name`` it is shown by."""

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


def theme_labels(shown: Sequence[Sequence[str]], class_terms: np.ndarray, vocabulary: Sequence[str],
                 same_thing: Collection[frozenset[str]] = ()) -> list[str]:
    """One label per theme by :data:`LABEL_RULE`, unique across themes.

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
    :data:`LABEL_RULE`.

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

    Examples
    --------
    >>> label_parts("machine learning · prediction (general)"), label_parts("regret · bandit (3)")
    (['machine learning', 'prediction'], ['regret', 'bandit'])
    """
    return re.sub(r" \((?:general|\d+)\)$", "", label.removesuffix(GENERAL_SUFFIX)).split(" · ")


_WRITTEN_TOKEN = re.compile(r"[^\W_](?:[\w]|-(?=[^\W_]))*")
_WRITTEN_BREAK = re.compile(r"[.,;:!?()\[\]{}\"“”‘’'/\\|<>=+*&%#@~^$]|\s[-–—]+\s|[–—]")
_WRITTEN_POSSESSIVE = re.compile(r"['’]s\b")


#: One text as :func:`written_forms` reads it: its chunks (no punctuation inside), each a list of its tokens as
#: ``(spellings, token)``, the theme spellings of the token as written and in lower case (``None``: a token no
#: term is spelled from, which parts its neighbours).
WrittenTokens = list[list[tuple[tuple[str, ...], str] | None]]


def written_tokens(text: str) -> WrittenTokens:
    """``text`` cut into the tokens :func:`written_forms` counts, with their theme spellings (one pass per text,
    however many labels read it).

    Examples
    --------
    >>> written_tokens("PDMS walls, 3D.")
    [[(('pdms', 'pdm'), 'PDMS'), (('wall',), 'walls')], [None], []]
    """
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    return [[_spellings(token) for token in _WRITTEN_TOKEN.findall(chunk)]
            for chunk in _WRITTEN_BREAK.split(_WRITTEN_POSSESSIVE.sub("", html.unescape(text)))]


@lru_cache(maxsize=200_000)
def _spellings(token: str) -> "tuple[tuple[str, ...], str] | None":
    """A token with its theme spellings as written and in lower case (:func:`written_tokens`)."""
    from helpers.analysis.themes.vocabulary import _theme_word

    # Spelled as written and in lower case: the vocabulary keeps an acronym ending in s whole ("PDMS", never "pdm")
    # and makes the same word in lower case singular.
    spellings = tuple(dict.fromkeys(
        word for word in (_theme_word(token), _theme_word(token.lower())) if word is not None)) \
        if len(token) > 1 and not token[0].isdigit() else ()
    return (spellings, token) if spellings else None


def written_forms(terms: Collection[str], texts: Iterable[str]) -> dict[str, str]:
    """Each of ``terms`` (as the themes spell them: lower case, a noun singular) as ``texts`` most often write it;
    a term the texts never write is left out.

    A word or two adjacent words (no punctuation between) are one of the terms when their theme spelling is;
    the most frequent spelling wins (ties to the first seen), and a spelling capitalised only at its first
    letter gives way to the same in lower case when the texts write that too (a sentence's first word).
    :func:`written_forms_of_tokens` does the same for texts already cut (:func:`written_tokens`).

    Examples
    --------
    >>> texts = ["PDMS nanochannels were made.", "Nanochannels of PDMS and the Higgs boson.", "Our nanochannels."]
    >>> written_forms(["pdm", "nanochannel", "higg boson", "graph"], texts)
    {'pdm': 'PDMS', 'nanochannel': 'nanochannels', 'higg boson': 'Higgs boson'}
    """
    return written_forms_of_tokens(terms, (written_tokens(text) for text in texts))


def written_forms_of_tokens(terms: Collection[str], texts: Iterable[WrittenTokens]) -> dict[str, str]:
    """:func:`written_forms` of texts cut by :func:`written_tokens`.

    Examples
    --------
    >>> written_forms_of_tokens(["wall"], [written_tokens("Walls and walls.")])
    {'wall': 'walls'}
    """
    wanted = set(terms)
    seen: dict[str, Counter[str]] = {}
    for text in texts:
        for chunk in text:
            previous: tuple[tuple[str, ...], str] | None = None
            for current in chunk:
                if current is None:
                    previous = None
                    continue
                spellings, token = current
                for spelled in spellings:
                    if spelled in wanted:
                        seen.setdefault(spelled, Counter())[token] += 1
                        break
                if previous is not None:
                    for pair in (f"{first} {second}" for first in previous[0] for second in spellings):
                        if pair in wanted:
                            seen.setdefault(pair, Counter())[f"{previous[1]} {token}"] += 1
                            break
                previous = current
    forms = {}
    for term, counts in seen.items():
        folded: Counter[str] = Counter()
        for form, n in counts.items():
            lower = form.lower()
            folded[lower if form[:1].isupper() and form[1:] == lower[1:] and lower in counts else form] += n
        forms[term] = folded.most_common(1)[0][0]
    return forms


def written_label(label: str, forms: Mapping[str, str]) -> str:
    """``label`` with each part as the abstracts write it (``forms``, :func:`written_forms`); a part without a
    written form stays as it is.

    Examples
    --------
    >>> written_label("nanochannel · pdm (general)", {"nanochannel": "nanochannels", "pdm": "PDMS"})
    'nanochannels · PDMS (general)'
    """
    match = re.search(r" \((?:general|\d+)\)$", label)
    tail = match.group() if match else ""
    return " · ".join(forms.get(part, part) for part in label_parts(label)) + tail
