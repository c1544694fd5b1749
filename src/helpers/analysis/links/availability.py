"""Availability claims: does a sentence say that the paper's own code or data is available, and where?

A sentence is an *availability claim* when it speaks of the paper's own
artefact (code, implementation, library, data, benchmark, models, weights,
demo, project page, ...) together with its availability (available,
released, open-sourced, public, accessible, can be found, provided, shared,
hosted). Each sentence gets one class:

``linked``
    a claim with a usable URL in it, or elsewhere in the abstract when the claim
    points to it ("on our project page", "here", "on GitHub"); also a sentence
    that gives a URL to a code, data or project-page host
    (:data:`helpers.analysis.links.hosts.LINKED_KINDS`) without saying more ("Project page:
    https://x.github.io"). A claim is usable with any URL but a paper's
    (arXiv, DOI, OpenReview): a claim makes an ``other`` host (a lab's own
    domain, ``bit.ly``) its artefact's address. A promise with a usable URL is
    ``linked`` with ``promise=True``, and so is a promise in an abstract that
    links code, data or a project page elsewhere ("Weights will be released."
    next to "Code: https://github.com/a/b"); a hub named as the place with
    ``owner/name`` identifiers ("on Hugging Face (org/model)") is a repaired
    URL (:func:`helpers.analysis.links.urls.find_urls`);
``dangling``
    a present claim with no usable link: "our implementation is publicly
    available", "released on GitHub", "available at this URL", a URL with a
    paper host only;
``promised``
    a future or conditional claim with no usable link: "will be released",
    "upon acceptance", "soon", "on request", and hedged intentions of the
    authors or an organisation ("we are considering releasing the data",
    "Acme plans to open-source the weights");
``none``
    anything else, notably data that "is available" to an algorithm, public
    datasets the paper uses, models released by others.

Why a grammar and not a classifier
----------------------------------
The labelled sentences are few (a few dozen claims in a few hundred abstracts),
so a trained classifier would learn the wording of its examples ("is
available at") and could not say why it decided. Claims, on the other hand,
follow a small and stable syntax, which a grammar states directly and which
every verdict can quote back as its ``reason``:

* **subject form**: ``ARTEFACT [of/for ...] VERB-GROUP [ADVERBS] PREDICATE [LOCATIVE]``
  ("Our code and models are publicly available at ...", "The source code of
  this work can be found here");
* **we form**: ``we [will] VERB [OWNER] ARTEFACT`` ("We open-source our
  implementation", "We will make the code available");
* **label form**: ``ARTEFACT (: | at | on) URL`` ("Project page: https://...");
* **introduction form**: ``(we | us to | this paper) INTRODUCE [NAME,] [a family of] ... OPEN-SOURCE NOUN``
  ("We build an open-source agent that ...", "We present Foo, a family of
  open-source models"): the adjective makes the new artefact software, so
  any noun will do; no preposition may stand between the verb and the
  adjective ("we build on an open-source simulator", "a benchmark for
  open-source LLMs"), and the verb must introduce ("we extend the
  open-source solver Y" is someone else's). Such a claim is ``linked`` by a
  code, data or project-page URL anywhere in the abstract;
* **intention form**: ``SUBJECT (is considering | plans to | aims to | hopes to ...) RELEASE-VERB ARTEFACT``,
  read on the sentence as written so that a capitalised organisation can be
  the subject: always a promise.

The artefact must be the paper's own: introduced by an owner (``our``,
``the``, ``all``, ``this``, ...) or opening its clause, never inside a
``where``/``when``/``if`` clause, never modified by ``public``, ``existing``,
``pre-trained``, ... ("by training on publicly available datasets"), and the
predicate may not be followed by a beneficiary ("available to the agent",
"to users": ``to`` and a noun phrase, not a purpose such as "to advance
research") or a third party ("released by OpenAI"). A phrase in commas
between the artefact and its verb ("The corpus, collected over two years,
is now available") is set aside. Weak predicates (``provided``,
``shared``, ``found``) need a place after them ("at", "on", "here", a URL).
Tense and condition (``will``, ``upon acceptance``, ``soon``, ``on
request``) make a claim a promise; link evidence is a usable URL in the
sentence, or a pointer word ("here", "project page", "GitHub") plus a URL
elsewhere in the abstract.

The grammar reads at most :data:`LEFT_WINDOW` characters before an availability
word and :data:`RIGHT_WINDOW` after it; where a longer clause begins is found in
one pass over the sentence. So its work grows linearly with a sentence's length
(a block without full stops is one sentence), and a clause longer than the
window has no artefact subject of its own (the part after its last comma may).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, replace
from typing import Callable

from helpers.analysis.links.claims import find_claim, intent_claim
from helpers.analysis.links.grammar import LINK, _HEDGE, _HOSTS_NAMED, _MAYBE_URL, _POINTER, _PRECHECK, _PROMISE
from helpers.analysis.links.hosts import LINKED_KINDS, classify_host
from helpers.analysis.links.urls import FoundUrl, find_urls, split_sentences

__all__ = ["SentenceVerdict", "classify_sentence", "abstract_verdicts", "STATEMENTS"]

#: The four classes of a sentence, in the order of precedence of a paper's state.
STATEMENTS = ("linked", "dangling", "promised", "none")


@dataclass(frozen=True)
class SentenceVerdict:
    """What one sentence says about the availability of the paper's artefacts.

    Attributes
    ----------
    statement : str
        One of :data:`STATEMENTS`.
    promise : bool
        Whether the claim is future or conditional.
    reason : str
        A short account of the artefact, predicate and link that decided.
    urls : tuple of str
        The usable (repaired) URLs it relied on.
    claim : bool
        Whether the sentence is an availability claim (a ``linked`` sentence with a bare link to a code host is
        not).

    Examples
    --------
    >>> SentenceVerdict("promised", promise=True).claim
    False
    """

    statement: str
    promise: bool = False
    reason: str = ""
    urls: tuple[str, ...] = ()
    claim: bool = False


_NONE = SentenceVerdict("none")



def _masked(sentence: str, urls, *, lower: bool = True) -> str:
    """The sentence (lower case unless ``lower=False``) with each URL replaced by :data:`LINK`."""
    parts, position = [], 0
    for url in urls:
        parts.append(sentence[position:url.start])
        parts.append(f" {LINK} ")
        position = url.end
    parts.append(sentence[position:])
    text = re.sub(r"\s+", " ", "".join(parts)).strip()
    return text.lower() if lower else text


def _usable(url: str, *, claim: bool) -> bool:
    """A URL that can stand for an artefact: not a paper's, not a bare code host ("github.com/")."""
    host = classify_host(url)
    if host["kind"] == "code" and host["host"] in ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org") \
            and not host["owner"]:
        return False
    return host["kind"] in LINKED_KINDS or (claim and host["kind"] == "other")


