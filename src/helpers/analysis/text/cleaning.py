"""Analysis text: the cleaned, lower-case text that themes and term counts are computed from.

The stored abstract keeps its LaTeX, Markdown, HTML and URLs; :func:`analysis_text`
removes them (keeping the words inside markup), so ``<em>epistemic</em>`` and
``*epistemic*`` count as the same word. The addresses removed are exactly those the
link finder finds (:func:`helpers.analysis.links.urls.find_url_spans`), so ``doi:``
identifiers or ``osf.io/abcde`` never become words. Removed spans, numbers and
punctuation become phrase boundaries, so no term spans a formula or a sentence end.

Terms keep a field's own words: Web of Science's words for symbols are decoded ("center dot" is ·, a boundary),
an ion or an oxidation state is one token ("hg2+", "cu(ii)"), an acronym or formula ending in its own "s" keeps
its capitals so it is never made singular ("PDMS", "GaAs"; :func:`lower_case`), Latin phrases are one word
("in-vitro"), and in an abstract whose punctuation was stripped a compound such as "turn on" is "turn-on" again.
Singular forms and the theme terms are the term map's (:mod:`helpers.analysis.terms`,
:func:`helpers.analysis.themes.theme_terms`).
"""

from __future__ import annotations

import html
import re
import unicodedata
from array import array
from collections import defaultdict
from collections.abc import Sequence as SequenceBase
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

import numpy as np

from helpers.analysis.links.urls import find_url_spans

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "analysis_text",
    "segments",
    "tokenize",
    "stop_words",
    "boilerplate_words",
    "linking_words",
    "BOUNDARY",
    "TokenizedCorpus",
    "tokenize_corpus",
    "analysis_texts_to_tokens",
    "decode_wos_escapes",
    "written_as_is",
    "lower_case",
    "join_broken_compounds",
]

BOUNDARY = " | "

# Applied to lower-cased text, so no IGNORECASE (which makes the scan several times slower).
# A citation, "Name et al." (also "et al", "et. al.", "et.al."), with the name: never a term (as in the term map).
_ET_AL = re.compile(r"(?:\b[^\W\d_][\w'-]*\s+)?\bet\.?\s*al\b\.?")
_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$|\\\(.+?\\\)|\\\[.+?\\\]", re.DOTALL)
_MARKDOWN_MARKS = re.compile(r"\*{1,3}|(?<!\w)_{1,2}|_{1,2}(?!\w)|`+|^#+\s", re.MULTILINE)
_POSSESSIVE = re.compile(r"['’]s\b")
# Symbols end a phrase like punctuation (a formula "CuSO4·5H2O", "x ≈ 3" or "Cl−" never joins its neighbours).
_PUNCTUATION = re.compile(r"[.,;:!?()\[\]{}\"“”‘’'/\\|<>=+*&%#@~^·•×÷±∼≈≤≥≠≫≪→←↔∝∞°−⊙⊗⊕]|\s[-–—]+\s|[–—]")
# Chemical element symbols (lower case): a charged ion or an oxidation state is one token ("hg2+", "cu(ii)").
_ELEMENT = (r"(?:h[efgos]?|l[aiuvr]|b[aehikr]?|c[adeflmnorsu]?|n[abdehiop]?|o[gs]?|f[elmr]?|m[cdgnot]|"
            r"a[cglmrstu]|s[bcegimnr]?|p[abdmortu]?|k[r]?|t[abcehilms]|v|cr|zn|ga|ge|se|rb|sr|y[b]?|zr|"
            r"ru|rh|i[nr]?|xe|eu|gd|dy|er|w|re|ir|pt|au|hg|tl|bi|po|rn|fr|ra|th|u|np|pu|ds|ts)")
_SPECIES = (rf"(?<![\w-])(?:{_ELEMENT}[+−]|(?:{_ELEMENT}\d*)+\d[+−]|"
            rf"{_ELEMENT}\((?:i{{1,3}}|iv|vi{{0,3}})\))(?![\w+−(])")
