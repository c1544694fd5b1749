"""Link extraction and repair, host kinds, availability claims per sentence, all 57 seed papers, intervals."""

import math

import pandas as pd
import pytest

from helpers.analysis.links.availability import SentenceVerdict, abstract_verdicts, classify_sentence
from helpers.analysis.links.evaluation import confusion_matrix, evaluate_verdicts, load_evaluation_set
from helpers.analysis.corpus import read_corpus
from helpers.analysis.links.states import (LINKS_COLUMNS, STATEMENTS_COLUMNS, STATES_COLUMNS, analyse_links, find_links,
                                    state_shares)
from helpers.analysis.statistics import wilson_interval
from helpers.analysis.links.hosts import HOST_KINDS, LINKED_KINDS, classify_host
from helpers.analysis.links.urls import clean_url, find_urls, is_safe_url, split_sentences

from tests.support import PMLR_SAMPLE, SEED_DIR
from tests.support.corpus_files import write_software_bib


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
    assert [found.url for found in find_urls(text)] == expected


def test_clean_url_and_safety():
    assert clean_url("https://x.org/a_(b)).") == "https://x.org/a_(b)"
    assert clean_url("https://x.org/a]") == "https://x.org/a"
    assert not is_safe_url("javascript:alert(1)") and not is_safe_url("JAVASCRIPT:x")
    assert is_safe_url("http://x.org")


@pytest.mark.parametrize("url, kind, owner, repository", [
    ("https://github.com/o/r", "code", "o", "r"),
    ("https://gitlab.com/o/r.git", "code", "o", "r"),
    ("https://anonymous.4open.science/r/abc-123", "code", "anonymous", "abc-123"),
    ("https://huggingface.co/datasets/x", "data", "", ""),
    ("https://huggingface.co/org/model", "data", "", ""),
    ("https://huggingface.co/spaces/org/demo", "code", "", ""),
    ("https://zenodo.org/records/1", "data", "", ""),
    ("https://doi.org/10.5281/zenodo.123", "data", "", ""),
    ("https://www.kaggle.com/datasets/a/b", "data", "", ""),
    ("https://osf.io/abc12/", "data", "", ""),
    ("https://figshare.com/articles/x/1", "data", "", ""),
    ("https://dataverse.harvard.edu/dataset.xhtml", "data", "", ""),
    ("https://codeberg.org/o/r", "code", "o", "r"),
    ("https://bitbucket.org/o/r", "code", "o", "r"),
    ("https://sites.google.com/view/x", "project page", "", ""),
    ("https://www.cs.ox.ac.uk/people/x", "project page", "", ""),
    ("https://doi.org/10.1145/1", "paper", "", ""),
    ("https://fed-3r.github.io/", "project page", "", ""),
    ("https://arxiv.org/abs/1", "paper", "", ""),
    ("https://openreview.net/forum?id=x", "paper", "", ""),
    ("https://chat.lmsys.org", "other", "", ""),
])
def test_host_kinds(url, kind, owner, repository):
    info = classify_host(url)
    assert (info["kind"], info["owner"], info["repository"]) == (kind, owner, repository)
    assert info["kind"] in HOST_KINDS


def test_one_definition_of_linked():
    assert LINKED_KINDS == ("code", "data", "project page")
    assert set(LINKED_KINDS) < set(HOST_KINDS)


