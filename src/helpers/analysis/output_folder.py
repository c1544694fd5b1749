"""The output folder of ``analyse``, replaced whole or not at all.

A run writes its tables into a new hidden sibling of ``--out`` (``.NAME.staging-XXXXXXXX``) and swaps it in with
one ``renameat2(RENAME_EXCHANGE)`` (Linux; elsewhere two renames, with a moment in which ``--out`` is missing), so
a reader of ``--out`` finds either the old tables or the new ones, never a mix. Around it:

- :func:`~helpers.analysis.out_path.check_out_path`: ``--out`` must be a folder (or not there yet) outside every corpus path, no corpus path
  inside it, and not a system folder (``/proc``, ``/sys``);
- :class:`OutputFolder`: a lock on a sibling file (``.NAME.lock``, ``flock``) for the whole run, so a second run
  into the same folder stops at once; the stale staging folders of a killed run removed; files ``analyse`` did not
  write (not in the folder's :data:`MANIFEST`) refused unless ``force``; the staging folder removed on every exit.

``HELPERS_ANALYSE_PAUSE=STEP`` (``locked``, ``staged`` or ``swapped``) makes a run print ``paused at STEP`` and sleep
there: the tests kill a run at each step with it.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator, Sequence

from helpers.analysis.errors import shown_name
from helpers.analysis.out_path import OutputFolderError

__all__ = ["MANIFEST", "OutputFolder", "foreign_files", "signals_held", "stale_folders"]

#: The list of the files a run wrote, kept in the output folder itself.
MANIFEST = ".analyse-files"
#: The environment variable that pauses a run at a step (for the tests that kill it there).
PAUSE_VARIABLE = "HELPERS_ANALYSE_PAUSE"
_MANIFEST_HEADER = "# the files python -m helpers analyse wrote here; it replaces this folder whole\n"
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def written_files(folder: Path) -> set[str]:
    """The files ``folder``'s :data:`MANIFEST` lists (paths relative to it), with the manifest itself; empty without
    one.

    Examples
    --------
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / MANIFEST).write_text(_MANIFEST_HEADER + "papers.csv\\n")
    >>> sorted(written_files(folder))
    ['.analyse-files', 'papers.csv']
    """
    try:
        text = (folder / MANIFEST).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, UnicodeDecodeError):
        return set()
    return {line for line in text.splitlines() if line and not line.startswith("#")} | {MANIFEST}


def foreign_files(folder: Path) -> list[str]:
    """The entries of ``folder`` its :data:`MANIFEST` does not list, in name order (relative paths; a folder with
    nothing listed under it counts as one entry). Empty when ``folder`` is missing or holds only what ``analyse``
    wrote.

    Parameters
    ----------
    folder : Path
        The output folder.

    Returns
    -------
    list of str
        Relative paths, sorted.

    Examples
    --------
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / MANIFEST).write_text(_MANIFEST_HEADER + "papers.csv\\n")
    >>> _ = (folder / "papers.csv").write_text("x")
    >>> _ = (folder / "notes.txt").write_text("mine")
    >>> foreign_files(folder)
    ['notes.txt']
    """
    if not folder.is_dir():
        return []
    listed = written_files(folder)
    listed_folders = {parent.as_posix() for name in listed for parent in Path(name).parents}
    foreign = []
    for root, folders, files in os.walk(folder):
        base = Path(root).relative_to(folder)
        for name in sorted(folders):
            relative = (base / name).as_posix()
            if (Path(root) / name).is_symlink() or relative not in listed_folders:
                foreign.append(relative)
        folders[:] = sorted(name for name in folders if (base / name).as_posix() in listed_folders
                            and not (Path(root) / name).is_symlink())
        foreign.extend(relative for relative in ((base / name).as_posix() for name in files) if relative not in listed)
    return sorted(foreign)


def stale_folders(out: Path) -> list[Path]:
    """The staging folders (and old folders set aside) of earlier runs into ``out`` that still lie beside it.

    Parameters
    ----------
    out : Path
        The output folder.

    Returns
    -------
    list of Path
        The folders, sorted by name.

    Examples
    --------
    >>> parent = Path(tempfile.mkdtemp())
    >>> for name in [".out.staging-abcd_123", ".out.old-abcd_123", ".out.staging-x", ".outer.staging-abcd_123"]:
    ...     (parent / name).mkdir()
    >>> [path.name for path in stale_folders(parent / "out")]
    ['.out.old-abcd_123', '.out.staging-abcd_123']
    """
    pattern = re.compile(rf"\.{re.escape(out.name)}\.(staging|old)-[a-z0-9_]{{8}}")
    try:
        names = sorted(entry.name for entry in os.scandir(out.parent) if pattern.fullmatch(entry.name))
    except FileNotFoundError:
        return []
    return [out.parent / name for name in names]


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back while the block runs (a swap, a clean-up); they arrive when it ends.

    Yields
    ------
    None
        While the signals are held.

    Examples
    --------
    >>> with signals_held():
    ...     signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    True
    """
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def pause_point(step: str) -> None:
    """Sleep at ``step`` when :data:`PAUSE_VARIABLE` names it (the tests kill the run there)."""
    if os.environ.get(PAUSE_VARIABLE) == step:
        print(f"paused at {step}", file=sys.stderr, flush=True)
        time.sleep(300)


