"""Shared paths for the tests. Corpora from ../shared/ are optional: tests skip without them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEED_DIR = ROOT / "data" / "raw"
SHARED = ROOT.parent / "shared"
PMLR_SAMPLE = SHARED / "corpora" / "pmlr-v235-sample"

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def seed_analysis():
    """The seed corpus analysed once for the whole session, with the default settings (the results do not depend
    on the number of jobs). Shared: a test changes it only through copies (``dataclasses.replace``, ``.copy()``)."""
    from helpers.analysis.pipeline import AnalysisSettings, run_pipeline

    return run_pipeline([SEED_DIR], AnalysisSettings())
