"""The dictionaries behind the terms: a part-of-speech tag per word type, and singular nouns.

:func:`lexicon_tag` reads the lexicon of Brill's tagger that ships inside the ``textblob`` package (suffix
rules for words it does not know); :func:`singular` reads ``lemminflect``'s dictionary.
:func:`load_dictionaries` loads both (and ``wordfreq``'s English frequencies) in a background thread.
:mod:`helpers.analysis.text.noun_phrases` builds the word classes and noun phrases on them.
"""

from __future__ import annotations

import importlib.util
import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from helpers.analysis._parallel import BackgroundCall

__all__ = ["lexicon_tag", "load_dictionaries", "singular", "unknown_plural"]

_ADJECTIVE_SUFFIXES = ("able", "ible", "al", "ial", "ic", "ical", "ive", "ous", "ful", "less", "ary", "ar",
                       "ian", "-based", "-free", "-aware", "-like", "-specific", "-wise", "-scale")


def _textblob_lexicon_path() -> Path:
    """The Brill lexicon file inside the installed ``textblob`` package (found without importing it)."""
    spec = importlib.util.find_spec("textblob")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("textblob is needed for its part-of-speech lexicon: pip install textblob")
    return Path(list(spec.submodule_search_locations)[0]) / "en" / "en-lexicon.txt"


# The dictionaries load in a background thread (load_dictionaries) while the themes may already need
# them: a second caller waits for the first load instead of reading the files again.
_LEXICON_LOCK = threading.Lock()
_LEMMAS_LOCK = threading.Lock()


def _lexicon() -> dict[str, str]:
    with _LEXICON_LOCK:
        return _read_lexicon()


@lru_cache(maxsize=1)
def _read_lexicon() -> dict[str, str]:
    entries = [line.split(" ", 1) for line in _textblob_lexicon_path().read_text(encoding="utf-8").splitlines()
               if " " in line and not line.startswith(";;;")]
    lexicon = {word: tag.strip() for word, tag in entries if word.islower()}
    # Capitalised entries ("Bayes") count only for words without a lower-case entry (the text is lower case).
    for word, tag in entries:
        lexicon.setdefault(word.lower(), tag.strip())
    return lexicon


def lexicon_tag(word: str) -> str:
    """The most frequent Penn Treebank tag of a lower-case word, or a guess from its suffix.

    Parameters
    ----------
    word : str
        A lower-case word, in the tagger's lexicon or not.

    Returns
    -------
    str
        A Penn Treebank tag (``NN``, ``NNS``, ``JJ``, ``VB``, ``VBG``, ...).

    Examples
    --------
    >>> [lexicon_tag(w) for w in ["network", "neural", "learn", "shows", "quickly", "spiking"]]
    ['NN', 'JJ', 'VB', 'VBZ', 'RB', 'VBG']
    >>> [lexicon_tag(w) for w in ["llms", "converges", "self-supervised", "data-driven", "permutation-invariant"]]
    ['NNS', 'VBZ', 'VBD', 'JJ', 'JJ']
    """
    tag = _lexicon().get(word)
    if tag is not None:
        return tag
    known = _all_lemmas(word)
    plural = word.endswith("s") and not word.endswith(("ss", "us", "is"))
    verb = "VBG" if word.endswith("ing") else "VBN" if word.endswith("ed") else "VBZ" if plural else "VB"
    for upos, guess in (("NOUN", "NNS" if plural else "NN"), ("ADJ", "JJ"), ("VERB", verb), ("ADV", "RB")):
        if upos in known:
            return guess
    if "-" in word:
        head = word.rsplit("-", 1)[1]
        if head == "driven" or word.endswith(_ADJECTIVE_SUFFIXES):
            return "JJ"
        head_tag = _lexicon().get(head)
        if head_tag is not None:
            return head_tag
    if word.endswith("ly") and len(word) > 4:
        return "RB"
    if word.endswith("ed") and len(word) > 4:
        return "VBN"
    if word.endswith("ing") and len(word) > 5:
        return "VBG"
    if word.endswith(_ADJECTIVE_SUFFIXES) and len(word) > 5:
        return "JJ"
    if word.endswith(("ify", "ize", "ise")) and len(word) > 5:
        return "VB"
    if plural and len(word) > 3:
        return "NNS"
    return "NN"


