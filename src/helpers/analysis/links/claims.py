"""Availability claims: whether a sentence says the paper's own code or data is (or will be) available, and by what.

The grammar's step for one sentence (its words and patterns are :mod:`.grammar`; :mod:`.availability` turns a
claim and the sentence's links into a verdict): :func:`find_claim` finds an artefact that is the paper's own
(``our code``, ``the data of this study``) with a predicate of availability (``is available``, ``can be
downloaded``), :func:`intent_claim` an intention to release (``we plan to release the data``). Each clause is read
once, from its own start, so the work grows linearly with the sentence.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from helpers.analysis.links.grammar import (
    LEFT_WINDOW, LINK, RIGHT_WINDOW, _BENEFICIARY, _CLAUSE_BREAK, _CLAUSE_END, _CLAUSE_OPENERS, _FOREIGN,
    _INTENT, _INTRODUCED_OPEN, _LABEL, _NEGATED_END, _OPEN_SOURCE_LABEL, _OWNER,
    _PARENTHETICAL, _PLACE, _PLACE_AT, _PREDICATE, _SAFE, _SOFTWARE, _SUBJECT,
    _SUBJECT_REST, _SUBORDINATE, _VERB_BEFORE, _WE_CLAIM, _WE_OBJECT,
)

__all__ = ["find_claim", "intent_claim"]


class _Clauses:
    """The clause breaks and subordinate words of one (long) lower-case text, found in one pass on first use."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._break_ends: list[int] | None = None
        self._subordinates: list[int] = []

    def _scan(self) -> list[int]:
        if self._break_ends is None:
            self._break_ends = [m.end() for m in _CLAUSE_BREAK.finditer(self.text)]
            self._subordinates = [m.start() for m in _SUBORDINATE.finditer(self.text)]
        return self._break_ends

    def last_break(self, until: int) -> int:
        """The end of the last clause break ending at or before ``until`` (0 when there is none)."""
        ends = self._scan()
        index = bisect_right(ends, until)
        return ends[index - 1] if index else 0

    def subordinate_between(self, start: int, end: int) -> bool:
        """Whether a subordinate word (``where``, ``if``, ...) starts in ``text[start:end]``."""
        self._scan()
        index = bisect_left(self._subordinates, start)
        return index < len(self._subordinates) and self._subordinates[index] < end


def _owned_subject(text: str, end: int, clauses: _Clauses) -> str | None:
    """The artefact noun phrase that opens the clause before ``text[end]`` (the verb) if it is the paper's own.

    Reads at most :data:`LEFT_WINDOW` characters: from a clause break that far back, or, in a longer
    clause, from the window's first word on. A clause longer than the window has no subject of its own
    (the part after its last comma still may); a subordinate word anywhere in it still counts.
    """
    begin, clause_start, long_clause = 0, 0, False
    if end > LEFT_WINDOW:
        begin = clauses.last_break(end - _SAFE)
        if begin < end - LEFT_WINDOW:
            clause_start = begin
            space = text.find(" ", end - LEFT_WINDOW - 1, end)
            begin = space + 1 if space >= 0 else end
            long_clause = True
    left = _PARENTHETICAL.sub(r"\g<noun> ", text[begin:end])
    parts = _CLAUSE_BREAK.split(left)
    long_clause = long_clause and len(parts) == 1
    if long_clause and clauses.subordinate_between(clause_start, begin):
        return None
    # The openers ("Finally, ...") open a clause; a long clause's window starts in its middle.
    clause = parts[-1] if long_clause else _CLAUSE_OPENERS.sub("", parts[-1].strip())
    if _SUBORDINATE.search(clause):
        return None
    subject = None if long_clause else _clause_subject(clause)
    if subject is None and "," in clause:
        subject = _clause_subject(_CLAUSE_OPENERS.sub("", clause.rsplit(",", 1)[1].strip()))
    return subject



def _clause_subject(clause: str) -> str | None:
    """The subject that opens ``clause`` if it is an artefact of the paper's own, else None."""
    match = _SUBJECT.match(clause)
    if not match:
        return None
    if match.group("owner") is None and _FOREIGN.search(match.group("mods")) and not re.match(
            r"an?\s+(?:(?:open[- ]?source|public|python|pytorch|jax|c\+\+|efficient|fast)\s+)?"
            r"(?:implementation|library|package|toolkit|toolbox|software|codebase)\b", clause):
        return None
    if match.group("owner") is None and re.search(r"\b(?:of|for|to|from|in|on|with)\b", match.group("mods")):
        return None
    # "the methodological solutions underlying their implementation": the head is "solutions", the artefact
    # noun only its complement ("the accompanying code", "the underlying implementation" keep theirs).
    if re.search(r"\S\s+(?:underlying|behind|supporting|accompanying)\b", match.group("mods")):
        return None
    # What follows the noun before the verb: "for GIC", "to reproduce our experiments", "of this work".
    rest = clause[match.end():]
    if re.fullmatch(r"\s+(?:is|are|was|were|has|have)\s+[^,;]{0,60}\s+and\s*", rest):
        rest = ""  # "The implementation is based on PyTorch and [is available ...]"
    if rest.strip() and not _SUBJECT_REST.match(rest):
        return None
    return clause.strip()[:80]


