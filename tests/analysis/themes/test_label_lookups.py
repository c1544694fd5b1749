"""Labels read each text once and look defined pairs up by term: the same answers as reading every text per label
and walking every pair (the rules of helpers.analysis.themes.labels, stated here directly)."""

from __future__ import annotations

from helpers.analysis.themes.concepts import _defined_as_one
from helpers.analysis.themes.written_forms import written_forms, written_forms_of_tokens, written_tokens

TEXTS = ["PDMS nanochannels were made. Nanochannels of PDMS walls.", "The Higgs boson; higgs bosons &amp; PDMS walls.",
         "Polyaniline (PANI) films. PANI film, polyaniline films!", "3D PDMS-walls of the Kumar–Hall model's wall."]


def test_texts_cut_once_give_the_forms_of_the_texts():
    terms = ["pdm", "nanochannel", "higg boson", "pdms wall", "polyaniline film", "pani film", "wall", "absent"]
    tokens = [written_tokens(text) for text in TEXTS]
    assert written_forms_of_tokens(terms, tokens) == written_forms(terms, TEXTS) == {
        "pdm": "PDMS", "nanochannel": "nanochannels", "higg boson": "Higgs boson", "pdms wall": "PDMS walls",
        "polyaniline film": "polyaniline films", "pani film": "PANI film", "wall": "walls"}
    # The same cut texts serve several labels: reading them again gives the same forms.
    assert written_forms_of_tokens(["wall"], tokens) == written_forms_of_tokens(["wall"], tokens) == {"wall": "walls"}


def walk_every_pair(first: str, second: str, same_thing: set[frozenset[str]]) -> bool:
    """The rule as one walk over every pair."""
    if frozenset((first, second)) in same_thing:
        return True
    for pair in same_thing:
        if len(pair) != 2:
            continue
        one, other = tuple(pair)
        for short, long in ((one, other), (other, one)):
            if (first == short and f" {long} " in f" {second} ") or (second == short and f" {long} " in f" {first} "):
                return True
    return False


def test_defined_pairs_looked_up_by_term_answer_as_a_walk_over_every_pair():
    same_thing = {frozenset(("pani", "polyaniline")), frozenset(("hg", "mercury")), frozenset(("pani", "pan")),
                  frozenset(("llm",))}
    terms = ["pani", "polyaniline", "polyaniline film", "pan", "pan fiber", "hg", "mercury ion", "film", "llm",
             "language model", "mercury", "thin polyaniline"]
    answers = {(a, b): _defined_as_one(a, b, same_thing) for a in terms for b in terms}
    assert answers == {(a, b): walk_every_pair(a, b, same_thing) for a in terms for b in terms}
    assert sorted(pair for pair, yes in answers.items() if yes and pair[0] < pair[1]) == [
        ("hg", "mercury"), ("hg", "mercury ion"), ("pan", "pani"), ("pan fiber", "pani"), ("pani", "polyaniline"),
        ("pani", "polyaniline film"), ("pani", "thin polyaniline")]
    # A frozenset of pairs (hashable) is read the same way.
    assert _defined_as_one("pani", "polyaniline film", frozenset(same_thing))
