"""Publisher boilerplate is removed, never the abstract around it; a proceedings volume's own record is not a
paper. Each form is written here from its description (Web of Science records of around 2010 with the
punctuation stripped, a statement in parentheses mid-text, a journal's citation line after the statement)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support import SHARED
from helpers.analysis.corpus import parse_report, read_corpus
from helpers.analysis.readers.boilerplate import strip_boilerplate

# An abstract whose punctuation the export stripped: one "sentence" that ends in the copyright statement.
UNPUNCTUATED = ("Ozone was measured at ten urban sites with passive samplers over two years the concentrations "
                "rose in summer and fell in winter and traffic explained most of the variation between sites")


def test_statement_at_the_end_of_an_unpunctuated_abstract_goes_alone():
    cleaned = strip_boilerplate(f"{UNPUNCTUATED} (C) 2010 Elsevier Ltd All rights reserved")
    assert cleaned == (UNPUNCTUATED, 1, 0)


def test_statement_with_a_publisher_before_its_year_at_the_end_of_an_unpunctuated_abstract_goes_alone():
    assert strip_boilerplate(f"{UNPUNCTUATED} © Springer-Verlag Berlin Heidelberg 2013") == (UNPUNCTUATED, 1, 0)
    kept = "We used Matlab© and the © symbol in plots of ozone at ten sites"
    assert strip_boilerplate(kept) == (kept, 0, 0)


def test_statement_glued_to_the_last_sentence_goes_alone():
    # Web of Science sometimes writes the statement with no space after the abstract's last full stop.
    text = "The tandem cell reached an efficiency of greater than 30%."
    assert strip_boilerplate(f"{text}(C) 2017 Elsevier Ltd. All rights reserved.") == (text, 2, 0)
    assert strip_boilerplate(f"{text}(C) 2017 Elsevier Ltd.") == (text, 1, 0)
    assert strip_boilerplate(f"{text}©2017 Elsevier Ltd.") == (text, 1, 0)


def test_statement_in_parentheses_mid_text_goes_alone():
    text = ("A diode-pumped Nd:YVO4 laser gives 2 W at 1064 nm. ((c) 2012 by Astro Ltd., Published exclusively by "
            "WILEY-VCH Verlag GmbH & Co. KGaA) The beam quality factor M2 is 1.1 in both directions.")
    assert strip_boilerplate(text) == (
        "A diode-pumped Nd:YVO4 laser gives 2 W at 1064 nm. The beam quality factor M2 is 1.1 in both directions.",
        1, 0)


def test_statement_followed_by_the_journals_citation_line_goes_with_it():
    cleaned = strip_boilerplate(f"{UNPUNCTUATED} (C) 2010 Wiley Periodicals Inc J Polym Sci Part A Polym Chem 48 "
                                "5961-5967 2010")
    assert cleaned == (UNPUNCTUATED, 1, 0)
    punctuated = strip_boilerplate("Polystyrene brushes grew from silica in one step. (C) 2010 Wiley Periodicals, "
                                   "Inc. J Polym Sci Part A: Polym Chem 48: 5961-5967, 2010")
    assert punctuated.text == "Polystyrene brushes grew from silica in one step."


def test_statement_after_a_closing_quote_is_its_own_sentence():
    cleaned = strip_boilerplate('The report is on the website as "Completed Investigations." Published by '
                                "Elsevier B.V.")
    assert cleaned == ('The report is on the website as "Completed Investigations."', 1, 0)


def test_rights_phrase_in_a_long_unpunctuated_abstract_keeps_the_abstract():
    cleaned = strip_boilerplate(f"{UNPUNCTUATED} All rights reserved")
    assert cleaned == (UNPUNCTUATED, 1, 0)


def test_a_year_after_an_enumeration_mark_is_not_a_statement():
    text = ("Three cohorts were compared (a) 1990 (b) 2000 and (c) 2010 births in the national registry and the "
            "youngest had the fewest injuries")
    assert strip_boilerplate(text) == (text, 0, 0)


WOS_RECORD = """PT J
AU Doe, J
TI {title}
SO J OF X
PY 2010
AB {abstract}
UT WOS:{key}
ER
"""


def write_wos(folder: Path, records: list[tuple[str, str]]) -> Path:
    body = "\n".join(WOS_RECORD.format(key=index, title=title, abstract=abstract)
                     for index, (title, abstract) in enumerate(records, start=1))
    path = folder / "savedrecs.txt"
    path.write_text(f"FN Clarivate Analytics Web of Science\nVR 1.0\n{body}\nEF\n", encoding="utf-8")
    return path


def test_no_record_with_an_abstract_is_a_zero_word_block(tmp_path):
    corpus = read_corpus(write_wos(tmp_path, [
        ("Ozone at ten sites", f"{UNPUNCTUATED} (C) 2010 Elsevier Ltd All rights reserved"),
        ("A note", "(C) 2010 Elsevier Ltd. All rights reserved."),
    ]))
    assert corpus.blocks[["kind", "n_words"]].values.tolist() == [["abstract", 31], ["boilerplate-only", 7]]
    assert corpus.papers["text"].tolist() == [UNPUNCTUATED]
    report = parse_report(corpus)
    assert report.loc[0, ["blocks", "abstract", "boilerplate-only", "boilerplate_sentences"]].tolist() == [2, 1, 1, 3]
    assert corpus.summary()["boilerplate_only"] == 1


def test_a_proceedings_volumes_own_record_is_not_a_paper(tmp_path):
    corpus = read_corpus(write_wos(tmp_path, [
        ("Ozone at ten sites", UNPUNCTUATED),
        ("Proceedings of the 9th European Conference on Precision Livestock Farming",
         "The proceedings contain 182 papers. The topics discussed include: heat stress in broilers; sensors for "
         "laying hens; lameness scoring in dairy cows."),
        ("ECPLF 2019", "The special focus in this conference is on precision livestock farming. The topics "
         "discussed include: heat stress in broilers; sensors for laying hens."),
        ("Proceedings of a workshop on ozone", "We report ozone measured at ten sites and what traffic explains."),
    ]))
    assert corpus.blocks["kind"].tolist() == ["abstract", "proceedings", "proceedings", "abstract"]
    assert len(corpus.papers) == 2
    assert parse_report(corpus).loc[0, ["blocks", "abstract", "proceedings"]].tolist() == [4, 2, 2]
    assert corpus.summary()["proceedings"] == 2


# The real exports (skipped without ../shared): nothing lost, no copyright statement analysed.
EXPORTS = SHARED / "corpora" / "exports"
needs_exports = pytest.mark.skipif(not EXPORTS.is_dir(),
                                   reason="the real database exports are in ../shared/corpora/exports (not in a clone)")
STATEMENT = re.compile(r"©\s*(?:\d{4}|the\b)|\([Cc]\)\s*(?:19|20)\d\d|\bcopyright\b|all rights reserved|licensee\b"
                       r"|creative commons|wiley periodicals|\bpublished (?:exclusively )?by (?:Elsevier|Wiley|Springer)",
                       re.IGNORECASE)


@needs_exports
@pytest.mark.parametrize("name", ["pubmed-mcda.txt", "scopus-innovation.csv", "scopus-mcda.bib", "scopus-poultry.csv",
                                  "wos-circular-economy.txt", "wos-mcda.bib", "wos-traffic-safety.txt"])
def test_real_exports_lose_no_abstract_and_analyse_no_copyright_statement(name):
    corpus = read_corpus(EXPORTS / name)
    blocks = corpus.blocks
    assert not ((blocks["n_words"] == 0) & ~blocks["kind"].isin(["no-abstract", "other"])).any()
    assert not blocks["kind"].isin(["too-short", "boilerplate-only"]).any()
    texts = corpus.papers["text"]
    assert not texts.str.contains(STATEMENT).any(), texts[texts.str.contains(STATEMENT)].tolist()
    volumes = blocks[blocks["kind"] == "proceedings"]
    assert len(volumes) == (3 if name == "scopus-mcda.bib" else 0)