def classify_sentence(sentence: str, abstract: str) -> SentenceVerdict:
    """The availability class of one sentence of an abstract.

    ``abstract`` is the whole abstract the sentence comes from: a claim that
    points elsewhere ("on our project page") is ``linked`` by a usable URL
    in another sentence.

    Parameters
    ----------
    sentence : str
        One sentence.
    abstract : str
        The whole abstract it comes from (``""``: none).

    Returns
    -------
    SentenceVerdict
        Its class, with the reason and the URLs relied on.

    Examples
    --------
    >>> classify_sentence("Our code is publicly available at https//github.com/a/b.", "").statement
    'linked'
    >>> classify_sentence("Our implementation is publicly available.", "").statement
    'dangling'
    >>> v = classify_sentence("We will release the code upon acceptance.", "")
    >>> v.statement, v.promise
    ('promised', True)
    >>> classify_sentence("We train on publicly available datasets.", "").statement
    'none'
    >>> classify_sentence("Code is on our project page.", "Code is on our project page. See https://a.github.io").urls
    ('https://a.github.io',)
    """
    lower = sentence.lower()
    if not _PRECHECK.search(lower):
        return _NONE
    urls = find_urls(sentence) if _MAYBE_URL.search(lower) else []
    return _verdict(sentence, urls, lambda: [u.url for u in find_urls(abstract)] if abstract else [])


