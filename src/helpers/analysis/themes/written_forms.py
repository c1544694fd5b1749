"""Written forms: a label's terms shown as the abstracts write them (``PDMS``, ``Higgs boson``, ``nanochannels``).

The themes spell their terms folded (lower case, a noun singular: ``pdm``, ``higg boson``), which is how terms are
counted but not how a reader knows them. :func:`written_forms` finds each term's most frequent spelling in the
texts, and :func:`written_label` shows a label with it; a folded form that no abstract writes is never shown.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from functools import lru_cache
from typing import Collection, Iterable, Mapping

from helpers.analysis.themes.labels import label_parts

__all__ = ["WrittenTokens", "written_tokens", "written_forms", "written_forms_of_tokens", "written_label"]

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

    Parameters
    ----------
    text : str
        An abstract as published (HTML entities and NFKC forms are undone first).

    Returns
    -------
    WrittenTokens
        Its chunks of tokens.

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

    Parameters
    ----------
    terms : collection of str
        Terms as the themes spell them.
    texts : iterable of str
        The abstracts to read them in.

    Returns
    -------
    dict of str to str
        Each term written in the texts to its most frequent written form.

    Examples
    --------
    >>> texts = ["PDMS nanochannels were made.", "Nanochannels of PDMS and the Higgs boson.", "Our nanochannels."]
    >>> written_forms(["pdm", "nanochannel", "higg boson", "graph"], texts)
    {'pdm': 'PDMS', 'nanochannel': 'nanochannels', 'higg boson': 'Higgs boson'}
    """
    return written_forms_of_tokens(terms, (written_tokens(text) for text in texts))


def written_forms_of_tokens(terms: Collection[str], texts: Iterable[WrittenTokens]) -> dict[str, str]:
    """:func:`written_forms` of texts cut by :func:`written_tokens`.

    Parameters
    ----------
    terms : collection of str
        Terms as the themes spell them.
    texts : iterable of WrittenTokens
        The abstracts, cut once (:func:`written_tokens`).

    Returns
    -------
    dict of str to str
        As :func:`written_forms`.

    Examples
    --------
    >>> written_forms_of_tokens(["wall"], [written_tokens("Walls and walls.")])
    {'wall': 'walls'}
    """
    wanted = set(terms)
    # A pair is spelled only after a word that starts a wanted term of several words (most words start none).
    starts = {term.split(" ", 1)[0] for term in wanted if " " in term}
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
                if previous is not None and not starts.isdisjoint(previous[0]):
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

    Parameters
    ----------
    label : str
        A label as the rule makes it (:func:`helpers.analysis.themes.labels.theme_labels`).
    forms : mapping of str to str
        The terms' written forms.

    Returns
    -------
    str
        The label to show.

    Examples
    --------
    >>> written_label("nanochannel · pdm (general)", {"nanochannel": "nanochannels", "pdm": "PDMS"})
    'nanochannels · PDMS (general)'
    """
    match = re.search(r" \((?:general|\d+)\)$", label)
    tail = match.group() if match else ""
    return " · ".join(forms.get(part, part) for part in label_parts(label)) + tail
