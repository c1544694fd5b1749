"""Serving a folder on 127.0.0.1 and watching what a page does in Chromium: shared by the browser tests."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit



class QuietHandler(SimpleHTTPRequestHandler):
    """A static file handler that logs nothing (pytest shows what a test prints)."""

    def log_message(self, *args):
        pass


def serve(folder: Path) -> ThreadingHTTPServer:
    """``folder`` served on 127.0.0.1 at a free port, in a daemon thread; the caller shuts the server down."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class PageWatch:
    """Console errors, failed requests and every requested host of one page."""

    def __init__(self, page, base: str):
        self.errors, self.failed, self.foreign, self.dialogs = [], [], [], []
        host = urlsplit(base).netloc
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("requestfailed", lambda r: self.failed.append(r.url))
        page.on("response", lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

        def record(request):
            if urlsplit(request.url).scheme in ("http", "https") and urlsplit(request.url).netloc != host:
                self.foreign.append(request.url)
        page.on("request", record)

