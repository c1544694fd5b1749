"""Shared paths for the tests. Corpora from ../shared/ are optional: tests skip without them."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEED_DIR = ROOT / "data" / "raw"
SHARED = ROOT.parent / "shared"
PMLR_SAMPLE = SHARED / "corpora" / "pmlr-v235-sample"

sys.path.insert(0, str(Path(__file__).parent))


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


def run_in_process(*args: str) -> subprocess.CompletedProcess:
    """``python -m helpers ARGS`` run in this process (:func:`helpers.cli.main`, which ``python -m helpers`` calls):
    its exit code and what it printed, as :func:`subprocess.run` gives them, without a new interpreter's imports.
    The process itself (``-m helpers``, a hash seed of its own) is tested in ``test_cli.py``.

    >>> result = run_in_process("analyse", "no/such/folder", "--out", "never")
    >>> result.returncode, result.stderr
    (2, 'error: no/such/folder: no such file or directory\\n')
    """
    from helpers.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's usage errors and --help
            code = exit_.code if isinstance(exit_.code, int) else 2
    return subprocess.CompletedProcess(["helpers", *args], code, stdout.getvalue(), stderr.getvalue())


def page_doctree(page: str, labels: tuple[str, ...]):
    """A chapter as Sphinx reads it, its labels already on their sections: a page section ``sec-<page>`` holding
    one section per label (its text the label), as :mod:`helpers.book.build.sphinx_ext` finds them."""
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    document = new_document(f"{page}.md", get_default_settings(Parser))
    section = nodes.section(ids=[f"sec-{page}"])
    for label in labels:
        section += nodes.section("", nodes.paragraph(text=label), ids=[label])
    document += section
    return document


# Debian's Chromium for the browser tests (make test installs it), one per test module.
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("Debian Chromium is not installed (make test installs it with apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()
