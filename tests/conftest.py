"""Shared paths for the tests. Corpora from ../shared/ are optional: tests skip without them."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED_DIR = ROOT / "data" / "raw"
SHARED = ROOT.parent / "shared"
PMLR_SAMPLE = SHARED / "corpora" / "pmlr-v235-sample"

sys.path.insert(0, str(Path(__file__).parent))
