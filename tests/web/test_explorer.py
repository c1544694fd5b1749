"""The explorer's Python side: titles, the data file and the page shell (browser tests drive the page)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from helpers.analysis.corpus.titles import short_text, strip_markup, with_titles
from helpers.web.assets import inline_script, script_json, static_text
from tests.support import ROOT, SEED_DIR
from tests.support.explorer_papers import HOSTILE, markup_papers, three_papers


def test_fallback_title_strips_html_and_markdown_but_keeps_math():
    assert strip_markup("<b>Libra</b> is *fast* and **small**: see [the code](https://x.org) `lib`.") \
        == "Libra is fast and small: see the code lib."
    assert short_text("<b>Libra</b>: a $\\mathcal{O}(n)$ sketch for <i>streams</i> of data", 5) \
        == "Libra: a $\\mathcal{O}(n)$ sketch for…"
    assert strip_markup("a < b and c > d, x<sub>i</sub>") == "a < b and c > d, xi"


def test_with_titles_falls_back_to_clean_first_words():
    papers = pd.DataFrame({"paper_id": ["p1", "p2"], "text_sha1": ["s1", "s2"],
                           "text": ["<b>Libra</b> balances load.", "Known paper text."]})
    meta = pd.DataFrame({"abstract_sha1": ["s2"], "title": ["Known"], "authors": ["A. B"],
                         "pmlr_id": [""], "openreview_id": [""], "pdf_url": [""]})
    titled = with_titles(papers, meta)
    assert titled["display_title"].tolist() == ["p1: Libra balances load.", "Known"]
    assert titled["title"].tolist() == ["", "Known"]


EXPECTED_DATA_FILE = (
    'window.EXPLORER_DATA = {"themes":{"1":"llm \\u0026 \\"language\\"",'
    '"2":"graph \\u00b7 \\u003cb\\u003egnn\\u003c/b\\u003e"},'
    '"states":["linked","dangling","promised","none"],"files":["a.txt","b.txt"],"sources":["a.txt","b.txt"],'
    '"terms":["graph","\\u003cmodel\\u003e"],"papers":{"id":["p3","p1","p2"],'
    '"title":["Three","One","Two \\u003cscript\\u003ealert(\\"x\\")\\u003c/script\\u003e \\u0026 \\"quoted\\" '
    '\\u0027single\\u0027"],'
    '"authors":["\\u003ci\\u003eE\\u003c/i\\u003e","C \\"D\\"","A \\u0026 B"],'
    '"theme":[null,1,2],"state":["none","linked","dangling"],"words":[3,10,12],"file":[0,0,1],"source":[0,0,1],'
    '"text":["Plain.","See https://github.com/o/r and $x\\u003c1$.",'
    '"Code is available. \\u003cscript\\u003ealert(\\"x\\")\\u003c/script\\u003e \\u0026 \\"quoted\\" '
    '\\u0027single\\u0027"],'
    '"links":[[],["https://github.com/o/r"],[]],'
    '"claims":[[],[["linked","See https://github.com/o/r and $x\\u003c1$."]],[["dangling","Code is available."]]],'
    '"terms":[[],[0,1],[1]]}};\n'
)


def test_data_file_exact_content_for_three_papers(tmp_path):
    from helpers.web.explorer_data import DATA_FILE, explorer_data, write_explorer_data

    path = write_explorer_data(explorer_data(*three_papers()), tmp_path)
    assert path == tmp_path / DATA_FILE
    assert path.read_text(encoding="ascii") == EXPECTED_DATA_FILE


def test_data_file_escapes_every_field_and_round_trips(tmp_path):
    from helpers.web.explorer_data import data_script, explorer_data

    data = explorer_data(*three_papers())
    script = data_script(data)
    for character in "<>&'":
        assert character not in script
    assert script.isascii()
    decoded = json.loads(script[len("window.EXPLORER_DATA = "):-2])
    assert decoded == data
    assert decoded["papers"]["title"][2] == "Two " + HOSTILE
    assert decoded["papers"]["text"][2].endswith(HOSTILE)


def test_only_http_links_reach_the_data():
    from helpers.web.explorer_data import explorer_data

    data = explorer_data(*three_papers())
    urls = [url for urls in data["papers"]["links"] for url in urls]
    assert urls == ["https://github.com/o/r"]
    assert "javascript" not in json.dumps(data)


def test_no_theme_model_and_no_map():
    from helpers.web.explorer_data import explorer_data

    papers, links, statements, _, _ = three_papers()
    data = explorer_data(papers, links, statements, {}, None)
    assert data["themes"] == {} and data["terms"] == []
    assert data["papers"]["terms"] == [[], [], []]


def test_shell_holds_no_corpus_text_and_loads_the_data_file():
    from helpers.web.explorer import explorer_html

    page = explorer_html()
    assert '<script src="../figures/explorer-data.js"></script>' in page
    assert 'data-page-size="50"' in page
    assert "innerHTML" not in page and "insertAdjacentHTML" not in page and "document.write" not in page
    odd = explorer_html(data_src='x.js"><script>alert(1)</script>')
    assert '<script>alert(1)' not in odd
    assert 'src="x.js&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in odd


def test_explorer_url_escapes_parameters():
    from helpers.web.explorer import explorer_url

    assert explorer_url() == "explorer.html"
    assert explorer_url(terms=("a&b", "<c>"), state="linked") == "explorer.html?state=linked&term=a%26b&term=%3Cc%3E"


def test_links_column_holds_the_kinds_that_make_a_paper_linked():
    from helpers.web.explorer_data import explorer_data
    from helpers.analysis.links.hosts import LINKED_KINDS

    papers, _, statements, labels, cooccurrence = three_papers()
    links = pd.DataFrame({"paper_id": ["p1"] * 5,
                          "url": ["https://github.com/o/r", "https://huggingface.co/datasets/d", "https://o.github.io/",
                                  "https://arxiv.org/abs/1", "https://en.wikipedia.org/wiki/X"],
                          "kind": ["code", "data", "project page", "paper", "other"]})
    data = explorer_data(papers, links, statements, labels, cooccurrence)
    assert LINKED_KINDS == ("code", "data", "project page")
    assert data["papers"]["links"][1] == ["https://github.com/o/r", "https://huggingface.co/datasets/d",
                                          "https://o.github.io/"]


def test_script_json_escapes_what_could_end_a_script_exactly():
    value = {"b": "</script><!-- & 'x' \"y\"", "a": ["\u00e9\u00b7\u2028", 1.5, None, True]}
    assert script_json(value) == ('{"b":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u0027x\\u0027 \\"y\\"",'
                                  '"a":["\u00e9\u00b7\u2028",1.5,null,true]}')
    assert script_json(value, ascii_only=True) == (
        '{"b":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u0027x\\u0027 \\"y\\"",'
        '"a":["\\u00e9\\u00b7\\u2028",1.5,null,true]}')
    assert json.loads(script_json(value)) == json.loads(script_json(value, ascii_only=True)) == value


def test_script_json_refuses_nan():
    with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
        script_json({"x": float("nan")})


def test_shell_inlines_the_shipped_style_and_script():
    from helpers.web.explorer import SCRIPT_FILE, STYLE_FILE, explorer_html

    page = explorer_html()
    assert page.startswith(f"\n<style>\n{static_text(STYLE_FILE)}</style>\n<div id=\"explorer-app\"")
    assert page.endswith(f'<script src="../figures/explorer-data.js"></script>\n<script>\n{static_text(SCRIPT_FILE)}'
                         "</script>\n")


@pytest.mark.parametrize("name", ["explorer.js", "term-map.js"])
def test_shipped_scripts_can_be_inlined_and_write_no_html(name):
    script = static_text(name)
    assert inline_script(script, name=name) == f"<script>\n{script}</script>"
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in script, sink


@pytest.mark.parametrize("bad", ["a = '</script>';", "a = '</SCRIPT >';", "<!-- a"])
def test_a_script_that_would_end_early_is_refused(bad):
    with pytest.raises(ValueError, match="^bad.js cannot be inlined: it holds '</script' or '<!--'$"):
        inline_script(bad, name="bad.js")


def book_key(package_parent):
    """``make book``'s build key for the seed corpus, with the helpers package imported from ``package_parent``."""
    env = dict(os.environ, PYTHONPATH=str(package_parent), BOOK_CORPUS=str(SEED_DIR))
    code = "import helpers, sys; print(helpers.__file__); sys.argv[1:] = ['fingerprint', sys.argv[1]]; " \
           "from helpers.cli import main; sys.exit(main())"
    result = subprocess.run([sys.executable, "-c", code, str(SEED_DIR)], cwd=ROOT, env=env, capture_output=True,
                            text=True, check=True)
    origin, key = result.stdout.split()
    assert origin == str(package_parent / "helpers" / "__init__.py")
    return key


