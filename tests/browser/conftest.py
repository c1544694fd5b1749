"""The browser tests' fixtures: Debian's Chromium (``make test`` installs it) and the strict seed book, served."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.browser import serve

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """Chromium driven by Playwright, one per test module."""
    if not CHROMIUM.exists():
        pytest.skip("Debian Chromium is not installed (make test installs it with apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def built_book() -> Path:
    """The strict seed book's HTML folder (``$BOOK_HTML``, default ``_build/strict/_build/html``)."""
    folder = Path(os.environ.get("BOOK_HTML") or ROOT / "_build" / "strict" / "_build" / "html").resolve()
    if not (folder / "intro.html").exists():
        pytest.skip(f"no built book in {folder}; run the strict build first (make test does)")
    return folder


@pytest.fixture(scope="module")
def seed_site(built_book):
    """The strict seed book served on 127.0.0.1: its address and its folder."""
    server = serve(built_book)
    yield f"http://127.0.0.1:{server.server_address[1]}", built_book
    server.shutdown()
