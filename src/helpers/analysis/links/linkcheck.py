"""Check whether links are alive: online, explicit, never part of the book build (which must run offline).

``python -m helpers linkcheck [PATHS...]`` (or ``make linkcheck``) sends a HEAD
request to every URL found in the corpus (GET where HEAD is refused), follows
redirects, retries once on timeout, limits requests per host, and writes a dated
CSV (``url, status, http_code, final_url, checked_at``) atomically into the
output folder. The links chapter reads the newest such file.
"""

from __future__ import annotations

import os
import socket
import ssl
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import urlsplit

import pandas as pd
from helpers.analysis.links.states import distinct_urls
from helpers.analysis.spreadsheet import write_csv

from helpers import __version__

__all__ = ["CHECK_COLUMNS", "check_url", "check_urls", "write_check", "latest_check", "link_health", "run_linkcheck"]

USER_AGENT = f"abstracts-book-linkcheck/{__version__} (+https://github.com; checks links cited in abstracts)"
#: The columns of a saved check.
CHECK_COLUMNS = ["url", "status", "http_code", "final_url", "checked_at"]
HEAD_REFUSED = {403, 405, 501}
FILE_PREFIX = "linkcheck-"


def _opener() -> urllib.request.OpenerDirector:
    # No proxies from the environment: the checker talks to the hosts themselves.
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _request(opener, url: str, method: str, timeout: float) -> tuple[int, str]:
    request = urllib.request.Request(url, method=method, headers={"User-Agent": USER_AGENT})
    with opener.open(request, timeout=timeout) as response:
        return response.status, response.geturl()


def check_url(url: str, *, timeout: float = 10.0, opener=None) -> dict[str, object]:
    """Check one URL: HEAD (GET where HEAD is refused), redirects followed.

    Parameters
    ----------
    url : str
        An http(s) URL.
    timeout : float
        Seconds to wait for an answer (a timeout is retried once).
    opener : urllib.request.OpenerDirector, optional
        The opener to send with (one without proxies by default).

    Returns
    -------
    dict
        ``url, status, http_code, final_url, checked_at``; ``status`` is ``ok``, ``redirected``, ``broken``,
        ``timeout`` or ``error``.

    Examples
    --------
    >>> check_url("http://127.0.0.1:9/", timeout=1)["status"]  # nothing listens there
    'error'
    """
    opener = opener or _opener()
    checked_at = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    row = dict(url=url, status="error", http_code=pd.NA, final_url="", checked_at=checked_at)
    for attempt in range(2):
        try:
            try:
                code, final = _request(opener, url, "HEAD", timeout)
            except urllib.error.HTTPError as error:
                if error.code not in HEAD_REFUSED:
                    raise
                code, final = _request(opener, url, "GET", timeout)
            row.update(status="ok" if final == url else "redirected", http_code=code, final_url=final)
            return row
        except urllib.error.HTTPError as error:
            row.update(status="broken", http_code=error.code, final_url=error.geturl() or url)
            return row
        except (TimeoutError, socket.timeout):
            row.update(status="timeout")
        except urllib.error.URLError as error:
            if isinstance(error.reason, (TimeoutError, socket.timeout)):
                row.update(status="timeout")
            else:
                row.update(status="error", final_url="")
                return row
        except (ssl.SSLError, ConnectionError, OSError, ValueError):
            row.update(status="error")
            return row
    return row