# Each malformed form: (text, url, original as written, repaired).
@pytest.mark.parametrize("text, url, original, repaired", [
    ("Code: https//github.com/o/r.", "https://github.com/o/r", "https//github.com/o/r", True),
    ("Code: http:/lab.org/tool.", "http://lab.org/tool", "http:/lab.org/tool", True),
    ("Data on https: //tactile-vlm.github.io.", "https://tactile-vlm.github.io", "https: //tactile-vlm.github.io",
     True),
    ("at https://github.com/ hao-ai-lab/Lookahead now", "https://github.com/hao-ai-lab/Lookahead",
     "https://github.com/ hao-ai-lab/Lookahead", True),
    ("at https://github. com/o/r.", "https://github.com/o/r", "https://github. com/o/r", True),
    ("at https://github.com/o /r.", "https://github.com/o/r", "https://github.com/o /r", True),
    ("at github.com/ o/r.", "https://github.com/o/r", "github.com/ o/r", True),
    ("code at github.com/owner/repo.", "https://github.com/owner/repo", "github.com/owner/repo", True),
    ("see www.lab.org/page, today", "https://www.lab.org/page", "www.lab.org/page", True),
    ("code `https://github.com/o/r`.", "https://github.com/o/r", "https://github.com/o/r`.", True),
    ("code at https://github.com/o/r.. Next", "https://github.com/o/r", "https://github.com/o/r..", True),
    ("[a](https://en.wikipedia.org/wiki/A_(b)).", "https://en.wikipedia.org/wiki/A_(b)",
     "https://en.wikipedia.org/wiki/A_(b)", False),
    ("Code: https://github.com/o/r.", "https://github.com/o/r", "https://github.com/o/r", False),
    ("(https://github.com/o/r).", "https://github.com/o/r", "https://github.com/o/r", False),
    ("see https://x.org/ and more", "https://x.org/", "https://x.org/", False),
])
def test_malformed_urls_are_repaired_and_flagged(text, url, original, repaired):
    [found] = find_urls(text)
    assert (found.url, found.original, found.repaired) == (url, original, repaired)


def test_links_table_has_repaired_and_original():
    papers = pd.DataFrame({"paper_id": ["p1"], "source_file": ["f.txt"],
                           "text": ["Code: https//github.com/o/r. Page: https://o.github.io/r."]})
    links = find_links(papers)
    assert list(links.columns) == LINKS_COLUMNS
    assert links[["url", "kind", "repaired", "original"]].values.tolist() == [
        ["https://github.com/o/r", "code", True, "https//github.com/o/r"],
        ["https://o.github.io/r", "project page", False, "https://o.github.io/r"]]