# The look-ahead lets a word that cannot start a species skip the element alternatives (as fast as without them).
_TOKEN = re.compile(rf"(?=[a-z]{{1,2}}[\d+−(]){_SPECIES}|[^\W_](?:[\w]|-(?=[^\W_]))*")
# Punctuation first, then word tokens: one scan yields both, in text order.
_PIECE = re.compile(f"{_PUNCTUATION.pattern}|{_TOKEN.pattern}")


def _is_word(piece: str) -> bool:
    """A piece that can be part of a term (the test :func:`segments` applies)."""
    return len(piece) >= 2 and not piece[0].isdigit() and _TOKEN.fullmatch(piece) is not None


def analysis_text(text: str) -> str:
    """Clean one abstract for counting.

    NFKC (ligatures, full-width forms), HTML entities decoded, every address the
    link finder finds removed (:func:`_without_urls`), then lower case, citations
    (``Name et al.``), LaTeX math and HTML tags removed (the text inside tags and Markdown links is kept),
    Markdown emphasis marks dropped. Removed spans become a phrase boundary (``|``).

    Examples
    --------
    >>> analysis_text("We ﬁne-tune <em>LLMs</em> at https://github.com/a/b.")
    'we fine-tune llms at  | '
    >>> analysis_text("Sampling $\\\\pi(x)$ with **Langevin** and [code](https://x.org)")
    'sampling  |  with langevin and code'
    >>> analysis_text("As Li et al. show (doi:10.1000/xyz).")
    'as  |  show ( | '
    """
    # Each substitution runs only when a cheap substring test says it can match.
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    # Addresses are found before lower case, in the text as the link finder reads it.
    text = _without_urls(html.unescape(text))
    if ("center dot" in text or "circle " in text or "approximate to" in text or "similar to" in text
            or "equal to" in text or "much " in text or "proportional to" in text):
        text = decode_wos_escapes(text)
    text = lower_case(text)
    if "vitro" in text or "vivo" in text or "situ" in text or "silico" in text or "utero" in text or " ovo" in text \
            or "novo" in text:
        text = _LATIN_PHRASE.sub(r"\1-\2", text)
    if _ROMAN_NUMERAL.search(text):
        text = _SPACED_OXIDATION_STATE.sub(r"\1(\2)", text)
    if "." not in text and "," not in text and ";" not in text and text.count(" ") >= _MIN_STRIPPED_WORDS:
        text = join_broken_compounds(text)
    if "et al" in text or "et. al" in text or "et.al" in text:
        text = _ET_AL.sub(BOUNDARY, text)
    if "](" in text:
        text = _MARKDOWN_LINK.sub(r"\1", text)
    if "$" in text or "\\" in text:
        text = _MATH.sub(BOUNDARY, text)
    if "<" in text:
        text = _HTML_TAG.sub("", text)
    if any(mark in text for mark in "*_`#"):
        text = _MARKDOWN_MARKS.sub("", text)
    return text


# Web of Science writes symbols as words (its character conversions): "center dot" is ·, "similar to" before
# a number is ∼. Phrases that are also English ("similar to", "greater than or equal to") count only before a number.
_WOS_ESCAPE_SYMBOLS = {
    "center dot": "·", "circle dot": "⊙", "circle times": "⊗", "circle plus": "⊕", "approximate to": "≈",
    "similar to": "∼", "greater than or equal to": "≥", "less than or equal to": "≤", "not equal to": "≠",
    "much greater than": "≫", "much less than": "≪", "proportional to": "∝",
}
_WOS_ESCAPE = re.compile(
    r"\b(center dot|circle dot|circle times|circle plus|approximate to)\b"
    r"|\b(similar to|greater than or equal to|less than or equal to|not equal to|much greater than|much less than"
    r"|proportional to)(?= ?[-+−(]?\d)")
# An oxidation state whose parentheses were stripped ("Cu II" in a Web of Science abstract) is one word, "cu(ii)";
# element symbols that are also English words ("in", "as", "at") are left out.
_ROMAN_NUMERAL = re.compile(r" (?:i{1,3}|iv|vi{0,3})\b")
_SPACED_OXIDATION_STATE = re.compile(rf"(?<![\w-])(?!(?:in|as|at|no|be|he|hi|is|so|i)\b)({_ELEMENT}) "
                                    r"(i{1,3}|iv|vi{0,3})\b(?!-)")
