"""Threads and cores: ``--jobs 1`` is one thread of work, the core count respects affinity and quotas,
and a failing pipeline leaves no thread behind."""

from __future__ import annotations

import gc
import os
import threading

import pytest
from threadpoolctl import threadpool_info

from tests.support import SEED_DIR
from helpers.analysis import themes
from helpers.analysis import _parallel as local
from helpers.analysis._parallel import available_cores, worker_count
from helpers.analysis.pipeline import AnalysisSettings, run_pipeline, stages
from helpers.analysis.themes import model, selection


@pytest.fixture
def eight_cores(monkeypatch):
    """A process that may run on eight cores, whatever the machine."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)


@pytest.mark.parametrize("files, cores", [
    ({}, 8),
    ({"cpu.max": "max 100000\n"}, 8),
    ({"cpu.max": "200000 100000\n"}, 2),
    ({"cpu.max": "150000 100000\n"}, 2),  # a core and a half: two workers share it
    ({"cpu.max": "50000 100000\n"}, 1),
    ({"cpu.max": "1600000 100000\n"}, 8),  # a quota above the affinity: the affinity decides
    ({"cpu/cpu.cfs_quota_us": "300000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 3),  # cgroup v1
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, 8),
    ({"cpu,cpuacct/cpu.cfs_quota_us": "100000\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"}, 1),
])
def test_available_cores_reads_the_cgroup_quota(files, cores, tmp_path, eight_cores):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert available_cores(tmp_path) == cores


def test_available_cores_follows_the_affinity(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert available_cores(tmp_path) == 1


def test_the_default_number_of_workers_is_the_quota(monkeypatch, tmp_path, eight_cores):
    (tmp_path / "cpu.max").write_text("300000 100000\n")
    monkeypatch.setattr(local, "CGROUP", tmp_path)
    assert (worker_count(None, 50_000), worker_count(5, 50_000), worker_count(None, 10)) == (3, 5, 1)


def test_one_job_is_one_thread_of_work(monkeypatch):
    # Lower the threshold so that the selection would run on several threads with more jobs.
    monkeypatch.setattr(selection, "MIN_PARALLEL_DOCUMENTS", 10)
    started, blas_threads = [], {}
    start = threading.Thread.start

    def recorded_start(thread):
        started.append(thread.name)
        start(thread)

    def text_stage(*args):
        blas_threads.update({pool["internal_api"]: pool["num_threads"] for pool in threadpool_info()})
        return text(*args)

    text = stages.analyse_text
    monkeypatch.setattr(threading.Thread, "start", recorded_start)
    monkeypatch.setattr(stages, "analyse_text", text_stage)
    analysis = run_pipeline([SEED_DIR], AnalysisSettings(), n_jobs=1)
    assert (started, len(analysis.papers), analysis.themes.model is not None) == ([], 57, True)
    assert blas_threads and set(blas_threads.values()) == {1}, blas_threads


def test_a_failing_stage_leaves_no_theme_fit_running(monkeypatch):
    fitting, may_finish = threading.Event(), threading.Event()
    fit = model._fit_nmf

    def slow_final_fit(*args, **kwargs):
        if threading.current_thread().name == themes.FINAL_FIT_THREAD:
            fitting.set()
            may_finish.wait(timeout=60)
        return fit(*args, **kwargs)

    def failing_links(*args):
        fitting.wait(timeout=60)  # the final fit is running in its thread
        may_finish.set()
        raise RuntimeError("links failed")

    monkeypatch.setattr(model, "_fit_nmf", slow_final_fit)
    monkeypatch.setattr(stages, "analyse_link_tables", failing_links)
    before = set(threading.enumerate())
    with pytest.raises(RuntimeError, match="links failed"):
        run_pipeline([SEED_DIR], AnalysisSettings(), n_jobs=2)
    assert fitting.is_set()
    assert [thread.name for thread in threading.enumerate() if thread not in before] == []


def test_a_run_collects_garbage_less_often_and_restores_the_collector(monkeypatch):
    seen = []
    text = stages.analyse_text

    def text_stage(*args):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        return text(*args)

    monkeypatch.setattr(stages, "analyse_text", text_stage)
    before = (gc.get_threshold(), gc.get_freeze_count())
    run_pipeline([SEED_DIR], AnalysisSettings(), n_jobs=1)
    assert seen == [(10_000, True)]
    assert (gc.get_threshold(), gc.get_freeze_count()) == before

    def failing_text(*args):
        raise RuntimeError("text failed")

    monkeypatch.setattr(stages, "analyse_text", failing_text)
    with pytest.raises(RuntimeError, match="text failed"):
        run_pipeline([SEED_DIR], AnalysisSettings(), n_jobs=1)
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