# Each class, several phrasings (many unlike the examples in the grammar's docstrings).
SENTENCE_CLASSES = [
    # linked: a usable URL in the claim (repaired ones too), a promise with a URL, a labelled link
    ("Code is available at https://github.com/a/b.", "linked"),
    ("Our data and code are open-sourced at https://github.com/a/b.", "linked"),
    ("The code can be found at http:/gitlab.com/o/r.", "linked"),
    ("Data are deposited at https://zenodo.org/records/123.", "linked"),
    ("Source code: https://github.com/a/b", "linked"),
    ("Webpage at https://lab.github.io/x/.", "linked"),
    ("We provide code at https://github.com/x/y.", "linked"),
    ("Implementation available at https://gitlab.com/x/y.", "linked"),
    ("The leaderboard is available at https://bench.ai.", "linked"),
    ("Qualitative results: https://lab.github.io/qdac.", "linked"),
    # dangling: a claim with no usable link
    ("Our code can be found here.", "dangling"),
    ("All resources are available in here.", "dangling"),
    ("Our implementation is publicly available.", "dangling"),
    ("The code has been released on GitHub.", "dangling"),
    ("Code and pretrained weights are available at this URL.", "dangling"),
    ("Our code is available at Github URL.", "dangling"),
    ("Our code is available at DisA.", "dangling"),
    ("ECInstruct and eCeLLM models are publicly accessible through this link.", "dangling"),
    ("Our dataset and models are hosted on Hugging Face.", "dangling"),
    ("We open-source our library.", "dangling"),
    ("We publicly release the dataset, the annotation tool and the baselines.", "dangling"),
    ("To foster research, we make the benchmark publicly accessible.", "dangling"),
    ("The implementation is based on PyTorch and is available online.", "dangling"),
    ("Data and code to reproduce all experiments are provided.", "dangling"),
    ("Code is released under the MIT license.", "dangling"),
    ("See the arXiv version of our code at https://arxiv.org/abs/1.", "none"),
    ("Our code is available at https://arxiv.org/abs/2401.00001.", "dangling"),
    # promised: future or conditional, no usable link
    ("The code will be released soon.", "promised"),
    ("Models will be made publicly available upon acceptance.", "promised"),
    ("Code is available upon request.", "promised"),
    ("We will open-source the code upon acceptance.", "promised"),
    ("The dataset is to be released after publication.", "promised"),
    ("We plan to release our models and data.", "promised"),
    ("Our toolkit will be open-sourced.", "promised"),
    ("All data are available from the corresponding author upon reasonable request.", "promised"),
    # none: data available to an algorithm, datasets the paper uses, others' models, no artefact
    ("We use publicly available datasets such as ImageNet.", "none"),
    ("In the setting where labelled data is available, we do better.", "none"),
    ("The data is available to the agent only through queries.", "none"),
    ("If side information is available, the regret improves.", "none"),
    ("Models released by OpenAI are evaluated.", "none"),
    ("Open-source models such as LLaMA lag behind.", "none"),
    ("Recent open-source LLMs, such as Llama 2, are publicly available.", "none"),
    ("Large pretrained models are readily available.", "none"),
    ("Experiments on three public datasets show gains.", "none"),
    ("The learner is provided with noisy labels.", "none"),
    ("Gradients are shared among clients.", "none"),
    ("A convergence analysis of this algorithm is provided.", "none"),
    ("The training data are not publicly available.", "none"),
    ("See https://en.wikipedia.org/wiki/X for background.", "none"),
    ("Heat will be released by the reaction.", "none"),
    ("Energy will be released as heat.", "none"),
    ("Here, we focus on hospitals.", "none"),
    ("We release the constraint on the step size.", "none"),
    # A second batch written before the grammar saw it (28 of 30 right at first; the appositive
    # "our library, fastlib," and "included with this submission" were then added to the grammar).
 ("Our source code and pre-trained models are made available to the community.", "dangling"),
 ("The accompanying software package is freely available online.", "dangling"),
 ("An implementation in JAX is provided in the supplementary material.", "dangling"),
 ("Code for all experiments is included with this submission.", "dangling"),
 ("We have released the benchmark and evaluation scripts.", "dangling"),
 ("The dataset can be downloaded from our website.", "dangling"),
 ("Our Python library, fastlib, is publicly available on PyPI.", "dangling"),
 ("All code and data needed to reproduce our results are publicly available.", "dangling"),
 ("The weights of all trained models are released to facilitate future research.", "dangling"),
 ("Our benchmark, code, and trained checkpoints will be publicly released.", "promised"),
 ("Code and data will be shared upon publication.", "promised"),
 ("We intend to open-source our framework.", "promised"),
 ("The full codebase will be made public once the paper is accepted.", "promised"),
 ("The implementation will be available on GitHub.", "promised"),
 ("We will publicly release the dataset at https://huggingface.co/datasets/org/set.", "linked"),
 ("The project website (https://proj.github.io) hosts videos and code.", "linked"),
 ("Our code is publicly available: https://github.com/org/repo.", "linked"),
 ("Reproducible code is available at https://codeberg.org/u/r.", "linked"),
 ("Dataset and code: https://osf.io/abc12.", "linked"),
 ("Demo videos are available at https://www.youtube.com/watch?v=x.", "linked"),
 ("Implementation details are available in the appendix.", "none"),
 ("Pretrained language models are widely available.", "none"),
 ("The true reward is available only at the end of an episode.", "none"),
 ("We assume that a simulator is available.", "none"),
 ("Unlabelled data are abundant and cheaply available.", "none"),
 ("Such datasets are rarely released due to privacy concerns.", "none"),
 ("We evaluate on benchmarks released by prior work.", "none"),
 ("Several open-source implementations exist.", "none"),
 ("Labels are provided by crowd workers.", "none"),
 ("The expert demonstrations are provided as input to the policy.", "none"),
]


# Five general phenomena, each with sentences written for these tests (positives and near misses that must stay as
# they are).
# 1. A promise in an abstract that gives a code, data or project-page link elsewhere is linked, promise=True.
@pytest.mark.parametrize("sentence, abstract, statement, promise", [
    ("We will release the code.", "We add X. We will release the code. Project page: https://lab.github.io/x",
     "linked", True),
    ("Trained checkpoints will be shared upon acceptance.",
     "Our code is at https://gitlab.com/grp/tool. Trained checkpoints will be shared upon acceptance.", "linked", True),
    ("The dataset will be made public after publication.",
     "We collect Q. The dataset will be made public after publication. See https://huggingface.co/datasets/o/q.",
     "linked", True),
    ("Our simulator will be open-sourced soon.",
     "Our simulator will be open-sourced soon. Videos: https://sites.google.com/view/simbot", "linked", True),
    # near misses: only a paper link, only an encyclopaedia link, a bare code host, no other link
    ("We will release the code.", "We will release the code. Preprint: https://arxiv.org/abs/2401.00002.",
     "promised", True),
    ("The benchmark will be released.", "The benchmark will be released. Background: https://en.wikipedia.org/wiki/Q.",
     "promised", True),
    ("Code will be released soon.", "Code will be released soon. We like https://github.com/.", "promised", True),
    ("Models will be shared on request.", "Models will be shared on request.", "promised", True),
])
def test_promise_with_a_link_elsewhere(sentence, abstract, statement, promise):
    verdict = classify_sentence(sentence, abstract)
    assert (verdict.statement, verdict.promise) == (statement, promise), verdict.reason