# Latin phrases are one word, never "vitro" alone ("in vitro" -> "in-vitro").
_LATIN_PHRASE = re.compile(r"\b(in|ex|de) (vitro|vivo|situ|silico|utero|ovo|novo)\b")
# A word with a capital after its first letter ("PDMS", "GaAs", "LLMs"), and a capitalised word after a lower-case
# one ("in Oeiras"): the casing says whether it is an acronym, a formula or a name.
_CASED_WORD = re.compile(r"[^\W\d_][^\W_]*?[A-Z][^\W_]*")
# The end of a word with a capital that ends in "s" (found from its capital: a scan for a word shape at every
# position is several times slower); the word's start is found from there.
_CASED_END = re.compile(r"[A-Z][A-Za-z0-9]*[sS](?![\w-])")
_CAPITALISED_PLURAL = re.compile(r"[A-Z][a-z]+s\b(?!-)")
# A chemical formula: element symbols, each with its count ("GaAs", "TiO2").
_FORMULA = re.compile(rf"{_ELEMENT}\d*", re.IGNORECASE)  # one element and its count
_FORMULA_PART = re.compile(r"[A-Z][a-z]?\d*")


# An abstract of at least this many words without a full stop, comma or semicolon had its punctuation stripped.
_MIN_STRIPPED_WORDS = 30


@lru_cache(maxsize=1)
def _broken_compound() -> re.Pattern[str]:
    """The two words of a compound of a word and a stop word, written apart ("turn on"): the tagger lexicon's
    hyphenated words of one word and one stop word ("follow-up", "well-known") and
    ``resources/particle_compounds.txt``."""
    from helpers.analysis.lexicon import _lexicon  # lazy: the lexicon is large

    stops = stop_words()
    compounds = set(_read_word_list("particle_compounds.txt"))
    for word in _lexicon():
        parts = word.split("-")
        if len(parts) == 2 and all(len(p) > 1 and p.isascii() and p.isalpha() for p in parts) and (
                (parts[0] in stops) != (parts[1] in stops)):  # one stop word: "to-do" is no compound here
            compounds.add(word)
    words = sorted((compound.replace("-", " ") for compound in compounds), key=lambda c: (-len(c), c))
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])")


def join_broken_compounds(text: str) -> str:
    """A lower-case text with each known compound of a word and a stop word hyphenated again, as an export that
    stripped the punctuation wrote it apart ("turn on" -> "turn-on"). :func:`analysis_text` applies it only to
    such abstracts: elsewhere "turn on" is a verb.

    Examples
    --------
    >>> join_broken_compounds("a hg2+ turn on probe with a trade off and a follow up study to turn the key")
    'a hg2+ turn-on probe with a trade-off and a follow-up study to turn the key'
    """
    return _broken_compound().sub(lambda m: m.group().replace(" ", "-"), text)


def decode_wos_escapes(text: str) -> str:
    """The text with Web of Science's words for symbols written as the symbols.

    Examples
    --------
    >>> decode_wos_escapes("Cu center dot H2O at similar to 5 nm, similar to that of M-circle dot")
    'Cu · H2O at ∼ 5 nm, similar to that of M-⊙'
    >>> decode_wos_escapes("BMI greater than or equal to 30, approximate to 10%")
    'BMI ≥ 30, ≈ 10%'
    """
    return _WOS_ESCAPE.sub(lambda m: _WOS_ESCAPE_SYMBOLS[m.group(0)], text)