def test_an_edit_of_a_static_file_alone_changes_the_build_key(tmp_path):
    package = ROOT / "src" / "helpers"
    copy = tmp_path / "helpers"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    key = book_key(tmp_path)
    changed = {}
    for name in ("explorer.js", "term-map.css"):
        static = copy / "web" / "static" / name
        original = static.read_bytes()
        static.write_bytes(original + b"/* edited */\n")
        changed[name] = book_key(tmp_path)
        static.write_bytes(original)
    assert book_key(tmp_path) == key
    assert len({key, *changed.values()}) == 3


def test_year_and_groups_reach_the_data_only_when_present():
    from helpers.web.explorer_data import explorer_data

    papers, links, statements, labels, cooccurrence = three_papers()
    plain = explorer_data(papers, links, statements, labels, cooccurrence, group_order=("all",))
    assert "groups" not in plain and set(plain["papers"]) == {"id", "title", "authors", "theme", "state", "words",
                                                               "file", "source", "text", "links", "claims", "terms"}
    dated = papers.assign(year=pd.array([2025, None, 2023], dtype="Int64"), group=["2025", "(none)", "2023"])
    data = explorer_data(dated, links, statements, labels, cooccurrence, group_order=("2023", "2025", "(none)"))
    assert data["groups"] == ["2023", "2025", "(none)"]
    # rows in source_file, position order: p3 (2023), p1 (no year), p2 (2025)
    assert data["papers"]["year"] == [2023, None, 2025]
    assert data["papers"]["group"] == [0, 2, 1]
    one_year = explorer_data(dated.assign(group="all"), links, statements, labels, cooccurrence, group_order=("all",))
    assert "groups" not in one_year and "group" not in one_year["papers"] and "year" in one_year["papers"]


