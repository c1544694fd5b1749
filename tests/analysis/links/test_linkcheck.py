"""The link checker against a real HTTP server on 127.0.0.1 started inside the test."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pandas as pd
import pytest

from helpers.analysis.links.linkcheck import check_urls, latest_check, link_health, write_check

# The slow path answers only when the test releases it (an event, not a sleep), long after any timeout.
RELEASE_AFTER_SECONDS = 30.0


class Handler(BaseHTTPRequestHandler):
    def _answer(self, body: bool):
        if self.path == "/ok":
            self.send_response(200)
        elif self.path == "/moved":
            self.send_response(301)
            self.send_header("Location", "/ok")
        elif self.path == "/missing":
            self.send_response(404)
        elif self.path == "/fails":
            self.send_response(500)
        elif self.path == "/no-head":
            if self.command == "HEAD":
                self.send_response(405)
            else:
                self.send_response(200)
        elif self.path == "/slow":
            self.server.release.wait(RELEASE_AFTER_SECONDS)
            self.send_response(200)
        else:
            self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self.server.requests.append(("HEAD", self.path, self.headers.get("User-Agent")))
        self._answer(False)

    def do_GET(self):
        self.server.requests.append(("GET", self.path, self.headers.get("User-Agent")))
        self._answer(True)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.requests = []
    httpd.release = threading.Event()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.release.set()
    httpd.shutdown()
    httpd.server_close()


def test_every_status(server):
    base = f"http://127.0.0.1:{server.server_address[1]}"
    urls = [f"{base}/ok", f"{base}/moved", f"{base}/missing", f"{base}/fails", f"{base}/no-head",
            f"{base}/slow", "http://127.0.0.1:1/refused"]
    table = check_urls(urls, timeout=0.5, concurrency=4).set_index("url")
    assert table.loc[f"{base}/ok", "status"] == "ok" and table.loc[f"{base}/ok", "http_code"] == 200
    assert table.loc[f"{base}/moved", "status"] == "redirected"
    assert table.loc[f"{base}/moved", "final_url"] == f"{base}/ok"
    assert (table.loc[f"{base}/missing", "status"], table.loc[f"{base}/missing", "http_code"]) == ("broken", 404)
    assert (table.loc[f"{base}/fails", "status"], table.loc[f"{base}/fails", "http_code"]) == ("broken", 500)
    assert table.loc[f"{base}/no-head", "status"] == "ok"
    assert table.loc[f"{base}/slow", "status"] == "timeout"
    assert table.loc["http://127.0.0.1:1/refused", "status"] == "error"
    assert table["checked_at"].str.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$").all()
    # The slow path (which never answers in time) timed out after 0.5 s and was tried exactly twice.
    methods = [(m, p) for m, p, _ in server.requests]
    assert ("GET", "/no-head") in methods and methods.count(("HEAD", "/slow")) == 2
    assert all(agent.startswith("abstracts-book-linkcheck/") for _, _, agent in server.requests)


def test_saved_checks_are_read_back(tmp_path):
    links = pd.DataFrame({"url": ["https://a.org", "https://b.org"]})
    health, source = link_health(links, tmp_path / "none")
    assert health["status"].tolist() == ["unchecked", "unchecked"]
    assert source.startswith("not checked: the book builds offline")
    old = pd.DataFrame({"url": ["https://a.org"], "status": ["broken"], "http_code": [404],
                        "final_url": ["https://a.org"], "checked_at": ["2026-01-01T00:00:00Z"]})
    new = old.assign(status="ok", http_code=200, checked_at="2026-02-01T00:00:00Z")
    from datetime import datetime, timezone
    write_check(old, tmp_path, now=datetime(2026, 1, 1, tzinfo=timezone.utc))
    path = write_check(new, tmp_path, now=datetime(2026, 2, 1, tzinfo=timezone.utc))
    assert latest_check(tmp_path)[1] == path
    health, source = link_health(links, tmp_path)
    assert health["status"].tolist() == ["ok", "unchecked"]
    assert path.name in source
    assert not list(tmp_path.glob(".linkcheck-*"))