def abstract_verdicts(text: str, urls: list[FoundUrl] | None = None) -> list[tuple[int, str, SentenceVerdict]]:
    """``(sentence_no, sentence, verdict)`` for every sentence of an abstract that is not ``none``.

    The same verdicts as :func:`classify_sentence` on each sentence of
    :func:`helpers.analysis.links.urls.split_sentences`, computed faster for big corpora:
    one pre-check pass and one URL search over the whole abstract (``urls``,
    from :func:`helpers.analysis.links.urls.find_urls`, if the caller has them already).

    Parameters
    ----------
    text : str
        An abstract.
    urls : list of FoundUrl, optional
        Its URLs, when the caller has found them already.

    Returns
    -------
    list of (int, str, SentenceVerdict)
        The 1-based sentence number, the sentence and its verdict, in order.

    Examples
    --------
    >>> [(n, v.statement) for n, _, v in abstract_verdicts("We win. Code is public. See https://a.github.io.")]
    [(2, 'linked'), (3, 'linked')]
    >>> [(n, v.statement) for n, _, v in abstract_verdicts("We win. Code is public. See arXiv:2401.00001.")]
    [(2, 'dangling')]
    """
    lower = text.lower()
    if len(lower) != len(text):  # a few characters change length in lower case: offsets would drift
        return [(n, s, v) for n, s in enumerate(split_sentences(text), start=1)
                if (v := classify_sentence(s, text)).statement != "none"]
    hits = [m.start() for m in _PRECHECK.finditer(lower)]
    if not hits:
        return []
    urls = find_urls(text) if urls is None else urls
    all_urls = [u.url for u in urls]
    found, position = [], 0
    for number, sentence in enumerate(split_sentences(text), start=1):
        start = text.find(sentence, position)
        end = position = start + len(sentence)
        first = bisect_left(hits, start)
        if first == len(hits) or hits[first] >= end:
            continue
        own = [replace(u, start=u.start - start, end=u.end - start) for u in urls if start <= u.start < end]
        verdict = _verdict(sentence, own, lambda: all_urls)
        if verdict.statement != "none":
            found.append((number, sentence, verdict))
    return found


def _verdict(sentence: str, urls: list[FoundUrl], abstract_urls: Callable[[], list[str]]) -> SentenceVerdict:
    """The verdict on a sentence whose URLs are known (offsets in the sentence); ``abstract_urls`` on demand."""
    text = _masked(sentence, urls)
    claim = find_claim(text)
    intent = None
    if _HEDGE.search(text):
        intent = intent_claim(_masked(sentence, urls, lower=False))
        claim = claim or intent
    if claim is None:
        linked = tuple(u.url for u in urls if _usable(u.url, claim=False))
        if linked:
            kinds = sorted({classify_host(u)["kind"] for u in linked})
            return SentenceVerdict("linked", False, f"bare link to a {' and '.join(kinds)} host", linked)
        return _NONE
    artefact, predicate = claim
    promise = intent is not None or _PROMISE.search(text) is not None
    said = f"'{artefact}' + '{predicate}'" + (" (future or conditional)" if promise else "")
    usable = tuple(u.url for u in urls if _usable(u.url, claim=True))
    if usable:
        return SentenceVerdict("linked", promise, f"{said}; URL in the sentence", usable, True)
    pointer = _POINTER.search(text)
    if pointer:
        here = {u.url for u in urls}
        usable = tuple(u for u in abstract_urls() if u not in here and _usable(u, claim=True))
        if usable:
            return SentenceVerdict("linked", promise, f"{said}; points ('{pointer.group(0)}') to a URL "
                                   "elsewhere in the abstract", usable, True)
    # Any claim (present, promised, or a new artefact called open-source) is linked where the abstract links
    # code, data or a project page elsewhere, as the paper's state is: "Code: https://github.com/a/b. Weights
    # will be released." A claim is dangling only when the whole abstract gives no such link.
    here = {u.url for u in urls}
    usable = tuple(u for u in abstract_urls() if u not in here and _usable(u, claim=False))
    if usable:
        return SentenceVerdict("linked", promise, f"{said}; a code, data or project-page URL elsewhere in "
                               "the abstract", usable, True)
    if promise:
        return SentenceVerdict("promised", True, f"{said}; no usable link", (), True)
    if urls:
        why = "only a paper link"
    elif pointer and _HOSTS_NAMED.search(pointer.group(0)):
        why = f"names a host ('{pointer.group(0)}') but no address"
    elif pointer:
        why = f"placeholder ('{pointer.group(0)}') with no link behind it"
    else:
        why = "no link"
    return SentenceVerdict("dangling", False, f"{said}; {why}", (), True)
