"""The researcher's vocabulary files, read and checked: a thesaurus and a stop-term list.

A thesaurus is VOSviewer's file, read as VOSviewer writes it: a tab-separated header ``label<TAB>replace by``
(:data:`THESAURUS_HEADER`), then one row per term; an empty ``replace by`` removes the term. A stop-term file lists
one term per line (``#`` starts a comment line). Each file becomes :class:`~helpers.analysis.text.vocabulary.VocabularyEdits`
(its terms spelled as the analysis spells terms); a malformed file is a
:class:`~helpers.analysis.text.vocabulary.VocabularyError` naming the file and line. :class:`VocabularyFiles` checks
the files' form and hashes them without reading the dictionaries, for settings that a page only shows.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from helpers.analysis.errors import shown_name
from helpers.analysis.text.vocabulary import (
    EditFile,
    VocabularyEdits,
    VocabularyError,
    _resolve_chains,
    combine,
    normalise_terms,
)

__all__ = ["THESAURUS_HEADER", "read_thesaurus", "read_stop_terms", "read_vocabulary", "VocabularyFiles", "edits_of"]

#: The header of VOSviewer's thesaurus files (tab-separated).
THESAURUS_HEADER = ("label", "replace by")


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

    Parameters
    ----------
    path : str or Path
        The thesaurus file.

    Returns
    -------
    VocabularyEdits
        Its removed and replaced terms, spelled as the analysis spells terms.

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

    Parameters
    ----------
    path : str or Path
        The stop-term file.

    Returns
    -------
    VocabularyEdits
        Its terms, removed, spelled as the analysis spells terms.

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


def read_vocabulary(thesaurus: str | Path | None = None, stop_terms: str | Path | None = None
                    ) -> VocabularyEdits | None:
    """The edits of a thesaurus and a stop-term file (either may be ``None``); ``None`` without either.

    Parameters
    ----------
    thesaurus, stop_terms : str or Path, optional
        The files.

    Returns
    -------
    VocabularyEdits or None
        Both files' edits (:func:`~helpers.analysis.text.vocabulary.combine`).

    Examples
    --------
    >>> read_vocabulary() is None
    True
    """
    parts = ([read_thesaurus(thesaurus)] if thesaurus is not None else []) + (
        [read_stop_terms(stop_terms)] if stop_terms is not None else [])
    return combine(*parts) if parts else None


@dataclass(frozen=True)
class VocabularyFiles:
    """A thesaurus and a stop-term file named, their form checked and their bytes hashed, their terms not yet
    spelled as the analysis spells them (that needs the dictionaries: :func:`edits_of` reads them where the
    analysis runs). The book's settings hold this, so a page that only shows results reads no dictionary.

    Attributes
    ----------
    thesaurus, stop_terms : str or None
        The files as given.
    digests : tuple of str
        The SHA-256 of each file given, thesaurus first.

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

    Parameters
    ----------
    setting : VocabularyEdits, VocabularyFiles or None
        The setting as given.

    Returns
    -------
    VocabularyEdits or None
        The edits to apply.

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
