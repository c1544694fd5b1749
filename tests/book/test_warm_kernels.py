"""helpers.book.warm_kernels: a page's kernel forked from a warm process runs the page as a new kernel would."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import nbformat
import pytest
from jupyter_cache.executors.utils import single_nb_execution

from helpers.book.warm_kernels import ForkedProcess, ForkingKernelManager, can_fork

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forking a kernel needs os.fork (POSIX)")

#: What a page's kernel sees of its process: folder, entry point, import path, backend, session, environment.
CELLS = [
    "import os, sys\nfrom pathlib import Path\nprint(Path.cwd().name, Path(sys.argv[0]).name, repr(sys.path[0]))",
    "import matplotlib\nprint(matplotlib.get_backend(), os.environ.get('MPLBACKEND'), os.environ.get('PAGE_MARK'))",
    "print(os.getpgid(0) == os.getpid(), 'left_by_another_page' in globals())",
    "left_by_another_page = 1\nfrom IPython.display import Markdown\nMarkdown('**done**')",
    # A figure left open at the end of a cell is shown by the inline backend, as in a new kernel.
    "import matplotlib.pyplot as plt\nplt.figure(figsize=(1, 1))\nplt.plot([1, 2])\nNone",
]


def run_page(folder, manager=None):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    options = {} if manager is None else {"kernel_manager_class": manager}
    result = single_nb_execution(notebook, cwd=str(folder), timeout=120, allow_errors=False, **options)
    assert result.err is None, result.exc_string
    return [merged_streams(cell.outputs) for cell in notebook.cells]


def merged_streams(outputs) -> list[dict]:
    """A cell's outputs with consecutive pieces of one stream joined (a busy kernel may send a line in two) and no
    execution counts."""
    merged: list[dict] = []
    for output in outputs:
        output = {key: value for key, value in output.items() if key != "execution_count"}
        if merged and output["output_type"] == "stream" and merged[-1]["output_type"] == "stream" \
                and merged[-1]["name"] == output["name"]:
            merged[-1] = {**merged[-1], "text": merged[-1]["text"] + output["text"]}
        else:
            merged.append(output)
    return merged


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

    script = ("import json, sys\nsys.path.insert(0, sys.argv[1])\nfrom helpers.book.warm_kernels import warm_up\n"
              "warm_up()\nassert 'matplotlib_inline.backend_inline' not in sys.modules\n"
              "from test_warm_kernels import ForkingKernelManager, run_page\n"
              "print(json.dumps(run_page(sys.argv[2], ForkingKernelManager)))")
    shown = subprocess.run([sys.executable, "-c", script, str(Path(__file__).parent), str(tmp_path)],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    forked = json.loads(shown.strip().splitlines()[-1])
    assert forked == run_page(tmp_path)
    assert "image/png" in forked[4][0]["data"]


def test_only_this_pythons_ipython_kernel_is_forked(tmp_path):
    import sys

    assert can_fork([sys.executable, "-m", "ipykernel_launcher", "-f", str(tmp_path / "kernel.json")])
    assert not can_fork(["/usr/bin/python3", "-m", "ipykernel_launcher", "-f", "kernel.json"])
    assert not can_fork([sys.executable, "-m", "another_kernel", "-f", "kernel.json"])


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
              "from helpers.book.warm_kernels import kernel_ready_matplotlib as ready\n"
              "print(ready({}), ready({'MPLBACKEND': 'agg'}))")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert shown == "False True\n"
