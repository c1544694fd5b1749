"""Titles for the papers: from the input, else from a metadata CSV matched by the SHA-1 of the abstract, else the
abstract's opening words; and titles shortened for a figure or a table."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from helpers.analysis.readers.latex import math_as_text

__all__ = ["TITLE_FILE_COLUMNS", "read_metadata", "strip_markup", "short_text", "shorten_title", "with_titles"]

#: The columns of a metadata file (titles and authors by the SHA-1 of the abstract).
TITLE_FILE_COLUMNS = ["abstract_sha1", "title", "authors", "pmlr_id", "openreview_id", "pdf_url"]


def read_metadata(path: str | Path) -> pd.DataFrame:
    """Read a metadata CSV (the book's is ``data/icml2024-seed-metadata.csv``); an absent file gives an empty table.

    Parameters
    ----------
    path : str or Path
        The metadata CSV.

    Returns
    -------
    DataFrame
        Its :data:`TITLE_FILE_COLUMNS`, every value text.

    Examples
    --------
    >>> read_metadata("no-such-file.csv").columns.tolist()[:3]
    ['abstract_sha1', 'title', 'authors']
    """
    path = Path(path)
    if not path.exists():
        return pd.DataFrame(columns=TITLE_FILE_COLUMNS)
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    return table[TITLE_FILE_COLUMNS]


# HTML tags (not a lone "<" in "a < b"), Markdown links, emphasis and code marks.
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_MARKDOWN_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`+)(?=\S)(.+?)(?<=\S)\1")


def strip_markup(text: str) -> str:
    """Text without HTML tags, Markdown links, emphasis or code marks; LaTeX math kept as written.

    Parameters
    ----------
    text : str
        An abstract or title as stored.

    Returns
    -------
    str
        The text without markup, white space collapsed.

    Examples
    --------
    >>> strip_markup("<b>Libra</b> is **fast**, see [code](https://x.org); $O(n^2)$ time")
    'Libra is fast, see code; $O(n^2)$ time'
    """
    text = _HTML_TAG.sub("", text)
    text = _MARKDOWN_LINK.sub(r"\1", text)
    text = _EMPHASIS.sub(r"\2", text)
    return " ".join(text.split())


def short_text(text: str, n_words: int = 8) -> str:
    """The first words of an abstract, markup stripped (:func:`strip_markup`), for papers without a title.

    Parameters
    ----------
    text : str
        An abstract as stored.
    n_words : int
        Words kept.

    Returns
    -------
    str
        The first ``n_words`` words, with an ellipsis when there are more.

    Examples
    --------
    >>> short_text("one two three four five six seven eight nine ten", 4)
    'one two three four…'
    >>> short_text("<b>Libra</b>: a $k$-sparse sketch", 3)
    'Libra: a $k$-sparse…'
    """
    if any(mark in text for mark in "<[*`") or "__" in text:
        words = strip_markup(text).split()
    else:  # nothing to strip: only the first words are split off (most abstracts; a million take seconds)
        words = text.split(maxsplit=n_words)[:n_words + 1]
    return " ".join(words[:n_words]) + ("…" if len(words) > n_words else "")


def shorten_title(title: str, limit: int) -> str:
    """``title`` cut at a word to at most ``limit`` characters, with an ellipsis.

    Parameters
    ----------
    title : str
        A title.
    limit : int
        The most characters kept, the ellipsis not counted.

    Returns
    -------
    str
        ``title`` itself when short enough.

    Examples
    --------
    >>> shorten_title("A very long title about graphs", 20)
    'A very long title…'
    """
    if len(title) <= limit:
        return title
    return title[:limit].rsplit(" ", 1)[0].rstrip(" ,:;") + "…"


def with_titles(papers: pd.DataFrame, metadata: pd.DataFrame) -> pd.DataFrame:
    """``papers`` plus ``title``, ``authors`` and ``display_title`` columns.

    Titles and authors the input carries (bibliographic files: ``papers`` has ``title`` and
    ``authors`` columns) are kept wherever they are not empty; the metadata file, matched by the
    SHA-1 of the abstract, fills in the others. ``display_title`` is the title where there is one,
    else ``paper_id: first words…`` (``papers["opening"]``, or :func:`short_text` of ``papers["text"]``),
    with its math as plain text (:func:`~helpers.analysis.readers.latex.math_as_text`:
    ``$n^{1.5}$`` -> ``n^1.5``); ``title`` keeps the math as written.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id``, ``text``, ``text_sha1`` (and ``title``, ``authors``, ``opening`` when the input carries them).
    metadata : DataFrame
        :func:`read_metadata`.

    Returns
    -------
    DataFrame
        A copy of ``papers`` with the columns added.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["p1"], "text": ["Some abstract text here"],
    ...                        "text_sha1": ["abc"]})
    >>> meta = pd.DataFrame({"abstract_sha1": ["abc"], "title": ["A Title"], "authors": ["A B"],
    ...                      "pmlr_id": [""], "openreview_id": [""], "pdf_url": [""]})
    >>> with_titles(papers, meta)["display_title"].tolist()
    ['A Title']
    >>> with_titles(papers, meta.iloc[0:0])["display_title"].tolist()
    ['p1: Some abstract text here']
    >>> own = papers.assign(title=["Own Title"], authors=[""])
    >>> with_titles(own, meta)[["title", "authors"]].values.tolist()
    [['Own Title', 'A B']]
    """
    own = [c for c in ("title", "authors") if c in papers]
    matched = papers[["text_sha1"]].merge(
        metadata.drop_duplicates("abstract_sha1"), left_on="text_sha1", right_on="abstract_sha1", how="left")
    merged = papers.copy()
    for column in ("title", "authors"):
        side = matched[column].fillna("").astype(str).to_numpy()
        if column in own:
            given = merged[column].fillna("").astype(str)
            merged[column] = given.where(given != "", side)
        else:
            merged[column] = side
    extra = [c for c in metadata.columns if c not in ("abstract_sha1", "title", "authors") and c not in merged]
    for column in extra:
        merged[column] = matched[column].to_numpy()
    openings = merged["opening"] if "opening" in merged else merged["text"].map(short_text)
    fallback = merged["paper_id"] + ": " + openings
    shown = merged["title"].where(merged["title"] != "", fallback)
    merged["display_title"] = [math_as_text(t) for t in shown]
    return merged