def find_claim(text: str) -> tuple[str, str] | None:
    """``(artefact, predicate)`` of the first availability claim in lower-case ``text``, or None.

    Parameters
    ----------
    text : str
        A sentence in lower case, its URLs replaced by :data:`~helpers.analysis.links.grammar.LINK`.

    Returns
    -------
    tuple of str or None
        The artefact's words and the predicate, or ``None`` when the sentence makes no claim.

    Examples
    --------
    >>> find_claim("our code is publicly available at link."), find_claim("we use public datasets.")
    (('our code', 'available'), None)
    """
    clauses = _Clauses(text)
    for match in _PREDICATE.finditer(text):
        window = text[max(0, match.start() - 60):match.start()]
        before = _VERB_BEFORE.search(window)
        assert before is not None  # every group of _VERB_BEFORE is optional: it matches at least at the end
        if before.group("neg"):
            continue
        predicate = match.group("strong") or match.group("weak")
        after = text[match.end():match.end() + RIGHT_WINDOW]
        if _BENEFICIARY.match(after):
            continue
        placed = LINK in predicate or _PLACE_AT.match(after) is not None
        if not before.group("verb") and not placed and not _CLAUSE_END.match(after):
            continue  # "Code available at ..." or "Code available." is a claim; "available datasets" is not
        end = match.start() - len(window) + before.start()
        if _NEGATED_END.search(text, max(0, end - 8), end):
            continue
        subject = _owned_subject(text, end, clauses)
        if subject is None:
            continue
        if match.group("weak") and not placed and not (_CLAUSE_END.match(after) and _SOFTWARE.search(subject)):
            continue  # "a proof is provided", "data are shared across clients"
        return subject, predicate.replace(LINK, "URL")
    if "we " not in text and LINK not in text and "open" not in text and "publicly" not in text:
        return None
    for match in _WE_CLAIM.finditer(text) if "we " in text else ():
        obj = match.group("obj")
        found = _WE_OBJECT.match(obj)
        if not found:
            continue
        verb = match.group("verb")
        words = found.group(0)
        if re.search(r"\ban?\s+(?!open|public)", words) and not verb.startswith(("release", "open", "publish")):
            continue
        if _FOREIGN.search(words) and not re.search(rf"\b{_OWNER}\b", words) and not verb.startswith(
                ("release", "open")):
            continue
        if verb in ("make", "made") and not re.search(r"\b(?:available|public|open|accessible)", obj):
            continue
        if verb.startswith(("provide", "share", "put", "host", "upload", "distribute")) and not re.match(
                r"(?:\s+(?:publicly|openly|freely|online))*" + _PLACE, obj[found.end():]) and not re.search(
                r"open[- ]?source|public", words):
            continue
        return words.strip(), "we " + verb
    label = (_LABEL.search(text) if LINK in text else None) or _OPEN_SOURCE_LABEL.search(text)
    if label:
        return label.group(0).strip(" .;,:(").split(LINK)[0].strip(" :(-–"), "labelled link"
    introduced = _introduced_open(text)
    if introduced:
        return introduced
    return None


def _introduced_open(text: str) -> tuple[str, str] | None:
    """``(artefact, predicate)`` when lower-case ``text`` introduces the paper's own artefact as open-source."""
    if "open" not in text and "publicly" not in text:
        return None
    match = _INTRODUCED_OPEN.search(text)
    if match is None or match.group("verb").startswith(("provide", "offer")) and (
            re.match(r"\s+with\b", text[match.end():]) or _BENEFICIARY.match(text, match.end())):
        return None  # "we provide open-source models with feedback" gives something to them
    return match.group("np").strip(" ,"), f"{match.group('verb')} (open-source)"


def intent_claim(cased: str) -> tuple[str, str] | None:
    """``(artefact, predicate)`` of a hedged intention to release ("we are considering releasing our data").

    Parameters
    ----------
    cased : str
        The sentence as written (a capitalised name may be the subject), its URLs replaced.

    Returns
    -------
    tuple of str or None
        The artefact's words and the verb marked ``(intention)``, or ``None``.

    Examples
    --------
    >>> intent_claim("We are considering releasing our data."), intent_claim("We plan to study it.")
    (('our data', 'releasing (intention)'), None)
    """
    for match in _INTENT.finditer(cased):
        verb, obj = match.group("verb").lower(), match.group("obj").lower()
        found = _WE_OBJECT.match(obj)
        if not found or re.match(r"['’]s\b|-", obj[found.end():]):
            continue  # "the model's outputs": the artefact is not what is released
        words = found.group(0)
        owned = re.search(rf"\b{_OWNER}\b", words)
        if not owned and (_FOREIGN.search(words) and not re.search(r"open|public", words)):
            continue
        if verb.startswith(("make", "making")):
            predicate = re.search(r"\b(?:available|public|accessible|open[- ]?source[d]?)\b", obj)
            if not predicate or _BENEFICIARY.match(obj, predicate.end()):
                continue
        elif verb.startswith("shar") and not re.search(r"\b(?:public|publicly|openly|online)\b|with the (?:community|"
                                                      r"public)", obj):
            continue
        elif _BENEFICIARY.match(obj, found.end()):
            continue
        return words.strip(), f"{verb} (intention)"
    return None