# 2. Hedged intentions, of the authors or an organisation, are promises.
HEDGED_INTENTIONS = [
    ("We are considering releasing the annotated corpus.", "promised"),
    ("The authors plan to make the toolkit available to the research community.", "promised"),
    ("Acme Robotics is planning to open-source the controller weights.", "promised"),
    ("We hope to make our benchmark publicly accessible.", "promised"),
    ("In future, we aim to release the simulator and its scenarios.", "promised"),
    ("Our team intends to publish the evaluation scripts.", "promised"),
    ("The Tidewater Institute is considering making its code and benchmark suite publicly accessible.", "promised"),
    # near misses: no artefact, someone else's, a beneficiary, a risk rather than a plan
    ("We aim to make training available to small labs.", "none"),
    ("Users are hoping to release their models privately.", "none"),
    ("We consider releasing private data a serious risk.", "none"),
    ("We plan to release the brake earlier in each episode.", "none"),
    ("The attacker hopes to make the victim's labels public.", "none"),
]


# 3. "open-source" / "publicly available" on the paper's own new artefact where the authors introduce it.
@pytest.mark.parametrize("sentence, abstract, statement", [
    ("We build an open-source agent that plays chess.", "", "dangling"),
    ("We provide an open-source toolkit for audio tagging.", "", "dangling"),
    ("We present Zephyrus, a family of open-source models for weather forecasting.", "", "dangling"),
    ("This paper introduces a publicly available simulator for soft robots.", "", "dangling"),
    ("We develop a fully open-sourced pipeline for tabular audits.",
     "We develop a fully open-sourced pipeline for tabular audits. Repo: https://github.com/aud/tab.", "linked"),
    ("We release an open-source, lightweight solver for scheduling.",
     "We release an open-source, lightweight solver for scheduling. More at https://sched.github.io.", "linked"),
    # near misses: someone else's open-source tool, used, extended, compared or built upon
    ("We extend the open-source solver Minisat with learned restarts.", "", "none"),
    ("We evaluate open-source LLMs such as Mistral on the task.", "", "none"),
    ("We build on an open-source simulator.", "", "none"),
    ("We propose a method that uses open-source models.", "", "none"),
    ("We present a benchmark for open-source LLMs.", "", "none"),
    ("We provide open-source LLMs with feedback from a critic.", "", "none"),
    ("Open-source vision models lag behind closed ones.", "", "none"),
])
def test_open_source_adjective_on_the_papers_own_artefact(sentence, abstract, statement):
    verdict = classify_sentence(sentence, abstract or sentence)
    assert verdict.statement == statement, verdict.reason


# 4. A hub named as the place with owner/name identifiers: repaired URLs, linked.
@pytest.mark.parametrize("sentence, urls, statement", [
    ("All checkpoints are available on Hugging Face (acme/tiny-7b, acme/tiny-13b).",
     ("https://huggingface.co/acme/tiny-7b", "https://huggingface.co/acme/tiny-13b"), "linked"),
    ("The solver is released on GitHub: orbit-lab/fastsat.", ("https://github.com/orbit-lab/fastsat",), "linked"),
    ("Our corpus can be downloaded from HuggingFace under north-nlp/court-records.",
     ("https://huggingface.co/north-nlp/court-records",), "linked"),
    ("We open-source the library on GitLab (geo-group/meshkit).", ("https://gitlab.com/geo-group/meshkit",),
     "linked"),
    ("Our weights (lab-a/net-1) and corpus (lab-a/corpus-v2) are available on huggingface.",
     ("https://huggingface.co/lab-a/net-1", "https://huggingface.co/lab-a/corpus-v2"), "linked"),
    # near misses: a host with no identifiers, a parenthesis that is not identifiers, years
    ("Our models are available on Huggingface.", (), "dangling"),
    ("The weights are hosted on HUGGINGFACE.", (), "dangling"),
    ("The code is on GitHub (and/or by e-mail).", (), "dangling"),
    ("Statistics from GitHub (2021/2022) are reported.", (), "none"),
    ("The model (acme/m) is strong. Our data is on GitHub.", (), "dangling"),
])
def test_hub_with_repository_identifiers(sentence, urls, statement):
    verdict = classify_sentence(sentence, sentence)
    assert (verdict.statement, verdict.urls) == (statement, urls), verdict.reason


