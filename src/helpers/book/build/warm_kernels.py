"""Kernels forked from a process that has already imported what the pages import (the prebuild's workers).

A page's kernel spends about 2 s of CPU importing pandas, matplotlib, seaborn, scikit-learn and the helpers before
its first line of work, and a book has a dozen pages. :func:`warm_up` imports them once per worker process;
:class:`ForkingKernelManager` (the ``kernel_manager_class`` nbclient starts a kernel with) then starts each page's
kernel by forking that worker instead of starting a new Python. The child runs the same kernel command the
kernel's specification names (``python -m ipykernel_launcher -f CONNECTION_FILE``) in the page's folder and
environment, in a session of its own, so each page still gets a fresh kernel: nothing a page runs is seen by the
next one. Where forking is not possible (another kernel, no ``os.fork``), the kernel starts as usual.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import LocalProvisioner

__all__ = ["PRELOADED", "warm_up", "can_fork_kernel", "kernel_ready_matplotlib", "ForkedProcess", "ForkingKernelManager"]

#: What :func:`warm_up` imports: the modules most pages import (``helpers.book.pages`` brings pandas, matplotlib
#: and the report modules), and the libraries the analysis pages load on first use (the PDF backend saves every
#: figure). Not ``matplotlib_inline``: its backend sets up the kernel's figure display when first imported, which
#: must happen inside the kernel.
PRELOADED = ("IPython", "ipykernel.kernelapp", "ipykernel.ipkernel", "helpers.book", "helpers.book.pages", "seaborn",
             "scipy.stats", "sklearn.manifold", "sklearn.decomposition", "matplotlib.backends.backend_pdf")


def warm_up(modules: tuple[str, ...] = PRELOADED) -> None:
    """Import ``modules`` and fill the analysis's resource caches (stop words, the stock-phrase list, the installed
    libraries' versions), as a kernel would on its first page; run once in each worker process, before any kernel is forked from it.

    The matplotlib backend is the one the kernel sets (``MPLBACKEND``, when the environment names none), since
    matplotlib reads it when it is first imported.

    Parameters
    ----------
    modules : tuple of str
        The modules to import (default :data:`PRELOADED`).

    Examples
    --------
    >>> warm_up(("json",))
    """
    import importlib

    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    for name in modules:
        importlib.import_module(name)
    from helpers.analysis.cooccurrence.termhood import read_generic_terms  # lazy: warm-up only
    from helpers.book.cache import environment_fingerprint  # lazy: warm-up only
    from helpers.analysis.text.stop_words import stop_words  # lazy: warm-up only
    from helpers.book.inputs import book_root  # lazy: warm-up only

    stop_words()
    read_generic_terms()
    environment_fingerprint(book_root() / "requirements.txt")  # the installed versions, read once
    kernel_search_path(sys.executable, os.environ.get("PYTHONPATH"))


def can_fork_kernel(kernel_cmd: list[str]) -> bool:
    """Whether ``kernel_cmd`` is this Python's own IPython kernel, which a fork of this process can run.

    Parameters
    ----------
    kernel_cmd : list of str
        The command line the kernel provisioner would start.

    Returns
    -------
    bool
        Whether the kernel can start as a fork of this process instead of a new one.

    Examples
    --------
    >>> can_fork_kernel([sys.executable, "-m", "ipykernel_launcher", "-f", "kernel.json"]) == hasattr(os, "fork")
    True
    >>> can_fork_kernel(["/usr/bin/R", "--slave", "-e", "IRkernel::main()"])
    False
    """
    return (hasattr(os, "fork") and len(kernel_cmd) >= 3 and kernel_cmd[0] == sys.executable
            and kernel_cmd[1:3] == ["-m", "ipykernel_launcher"])


def kernel_ready_matplotlib(env: dict[str, str]) -> bool:
    """Whether matplotlib, if this process has imported it, is as a new kernel with environment ``env`` would find
    it: its backend read from ``MPLBACKEND`` (the inline one by default) and not yet loaded.

    Parameters
    ----------
    env : dict of str to str
        The environment the kernel would start with.

    Returns
    -------
    bool
        Whether a kernel forked from this process would draw as a new one.

    Examples
    --------
    >>> import subprocess
    >>> code = "from helpers.book.build.warm_kernels import kernel_ready_matplotlib as k; print(k({}))"
    >>> subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
    'True'
    """
    if "matplotlib" not in sys.modules:
        return True
    import matplotlib  # lazy: already imported

    pyplot = sys.modules.get("matplotlib.pyplot")
    expected = env.get("MPLBACKEND") or "module://matplotlib_inline.backend_inline"
    return (str(matplotlib.rcParams._get("backend")).lower() == expected.lower()
            and "matplotlib_inline.backend_inline" not in sys.modules
            and getattr(pyplot, "_backend_mod", None) is None)


class ForkedProcess:
    """The part of :class:`subprocess.Popen` a kernel provisioner uses, for a forked child ``pid``.

    Parameters
    ----------
    pid : int
        The forked child's process id.

    Examples
    --------
    >>> import subprocess
    >>> child = subprocess.Popen([sys.executable, "-c", "pass"])
    >>> ForkedProcess(child.pid).wait()
    0
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin = self.stdout = self.stderr = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


