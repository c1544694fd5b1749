"""Fixtures for every test: each test process's own analysis cache and the seed corpus analysed once. Paths and
helpers that are not fixtures are in :mod:`tests.support`; the browser's fixtures in ``tests/browser/conftest.py``."""

from __future__ import annotations

import pytest

from tests.support import SEED_DIR


@pytest.fixture(scope="session", autouse=True)
def own_analysis_cache(tmp_path_factory):
    """The book's analysis cache of this test process (each pytest-xdist worker has its own): no test reads a cache
    left in ``_build`` by a book build or an earlier run, and workers never share one. (No test writes the default
    figure folder: those that publish figures set ``BOOK_FIGURE_DIR`` themselves, as JupyterLab's tests leave it
    unset on purpose.)"""
    folder = tmp_path_factory.mktemp("analysis-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOOK_ANALYSIS_CACHE", str(folder))
        yield folder


@pytest.fixture(scope="session")
def seed_analysis():
    """The seed corpus analysed once for the whole session (once per pytest-xdist worker), with the default
    settings, in one job (the results do not depend on the number of jobs; tests of that compare with this).
    Shared: a test changes it only through copies (``dataclasses.replace``, ``.copy()``)."""
    from helpers.analysis.pipeline import AnalysisSettings, run_pipeline

    return run_pipeline([SEED_DIR], AnalysisSettings(), n_jobs=1)
