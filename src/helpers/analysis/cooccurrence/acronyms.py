"""Acronyms the abstracts define, found by the Schwartz-Hearst algorithm, and the merges they make.

:func:`acronym_definitions` finds each definition ("Graph Neural Networks (GNNs)"),
:func:`find_acronyms` and :func:`acronym_table` say where each acronym is replaced by its long form
(every abstract, or only those that define it), :func:`acronym_merges` gives the merges that
:mod:`.candidates` applies.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

import numpy as np
import pandas as pd

from helpers.analysis.text.word_classes import fold_phrase

__all__ = ["CHEMICAL_ELEMENTS", "element_definitions", "abbreviation_pairs", "MIN_CORPUS_WIDE_DEFINITIONS", "DOMINANT_LONG_FORM_SHARE", "schwartz_hearst_long_form",
           "acronym_definitions", "find_acronyms", "acronym_table", "acronym_merges"]

#: Symbol and name of every chemical element, for definitions such as "mercury (Hg)" that no initials spell.
CHEMICAL_ELEMENTS = dict(pair.split(":") for pair in (
    "H:hydrogen He:helium Li:lithium Be:beryllium B:boron C:carbon N:nitrogen O:oxygen F:fluorine Ne:neon "
    "Na:sodium Mg:magnesium Al:aluminium Si:silicon P:phosphorus S:sulfur Cl:chlorine Ar:argon K:potassium "
    "Ca:calcium Sc:scandium Ti:titanium V:vanadium Cr:chromium Mn:manganese Fe:iron Co:cobalt Ni:nickel "
    "Cu:copper Zn:zinc Ga:gallium Ge:germanium As:arsenic Se:selenium Br:bromine Kr:krypton Rb:rubidium "
    "Sr:strontium Y:yttrium Zr:zirconium Nb:niobium Mo:molybdenum Tc:technetium Ru:ruthenium Rh:rhodium "
    "Pd:palladium Ag:silver Cd:cadmium In:indium Sn:tin Sb:antimony Te:tellurium I:iodine Xe:xenon Cs:cesium "
    "Ba:barium La:lanthanum Ce:cerium Pr:praseodymium Nd:neodymium Pm:promethium Sm:samarium Eu:europium "
    "Gd:gadolinium Tb:terbium Dy:dysprosium Ho:holmium Er:erbium Tm:thulium Yb:ytterbium Lu:lutetium "
    "Hf:hafnium Ta:tantalum W:tungsten Re:rhenium Os:osmium Ir:iridium Pt:platinum Au:gold Hg:mercury "
    "Tl:thallium Pb:lead Bi:bismuth Po:polonium At:astatine Rn:radon Fr:francium Ra:radium Ac:actinium "
    "Th:thorium Pa:protactinium U:uranium Np:neptunium Pu:plutonium Am:americium Cm:curium Bk:berkelium "
    "Cf:californium Es:einsteinium Fm:fermium Md:mendelevium No:nobelium Lr:lawrencium").split())
_ELEMENT_NAMES = {name: symbol for symbol, name in CHEMICAL_ELEMENTS.items()} | {
    "aluminum": "Al", "sulphur": "S", "caesium": "Cs"}
# An element's name, then its symbol in parentheses, perhaps with a charge or oxidation state: "mercury (Hg2+)".
_ELEMENT_PAREN = re.compile(r"\b([A-Za-z]+)(?:\s+ions?)?\s*\(\s*([A-Z][a-z]?)(?:\d*[+-]|\([IVX]+\)|\s*[IVX]+)?\s*\)")


def element_definitions(texts: Iterable[str]) -> set[tuple[str, str]]:
    """``(symbol, name)`` of each chemical element the texts define by its symbol in parentheses, both lower case.

    Parameters
    ----------
    texts : iterable of str
        The abstracts as written (the symbol's capitals matter: ``Hg``, not ``hg``).

    Returns
    -------
    set of tuple of str

    Examples
    --------
    >>> sorted(element_definitions(["Mercury (Hg2+) and lead (Pb) ions", "copper ions (Cu(II))", "a cat (Ca)"]))
    [('cu', 'copper'), ('hg', 'mercury'), ('pb', 'lead')]
    """
    found: set[tuple[str, str]] = set()
    for text in texts:
        if "(" not in text:
            continue
        for name, symbol in _ELEMENT_PAREN.findall(text):
            if _ELEMENT_NAMES.get(name.lower()) == symbol:
                found.add((symbol.lower(), name.lower()))
    return found


def abbreviation_pairs(acronyms: pd.DataFrame, texts: Iterable[str] = ()) -> set[frozenset[str]]:
    """Pairs of terms the abstracts define as one thing: each acronym and its long form (``acronyms``:
    ``acronym, long_form``, :func:`find_acronyms`) and each chemical element and its symbol in ``texts``
    (:func:`element_definitions`), folded as terms are.

    Parameters
    ----------
    acronyms : DataFrame
        ``acronym, long_form`` (:func:`find_acronyms`).
    texts : iterable of str
        The abstracts as written, for the chemical elements.

    Returns
    -------
    set of frozenset of str

    Examples
    --------
    >>> table = find_acronyms(["Polyaniline (PANI) films.", "Mercury (Hg) sensing."])
    >>> sorted(sorted(pair) for pair in abbreviation_pairs(table, ["Mercury (Hg) sensing."]))
    [['hg', 'mercury'], ['pani', 'polyaniline']]
    """
    pairs = {frozenset((str(a), str(b))) for a, b in zip(acronyms["acronym"], acronyms["long_form"]) if a != b}
    pairs |= {frozenset((fold_phrase([symbol]), fold_phrase([name]))) for symbol, name in element_definitions(texts)}
    return pairs


# An acronym renames its letters in every abstract only when at least this many abstracts define it, all alike.
MIN_CORPUS_WIDE_DEFINITIONS = 2
# ... and when its most frequent long form holds at least this share of its definitions.
DOMINANT_LONG_FORM_SHARE = 2 / 3


# An acronym in parentheses, then the 1-8 words just before it. Searching for the parenthesis
# first and looking back is much faster than one pattern that starts at every word.
_ACRONYM_PAREN = re.compile(r"\(\s*([A-Z][A-Za-z0-9-]*?[A-Z][A-Za-z0-9-]*?)(s?)\s*\)")


_WORD = re.compile(r"[^\W\d_][\w'-]*")


_POSSESSIVE = re.compile(r"'s?$")


_WORD_SUFFIX = re.compile(r"[^\W\d_][\w'-]*$")


_LOOK_BACK = 400


_MAX_WORDS_BEFORE = 8


def _words_before(text: str, end: int) -> list[str]:
    """The up to 8 words separated by white space that end just before ``text[end]``.

    The first of them may be the tail of a longer piece (``(deep`` gives ``deep``).

    Examples
    --------
    >>> _words_before("see (deep neural networks (DNNs)", 26)
    ['deep', 'neural', 'networks']
    >>> _words_before("networks, (N)", 10)
    []
    """
    chunk = text[max(0, end - _LOOK_BACK):end]
    if not chunk or not chunk[-1].isspace():
        return []
    words: list[str] = []
    for piece in reversed(chunk.split()):
        if len(words) == _MAX_WORDS_BEFORE:
            break
        if _WORD.fullmatch(piece):
            words.append(piece)
            continue
        tail = _WORD_SUFFIX.search(piece)
        if tail:
            words.append(tail.group())
        break
    return words[::-1]


def schwartz_hearst_long_form(short_form: str, text: str) -> str | None:
    """The long form of ``short_form`` at the end of ``text`` by Schwartz and Hearst's rule, or ``None``.

    The short form's letters and digits are matched right to left, each to the
    nearest same character (case ignored) further left in ``text``, and the
    first one must begin a word (after a space, a hyphen or the start); the
    long form runs from the start of that word to the end of ``text``
    (``findBestLongForm`` of Schwartz and Hearst, 2003). Unlike a match of
    initials only, a letter may sit inside a word (``RLHF``: reinforcement
    learning from human feedback), and words such as ``of`` may carry one.

    Parameters
    ----------
    short_form : str
        The acronym as written (``RLHF``).
    text : str
        The words just before it.

    Returns
    -------
    str or None

    References
    ----------
    Schwartz, A. S., and Hearst, M. A. (2003). A simple algorithm for identifying abbreviation
    definitions in biomedical text. Pacific Symposium on Biocomputing, 8, 451-462.

    Examples
    --------
    >>> schwartz_hearst_long_form("HSF", "the Heat shock transcription factor")
    'Heat shock transcription factor'
    >>> schwartz_hearst_long_form("RLHF", "via reinforcement learning from human feedback")
    'reinforcement learning from human feedback'
    >>> schwartz_hearst_long_form("MoE", "a sparse Mixture of Experts")
    'Mixture of Experts'
    >>> schwartz_hearst_long_form("CoT", "with chain-of-thought")
    'chain-of-thought'
    >>> schwartz_hearst_long_form("GNN", "we study networks") is None
    True
    """
    s_index, l_index = len(short_form) - 1, len(text) - 1
    while s_index >= 0:
        char = short_form[s_index].lower()
        if not char.isalnum():
            s_index -= 1
            continue
        while l_index >= 0 and (text[l_index].lower() != char
                                or (s_index == 0 and l_index > 0 and text[l_index - 1].isalnum())):
            l_index -= 1
        if l_index < 0:
            return None
        l_index -= 1
        s_index -= 1
    start = text.rfind(" ", 0, l_index + 1) + 1
    return text[start:]


def acronym_definitions(texts: Iterable[str]) -> pd.DataFrame:
    """Every acronym definition, as ``row, acronym, long_form`` (one row per text and acronym).

    An acronym is a word in parentheses with at least two capitals ("(GNNs)",
    "(CoT)"); its long form is found among the ``min(|A| + 5, 2 |A|)`` words just
    before it (``|A|`` its characters) by :func:`schwartz_hearst_long_form`, and must
    be longer than the acronym.

    Parameters
    ----------
    texts : iterable of str
        The abstracts as written.

    Returns
    -------
    DataFrame
        ``row`` (the text's position), ``acronym`` and ``long_form``, both folded as terms are.

    Examples
    --------
    >>> acronym_definitions(["We train Graph Neural Networks (GNNs).", "No acronym here (XYZ).",
    ...                      "Reinforcement learning from human feedback (RLHF) and Mixture-of-Experts (MoE)."])
       row acronym                                   long_form
    0    0     gnn                        graph neural network
    1    2    rlhf  reinforcement learning from human feedback
    2    2     moe                           mixture-of-expert
    """
    found: list[tuple[int, str, str]] = []
    for row, text in enumerate(texts):
        if "(" not in text:
            continue
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
        seen: set[tuple[str, str]] = set()
        for match in _ACRONYM_PAREN.finditer(text):
            short_form = match.group(1)
            words = _words_before(text, match.start())
            window = min(len(short_form) + 5, 2 * len(short_form))
            if not words:
                continue
            long_text = schwartz_hearst_long_form(short_form, " ".join(words[-window:]))
            if long_text is None or len(long_text) <= len(short_form):
                continue
            acronym = fold_phrase([short_form])
            long_form = fold_phrase(_POSSESSIVE.sub("", word) for word in long_text.split())
            if acronym != long_form and (acronym, long_form) not in seen:
                seen.add((acronym, long_form))
                found.append((row, acronym, long_form))
    return pd.DataFrame(found, columns=["row", "acronym", "long_form"]).astype(
        {"row": "int64", "acronym": object, "long_form": object})


def find_acronyms(texts: Iterable[str]) -> pd.DataFrame:
    """Acronyms defined in the texts: ``acronym, long_form, n_papers, scope``.

    ``long_form`` is the most frequent definition (then the alphabetically
    first); ``scope`` says where the acronym is replaced by it: ``corpus`` when
    at least ``MIN_CORPUS_WIDE_DEFINITIONS`` abstracts define it with that long
    form and they are at least ``DOMINANT_LONG_FORM_SHARE`` of its definitions,
    ``defining abstracts`` otherwise (one "Adaptive Robust Method
    (ARM)" must not rename every bandit's ``arm``).

    Parameters
    ----------
    texts : iterable of str
        The abstracts as written; an acronym defined in several counts once a text.

    Returns
    -------
    DataFrame
        One row per acronym, by acronym.

    Examples
    --------
    >>> find_acronyms(["Graph Neural Networks (GNNs) scale.",
    ...                "Graph neural networks (GNN) and an Adaptive Robust Method (ARM)."])
      acronym               long_form  n_papers               scope
    0     arm  adaptive robust method         1  defining abstracts
    1     gnn    graph neural network         2              corpus
    """
    return acronym_table(acronym_definitions(texts))


def acronym_table(definitions: pd.DataFrame) -> pd.DataFrame:
    """:func:`find_acronyms` of definitions already found: one row per acronym.

    Parameters
    ----------
    definitions : DataFrame
        ``row, acronym, long_form`` (:func:`acronym_definitions`).

    Returns
    -------
    DataFrame
        ``acronym, long_form, n_papers, scope``.

    Examples
    --------
    >>> acronym_table(acronym_definitions(["Heat stress (HS) in broilers."])).values.tolist()
    [['hs', 'heat stress', 1, 'defining abstracts']]
    """
    if definitions.empty:
        return pd.DataFrame({"acronym": pd.Series(dtype=object), "long_form": pd.Series(dtype=object),
                             "n_papers": pd.Series(dtype="int64"), "scope": pd.Series(dtype=object)})
    counts = definitions.groupby(["acronym", "long_form"]).size().rename("n_papers").reset_index()
    counts = counts.sort_values(["acronym", "n_papers", "long_form"], ascending=[True, False, True])
    total = counts.groupby("acronym")["n_papers"].transform("sum")
    dominant = counts["n_papers"] >= DOMINANT_LONG_FORM_SHARE * total
    counts["scope"] = np.where(dominant & (counts["n_papers"] >= MIN_CORPUS_WIDE_DEFINITIONS), "corpus",
                               "defining abstracts")
    counts["n_papers"] = total
    return counts.drop_duplicates("acronym").reset_index(drop=True)


def acronym_merges(definitions: pd.DataFrame, thesaurus: dict[str, str]) -> tuple[dict[str, str], pd.DataFrame]:
    """``(corpus-wide merges, per-abstract merges)`` from :func:`acronym_definitions`.

    Corpus-wide: acronyms whose ``scope`` is ``corpus`` (:func:`find_acronyms`).
    Per abstract (``row, from, to``): every other acronym, in the abstracts that
    define it, each with its own long form. The thesaurus applies to the long form.

    Parameters
    ----------
    definitions : DataFrame
        :func:`acronym_definitions`.
    thesaurus : dict of str to str
        Merges applied to the long forms.

    Returns
    -------
    dict of str to str, DataFrame

    Examples
    --------
    >>> definitions = acronym_definitions(["Heat stress (HS) in broilers.", "Heat stress (HS) lowers intake.",
    ...                                    "An Adaptive Robust Method (ARM)."])
    >>> corpus_wide, local = acronym_merges(definitions, {})
    >>> corpus_wide, local.values.tolist()
    ({'hs': 'heat stress'}, [[2, 'arm', 'adaptive robust method']])
    """
    table = acronym_table(definitions)
    corpus_wide = table[table["scope"] == "corpus"]
    merges = {a: thesaurus.get(long, long) for a, long in zip(corpus_wide["acronym"], corpus_wide["long_form"])}
    local = definitions[~definitions["acronym"].isin(merges)].rename(columns={"acronym": "from", "long_form": "to"})
    local = local.assign(to=local["to"].map(lambda long: thesaurus.get(long, long)))
    return merges, local[["row", "from", "to"]].reset_index(drop=True)
