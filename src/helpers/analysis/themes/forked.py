"""A call in a forked child process, for the theme selection's fits while the main process finds terms.

The selection's fits run in threads whose compiled updates release the GIL, but each step back into Python waits
for the GIL that the term stage's Python code holds; in a child forked for them they wait for nothing. A forked
child shares the parent's modules and memory as they are, so it starts in milliseconds and needs nothing pickled
but its result.
"""

from __future__ import annotations

from typing import Any, Callable

__all__: list[str] = []


def _fork_ready() -> bool:
    """Whether this platform starts processes by ``fork`` (Linux and the BSDs; not Windows), with what the child
    and its start need imported: call it in the main thread (two threads importing at once can deadlock, and a
    child must not import a module another thread of this process was importing when it forked)."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
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
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=_send_result, args=(sending, function, args), name="helpers-theme-selection",
                            daemon=True)
    child.start()
    sending.close()
    try:
        succeeded, value = receiving.recv()
    except EOFError:
        child.join()
        raise RuntimeError(f"the theme selection's process ended without a result (exit code {child.exitcode})"
                           ) from None
    finally:
        receiving.close()
    child.join()
    if not succeeded:
        raise value
    return value


def _send_result(sending: Any, function: Callable[..., Any], args: tuple) -> None:
    try:
        result = (True, function(*args))
    except BaseException as error:  # sent back, raised in the parent
        result = (False, error)
    sending.send(result)
    sending.close()
