"""Link extraction, host kinds, statement classes (every pattern, all 57 seed papers), intervals."""

import math

import pandas as pd
import pytest

from helpers.corpus import read_corpus
from helpers.links import (classify_host, clean_url, extract_urls, find_links, is_safe_url, link_patterns,
                           paper_link_states, sentence_classes, state_shares, wilson_interval)

from conftest import PMLR_SAMPLE, SEED_DIR


@pytest.mark.parametrize("text, expected", [
    ("Code: https://github.com/a/b.", ["https://github.com/a/b"]),
    ("(https://github.com/a/b).", ["https://github.com/a/b"]),
    ("see https://en.wikipedia.org/wiki/Path_(x) now", ["https://en.wikipedia.org/wiki/Path_(x)"]),
    ("visit www.example.org/page, today", ["https://www.example.org/page"]),
    ("[our repo](https://github.com/o/r) works", ["https://github.com/o/r"]),
    ("<https://x.org/a> and <b>bold</b>", ["https://x.org/a"]),
    ("Published as doi:10.1145/3368089.3409755.", ["https://doi.org/10.1145/3368089.3409755"]),
    ("Preprint arXiv:2401.01234v2.", ["https://arxiv.org/abs/2401.01234v2"]),
    ("code at github.com/owner/repo.", ["https://github.com/owner/repo"]),
    ("page: name.github.io/project/", ["https://name.github.io/project/"]),
    ("weights on huggingface.co/org/model;", ["https://huggingface.co/org/model"]),
    ("HTTPS://GitHub.COM/Owner/Repo", ["https://github.com/Owner/Repo"]),
    ("quoted 'https://x.org/q'", ["https://x.org/q"]),
    ("cut at tag https://x.org/a<em>b</em>", ["https://x.org/a"]),
    ("twice https://x.org/a and https://x.org/a.", ["https://x.org/a"]),
    ("[x](javascript:alert(1)) data:text/html,hi file:///etc/passwd", []),
])
def test_url_extraction(text, expected):
    assert extract_urls(text) == expected


def test_clean_url_and_safety():
    assert clean_url("https://x.org/a_(b)).") == "https://x.org/a_(b)"
    assert clean_url("https://x.org/a]") == "https://x.org/a"
    assert not is_safe_url("javascript:alert(1)") and not is_safe_url("JAVASCRIPT:x")
    assert is_safe_url("http://x.org")


@pytest.mark.parametrize("url, kind, owner, repository", [
    ("https://github.com/o/r", "code", "o", "r"),
    ("https://gitlab.com/o/r.git", "code", "o", "r"),
    ("https://anonymous.4open.science/r/abc-123", "code", "anonymous", "abc-123"),
    ("https://huggingface.co/datasets/x", "model/data hub", "", ""),
    ("https://zenodo.org/records/1", "model/data hub", "", ""),
    ("https://fed-3r.github.io/", "project page", "", ""),
    ("https://arxiv.org/abs/1", "paper", "", ""),
    ("https://openreview.net/forum?id=x", "paper", "", ""),
    ("https://chat.lmsys.org", "other", "", ""),
])
def test_host_kinds(url, kind, owner, repository):
    info = classify_host(url)
    assert (info["kind"], info["owner"], info["repository"]) == (kind, owner, repository)


def test_every_pattern_has_a_working_example():
    patterns = link_patterns()
    assert {p.statement for p in patterns} == {"dangling", "promised"}
    for rule in patterns:
        assert rule.pattern.search(rule.example.lower()), rule.pattern.pattern
        assert sentence_classes(rule.example)[0] == rule.statement, rule.example


@pytest.mark.parametrize("sentence, statement", [
    ("Code is available at https://github.com/a/b.", "linked"),
    ("See the arXiv version at https://arxiv.org/abs/1.", "none"),
    ("Our code can be found here.", "dangling"),
    ("All resources are available in here.", "dangling"),
    ("The code will be released soon.", "promised"),
    ("Models will be made publicly available upon acceptance.", "promised"),
    ("Heat will be released by the reaction.", "none"),
    ("Here, we focus on hospitals.", "none"),
])
def test_sentence_classes(sentence, statement):
    assert sentence_classes(sentence)[0] == statement


# What a careful reader says of each seed abstract, by file and position.
SEED_LINKED = {("000", p) for p in (1, 4, 12, 14, 15, 16, 17)} | {("002", p) for p in (1, 5, 7, 10, 17)} | {
    ("004", p) for p in (1, 7, 16, 18)}
SEED_DANGLING = {("000", 8), ("002", 11)}


def expected_seed_state(source_file, position):
    key = (source_file[:3], position)
    return "linked" if key in SEED_LINKED else "dangling" if key in SEED_DANGLING else "none"


def test_all_57_seed_states():
    papers = read_corpus(SEED_DIR).papers
    states, statements = paper_link_states(papers)
    found = dict(zip(states["paper_id"], states["link_state"]))
    for paper in papers.itertuples():
        assert found[paper.paper_id] == expected_seed_state(paper.source_file, paper.position), (
            paper.source_file, paper.position)
    promised_too = states.merge(papers, on="paper_id").query("promised_too")
    assert [(r.source_file[:3], r.position) for r in promised_too.itertuples()] == [("004", 18)]
    assert states["link_state"].value_counts().to_dict() == {"none": 39, "linked": 16, "dangling": 2}


def test_seed_has_exactly_16_urls():
    links = find_links(read_corpus(SEED_DIR).papers)
    assert len(links) == 16
    assert links["url"].tolist()[:3] == [
        "https://github.com/rachtibat/LRP-eXplains-Transformers", "https://github.com/joffery/TEP",
        "https://github.com/chenweixin107/GRATH"]
    assert "https://github.com/henryzhongsc/gnn_editing" in set(links["url"])
    assert "https://fed-3r.github.io/" in set(links["url"])
    assert links["kind"].value_counts().to_dict() == {"code": 13, "project page": 3}


@pytest.mark.skipif(not PMLR_SAMPLE.exists(), reason="../shared/corpora/pmlr-v235-sample not present")
def test_pmlr_sample_links():
    papers = read_corpus(PMLR_SAMPLE).papers
    links = find_links(papers)
    states, _ = paper_link_states(papers)
    # Scheme-less "github.com/..." links are found too.
    assert (links["url"].str.startswith("https://github.com/")).sum() >= 34
    assert states["link_state"].eq("linked").sum() == links["paper_id"].nunique() == 40
    assert states["promised_too"].sum() == 2  # "will be made publicly available at https://..."


def test_wilson_against_known_values():
    # Wilson (1927) score interval, z = 1.959964: checked against the closed form.
    for k, n in [(16, 57), (0, 10), (10, 10), (1, 2)]:
        z = 1.959963984540054
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        low, high = wilson_interval(k, n)
        assert low == pytest.approx(centre - half, abs=1e-9) and high == pytest.approx(centre + half, abs=1e-9)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)


def test_state_shares_add_up():
    papers = pd.DataFrame({"link_state": ["linked", "none", "none", "dangling"], "source_file": list("aabb")})
    shares = state_shares(papers, "source_file")
    assert shares.groupby("group")["n_papers"].sum().to_dict() == {"a": 2, "b": 2}
    overall = state_shares(papers).set_index("link_state")
    assert overall.loc["none", "share"] == 0.5 and overall.loc["promised", "n_papers"] == 0
