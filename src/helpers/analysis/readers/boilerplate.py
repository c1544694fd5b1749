"""Publisher boilerplate and structured-abstract headings, left out of the text that is analysed.

Database exports append the publisher's copyright and licence statement to many abstracts
("© 2021 Elsevier B.V. All rights reserved.", "(C) 2012 Elsevier Ltd.", "Licensee MDPI, Basel,
Switzerland.", "under exclusive licence to Springer Nature", Creative Commons sentences), and
structured abstracts carry headings ("BACKGROUND:", "METHODS:", Emerald's "Design/methodology/approach –").
None of it is about the paper: :func:`strip_boilerplate` removes it from the analysed text and says how
many sentences and headings it removed; the abstract as published is kept for display.

A copyright statement in parentheses ("((c) 2012 by Astro Ltd., Published exclusively by WILEY-VCH ...)")
goes wherever it stands. A copyright mark (©, "(C) 2012", "Copyright 2012") that starts a sentence in the last
:data:`MAX_TAIL_WORDS` words removes everything from it to the end (the statement, the licence sentences and
the journal's citation line after it); so does a mark with a year inside a sentence when what follows names a
publisher or rights (an export that stripped the punctuation leaves the whole abstract one "sentence" ending in
"(C) 2010 Elsevier Ltd All rights reserved"). Elsewhere only whole sentences that are a licence or rights
statement go; a statement found more than :data:`MAX_STATEMENT_LEAD` words into its sentence ends an abstract whose
punctuation was stripped, and only the statement goes, never the abstract.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Cleaned", "strip_boilerplate", "MAX_TAIL_WORDS", "MAX_STATEMENT_LEAD"]

#: A copyright statement at the end of an abstract is removed with everything after it when it
#: starts within this many words of the end.
MAX_TAIL_WORDS = 80

#: A statement that starts more than this many words into its sentence ends an abstract whose punctuation the export
#: stripped: the words before it are kept.
MAX_STATEMENT_LEAD = 20

# A sentence starts at the text's start or after ., !, ? or ) (or a closing quote after ., ! or ?) and white
# space; not after an initial ("B.V. All" stays one sentence, "in SSA. ©" is two).
_SENTENCE_START = r"(?:^|(?:(?<=[.!?)\]])|(?<=[.!?][\"”’]))(?<!\b[A-Z]\.)\s+)"
_COPYRIGHT_MARK = re.compile(
    _SENTENCE_START + r"(?=(?:Crown\s+)?(?:[Cc]opyright\b|COPYRIGHT\b|©|\([Cc]\)\s*(?:\d{4}|[A-Z])))"
    r"|(?:(?<=\s)|(?<=[.!?]))(?=©\s*\d{4})")
# A mark and a year (or © and a name) inside a sentence, or glued to its last full stop ("... 30%.(C) 2017 ..."), ("... winter (C) 2010 Elsevier Ltd All rights reserved",
# "... sites © Springer-Verlag Berlin Heidelberg 2013"): a statement only
# when what follows it names a publisher or rights (:data:`_STATEMENT_WORDS`).
_INLINE_MARK = re.compile(r"(?:(?<=\s)|(?<=[.!?]))(?=(?:\([Cc]\)|[Cc]opyright\s*(?:©|\([Cc]\))?)\s*\(?(?:19|20)\d{2}\b|©\s*[A-Z])")
_STATEMENT_WORDS = re.compile(
    r"\b(?:Elsevier|Wiley|Springer|Pergamon|Blackwell|Taylor|Francis|Informa|Ltd|LLC|Inc|GmbH|KGaA|B\.?V|AG|SAS"
    r"|Limited|Publish\w*|Press|Society|Association|Institute|Academy|Authors?|Author\(s\)|rights|licen[cs]\w*"
    r"|IEEE|ACM|IOP|AIP|APS|ACS|RSC|SAGE|Emerald|MDPI|Crown)\b")
# A copyright statement in parentheses, wherever it stands ("((c) 2012 by Astro Ltd., Published exclusively by
# WILEY-VCH Verlag GmbH & Co. KGaA)").
_PARENTHESISED = re.compile(r"\s*\(\s*(?:©|\([Cc]\)|[Cc]opyright\b)\s*(?:©|\([Cc]\))?\s*(?:(?:19|20)\d{2}|by\b)"
                            r"[^()]*\)")
_SENTENCE_SPLIT = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"”’]))(?<!\b[A-Z]\.)\s+(?=[A-Z(©\[])")
# Whole sentences that are a statement of rights or licence, wherever they stand.
_BOILERPLATE_SENTENCE = re.compile(
    r"all rights reserved|^published by |licensee mdpi|licensee biomed central|licensee springer"
    r"|exclusive licen[cs]e to springer|this is an open access article|open access article distributed under"
    r"|creative commons attribution|under the (?:terms of the )?cc[ -]by|^copyright\b|^©|^\(c\) ?\d{4}",
    re.IGNORECASE)
# In the last sentences only: "<Journal> published by <publisher> (on behalf of ...)".
_TRAILING_STATEMENT = re.compile(
    r"\bpublished by\b.*\b(?:Ltd|LLC|Limited|Inc|B\.V|GmbH|AG|Elsevier|Wiley|Springer|Taylor|Francis|Press"
    r"|Publishing|Publications|Society|Association|Informa)\b")
# The journal's own citation closing an abstract ("Integr Environ Assess Manag 2019;15:703-713.").
_CITATION_LINE = re.compile(r"^[A-Z][A-Za-z.&' -]{2,80}\s(?:19|20)\d{2};\s?\d+(?:\(\d+\))?:\s?[\w–-]+\.?$")
_HEADING_WORD = (r"(?:Background|Aims?|Objectives?|Purpose|Introduction|Context|Rationale|Methods?|Methodology"
                 r"|Materials|Design|Setting|Participants|Interventions?|Measurements|Results?|Findings|Conclusions?"
                 r"|Discussion|Interpretation|Significance|Limitations|Implications|Importance|Approach|Originality"
                 r"|Value|Main outcome measures|Research limitations|Practical implications|Social implications"
                 r"|Design/methodology/approach|Originality/value|Research limitations/implications)")
# Structured-abstract headings at a sentence start: upper-case words and a colon ("BACKGROUND:"), known
# heading words and a colon ("Background & Aims:"), or Emerald's headings and a dash ("Purpose –").
_HEADING = re.compile(
    _SENTENCE_START + r"(?:[A-Z][A-Z&/ ,-]{1,60}[A-Z]:(?=\s)"
    r"|" + _HEADING_WORD + r"(?:\s*(?:&|and|/)\s*" + _HEADING_WORD.replace("(?:", "(?:[a-z]+|", 1)
    + r")*:(?=\s)"
    r"|(?:Purpose|Design/methodology/approach|Findings|Originality/value|Research limitations/implications"
    r"|Practical implications|Social implications|Value)\s+[–—-]+(?=\s))")


class Cleaned(NamedTuple):
    """An abstract's analysed text and what was left out of it (:func:`strip_boilerplate`).

    Attributes
    ----------
    text : str
        The text analysed.
    sentences : int
        Copyright and licence statements left out.
    headings : int
        Structured-abstract headings left out (``BACKGROUND:``).

    Examples
    --------
    >>> Cleaned("We count crashes.", 1, 0).sentences
    1
    """

    text: str
    sentences: int
    headings: int


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_SPLIT.split(text) if s.strip()]


def strip_boilerplate(text: str) -> Cleaned:
    """``text`` without its copyright and licence statements and its structured-abstract headings.

    Parameters
    ----------
    text : str
        An abstract as published.

    Returns
    -------
    Cleaned
        The analysed text and what was left out.

    Examples
    --------
    >>> strip_boilerplate("We rank things. It works. (C) 2012 Elsevier Ltd. All rights reserved.")
    Cleaned(text='We rank things. It works.', sentences=2, headings=0)
    >>> strip_boilerplate("BACKGROUND: Few know. METHODS: We asked. © 2021 by the authors. Licensee MDPI, Basel, "
    ...                   "Switzerland. This article is an open access article distributed under the terms of the "
    ...                   "Creative Commons Attribution (CC BY) license.")
    Cleaned(text='Few know. We asked.', sentences=3, headings=2)
    >>> strip_boilerplate("The (c) version of the model is copyright free. All rights reserved. It is fast.")
    Cleaned(text='The (c) version of the model is copyright free. It is fast.', sentences=1, headings=0)
    >>> strip_boilerplate("Background & Aims: We ask. Methods: We count in SSA. © 2022 Informa UK Limited, trading as "
    ...                   "Taylor & Francis Group.")
    Cleaned(text='We ask. We count in SSA.', sentences=1, headings=2)
    >>> strip_boilerplate("It works. Journal of X published by Wiley Periodicals LLC on behalf of the Society of X.")
    Cleaned(text='It works.', sentences=1, headings=0)
    >>> strip_boilerplate("We map risk. Integr Environ Assess Manag 2019;15:703-713. © 2019 SETAC")
    Cleaned(text='We map risk.', sentences=2, headings=0)
    >>> strip_boilerplate("Nothing to remove here.")
    Cleaned(text='Nothing to remove here.', sentences=0, headings=0)
    """
    text, removed = _PARENTHESISED.subn("", text)
    marks = sorted([m.start() for m in _COPYRIGHT_MARK.finditer(text)]
                   + [m.start() for m in _INLINE_MARK.finditer(text) if _STATEMENT_WORDS.search(text[m.start():])])
    for start in marks:
        tail = text[start:]
        if len(tail.split()) <= MAX_TAIL_WORDS and tail.strip():
            removed += len(_sentences(tail.strip()))
            text = text[:start].rstrip()
            break
    kept = []
    sentences = _sentences(text)
    for index, sentence in enumerate(sentences):
        statement = _BOILERPLATE_SENTENCE.search(sentence) or (index >= len(sentences) - 2 and index and (
            _TRAILING_STATEMENT.search(sentence) or _CITATION_LINE.match(sentence)))
        if not statement:
            kept.append(sentence)
            continue
        removed += 1
        lead = sentence[:statement.start()].rstrip()
        if len(lead.split()) > MAX_STATEMENT_LEAD:  # an unpunctuated abstract ending in the statement: kept
            kept.append(lead)
    text = " ".join(kept) if removed else text
    text, headings = _HEADING.subn(" ", text)
    if headings:
        text = " ".join(text.split())
    return Cleaned(text, removed, headings)