def test_hub_identifiers_are_flagged_repaired_in_the_links_table():
    papers = pd.DataFrame({"paper_id": ["p1"], "source_file": ["f.txt"],
                           "text": ["We win. Weights are available on Hugging Face (acme/m-1)."]})
    links, states, _ = analyse_links(papers, n_jobs=1)
    assert links[["url", "kind", "repaired", "original"]].values.tolist() == [
        ["https://huggingface.co/acme/m-1", "data", True, "Hugging Face (acme/m-1"]]
    assert states[["link_state", "n_urls", "repaired_urls"]].values.tolist() == [["linked", 1, 1]]
    before = "Models (acme/a) and data (acme/b) are on GitHub."
    assert [(u.url, u.original, u.repaired) for u in find_urls(before)] == [
        ("https://github.com/acme/a", "(acme/a) and data (acme/b) are on GitHub", True),
        ("https://github.com/acme/b", "(acme/b) are on GitHub", True)]


# 5. A phrase in commas and a time adverb between the artefact and its predicate.
PHRASES_IN_COMMAS = [
    ("The Harbour corpus, assembled from court records over a decade, is now publicly available to researchers.",
     "dangling"),
    ("Our simulator, written in Rust, is currently available for download.", "dangling"),
    ("The dataset, which we annotated with three experts, is already publicly available.", "dangling"),
    ("The benchmark suite, curated by our group, will soon be released.", "promised"),
    ("The code, tested on four GPUs, is now available at https://github.com/p/q.", "linked"),
    ("The Tern dataset, gathered from ship logs, is now publicly available to spur research on routing.", "dangling"),
    ("Our benchmark, built from exam questions, is available to download.", "dangling"),
    # near misses: the available thing is someone else's or is not an artefact
    ("We evaluate on ImageNet, which is publicly available.", "none"),
    ("Beyond the data, which are large, the method is currently available to the agent.", "none"),
    ("We train on public data, scraped from forums, which are now available to everyone.", "none"),
    ("The map, revealed after each step, is then available to the planner.", "none"),
    ("The dataset, split by site, is currently available to each client.", "none"),
    ("Our data, once collected, are available to clients.", "none"),
]


@pytest.mark.parametrize("sentence, statement", [*SENTENCE_CLASSES, *HEDGED_INTENTIONS, *PHRASES_IN_COMMAS])
def test_a_sentence_read_alone_gets_its_statement(sentence, statement):
    verdict = classify_sentence(sentence, sentence)
    assert verdict.statement == statement, verdict.reason
    if statement != "linked":  # a linked sentence may also promise more ("will release ... at URL"), or not
        assert verdict.promise == (statement == "promised"), verdict.reason


def test_verdict_fields():
    verdict = classify_sentence("Code and models will be made publicly available at https//github.com/a/b.", "")
    assert (verdict.statement, verdict.promise, verdict.urls) == ("linked", True, ("https://github.com/a/b",))
    assert verdict.reason == "'code and models' + 'available' (future or conditional); URL in the sentence"
    dangling = classify_sentence("The code is available on GitHub.", "")
    assert dangling.reason == "'the code' + 'available'; names a host ('github') but no address"
    assert classify_sentence("Our code is released at this link.", "").reason == (
        "'our code' + 'released'; placeholder ('this link') with no link behind it")
    assert classify_sentence("We prove a bound.", "") == SentenceVerdict("none")


