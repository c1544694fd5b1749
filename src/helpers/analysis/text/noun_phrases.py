"""Terms as noun phrases: a part-of-speech lexicon per word type, context rules, singular forms.

A term is a run of adjectives and nouns that ends in a noun (``graph neural
network``, ``offline reinforcement learning``), optionally joined to a second
such run by ``of`` (``mixture of experts``), in singular form. Verbs, adverbs
and bare adjectives are never terms.

Each distinct word is tagged once, from the lexicon of Brill's tagger (trained
on the Brown corpus and the Penn Treebank) that ships inside the ``textblob``
package, with suffix rules for words it does not know (``llms``, ``gnns``): :mod:`helpers.analysis.text.lexicon`.
A few context rules, applied with array operations to the whole tokenised
corpus, fix the ambiguous words: a noun/verb after ``to``, ``we`` or a modal is
a verb, a participle is an adjective only before a noun. Nouns are made
singular with ``lemminflect``'s dictionary (``matrices -> matrix``,
``analyses -> analysis``, ``bayes`` and ``dynamics`` unchanged). Stop words
are checked on the singular form, so ``frameworks`` is as stopped as
``framework``. The themes spell their words by the same rule
(:attr:`WordClasses.folded`, :attr:`WordClasses.is_stop`): one spelling in every
chapter. Both packages carry their data inside the wheel: nothing is
downloaded at run time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np

from helpers.analysis.text.cleaning import written_as_is
from helpers.analysis.text.lexicon import _can_be_noun, _can_be_verb, lexicon_tag, singular, unknown_plural
from helpers.analysis.text.stop_words import stop_words
from helpers.analysis.text.tokens import segments

__all__ = [
    "BREAK", "MODIFIER", "NOUN", "LINK", "PARTICIPLE",
    "MAX_TERM_WORDS",
    "WordClasses",
    "word_classes",
    "context_classes",
    "noun_phrase_spans",
    "is_noun_phrase",
    "text_terms",
    "fold_word",
    "fold_phrase",
    "is_non_word",
    "LATIN_PHRASES",
]

# Word classes. A term is MODIFIER/NOUN words ending in a NOUN, with at most one LINK inside.
BREAK, MODIFIER, NOUN, LINK, PARTICIPLE = 0, 1, 2, 3, 4
MAX_TERM_WORDS = 4
LINK_WORDS = frozenset({"of"})
# Citation debris and abbreviations that are never part of a term.
NEVER_TERM_WORDS = frozenset({"et", "al", "etc", "eg", "ie", "cf", "vs", "viz", "doi", "arxiv", "ibid",
                              "ii", "iii", "iv", "vi", "vii", "viii", "ix"})
# Boilerplate on its own, but the first word of the field's own terms ("large language model").
TERM_WORDS_NOT_STOPPED = frozenset({"large"})
# After these words a word that can be a verb is one ("to model", "we design", "can control").
VERB_CUES = frozenset({"to", "we", "they", "it", "which", "who", "can", "cannot", "may", "might", "will",
                       "would", "should", "could", "must", "also", "often", "does", "do", "not", "then"})
# A plural noun/verb right before one of these is the verb ("the model exhibits a bias").
DETERMINERS = frozenset({"a", "an", "the", "this", "these", "those", "its", "their", "our", "his", "her"})
# After these a gerund is a verb ("by combining", "for generating"), not a modifier ("spiking neuron").
GERUND_CUES = frozenset({"by", "for", "in", "on", "of", "to", "from", "into", "via", "through", "without", "while",
                         "when", "after", "before", "towards", "toward", "we", "also", "and", "or", "is", "are"})
_NOUN_TAGS = ("NN", "NNS", "NNP", "NNPS", "FW")
_ADJECTIVE_TAGS = ("JJ", "JJR", "JJS")
_PARTICIPLE_TAGS = ("VBN", "VBD")


# A DNA or RNA sequence ("GGGGG", "ATCGTTA") or a letter run ("xxxx"): never a word of a term or a theme.
_NON_WORD = re.compile(r"[acgtu]{5,}|.*([a-z])\1{3}.*")
# Latin phrases joined by the analysis text ("in-vitro assay"): modifiers, never a term on their own.
LATIN_PHRASES = frozenset({f"{first}-{second}" for first in ("in", "ex", "de")
                           for second in ("vitro", "vivo", "situ", "silico", "utero", "ovo", "novo")})


def is_non_word(word: str) -> bool:
    """A sequence of nucleotides (five or more of ``a c g t u``) or a letter written four times in a row.

    Parameters
    ----------
    word : str
        A lower-case word.

    Returns
    -------
    bool
        Whether it is no word of a term or a theme.

    Examples
    --------
    >>> [is_non_word(w) for w in ["ggggg", "atcgtta", "xxxx", "tagua", "gut", "assessment", "cattle"]]
    [True, True, True, True, False, False, False]
    """
    return _NON_WORD.fullmatch(word) is not None


def _proper_noun(word: str) -> bool:
    """A name of the tagger's lexicon that the dictionary does not know as a plural noun ("texas", "athens")."""
    return lexicon_tag(word).startswith("NNP") and not _can_be_noun(word)