@lru_cache(maxsize=100_000)
def written_as_is(word: str) -> bool:
    """Whether a word's capitals make it an acronym or a formula that ends in an "s" of its own ("PDMS", "AIDS",
    "NeurIPS", "GaAs"), never made singular, unlike an acronym's plural ("LLMs", "ViTs", "mRNAs") or a plain word.

    Only words ending in "s" count: the others read the same once lower case (no dictionary is needed here).

    Examples
    --------
    >>> [written_as_is(w) for w in ["PDMS", "AIDS", "GaAs", "LLMs", "mRNAs", "ViTs", "Networks", "networks", "HIV"]]
    [True, True, True, False, False, False, False, False, False]
    """
    if not word.endswith(("s", "S")) or not _CASED_WORD.fullmatch(word):
        return False
    return word.endswith("S") or _is_formula(word)  # "LLMs", "ViTs", "mRNAs": an acronym's plural


def _is_formula(word: str) -> bool:
    """Whether a word is a chemical formula written with capitals: element symbols and counts.

    Examples
    --------
    >>> [_is_formula(w) for w in ["GaAs", "TiO2", "NaCl", "ViTs", "LLMs", "KSDs", "Oeiras"]]
    [True, True, True, False, False, False, False]
    """
    parts = _FORMULA_PART.findall(word)
    # A formula that ends in a lower-case "s" ends in arsenic or caesium ("GaAs", "InAs"), unlike "KSDs".
    return ("".join(parts) == word and all(_FORMULA.fullmatch(part) for part in parts)
            and (not word.endswith("s") or parts[-1] in ("As", "Cs")))


def _after_lower_case_word(before: str) -> bool:
    """Whether the text ``before`` a word ends in a lower-case word and one space, in mid-sentence.

    Examples
    --------
    >>> [_after_lower_case_word(b) for b in ["a survey in ", "data, ", "The ", "results. ", "(", ""]]
    [True, True, False, False, False, False]
    """
    previous = before.split()[-1:] or [""]
    return before.endswith(" ") and previous[0].rstrip(",").islower() and previous[0][-1] not in ".!?:;("


def _cased_spans(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each word with a capital that ends in "s" or "S", not part of a hyphenated word."""
    for found in _CASED_END.finditer(text):
        start, end = found.span()
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        if start == 0 or text[start - 1] not in "-_":
            yield start, end


def lower_case(text: str) -> str:
    """The text in lower case, except acronyms and formulas ending in "s" (:func:`written_as_is`) and
    capitalised words ending in "s" after a lower-case word (a name, "in Oeiras", or a plain plural written
    with a capital, "of Towns": :func:`helpers.analysis.terms.word_classes` tells them apart with its dictionaries).

    Examples
    --------
    >>> lower_case("PDMS films, GaAs and LLMs for AIDS in Oeiras. Networks of Towns")
    'PDMS films, GaAs and llms for AIDS in Oeiras. networks of Towns'
    """
    kept = [(start, end) for start, end in _cased_spans(text) if written_as_is(text[start:end])]
    kept += [m.span() for m in _CAPITALISED_PLURAL.finditer(text)
             if _after_lower_case_word(text[max(0, m.start() - 40):m.start()])]
    if not kept:
        return text.lower()
    parts, position = [], 0
    for start, end in sorted(kept):
        parts += [text[position:start].lower(), text[start:end]]
        position = end
    parts.append(text[position:].lower())
    return "".join(parts)


def _without_urls(text: str) -> str:
    """The text with each span :func:`helpers.analysis.links.urls.find_url_spans` finds replaced by a boundary.

    A Markdown link keeps its visible text, itself without addresses.

    Examples
    --------
    >>> _without_urls("Data: osf.io/abcde and arXiv:2401.01234; [code](https://x.org/c) here")
    'Data:  |  and  | ; code here'
    """
    parts: list[str] = []
    position = 0
    for found in find_url_spans(text):
        if found.start < position:  # a span found twice (a hub's identifier)
            position = max(position, found.end)
            continue
        parts.append(text[position:found.start])
        parts.append(_without_urls(found.link_text) if found.link_text else BOUNDARY)
        position = found.end
    if not parts:
        return text
    parts.append(text[position:])
    return "".join(parts)


def segments(text: str) -> Iterator[list[str]]:
    """Runs of word tokens between boundaries, from an analysis text.

    Punctuation, removed spans, dashes and numbers end a run; single letters
    are dropped (and end a run too). Hyphenated words stay whole.

    Examples
    --------
    >>> list(segments("graph neural networks (gnns), top 5 accuracy; fine-tuning"))
    [['graph', 'neural', 'networks'], ['gnns'], ['top'], ['accuracy'], ['fine-tuning']]
    """
    run: list[str] = []
    for piece in _PIECE.findall(_POSSESSIVE.sub("", text)):
        if _is_word(piece):
            run.append(piece)
        elif run:
            yield run
            run = []
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
    content = resources.files("helpers.analysis").joinpath("resources", name).read_text(encoding="utf-8")
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
def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words plus the boilerplate list.

    Examples
    --------
    >>> {"the", "we", "propose", "novel"} <= stop_words()
    True
    >>> "transformer" in stop_words()
    False
    """
    # Imported here: scikit-learn takes over a second to import, and pages that only read results never need it.
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS) | boilerplate_words()