def test_claim_pointing_to_a_url_in_another_sentence():
    abstract = ("We propose X. The code is available on our project page. Project page: https://x.github.io/p")
    verdict = classify_sentence("The code is available on our project page.", abstract)
    assert (verdict.statement, verdict.urls) == ("linked", ("https://x.github.io/p",))
    abstract = "We propose X. Our code is available on GitHub. Visit https://github.com/a/b for more."
    assert classify_sentence("Our code is available on GitHub.", abstract).urls == ("https://github.com/a/b",)
    # A claim is linked by a code, data or project-page URL anywhere in the abstract, as its paper is.
    assert classify_sentence("Our code is publicly available.", abstract).statement == "linked"
    abstract = "Our code is available here. The paper is https://arxiv.org/abs/1."
    assert classify_sentence("Our code is available here.", abstract).statement == "dangling"


def test_other_url_counts_only_with_a_claim():
    assert classify_sentence("The code is at https://lab.example.org/tool.", "").statement == "linked"
    assert classify_sentence("We compare with https://lab.example.org/tool.", "").statement == "none"
    assert classify_sentence("We compare with https://github.com/o/r.", "").statement == "linked"


def test_abstract_verdicts_agree_with_classify_sentence():
    text = ("We win. Code is public. The data will be released. See https://a.github.io. "
            "Our code is on our project page. İstanbul data are used.")
    fast = [(n, v) for n, _, v in abstract_verdicts(text)]
    slow = [(n, classify_sentence(s, text)) for n, s in enumerate(split_sentences(text), start=1)]
    assert fast == [(n, v) for n, v in slow if v.statement != "none"]
    # "The data will be released." is a promise in an abstract that links a project page: linked, promise=True.
    assert [(v.statement, v.promise) for _, v in fast] == [
        ("linked", False), ("linked", True), ("linked", False), ("linked", False)]


def test_analyse_links_tables():
    papers = pd.DataFrame({"paper_id": ["p1", "p2", "p3", "p4"], "source_file": ["f"] * 4, "text": [
        "We win. Code: https//github.com/a/b. The data will be released.",
        "Our code is publicly available.", "The code will be released upon acceptance.", "We prove a bound."]})
    links, states, statements = analyse_links(papers, n_jobs=1)
    assert list(states.columns) == STATES_COLUMNS and list(statements.columns) == STATEMENTS_COLUMNS
    assert states[["link_state", "promised_too", "n_urls", "repaired_urls", "claim_class"]].values.tolist() == [
        ["linked", True, 1, 1, "linked"], ["dangling", False, 0, 0, "dangling"],
        ["promised", False, 0, 0, "promised"], ["none", False, 0, 0, ""]]
    assert statements[["paper_id", "sentence_no", "statement", "promise"]].values.tolist() == [
        ["p1", 2, "linked", False], ["p1", 3, "linked", True], ["p2", 1, "dangling", False],
        ["p3", 1, "promised", True]]
    assert states.loc[0, "claim_sentence"] == "Code: https//github.com/a/b."


def test_a_present_linked_claim_decides_before_a_linked_promise():
    papers = pd.DataFrame({"paper_id": ["p1"], "source_file": ["f"], "text": [
        "We add Y. Weights will be released soon. Our code is at https://github.com/a/y."]})
    _, states, statements = analyse_links(papers, n_jobs=1)
    assert statements[["sentence_no", "statement", "promise"]].values.tolist() == [[2, "linked", True],
                                                                                   [3, "linked", False]]
    assert states[["link_state", "promised_too", "claim_sentence"]].values.tolist() == [
        ["linked", True, "Our code is at https://github.com/a/y."]]


