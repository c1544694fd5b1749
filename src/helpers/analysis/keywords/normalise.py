"""Authors' keywords as one spelling each: case, plural, hyphen and space variants merged, then the vocabulary.

A paper's keywords are the ``; ``-separated ``keywords`` cell of ``papers.csv`` (Web of Science ``DE``, Scopus
``Author Keywords``, PubMed ``OT``, BibTeX ``keywords``). Each is written as the term map writes a term
(:func:`keyword_form`: lower case, hyphens kept, the head noun singular as
:func:`helpers.analysis.text.word_classes.fold_phrase` makes it), so the researcher's thesaurus and stop terms read
them as terms; forms that differ only by spaces and hyphens (``multi-criteria``, ``multi criteria``,
``multicriteria``) are one keyword, spelt as most papers spell it (:func:`keyword_table`).
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Protocol, Sequence, runtime_checkable

import pandas as pd

from helpers.analysis.text.word_classes import fold_phrase

__all__ = ["TermEdits", "keyword_form", "compact_form", "split_keywords", "keyword_table", "edit_function"]

# Dashes written between words are hyphens ("end–of–life"); underscores and runs of white space are one space.
_DASHES = re.compile(r"[\u2010\u2011\u2012\u2013\u2014]")
_SPACES = re.compile(r"[\s_]+")
_HYPHEN_SPACES = re.compile(r" ?- ?")
# Punctuation around a whole keyword (a trailing full stop, quotes, MeSH's star of a major topic) is no part of it.
_EDGES = " \t\"'.,;:`*\u201c\u201d\u2018\u2019"


@runtime_checkable
class TermEdits(Protocol):
    """The researcher's vocabulary (thesaurus and stop terms): ``apply(term)`` gives the term to count instead,
    or ``None`` to leave it out.

    Methods
    -------
    apply(term)
        The replacement of ``term`` (itself when unchanged), ``None`` when it is a stop term.

    Examples
    --------
    >>> from helpers.analysis.text.vocabulary import VocabularyEdits
    >>> isinstance(VocabularyEdits(frozenset({"study"}), {}), TermEdits)
    True
    """

    def apply(self, term: str) -> str | None:
        """The replacement of ``term`` (itself when unchanged), ``None`` when it is a stop term."""


def edit_function(vocabulary: TermEdits | Callable[[str], str | None] | None) -> Callable[[str], str | None]:
    """One function from a vocabulary object (with ``apply``), a plain function, or ``None`` (no edits).

    A vocabulary that lists its terms (``stop`` and ``replace``, as
    :class:`helpers.analysis.text.vocabulary.VocabularyEdits` does) also matches a keyword spelt with spaces and hyphens
    otherwise (:func:`compact_form`), as keywords are merged: ``laying-hen`` in a thesaurus edits ``laying hen``.

    Parameters
    ----------
    vocabulary : TermEdits, callable or None
        The researcher's thesaurus and stop terms.

    Returns
    -------
    callable
        ``edit(term) -> str | None``.

    Examples
    --------
    >>> edit_function(None)("phage")
    'phage'
    >>> edit_function({"bacteriophage": "phage"}.get)("bacteriophage")
    'phage'
    >>> from types import SimpleNamespace
    >>> edits = SimpleNamespace(stop=frozenset({"study"}), replace={"laying-hen": "chicken"},
    ...                         apply=lambda t: None if t == "study" else {"laying-hen": "chicken"}.get(t, t))
    >>> [edit_function(edits)(t) for t in ["laying hen", "layinghen", "study", "broiler"]]
    ['chicken', 'chicken', None, 'broiler']
    """
    if vocabulary is None:
        return lambda term: term
    apply = getattr(vocabulary, "apply", None)
    if not callable(apply):
        return vocabulary  # type: ignore[return-value]
    labels = [*getattr(vocabulary, "stop", ()), *getattr(vocabulary, "replace", {})]
    by_compact = {compact_form(label): label for label in sorted(labels)}

    def edit(term: str) -> str | None:
        if term in labels:
            return apply(term)
        return apply(by_compact.get(compact_form(term), term))

    return edit


def split_keywords(cell: object) -> list[str]:
    """The keywords of one ``keywords`` cell, as written, in order, blanks left out.

    Parameters
    ----------
    cell : object
        A ``keywords`` cell (a str; anything else has no keywords).

    Returns
    -------
    list of str

    Examples
    --------
    >>> split_keywords("Circular economy;  Life cycle assessment; ;")
    ['Circular economy', 'Life cycle assessment']
    >>> split_keywords(None), split_keywords(float("nan"))
    ([], [])
    """
    if not isinstance(cell, str):
        return []
    return [keyword for keyword in (part.strip(_EDGES) for part in cell.split(";")) if keyword]


def keyword_form(keyword: str) -> str:
    """A keyword in one spelling: lower case, dashes as hyphens (spaces around a hyphen dropped), its last word
    (the head noun) singular as the term map makes nouns singular (a word written as is, such as ``VOSviewer``,
    only lowered). Words before the head keep their number (``systems thinking``), and hyphens stay, as the term
    map and the thesaurus spell terms (``decision-making``).

    Parameters
    ----------
    keyword : str
        A keyword as written.

    Returns
    -------
    str

    Examples
    --------
    >>> [keyword_form(k) for k in ["Circular Economies", "multi-criteria decision analysis", "Broiler chickens."]]
    ['circular economy', 'multi-criteria decision analysis', 'broiler chicken']
    >>> keyword_form("Road–traffic  injuries"), keyword_form("acute-on- chronic"), keyword_form("VOSviewer")
    ('road-traffic injury', 'acute-on-chronic', 'vosviewer')
    >>> keyword_form("Heat-stresses")
    'heat-stress'
    """
    text = _SPACES.sub(" ", _DASHES.sub("-", keyword.strip(_EDGES))).strip()
    text = _HYPHEN_SPACES.sub("-", text)
    words = text.split(" ") if text else []
    if not words:
        return ""
    *head, last = words[-1].split("-")
    last = fold_phrase([last]) if last else last
    return " ".join([word.lower() for word in words[:-1]] + ["-".join([part.lower() for part in head] + [last])])


def compact_form(form: str) -> str:
    """A form without its spaces and hyphens: forms equal so are one keyword.

    Parameters
    ----------
    form : str
        A keyword's form (:func:`keyword_form`).

    Returns
    -------
    str

    Examples
    --------
    >>> compact_form("multi-criteria analysis") == compact_form("multicriteria analysis")
    True
    """
    return form.replace(" ", "").replace("-", "")


def keyword_table(cells: Sequence[object], edit: Callable[[str], str | None] | None = None) -> pd.DataFrame:
    """Every keyword as written, the keyword it is counted as, and the papers that write it so.

    Forms (:func:`keyword_form`) that differ only by spaces and hyphens are one keyword, spelt as most papers
    write it (ties: the form with more spaces and hyphens, then alphabetical). ``edit`` (the vocabulary,
    :func:`edit_function`) is asked about each of the keyword's forms, its spelling first, each also as the term map
    spells terms (:func:`_term_spellings`): the first it replaces (or, returning ``None``, leaves out) decides, so a
    thesaurus may name any of them. A replacement is written by
    :func:`keyword_form` too.

    Parameters
    ----------
    cells : sequence
        The papers' ``keywords`` cells (``; ``-separated; empty or missing allowed).
    edit : callable, optional
        The vocabulary (:func:`edit_function`): ``edit(term) -> str | None``.

    Returns
    -------
    DataFrame
        ``written, keyword, n_papers`` (``keyword`` is ``""`` for a stopped keyword), one row per written
        form, sorted by keyword then written form; ``n_papers`` counts each paper once.

    Examples
    --------
    >>> table = keyword_table(["Multi-criteria analysis; Broilers", "multicriteria analysis", "broiler; Study"],
    ...                       edit=lambda k: None if k == "study" else k)
    >>> table.values.tolist()
    [['Study', '', 1], ['Broilers', 'broiler', 1], ['broiler', 'broiler', 1], ['Multi-criteria analysis', 'multi-criteria analysis', 1], ['multicriteria analysis', 'multi-criteria analysis', 1]]
    >>> thesaurus = {"lifecycle": "life cycle assessment"}
    >>> keyword_table(["LCA; Life cycle", "lifecycle"], edit=lambda k: thesaurus.get(k, k)).values.tolist()
    [['LCA', 'lca', 1], ['Life cycle', 'life cycle assessment', 1], ['lifecycle', 'life cycle assessment', 1]]
    """
    written_papers: dict[str, int] = {}
    for cell in cells:
        for written in set(split_keywords(cell)):
            written_papers[written] = written_papers.get(written, 0) + 1
    forms = {written: keyword_form(written) for written in written_papers}
    form_papers: dict[str, int] = {}
    for written, count in written_papers.items():
        form_papers[forms[written]] = form_papers.get(forms[written], 0) + count
    groups: dict[str, list[str]] = {}
    for form in sorted(form_papers, key=lambda f: (-form_papers[f], -_separators(f), f)):
        groups.setdefault(compact_form(form), []).append(form)  # each group's spelling first
    # A vocabulary's labels are spelt as the term map spells terms (every noun singular): each form is asked
    # about in that spelling too, so a label copied from keywords.csv matches.
    as_terms = _term_spellings(list(form_papers)) if edit is not None else {}
    edited: dict[str, str] = {}
    for members in groups.values():
        keyword: str | None = members[0]
        if edit is not None:
            for candidate in dict.fromkeys(c for form in members for c in (form, as_terms[form])):
                replaced = edit(candidate)
                if replaced != candidate:
                    keyword = None if replaced is None else keyword_form(replaced)
                    break
        edited.update({form: keyword or "" for form in members})
    rows = [(written, edited[forms[written]], count) for written, count in written_papers.items()]
    table = pd.DataFrame(rows, columns=["written", "keyword", "n_papers"]).astype({"n_papers": "int64"})
    return table.sort_values(["keyword", "written"], ignore_index=True)


def _term_spellings(forms: list[str]) -> dict[str, str]:
    """Each form as the term map and the vocabulary files spell terms
    (:func:`helpers.analysis.text.vocabulary.normalise_terms`: every noun singular); a form it empties stays as
    it is."""
    from helpers.analysis.text.vocabulary import normalise_terms  # lazy: it loads the term dictionaries

    return {form: spelled or form for form, spelled in zip(forms, normalise_terms(forms))}


def _separators(form: str) -> int:
    """The spaces and hyphens of a form (the tie-break of a keyword's spelling)."""
    return form.count(" ") + form.count("-")


def paper_keyword_sets(cells: Iterable[object], table: pd.DataFrame) -> list[set[str]]:
    """Each paper's keywords as counted (:func:`keyword_table`'s ``keyword``), each once, stopped ones left out.

    Parameters
    ----------
    cells : iterable
        The papers' ``keywords`` cells.
    table : DataFrame
        :func:`keyword_table` of the same cells.

    Returns
    -------
    list of set of str

    Examples
    --------
    >>> cells = ["Broilers; Heat stress", "broiler; Study"]
    >>> sets = paper_keyword_sets(cells, keyword_table(cells, edit=lambda k: None if k == "study" else k))
    >>> [sorted(keywords) for keywords in sets]
    [['broiler', 'heat stress'], ['broiler']]
    """
    counted = dict(zip(table["written"], table["keyword"]))
    return [{counted[written] for written in split_keywords(cell) if counted.get(written)} for cell in cells]