@lru_cache(maxsize=8)
def kernel_search_path(executable: str, pythonpath: str | None) -> tuple[str, ...]:
    """The ``sys.path`` a kernel started as ``executable -m ipykernel_launcher`` has (with ``PYTHONPATH`` set to
    ``pythonpath``): a new interpreter's, without the folder it starts in, which the launcher removes."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    shown = subprocess.run([executable, "-c", "import json, sys; print(json.dumps(sys.path[1:]))"], env=env,
                           capture_output=True, text=True, check=True).stdout
    return tuple(json.loads(shown))


def _run_kernel(kernel_cmd: list[str], env: dict[str, str], cwd: str | None,
                search_path: tuple[str, ...]) -> None:  # pragma: no cover (child)
    """In the forked child: become ``python -m ipykernel_launcher ARGS`` as the provisioner would start it, then
    exit without returning to the parent's code."""
    code = 1
    try:
        os.setsid()  # its own process group, as the provisioner's kernels (signals go to the group)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        if cwd:
            os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        # The parent forked inside nbclient's running event loop: the kernel starts its own.
        asyncio.events._set_running_loop(None)
        asyncio.set_event_loop(None)
        import ipykernel_launcher  # lazy: the kernel's own entry point (its body runs only as __main__)

        sys.path[:] = search_path
        sys.argv = [str(ipykernel_launcher.__file__), *kernel_cmd[3:]]
        from ipykernel import kernelapp  # lazy: the child only

        # Read from the environment when ipykernel is imported, which was before this kernel's environment.
        kernelapp.IPKernelApp.launch_instance(parent_handle=int(env.get("JPY_PARENT_PID") or 0),
                                              interrupt=int(env.get("JPY_INTERRUPT_EVENT") or 0))
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001 (the child must never return into the parent's code)
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                if stream is not None:
                    stream.flush()
            except Exception:  # noqa: BLE001 (a closed stream at exit)
                pass
        os._exit(code)


class ForkingKernelManager(AsyncKernelManager):
    """nbclient's kernel manager, starting the kernel by forking this (warmed-up) process when it can.

    Examples
    --------
    >>> issubclass(ForkingKernelManager, AsyncKernelManager)
    True
    """

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        provisioner = self.provisioner
        if not isinstance(provisioner, LocalProvisioner) or not can_fork_kernel(kernel_cmd):
            await super()._async_launch_kernel(kernel_cmd, **kw)
            return
        env = dict(kw.get("env") or os.environ)
        if not kernel_ready_matplotlib(env):  # imported with another backend before warm_up: start a new Python
            await super()._async_launch_kernel(kernel_cmd, **kw)
            return
        if not kw.get("independent", False):
            env["JPY_PARENT_PID"] = str(os.getpid())  # as jupyter_client's launcher: the kernel ends with its parent
        cwd = kw.get("cwd")
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        search_path = kernel_search_path(kernel_cmd[0], env.get("PYTHONPATH"))
        pid = os.fork()
        if pid == 0:  # pragma: no cover (child)
            _run_kernel(kernel_cmd, env, None if cwd is None else str(cwd), search_path)
        provisioner.process = ForkedProcess(pid)  # type: ignore[assignment]
        provisioner.pid = pid
        provisioner.pgid = pid  # the child's own session (os.setsid)
        provisioner.cwd = cwd if cwd is not None else Path.cwd()
        self._reconcile_connection_info(provisioner.connection_info)
