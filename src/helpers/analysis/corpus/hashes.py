"""Hashes that name things: a paper's id from its text, the corpus's SHA-256, an abstract's facts."""

from __future__ import annotations

import hashlib
from typing import Iterable

from helpers.analysis.text.normalise import dedup_key, has_latex, has_markdown

__all__ = ["paper_id_for", "corpus_sha256", "abstract_facts"]

def paper_id_for(text: str) -> str:
    """A stable id from the abstract's normalised text: ``p`` + 12 hex digits of its SHA-1.

    Examples
    --------
    >>> paper_id_for("Some  Abstract") == paper_id_for("some abstract")
    True
    >>> paper_id_for("x")
    'p11f6ad8ec52a'
    """
    return "p" + hashlib.sha1(dedup_key(text).encode("utf-8")).hexdigest()[:12]


def corpus_sha256(file_hashes: Iterable[str]) -> str:
    """One SHA-256 for a set of files, independent of the order they were given in."""
    digest = hashlib.sha256()
    for file_hash in sorted(file_hashes):
        digest.update(file_hash.encode("ascii"))
    return digest.hexdigest()



def abstract_facts(text: str) -> dict[str, object]:
    """What the papers table records of an abstract's text: ``paper_id`` (:func:`paper_id_for`), ``dedup_sha1``
    (the SHA-1 of its :func:`dedup_key`, which duplicates share), ``n_chars``, ``has_latex``, ``has_markdown``
    and ``text_sha1`` (of the text as written).

    Examples
    --------
    >>> facts = abstract_facts("Some  Abstract with $x$")
    >>> facts["paper_id"] == paper_id_for("some abstract with $x$"), facts["n_chars"], facts["has_latex"]
    (True, 23, True)
    """
    digest = hashlib.sha1(dedup_key(text).encode("utf-8")).hexdigest()
    return dict(paper_id="p" + digest[:12], dedup_sha1=digest, n_chars=len(text), has_latex=has_latex(text),
                has_markdown=has_markdown(text), text_sha1=hashlib.sha1(text.encode("utf-8")).hexdigest())
