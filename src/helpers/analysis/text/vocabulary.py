"""The researcher's own vocabulary: a thesaurus and a stop-term list, read from files and applied to term counts.

A thesaurus is VOSviewer's file, read as VOSviewer writes it: a tab-separated header ``label<TAB>replace by``,
then one row per term; an empty ``replace by`` removes the term. A stop-term file lists one term per line
(``#`` starts a comment line). Every term of a file is spelled as the analysis spells terms (lower case, a
noun's singular, hyphens kept: :func:`normalise_terms`), so "Bacteriophages" matches the term "bacteriophage".
A file's term is matched whole, as VOSviewer matches it: removing "study" leaves "case study".

:class:`VocabularyEdits` holds both files' edits; :meth:`VocabularyEdits.apply` edits one term and
:meth:`VocabularyEdits.edit_columns` a texts x terms count matrix (a removed term's column dropped, the columns
of terms replaced by one term summed into it), the edge every analysis applies them at (the term map's and the
themes' per-paper counts). A malformed file is a :class:`VocabularyError` naming the file and line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from helpers.analysis.errors import shown_name
from helpers.analysis.settings import SettingsError

if TYPE_CHECKING:
    from helpers.analysis.text import TokenizedCorpus

__all__ = ["VocabularyError", "EditFile", "VocabularyEdits", "normalise_terms", "read_thesaurus",
           "read_stop_terms", "read_vocabulary", "combine", "left_out_words", "add_up_left_out",
           "edits_of", "VocabularyFiles", "THESAURUS_HEADER", "BUILT_IN_STOP_WORD"]

#: The header of VOSviewer's thesaurus files (tab-separated).
THESAURUS_HEADER = ("label", "replace by")


class VocabularyError(SettingsError):
    """A malformed thesaurus or stop-term file: one line naming the file and the line."""


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
    (:func:`helpers.analysis.text.analysis_text`: lower case but acronyms), each word as the term map folds it,
    the last word (a term's head noun) in its singular; hyphens kept. A label with no word stays lower case.

    Examples
    --------
    >>> normalise_terms(["Bacteriophages", "Road Traffic Accidents", "decision-making", "LLMs", "PDMS", "Results"])
    ['bacteriophage', 'road traffic accident', 'decision-making', 'llm', 'pdms', 'result']
    """
    from helpers.analysis.lexicon import singular  # lazy: the dictionaries are large
    from helpers.analysis.terms import word_classes
    from helpers.analysis.text import analysis_text, segments, written_as_is

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