@dataclass(frozen=True)
class TokenizedCorpus:
    """Every analysis text as word ids in one flat array, so term counting is vectorised.

    Attributes
    ----------
    paper_ids : ndarray of str
        One per text, in the order given.
    token_ids : ndarray of int32
        Ids into ``vocabulary`` for the whole corpus; id 0 is a boundary
        (punctuation, removed span, number, single letter) and ends every text,
        so no n-gram spans two runs or two papers.
    starts : ndarray of int64
        ``token_ids[starts[i]:starts[i + 1]]`` are the ids of text ``i``.
    vocabulary : ndarray of str
        Distinct word tokens in order of first appearance; ``vocabulary[0]`` is ``"|"``.

    Examples
    --------
    >>> tokens = tokenize_corpus(["graph networks, graph", "the 3 networks"], ["a", "b"])
    >>> tokens.vocabulary.tolist(), tokens.token_ids.tolist()
    (['|', 'graph', 'networks', 'the'], [1, 2, 0, 1, 0, 3, 0, 2, 0])
    >>> tokens.text_index().tolist()
    [0, 0, 0, 0, 0, 1, 1, 1, 1]
    """

    paper_ids: np.ndarray
    token_ids: np.ndarray
    starts: np.ndarray
    vocabulary: np.ndarray

    def __len__(self) -> int:
        return len(self.paper_ids)

    def text_index(self) -> np.ndarray:
        """The index of the text each position of ``token_ids`` belongs to."""
        return np.repeat(np.arange(len(self), dtype=np.int32), np.diff(self.starts))

    def rows(self, start: int, stop: int) -> "TokenizedCorpus":
        """Texts ``start`` to ``stop - 1`` as a corpus of their own, with only the words they use (in the
        order of ``vocabulary``), so each text's tokens are the same words.

        Examples
        --------
        >>> part = tokenize_corpus(["graph networks", "the networks"], ["a", "b"]).rows(1, 2)
        >>> part.paper_ids.tolist(), part.vocabulary.tolist(), part.token_ids.tolist()
        (['b'], ['|', 'networks', 'the'], [2, 1, 0])
        """
        ids = self.token_ids[self.starts[start]:self.starts[stop]]
        used = np.zeros(len(self.vocabulary), dtype=bool)
        used[0] = True
        used[ids] = True
        new_ids = (np.cumsum(used) - 1).astype(np.int32)
        return TokenizedCorpus(paper_ids=self.paper_ids[start:stop], token_ids=new_ids[ids],
                               starts=self.starts[start:stop + 1] - self.starts[start],
                               vocabulary=self.vocabulary[used])


class TokenPartitions(SequenceBase):
    """A corpus's consecutive row ranges as corpora of their own (:meth:`TokenizedCorpus.rows`), each made
    when asked for: a loop over them holds one at a time.

    Examples
    --------
    >>> parts = TokenPartitions(tokenize_corpus(["a graph", "the networks", "graphs"], list("abc")), [(0, 2), (2, 3)])
    >>> len(parts), [part.paper_ids.tolist() for part in parts]
    (2, [['a', 'b'], ['c']])
    """

    def __init__(self, tokens: TokenizedCorpus, bounds: Sequence[tuple[int, int]]) -> None:
        self.tokens, self.bounds = tokens, list(bounds)

    def __len__(self) -> int:
        return len(self.bounds)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return self.tokens.rows(*self.bounds[index])


