"""Run independent calls on several cores, results in input order: the analysis's private parallel helpers.

Private (the leading underscore) because they are how the analysis runs, not what it offers: the stages
(text, themes, term map, links) and the pipeline call them, and nothing outside the analysis does
(``tests/test_layers.py``); the pipeline makes public the little the book reads of them
(:func:`helpers.analysis.pipeline.available_cores`, the chunk sizes). They sit below every stage and import
none, so the stages and the Dask engine (:mod:`helpers.analysis.pipeline.dask_engine`) share one way of
cutting the papers into partitions (:func:`partition_bounds`) and of summing their results (:func:`reduce_tree`).

Only for work whose result never depends on the number of processes: chunks
of independent items (parsing, text preparation, link finding) or model fits
with their own seeds. Small inputs run in this process: starting workers
costs about a second (each imports numpy, pandas and scikit-learn). Model fits
run on threads instead, as scikit-learn's compiled code releases the GIL.

"All cores" means the cores this process may use (:func:`available_cores`): its
CPU affinity and its container's CPU quota, not the machine's.
"""

from __future__ import annotations

import math
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

#: Fewer items than this are worked on in this process: starting workers would cost more than it saves.
MIN_PARALLEL_ITEMS = 5_000
CHUNKS_PER_WORKER = 4
#: At most this many items in one chunk (local engine) or partition (dask engine): every task's work,
#: message and memory stay the same however large the corpus, so the stages grow linearly with it.
MAX_CHUNK_ITEMS = 20_000
#: Where the cgroup file system is mounted (read by :func:`available_cores`).
CGROUP = Path("/sys/fs/cgroup")


