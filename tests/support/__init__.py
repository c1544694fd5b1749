"""What many test files share and that is not a fixture: the project's paths, the command line run in this process,
a chapter's doctree. Fixtures live in the ``conftest.py`` nearest to the tests that use them; helpers shared by a
few files live in the modules of this package (``support.browser``, ``support.explorer_papers``, ...), so no test
file imports another test file (``tests/test_suite_layout.py`` checks it). Corpora in ``../shared/`` are optional:
tests that read them skip without them."""

from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEED_DIR = ROOT / "data" / "raw"
SHARED = ROOT.parent / "shared"
PMLR_SAMPLE = SHARED / "corpora" / "pmlr-v235-sample"


def run_in_process(*args: str) -> subprocess.CompletedProcess:
    """``python -m helpers ARGS`` run in this process (:func:`helpers.cli.main`, which ``python -m helpers`` calls):
    its exit code and what it printed, as :func:`subprocess.run` gives them, without a new interpreter's imports.
    The process itself (``-m helpers``, a hash seed of its own) is tested in ``tests/cli/test_cli.py``.

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


def benchmark_results(root: Path) -> Path:
    """``root/benchmarks/results``, made: where the Validation and Performance pages read the benchmarks' tables,
    for a test that writes their rows under ``tmp_path``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     benchmark_results(Path(folder)).relative_to(folder).as_posix()
    'benchmarks/results'
    """
    results = root / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    return results