def test_shell_with_year_and_groups_and_without():
    from helpers.web.explorer import explorer_html

    assert explorer_html(with_year=False, with_groups=False) == explorer_html()
    page = explorer_html(with_year=True, with_groups=True)
    assert '<th data-sort="year" scope="col"><button type="button">Year</button></th>' in page
    assert page.index('data-sort="authors"') < page.index('data-sort="year"') < page.index('data-sort="theme"')
    assert '<select class="explorer-group" aria-label="Filter by group"><option value="">All groups</option></select>' \
        in page
    assert 'class="mathjax_ignore with-year"' in page
    assert '<select class="explorer-group"' not in explorer_html() and 'data-sort="year"' not in explorer_html()


def test_input_titles_win_over_the_metadata_file():
    papers = pd.DataFrame({"paper_id": ["p1", "p2"], "text_sha1": ["s1", "s2"], "text": ["One two.", "Three four."],
                           "title": ["Own {title}", ""], "authors": ["", "Own Author"]})
    meta = pd.DataFrame({"abstract_sha1": ["s1", "s2"], "title": ["Side 1", "Side 2"], "authors": ["SA 1", "SA 2"],
                         "pmlr_id": ["a", "b"], "openreview_id": ["", ""], "pdf_url": ["", ""]})
    titled = with_titles(papers, meta)
    assert titled[["title", "authors", "display_title", "pmlr_id"]].values.tolist() == [
        ["Own {title}", "SA 1", "Own {title}", "a"], ["Side 2", "Own Author", "Side 2", "b"]]


