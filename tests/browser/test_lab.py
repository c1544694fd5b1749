"""A chapter re-run in JupyterLab reads as its page does, and opening it changes no file.

JupyterLab as ``make lab`` starts it (its contents manager and settings, ``requirements-lab.txt``) on 127.0.0.1;
Chromium opens the themes chapter, sets its corpus to a small multi-year CSV written here and runs all cells.
Run by ``make test`` (``pytest -m browser``; ``make test-browser`` installs JupyterLab first).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.corpus_files import write_multi_year_corpus

pytestmark = pytest.mark.browser

CHAPTER = "chapters/themes.md"
N_PAPERS = 45
RAW_MARKUP = re.compile(r"\{(?:glue|eval|numref|ref|doc)[:}]|book\.page\.|run the cells above|Unknown (?:Directive|Role)"
                        r"|^:(?:name|alt|format):", re.M)


def chapter_digests() -> dict[str, str]:
    return {str(path.relative_to(ROOT)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in [ROOT / "intro.md", *sorted((ROOT / "chapters").glob("*.md"))]}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """45 seed abstracts given as NeurIPS papers of 2022, 2023 and 2024."""
    path = tmp_path_factory.mktemp("lab-corpus") / "neurips.csv"
    return write_multi_year_corpus(path, N_PAPERS)


@pytest.fixture(scope="module")
def lab(tmp_path_factory, corpus):
    """JupyterLab as ``make lab`` runs it, with a fresh workspace and analysis cache; stopped after the tests."""
    try:
        import jupyterlab  # noqa: F401
        import jupyterlab_myst  # noqa: F401
    except ImportError:
        pytest.skip("JupyterLab is not installed (make test-browser installs requirements-lab.txt)")
    settings = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert settings.exists(), "make lab-deps writes JupyterLab's settings (autosave off)"
    work = tmp_path_factory.mktemp("lab")
    port, token = free_port(), secrets.token_hex(16)
    environment = {**os.environ, "BOOK_NOTEBOOK": "1", "BOOK_ANALYSIS_CACHE": str(work / "cache"),
                   "JUPYTERLAB_WORKSPACES_DIR": str(work / "workspaces"), "JUPYTER_RUNTIME_DIR": str(work / "runtime")}
    environment.pop("BOOK_CORPUS", None)
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--notebook-dir={ROOT}",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}",
               "--ServerApp.contents_manager_class=helpers.book.lab.contents.BookContentsManager",
               f"--LabApp.user_settings_dir={work / 'user-settings'}"]
    if os.getuid() == 0:
        command.append("--allow-root")
    log = (work / "lab.log").open("w")
    server = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            break
        except OSError:
            assert server.poll() is None, (work / "lab.log").read_text()
            time.sleep(0.5)
    yield base, token
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def run_chapter(browser, base: str, token: str, corpus: Path):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{base}/lab/workspaces/test/tree/{CHAPTER}?token={token}")
    page.wait_for_function("document.querySelector('.jp-CodeCell .cm-content')?.innerText.includes('corpus = None')",
                           timeout=120_000, polling=250)
    page.wait_for_timeout(2000)
    opened_dirty = page.evaluate("document.querySelector('.jp-mod-dirty') !== null")
    editor = page.locator(".jp-CodeCell .cm-content").first
    source = editor.inner_text()
    assert re.search(r"^corpus = None", source, re.M)
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(re.sub(r"^corpus = None", f"corpus = {str(corpus)!r}", source, flags=re.M))
    page.keyboard.press("Escape")
    page.click("div.lm-MenuBar-itemLabel:text('Run')")
    page.click("li.lm-Menu-item:has-text('Run All Cells')")
    page.wait_for_timeout(2000)
    page.wait_for_function("""() => {
        const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(e => e.innerText);
        return prompts.every(t => /\\[\\d+\\]/.test(t)) || document.querySelector('.jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]');
    }""", timeout=300_000, polling=500)
    page.wait_for_timeout(2000)
    return page, opened_dirty


def test_a_chapter_run_in_jupyterlab_reads_as_its_page_and_changes_no_file(browser, lab, corpus):
    from helpers.book.reports import themes as report
    from helpers.book.display import glued_text
    from helpers.book.settings import analysis

    base, token = lab
    before = chapter_digests()
    page, opened_dirty = run_chapter(browser, base, token, corpus)
    text = page.evaluate("document.querySelector('.jp-Notebook').innerText")
    errors = page.evaluate("[...document.querySelectorAll('[data-mime-type=\"application/vnd.jupyter.stderr\"]')]"
                           ".map(e => e.innerText)")
    assert not errors, errors
    assert not opened_dirty, "a chapter is marked edited as soon as it opens"

    # The prose carries the numbers of this corpus, as the page glues them, and no raw markup.
    assert not RAW_MARKUP.findall(text), RAW_MARKUP.findall(text)
    os.environ.pop("BOOK_CORPUS", None)
    findings = report.theme_findings(analysis(corpus=str(corpus)))
    k, mixed, share = (glued_text(name, findings[name]) for name in ("themes_k", "themes_mixed_n", "themes_mixed_share"))
    assert f"The {N_PAPERS} abstracts of NeurIPS 2022\u20132024 fall into {k} themes" in text
    assert f"{mixed} papers ({share}) are mixed" in text
    assert f"by NMF weight ({k} themes)" in text

    # Every figure of the page in its place, with its number and caption; its download links answer.
    figures = page.evaluate("[...document.querySelectorAll('.jp-MarkdownCell img[src^=\"data:image/png\"]')]"
                            ".map(i => [i.naturalWidth, i.getBoundingClientRect().width, i.alt])")
    assert len(figures) == 5 and all(natural > 300 and shown > 300 for natural, shown, _ in figures), figures
    assert [alt for *_, alt in figures][:2] == ["Top terms per theme", "Map of the papers by theme weights"]
    assert re.search(r"Figure\s2:\s*Each paper placed by a t-SNE embedding", text)
    links = page.evaluate("[...document.querySelectorAll('.jp-OutputArea a')].filter(a => a.innerText === 'PNG')"
                          ".map(a => a.href)")
    assert len(links) == 5
    for link in links:
        assert page.request.get(link).status == 200, link
    page.close()

    # Opening and running changed no chapter: nothing is written until the reader saves.
    assert chapter_digests() == before
