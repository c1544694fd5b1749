"""Labels a reader can use: every part as the theme's abstracts write it, no label naming one
thing twice where the abstracts define one part as the other's abbreviation, a theme of common terms marked
"(general)"; on small corpora written here."""

import numpy as np
import pandas as pd

from helpers.analysis.cooccurrence.acronyms import abbreviation_pairs, element_definitions, find_acronyms
from helpers.analysis.pipeline import run_pipeline
from helpers.analysis.themes.labels import label_parts, theme_labels
from helpers.analysis.themes.written_forms import written_forms, written_label

POLYANILINE = [
    "Polyaniline (PANI) films were electropolymerised on PDMS nanochannels; the PANI films showed high conductivity.",
    "Conductive polyaniline (PANI) coatings on PDMS nanochannels gave PANI layers of high conductivity.",
    "We doped polyaniline (PANI) films with acids; PANI conductivity rose in the nanochannels.",
    "PANI nanofibres and polyaniline (PANI) films in PDMS nanochannels were characterised by conductivity.",
    "Thin polyaniline (PANI) films: PANI conductivity depends on doping in PDMS nanochannels.",
    "Polyaniline (PANI) composites filled PDMS nanochannels and PANI conductivity was measured.",
    "Electrodeposited polyaniline (PANI) films in nanochannels; PANI doping controls conductivity.",
    "Polyaniline (PANI) films on PDMS; PANI conductivity and doping of nanochannels."]
MERCURY = [
    "Mercury (Hg) ions were detected by a fluorescent probe; Hg binding quenched the fluorescence in water.",
    "A fluorescent sensor for mercury (Hg) in water: Hg selectivity over other ions and fluorescence turn-off.",
    "Detection of mercury (Hg) by fluorescence; the probe binds Hg ions in river water samples.",
    "Mercury (Hg) sensing in water with a fluorescent probe; Hg ions quench fluorescence selectively.",
    "Fluorescence detection of mercury (Hg) ions: the probe shows Hg selectivity in tap water.",
    "A probe for mercury (Hg): fluorescence quenching by Hg ions enables detection in water.",
    "Mercury (Hg) ions in water were detected; Hg quenches the probe's fluorescence.",
    "Selective fluorescent detection of mercury (Hg) ions; Hg in water samples at low levels."]


def test_label_parts_are_spelled_as_the_abstracts_write_them():
    # Issue 46: "nanochannel · pdm" (PDMS singularised), "oeira" for Oeiras, "higg boson".
    texts = ["PDMS nanochannels in Oeiras.", "Nanochannels of PDMS near Oeiras.", "The Higgs boson and nanochannels.",
             "Graph neural networks.", "Graph neural networks and graph neural networks on graphs."]
    forms = written_forms(["pdm", "nanochannel", "oeira", "higg boson", "graph neural", "graph", "absent"], texts)
    assert forms == {"pdm": "PDMS", "nanochannel": "nanochannels", "oeira": "Oeiras", "higg boson": "Higgs boson",
                     "graph neural": "graph neural", "graph": "graph"}
    assert written_label("nanochannel · pdm", forms) == "nanochannels · PDMS"
    assert written_label("oeira · absent (general)", forms) == "Oeiras · absent (general)"
    assert written_label("graph · pdm (2)", forms) == "graph · PDMS (2)"
    assert label_parts("Oeiras · absent (general)") == ["Oeiras", "absent"]


def test_a_term_and_the_abbreviation_the_abstracts_define_for_it_are_one_concept():
    # Issue 46: "pani · polyaniline", "hg · mercury"; no initials spell them, the abstracts define them.
    vocabulary = ["hg", "mercury", "ion", "pani", "polyaniline", "film"]
    counts = np.array([[9.0, 8, 7, 0, 0, 1], [0, 0, 1, 9, 8, 7]])
    shown = [["hg", "mercury", "ion"], ["pani", "polyaniline", "film"]]
    assert theme_labels(shown, counts, vocabulary) == ["hg · mercury", "pani · polyaniline"]
    pairs = abbreviation_pairs(find_acronyms(POLYANILINE), MERCURY)
    assert pairs == {frozenset(("pani", "polyaniline")), frozenset(("hg", "mercury"))}
    assert theme_labels(shown, counts, vocabulary, pairs) == ["mercury · ion", "polyaniline · film"]


def test_chemical_elements_defined_by_their_symbols():
    assert element_definitions(["Lead (Pb) and cadmium (Cd2+) ions", "copper (Cu(II)) and iron (Fe III)",
                                "a gold (Ag) mistake", "the model (M)"]) == {
        ("pb", "lead"), ("cd", "cadmium"), ("cu", "copper"), ("fe", "iron")}


def test_a_corpus_labels_its_themes_in_its_own_words(tmp_path):
    (tmp_path / "chemistry.txt").write_text("Chemistry\n\n" + "\n\n".join(POLYANILINE + MERCURY) + "\n")
    analysis = run_pipeline([tmp_path])
    model = analysis.themes.model
    # The fold alone gives "hg · ion" and "pani conductivity · film".
    assert model.themes["label"].tolist() == ["mercury · ions", "PANI conductivity · films"]
    texts = pd.Series(POLYANILINE + MERCURY, index=analysis.papers["paper_id"])
    papers = analysis.papers.set_index("paper_id")
    pairs = abbreviation_pairs(analysis.cooccurrence.acronyms, POLYANILINE + MERCURY)
    for theme, label in zip(model.themes["theme"], model.themes["label"]):
        written = " ".join(texts[papers.index[papers["theme"] == theme]])
        first, second = label_parts(label)
        assert first in written and second in written
        assert frozenset((first.lower(), second.lower())) not in pairs
    assert analysis.hierarchy.table["label"].tolist() == model.themes["label"].tolist()


def test_a_label_part_holding_an_acronym_that_ends_in_s_is_shown_as_written():
    # The vocabulary keeps "PDMS" whole (never "pdm"), so "pdms wall" is the term; the abstracts write "PDMS walls".
    from helpers.analysis.themes.written_forms import written_forms

    texts = ["Small molecules are absorbed into PDMS walls.", "PDMS walls swell in solvent. Nanochannels of PDMS."]
    assert written_forms(["pdms wall", "pdms", "nanochannel"], texts) == {
        "pdms wall": "PDMS walls", "pdms": "PDMS", "nanochannel": "Nanochannels"}