def test_display_title_shows_math_as_plain_text():
    # Titles keep their math as written; readers see it as text (no $, \text{} unwrapped, scripts as Unicode
    # where every character has a form, else ^ and _ kept).
    papers = pd.DataFrame({"paper_id": ["p1", "p2", "p3", "p4"], "text": ["a", "b", "c", "d"],
                           "text_sha1": ["s1", "s2", "s3", "s4"],
                           "title": [r"A Graph is Worth $K$ Words", r"N$\text{{A}}^\text{2}$Q",
                                     r"Breaking the $n^{1.5}$ Additive Error Barrier",
                                     r"$\alpha$-Divergence <b>in</b> $\mathcal{H}_\infty$"],
                           "authors": ["", "", "", ""]})
    titled = with_titles(papers, pd.DataFrame(columns=["abstract_sha1", "title", "authors"]))
    assert titled["display_title"].tolist() == [
        "A Graph is Worth K Words", "NA²Q", "Breaking the n^1.5 Additive Error Barrier",
        "α-Divergence <b>in</b> ℋ_∞"]
    assert titled["title"].tolist()[1] == r"N$\text{{A}}^\text{2}$Q"  # the title itself is kept as written


def test_a_sample_says_how_many_papers_the_corpus_has():
    from helpers.web.explorer_data import explorer_data

    assert "sample_of" not in explorer_data(*three_papers(), corpus_papers=3)
    assert explorer_data(*three_papers(), corpus_papers=10)["sample_of"] == 10


def test_explorer_papers_is_a_seeded_sample_in_corpus_order_beyond_the_cap():
    from helpers.web.explorer_data import explorer_papers, explorer_sample_ids

    papers = pd.DataFrame({"paper_id": [f"p{i}" for i in range(30)]})
    assert explorer_papers(papers, limit=30) is papers
    sample = explorer_papers(papers, limit=5)
    assert sample["paper_id"].tolist() == ["p7", "p9", "p14", "p17", "p22"]  # numpy default_rng(0), sorted
    assert sample.equals(explorer_papers(papers, limit=5))
    assert explorer_sample_ids(papers["paper_id"], limit=30) is None
    assert explorer_sample_ids(papers["paper_id"], limit=5) == {"p7", "p9", "p14", "p17", "p22"}


def test_links_into_a_sampled_explorer_say_they_list_the_sample():
    from helpers.book.reports.links import state_links_html

    small = state_links_html(pd.DataFrame({"link_state": ["linked", "none"]}))[0]
    assert '<a href="explorer.html?state=linked">linked: the 1 paper</a>' in small
    large = state_links_html(pd.DataFrame({"link_state": ["linked"] * 1_500 + ["none"] * 18_501}))[0]
    # The seeded sample of 20,000 leaves out one paper of the 20,001, here one in state none.
    assert '<a href="explorer.html?state=linked">linked: all 1,500 papers</a>' in large
    assert '<a href="explorer.html?state=none">none: the 18,500 of 18,501 in the sample</a>' in large


def test_sample_note_html_links_the_full_table_and_shows_commands_as_code():
    from helpers.book.reports.explorer import sample_note

    html_text, _ = sample_note(3, 10)
    assert html_text == (
        "<p>The corpus has 10 papers, too many for one page: the explorer holds a random sample of 3 of them "
        "(seed 0, numpy's default_rng), in corpus order, so its search, filters and counts cover that sample. "
        'Every paper, without its abstract, is in <a href="../figures/explorer-all-papers.csv" download>'
        "explorer-all-papers.csv</a>; <code>python -m helpers analyse</code> writes them all with their abstracts "
        "(<code>papers.csv</code>, and <code>papers/*.parquet</code> in parts).</p>")


def test_inline_tags_reach_the_data_escaped_and_the_script_allows_six_tags():
    from helpers.web.explorer_data import data_script, explorer_data

    script = data_script(explorer_data(*markup_papers()))
    assert "<" not in script and "\\u003cem\\u003econsensus of dependent experts\\u003c/em\\u003e" in script
    assert 'var INLINE_TAGS = ["em", "i", "b", "strong", "sub", "sup"];' in static_text("explorer.js")


def test_readable_file_names_and_hash_names():
    from helpers.web.explorer_columns import readable_file_name

    assert [readable_file_name(n) for n in ["abstracts.txt", "icml2023.bib", "a.txt", "part-A.jsonl",
                                            "2024/accepted papers.csv", "sha256-list.txt"]] == [True] * 6
    assert [readable_file_name(n) for n in ["000_2e4aa40cf9124fb1.txt", "2e4aa40cf9124fb1.txt", "0001.txt",
                                            "3f2a9c1e-7b4d-4e1a-9c3b-5d6e7f8a9b0c.jsonl", "12_34.bib"]] \
        == [False] * 5