def test_evaluate_verdicts_and_loader(tmp_path):
    rows = pd.DataFrame({
        "corpus": "seed", "paper_id": ["p1", "p2", "p3", "p4", "p4", "p5"], "sentence_no": "1",
        "sentence": ["Code is at https://github.com/a/b.", "Our code is public.", "Code will be released.",
                     "We win.", "We use public datasets.", "Code will follow."],
        "class": ["linked", "dangling", "promised", "none", "none", "promised"], "why": ""})
    path = tmp_path / "set.csv"
    rows.to_csv(path, index=False)
    loaded = load_evaluation_set(path)
    assert loaded["abstract"].tolist()[3:5] == ["We win. We use public datasets."] * 2  # its abstract's sentences
    scores = evaluate_verdicts(loaded).set_index("class")
    assert scores["support"].to_dict() == {"linked": 1, "dangling": 1, "promised": 2, "none": 2}
    assert scores.loc["promised", ["precision", "recall"]].tolist() == [1.0, 0.5]
    assert scores.loc["none", ["precision", "recall"]].tolist() == [pytest.approx(2 / 3), 1.0]
    assert confusion_matrix(loaded).loc["promised"].tolist() == [0, 0, 1, 1]
    (tmp_path / "bad.csv").write_text("corpus,paper_id,sentence_no,sentence,class,why\nseed,p1,1,x,maybe,\n")
    with pytest.raises(ValueError, match="unknown class"):
        load_evaluation_set(tmp_path / "bad.csv")
    (tmp_path / "short.csv").write_text("sentence,class\nx,none\n")
    with pytest.raises(ValueError, match="missing column"):
        load_evaluation_set(tmp_path / "short.csv")


# What a careful reader says of each seed abstract, by file and position.
SEED_LINKED = {("000", p) for p in (1, 4, 12, 14, 15, 16, 17)} | {("002", p) for p in (1, 5, 7, 10, 17)} | {
    ("004", p) for p in (1, 7, 16, 18)}
SEED_DANGLING = {("000", 8), ("002", 11)}


def expected_seed_state(source_file, position):
    key = (source_file[:3], position)
    return "linked" if key in SEED_LINKED else "dangling" if key in SEED_DANGLING else "none"


def test_all_57_seed_states():
    papers = read_corpus(SEED_DIR).papers
    _, states, statements = analyse_links(papers, n_jobs=1)
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
    assert not links["repaired"].any() and (links["original"] == links["url"]).all()


@pytest.mark.skipif(not PMLR_SAMPLE.exists(), reason="../shared/corpora/pmlr-v235-sample not present")
def test_pmlr_sample_links():
    papers = read_corpus(PMLR_SAMPLE).papers
    links = find_links(papers)
    _, states, _ = analyse_links(papers, n_jobs=1)
    # Scheme-less "github.com/..." links are found too.
    assert (links["url"].str.startswith("https://github.com/")).sum() == 35
    # 41: one abstract names its models and data as owner/name identifiers on Hugging Face (issue 14, round 2).
    assert states["link_state"].eq("linked").sum() == links["paper_id"].nunique() == 41
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


def test_compare_links_lists_every_changed_paper(tmp_path):
    import subprocess
    import sys

    from tests.support import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from compare_links import BEFORE_THE_CLAIM_GRAMMAR, compare

    if subprocess.run(["git", "cat-file", "-e", BEFORE_THE_CLAIM_GRAMMAR], cwd=ROOT).returncode != 0:
        pytest.skip(f"commit {BEFORE_THE_CLAIM_GRAMMAR} is not in this clone (a shallow clone?)")
    corpus = tmp_path / "c.txt"
    corpus.write_text("Header\n\nWe study graphs. Our code is publicly available.\n\n"
                      "We prove a bound for bandits with many arms.\n", encoding="utf-8")
    counts, changed = compare(corpus, BEFORE_THE_CLAIM_GRAMMAR)
    assert counts.to_dict() == {"before": {"linked": 0, "dangling": 0, "promised": 0, "none": 2},
                                "after": {"linked": 0, "dangling": 1, "promised": 0, "none": 1}}
    assert changed[["before", "after", "claim_sentence"]].values.tolist() == [
        ["none", "dangling", "Our code is publicly available."]]


ICML_DEV = PMLR_SAMPLE.parent / "icml2024-dev"


@pytest.mark.skipif(not ICML_DEV.exists(), reason="../shared/corpora/icml2024-dev not present")
def test_icml_dev_states():
    papers = read_corpus(ICML_DEV).papers
    links, states, statements = analyse_links(papers, n_jobs=1)
    assert states["link_state"].value_counts().to_dict() == {"none": 409, "linked": 76, "dangling": 8, "promised": 2}
    repaired = links[links["repaired"]]
    assert len(repaired) == 6
    assert repaired.iloc[0][["url", "original"]].tolist() == ["https://tactile-vlm.github.io",
                                                              "https: //tactile-vlm.github.io"]


