"""A book built on a small export of a field far from machine learning reads right to a researcher of that field.

The corpus is a Web of Science "Full record" plain-text export written here: 36 records of analytical and
environmental chemistry in three topics (fluorescent probes for mercury ions, PDMS microfluidic chips for in
vitro assays, heavy metals in soil), with the quirks such exports carry: abstracts whose punctuation was stripped
and that end in "(C) 2010 Elsevier Ltd All rights reserved", a copyright statement in parentheses mid-text, one
followed by the journal's citation line, the character · written "center dot", ions with their charge (Hg2+),
acronyms ending in s (PDMS) and no links at all.

The analysis loses no abstract and analyses no copyright statement; every theme label's words occur in its
theme's abstracts and no theme is under the size floor (the checks of ``benchmarks/field_exports.py``). The book,
built strictly, names its subject in its title, and Chromium reads every page: no machine-learning wording
outside the package's own Validation and Performance pages, no counted phrase that disagrees with its number, no
table or figure of link shares of a corpus without links, no console error.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.browser import PageWatch, serve

sys.path.insert(0, str(ROOT / "benchmarks"))
from field_exports import check  # noqa: E402

pytestmark = pytest.mark.browser

SUBJECT = "Analytical Chemistry"
#: Per topic: a title stem, and sentences an abstract of it is made of (each abstract takes five, by its number).
TOPICS = {
    "mercury": ("A fluorescent probe for mercury ions in water", [
        "A rhodamine fluorescent probe detects mercury ions (Hg2+) in river water with a turn-on response",
        "The probe shows a detection limit of 2 nM for Hg2+ and high selectivity over competing metal ions",
        "Fluorescence titration and Job plots give a binding stoichiometry of one Hg2+ ion per probe molecule",
        "Paper test strips loaded with the probe let field staff read mercury contamination by eye",
        "Spiked tap water and lake water samples gave recoveries between 96 and 104 percent",
        "The rhodamine spirolactam ring opens on binding, which turns on a strong pink fluorescence",
        "Interference from copper, lead and cadmium ions was negligible at tenfold excess",
    ]),
    "microfluidics": ("PDMS microfluidic chips for in vitro cell assays", [
        "Polydimethylsiloxane (PDMS) microfluidic chips were moulded by soft lithography for in vitro cell culture",
        "Endothelial cells grown in the PDMS channels formed confluent layers under laminar flow within two days",
        "The chips deliver drug gradients to cultured cells and record their viability by live imaging",
        "Oxygen permeability of PDMS keeps the cultured cells viable over a week of perfusion",
        "In vitro toxicity of nanoparticles was compared between static wells and perfused microchannels",
        "Plasma bonding sealed the PDMS layer to glass and withstood flow rates of 50 microlitres per minute",
        "Small molecule absorption into PDMS walls lowered the drug dose the cells received",
    ]),
    "soil": ("Heavy metal contamination of agricultural soil", [
        "Heavy metal contamination of agricultural soil near a smelter was mapped at 120 sampling sites",
        "Cadmium and lead concentrations in the topsoil exceeded the national guideline values at most sites",
        "Sequential extraction showed that most cadmium in the soil was in the exchangeable fraction",
        "Biochar amendment lowered the bioavailable cadmium in soil and its uptake by rice plants",
        "Ecological risk indices ranked cadmium as the metal of highest concern for the farmland",
        "Rice grains from contaminated paddy fields held cadmium above the food safety limit",
        "Lime and biochar applied together raised soil pH and reduced metal mobility in the paddy soil",
    ]),
}
N_PER_TOPIC = 12


def abstract(topic: str, index: int) -> str:
    """Five of the topic's sentences, chosen by ``index`` (each abstract a different mix)."""
    sentences = TOPICS[topic][1]
    chosen = [sentences[(index + step * (1 + index % 3)) % len(sentences)] for step in range(5)]
    return ". ".join(dict.fromkeys(chosen)) + "."


def records() -> list[dict[str, str]]:
    """The export's records, with the quirks of Web of Science exports of around 2010 on some of them."""
    rows = []
    for topic_number, topic in enumerate(TOPICS):
        for index in range(N_PER_TOPIC):
            number = topic_number * N_PER_TOPIC + index
            text = abstract(topic, index)
            if index == 0:  # punctuation stripped: one "sentence" ending in the statement
                text = re.sub(r"[.,()]", "", text) + " (C) 2010 Elsevier Ltd All rights reserved"
            elif index == 1:  # a statement in parentheses mid-text
                first, rest = text.split(". ", 1)
                text = (f"{first} ((c) 2012 by Astro Ltd., Published exclusively by WILEY-VCH Verlag GmbH & Co. "
                        f"KGaA). {rest}")
            elif index == 2:  # a statement followed by the journal's citation line
                text += " (C) 2010 Wiley Periodicals Inc J Polym Sci Part A Polym Chem 48 5961-5967 2010"
            elif index == 3:  # the character · as Web of Science writes it
                text = text.replace(". ", ". The complex Cu center dot L was also formed. ", 1)
            rows.append({"TI": f"{TOPICS[topic][0]}: study {index + 1}", "AU": f"Author{number}, A",
                         "SO": ["ANALYTICAL CHEMISTRY", "ENVIRONMENTAL POLLUTION", "LAB ON A CHIP"][topic_number],
                         "PY": str(2010 + index % 4), "AB": text, "DI": f"10.1016/j.chem.2010.{number:03d}",
                         "UT": f"WOS:{number:015d}"})
    return rows


