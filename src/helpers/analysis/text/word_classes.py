"""Word classes: each distinct word tagged once (noun, modifier, link, participle or break) and spelled as terms
spell it.

Each word is tagged from the lexicon of Brill's tagger (trained on the Brown corpus and the Penn Treebank) that
ships inside the ``textblob`` package, with suffix rules for words it does not know (``llms``, ``gnns``):
:mod:`helpers.analysis.text.lexicon`. Nouns are made singular with ``lemminflect``'s dictionary
(``matrices -> matrix``, ``analyses -> analysis``, ``bayes`` and ``dynamics`` unchanged). Stop words are checked on
the singular form, so ``frameworks`` is as stopped as ``framework``. The themes spell their words by the same rule
(:attr:`WordClasses.folded`, :attr:`WordClasses.is_stop`): one spelling in every chapter. The context rules and
the noun phrases built on these classes are :mod:`helpers.analysis.text.noun_phrases`'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np

from helpers.analysis.text.cleaning import written_as_is
from helpers.analysis.text.lexicon import _can_be_noun, _can_be_verb, lexicon_tag, singular, unknown_plural
from helpers.analysis.text.stop_words import stop_words

__all__ = ["BREAK", "MODIFIER", "NOUN", "LINK", "PARTICIPLE", "WordClasses", "word_classes", "fold_word",
           "fold_phrase", "folded_or_stopped", "is_non_word", "LATIN_PHRASES"]

# Word classes. A term is MODIFIER/NOUN words ending in a NOUN, with at most one LINK inside.
BREAK, MODIFIER, NOUN, LINK, PARTICIPLE = 0, 1, 2, 3, 4
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
        A lower-case token of an analysis text.

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
    entries = [_word_entry(str(word)) for word in vocabulary]
    columns = _WordEntry(*zip(*entries)) if entries else _WordEntry(*[()] * len(_WordEntry._fields))
    return WordClasses(
        folded=np.array(columns.folded, dtype=object),
        word_class=np.array(columns.word_class, dtype=np.int8),
        can_be_verb=np.array(columns.can_be_verb, dtype=bool),
        is_verb_cue=np.array(columns.is_verb_cue, dtype=bool),
        is_plural=np.array(columns.is_plural, dtype=bool),
        is_stop=np.array(columns.is_stop, dtype=bool),
        is_citation=np.array(columns.is_citation, dtype=bool),
        is_determiner=np.array(columns.is_determiner, dtype=bool),
        is_gerund=np.array(columns.is_gerund, dtype=bool),
        is_gerund_cue=np.array(columns.is_gerund_cue, dtype=bool),
    )


#: Words whose entries are kept (each a few hundred bytes): the theme and term stages and the themes' names tag the
#: same words, and a word is tagged once per process.
WORD_ENTRIES_KEPT = 1 << 18


def folded_or_stopped(word: str) -> str | None:
    """A word as terms spell it (:attr:`WordClasses.folded`), or ``None`` for a stop word (:attr:`WordClasses.is_stop`).

    Parameters
    ----------
    word : str
        A word as written.

    Returns
    -------
    str or None

    Examples
    --------
    >>> folded_or_stopped("matrices"), folded_or_stopped("frameworks"), folded_or_stopped("PDMS")
    ('matrix', None, 'pdms')
    """
    entry = _word_entry(word)
    return None if entry.is_stop else entry.folded


class _WordEntry(NamedTuple):
    """One word's values of the :class:`WordClasses` fields (for a vocabulary: each field's column)."""

    folded: Any
    word_class: Any
    can_be_verb: Any
    is_verb_cue: Any
    is_plural: Any
    is_stop: Any
    is_citation: Any
    is_determiner: Any
    is_gerund: Any
    is_gerund_cue: Any


@lru_cache(maxsize=WORD_ENTRIES_KEPT)
def _word_entry(as_written: str) -> _WordEntry:
    """One word's :class:`WordClasses` entry (the words' context does not enter)."""
    stops = stop_words()
    word = as_written.lower()
    # A word the analysis text kept in its capitals (:func:`lower_case`) is an acronym ("PDMS") or, when only
    # its first letter is a capital and no dictionary knows it, a name ("Oeiras"): a noun, never made
    # singular ("Towns" is a plural). A proper noun of the lexicon ("texas") is not made singular either.
    keep = as_written != word and (not as_written[1:].islower() or unknown_plural(word))
    singular_form = word if keep or _proper_noun(word) else singular(word)
    word_class, verb = _word_class(word, singular_form, stops) if word != "|" else (BREAK, False)
    if keep and word_class != BREAK:
        word_class, verb = NOUN, False
    return _WordEntry(
        folded=singular_form if word_class == NOUN else word,
        word_class=word_class,
        can_be_verb=verb,
        is_verb_cue=word in VERB_CUES,
        is_plural=word_class == NOUN and singular_form != word,
        is_stop=word == "|" or word in stops or singular_form in stops or is_non_word(word),
        is_citation=word == "et",
        is_determiner=word in DETERMINERS,
        is_gerund=word_class == PARTICIPLE and lexicon_tag(word) == "VBG",
        is_gerund_cue=word in GERUND_CUES,
    )


@lru_cache(maxsize=100_000)
def fold_word(word: str) -> str:
    """A word as terms spell it: singular when it is a noun, unchanged otherwise.

    Parameters
    ----------
    word : str
        A lower-case word of a term, noun or not.

    Returns
    -------
    str
        Its singular when it is a noun, else the word.

    Examples
    --------
    >>> [fold_word(w) for w in ["networks", "neural", "matrices", "of"]]
    ['network', 'neural', 'matrix', 'of']
    """
    return _word_entry(word).folded


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