def _word_class(word: str, folded: str, stops: frozenset[str]) -> tuple[int, bool]:
    """``(class, can be a verb)`` of one word type, before context rules."""
    if word in LINK_WORDS:
        return LINK, False
    if word in NEVER_TERM_WORDS or is_non_word(word) or (
            (word in stops or folded in stops) and folded not in TERM_WORDS_NOT_STOPPED):
        return BREAK, False
    if word in LATIN_PHRASES:
        return MODIFIER, False
    tag = lexicon_tag(word)
    verb = _can_be_verb(word, tag)
    if tag.startswith(_NOUN_TAGS):
        return NOUN, verb
    if tag.startswith(_ADJECTIVE_TAGS):
        return MODIFIER, verb
    if tag == "VBG":
        return (NOUN if _can_be_noun(word) else PARTICIPLE), verb
    if tag in _PARTICIPLE_TAGS:
        return PARTICIPLE, verb
    return BREAK, verb


@dataclass(frozen=True)
class WordClasses:
    """The tagging of each distinct word of a vocabulary, computed once per word type.

    Attributes
    ----------
    folded : ndarray of str
        The singular form of each word that can be a noun (the word itself otherwise).
    word_class : ndarray of int8
        :data:`BREAK`, :data:`MODIFIER`, :data:`NOUN`, :data:`LINK` or :data:`PARTICIPLE`.
    can_be_verb : ndarray of bool
        Turned into a break after a :data:`VERB_CUES` word.
    is_verb_cue : ndarray of bool
    is_plural : ndarray of bool
        A noun whose singular differs from it (``analyses``, not ``data`` or ``dynamics``).
    is_stop : ndarray of bool
        A stop word, or a word whose singular is one (``frameworks``); the boundary too.
        The themes leave these out.
    is_citation : ndarray of bool
        ``et`` (of ``et al``): the name before it is no term.
    is_determiner : ndarray of bool
    is_gerund, is_gerund_cue : ndarray of bool
        An ``-ing`` word that cannot be a noun, and the words after which it is a verb.

    Examples
    --------
    >>> classes = word_classes(["|", "mixture", "of", "experts"])
    >>> classes.folded.tolist(), classes.is_plural.tolist()
    (['|', 'mixture', 'of', 'expert'], [False, False, False, True])
    """

    folded: np.ndarray
    word_class: np.ndarray
    can_be_verb: np.ndarray
    is_verb_cue: np.ndarray
    is_plural: np.ndarray
    is_stop: np.ndarray
    is_citation: np.ndarray
    is_determiner: np.ndarray
    is_gerund: np.ndarray
    is_gerund_cue: np.ndarray


