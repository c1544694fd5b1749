"""Execute the book's pages on every core before ``jupyter-book build`` (``make book`` runs this).

jupyter-book executes notebooks one after another. This step computes the analysis once, then
executes the pages that the build's execution cache (jupyter-cache, under
``<path-output>/_build/.jupyter_cache``) does not hold yet, on several processes, and stores
them there exactly as myst-nb would: the same reader, the same executor
(``jupyter_cache.executors.utils.single_nb_execution``) in the page's folder, the same cache
record. The build then finds every page in the cache and executes none. A page whose code
changed is executed again; a page that fails is left out of the cache, so the build executes
it itself and reports the error as it always does.

Run it with the build's settings in the environment (``BOOK_CORPUS``, ``BOOK_FIGURE_DIR``, ...)::

    python -m helpers.book.build.prebuild --path-output _build/books/KEY
"""

from __future__ import annotations

import argparse
import os
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from helpers.analysis.pipeline import available_cores
from helpers.book.settings import analysis, config

__all__ = ["book_pages", "read_page", "pending_pages", "execute_pages", "main"]


def _root() -> Path:
    return config().root


def book_pages(root: Path, toc: dict[str, Any] | None = None) -> list[Path]:
    """The pages of a table of contents (default ``_toc.yml``; a build passes its own,
    :func:`helpers.book.build.toc.build_toc`), root first, as Markdown files.

    Parameters
    ----------
    root : Path
        The book's folder.
    toc : dict, optional
        A table of contents as :func:`helpers.book.build.toc.read_toc` gives it.

    Returns
    -------
    list of Path

    Examples
    --------
    >>> [page.name for page in book_pages(_root())][:2]
    ['intro.md', 'corpus.md']
    """
    from helpers.book.build.toc import read_toc  # lazy: at the top it would load yaml

    toc = read_toc(root) if toc is None else toc
    files = [toc["root"]] + [chapter["file"] for part in toc.get("parts", []) for chapter in part["chapters"]]
    return [root / f"{name}.md" for name in files]


def read_page(path: Path, root: Path):
    """The notebook myst-nb reads from a page (same reader, same Markdown extensions).

    Parameters
    ----------
    path : Path
        A page of the book.
    root : Path
        The book's folder (its ``_config.yml`` names the extensions).

    Returns
    -------
    nbformat.NotebookNode

    Examples
    --------
    >>> read_page(_root() / "intro.md", _root()).nbformat
    4
    """
    import yaml  # lazy: only where a YAML file is read
    from myst_nb.core.config import NbParserConfig  # lazy: Sphinx/Jupyter only
    from myst_nb.core.read import create_nb_reader  # lazy: Sphinx/Jupyter only
    from myst_parser.config.main import MdParserConfig  # lazy: Sphinx only

    settings = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    extensions = set(settings.get("parse", {}).get("myst_enable_extensions", []))
    text = path.read_text(encoding="utf-8")
    reader = create_nb_reader(str(path), MdParserConfig(enable_extensions=extensions), NbParserConfig(), text)
    return reader.read(text)


def pending_pages(root: Path, cache_path: Path, toc: dict[str, Any] | None = None) -> list[Path]:
    """The pages (of ``toc``, see :func:`book_pages`) whose current code the execution cache does not hold.

    Parameters
    ----------
    root : Path
        The book's folder.
    cache_path : Path
        The jupyter-cache folder.
    toc : dict, optional
        The table of contents (default ``_toc.yml``).

    Returns
    -------
    list of Path

    Examples
    --------
    >>> import tempfile
    >>> [page.name for page in pending_pages(_root(), Path(tempfile.mkdtemp()), {"root": "intro"})]
    ['intro.md']
    """
    from jupyter_cache import get_cache  # lazy: the prebuild only

    cache = get_cache(str(cache_path))
    pending = []
    for path in book_pages(root, toc):
        try:
            cache.match_cache_notebook(read_page(path, root))
        except KeyError:
            pending.append(path)
    return pending


def _execute(path: Path, root: Path, timeout: int, fork: bool) -> tuple[Path, Any, float, str | None]:
    from jupyter_cache.executors.utils import single_nb_execution  # lazy: the prebuild only

    notebook = read_page(path, root)
    options = {}
    if fork:
        from helpers.book.build.warm_kernels import ForkingKernelManager  # lazy: the workers only

        options["kernel_manager_class"] = ForkingKernelManager
    result = single_nb_execution(notebook, cwd=str(path.parent), allow_errors=False, timeout=timeout,
                                 meta_override=True, **options)
    error = None if result.err is None else f"{result.err.__class__.__name__}: {result.err}"
    return path, notebook, result.time, error


