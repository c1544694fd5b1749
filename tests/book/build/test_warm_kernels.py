"""helpers.book.build.warm_kernels: a page's kernel forked from a warm process runs the page as a new kernel would."""

from __future__ import annotations

import os
import signal
import time

import pytest

from helpers.book.build.warm_kernels import ForkedProcess, ForkingKernelManager, can_fork_kernel
from tests.support import ROOT
from tests.support.kernels import run_page

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forking a kernel needs os.fork (POSIX)")

def test_a_forked_kernel_gives_the_outputs_of_a_new_kernel(tmp_path, monkeypatch):
    folder = tmp_path / "chapters"
    folder.mkdir()
    monkeypatch.setenv("PAGE_MARK", "from-the-environment")
    forked = run_page(folder, ForkingKernelManager)
    assert forked == run_page(folder)
    assert forked[0][0]["text"].startswith("chapters ipykernel_launcher.py ")
    assert forked[1][0]["text"].endswith(" from-the-environment\n")
    # Its own session; nothing left by the notebook run before it in the same process.
    assert forked[2][0]["text"] == "True False\n"
    assert forked[3][0]["data"]["text/markdown"] == "**done**"


def test_a_forked_kernel_has_a_fresh_namespace_each_page(tmp_path):
    first, second = run_page(tmp_path, ForkingKernelManager), run_page(tmp_path, ForkingKernelManager)
    assert first[2][0]["text"] == second[2][0]["text"] == "True False\n"


def test_kernels_forked_from_a_warmed_up_process_show_figures_as_new_kernels(tmp_path):
    """warm_up imports matplotlib before any kernel exists: the kernels must still get the inline backend and its
    hooks (matplotlib_inline's backend module is left for the kernel to import)."""
    import json
    import subprocess
    import sys

    script = ("import json, sys\nsys.path.insert(0, sys.argv[1])\nfrom helpers.book.build.warm_kernels import warm_up\n"
              "warm_up()\nassert 'matplotlib_inline.backend_inline' not in sys.modules\n"
              "from helpers.book.build.warm_kernels import ForkingKernelManager\nfrom tests.support.kernels import run_page\n"
              "print(json.dumps(run_page(sys.argv[2], ForkingKernelManager)))")
    shown = subprocess.run([sys.executable, "-c", script, str(ROOT), str(tmp_path)],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    forked = json.loads(shown.strip().splitlines()[-1])
    assert forked == run_page(tmp_path)
    assert "image/png" in forked[4][0]["data"]


def test_only_this_pythons_ipython_kernel_is_forked(tmp_path):
    import sys

    assert can_fork_kernel([sys.executable, "-m", "ipykernel_launcher", "-f", str(tmp_path / "kernel.json")])
    assert not can_fork_kernel(["/usr/bin/python3", "-m", "ipykernel_launcher", "-f", "kernel.json"])
    assert not can_fork_kernel([sys.executable, "-m", "another_kernel", "-f", "kernel.json"])


def test_a_forked_process_reports_its_exit_and_can_be_killed():
    pid = os.fork()
    if pid == 0:  # pragma: no cover (child)
        os._exit(3)
    assert ForkedProcess(pid).wait() == 3
    pid = os.fork()
    if pid == 0:  # pragma: no cover (child)
        time.sleep(60)
        os._exit(0)
    process = ForkedProcess(pid)
    assert process.poll() is None
    process.kill()
    assert process.wait() == -signal.SIGKILL and process.poll() == -signal.SIGKILL
    process.terminate()  # an ended process: nothing to signal, no error


def test_a_process_that_loaded_matplotlib_with_another_backend_starts_kernels_anew():
    import subprocess
    import sys

    script = ("import os\nos.environ['MPLBACKEND'] = 'agg'\nimport matplotlib\n"
              "from helpers.book.build.warm_kernels import kernel_ready_matplotlib as ready\n"
              "print(ready({}), ready({'MPLBACKEND': 'agg'}))")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert shown == "False True\n"
