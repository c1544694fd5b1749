"""The explorer's columns of one paper each, from the analysis's tables: the Source column's words, the
strongest theme's share, the paper's map terms and keywords as indices into one list (so the data file names
each term once), and every cell as text.
"""

from __future__ import annotations

import math
import re
from pathlib import PurePosixPath
from typing import Any, Mapping

import pandas as pd

__all__ = ["cell_text", "whole_percent", "readable_file_name", "source_labels", "paper_term_lists",
           "paper_keyword_lists"]


def whole_percent(share: float) -> int:
    """A share as a whole percent rounded down, so a mixed paper (its strongest theme under half) never shows 50%.

    Parameters
    ----------
    share
        A share from 0 to 1.

    Returns
    -------
    int
        The whole percent, 0 to 100.

    Examples
    --------
    >>> [whole_percent(s) for s in (0.57, 0.499999, 0.5, 1.0, 0.0)]
    [57, 49, 50, 100, 0]
    """
    return int(math.floor(round(float(share) * 100, 6)))


def _is_hash_part(part: str) -> bool:
    """A part of a file name that names nothing: digits only, or 4+ hexadecimal characters with a digit and a letter."""
    if part.isdigit():
        return True
    return len(part) >= 4 and all(c in "0123456789abcdef" for c in part.lower()) and not part.isalpha()


def readable_file_name(name: str) -> bool:
    """Whether a file name (its suffix aside) says something to a reader: some part of it (split at anything
    but letters and digits) is more than digits or a hash (``_is_hash_part``).

    Parameters
    ----------
    name
        A corpus file's name.

    Returns
    -------
    bool
        ``False`` for names of digits and hashes only.

    Examples
    --------
    >>> readable_file_name("icml2023.bib"), readable_file_name("part-A.jsonl"), readable_file_name("a.txt")
    (True, True, True)
    >>> readable_file_name("000_2e4aa40cf9124fb1.txt"), readable_file_name("0001.txt")
    (False, False)
    """
    parts = [p for p in re.split(r"[\W_]+", str(PurePosixPath(name).with_suffix(""))) if p]
    return any(not _is_hash_part(part) for part in parts)


def source_labels(papers: pd.DataFrame, headers: Mapping[str, str | None] | None = None) -> list[str]:
    """What the explorer's Source column says of each paper, never a bare hash: its ``venue`` and ``year``
    where the input gives a venue ("ICML 2024"), else its file's header line (``headers``: file name to
    header, :attr:`helpers.analysis.corpus.Corpus.headers`), else its file's name when
    :func:`readable_file_name`, else "file <n> of <files>" (files in name order).

    Parameters
    ----------
    papers
        ``source_file``, and ``venue`` and ``year`` where the input gives them.
    headers
        Each file's header line.

    Returns
    -------
    list of str
        One label per paper, in its order.

    Examples
    --------
    >>> papers = pd.DataFrame({"source_file": ["000_2e4aa40cf9124fb1.txt", "002_a8c086987ad7c5d5.txt", "b.bib"],
    ...                        "venue": ["", "", "ICML"], "year": [None, None, 2024]})
    >>> source_labels(papers, {"000_2e4aa40cf9124fb1.txt": "ICML 2024 Papers"})
    ['ICML 2024 Papers', 'file 2 of 3', 'ICML 2024']
    """
    files = sorted(set(papers["source_file"].astype(str)))
    place = {name: n for n, name in enumerate(files, start=1)}
    by_file = {}
    for name in files:
        header = (headers or {}).get(name)
        by_file[name] = (header if isinstance(header, str) and header.strip() else
                         name if readable_file_name(name) else f"file {place[name]:,} of {len(files):,}")
    venues = papers["venue"] if "venue" in papers else pd.Series("", index=papers.index)
    years = papers["year"] if "year" in papers else pd.Series(None, index=papers.index, dtype=object)
    labels = []
    for name, venue, year in zip(papers["source_file"].astype(str), venues, years):
        venue = cell_text(venue).strip()
        labels.append(f"{venue} {int(year)}" if venue and not pd.isna(year) else venue or by_file[name])
    return labels


def cell_text(value: object) -> str:
    """A cell of a table as the explorer's text: a missing value (``None``, NaN, ``pd.NA``) is empty.

    Parameters
    ----------
    value
        The cell.

    Returns
    -------
    str
        Its text.

    Examples
    --------
    >>> cell_text(None), cell_text(float("nan")), cell_text(2024)
    ('', '', '2024')
    """
    return "" if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)) else str(value)


def paper_term_lists(cooccurrence: Any, paper_ids: list[str]) -> tuple[list[str], list[list[int]]]:
    """The map's terms and, for each paper of ``paper_ids``, the indices of the terms it uses.

    ``cooccurrence`` is a :class:`helpers.analysis.cooccurrence.CooccurrenceResult` (or any
    object with ``terms``, ``paper_terms`` and ``paper_ids``) or ``None``.

    Parameters
    ----------
    cooccurrence
        The term map, or ``None`` (no terms).
    paper_ids
        The papers, in the explorer's order.

    Returns
    -------
    tuple of (list of str, list of list of int)
        The terms, and each paper's term indices.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from scipy import sparse
    >>> result = SimpleNamespace(terms=pd.DataFrame({"term": ["graph", "model"]}), paper_ids=["a", "b"],
    ...                          paper_terms=sparse.csr_matrix([[1, 1], [0, 1]]))
    >>> paper_term_lists(result, ["b", "a", "c"])
    (['graph', 'model'], [[1], [0, 1], []])
    """
    if cooccurrence is None or len(cooccurrence.terms) == 0:
        return [], [[] for _ in paper_ids]
    terms = [str(t) for t in cooccurrence.terms["term"]]
    matrix = cooccurrence.paper_terms.tocsr()
    row_of = {paper_id: row for row, paper_id in enumerate(cooccurrence.paper_ids)}
    lists: list[list[int]] = []
    for paper_id in paper_ids:
        row = row_of.get(paper_id)
        if row is None:
            lists.append([])
            continue
        start, end = matrix.indptr[row], matrix.indptr[row + 1]
        used = matrix.indices[start:end][matrix.data[start:end] != 0]
        lists.append(sorted(int(i) for i in used))
    return terms, lists


def paper_keyword_lists(cells: pd.Series, variants: pd.DataFrame) -> tuple[list[str], list[list[int]]]:
    """Every keyword the papers give, as counted (sorted), and each paper's keywords as indices into it.

    Parameters
    ----------
    cells
        Each paper's keywords as its input wrote them.
    variants
        ``written, keyword``: each keyword as written and as counted (an empty one is dropped).

    Returns
    -------
    tuple
        The keywords (a sorted list), and for each paper a list of indices into it.

    Examples
    --------
    >>> variants = pd.DataFrame({"written": ["Broilers", "broiler", "Study"], "keyword": ["broiler", "broiler", ""]})
    >>> paper_keyword_lists(pd.Series(["Broilers; Study", None, "broiler"]), variants)
    (['broiler'], [[0], [], [0]])
    """
    from helpers.analysis.keywords.normalise import paper_keyword_sets  # lazy: it loads the term lexicon

    sets = paper_keyword_sets(cells.tolist(), variants)
    keywords = sorted({keyword for found in sets for keyword in found})
    index = {keyword: position for position, keyword in enumerate(keywords)}
    return keywords, [sorted(index[keyword] for keyword in found) for found in sets]
