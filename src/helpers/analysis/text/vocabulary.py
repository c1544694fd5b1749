"""The researcher's own vocabulary as edits of terms: terms removed and terms replaced, applied to term counts.

:class:`VocabularyEdits` holds the edits of a thesaurus and a stop-term file (read by
:mod:`helpers.analysis.text.vocabulary_files`); :meth:`VocabularyEdits.apply` edits one term and
:meth:`VocabularyEdits.edit_columns` a texts x terms count matrix (a removed term's column dropped, the columns
of terms replaced by one term summed into it), the edge every analysis applies them at (the term map's and the
themes' per-paper counts). Every term a person writes is spelled as the analysis spells terms (lower case, a
noun's singular, hyphens kept: :func:`normalise_terms`), so "Bacteriophages" matches the term "bacteriophage",
and matched whole, as VOSviewer matches it: removing "study" leaves "case study".

:func:`left_out_words` lists the words of the project's own boilerplate list that no analysis counts, so a
reader sees what was left out beside the researcher's own edits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.settings import SettingsError

if TYPE_CHECKING:
    from helpers.analysis.text.tokens import TokenizedCorpus

__all__ = ["VocabularyError", "EditFile", "VocabularyEdits", "normalise_terms", "combine", "left_out_words",
           "add_up_left_out", "BUILT_IN_STOP_WORD"]


class VocabularyError(SettingsError):
    """A malformed thesaurus or stop-term file: one line naming the file and the line.

    Attributes
    ----------
    setting : None
        Not one setting's value: the file is named in the message.

    Examples
    --------
    >>> str(VocabularyError("stop.txt: line 2: a tab in a stop-term file"))
    'stop.txt: line 2: a tab in a stop-term file'
    """


@dataclass(frozen=True)
class EditFile:
    """One file of edits as read.

    Attributes
    ----------
    kind : str
        ``"thesaurus"`` or ``"stop terms"``.
    name : str
        The file's name as given.
    sha256 : str
        SHA-256 of its bytes.
    labels : frozenset of str
        The terms it edits, spelled as the analysis spells terms (:func:`normalise_terms`).

    Examples
    --------
    >>> EditFile("stop terms", "stop.txt", "ab12", frozenset({"study"})).as_dict()
    {'kind': 'stop terms', 'file': 'stop.txt', 'sha256': 'ab12'}
    """

    kind: str
    name: str
    sha256: str
    labels: frozenset[str]

    def as_dict(self) -> dict[str, str]:
        """The file as the Reproduce page and the cache key show it (kind, name, SHA-256)."""
        return {"kind": self.kind, "file": self.name, "sha256": self.sha256}


@dataclass(frozen=True)
class VocabularyEdits:
    """Terms removed and terms replaced, from the files in ``sources``.

    Attributes
    ----------
    stop : frozenset of str
        Terms that appear nowhere.
    replace : mapping of str to str
        Term -> the term it is counted as (chains resolved: never a key of itself, never a stopped term).
    sources : tuple of EditFile
        The files, in the order given.

    Examples
    --------
    >>> edits = VocabularyEdits(frozenset({"study"}), {"bacteriophage": "phage"})
    >>> [edits.apply(t) for t in ["study", "bacteriophage", "phage", "case study"]]
    [None, 'phage', 'phage', 'case study']
    """

    stop: frozenset[str] = frozenset()
    replace: Mapping[str, str] = field(default_factory=dict)
    sources: tuple[EditFile, ...] = ()

    def __hash__(self) -> int:
        return hash((self.stop, tuple(sorted(self.replace.items())), self.sources))

    @property
    def empty(self) -> bool:
        """Whether no term is edited."""
        return not self.stop and not self.replace

    def apply(self, term: str) -> str | None:
        """The term ``term`` is counted as, or ``None`` when it is removed."""
        if term in self.stop:
            return None
        return self.replace.get(term, term)

    def edit_columns(self, counts: sparse.spmatrix, terms: np.ndarray) -> tuple[sparse.csr_matrix, np.ndarray]:
        """A texts x ``terms`` count matrix with the edits applied: removed terms' columns dropped, the columns of
        terms counted as one term summed into one column; the terms sorted (column order).

        Examples
        --------
        >>> edits = VocabularyEdits(frozenset({"study"}), {"bacteriophage": "phage"})
        >>> X = sparse.csr_matrix(np.array([[1, 2, 1], [0, 1, 3]]))
        >>> counts, terms = edits.edit_columns(X, np.array(["bacteriophage", "phage", "study"], dtype=object))
        >>> terms.tolist(), counts.toarray().tolist()
        (['phage'], [[3], [1]])
        """
        terms = np.asarray(terms, dtype=object)
        if self.empty or not len(terms):
            return sparse.csr_matrix(counts), terms
        edited = [self.apply(str(term)) for term in terms]
        if all(new == str(old) for new, old in zip(edited, terms)):
            return sparse.csr_matrix(counts), terms
        kept = np.array([new is not None for new in edited], dtype=bool)
        names, column = np.unique(np.array([new for new in edited if new is not None], dtype=str),
                                  return_inverse=True)
        combine = sparse.csr_matrix((np.ones(int(kept.sum()), dtype=np.int64),
                                     (np.flatnonzero(kept), column.ravel())), shape=(len(terms), len(names)))
        result = sparse.csr_matrix(sparse.csr_matrix(counts) @ combine.astype(counts.dtype))
        result.sum_duplicates()
        result.sort_indices()
        return result, names.astype(object)

    def changed(self, terms: Iterable[str]) -> dict[str, str | None]:
        """The terms of ``terms`` the edits change, each with what it becomes (``None``: removed), sorted.

        Examples
        --------
        >>> VocabularyEdits(frozenset({"study"}), {"bacteriophage": "phage"}).changed(["phage", "study", "bacteriophage"])
        {'bacteriophage': 'phage', 'study': None}
        """
        return {term: self.apply(term) for term in sorted(set(terms)) if self.apply(term) != term}

    def changed_by_file(self, terms: Iterable[str]) -> list[int]:
        """For each file of ``sources``, how many of ``terms`` it changes (removes or replaces)."""
        changed = set(self.changed(terms))
        return [len(changed & source.labels) for source in self.sources]

    def as_dict(self) -> list[dict[str, str]]:
        """The files as settings (:meth:`EditFile.as_dict`): their contents are in the cache key by SHA-256."""
        return [source.as_dict() for source in self.sources]


def normalise_terms(labels: Sequence[str]) -> list[str]:
    """Terms written by a person, spelled as the analysis spells terms: the abstracts' cleaning
    (:func:`helpers.analysis.text.cleaning.analysis_text`: lower case but acronyms), each word as the term map folds it,
    the last word (a term's head noun) in its singular; hyphens kept. A label with no word stays lower case.

    Parameters
    ----------
    labels : sequence of str
        Terms as a person wrote them.

    Returns
    -------
    list of str
        Each term as the analysis spells it, in the order given.

    Examples
    --------
    >>> normalise_terms(["Bacteriophages", "Road Traffic Accidents", "decision-making", "LLMs", "PDMS", "Results"])
    ['bacteriophage', 'road traffic accident', 'decision-making', 'llm', 'pdms', 'result']
    """
    from helpers.analysis.text.cleaning import analysis_text, written_as_is
    from helpers.analysis.text.lexicon import singular  # lazy: the dictionaries are large
    from helpers.analysis.text.tokens import segments
    from helpers.analysis.text.word_classes import word_classes

    words_of = [[word for run in segments(analysis_text(" ".join(str(label).split()))) for word in run]
                for label in labels]
    vocabulary = ["|"] + sorted({word for words in words_of for word in words})
    folded = dict(zip(vocabulary, word_classes(vocabulary).folded.tolist()))
    spelled = []
    for label, words in zip(labels, words_of):
        if not words:
            spelled.append(" ".join(str(label).lower().split()))
            continue
        parts = [str(folded[word]) for word in words]
        last = words[-1]
        if parts[-1] == last and last.islower() and not written_as_is(last):
            parts[-1] = singular(last)
        spelled.append(" ".join(part.lower() for part in parts))
    return spelled


def _resolve_chains(replace: dict[str, str], stop: set[str], name: str, line_of: Mapping[str, int]
                    ) -> dict[str, str]:
    """Each replacement followed to its end (``a -> b``, ``b -> c``: ``a -> c``); a circle is an error."""
    resolved: dict[str, str] = {}
    for label in replace:
        seen = [label]
        target = replace[label]
        while target in replace:
            if target in seen:
                raise VocabularyError(f"{name}: line {line_of[label]}: replacements go round in a circle "
                                      f"({' -> '.join([*seen, target])})")
            seen.append(target)
            target = replace[target]
        if target in stop:
            stop.add(label)
        else:
            resolved[label] = target
    return {label: target for label, target in resolved.items() if label not in stop}


def combine(*edits: VocabularyEdits) -> VocabularyEdits:
    """Several files' edits as one: a term removed by any is removed; a replacement followed through the
    others' (``a -> b`` then ``b -> c``: ``a -> c``).

    Parameters
    ----------
    *edits : VocabularyEdits
        The files' edits, in the order given.

    Returns
    -------
    VocabularyEdits
        One set of edits, with every file among its ``sources``.

    Examples
    --------
    >>> one = VocabularyEdits(frozenset(), {"bacteriophage": "phage"})
    >>> two = VocabularyEdits(frozenset({"phage"}), {})
    >>> combined = combine(one, two)
    >>> sorted(combined.stop), dict(combined.replace)
    (['bacteriophage', 'phage'], {})
    """
    stop = set().union(*(edit.stop for edit in edits))
    replace: dict[str, str] = {}
    for edit in edits:
        replace.update(edit.replace)
    line_of = {label: 0 for label in replace}
    resolved = _resolve_chains(replace, stop, "vocabulary", line_of)
    return VocabularyEdits(frozenset(stop), resolved, tuple(s for edit in edits for s in edit.sources))


#: The rule that leaves a word of :func:`left_out_words` out of every analysis.
BUILT_IN_STOP_WORD = "built-in stop word"


def left_out_words(tokens: TokenizedCorpus) -> pd.DataFrame:
    """The nouns of the project's boilerplate list (``resources/boilerplate_stopwords.txt``: "study", "result",
    "method", ...) the texts use, which no analysis counts: ``term, n_papers`` (term in its singular; abstracts
    using it in any form), for one partition of a corpus (partitions' tables add up).

    Parameters
    ----------
    tokens : TokenizedCorpus
        One partition of a corpus.

    Returns
    -------
    DataFrame
        ``term, n_papers``, sorted by term.

    Examples
    --------
    >>> from helpers.analysis.text.tokens import tokenize_corpus
    >>> tokens = tokenize_corpus(["our studies of water", "a case study", "the result"], ["a", "b", "c"])
    >>> left_out_words(tokens).values.tolist()
    [['result', 1], ['study', 2]]
    """
    from helpers.analysis.text.lexicon import lexicon_tag, singular  # lazy: the dictionaries are large
    from helpers.analysis.text.stop_words import boilerplate_words

    listed = boilerplate_words()
    starts = {word[:4] for word in listed}
    code: dict[str, int] = {}
    word_code = np.full(len(tokens.vocabulary), -1, dtype=np.int64)
    for position, word in enumerate(tokens.vocabulary.tolist()):
        lower = str(word).lower()
        if lower[:4] not in starts:
            continue
        form = singular(lower)
        form = form if form in listed else lower
        if form in listed and lexicon_tag(form).startswith("NN"):
            word_code[position] = code.setdefault(form, len(code))
    codes = word_code[tokens.token_ids]
    found = codes >= 0
    names = np.array(sorted(code, key=code.__getitem__), dtype=object)
    pairs = np.unique(np.stack([tokens.text_index()[found].astype(np.int64), codes[found]]), axis=1)
    n_papers = np.bincount(pairs[1], minlength=len(names)) if pairs.size else np.zeros(len(names), dtype=np.int64)
    table = pd.DataFrame({"term": names, "n_papers": n_papers.astype(np.int64)})
    table = table[table["n_papers"] > 0]
    return table.groupby("term", sort=True, as_index=False)["n_papers"].sum()


def add_up_left_out(*parts: pd.DataFrame) -> pd.DataFrame:
    """:func:`left_out_words` of several partitions summed: most used first, then by term.

    Parameters
    ----------
    *parts : DataFrame
        :func:`left_out_words` of each partition.

    Returns
    -------
    DataFrame
        ``term, n_papers``.

    Examples
    --------
    >>> one = pd.DataFrame({"term": ["study"], "n_papers": [2]})
    >>> two = pd.DataFrame({"term": ["result", "study"], "n_papers": [3, 1]})
    >>> add_up_left_out(one, two).values.tolist()
    [['result', 3], ['study', 3]]
    """
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame({"term": [], "n_papers": []})
    summed = table.groupby("term", sort=True, as_index=False)["n_papers"].sum().astype({"n_papers": np.int64})
    return summed.sort_values(["n_papers", "term"], ascending=[False, True], kind="stable").reset_index(drop=True)
