"""The Validation page's checks on corpora of other fields (``benchmarks/field_exports.py`` ->
``helpers.book.reports.validation.field_reading``), and the benchmark's own rules on small cases written here."""

from __future__ import annotations

import sys

from helpers.book.reports.validation import field_reading
from tests.support import ROOT, benchmark_results

sys.path.insert(0, str(ROOT / "benchmarks"))
from field_exports import label_parts, names_twice, occurs  # noqa: E402

HEADER = ("corpus,papers,lost,copyright_left,label_parts,label_parts_found,labels_naming_twice,themes,"
          "smallest_theme,themes_under_floor,k_at_top,missing_parts\n")


def test_the_table_and_sentence_read_the_benchmarks_rows(tmp_path):
    results = benchmark_results(tmp_path)
    (results / "field_exports.csv").write_text(
        HEADER + "wos-traffic-safety.txt,729,0,0,16,15,0,6,52,0,False,crash rate\n"
        "icml-2023-2025,751,0,1,30,30,1,12,26,2,False,\n", encoding="utf-8")
    table, values = field_reading(tmp_path)
    assert table.to_dict("records") == [
        {"corpus": "traffic safety (Web of Science)", "abstracts": "729", "abstracts lost": 0, "copyright left": 0,
         "label words found": "15 of 16", "labels naming twice": 0, "themes": 6, "smallest theme": 52,
         "themes under the floor": 0},
        {"corpus": "ICML 2023–2025", "abstracts": "751", "abstracts lost": 0, "copyright left": 1,
         "label words found": "30 of 30", "labels naming twice": 1, "themes": 12, "smallest theme": 26,
         "themes under the floor": 2}]
    assert values["field_sentence"] == (
        "On 2 corpora, 0 abstracts were lost, 1 analysed text still holds a copyright statement, 45 of 46 label "
        "words (98%) occur as written in their theme's abstracts, 1 label names one thing twice and 2 themes are "
        "under the floor.")


def test_a_label_part_occurs_only_as_whole_words():
    assert label_parts("broad: light trapping, optical") == ["light trapping", "optical"]
    assert label_parts("district heating · heat pump") == ["district heating", "heat pump"]
    assert [occurs(part, "A turn-on probe for Hg2+ in PDMS chips") for part in ("turn", "pdm", "turn-on", "hg2+")] \
        == [False, False, True, True]
    assert occurs("in vivo", "tested In-vivo and in vitro")


def test_a_label_names_one_thing_twice_only_where_the_corpus_defines_the_pair():
    definitions = {("pani", "polyaniline")}
    assert names_twice(["polyaniline", "pani"], definitions)
    assert not names_twice(["polyaniline", "sensor"], definitions)