def test_source_labels_say_venue_and_year_else_the_header_else_a_readable_file_name():
    from helpers.web.explorer_columns import source_labels

    seed = pd.DataFrame({"source_file": ["000_2e4aa40cf9124fb1.txt", "002_a8c086987ad7c5d5.txt",
                                         "004_724edf142a16c24b.txt", "004_724edf142a16c24b.txt"]})
    headers = {"000_2e4aa40cf9124fb1.txt": "ICML 2024 Papers", "002_a8c086987ad7c5d5.txt": "ICML 2024 论文列表",
               "004_724edf142a16c24b.txt": None}
    assert source_labels(seed, headers) == ["ICML 2024 Papers", "ICML 2024 论文列表", "file 3 of 3", "file 3 of 3"]
    assert source_labels(seed) == ["file 1 of 3", "file 2 of 3", "file 3 of 3", "file 3 of 3"]
    bibliographic = pd.DataFrame({
        "source_file": ["icml2023.bib", "icml2024.jsonl", "mixed.csv", "mixed.csv", "9f86d081884c7d65.csv"],
        "venue": ["ICML", "ICML", "", None, ""], "year": pd.array([2023, 2024, None, 2021, None], dtype="Int64")})
    assert source_labels(bibliographic, {"icml2023.bib": "Proceedings of the 40th ICML", "mixed.csv": None}) == [
        "ICML 2023", "ICML 2024", "mixed.csv", "mixed.csv", "file 1 of 4"]  # files in name order
    assert source_labels(pd.DataFrame({"source_file": []})) == []


def test_the_source_column_never_shows_a_bare_hash():
    from helpers.web.explorer import explorer_html
    from helpers.web.explorer_data import explorer_data

    papers, links, statements, labels, cooccurrence = three_papers()
    hashed = papers.assign(source_file=["000_2e4aa40cf9124fb1.txt", "002_a8c086987ad7c5d5.txt",
                                        "002_a8c086987ad7c5d5.txt"])
    data = explorer_data(hashed, links, statements, labels, cooccurrence,
                         headers={"000_2e4aa40cf9124fb1.txt": "ICML 2024 Papers"})
    assert data["papers"]["id"] == ["p2", "p3", "p1"]  # rows in source_file, position order
    assert data["sources"] == ["ICML 2024 Papers", "file 2 of 2"]
    assert data["papers"]["source"] == [0, 1, 1]
    assert data["files"] == ["000_2e4aa40cf9124fb1.txt", "002_a8c086987ad7c5d5.txt"]  # for the expanded row's line
    assert '<th data-sort="file" scope="col"><button type="button">Source</button></th>' in explorer_html()


def test_the_venue_code_link_reaches_the_data_only_where_the_input_has_a_code_field():
    """Issue 38: http(s) links only; [] for a paper with a code field and no link; None without a code field."""
    from helpers.web.explorer_data import explorer_data

    papers, links, statements, labels, cooccurrence = three_papers()
    assert "venue_code" not in explorer_data(papers, links, statements, labels, cooccurrence)["papers"]
    venue = papers.assign(venue_code_field=[True, True, False], venue_code=[True, False, False],
                          venue_code_url=["https://github.com/o/v javascript:alert(1)", "", ""])
    data = explorer_data(venue, links, statements, labels, cooccurrence)
    # rows in source_file, position order: p3 (no code field), p1 (a code field, no link), p2 (a link)
    assert data["papers"]["venue_code"] == [None, [], ["https://github.com/o/v"]]


def test_shell_with_the_venue_code_filter_and_without():
    from helpers.web.explorer import explorer_html

    assert explorer_html(with_venue_code=False) == explorer_html() and '<select class="explorer-venue"' not in explorer_html()
    page = explorer_html(with_venue_code=True)
    assert ('<select class="explorer-venue" aria-label="Filter by code link given to the venue">'
            '<option value="">Any code link to the venue</option><option value="given">Code link given to the venue'
            '</option><option value="not-given">No code link given to the venue</option></select>') in page
