"""Run independent calls on several cores, results in input order.

Only for work whose result never depends on the number of processes: chunks
of independent items (parsing, text preparation, link finding) or model fits
with their own seeds. Small inputs run in this process: starting workers
costs about a second (each imports numpy, pandas and scikit-learn). Model fits
run on threads instead, as scikit-learn's compiled code releases the GIL.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Sequence

__all__ = ["MIN_PARALLEL_ITEMS", "worker_count", "run_calls", "run_in_threads", "start_in_thread", "map_chunks"]

MIN_PARALLEL_ITEMS = 5_000
CHUNKS_PER_WORKER = 4


def worker_count(n_jobs: int | None, n_items: int, min_items: int | None = None) -> int:
    """Processes to use: ``n_jobs`` (default all cores), but 1 below ``min_items`` items
    (default :data:`MIN_PARALLEL_ITEMS`).

    Examples
    --------
    >>> worker_count(4, 100), worker_count(2, 50_000), worker_count(1, 50_000), worker_count(2, 150, 100)
    (1, 2, 1, 2)
    """
    if n_items < (MIN_PARALLEL_ITEMS if min_items is None else min_items):
        return 1
    return max(1, n_jobs or os.cpu_count() or 1)


def run_calls(calls: Sequence[tuple[Callable[..., Any], tuple]], workers: int) -> list[Any]:
    """``[function(*args) for function, args in calls]`` on ``workers`` processes (joblib).

    Examples
    --------
    >>> run_calls([(sum, ([1, 2],)), (max, ([3, 4],))], workers=1)
    [3, 4]
    """
    from joblib import Parallel, delayed

    # max_nbytes=None: no read-only memory maps, which scipy's in-place sparse clean-ups reject.
    return Parallel(n_jobs=max(1, min(workers, len(calls))), max_nbytes=None)(
        delayed(function)(*args) for function, args in calls)


def run_in_threads(calls: Sequence[tuple[Callable[..., Any], tuple]], threads: int) -> list[Any]:
    """``[function(*args) for function, args in calls]`` on ``threads`` threads, results in input order.

    For calls that spend most of their time in compiled code that releases the GIL
    (scikit-learn's NMF): no worker process to start. The calls share this process's
    memory, so give each its own copy of anything it might change.

    Examples
    --------
    >>> run_in_threads([(sum, ([1, 2],)), (max, ([3, 4],))], threads=2)
    [3, 4]
    """
    if threads <= 1 or len(calls) <= 1:
        return [function(*args) for function, args in calls]
    with ThreadPoolExecutor(max_workers=min(threads, len(calls))) as pool:
        futures = [pool.submit(function, *args) for function, args in calls]
        return [future.result() for future in futures]


def start_in_thread(function: Callable[..., Any], *args: Any) -> Future:
    """Start ``function(*args)`` in a background thread; ``.result()`` of the returned future waits for it.

    Examples
    --------
    >>> start_in_thread(sum, [1, 2]).result()
    3
    """
    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(function, *args)
    pool.shutdown(wait=False)
    return future


def map_chunks(function: Callable[..., Any], items: Sequence, *args: Any,
               n_jobs: int | None = None) -> list[Any]:
    """``[function(chunk, *args) for chunk in chunks of items]``, on :func:`worker_count` processes.

    Examples
    --------
    >>> map_chunks(sum, list(range(10)))
    [45]
    """
    workers = worker_count(n_jobs, len(items))
    if workers == 1:
        return [function(items, *args)]
    n_chunks = workers * CHUNKS_PER_WORKER
    size = -(-len(items) // n_chunks)
    chunks = [items[start:start + size] for start in range(0, len(items), size)]
    return run_calls([(function, (chunk, *args)) for chunk in chunks], workers)
