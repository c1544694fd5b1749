"""A small corpus read by a forked child while the run imports its stages: the same corpus, errors and records."""

from __future__ import annotations

import multiprocessing

import pandas as pd
import pytest

from helpers.analysis.corpus import CorpusError, read_corpus, write_corpus
from helpers.analysis.pipeline import AnalysisSettings, run_pipeline
from helpers.analysis.pipeline.run import read_ahead
from helpers.analysis.pipeline.stages import analyse_text
from helpers.analysis.settings import SettingsError

FARMS = {"hens.txt": "Hen Trials\n\nLaying hens kept in aviaries had fewer keel bone fractures than caged hens.\n\n"
                     "Free-range hens walked more and pecked less at each other in the second year.\n",
         "broilers.bib": "@article{a, title={Feed}, abstract={Broiler chickens grew faster on the new feed.}}\n"}


def test_the_corpus_read_ahead_is_the_corpus_read_here():
    folder = write_corpus(FARMS)
    corpus, tokens, seconds = read_ahead([folder]).result()
    here = read_corpus([folder])
    pd.testing.assert_frame_equal(corpus.papers, here.papers)
    pd.testing.assert_frame_equal(corpus.blocks, here.blocks)
    pd.testing.assert_frame_equal(corpus.files, here.files)
    assert corpus.sha256 == here.sha256 and list(seconds) == ["parse", "text"] and min(seconds.values()) > 0
    cut_here = analyse_text(here, 1)
    assert tokens.vocabulary.tolist() == cut_here.vocabulary.tolist()
    assert tokens.token_ids.tolist() == cut_here.token_ids.tolist()


def test_a_bad_file_gives_the_same_problems_read_ahead():
    folder = write_corpus({**FARMS, "bad.csv": "title,year\nFeed trial,2020\n"})
    files = [folder / "hens.txt", folder / "bad.csv"]
    with pytest.raises(CorpusError) as here:
        read_corpus(files)
    with pytest.raises(CorpusError) as ahead:
        read_ahead(files).result()
    assert ahead.value.problems == here.value.problems and len(here.value.problems) == 1
    skipped, _, _ = read_ahead(files, skip_bad=True).result()
    assert skipped.files["status"].tolist() == read_corpus(files, skip_bad=True).files["status"].tolist() == [
        "ok", "skipped"]


def test_a_run_that_fails_before_reading_leaves_no_child():
    folder = write_corpus(FARMS)
    with pytest.raises(SettingsError):
        run_pipeline([folder], AnalysisSettings(group_by="nothing-such"), n_jobs=2)
    assert [child.name for child in multiprocessing.active_children() if child.name == "helpers-read-ahead"] == []


def test_the_parse_stage_counts_the_reading_seconds():
    analysis = run_pipeline([write_corpus(FARMS)], n_jobs=2)
    one_job = run_pipeline([write_corpus(FARMS)], n_jobs=1)  # read here: no child
    assert analysis.timings["parse"] > 0 and list(analysis.timings) == list(one_job.timings)
    pd.testing.assert_frame_equal(analysis.papers, one_job.papers)
