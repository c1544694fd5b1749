"""The availability grammar's work grows linearly with a sentence: a block without full stops is one sentence."""

import re

import pytest

import helpers.analysis.links.availability as availability
import helpers.analysis.links.claims as claims
from helpers.analysis.links.availability import abstract_verdicts


class _Reads:
    """Characters handed to the grammar's regular expressions (each call: the part of the string it may read)."""

    def __init__(self) -> None:
        self.chars = 0

    def add(self, string: str, pos: int = 0, endpos: int | None = None) -> None:
        self.chars += len(string[pos:endpos])


class _CountingPattern:
    def __init__(self, pattern: re.Pattern, reads: _Reads) -> None:
        self._pattern, self._reads = pattern, reads

    def __getattr__(self, name):
        return getattr(self._pattern, name)

    def _scan(self, method: str, string: str, pos: int = 0, endpos: int | None = None):
        self._reads.add(string, pos, endpos)
        return getattr(self._pattern, method)(string, pos, len(string) if endpos is None else endpos)

    def search(self, *args):
        return self._scan("search", *args)

    def match(self, *args):
        return self._scan("match", *args)

    def fullmatch(self, *args):
        return self._scan("fullmatch", *args)

    def finditer(self, *args):
        return self._scan("finditer", *args)

    def findall(self, *args):
        return self._scan("findall", *args)

    def split(self, string, maxsplit=0):
        self._reads.add(string)
        return self._pattern.split(string, maxsplit)

    def sub(self, repl, string, count=0):
        self._reads.add(string)
        return self._pattern.sub(repl, string, count)


class _CountingRe:
    """The ``re`` module as the grammar sees it, counting what its functions read."""

    def __init__(self, reads: _Reads) -> None:
        self._reads = reads

    def __getattr__(self, name):
        function = getattr(re, name)
        if name in ("search", "match", "fullmatch", "finditer", "findall", "split"):
            def counted(pattern, string, *args, **kwargs):
                self._reads.add(string)
                return function(pattern, string, *args, **kwargs)
            return counted
        if name == "sub":
            def substituted(pattern, repl, string, *args, **kwargs):
                self._reads.add(string)
                return function(pattern, repl, string, *args, **kwargs)
            return substituted
        return function


def grammar_reads(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list]:
    """``(characters read, verdicts)`` of :func:`abstract_verdicts` on ``text``."""
    reads = _Reads()
    with monkeypatch.context() as patch:
        for module in (availability, claims):
            patch.setattr(module, "re", _CountingRe(reads))
            for name, value in list(vars(module).items()):
                if isinstance(value, re.Pattern):
                    patch.setattr(module, name, _CountingPattern(value, reads))
        verdicts = abstract_verdicts(text)
    return reads.chars, verdicts


# Availability words that the grammar reads and rejects (no artefact of the paper's own): clauses cut by
# "and we", and one clause that never ends.
PHRASES = ["The results are available and we prove bounds", "the proof is provided in the appendix"]


@pytest.mark.parametrize("phrase", PHRASES)
def test_the_grammar_reads_each_added_phrase_once(phrase, monkeypatch):
    # 40, 80 and 120 copies of the phrase in one sentence: each 40 more cost the same characters, so the
    # work is linear; re-reading everything to the left of each availability word made it grow each time.
    reads, verdicts = zip(*(grammar_reads(" ".join([phrase] * copies), monkeypatch) for copies in (40, 80, 120)))
    assert verdicts == ([], [], [])
    assert reads[2] - reads[1] == reads[1] - reads[0]


def test_a_claim_after_a_long_clause_is_still_found():
    filler = " ".join(["the proof is provided in the appendix"] * 30)
    verdicts = abstract_verdicts(f"We study {filler}, our code is available at https://github.com/a/b.")
    assert [(n, v.statement, v.reason) for n, _, v in verdicts] == [
        (1, "linked", "'our code' + 'available'; URL in the sentence")]
    # ... unless a subordinate word opens that long clause, however far back.
    assert abstract_verdicts(f"If we study {filler}, our code is available.") == []
