"""A call in a forked child process, for the theme selection's fits while the main process finds terms.

The selection's fits run in threads whose compiled updates release the GIL, but each step back into Python waits
for the GIL that the term stage's Python code holds; in a child forked for them they wait for nothing. A forked
child shares the parent's modules and memory as they are, so it starts in milliseconds and needs nothing pickled
but its result.
"""

from __future__ import annotations

from typing import Any, Callable

from helpers.analysis._parallel import ForkedCall, can_fork

__all__: list[str] = []


def _fork_ready() -> bool:
    """Whether this platform starts processes by ``fork`` (Linux and the BSDs; not Windows), with what the child
    and its start need imported: call it in the main thread (two threads importing at once can deadlock, and a
    child must not import a module another thread of this process was importing when it forked)."""
    if not can_fork():
        return False
    import multiprocessing.connection  # noqa: F401
    import multiprocessing.popen_fork  # noqa: F401

    from scipy.optimize import linear_sum_assignment  # noqa: F401  (the stability's matching)

    return True


def _in_forked_process(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in a forked child process; its value or its exception comes back pickled, and the
    child has ended when this returns or raises.

    The child must call nothing that takes a lock another thread of this process may hold (no import, no file of
    the dictionaries): call :func:`_fork_ready` first, in the main thread.
    """
    return ForkedCall(function, *args, name="helpers-theme-selection").result()
