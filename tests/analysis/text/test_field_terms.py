"""Terms in a field's own words: Web of Science escapes, chemical species, acronyms and names, Latin phrases,
sequences."""

from pathlib import Path

import pytest

from helpers.analysis.cooccurrence import candidate_term_matrix, candidate_terms, find_acronyms
from helpers.analysis.corpus import read_corpus
from helpers.analysis.text.word_classes import fold_phrase
from helpers.analysis.text.cleaning import analysis_text, decode_wos_escapes
from helpers.analysis.text.tokens import tokenize, tokenize_corpus
from helpers.analysis.themes import theme_counts, theme_terms


def words(raw: str) -> list[str]:
    return tokenize(analysis_text(raw))


def theme_words(raw: str) -> list[str]:
    return [term for term in theme_terms(analysis_text(raw)) if " " not in term]


@pytest.mark.parametrize("raw, expected", [
    ("CuSO4 center dot 5H2O crystals", "CuSO4 · 5H2O crystals"),
    ("OH center dot radicals and M-circle dot stars", "OH · radicals and M-⊙ stars"),
    ("at similar to 5 nm, similar to that of PDMS", "at ∼ 5 nm, similar to that of PDMS"),
    ("increased by approximate to 10%", "increased by ≈ 10%"),
    ("BMI greater than or equal to 30 and less than or equal to 40", "BMI ≥ 30 and ≤ 40"),
    ("a cost greater than or equal to the budget", "a cost greater than or equal to the budget"),  # English
])
def test_web_of_science_escapes_are_decoded(raw, expected):
    assert decode_wos_escapes(raw) == expected


def test_a_decoded_symbol_is_a_boundary_never_a_word():
    assert list(theme_terms(analysis_text("copper center dot water complexes"))) == [
        "copper", "water", "complex", "water complex"]
    assert words("BMI greater than or equal to 30 in adults") == ["bmi", "in", "adults"]


@pytest.mark.parametrize("raw, expected", [
    ("Hg2+ detection with a turn-on probe", ["hg2+", "detection", "with", "turn-on", "probe"]),
    ("Cu(II) and Fe(III) complexes", ["cu(ii)", "and", "fe(iii)", "complexes"]),
    ("Na+ and NH4+ ions, SO42− anions", ["na+", "and", "nh4+", "ions", "so42−", "anions"]),
    ("CO2 capture by TiO2", ["co2", "capture", "by", "tio2"]),
    ("C++ code and a+b sums", ["code", "and", "sums"]),            # no species: a language, a sum
    ("method (ii) then (iii)", ["method", "ii", "then", "iii"]),   # list numbering: no species
])
def test_chemical_species_and_charges_stay_whole(raw, expected):
    assert words(raw) == expected


def test_no_species_is_cut_to_a_fragment_or_a_bare_numeral():
    theme = theme_words("Hg2+ and Cu(II) sensing; Cu II salts; Fe III and in II; Phase III trials")
    assert theme == ["hg2+", "cu(ii)", "sensing", "cu(ii)", "salt", "fe(iii)", "ii", "phase", "iii", "trial"]
    assert sorted(candidate_terms(analysis_text("a Hg2+ sensor for Cu(II) ions"))) == [
        "cu(ii) ion", "hg2+ sensor", "ion", "sensor"]


@pytest.mark.parametrize("raw, expected", [
    ("PDMS films on GaAs and InAs wafers", ["pdms", "film", "gaas", "inas", "wafer"]),
    ("AIDS and NeurIPS in clinics", ["aids", "neurips", "clinic"]),                 # acronyms, not aid or neurip
    ("a survey in Oeiras and Athens, in Texas", ["survey", "oeiras", "athens", "texas"]),  # names
    ("LLMs, GNNs, ViTs and mRNAs", ["llm", "gnn", "vit", "mrna"]),                  # an acronym's plural
    ("Networks of Gaussians and Models", ["network", "gaussian", "model"]),         # capitals of plain words
    ("The Oeiras survey", ["oeira", "survey"]),                                       # no lower-case word before
])
def test_acronyms_formulas_and_names_keep_their_form(raw, expected):
    assert theme_words(raw) == expected


