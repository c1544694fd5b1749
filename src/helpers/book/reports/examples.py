"""The examples the method sections give, drawn from the corpus's own terms (never one field's stock examples).

Each function returns Markdown phrases by glue name; where the corpus has no such term, a neutral phrase that
names the pattern instead (the method text reads the same on chemistry, traffic safety or poultry abstracts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from helpers.book.display import markdown_cell

if TYPE_CHECKING:
    from helpers.analysis.cooccurrence import CooccurrenceResult

__all__ = ["N_ACRONYM_EXAMPLES", "phrase_examples", "acronym_examples", "nested_example", "term_examples",
           "theme_examples"]

#: Acronyms quoted with their long forms in the method text.
N_ACRONYM_EXAMPLES = 3


def _code(term: str) -> str:
    """A term as inline code (shown as written; a backtick in a term, which would end the span, is dropped).

    >>> _code("a`b <c>")
    '`ab <c>`'
    """
    return f"`{' '.join(term.replace('`', '').split())}`"


def _by_frequency(terms: pd.DataFrame) -> pd.DataFrame:
    if not {"term", "n_papers"} <= set(terms.columns):  # no term map: no terms to draw examples from
        return pd.DataFrame({"term": pd.Series(dtype=str), "n_papers": pd.Series(dtype=int)})
    return terms.sort_values(["n_papers", "term"], ascending=[False, True], kind="stable")


def phrase_examples(terms: pd.DataFrame) -> dict[str, str]:
    """The term map's own phrases as the examples of how terms are counted: ``co_ex_phrases`` (its two most
    frequent phrases), ``co_ex_shorter`` (the shorter phrases ending in the same noun of the longest of them),
    ``co_ex_of_phrase`` (its most frequent phrase with "of").

    Parameters
    ----------
    terms : DataFrame
        The term map's terms (``term, n_papers``).

    Returns
    -------
    dict
        ``co_ex_phrases``, ``co_ex_shorter`` and ``co_ex_of_phrase``, each the terms in code spans.

    Examples
    --------
    >>> terms = pd.DataFrame({"term": ["crash prediction model", "hazardous material", "crash", "rate of change"],
    ...                       "n_papers": [148, 240, 300, 9]})
    >>> phrase_examples(terms)["co_ex_phrases"], phrase_examples(terms)["co_ex_shorter"]
    ('`hazardous material`, `crash prediction model`', '`prediction model`, `model`')
    >>> phrase_examples(terms)["co_ex_of_phrase"]
    '`rate of change`'
    >>> phrase_examples(pd.DataFrame({"term": ["crash"], "n_papers": [3]}))["co_ex_phrases"]
    'two or three words, such as an adjective and a noun'
    """
    ranked = _by_frequency(terms)
    phrases = [t for t in ranked["term"] if " " in t and " of " not in t]
    of_phrases = [t for t in ranked["term"] if " of " in t]
    shown = phrases[:2]
    longest = max(shown, key=lambda t: len(t.split()), default="")
    words = longest.split()
    shorter = [" ".join(words[i:]) for i in range(1, len(words))]
    return {
        "co_ex_phrases": ", ".join(_code(t) for t in shown) if shown
        else "two or three words, such as an adjective and a noun",
        "co_ex_shorter": ", ".join(_code(t) for t in shorter) if shorter else "the noun alone",
        "co_ex_of_phrase": _code(of_phrases[0]) if of_phrases else "a phrase such as *A of B*",
    }


def acronym_examples(acronyms: pd.DataFrame) -> str:
    """The acronyms the corpus defines most often, each as written with its long form ("average daily traffic
    (AADT)"), or a neutral phrase when it defines none.

    Parameters
    ----------
    acronyms : DataFrame
        The corpus's acronyms (``acronym, long_form, n_papers``).

    Returns
    -------
    str
        Up to :data:`N_ACRONYM_EXAMPLES` acronyms in code spans, or "none in this corpus".

    Examples
    --------
    >>> acronyms = pd.DataFrame({"acronym": ["aadt", "hsm"], "long_form": ["average daily traffic",
    ...                          "highway safety manual"], "n_papers": [6, 9]})
    >>> acronym_examples(acronyms)
    '"highway safety manual (HSM)", "average daily traffic (AADT)"'
    >>> acronym_examples(acronyms.iloc[0:0])
    'a long form followed by its acronym in parentheses; this corpus defines none'
    """
    if acronyms.empty or "long_form" not in acronyms:
        return "a long form followed by its acronym in parentheses; this corpus defines none"
    top = acronyms.sort_values(["n_papers", "acronym"], ascending=[False, True], kind="stable").head(N_ACRONYM_EXAMPLES)
    return ", ".join(f'"{markdown_cell(str(row.long_form))} ({markdown_cell(str(row.acronym).upper())})"'
                     for row in top.itertuples())


def nested_example(merges: pd.DataFrame) -> str:
    """One nested merge of the corpus ("average daily traffic" in "annual average daily traffic"), or a neutral
    phrase when none was folded.

    Parameters
    ----------
    merges : DataFrame
        The term map's merges (``from, to, source``).

    Returns
    -------
    str
        The two terms quoted (escaped), or "none in this corpus".

    Examples
    --------
    >>> merges = pd.DataFrame({"from": ["daily traffic"], "to": ["average daily traffic"], "source": ["nested"]})
    >>> nested_example(merges)
    '"daily traffic" in "average daily traffic"'
    >>> nested_example(merges.iloc[0:0])
    'none in this corpus'
    """
    nested = merges[merges["source"] == "nested"] if len(merges) and "source" in merges else merges.iloc[0:0]
    if nested.empty:
        return "none in this corpus"
    row = nested.assign(_words=nested["to"].str.count(" ")).sort_values(["_words", "to"], kind="stable").iloc[0]
    return f'"{markdown_cell(row["from"])}" in "{markdown_cell(row["to"])}"'


def term_examples(result: "CooccurrenceResult") -> dict[str, str]:
    """Every example of the co-occurrence chapter's method, by glue name (Markdown).

    Parameters
    ----------
    result : CooccurrenceResult
        The term map: its terms, acronyms and merges.

    Returns
    -------
    dict
        :func:`phrase_examples`' values with ``co_ex_acronyms`` and ``co_ex_nested``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> result = SimpleNamespace(terms=pd.DataFrame({"term": ["egg quality"], "n_papers": [5]}),
    ...                          acronyms=pd.DataFrame(columns=["acronym", "long_form", "n_papers"]),
    ...                          merges=pd.DataFrame(columns=["from", "to", "source"]))
    >>> term_examples(result)["co_ex_nested"]
    'none in this corpus'
    """
    return {**phrase_examples(result.terms), "co_ex_acronyms": acronym_examples(result.acronyms),
            "co_ex_nested": nested_example(result.merges)}


def theme_examples(result: "CooccurrenceResult | None") -> dict[str, str]:
    """The examples of the themes chapter's method, from the term map: ``themes_ex_acronym`` (an acronym beside
    its expansion) and ``themes_ex_phrase`` (a phrase shown in place of its own words).

    Parameters
    ----------
    result : CooccurrenceResult or None
        The term map (None: no examples).

    Returns
    -------
    dict
        ``themes_ex_acronym``, ``themes_ex_phrase``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> result = SimpleNamespace(terms=pd.DataFrame({"term": ["crash data", "crash"], "n_papers": [76, 90]}),
    ...                          acronyms=pd.DataFrame({"acronym": ["hsm"], "long_form": ["highway safety manual"],
    ...                                                 "n_papers": [9]}))
    >>> theme_examples(result)
    {'themes_ex_acronym': '`hsm`, `highway safety manual`', 'themes_ex_phrase': '`crash, data, crash data`; the book shows `crash data`'}
    """
    terms = result.terms if result is not None else pd.DataFrame({"term": [], "n_papers": []})
    acronyms = result.acronyms if result is not None else pd.DataFrame()
    two_words = [t for t in _by_frequency(terms)["term"] if len(t.split()) == 2 and " of " not in t]
    if len(acronyms) and "long_form" in acronyms:
        top = acronyms.sort_values(["n_papers", "acronym"], ascending=[False, True], kind="stable").iloc[0]
        acronym = f"{_code(str(top['acronym']))}, {_code(str(top['long_form']))}"
    else:
        acronym = "an acronym and the words it stands for"
    if two_words:
        first, second = two_words[0].split()
        phrase = f"{_code(f'{first}, {second}, {two_words[0]}')}; the book shows {_code(two_words[0])}"
    else:
        phrase = "the two words of a phrase beside the phrase; the book shows the phrase"
    return {"themes_ex_acronym": acronym, "themes_ex_phrase": phrase}
