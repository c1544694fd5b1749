"""A proceedings volume's own record: front matter, not a paper.

Scopus (and Web of Science) list a conference's proceedings volume as a record of its own, its "abstract" a list
of the volume's papers: "The proceedings contain 182 papers. The topics discussed include: ...". Analysed as a
paper it makes a theme of "proceeding · contain"; :func:`is_proceedings_record` finds it, and the corpus gives
it the kind ``proceedings``, as a BibTeX ``@Proceedings`` entry.
"""

from __future__ import annotations

import re

__all__ = ["is_proceedings_record"]

# "The proceedings contain 182 papers", "This proceedings contains 27 articles", "The conference proceedings contain".
_VOLUME_OPENING = re.compile(r"^(?:the|this)\s+(?:conference\s+)?proceedings\s+(?:volume\s+)?contains?\s+\d[\d,]*\s+"
                             r"(?:papers|articles|contributions|chapters)\b", re.IGNORECASE)
# What the volume's record says of its papers: "The topics discussed include:", "The special focus in this
# conference is on".
_VOLUME_TEXT = re.compile(r"\bThe topics (?:discussed |covered )?include:|\bThe special focus in this conference is on\b",
                          re.IGNORECASE)
_VOLUME_TITLE = re.compile(r"\b(?:proceedings|conference|symposium|workshop|congress)\b", re.IGNORECASE)


def is_proceedings_record(title: str, abstract: str) -> bool:
    """Whether a record is a proceedings volume's own: its text opens "The proceedings contain N papers", or
    says what "the topics discussed include:" (or "the special focus in this conference is on") in a record titled
    as, or speaking of, a conference.

    Parameters
    ----------
    title : str
        The record's title.
    abstract : str
        Its abstract.

    Returns
    -------
    bool
        Whether it describes a volume rather than a paper.

    Examples
    --------
    >>> is_proceedings_record("CLADAG 2015", "The proceedings contain 27 papers. The topics include: depth; ...")
    True
    >>> is_proceedings_record("Proceedings of the 12th Conference on Software", "The topics discussed include: a; b")
    True
    >>> is_proceedings_record("Heat stress in broilers", "The topics discussed include: a survey of farms.")
    False
    >>> is_proceedings_record("Proceedings of a workshop on ozone", "We measured ozone at ten sites.")
    False
    """
    text = " ".join(abstract.split())
    if _VOLUME_OPENING.match(text):
        return True
    return bool(_VOLUME_TEXT.search(text)) and bool(_VOLUME_TITLE.search(title) or
                                                    re.search(r"\bthis conference\b", text, re.IGNORECASE))