def folder_mode(out: Path) -> int:
    """The permissions the new ``out`` gets: the old folder's, else those ``mkdir`` gives under the umask.

    Examples
    --------
    >>> folder = Path(tempfile.mkdtemp())
    >>> os.chmod(folder, 0o750)
    >>> oct(folder_mode(folder))
    '0o750'
    """
    try:
        return out.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o777 & ~umask


def exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where the system or file system
    cannot.

    Examples
    --------
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a").write_text("a"), (folder / "b").write_text("b")
    >>> exchange(folder / "a", folder / "b") and [(folder / name).read_text() for name in "ab"] == ["b", "a"]
    True
    """
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):  # not Linux, or a C library without it
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(first))


class OutputFolder:
    """The run's hold on ``out``: enter to lock it and prepare a staging folder, :meth:`commit` to swap the
    tables in; leaving removes the staging folder (and the folders it created for ``out``, if nothing was committed)
    and releases the lock.

    Parameters
    ----------
    out
        The resolved output folder (:func:`~helpers.analysis.out_path.check_out_path`).
    given
        ``out`` as the user wrote it, for the messages.
    force
        Replace ``out`` even when it holds files ``analyse`` did not write.

    Attributes
    ----------
    out, force
        As given.
    given : str
        ``given`` (else ``out``) as the messages show it (:func:`helpers.analysis.errors.shown_name`).
    staging : Path
        The staging folder the run writes its tables into (inside the ``with`` block).
    committed : bool
        Whether :meth:`commit` swapped the tables in.

    Examples
    --------
    >>> out = Path(tempfile.mkdtemp()) / "out"
    >>> with OutputFolder(out) as folder:
    ...     _ = (folder.staging / "summary.json").write_text("{}")
    ...     folder.commit(["summary.json"])
    >>> sorted(path.name for path in out.iterdir()), stale_folders(out)
    (['.analyse-files', 'summary.json'], [])
    """

    def __init__(self, out: Path, given: Path | str | None = None, *, force: bool = False):
        self.out = out
        self.given = shown_name(out if given is None else given)
        self.force = force
        self.lock_path = out.parent / f".{out.name}.lock"
        self.staging = out.parent / f".{out.name}.staging-unset"
        self.committed = False
        self._lock_fd: int | None = None
        self._made: list[Path] = []

    def __enter__(self) -> OutputFolder:
        try:
            self._make_parents()
            self._lock()
            pause_point("locked")
            for stale in stale_folders(self.out):
                shutil.rmtree(stale)
            self._refuse_foreign()
            with signals_held():  # made and named in one step: a Ctrl-C cannot leave it unnamed
                self.staging = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.staging-", dir=self.out.parent))
            os.chmod(self.staging, folder_mode(self.out))
        except BaseException:
            self._release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._release()

    def commit(self, written: Sequence[str]) -> None:
        """Write the :data:`MANIFEST` of ``written`` into the staging folder and swap it in for ``out``; the old
        folder is then removed. Neither SIGINT nor SIGTERM can stop it half way."""
        names = sorted(dict.fromkeys(written))
        (self.staging / MANIFEST).write_text(_MANIFEST_HEADER + "".join(f"{name}\n" for name in names),
                                             encoding="utf-8")
        pause_point("staged")
        with signals_held():
            self._refuse_foreign()  # a file put there while the analysis ran
            if not self.out.exists():
                os.rename(self.staging, self.out)
            elif not exchange(self.staging, self.out):  # the old folder is set aside first: a moment without out
                old = self.out.parent / f".{self.out.name}.old-{self.staging.name[-8:]}"
                os.rename(self.out, old)
                os.rename(self.staging, self.out)
                self.staging = old
            self.committed = True
        pause_point("swapped")

    def _make_parents(self) -> None:
        missing = [parent for parent in reversed(self.out.parents) if not parent.exists()]
        for parent in missing:
            try:
                parent.mkdir()
            except OSError as error:
                raise OutputFolderError(f"{self.given}: cannot create the folder {shown_name(parent)} "
                                        f"({error.strerror})") from None
            self._made.append(parent)

    def _lock(self) -> None:
        for _ in range(10):  # another run may remove the lock file between our open and our lock: open it again
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError as error:
                raise OutputFolderError(f"{self.given}: cannot write into its folder {shown_name(self.out.parent)} "
                                        f"({error.strerror})") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise OutputFolderError(f"{self.given}: another analyse run is writing it (lock "
                                        f"{shown_name(self.lock_path)}); wait for it to end") from None
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.lock_path))
            except FileNotFoundError:
                same = False
            if same:
                self._lock_fd = fd
                return
            os.close(fd)
        raise OutputFolderError(f"{self.given}: cannot lock it ({shown_name(self.lock_path)} keeps changing)")

    def _refuse_foreign(self) -> None:
        if self.force:
            return
        foreign = foreign_files(self.out)
        if foreign:
            listed = ", ".join(shown_name(name) for name in foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise OutputFolderError(
                f"{self.given}: holds {len(foreign)} file{'s' if len(foreign) != 1 else ''} analyse did not write "
                f"({listed}); move {'them' if len(foreign) != 1 else 'it'} away, or use --force to replace the folder whole")

    def _release(self) -> None:
        with signals_held():
            if self.staging.exists():
                shutil.rmtree(self.staging, ignore_errors=True)
            if self._lock_fd is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.lock_path)  # still locked: a run that opened it before sees it gone and retries
                os.close(self._lock_fd)
                self._lock_fd = None
            if not self.committed:
                for parent in reversed(self._made):
                    with contextlib.suppress(OSError):
                        parent.rmdir()