def test_an_acronym_defined_in_the_abstracts_merges_with_its_unsingularised_form():
    texts = ["Polydimethylsiloxane (PDMS) channels.", "Polydimethylsiloxane (PDMS) films and PDMS channels."]
    assert find_acronyms(texts)[["acronym", "long_form", "scope"]].values.tolist() == [
        ["pdms", "polydimethylsiloxane", "corpus"]]
    assert fold_phrase(["PDMS", "Channels"]) == "pdms channel"
    tokens = tokenize_corpus(texts, ["a", "b"], clean=True)
    binary, terms = candidate_term_matrix(tokens, {"pdms": "polydimethylsiloxane"})
    assert terms.tolist() == ["channel", "film", "pdms channel", "polydimethylsiloxane"]
    assert binary.toarray().tolist() == [[1, 0, 0, 1], [1, 1, 1, 1]]


def test_in_vitro_and_in_vivo_are_phrases():
    text = analysis_text("tested in vitro and in vivo with an in vitro assay, ex vivo and in ovo feeding")
    assert tokenize(text) == ["tested", "in-vitro", "and", "in-vivo", "with", "an", "in-vitro", "assay",
                              "ex-vivo", "and", "in-ovo", "feeding"]
    assert sorted(candidate_terms(text)) == ["assay", "feeding", "in-ovo feeding", "in-vitro assay"]
    assert "vitro" not in theme_terms(text) and "vivo" not in theme_terms(text)


def test_sequences_and_letter_runs_are_never_terms():
    text = analysis_text("GGGGG repeats and ATCGTTAGC motifs bind xxxx sites in cattle")
    assert theme_words("GGGGG repeats and ATCGTTAGC motifs bind xxxx sites in cattle") == [
        "repeats", "motif", "bind", "site", "cattle"]
    assert sorted(candidate_terms(text)) == ["cattle", "motif", "site"]


STRIPPED = ("A novel Hg2+ turn on fluorescent probe based on rhodamine was designed for the detection of Hg2+ in "
            "water samples with a follow up study of the trade off between the turn on response and the selectivity "
            "of the probe in living cells")


def test_a_compound_broken_by_stripped_punctuation_is_one_word_again():
    assert theme_words(STRIPPED) == [
        "hg2+", "turn-on", "fluorescent", "probe-based", "rhodamine", "designed", "detection", "hg2+", "water",
        "sample", "follow-up", "trade-off", "turn-on", "response", "selectivity", "probe", "living", "cell"]
    # With its punctuation, "turn on" is a verb and stays two words.
    assert words("We turn on the probe. It is a turn-on probe") == [
        "we", "turn", "on", "the", "probe", "it", "is", "turn-on", "probe"]


WOS_RECORD = """PT J
AU Roe, R
TI Record {n}
SO J CHEM
AB {abstract}
PY 2012
UT WOS:{n}
ER
"""


def test_a_web_of_science_export_gives_no_broken_term(tmp_path: Path):
    abstracts = [
        "A Hg2+ probe in PDMS channels detects Hg2+ in vitro; CuSO4 center dot 5H2O center dot crystals were used",
        "Cu(II) ions in PDMS at similar to 5 nm bind GGGGG repeats in vivo in Oeiras",
        "The Hg2+ probe and Cu(II) ions in vitro; PDMS chips in Oeiras detect Hg2+ ions",
    ]
    records = "\n".join(WOS_RECORD.format(n=n, abstract=a) for n, a in enumerate(abstracts, start=1))
    path = tmp_path / "savedrecs.txt"
    path.write_text(f"FN Clarivate Analytics Web of Science\nVR 1.0\n{records}\nEF\n", encoding="utf-8")
    papers = read_corpus(path).papers
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    _, vocabulary = theme_counts(tokens, min_df=2)
    assert vocabulary.tolist() == [
        "cu(ii)", "cu(ii) ion", "hg2+", "hg2+ probe", "in-vitro", "ion", "oeiras", "pdms", "probe"]
    _, terms = candidate_term_matrix(tokens, min_papers=2)
    assert terms.tolist() == ["cu(ii) ion", "hg2+ probe", "ion", "oeiras", "probe"]
    _, every_term = candidate_term_matrix(tokens)
    broken = {"center", "dot", "hg2", "ii", "pdm", "oeira", "vitro", "vivo", "ggggg"}
    assert not broken & {word for term in [*vocabulary, *every_term] for word in term.split()}
