"""The analysis text: the cleaned, lower-case text that themes and term counts are computed from.

The stored abstract keeps its LaTeX, Markdown, HTML and URLs; :func:`analysis_text`
removes them (keeping the words inside markup), so ``<em>epistemic</em>`` and
``*epistemic*`` count as the same word. The addresses removed are exactly those the
link finder finds (:func:`helpers.analysis.links.urls.find_url_spans`), so ``doi:``
identifiers or ``osf.io/abcde`` never become words. Removed spans, numbers and
punctuation become phrase boundaries (:data:`BOUNDARY`), so no term spans a formula or a sentence end.

Terms keep a field's own words: Web of Science's words for symbols are decoded ("center dot" is ·, a boundary),
an oxidation state written apart is one word ("cu(ii)"), an acronym or formula ending in its own "s" keeps
its capitals so it is never made singular ("PDMS", "GaAs"; :func:`lower_case`), Latin phrases are one word
("in-vitro"), and in an abstract whose punctuation was stripped a compound such as "turn on" is "turn-on" again.
The words are then cut into tokens (:mod:`helpers.analysis.text.tokens`) and noun phrases
(:mod:`helpers.analysis.text.noun_phrases`).
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from typing import Iterator

from helpers.analysis.links.urls import find_url_spans
from helpers.analysis.text.stop_words import _read_word_list, stop_words

__all__ = ["BOUNDARY", "analysis_text", "decode_wos_escapes", "written_as_is", "lower_case", "join_broken_compounds"]

#: What a removed span becomes: a phrase boundary, which no term spans.
BOUNDARY = " | "

# Applied to lower-cased text, so no IGNORECASE (which makes the scan several times slower).
# A citation, "Name et al." (also "et al", "et. al.", "et.al."), with the name: never a term (as in the term map).
_ET_AL = re.compile(r"(?:\b[^\W\d_][\w'-]*\s+)?\bet\.?\s*al\b\.?")
_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$|\\\(.+?\\\)|\\\[.+?\\\]", re.DOTALL)
_MARKDOWN_MARKS = re.compile(r"\*{1,3}|(?<!\w)_{1,2}|_{1,2}(?!\w)|`+|^#+\s", re.MULTILINE)
# Chemical element symbols (lower case): a charged ion or an oxidation state is one token ("hg2+", "cu(ii)").
ELEMENT_SYMBOL = (r"(?:h[efgos]?|l[aiuvr]|b[aehikr]?|c[adeflmnorsu]?|n[abdehiop]?|o[gs]?|f[elmr]?|m[cdgnot]|"
                  r"a[cglmrstu]|s[bcegimnr]?|p[abdmortu]?|k[r]?|t[abcehilms]|v|cr|zn|ga|ge|se|rb|sr|y[b]?|zr|"
                  r"ru|rh|i[nr]?|xe|eu|gd|dy|er|w|re|ir|pt|au|hg|tl|bi|po|rn|fr|ra|th|u|np|pu|ds|ts)")


def analysis_text(text: str) -> str:
    """Clean one abstract for counting.

    NFKC (ligatures, full-width forms), HTML entities decoded, every address the
    link finder finds removed (:func:`_without_urls`), then lower case, citations
    (``Name et al.``), LaTeX math and HTML tags removed (the text inside tags and Markdown links is kept),
    Markdown emphasis marks dropped. Removed spans become a phrase boundary (``|``).

    Parameters
    ----------
    text : str
        One abstract as stored.

    Returns
    -------
    str
        The analysis text, lower case but acronyms and formulas ending in "s" (:func:`lower_case`).

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
_SPACED_OXIDATION_STATE = re.compile(rf"(?<![\w-])(?!(?:in|as|at|no|be|he|hi|is|so|i)\b)({ELEMENT_SYMBOL}) "
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
_FORMULA = re.compile(rf"{ELEMENT_SYMBOL}\d*", re.IGNORECASE)  # one element and its count
_FORMULA_PART = re.compile(r"[A-Z][a-z]?\d*")


# An abstract of at least this many words without a full stop, comma or semicolon had its punctuation stripped.
_MIN_STRIPPED_WORDS = 30


@lru_cache(maxsize=1)
def _broken_compound() -> re.Pattern[str]:
    """The two words of a compound of a word and a stop word, written apart ("turn on"): the tagger lexicon's
    hyphenated words of one word and one stop word ("follow-up", "well-known") and
    ``resources/particle_compounds.txt``."""
    from helpers.analysis.text.lexicon import _lexicon  # lazy: the lexicon is large

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

    Parameters
    ----------
    text : str
        A lower-case text without its punctuation.

    Returns
    -------
    str
        The text with the compounds hyphenated.

    Examples
    --------
    >>> join_broken_compounds("a hg2+ turn on probe with a trade off and a follow up study to turn the key")
    'a hg2+ turn-on probe with a trade-off and a follow-up study to turn the key'
    """
    return _broken_compound().sub(lambda m: m.group().replace(" ", "-"), text)


def decode_wos_escapes(text: str) -> str:
    """The text with Web of Science's words for symbols written as the symbols.

    Parameters
    ----------
    text : str
        An abstract as Web of Science exports it.

    Returns
    -------
    str
        The text with :data:`_WOS_ESCAPE_SYMBOLS`' phrases replaced by their symbols.

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

    Parameters
    ----------
    word : str
        One word as written.

    Returns
    -------
    bool
        ``True`` for an acronym or formula that keeps its capitals and its "s".

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
    with a capital, "of Towns": :func:`helpers.analysis.text.word_classes.word_classes` tells them apart with its
    dictionaries).

    Parameters
    ----------
    text : str
        An abstract, its capitals as written.

    Returns
    -------
    str
        The text lower case but for the words kept as written.

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
