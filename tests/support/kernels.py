"""A small page run in a Jupyter kernel and its outputs, to compare a kernel forked from a warm process with a new
one (``tests/book/build/test_warm_kernels.py``; a subprocess imports it too, so it is no test file)."""

from __future__ import annotations

import nbformat
from jupyter_cache.executors.utils import single_nb_execution

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