def load_dictionaries(*, background: bool = True) -> BackgroundCall:
    """Start loading the tagger's lexicon, lemminflect's dictionary and wordfreq's English frequencies in a background
    thread (at once when not ``background``); ``.result()`` of what it returns waits for them.

    The modules are imported here, in the calling thread: two threads importing at once can deadlock.

    Parameters
    ----------
    background : bool
        Load in a background thread (``False``: at once, in this thread).

    Returns
    -------
    BackgroundCall
        Its ``result()`` waits until the dictionaries are loaded.

    Examples
    --------
    >>> load_dictionaries().result()
    >>> lexicon_tag("network")
    'NN'
    """
    import wordfreq  # lazy: large word lists

    from helpers.analysis._parallel import start_in_thread

    _lemmas()

    def load() -> None:
        _lexicon()
        _all_lemmas("network")  # lemminflect reads its dictionary at the first lookup
        wordfreq.word_frequency("the", "en")  # loads the term map's general-English frequencies (termhood)

    return start_in_thread(load, name="helpers-dictionaries", background=background)


@lru_cache(maxsize=1)
def _lemmas():
    import lemminflect  # lazy: large word lists

    return lemminflect


@lru_cache(maxsize=None)
def singular(word: str) -> str:
    """A noun's singular form from ``lemminflect``'s dictionary (its rules for unknown plurals).

    A word with characters other than letters that is not ASCII stays as it is.

    Parameters
    ----------
    word : str
        A lower-case noun.

    Returns
    -------
    str
        Its singular (the word itself when it has none).

    Examples
    --------
    >>> [singular(w) for w in ["matrices", "indices", "analyses", "hypotheses", "biases", "bayes"]]
    ['matrix', 'index', 'analysis', 'hypothesis', 'bias', 'bayes']
    >>> [singular(w) for w in ["llms", "networks", "dynamics", "data", "criteria", "process"]]
    ['llm', 'network', 'dynamics', 'data', 'criterion', 'process']
    """
    if not (word.isascii() or word.isalpha()):
        return word
    lemmas = _all_lemmas(word).get("NOUN")
    if lemmas:
        return lemmas[0]
    if "-" in word:
        head, tail = word.rsplit("-", 1)
        return f"{head}-{singular(tail)}" if tail else word
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        lemmas = _lemmas().getLemma(word, upos="NOUN")
        return lemmas[0] if lemmas else word
    return word


@lru_cache(maxsize=100_000)
def unknown_plural(word: str) -> bool:
    """A lower-case word that only a rule makes singular, with neither it nor that singular in the dictionaries
    (a name such as "oeiras" or "athens", unlike "gaussians" or "models").

    Parameters
    ----------
    word : str
        A lower-case word, perhaps a name ending in "s".

    Returns
    -------
    bool
        Whether only a rule, no dictionary, makes it singular.

    Examples
    --------
    >>> [unknown_plural(w) for w in ["oeiras", "athens", "gaussians", "models", "data"]]
    [True, True, False, False, False]
    """
    singular_form = singular(word)
    return (singular_form != word and "NOUN" not in _all_lemmas(word)
            and singular_form not in _lexicon() and not _all_lemmas(singular_form))


@lru_cache(maxsize=100_000)
def _all_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """lemminflect's lemmas of ``word`` by word class (each lookup deep-copies its entry: cache it).

    Do not change the returned dictionary: it is shared.
    """
    _lemma_dictionary_loaded()
    return _lemmas().getAllLemmas(word)


def _lemma_dictionary_loaded() -> None:
    """Read lemminflect's dictionary once, whichever thread asks first (lemminflect reads it at its first lookup)."""
    with _LEMMAS_LOCK:
        _read_lemma_dictionary()


@lru_cache(maxsize=1)
def _read_lemma_dictionary() -> bool:
    _lemmas().getAllLemmas("network")
    return True


def _can_be_noun(word: str) -> bool:
    return "NOUN" in _all_lemmas(word)


def _can_be_verb(word: str, tag: str) -> bool:
    return tag.startswith("VB") or "VERB" in _all_lemmas(word)