def check_urls(
    urls: Iterable[str],
    *,
    timeout: float = 10.0,
    concurrency: int = 8,
    per_host: int = 2,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Check many URLs in parallel, at most ``per_host`` at a time on any one host.

    Parameters
    ----------
    urls : iterable of str
        The URLs (each checked once).
    timeout : float
        Seconds to wait for each answer.
    concurrency : int
        Checks at once.
    per_host : int
        Checks at once on any one host.
    progress : callable, optional
        Called with 1 after each check.

    Returns
    -------
    DataFrame
        One row per URL, columns :data:`CHECK_COLUMNS`.

    Examples
    --------
    >>> check_urls(["http://127.0.0.1:9/", "http://127.0.0.1:9/"], timeout=1)[["url", "status"]].values.tolist()
    [['http://127.0.0.1:9/', 'error']]
    """
    urls = list(dict.fromkeys(urls))
    host_locks: dict[str, threading.Semaphore] = {}
    guard = threading.Lock()
    opener = _opener()

    def run(url: str) -> dict[str, object]:
        host = (urlsplit(url).hostname or "").lower()
        with guard:
            semaphore = host_locks.setdefault(host, threading.Semaphore(per_host))
        with semaphore:
            row = check_url(url, timeout=timeout, opener=opener)
        if progress:
            progress(1)
        return row

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        rows = list(pool.map(run, urls))
    table = pd.DataFrame(rows, columns=CHECK_COLUMNS)
    table["http_code"] = table["http_code"].astype("Int64")
    return table


def write_check(table: pd.DataFrame, folder: Path, *, now: datetime | None = None) -> Path:
    """Write a dated CSV atomically (temporary file, then rename).

    Parameters
    ----------
    table : DataFrame
        A check (:func:`check_urls`).
    folder : Path
        Where to write (made when missing).
    now : datetime, optional
        The date in the file's name (the current time by default).

    Returns
    -------
    Path
        The file written, ``linkcheck-<UTC time>.csv``.

    Examples
    --------
    >>> import tempfile
    >>> table = pd.DataFrame({"url": ["https://x.org"], "status": ["ok"], "http_code": [200], "final_url": [""],
    ...                       "checked_at": ["2026-01-01T00:00:00Z"]})
    >>> write_check(table, Path(tempfile.mkdtemp()), now=datetime(2026, 1, 1, tzinfo=timezone.utc)).name
    'linkcheck-20260101T000000Z.csv'
    """
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
    target = folder / f"{FILE_PREFIX}{stamp}.csv"
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".linkcheck-", suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
        write_csv(table, stream)
    os.replace(temporary, target)
    return target


def latest_check(folder: Path) -> tuple[pd.DataFrame | None, Path | None]:
    """The newest saved check in ``folder`` (by the date in its name), or ``(None, None)``.

    Parameters
    ----------
    folder : Path
        Where checks are saved.

    Returns
    -------
    table : DataFrame or None
        The check's rows (:data:`CHECK_COLUMNS`).
    path : Path or None
        Its file.

    Examples
    --------
    >>> latest_check(Path("/nonexistent"))
    (None, None)
    """
    files = sorted(Path(folder).glob(f"{FILE_PREFIX}*.csv")) if Path(folder).exists() else []
    if not files:
        return None, None
    return pd.read_csv(files[-1], dtype={"http_code": "Int64"}, keep_default_na=False,
                       na_values={"http_code": [""]}), files[-1]


def link_health(links: pd.DataFrame, folder: Path) -> tuple[pd.DataFrame, str]:
    """Each link's status from the newest check, or ``unchecked`` when there is none.

    Parameters
    ----------
    links : DataFrame
        With a ``url`` column (:func:`helpers.analysis.links.states.find_links`).
    folder : Path
        Where checks are saved.

    Returns
    -------
    health : DataFrame
        One row per distinct URL, columns :data:`CHECK_COLUMNS`.
    source : str
        A sentence saying where the statuses come from.

    Examples
    --------
    >>> health, source = link_health(pd.DataFrame({"url": ["https://x.org"]}), Path("/nonexistent"))
    >>> health["status"].tolist(), source.split(":")[0]
    (['unchecked'], 'not checked')
    """
    urls = distinct_urls(links)
    check, path = latest_check(folder)
    base = pd.DataFrame({"url": urls})
    if check is None or path is None:  # latest_check gives both or neither
        base = base.assign(status="unchecked", http_code=pd.array([pd.NA] * len(urls), dtype="Int64"),
                           final_url="", checked_at="")
        return base, "not checked: the book builds offline (run `make linkcheck` to check the links)"
    merged = base.merge(check, on="url", how="left")
    merged["status"] = merged["status"].fillna("unchecked")
    merged = merged.fillna({"final_url": "", "checked_at": ""})
    return merged[CHECK_COLUMNS], f"from the check saved in {path.name}"


def run_linkcheck(urls: list[str], out: Path, *, timeout: float, concurrency: int,
                  progress: bool) -> tuple[Path, pd.DataFrame, float]:
    """Check ``urls`` and save the dated CSV in ``out``.

    Parameters
    ----------
    urls : list of str
        The URLs to check.
    out : Path
        Where to save the check.
    timeout : float
        Seconds to wait for each answer.
    concurrency : int
        Checks at once.
    progress : bool
        Whether to show a progress bar.

    Returns
    -------
    path : Path
        The file written.
    table : DataFrame
        The check.
    seconds : float
        How long it took.

    Examples
    --------
    >>> import tempfile
    >>> path, table, _ = run_linkcheck(["http://127.0.0.1:9/"], Path(tempfile.mkdtemp()), timeout=1, concurrency=1,
    ...                                progress=False)
    >>> path.name.startswith("linkcheck-"), table["status"].tolist()
    (True, ['error'])
    """
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm.auto import tqdm  # lazy: progress bars only

        bar = tqdm(total=len(urls), desc="linkcheck", unit="url")
    table = check_urls(urls, timeout=timeout, concurrency=concurrency, progress=bar.update if bar else None)
    if bar:
        bar.close()
    return write_check(table, out), table, time.perf_counter() - start
