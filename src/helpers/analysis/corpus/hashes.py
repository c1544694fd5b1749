"""Hashes that name things: a paper's id and facts from its abstract, one SHA-256 for the corpus's files.

A paper's id comes from its text, not from its place in a file, so the same abstract has the same id in every
corpus, export and run; the corpus's hash is what a citation of the book names.
"""

from __future__ import annotations

import hashlib
from typing import Iterable

from helpers.analysis.text.normalise import dedup_key, has_latex, has_markdown

__all__ = ["corpus_sha256", "abstract_facts"]


def corpus_sha256(file_hashes: Iterable[str]) -> str:
    """One SHA-256 for a set of files, independent of the order they were given in.

    Parameters
    ----------
    file_hashes : iterable of str
        Each file's SHA-256 as hexadecimal digits.

    Returns
    -------
    str
        The SHA-256 of the sorted file hashes, as 64 hexadecimal digits.

    Examples
    --------
    >>> corpus_sha256(["b" * 64, "a" * 64]) == corpus_sha256(["a" * 64, "b" * 64])
    True
    >>> len(corpus_sha256([]))
    64
    """
    digest = hashlib.sha256()
    for file_hash in sorted(file_hashes):
        digest.update(file_hash.encode("ascii"))
    return digest.hexdigest()


def abstract_facts(text: str) -> dict[str, object]:
    """What the papers table records of an abstract's text.

    Parameters
    ----------
    text : str
        The abstract as read (normalised line ends and spaces).

    Returns
    -------
    dict
        ``paper_id`` (``p`` and the first 12 hexadecimal digits of ``dedup_sha1``), ``dedup_sha1`` (the SHA-1 of
        its :func:`~helpers.analysis.corpus.dedup_key`, which duplicates share), ``n_chars``, ``has_latex``,
        ``has_markdown`` and ``text_sha1`` (of the text as written).

    Examples
    --------
    >>> facts = abstract_facts("Some  Abstract with $x$")
    >>> facts["paper_id"] == abstract_facts("some abstract with $x$")["paper_id"], facts["n_chars"]
    (True, 23)
    >>> facts["paper_id"] == "p" + facts["dedup_sha1"][:12], facts["has_latex"], abstract_facts("x")["paper_id"]
    (True, True, 'p11f6ad8ec52a')
    """
    digest = hashlib.sha1(dedup_key(text).encode("utf-8")).hexdigest()
    return dict(paper_id="p" + digest[:12], dedup_sha1=digest, n_chars=len(text), has_latex=has_latex(text),
                has_markdown=has_markdown(text), text_sha1=hashlib.sha1(text.encode("utf-8")).hexdigest())