def word_classes(vocabulary: Sequence[str] | np.ndarray) -> WordClasses:
    """Tag and fold each word of ``vocabulary`` once (the boundary ``|`` is a break).

    Parameters
    ----------
    vocabulary : sequence of str
        Distinct words (a :class:`~helpers.analysis.text.tokens.TokenizedCorpus`'s), ``|`` first.

    Returns
    -------
    WordClasses
        One entry per word, in the order given.

    Examples
    --------
    >>> classes = word_classes(["|", "graph", "neural", "networks", "learn", "of", "frameworks"])
    >>> classes.word_class.tolist(), classes.folded.tolist()[3]
    ([0, 2, 1, 2, 0, 3, 0], 'network')
    """
    stops = stop_words()
    folded, classes, verbs, stopped, plural = [], [], [], [], []
    words = [str(word) for word in vocabulary]
    lower = [word.lower() for word in words]
    for word, as_written in zip(lower, words):
        # A word the analysis text kept in its capitals (:func:`lower_case`) is an acronym ("PDMS") or, when only
        # its first letter is a capital and no dictionary knows it, a name ("Oeiras"): a noun, never made
        # singular ("Towns" is a plural). A proper noun of the lexicon ("texas") is not made singular either.
        keep = as_written != word and (not as_written[1:].islower() or unknown_plural(word))
        singular_form = word if keep or _proper_noun(word) else singular(word)
        word_class, verb = _word_class(word, singular_form, stops) if word != "|" else (BREAK, False)
        if keep and word_class != BREAK:
            word_class, verb = NOUN, False
        folded.append(singular_form if word_class == NOUN else word)
        classes.append(word_class)
        verbs.append(verb)
        plural.append(word_class == NOUN and singular_form != word)
        stopped.append(word == "|" or word in stops or singular_form in stops or is_non_word(word))
    return WordClasses(
        folded=np.array(folded, dtype=object),
        word_class=np.array(classes, dtype=np.int8),
        can_be_verb=np.array(verbs, dtype=bool),
        is_verb_cue=np.array([w in VERB_CUES for w in lower], dtype=bool),
        is_plural=np.array(plural, dtype=bool),
        is_stop=np.array(stopped, dtype=bool),
        is_citation=np.array([w == "et" for w in lower], dtype=bool),
        is_determiner=np.array([w in DETERMINERS for w in lower], dtype=bool),
        is_gerund=np.array([c == PARTICIPLE and lexicon_tag(w) == "VBG" for w, c in zip(lower, classes)],
                           dtype=bool),
        is_gerund_cue=np.array([w in GERUND_CUES for w in lower], dtype=bool),
    )


def context_classes(ids: np.ndarray, classes: WordClasses) -> np.ndarray:
    """The class of each position of a token-id array after the context rules.

    ``ids`` holds vocabulary ids with ``0`` as a boundary (a flat
    :class:`~helpers.analysis.text.tokens.TokenizedCorpus` or one run padded with zeros). The rules, in order:
    a word that can be a verb right after a :data:`VERB_CUES` word is a break
    (``to model``, ``we design``), and so is one right after a plural noun
    (``analyses test``), and a plural one right before an adjective or a
    determiner (``trains large models``, ``exhibits a bias``);
    a name before ``et al`` is no term; an ``-ing`` word that cannot be a noun is
    a verb after :data:`GERUND_CUES` (``by combining``); a participle or such an
    ``-ing`` word is a modifier right before a
    modifier or noun and not after a noun (``pretrained language model``, but
    not ``model named``), and a break otherwise;
    ``of`` links only a noun to a following modifier or noun.

    Parameters
    ----------
    ids : ndarray of int
        Vocabulary ids, ``0`` a boundary.
    classes : WordClasses
        :func:`word_classes` of the vocabulary.

    Returns
    -------
    ndarray of int8
        The class of each position.

    Examples
    --------
    >>> vocabulary = ["|", "we", "model", "pretrained", "networks", "trained", "mixture", "of", "experts"]
    >>> classes = word_classes(vocabulary)
    >>> context_classes(np.array([1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0]), classes).tolist()
    [0, 0, 0, 1, 2, 0, 0, 2, 3, 2, 0]
    """
    ids = np.asarray(ids)
    word_class = classes.word_class[ids].copy()
    previous = np.concatenate([[0], ids[:-1]])
    following_id = np.concatenate([ids[1:], [0]])
    verb = classes.can_be_verb[ids]
    word_class[classes.is_verb_cue[previous] & verb] = BREAK
    # A base-form noun/verb right after a plural noun is the verb ("analyses test hypotheses").
    word_class[(word_class == NOUN) & verb & ~classes.is_plural[ids] & classes.is_plural[previous]
               & (classes.word_class[previous] == NOUN)] = BREAK
    word_class[(word_class == NOUN) & classes.is_citation[following_id]] = BREAK
    word_class[(word_class == NOUN) & verb & classes.is_plural[ids] & classes.is_determiner[following_id]] = BREAK
    word_class[classes.is_gerund[ids] & classes.is_gerund_cue[previous]] = BREAK
    following = np.concatenate([word_class[1:], [BREAK]])
    participle = word_class == PARTICIPLE
    before_noun = (following == NOUN) | (following == MODIFIER) | (following == PARTICIPLE)
    preceding = np.concatenate([[BREAK], word_class[:-1]])
    # After a noun a participle starts a reduced clause ("a model named X", "data collected from").
    word_class[participle] = np.where((before_noun & (preceding != NOUN))[participle], MODIFIER, BREAK)
    # Nouns come after their adjectives: a plural noun/verb right before an adjective is the verb
    # ("learning trains large models"), unlike a singular one ("graph neural network").
    following = np.concatenate([word_class[1:], [BREAK]])
    word_class[(word_class == NOUN) & verb & classes.is_plural[ids] & (following == MODIFIER)] = BREAK
    following = np.concatenate([word_class[1:], [BREAK]])
    preceding = np.concatenate([[BREAK], word_class[:-1]])
    link = word_class == LINK
    linking = (preceding == NOUN) & ((following == NOUN) | (following == MODIFIER))
    word_class[link & ~linking] = BREAK
    return word_class