def _cgroup_quota(cgroup: Path) -> int | None:
    """Cores the cgroup CPU quota allows (rounded up, as joblib does), or None without a quota."""
    try:
        quota, period = (cgroup / "cpu.max").read_text().split()[:2]  # cgroup v2: "max 100000" or "200000 100000"
        return None if quota == "max" else max(1, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass
    for folder in ("cpu", "cpu,cpuacct"):  # cgroup v1: a quota of -1 means none
        try:
            quota_us = int((cgroup / folder / "cpu.cfs_quota_us").read_text())
            period_us = int((cgroup / folder / "cpu.cfs_period_us").read_text())
        except (OSError, ValueError):
            continue
        return max(1, math.ceil(quota_us / period_us)) if quota_us > 0 and period_us > 0 else None
    return None


def available_cores(cgroup: Path | None = None) -> int:
    """The cores this process may use: its CPU affinity and the cgroup CPU quota, whichever is smaller.

    ``os.cpu_count()`` counts the machine's cores, also those a container or ``taskset`` keeps
    from us.

    Parameters
    ----------
    cgroup : Path, optional
        Where the cgroup files are read (default :data:`CGROUP`).

    Returns
    -------
    int
        At least 1.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "cpu.max").write_text("100000 100000\\n")
    >>> available_cores(folder)
    1
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    quota = _cgroup_quota(CGROUP if cgroup is None else cgroup)
    return max(1, cores if quota is None else min(cores, quota))


def worker_count(n_jobs: int | None, n_items: int, min_items: int | None = None) -> int:
    """Processes to use: ``n_jobs`` (default :func:`available_cores`), but 1 below ``min_items`` items
    (default :data:`MIN_PARALLEL_ITEMS`).

    Examples
    --------
    >>> worker_count(4, 100), worker_count(2, 50_000), worker_count(1, 50_000), worker_count(2, 150, 100)
    (1, 2, 1, 2)
    """
    if n_items < (MIN_PARALLEL_ITEMS if min_items is None else min_items):
        return 1
    return max(1, n_jobs or available_cores())


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


def run_in_threads(calls: Sequence[tuple[Callable[..., Any], tuple]], threads: int,
                   name: str = "helpers-thread") -> list[Any]:
    """``[function(*args) for function, args in calls]`` on ``threads`` threads, results in input order.

    For calls that spend most of their time in compiled code that releases the GIL
    (scikit-learn's NMF): no worker process to start. The calls share this process's
    memory, so give each its own copy of anything it might change. One thread runs them
    in this thread; the threads (named ``name``) have all ended when this returns or raises.

    Examples
    --------
    >>> run_in_threads([(sum, ([1, 2],)), (max, ([3, 4],))], threads=2)
    [3, 4]
    """
    if threads <= 1 or len(calls) <= 1:
        return [function(*args) for function, args in calls]
    with ThreadPoolExecutor(max_workers=min(threads, len(calls)), thread_name_prefix=name) as pool:
        futures = [pool.submit(function, *args) for function, args in calls]
        return [future.result() for future in futures]


class BackgroundCall:
    """``function(*args)`` run in a daemon thread of its own named ``name``, or at once when not ``background``.

    :meth:`result` waits for it and returns its value (or raises its error); :meth:`wait` only waits,
    so that a caller that fails can still leave no thread behind.
    """

    def __init__(self, function: Callable[..., Any], args: tuple, *, name: str, background: bool = True) -> None:
        self._future: Future = Future()
        self._thread: threading.Thread | None = None
        if background:
            self._thread = threading.Thread(target=self._run, args=(function, args), name=name, daemon=True)
            self._thread.start()
        else:
            self._run(function, args)

    def _run(self, function: Callable[..., Any], args: tuple) -> None:
        try:
            self._future.set_result(function(*args))
        except BaseException as error:  # kept for result(), raised in the caller's thread
            self._future.set_exception(error)

    def wait(self) -> None:
        """Wait until the call has finished and its thread has ended."""
        if self._thread is not None:
            self._thread.join()

    def result(self) -> Any:
        """The call's value (waits for it); its exception, if it raised one."""
        self.wait()
        return self._future.result()

    def done(self) -> bool:
        """Whether the call has finished (its value or its exception is ready)."""
        return self._future.done()


def can_fork() -> bool:
    """Whether this platform starts processes by ``fork`` (Linux and the BSDs; not Windows or macOS's default).

    Examples
    --------
    >>> isinstance(can_fork(), bool)
    True
    """
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


class ForkedCall:
    """``function(*args)`` in a child process forked now, while this one goes on; :meth:`result` takes its value.

    The child shares this process's modules and memory as they are, so it starts in milliseconds; its value (or
    its exception) comes back pickled. Fork only where no other thread of this process may hold a lock the child
    needs (an import, a file, a logging handler): where the child calls only code already imported, or before
    any thread is started. :meth:`close` ends a child whose result is not wanted.

    Examples
    --------
    >>> call = ForkedCall(sum, [1, 2], name="helpers-example")
    >>> call.result(), call.result()
    (3, 3)
    >>> ForkedCall(int, "x", name="helpers-example").result()
    Traceback (most recent call last):
    ...
    ValueError: invalid literal for int() with base 10: 'x'
    """

    def __init__(self, function: Callable[..., Any], *args: Any, name: str) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self._receiving, sending = context.Pipe(duplex=False)
        self._child = context.Process(target=_send_result, args=(sending, function, args), name=name, daemon=True)
        self._child.start()
        sending.close()
        self._outcome: tuple[bool, Any] | None = None

    def result(self) -> Any:
        """The call's value (waits for it), or its exception raised here; the child has ended when this returns."""
        if self._outcome is None:
            try:
                self._outcome = self._receiving.recv()
            except EOFError:
                self._child.join()
                raise RuntimeError(f"{self._child.name}: the process ended without a result (exit code "
                                   f"{self._child.exitcode})") from None
            finally:
                self._receiving.close()
            self._child.join()
        succeeded, value = self._outcome
        if not succeeded:
            raise value
        return value

    def close(self) -> None:
        """End the child if it still runs (its result not taken) and wait for it."""
        if self._outcome is None and self._child.is_alive():
            self._child.terminate()
        self._child.join()
        self._receiving.close()


def _send_result(sending: Any, function: Callable[..., Any], args: tuple) -> None:
    try:
        result = (True, function(*args))
    except BaseException as error:  # sent back, raised in the parent
        result = (False, error)
    sending.send(result)
    sending.close()


def start_in_thread(function: Callable[..., Any], *args: Any, name: str = "helpers-background",
                    background: bool = True) -> BackgroundCall:
    """Start ``function(*args)`` in a background thread (or run it now if not ``background``, as for one job).

    Examples
    --------
    >>> start_in_thread(sum, [1, 2]).result(), start_in_thread(sum, [1, 2], background=False).result()
    (3, 3)
    """
    return BackgroundCall(function, args, name=name, background=background)


def chunk_count(n_items: int, workers: int, per_worker: int = CHUNKS_PER_WORKER,
                max_items: int | None = None) -> int:
    """Chunks to cut ``n_items`` into: ``per_worker`` per worker, more when a chunk would hold over
    ``max_items`` items (default :data:`MAX_CHUNK_ITEMS`).

    Examples
    --------
    >>> chunk_count(100_000, 2), chunk_count(1_000_000, 2), chunk_count(1_000_000, 2, 2), chunk_count(10, 2)
    (8, 50, 50, 8)
    >>> chunk_count(25, 1, 1, max_items=10)
    3
    """
    limit = MAX_CHUNK_ITEMS if max_items is None else max_items
    return max(1, workers * per_worker, -(-n_items // limit))


def partition_bounds(n_items: int, n_partitions: int) -> list[tuple[int, int]]:
    """``n_partitions`` consecutive row ranges ``[start, stop)`` of nearly equal size (none empty).

    Examples
    --------
    >>> partition_bounds(10, 3)
    [(0, 4), (4, 7), (7, 10)]
    >>> partition_bounds(2, 5)
    [(0, 1), (1, 2)]
    >>> partition_bounds(0, 3)
    [(0, 0)]
    """
    n_partitions = max(1, min(n_partitions, n_items))
    size, extra = divmod(n_items, n_partitions)
    bounds, start = [], 0
    for index in range(n_partitions):
        stop = start + size + (index < extra)
        bounds.append((start, stop))
        start = stop
    return bounds


def map_chunks(function: Callable[..., Any], items: Sequence, *args: Any,
               n_jobs: int | None = None) -> list[Any]:
    """``[function(chunk, *args) for chunk in chunks of items]``, on :func:`worker_count` processes.

    The chunks are the :func:`partition_bounds` of :func:`chunk_count` (the dask engine's partitions are cut
    the same way), so none holds more than :data:`MAX_CHUNK_ITEMS` items.

    Examples
    --------
    >>> map_chunks(sum, list(range(10)))
    [45]
    """
    workers = worker_count(n_jobs, len(items))
    if workers == 1:
        return [function(items, *args)]
    chunks = [items[start:stop] for start, stop in partition_bounds(len(items), chunk_count(len(items), workers))]
    return run_calls([(function, (chunk, *args)) for chunk in chunks], workers)


class PartitionRunner(Protocol):
    """Where per-partition work runs: this process (:class:`LocalPartitions`) or a Dask cluster
    (:class:`helpers.analysis.pipeline.dask_engine.DaskPartitions`).

    A *handle* is a value (local) or a Dask future (its value stays on a worker until gathered);
    handles may be passed as arguments of :meth:`map` and :meth:`submit`. Results never depend on
    the runner: each call sees the same values.
    """

    #: Buckets a reduction by key is cut into (one reducer each).
    n_buckets: int

    def map(self, function: Callable[..., Any], *iterables: Sequence[Any]) -> list[Any]:
        """Handles of ``function(*args)`` for each ``args`` of ``zip(*iterables)``."""

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        """The handle of ``function(*args)``."""

    def share(self, value: Any) -> Any:
        """A handle of ``value`` for many calls (sent to every worker once)."""

    def gather(self, handles: Sequence[Any]) -> list[Any]:
        """The values of ``handles``, in order."""


class LocalPartitions:
    """The :class:`PartitionRunner` of the local engine: each call runs at once, in this process, in order.

    Examples
    --------
    >>> runner = LocalPartitions()
    >>> runner.gather(runner.map(pow, [2, 3], [2, 2])), runner.gather([runner.submit(max, 1, 5)])
    ([4, 9], [5])
    """

    n_buckets = 1

    def map(self, function: Callable[..., Any], *iterables: Sequence[Any]) -> list[Any]:
        return [function(*args) for args in zip(*iterables)]

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        return function(*args)

    def share(self, value: Any) -> Any:
        return value

    def gather(self, handles: Sequence[Any]) -> list[Any]:
        return list(handles)


def reduce_tree(runner: PartitionRunner, function: Callable[..., Any], handles: Sequence[Any],
                fan_in: int = 8) -> Any:
    """``function(*values)`` of all ``handles``, as a tree of calls of at most ``fan_in`` arguments on ``runner``.

    For associative, order-free reductions (sums of integer counts): only the final value comes back.

    Examples
    --------
    >>> reduce_tree(LocalPartitions(), lambda *values: sum(values), list(range(20)), fan_in=3)
    190
    """
    level = list(handles)
    while len(level) > 1:
        level = [runner.submit(function, *level[start:start + fan_in]) for start in range(0, len(level), fan_in)]
    return runner.gather(level)[0]