def test_the_quick_test_covers_every_patterns_hints():
    """find_url_spans skips a text without any of _ANY_HINT: each pattern's hints must contain one of them."""
    from helpers.analysis.links import urls

    for name, hints in urls._PATTERN_HINTS.items():
        for hint in hints:
            assert any(coarse in hint for coarse in urls._ANY_HINT), (name, hint)


def test_venue_code_links_from_the_software_and_url_fields():
    """Issue 38: a code link given to the venue (``software``; ``url`` on a code host) is evidence of its own."""
    from helpers.analysis.links.states import venue_code_links

    papers = pd.DataFrame({
        "paper_id": ["a", "b", "c", "d", "e", "f"],
        "source_file": ["icml25.bib"] * 4 + ["other.csv"] * 2,
        "software": ["https://github.com/x/y, https://github.com/x/z", "lab.github.io", ".", "", "", ""],
        "url": ["", "", "https://proceedings.mlr.press/v267/c.html", "", "https://github.com/o/r",
                "javascript:alert(1)"],
    })
    table = venue_code_links(papers)
    assert table.columns.tolist() == ["paper_id", "venue_code_field", "venue_code", "venue_code_url"]
    assert table.values.tolist() == [
        ["a", True, True, "https://github.com/x/y https://github.com/x/z"],
        ["b", True, True, "https://lab.github.io"],
        ["c", True, False, ""],
        ["d", True, False, ""],
        ["e", True, True, "https://github.com/o/r"],
        ["f", True, False, ""],
    ]
    # No code field anywhere (a paper page in ``url`` is not one): an empty, typed table.
    plain = venue_code_links(papers.drop(columns="software").iloc[2:4])
    assert plain.empty and plain.columns.tolist() == ["paper_id", "venue_code_field", "venue_code", "venue_code_url"]
    assert venue_code_links(pd.DataFrame({"paper_id": ["a"], "source_file": ["f"], "text": ["x"]})).empty


def test_venue_code_shares_beside_the_abstract_share():
    from helpers.analysis.links.states import venue_code_shares

    papers = pd.DataFrame({
        "group": ["2023", "2023", "2025", "2025", "2025", "2025"],
        "venue_code_field": [False, False, True, True, True, True],
        "venue_code": [False, False, True, True, True, False],
        "link_state": ["linked", "none", "linked", "none", "promised", "none"],
    })
    table = venue_code_shares(papers, "group")
    assert table[["group", "n_papers", "n_venue_code", "n_abstract_linked", "n_both", "n_venue_code_only"]
                 ].values.tolist() == [["2025", 4, 3, 1, 1, 1]]
    row = table.iloc[0]
    assert (row["venue_share"], row["abstract_share"]) == (0.75, 0.25)
    assert [round(row[c], 4) for c in ("venue_ci_low", "venue_ci_high", "abstract_ci_low", "abstract_ci_high")] == [
        round(v, 4) for v in (*wilson_interval(3, 4), *wilson_interval(1, 4))]
    assert venue_code_shares(papers)["group"].tolist() == ["all papers"]
    assert venue_code_shares(papers.drop(columns=["venue_code_field", "venue_code"])).empty


def test_papers_carry_the_venue_code_link_only_where_the_input_has_a_code_field(tmp_path):
    """The abstract's link state is unchanged; the venue's code link sits beside it (issue 38)."""
    from helpers.analysis.pipeline import run_pipeline

    write_software_bib(tmp_path)
    papers = run_pipeline([tmp_path]).papers
    assert papers[["link_state", "venue_code_field", "venue_code", "venue_code_url"]].values.tolist() == [
        ["linked", True, True, "https://github.com/o/a"], ["none", True, True, "https://github.com/o/b"],
        ["none", True, False, ""]]
    assert papers.columns[-5:].tolist() == ["n_urls", "venue_code_field", "venue_code", "venue_code_url", "group"]
    seedless = tmp_path / "plain"
    seedless.mkdir()
    (seedless / "a.txt").write_text("Our code is at https://github.com/o/a and we study graphs.", encoding="utf-8")
    assert "venue_code" not in run_pipeline([seedless]).papers
