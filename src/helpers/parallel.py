"""Run a function over chunks of a long sequence on several cores, results in input order.

Only for work where each item is independent (parsing, text preparation, link
finding), so the result never depends on the number of processes. Small inputs
run in this process: starting workers costs about a second.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

__all__ = ["MIN_PARALLEL_ITEMS", "worker_count", "map_chunks"]

MIN_PARALLEL_ITEMS = 5_000
CHUNKS_PER_WORKER = 4


def worker_count(n_jobs: int | None, n_items: int) -> int:
    """Processes to use: ``n_jobs`` (default all cores), but 1 for fewer than 5,000 items.

    Examples
    --------
    >>> worker_count(4, 100), worker_count(2, 50_000), worker_count(1, 50_000)
    (1, 2, 1)
    """
    if n_items < MIN_PARALLEL_ITEMS:
        return 1
    return max(1, n_jobs or os.cpu_count() or 1)


def map_chunks(function: Callable[..., Any], items: Sequence, *args: Any,
               n_jobs: int | None = None) -> list[Any]:
    """``[function(chunk, *args) for chunk in chunks of items]``, on ``worker_count`` processes.

    Examples
    --------
    >>> map_chunks(sum, list(range(10)))
    [45]
    """
    workers = worker_count(n_jobs, len(items))
    if workers == 1:
        return [function(items, *args)]
    from joblib import Parallel, delayed

    n_chunks = workers * CHUNKS_PER_WORKER
    size = -(-len(items) // n_chunks)
    chunks = [items[start:start + size] for start in range(0, len(items), size)]
    return Parallel(n_jobs=workers, max_nbytes=None)(delayed(function)(chunk, *args) for chunk in chunks)
