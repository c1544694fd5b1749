"""Terms as noun phrases: context rules over the word classes of a whole tokenised corpus, and the phrases.

A term is a run of adjectives and nouns that ends in a noun (``graph neural
network``, ``offline reinforcement learning``), optionally joined to a second
such run by ``of`` (``mixture of experts``), in singular form. Verbs, adverbs
and bare adjectives are never terms.

Each distinct word is tagged once (:mod:`helpers.analysis.text.word_classes`).
A few context rules, applied with array operations to the whole tokenised
corpus, fix the ambiguous words: a noun/verb after ``to``, ``we`` or a modal is
a verb, a participle is an adjective only before a noun (:func:`context_classes`);
:func:`noun_phrase_spans` finds every term occurrence.
"""

from __future__ import annotations

import numpy as np

from helpers.analysis.text.lexicon import _can_be_noun
from helpers.analysis.text.tokens import segments
from helpers.analysis.text.word_classes import BREAK, LINK, MODIFIER, NOUN, PARTICIPLE, WordClasses, word_classes

__all__ = ["MAX_TERM_WORDS", "context_classes", "noun_phrase_spans", "is_noun_phrase", "text_terms"]

#: The most words of a term (``of`` not counted).
MAX_TERM_WORDS = 4


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