def _warm_worker() -> None:
    """Each worker's warm-up; one that fails only costs time (each kernel then imports what its page needs)."""
    from helpers.book.build import warm_kernels  # lazy: the workers only

    try:
        warm_kernels.warm_up()
    except Exception as error:  # noqa: BLE001 (a page that needs the failing import reports it itself)
        print(f"prebuild: warm-up failed ({error.__class__.__name__}: {error}); pages start cold", file=sys.stderr)


def execute_pages(pages: list[Path], root: Path, cache_path: Path, *, workers: int, timeout: int = 900,
                  fork: bool = True) -> list[tuple[Path, float, str | None]]:
    """Execute ``pages`` on ``workers`` processes and store the successful ones in the cache.

    With ``fork``, each worker imports what the pages import once (:func:`helpers.book.build.warm_kernels.warm_up`)
    and forks each page's kernel from itself, instead of starting a new Python per page.

    Parameters
    ----------
    pages : list of Path
        The pages to run.
    root : Path
        The book's folder.
    cache_path : Path
        The jupyter-cache folder.
    workers, timeout : int
        Processes, and seconds a cell may take.
    fork : bool
        Whether to fork each kernel from a warm worker.

    Returns
    -------
    list of tuple
        Each page with its seconds and its error (``None`` when it ran).

    Examples
    --------
    >>> import tempfile
    >>> execute_pages([], _root(), Path(tempfile.mkdtemp()), workers=1)
    []
    """
    from jupyter_cache import get_cache  # lazy: the prebuild only
    from jupyter_cache.base import CacheBundleIn  # lazy: the prebuild only

    cache = get_cache(str(cache_path))
    done = []
    # Only this process writes to the cache (its SQLite database takes one writer).
    with ProcessPoolExecutor(max_workers=max(1, workers), mp_context=multiprocessing.get_context("spawn"),
                             initializer=_warm_worker if fork else None) as pool:
        futures = [pool.submit(_execute, path, root, timeout, fork) for path in pages]
        for future in futures:
            path, notebook, seconds, error = future.result()
            if error is None:
                cache.cache_notebook_bundle(CacheBundleIn(notebook, str(path), data={"execution_seconds": seconds}),
                                            check_validity=False, overwrite=True)
            done.append((path, seconds, error))
    return done


def main(argv: list[str] | None = None) -> int:
    """Run the book's pages the execution cache does not hold, on every core, before ``jupyter-book build``.

    Parameters
    ----------
    argv : list of str, optional
        The command line (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 (a page that fails is run again by the build).

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):
    ...     main(["--help"])
    >>> out.getvalue().split()[:2]
    ['usage:', 'python']
    """
    parser = argparse.ArgumentParser(prog="python -m helpers.book.build.prebuild", description=__doc__.split("\n\n")[0])
    parser.add_argument("--path-output", required=True, help="the jupyter-book build's --path-output")
    parser.add_argument("--jobs", type=int, default=available_cores(), help="processes (default: all cores)")
    parser.add_argument("--no-fork", dest="fork", action="store_false",
                        help="start each page's kernel as a new Python (default: forked from a warm worker)")
    args = parser.parse_args(argv)
    # jsonschema (under nbformat) compiles rfc3987-syntax's 39 IRI grammars when that package is installed (JupyterLab
    # brings it): 1 s of CPU before any page starts. Nothing here checks IRI formats, so this process goes without.
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]
    # The pages' kernels write each figure's SVG and PDF in a forked child while the page goes on; the site's
    # build waits for them before it ends (helpers.book.figure_writers). BOOK_FIGURES_IN_BACKGROUND=0 turns it off.
    os.environ.setdefault("BOOK_FIGURES_IN_BACKGROUND", "1")
    root = _root()
    cache_path = Path(args.path_output) / "_build" / ".jupyter_cache"
    from helpers.book.build.toc import build_toc  # lazy: at the top it would load yaml

    start = time.perf_counter()
    analysed = analysis()  # once (the contents depend on it), before the pages that read it start together
    analysis_seconds = time.perf_counter() - start
    pages = pending_pages(root, cache_path, build_toc(root, analysed))
    if not pages:
        print("prebuild: every page is in the execution cache", file=sys.stderr)
        return 0
    print(f"prebuild: analysis ready in {analysis_seconds:.1f} s", file=sys.stderr)
    # Longest pages first, so the processes finish together.
    longest_first = ("themes", "cooccurrence", "links", "performance", "intro", "corpus")
    pages.sort(key=lambda page: longest_first.index(page.stem) if page.stem in longest_first else len(longest_first))
    for path, seconds, error in execute_pages(pages, root, cache_path, workers=args.jobs, fork=args.fork):
        state = f"failed ({error}); the build will run it again" if error else f"{seconds:.1f} s"
        print(f"prebuild: {path.relative_to(root)}: {state}", file=sys.stderr)
    print(f"prebuild: {len(pages)} pages in {time.perf_counter() - start:.1f} s on {args.jobs} processes",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
