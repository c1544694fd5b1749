"""A figure's SVG and PDF written by a forked child while the page goes on.

Each download of a figure is a full rendering, and together they take longer than drawing it. The page needs only
the PNG (it shows a copy of it), so in a book build the SVG and the PDF are written by a child process forked from
the page's kernel, which has the figure in memory: the page goes on at once, and the build waits for every child
before it ends (:func:`wait_for_writers`, called by the Sphinx extension when the build finishes), so the
rendering overlaps the other pages and the site's build. A child holds a lock on a file of
``<figure folder>/.writing/`` until its files are in place, so the wait needs no process of its own; a child that
fails leaves ``<label>.error`` with one line, and the wait raises it.

The writer is forked twice and in a session of its own, so it is no child of the kernel: a kernel ends its own
children when it shuts down (ipykernel interrupts, then kills them), and signals to the kernel's process group
would reach it too.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
from pathlib import Path
from typing import Callable

__all__ = ["WRITING_DIR", "MAX_WRITERS", "FigureWriteError", "can_write_in_background", "write_in_background", "wait_for_writers"]

WRITING_DIR = ".writing"
#: Children writing at once, per kernel: more would only queue for the same cores.
MAX_WRITERS = 2
_writing: list[Path] = []  # the lock files of the writers this process started, oldest first


class FigureWriteError(RuntimeError):
    """A figure file that a child process could not write (its label and the error, one line each).

    Examples
    --------
    >>> str(FigureWriteError("fig-a-b: OSError: disk full"))
    'fig-a-b: OSError: disk full'
    """


def can_write_in_background() -> bool:
    """Whether a figure's SVG and PDF can be written by a forked child (:func:`write_in_background`): where this
    system can fork a process (POSIX); elsewhere figures are written in the page's own process.

    Returns
    -------
    bool
        Whether this system can fork.

    Examples
    --------
    >>> can_write_in_background() == hasattr(os, "fork")
    True
    """
    return hasattr(os, "fork")


def _wait_for_own(keep: int) -> None:
    """Wait for the writers this process started until at most ``keep`` are still writing."""
    for lock in list(_writing):
        if _finished(lock, block=len(_writing) > keep):
            _writing.remove(lock)


def _finished(lock: Path, *, block: bool) -> bool:
    """Whether the writer holding ``lock`` has finished (waiting for it when ``block``)."""
    try:
        with open(lock, "rb") as held:
            fcntl.flock(held, fcntl.LOCK_EX if block else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except FileNotFoundError:  # already waited for (wait_for_writers removed it)
        pass
    return True


def write_in_background(write: Callable[[Path], None], folder: Path, label: str) -> None:
    """Call ``write(staging)`` in a forked child, which then moves each file it wrote in ``staging`` into ``folder``.

    Parameters
    ----------
    write : callable
        Writes the figure's files into the folder it is given (a staging folder under ``folder/.writing/``, so a
        file appears in ``folder`` whole).
    folder : Path
        Where the files go.
    label : str
        The figure's label: names the child's lock and error files.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_in_background(lambda staging: (staging / "fig-a-b.svg").write_text("<svg/>"), folder, "fig-a-b")
    >>> wait_for_writers(folder)
    >>> (folder / "fig-a-b.svg").read_text(), (folder / WRITING_DIR).exists()
    ('<svg/>', False)
    """
    _wait_for_own(keep=MAX_WRITERS - 1)
    pending = folder / WRITING_DIR
    staging = pending / label
    staging.mkdir(parents=True, exist_ok=True)
    (pending / f"{label}.error").unlink(missing_ok=True)
    lock_path = pending / f"{label}.lock"
    lock = os.open(lock_path, os.O_CREAT | os.O_WRONLY, 0o644)
    fcntl.flock(lock, fcntl.LOCK_EX)  # held by the writer (the same open file) until it exits
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # nothing of the kernel's (its sockets, its output) may be touched from here on
        code = 0
        try:
            os.setsid()
            if os.fork():
                os._exit(0)  # the first child ends at once: the writer, its child, is no process of the kernel's
            sys.stdout = sys.stderr = open(os.devnull, "w")
            write(staging)
            for path in sorted(staging.iterdir()):
                os.replace(path, folder / path.name)
        except BaseException as error:  # noqa: BLE001 -- every failure is reported, in one line
            (pending / f"{label}.error").write_text(f"{label}: {type(error).__name__}: {error}".replace("\n", " "),
                                                    encoding="utf-8")
            code = 1
        finally:
            os._exit(code)
    os.close(lock)
    os.waitpid(pid, 0)  # the first child, which has forked the writer and ended
    _writing.append(lock_path)


def wait_for_writers(folder: Path) -> None:
    """Wait until every child writing into ``folder`` has finished, then remove ``folder/.writing``.

    Parameters
    ----------
    folder : Path
        A figure folder (nothing happens when nothing was written in the background).

    Raises
    ------
    FigureWriteError
        When a child could not write its files: one line per figure.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_in_background(lambda staging: 1 / 0, folder, "fig-a-b")
    >>> wait_for_writers(folder)
    Traceback (most recent call last):
    ...
    helpers.book.figure_writers.FigureWriteError: fig-a-b: ZeroDivisionError: division by zero
    """
    _wait_for_own(keep=0)
    pending = folder / WRITING_DIR
    if not pending.is_dir():
        return
    for lock in sorted(pending.glob("*.lock")):
        _finished(lock, block=True)  # granted once the writer that held it has exited
    errors = [path.read_text(encoding="utf-8") for path in sorted(pending.glob("*.error"))]
    shutil.rmtree(pending)
    if errors:
        raise FigureWriteError("\n".join(errors))
