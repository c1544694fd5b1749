"""Analysis text: the cleaned, lower-case text that themes and term counts are computed from.

The stored abstract keeps its LaTeX, Markdown, HTML and URLs; :func:`analysis_text`
removes them (keeping the words inside markup), so ``<em>epistemic</em>`` and
``*epistemic*`` count as the same word. Removed spans, numbers and punctuation
become phrase boundaries, so no term spans a formula or a sentence end.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from importlib import resources
from typing import Iterator

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

__all__ = [
    "analysis_text",
    "segments",
    "tokenize",
    "stop_words",
    "boilerplate_words",
    "linking_words",
    "fold_plural",
    "theme_terms",
    "BOUNDARY",
]

BOUNDARY = " | "

_URL = re.compile(
    r"(?:https?|ftp)://\S+|\bwww\.\S+"
    r"|\b(?:github\.com|gitlab\.com|huggingface\.co|bitbucket\.org|[\w-]+\.github\.io)(?:/\S*)?",
    re.IGNORECASE,
)
_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$|\\\(.+?\\\)|\\\[.+?\\\]", re.DOTALL)
_MARKDOWN_MARKS = re.compile(r"\*{1,3}|(?<!\w)_{1,2}|_{1,2}(?!\w)|`+|^#+\s", re.MULTILINE)
_POSSESSIVE = re.compile(r"['’]s\b")
_PUNCTUATION = re.compile(r"[.,;:!?()\[\]{}\"“”‘’'/\\|<>=+*&%#@~^]|\s[-–—]+\s|[–—]")
_TOKEN = re.compile(r"[^\W_](?:[\w]|-(?=[^\W_]))*")


def analysis_text(text: str) -> str:
    """Clean one abstract for counting.

    NFKC (ligatures, full-width forms), HTML entities decoded, URLs, LaTeX math
    and HTML tags removed (the text inside tags and Markdown links is kept),
    Markdown emphasis marks dropped, lower case. Removed spans become a phrase
    boundary (``|``).

    Examples
    --------
    >>> analysis_text("We ﬁne-tune <em>LLMs</em> at https://github.com/a/b.")
    'we fine-tune llms at  | '
    >>> analysis_text("Sampling $\\\\pi(x)$ with **Langevin** and [code](https://x.org)")
    'sampling  |  with langevin and code'
    """
    text = unicodedata.normalize("NFKC", text)
    text = html.unescape(text)
    text = _MARKDOWN_LINK.sub(r"\1", text)
    text = _URL.sub(BOUNDARY, text)
    text = _MATH.sub(BOUNDARY, text)
    text = _HTML_TAG.sub("", text)
    text = _MARKDOWN_MARKS.sub("", text)
    return text.lower()


def segments(text: str) -> Iterator[list[str]]:
    """Runs of word tokens between boundaries, from an analysis text.

    Punctuation, removed spans, dashes and numbers end a run; single letters
    are dropped (and end a run too). Hyphenated words stay whole.

    Examples
    --------
    >>> list(segments("graph neural networks (gnns), top 5 accuracy; fine-tuning"))
    [['graph', 'neural', 'networks'], ['gnns'], ['top'], ['accuracy'], ['fine-tuning']]
    """
    for chunk in _PUNCTUATION.split(_POSSESSIVE.sub("", text)):
        run: list[str] = []
        for token in _TOKEN.findall(chunk):
            if token[0].isdigit() or len(token) < 2:
                if run:
                    yield run
                run = []
            else:
                run.append(token)
        if run:
            yield run


def tokenize(text: str) -> list[str]:
    """All word tokens of an analysis text, in order (numbers dropped).

    Examples
    --------
    >>> tokenize(analysis_text("Fine-tuning 7B models, in 2024."))
    ['fine-tuning', 'models', 'in']
    """
    return [token for run in segments(text) for token in run]


def _read_word_list(name: str) -> frozenset[str]:
    content = resources.files("helpers").joinpath("resources", name).read_text(encoding="utf-8")
    return frozenset(
        line.strip().lower() for line in content.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    )


@lru_cache(maxsize=None)
def boilerplate_words() -> frozenset[str]:
    """The project's list of abstract boilerplate (``resources/boilerplate_stopwords.txt``)."""
    return _read_word_list("boilerplate_stopwords.txt")


@lru_cache(maxsize=None)
def linking_words() -> frozenset[str]:
    """Stop words allowed inside a three-word term (``resources/linking_words.txt``)."""
    return _read_word_list("linking_words.txt")


@lru_cache(maxsize=None)
def plural_exceptions() -> frozenset[str]:
    return _read_word_list("plural_exceptions.txt")


@lru_cache(maxsize=None)
def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words plus the boilerplate list.

    Examples
    --------
    >>> {"the", "we", "propose", "novel"} <= stop_words()
    True
    >>> "transformer" in stop_words()
    False
    """
    return frozenset(ENGLISH_STOP_WORDS) | boilerplate_words()


@lru_cache(maxsize=200_000)
def fold_plural(word: str) -> str:
    """Simple English plural folding, applied to each word of a term.

    Examples
    --------
    >>> [fold_plural(w) for w in ["networks", "studies", "classes", "approaches", "llms"]]
    ['network', 'study', 'class', 'approach', 'llm']
    >>> [fold_plural(w) for w in ["analysis", "bias", "process", "gaussian", "dynamics"]]
    ['analysis', 'bias', 'process', 'gaussian', 'dynamics']
    """
    if len(word) <= 3 or not word.endswith("s") or word in plural_exceptions():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes", "zzes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is", "'s")):
        return word
    return word[:-1]


def theme_terms(text: str) -> list[str]:
    """Unigrams and bigrams of an analysis text for the topic models.

    Tokens are plural-folded; stop words are dropped; a bigram joins two
    non-stop tokens that are adjacent in the text (never across a boundary).

    Examples
    --------
    >>> theme_terms(analysis_text("We propose graph neural networks for molecules."))
    ['graph', 'neural', 'network', 'molecule', 'graph neural', 'neural network']
    """
    stops = stop_words()
    unigrams: list[str] = []
    bigrams: list[str] = []
    for run in segments(text):
        previous: str | None = None
        for token in run:
            if token in stops:
                previous = None
                continue
            folded = fold_plural(token)
            unigrams.append(folded)
            if previous is not None:
                bigrams.append(f"{previous} {folded}")
            previous = folded
    return unigrams + bigrams