def noun_phrase_spans(word_class: np.ndarray, max_words: int = MAX_TERM_WORDS) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, lengths)`` of every term occurrence in an array of context classes.

    A term ends at a noun that no noun of the same phrase follows (the head) and
    starts at a modifier or noun of the same phrase: every left-shortened form
    of the phrase counts (``graph neural network``, ``neural network``,
    ``network``), up to ``max_words`` words. Across one ``of`` it takes the
    whole phrase after ``of`` (``mixture of expert``, never ``mixture of``).
    Array operations over all positions at once; :func:`text_terms` states the
    same rule as a loop.

    Parameters
    ----------
    word_class : ndarray of int
        :func:`context_classes` of a flat token array.
    max_words : int
        The most words of a term, ``of`` not counted.

    Returns
    -------
    tuple of ndarray
        ``starts`` and ``lengths`` (in positions) of each occurrence.

    Examples
    --------
    >>> starts, lengths = noun_phrase_spans(np.array([1, 2, 2, 3, 2, 0]))
    >>> sorted(zip(starts.tolist(), lengths.tolist()))
    [(0, 3), (0, 5), (1, 2), (1, 4), (2, 1), (2, 3), (4, 1)]
    """
    word_class = np.asarray(word_class)
    content = (word_class == NOUN) | (word_class == MODIFIER)
    link = word_class == LINK
    ends = np.flatnonzero((word_class == NOUN) & (_next_head_class(word_class) != NOUN))
    content_before = np.concatenate([[0], np.cumsum(content)])
    links_before = np.concatenate([[0], np.cumsum(link)])
    starts, lengths = [], []
    for length in range(1, max_words + 2):
        first = ends - length + 1
        inside = first >= 0
        first_c = np.maximum(first, 0)
        n_content = content_before[ends + 1] - content_before[first_c]
        n_links = links_before[ends + 1] - links_before[first_c]
        valid = (inside & content[first_c] & (n_content + n_links == length) & (n_links <= 1)
                 & (n_content <= max_words))
        starts.append(first[valid])
        lengths.append(np.full(int(valid.sum()), length))
    return np.concatenate(starts).astype(np.int64), np.concatenate(lengths).astype(np.int64)


def is_noun_phrase(term: str) -> bool:
    """Whether all of ``term`` (words split on spaces) is one noun phrase by the term map's rule
    (:func:`context_classes` and :func:`noun_phrase_spans`, the phrase standing alone).

    Parameters
    ----------
    term : str
        Words separated by spaces.

    Returns
    -------
    bool
        Whether the whole term is one noun phrase.

    Examples
    --------
    >>> [is_noun_phrase(t) for t in ("gradient descent", "pre-trained feature", "reinforcement learning",
    ...                              "regret bound")]
    [True, True, True, True]
    >>> [is_noun_phrase(t) for t in ("discourse relies", "conventional polar", "avoid gradient")]
    [False, False, False]
    """
    words = term.split()
    if not words:
        return False
    classes = word_classes(["|", *words])  # the phrase between two boundaries, with the context rules
    ids = np.array([0, *range(1, len(words) + 1), 0])
    word_class = context_classes(ids, classes)
    # Standing alone, without the sentence that tells noun from verb: a word before the head that can be a
    # noun is one ("regret bound"), and so is a participle head that can be ("regret bound", "feature set").
    for position, word in enumerate(words[:-1], start=1):
        if classes.word_class[position] == BREAK and not classes.is_stop[position] and _can_be_noun(word):
            word_class[position] = NOUN
    if classes.word_class[-1] in (PARTICIPLE, NOUN) and _can_be_noun(words[-1]):
        word_class[-2] = NOUN
    starts, lengths = noun_phrase_spans(word_class)
    starts = starts - 1
    return bool(((starts == 0) & (lengths == len(words))).any())


def _next_head_class(word_class: np.ndarray) -> np.ndarray:
    """For each position, the class of the first later position that is not a modifier (or a break)."""
    not_modifier = np.flatnonzero(word_class != MODIFIER)
    later = np.searchsorted(not_modifier, np.arange(len(word_class)), side="right")
    return np.where(later < len(not_modifier), word_class[not_modifier[np.minimum(later, len(not_modifier) - 1)]],
                    BREAK)


def text_terms(text: str, classes: WordClasses | None = None, *, max_words: int = MAX_TERM_WORDS,
               ) -> list[list[str]]:
    """The term occurrences of one analysis text, as lists of folded words (the reference rule).

    Parameters
    ----------
    text : str
        An analysis text.
    classes : WordClasses, optional
        :func:`word_classes` of a vocabulary holding every word of ``text`` (made from it when ``None``).
    max_words : int
        The most words of a term, ``of`` not counted.

    Returns
    -------
    list of list of str
        Each occurrence's folded words, in text order of their heads.

    Examples
    --------
    >>> sorted(" ".join(t) for t in text_terms("we train graph neural networks, a mixture of experts"))
    ['expert', 'graph neural network', 'mixture', 'mixture of expert', 'network', 'neural network']
    """
    runs = list(segments(text))
    vocabulary = ["|"] + sorted({word for run in runs for word in run})
    classes = classes or word_classes(vocabulary)
    index = {word: i for i, word in enumerate(vocabulary)}
    found: list[list[str]] = []
    for run in runs:
        ids = np.array([index[w] for w in run] + [0])
        word_class = context_classes(ids, classes).tolist()
        for end, this in enumerate(word_class):
            if this != NOUN:
                continue
            after = end + 1
            while word_class[after] == MODIFIER:
                after += 1
            if word_class[after] == NOUN:
                continue
            words, links = 0, 0
            for start in range(end, -1, -1):
                if word_class[start] == LINK:
                    links += 1
                elif word_class[start] in (NOUN, MODIFIER):
                    words += 1
                else:
                    break
                if links > 1 or words > max_words:
                    break
                if word_class[start] != LINK:
                    found.append([str(classes.folded[i]) for i in ids[start:end + 1]])
    return found


@lru_cache(maxsize=100_000)
def fold_word(word: str) -> str:
    """A word as terms spell it: singular when it is a noun, unchanged otherwise.

    Parameters
    ----------
    word : str
        A lower-case word.

    Returns
    -------
    str
        Its singular when it is a noun, else the word.

    Examples
    --------
    >>> [fold_word(w) for w in ["networks", "neural", "matrices", "of"]]
    ['network', 'neural', 'matrix', 'of']
    """
    return str(word_classes(["|", word]).folded[1])


def fold_phrase(words: Iterable[str]) -> str:
    """:func:`fold_word` of each word, joined by spaces (for thesaurus labels and acronym long forms).

    Parameters
    ----------
    words : iterable of str
        Words as written.

    Returns
    -------
    str
        The folded words joined by spaces; an acronym or formula kept in its capitals is lower case, not made singular.

    Examples
    --------
    >>> fold_phrase(["Graph", "Neural", "Networks"])
    'graph neural network'
    """
    return " ".join(str(word).lower() if written_as_is(str(word)) else fold_word(str(word).lower())
                    for word in words)