def write_export(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["FN Clarivate Analytics Web of Science", "VR 1.0"]
    for row in records():
        lines += ["PT J", f"AU {row['AU']}", f"AF {row['AU']}", f"TI {row['TI']}", f"SO {row['SO']}",
                  "WC Chemistry, Analytical; Environmental Sciences", "SC Chemistry; Environmental Sciences & Ecology",
                  f"AB {row['AB']}", f"PY {row['PY']}", f"DI {row['DI']}", f"UT {row['UT']}", "ER", ""]
    path = folder / "savedrecs.txt"
    path.write_text("\n".join(lines + ["EF"]) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def field_book(tmp_path_factory):
    """The export, its analysis tables (``analyse``) and its book, built as ``make strict-book`` builds the seed's."""
    work = tmp_path_factory.mktemp("field-book")
    corpus = write_export(work / "corpus")
    env = dict(os.environ, BOOK_CORPUS=str(corpus), BOOK_ANALYSIS_CACHE=str(work / "cache"),
               BOOK_FIGURE_DIR=str(work / "book" / "_build" / "html" / "figures"),
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    bin_dir = Path(sys.executable).parent
    steps = [[sys.executable, "-m", "helpers", "analyse", str(corpus), "--out", str(work / "tables")],
             [sys.executable, "-m", "helpers.book.build.prebuild", "--path-output", str(work / "book")],
             [str(bin_dir / "jupyter-book"), "build", str(ROOT), "--path-output", str(work / "book"), "-W", "-n",
              "--keep-going"]]
    for step in steps:
        build = subprocess.run(step, env=env, capture_output=True, text=True, cwd=ROOT)
        assert build.returncode == 0, " ".join(step[:4]) + "\n" + build.stdout[-4000:] + build.stderr[-4000:]
    return work / "tables", work / "book" / "_build" / "html"


def test_the_analysis_loses_nothing_and_labels_in_the_abstracts_words(field_book):
    tables, _ = field_book
    found = check("savedrecs.txt", tables)
    assert (found.papers, found.lost, found.copyright_left) == (36, 0, 0)
    assert found.label_parts_found == found.label_parts > 0, found.missing_parts
    assert (found.labels_naming_twice, found.themes_under_floor) == (0, 0)
    terms = (tables / "terms.csv").read_text(encoding="utf-8")
    for broken in ("center dot", "hg2,", "pdm,", "vitro,"):  # a term as a CSV cell ends in a comma
        assert f"\n{broken}" not in terms and f",{broken}" not in terms, broken


#: Wording of machine learning a chemistry corpus never uses (the package's own pages measure it on ICML).
ML_WORDS = re.compile(r"\b(?:machine learning|neural networks?|language models?|NeurIPS|ICML|PMLR|RLHF|deep learning"
                      r"|reinforcement learning|transformers?)\b", re.IGNORECASE)
#: A counted phrase whose noun disagrees with its number, or a placeholder shown as a value.
SLIPS = re.compile(r"(?<![\d.,])\b1 (?:papers|abstracts|blocks|entries|rows|themes|terms|files|links)\b"
                   r"|\b(?:a|an|one) (?:papers|abstracts|blocks|entries|rows|themes|files)\b"
                   r"|\b0 of 0\b|No author name available|\bnan\b")
OWN_PAGES = ("chapters/validation.html", "chapters/performance.html")


def test_every_page_reads_as_the_fields_book(browser, field_book):
    _, folder = field_book
    server = serve(folder)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    pages = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.html")
                   if not any(part.startswith("_") for part in p.relative_to(folder).parts)
                   and p.name not in ("search.html", "index.html"))  # index.html only redirects to intro.html
    assert "chapters/links.html" in pages and "chapters/themes.html" in pages
    try:
        for path in pages:
            page = browser.new_page()
            watch = PageWatch(page, base)
            page.goto(f"{base}/{path}", wait_until="networkidle")
            text = page.inner_text("main")
            assert watch.errors == [], (path, watch.errors)
            if path not in OWN_PAGES:
                assert ML_WORDS.findall(text) == [], path
            assert SLIPS.findall(text) == [], path
            assert SUBJECT in page.title(), (path, page.title())
            if path == "chapters/links.html":  # no link in any abstract: no shares, tables or figures of them
                assert page.locator("#fig-links-shares, #fig-links-host-kinds").count() == 0
                assert "no link" in text.lower()
            page.close()
    finally:
        server.shutdown()