def _new_piece_ids() -> defaultdict[str, int]:
    """A piece -> id mapping where a new piece gets the next id; the boundary is id 0."""
    piece_ids: defaultdict[str, int] = defaultdict()
    piece_ids.default_factory = piece_ids.__len__
    piece_ids[BOUNDARY.strip()]
    return piece_ids


def _tokenize_chunk(texts: Sequence[str], clean: bool) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Pieces (in first-seen order), their ids for every position, and each text's length."""
    piece_ids = _new_piece_ids()
    flat = array("i")
    lengths = array("q")
    for text in texts:
        if clean:
            text = analysis_text(text)
        if "'s" in text or "’s" in text:
            text = _POSSESSIVE.sub("", text)
        pieces = _PIECE.findall(text)
        pieces.append(BOUNDARY.strip())
        flat.extend(map(piece_ids.__getitem__, pieces))
        lengths.append(len(pieces))
    return list(piece_ids), np.frombuffer(flat, dtype=np.int32), np.frombuffer(lengths, dtype=np.int64)


def tokenize_corpus(texts: Iterable[str], paper_ids: Iterable[str], *, clean: bool = False,
                    n_jobs: int | None = 1) -> TokenizedCorpus:
    """Tokenise analysis texts (:func:`analysis_text`) into a :class:`TokenizedCorpus`.

    The word runs are exactly those of :func:`segments`; a tested equivalence.
    With ``clean=True`` the texts are stored abstracts and :func:`analysis_text`
    is applied first. ``n_jobs`` processes share the work for large corpora
    (:func:`helpers.analysis.engine.local.map_chunks`); the result does not depend on it.
    """
    from helpers.analysis.engine.local import map_chunks

    texts = list(texts)
    return merge_token_chunks(map_chunks(_tokenize_chunk, texts, clean, n_jobs=n_jobs), paper_ids)


def merge_token_chunks(chunks: Sequence[tuple[list[str], np.ndarray, np.ndarray]], paper_ids: Iterable[str]
                       ) -> TokenizedCorpus:
    """The :class:`TokenizedCorpus` of consecutive chunks of texts, each tokenised on its own
    (``_tokenize_chunk``: its pieces in first-seen order, their ids, each text's length), in chunk order.

    The same as tokenising all texts in one piece, however they were cut into chunks (a tested equivalence).
    """
    # Global ids in order of first appearance over the chunks in order: as if run in one piece.
    piece_ids = _new_piece_ids()
    flat_parts, length_parts = [], []
    for pieces, flat, lengths in chunks:
        to_global = np.fromiter(map(piece_ids.__getitem__, pieces), dtype=np.int32, count=len(pieces))
        flat_parts.append(to_global[flat])
        length_parts.append(lengths)
    pieces_in_order = list(piece_ids)
    is_word = np.fromiter(map(_is_word, pieces_in_order), dtype=bool, count=len(pieces_in_order))
    new_ids = np.where(is_word, np.cumsum(is_word), 0).astype(np.int32)
    vocabulary = np.array([BOUNDARY.strip()] + [p for p, w in zip(pieces_in_order, is_word) if w],
                          dtype=object)
    starts = np.zeros(sum(len(lengths) for lengths in length_parts) + 1, dtype=np.int64)
    np.cumsum(np.concatenate(length_parts), out=starts[1:])
    return TokenizedCorpus(
        paper_ids=np.array(list(paper_ids), dtype=object),
        token_ids=new_ids[np.concatenate(flat_parts)],
        starts=starts,
        vocabulary=vocabulary,
    )


def analysis_texts_to_tokens(texts: "TokenizedCorpus | pd.Series") -> TokenizedCorpus:
    """A :class:`TokenizedCorpus` as given, or made from analysis texts indexed by ``paper_id``."""
    if isinstance(texts, TokenizedCorpus):
        return texts
    return tokenize_corpus(texts.tolist(), texts.index.astype(str))