def _text_lines(path: Path, kind: str) -> tuple[list[str], str]:
    """The file's lines (a byte-order mark and line ends removed) and its SHA-256."""
    name = shown_name(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise VocabularyError(f"{name}: no such {kind} file") from None
    except OSError as error:
        raise VocabularyError(f"{name}: cannot be read ({error.strerror or error})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise VocabularyError(f"{name}: line {line}: not UTF-8 text (save the {kind} file as UTF-8)") from None
    return text.splitlines(), hashlib.sha256(data).hexdigest()


def _is_skipped(line: str) -> bool:
    return not line.strip() or line.lstrip().startswith("#")


def _thesaurus_rows(path: Path) -> tuple[list[tuple[int, str, str]], str]:
    """A thesaurus file's rows (line number, label, replacement as written) and its SHA-256; the file's form checked
    (:func:`read_thesaurus`), its terms not yet spelled as the analysis spells them."""
    name = shown_name(path)
    lines, digest = _text_lines(path, "thesaurus")
    numbered = [(number, line) for number, line in enumerate(lines, start=1) if not _is_skipped(line)]
    if not numbered:
        raise VocabularyError(f"{name}: line 1: empty thesaurus (expected the header 'label<TAB>replace by')")
    number, header = numbered[0]
    if tuple(cell.strip().lower() for cell in header.rstrip("\t").split("\t")) != THESAURUS_HEADER:
        hint = " (tab-separated, not commas)" if "," in header and "\t" not in header else ""
        raise VocabularyError(f"{name}: line {number}: expected the header 'label<TAB>replace by'{hint}, "
                              f"got {header.strip()[:60]!r}")
    rows: list[tuple[int, str, str]] = []
    for number, line in numbered[1:]:
        cells = line.split("\t")
        if len(cells) < 2:
            raise VocabularyError(f"{name}: line {number}: no tab between label and replace by "
                                  f"(write the label and a tab to remove a term), got {line.strip()[:60]!r}")
        if any(cell.strip() for cell in cells[2:]):
            raise VocabularyError(f"{name}: line {number}: more than two columns (label<TAB>replace by)")
        if not cells[0].strip():
            raise VocabularyError(f"{name}: line {number}: empty label")
        rows.append((number, cells[0], cells[1]))
    return rows, digest


def read_thesaurus(path: str | Path) -> VocabularyEdits:
    """A VOSviewer thesaurus file: header ``label<TAB>replace by``, a row per term, an empty ``replace by``
    removes the term. Blank lines and lines starting with ``#`` are skipped.

    Raises
    ------
    VocabularyError
        A missing header, a row without a tab, an empty label, a third column, one label replaced two ways, or
        replacements that go round in a circle (the file and line named).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "thesaurus.txt")
    ...     _ = open(path, "w", encoding="utf-8").write("label\\treplace by\\nBacteriophages\\tphage\\nstudy\\t\\n")
    ...     edits = read_thesaurus(path)
    >>> sorted(edits.stop), dict(edits.replace)
    (['study'], {'bacteriophage': 'phage'})
    """
    path = Path(path)
    name = shown_name(path)
    rows, digest = _thesaurus_rows(path)
    labels = normalise_terms([label for _, label, _ in rows])
    targets = normalise_terms([target for _, _, target in rows])
    stop: set[str] = set()
    replace: dict[str, str] = {}
    line_of: dict[str, int] = {}
    for (number, _, written_target), label, target in zip(rows, labels, targets):
        new: str | None = target if written_target.strip() else None
        if new == label:
            continue  # "phages -> phage" is one term already
        if label in line_of:
            if (None if label in stop else replace.get(label, label)) != new:
                raise VocabularyError(f"{name}: line {number}: {label!r} is given another replacement on line "
                                      f"{line_of[label]}")
            continue
        line_of[label] = number
        if new is None:
            stop.add(label)
        elif new != label:
            replace[label] = new
    resolved = _resolve_chains(replace, stop, name, line_of)
    return VocabularyEdits(frozenset(stop), resolved, (EditFile("thesaurus", str(path), digest, frozenset(line_of)),))


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


def _stop_term_rows(path: Path) -> tuple[list[str], str]:
    """A stop-term file's terms as written and its SHA-256, the file's form checked (:func:`read_stop_terms`)."""
    name = shown_name(path)
    lines, digest = _text_lines(path, "stop-term")
    rows = []
    for number, line in enumerate(lines, start=1):
        if _is_skipped(line):
            continue
        if "\t" in line.strip():
            raise VocabularyError(f"{name}: line {number}: a tab in a stop-term file (one term per line; "
                                  f"give a 'label<TAB>replace by' file as the thesaurus)")
        rows.append(line.strip())
    return rows, digest


def read_stop_terms(path: str | Path) -> VocabularyEdits:
    """A stop-term file: one term per line; blank lines and lines starting with ``#`` are skipped.

    Raises
    ------
    VocabularyError
        A line with a tab (a thesaurus given as stop terms), or a file that cannot be read (the file and line
        named).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "stop.txt")
    ...     _ = open(path, "w", encoding="utf-8").write("# generic words\\nStudies\\ncase study\\n")
    ...     sorted(read_stop_terms(path).stop)
    ['case study', 'study']
    """
    path = Path(path)
    rows, digest = _stop_term_rows(path)
    stop = frozenset(normalise_terms(rows))
    return VocabularyEdits(stop, {}, (EditFile("stop terms", str(path), digest, stop),))


def combine(*edits: VocabularyEdits) -> VocabularyEdits:
    """Several files' edits as one: a term removed by any is removed; a replacement followed through the
    others' (``a -> b`` then ``b -> c``: ``a -> c``).

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


def read_vocabulary(thesaurus: str | Path | None = None, stop_terms: str | Path | None = None
                    ) -> VocabularyEdits | None:
    """The edits of a thesaurus and a stop-term file (either may be ``None``); ``None`` without either."""
    parts = ([read_thesaurus(thesaurus)] if thesaurus is not None else []) + (
        [read_stop_terms(stop_terms)] if stop_terms is not None else [])
    return combine(*parts) if parts else None



#: The rule that leaves a word of :func:`left_out_words` out of every analysis.
BUILT_IN_STOP_WORD = "built-in stop word"


def left_out_words(tokens: TokenizedCorpus) -> pd.DataFrame:
    """The nouns of the project's boilerplate list (``resources/boilerplate_stopwords.txt``: "study", "result",
    "method", ...) the texts use, which no analysis counts: ``term, n_papers`` (term in its singular; abstracts
    using it in any form), for one partition of a corpus (partitions' tables add up).

    Examples
    --------
    >>> from helpers.analysis.text import tokenize_corpus
    >>> tokens = tokenize_corpus(["our studies of water", "a case study", "the result"], ["a", "b", "c"])
    >>> left_out_words(tokens).values.tolist()
    [['result', 1], ['study', 2]]
    """
    from helpers.analysis.lexicon import lexicon_tag, singular  # lazy: the dictionaries are large
    from helpers.analysis.text import boilerplate_words

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
    """:func:`left_out_words` of several partitions summed: most used first, then by term."""
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame({"term": [], "n_papers": []})
    summed = table.groupby("term", sort=True, as_index=False)["n_papers"].sum().astype({"n_papers": np.int64})
    return summed.sort_values(["n_papers", "term"], ascending=[False, True], kind="stable").reset_index(drop=True)


@dataclass(frozen=True)
class VocabularyFiles:
    """A thesaurus and a stop-term file named, their form checked and their bytes hashed, their terms not yet
    spelled as the analysis spells them (that needs the dictionaries: :func:`edits_of` reads them where the
    analysis runs). The book's settings hold this, so a page that only shows results reads no dictionary.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "stop.txt")
    ...     _ = open(path, "w", encoding="utf-8").write("Studies\\n")
    ...     files = VocabularyFiles.check(None, path)
    ...     [entry["kind"] for entry in files.as_dict()], sorted(edits_of(files).stop)
    (['stop terms'], ['study'])
    """

    thesaurus: str | None
    stop_terms: str | None
    digests: tuple[str, ...]

    @classmethod
    def check(cls, thesaurus: str | Path | None, stop_terms: str | Path | None) -> "VocabularyFiles":
        """The files' form checked (a malformed file is a :class:`VocabularyError` naming its file and line)."""
        digests = ([_thesaurus_rows(Path(thesaurus))[1]] if thesaurus is not None else []) + (
            [_stop_term_rows(Path(stop_terms))[1]] if stop_terms is not None else [])
        return cls(None if thesaurus is None else str(thesaurus), None if stop_terms is None else str(stop_terms),
                   tuple(digests))

    def as_dict(self) -> list[dict[str, str]]:
        """Each file's kind, name and SHA-256, as :meth:`VocabularyEdits.as_dict`."""
        named = [("thesaurus", self.thesaurus), ("stop terms", self.stop_terms)]
        return [{"kind": kind, "file": str(name), "sha256": digest}
                for (kind, name), digest in zip([pair for pair in named if pair[1] is not None], self.digests)]


@lru_cache(maxsize=8)
def _read_files(files: VocabularyFiles) -> VocabularyEdits | None:
    edits = read_vocabulary(files.thesaurus, files.stop_terms)
    if edits is not None and tuple(source.sha256 for source in edits.sources) != files.digests:
        names = ", ".join(str(source.name) for source in edits.sources)
        raise VocabularyError(f"{names}: changed while the book was built; build again")
    return edits


def edits_of(setting: object) -> VocabularyEdits | None:
    """``AnalysisSettings.vocabulary`` as edits (``None``: no file given; :class:`VocabularyFiles` read).

    Examples
    --------
    >>> edits_of(None) is None, edits_of(VocabularyEdits()).empty
    (True, True)
    """
    if setting is None:
        return None
    if isinstance(setting, VocabularyFiles):
        return _read_files(setting)
    if not isinstance(setting, VocabularyEdits):
        raise TypeError(f"vocabulary must be VocabularyEdits or VocabularyFiles, got {type(setting).__name__}")
    return setting
