"""Height of every page of a built book at 1280 px width, and a screenshot of each (headless Chromium).

    python benchmarks/page_heights.py _build/html [--shots DIR] [--label NAME]

Prints one line per page (height in px, time until the page is loaded) and writes the screenshots
(top 1280 x 2400 px of each page) into ``--shots``. No page of the book may be taller than
15,000 px, whatever the corpus.
"""

from __future__ import annotations

import argparse
import functools
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PAGES = ["intro.html", "chapters/corpus.html", "chapters/themes.html", "chapters/cooccurrence.html",
         "chapters/links.html", "chapters/explorer.html", "chapters/figures.html", "chapters/cite.html",
         "chapters/reproduce.html", "chapters/performance.html"]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MAX_HEIGHT = 15_000


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("html", type=Path)
    parser.add_argument("--shots", type=Path, default=Path("_build/page-shots"))
    parser.add_argument("--label", default="book")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(args.html)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    args.shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for path in PAGES:
            start = time.perf_counter()
            page.goto(f"{base}/{path}", wait_until="networkidle")
            loaded = time.perf_counter() - start
            height = page.evaluate("document.documentElement.scrollHeight")
            shot = args.shots / f"{args.label}-{path.replace('/', '_').replace('.html', '.png')}"
            page.screenshot(path=str(shot), clip={"x": 0, "y": 0, "width": 1280, "height": min(height, 2400)})
            flag = "TOO TALL" if height > MAX_HEIGHT else "ok"
            print(f"{args.label}\t{path}\t{height}\t{loaded:.2f}\t{flag}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
