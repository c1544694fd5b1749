"""Which files a corpus is: paths and directories expanded, the names shown in tables, their bytes' SHA-256."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Sequence

from helpers.analysis.corpus.hashes import corpus_sha256
from helpers.analysis.corpus.tables import CORPUS_SUFFIXES, CorpusError
from helpers.analysis.readers import RECORD_SUFFIXES, corpus_suffix

__all__ = ["directory_files", "expand_paths", "source_names", "files_sha256"]

def directory_files(folder: Path) -> list[Path]:
    """A directory's corpus files, sorted by name: its ``*.txt`` files when it has any (the seed
    format, as always), else its bibliographic files (``*.bib``, ``*.ris``, ``*.csv``, ``*.tsv``, ``*.jsonl``).

    A folder of text abstracts may keep a CSV of metadata beside them; it is not read as abstracts.
    """
    files = sorted((p for p in folder.iterdir() if p.is_file() and corpus_suffix(p) in CORPUS_SUFFIXES),
                   key=lambda p: p.name)
    text_files = [p for p in files if corpus_suffix(p) == ".txt"]
    return text_files or files


def expand_paths(paths: Sequence[str | Path]) -> tuple[list[Path], list[str]]:
    """Turn path arguments into files: a directory means :func:`directory_files`."""
    files: list[Path] = []
    problems: list[str] = []
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = directory_files(path)
            if not found:
                problems.append(f"{path}: directory has no .txt files (nor {', '.join(RECORD_SUFFIXES)} files)")
            candidates = found
        elif path.is_file():
            candidates = [path]
        else:
            problems.append(f"{path}: no such file or directory")
            candidates = []
        for candidate in candidates:
            resolved = candidate.resolve()
            if resolved not in seen:
                seen.add(resolved)
                files.append(candidate)
    return files, problems



def source_names(files: Sequence[Path]) -> list[str]:
    """File names as shown in tables: the base name, or the given path when names clash."""
    counts = Counter(f.name for f in files)
    return [f.as_posix() if counts[f.name] > 1 else f.name for f in files]



def files_sha256(paths: Sequence[str | Path] | str | Path) -> str:
    """:attr:`Corpus.sha256` of the corpus at ``paths``, from the files' bytes alone (no parsing).

    Raises
    ------
    CorpusError
        When a path does not exist or a directory has no ``.txt`` files.
    """
    files, problems = expand_paths([paths] if isinstance(paths, (str, Path)) else paths)
    if problems:
        raise CorpusError(problems)
    return corpus_sha256(hashlib.sha256(path.read_bytes()).hexdigest() for path in files)
