"""How soon the paper explorer answers a search, in headless Chromium, for big synthetic corpora.

For each size: generate a synthetic corpus (``generate.py``), analyse it, write its explorer data
file into a copy of a built book (so the page is the real ``chapters/explorer.html`` with the
book's theme and MathJax), serve that copy on 127.0.0.1, open the explorer at 1280 px width and
measure, from the start of navigation (the page's ``performance.now()``), until the search box
answers: a word typed into it (by Playwright) and the count ("N of M papers") updated. Median of
``--runs`` loads. ``seconds_in_page`` is the same with the word typed by a script inside the page
as soon as the count first shows (no automation round trips): the page's own readiness.

    python benchmarks/explorer_ready.py 3000 20000 1000000 --book /tmp/book/_build/html

The explorer's papers are chosen as its chapter chooses them
(:func:`helpers.web.explorer_data.explorer_papers`): all of them up to
``MAX_EXPLORER_PAPERS`` (20,000), else a seeded sample of that many, so ``n_shown`` is the number of
papers in the page's data. The 1,000,000 size analyses the corpus first (about 7 minutes and 14 GiB).

Writes ``benchmarks/explorer_results.csv`` (size, papers shown, seconds, page height, data file size) and a
full-page screenshot per size into ``benchmarks/out/``. Needs a built book (``make book``) and
Debian's Chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import csv
import functools
import os
import shutil
import statistics
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "explorer_results.csv"
# seconds: issue "The book reads as a report at conference scale", item 3 (3,000 and 20,000) and issue "Beyond one
# machine", item 6 (1,000,000).
TARGETS = {3000: 1.0, 20000: 2.0, 1_000_000: 2.0}
MAX_PAGE_HEIGHT = 15_000
WIDTH = 1280
WORD = "graph"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
COUNT = "#explorer-app .explorer-count"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def explorer_data_for(n_abstracts: int, folder: Path) -> tuple[Path, int]:
    """Analyse a synthetic corpus of ``n_abstracts`` and write its explorer data file into ``folder``, with the
    papers the explorer chapter would show (a seeded sample beyond its cap); the file and how many it holds."""
    from generate import generate
    from helpers.analysis.corpus.titles import read_metadata, with_titles
    from helpers.analysis.pipeline import run_pipeline
    from helpers.web.explorer_data import explorer_data, explorer_papers, write_explorer_data

    with tempfile.TemporaryDirectory() as corpus:
        analysis = run_pipeline(generate(n_abstracts, Path(corpus)))
    papers = with_titles(analysis.papers, read_metadata(ROOT / "data" / "icml2024-seed-metadata.csv"))
    shown = explorer_papers(papers, texts=analysis.texts)
    data = explorer_data(shown, analysis.links.links, analysis.links.statements, analysis.themes.labels,
                         analysis.cooccurrence)
    return write_explorer_data(data, folder), len(shown)


def time_to_answer(browser, url: str, total: int, screenshot: Path | None = None) -> tuple[float, int]:
    """Seconds from navigation start until a typed search word has updated the count; page height."""
    page = browser.new_page(viewport={"width": WIDTH, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="commit")
    page.wait_for_function(f"() => (document.querySelector('{COUNT}') || {{}}).textContent === "
                           f"'{total} of {total} papers'", polling="raf", timeout=120_000)
    page.fill("#explorer-app input.explorer-search", WORD)
    page.wait_for_function(f"() => document.querySelector('{COUNT}').textContent !== '{total} of {total} papers'",
                           polling="raf", timeout=120_000)
    seconds = page.evaluate("() => performance.now()") / 1000
    page.fill("#explorer-app input.explorer-search", "")
    page.wait_for_function(f"() => document.querySelector('{COUNT}').textContent === '{total} of {total} papers'")
    page.wait_for_load_state("networkidle")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    if screenshot is not None:
        page.screenshot(path=str(screenshot), full_page=True)
    page.close()
    if errors:
        raise RuntimeError(f"page errors at {url}: {errors}")
    return seconds, height


# Types the word from inside the page as soon as the count first shows every paper, and notes when the
# count answers: the page's own readiness, without the automation's round trips.
IN_PAGE_TYPING = """
(() => {
  const word = %r, count = %r;
  function poll() {
    const shown = document.querySelector(count), input = document.querySelector("#explorer-app input.explorer-search");
    if (!shown || !input || !/^(\\d+) of \\1 papers$/.test(shown.textContent)) { requestAnimationFrame(poll); return; }
    const before = shown.textContent;
    new MutationObserver((_, observer) => {
      if (shown.textContent !== before) { window.__explorerAnswered = performance.now(); observer.disconnect(); }
    }).observe(shown, { childList: true, characterData: true, subtree: true });
    input.value = word;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  requestAnimationFrame(poll);
})();
""" % (WORD, COUNT)


def time_in_page(browser, url: str) -> float:
    """Seconds from navigation start until the count answers a word typed by the page itself."""
    page = browser.new_page(viewport={"width": WIDTH, "height": 900})
    page.add_init_script(IN_PAGE_TYPING)
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__explorerAnswered !== undefined", timeout=120_000)
    seconds = page.evaluate("() => window.__explorerAnswered") / 1000
    page.close()
    return seconds


def measure(sizes: list[int], book: Path, runs: int) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rows = []
    (HERE / "out").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as work, sync_playwright() as playwright:
        site = Path(work) / "html"
        shutil.copytree(book, site, ignore=shutil.ignore_patterns("*.pdf", "*.svg"))
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        try:
            for size in sizes:
                print(f"{size} abstracts: analysing…", file=sys.stderr, flush=True)
                data_file, n_shown = explorer_data_for(size, site / "figures")
                url = f"http://127.0.0.1:{server.server_address[1]}/chapters/explorer.html"
                timings, height = [], 0
                for run in range(runs):
                    shot = HERE / "out" / f"explorer-{size}.png" if run == 0 else None
                    seconds, height = time_to_answer(browser, url, n_shown, shot)
                    timings.append(seconds)
                seconds = statistics.median(timings)
                in_page = statistics.median(time_in_page(browser, url) for _ in range(runs))
                rows.append(dict(n_abstracts=size, n_shown=n_shown, seconds=round(seconds, 3), page_height_px=height,
                                 seconds_in_page=round(in_page, 3),
                                 data_file_mib=round(data_file.stat().st_size / 2**20, 2), runs=runs,
                                 target_seconds=TARGETS.get(size, ""), max_page_height_px=MAX_PAGE_HEIGHT))
                print(rows[-1], file=sys.stderr, flush=True)
        finally:
            browser.close()
            server.shutdown()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, default=sorted(TARGETS))
    parser.add_argument("--book", type=Path, default=Path(os.environ.get("BOOK_HTML") or ROOT / "_build" / "html"),
                        help="a built book's HTML folder (default: $BOOK_HTML or _build/html)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if not (args.book / "chapters" / "explorer.html").exists():
        parser.error(f"no built book in {args.book}; run `make book` first or pass --book")
    sys.path.insert(0, str(HERE))
    rows = measure(args.sizes, args.book.resolve(), args.runs)
    with args.out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
