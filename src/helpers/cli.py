"""Command line: ``python -m helpers analyse PATH... --out DIR`` (and ``linkcheck``, ``fingerprint``).

The command runs the same functions the book's chapters call and writes their
tables as CSV (plus ``summary.json``), so a researcher gets the book's numbers
without building the book. Output goes to a staging folder beside ``DIR`` first
and is swapped in for ``DIR`` in one step only when every stage succeeded
(:mod:`helpers.analysis.output_folder`), so an error, Ctrl-C or a kill leaves
``DIR`` exactly as it was. Bad input is one line per problem and exit 2.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import signal
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Sequence

from helpers import __version__
from helpers.analysis.errors import CorpusError, shown_name
from helpers.analysis.out_path import OutputFolderError, check_out_path
from helpers.analysis.output_folder import OutputFolder

__all__ = ["build_parser", "main"]

#: The exit code of bad input (a corpus, a setting or an output folder that cannot be used).
EXIT_BAD_INPUT = 2

#: The options of ``analyse`` that set the analysis and where it runs: option, type, metavar, help.
_ANALYSE_OPTIONS: tuple[tuple[str, type, str, str], ...] = (
    ("--themes", int, "K", "number of themes (default: chosen by the model-selection rule; see themes.csv)"),
    ("--seed", int, "N", "first random seed (default 0)"),
    ("--min-occurrences", int, "N", "abstracts a term must occur in to be on the term map (default: grows with "
                                    "the corpus, see terms.csv and the co-occurrence chapter)"),
    ("--relevant-share", float, "S", "share of those terms kept on the map, most relevant first (default 0.6, as "
                                     "VOSviewer)"),
    ("--group-by", str, "BY", "group the papers for the comparisons: year, venue, file or a column of the input "
                              "(default: year when the papers carry at least two years, else one group)"),
    ("--theme-names", str, "FILE", "rename and merge themes: a tab-separated theme file (start from "
                                   "theme_names.tsv, which analyse writes into DIR); ignored with a warning when "
                                   "written for another corpus or settings"),
    ("--thesaurus", str, "FILE", "VOSviewer thesaurus file (tab-separated, header 'label<TAB>replace by'): each "
                                 "label is counted as its replacement, an empty replacement removes it, in every "
                                 "analysis"),
    ("--stop-terms", str, "FILE", "terms to remove from every analysis, one per line (# starts a comment line)"),
    ("--jobs", int, "N", "processes and threads to use (default: the cores this process may use; 1: one thread, "
                         "nothing in the background); the results do not depend on it"),
    ("--engine", str, "ENGINE", "where the analysis runs: local (this process and its own workers; the default) "
                                "or dask (a Dask cluster started on this machine for the run, --jobs worker "
                                "processes); the tables are the same"),
    ("--scheduler", str, "tcp://HOST:PORT", "send the work to the running Dask cluster of this scheduler (implies"
                                            " --engine dask; see README, Running on a cluster)"),
    ("--partitions", int, "N", "partitions of the papers on the dask engine (default: two per worker)"),
)


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: ``analyse``, ``linkcheck`` and ``fingerprint``.

    Returns
    -------
    argparse.ArgumentParser
        The parser, with one sub-command each.

    Examples
    --------
    >>> args = build_parser().parse_args(["analyse", "data/raw", "--out", "out", "--themes", "8"])
    >>> args.command, args.paths, args.themes, args.seed
    ('analyse', ['data/raw'], 8, None)
    """
    parser = argparse.ArgumentParser(
        prog="python -m helpers",
        description="Analyse a corpus of abstracts: the seed text format, BibTeX, RIS, CSV, TSV or JSON Lines, "
                    "by file extension (the same functions the book uses).",
    )
    parser.add_argument("--version", action="version", version=f"helpers {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    analyse = commands.add_parser(
        "analyse",
        help="parse the corpus and write the analysis tables",
        description=(
            "Parse PATH... (files, or directories whose *.txt files are read in name order; a directory "
            "without .txt files: its .bib, .ris, .csv, .tsv and .jsonl files) and "
            "write the analysis tables into DIR: papers.csv (one row per unique abstract), "
            "blocks.csv (one row per block of every file: the parse report), summary.json "
            "(counts) and the tables of every analysis stage. On bad input, one line per "
            "problem goes to stderr, the exit code is 2 and DIR is left untouched. DIR is replaced "
            "whole, in one step, when the run succeeds; files in it that analyse did not write are refused "
            "unless --force, and a second run into DIR while one runs stops at once (exit 2)."
        ),
    )
    analyse.add_argument("paths", nargs="+", metavar="PATH", help="corpus file or directory")
    analyse.add_argument("--out", required=True, metavar="DIR",
                         help="folder for the output tables, replaced whole when the run succeeds (never a mix of "
                              "two runs); not a corpus path, not inside one")
    analyse.add_argument("--force", action="store_true",
                         help="replace DIR even when it holds files analyse did not write (they are removed)")
    analyse.add_argument(
        "--skip-bad", action="store_true",
        help="continue with the good files; skipped files are listed in files.csv and summary.json",
    )
    analyse.add_argument("--quiet", action="store_true", help="no progress bars")
    analyse.add_argument("--timings", action="store_true", help="print the seconds each stage took on stderr")
    for option, kind, metavar, text in _ANALYSE_OPTIONS:
        analyse.add_argument(option, type=kind, metavar=metavar, help=text)

    linkcheck = commands.add_parser(
        "linkcheck",
        help="check whether the corpus's links are alive (goes online)",
        description=(
            "Find every link in PATH... (default data/raw) and check it: HEAD, or GET where HEAD is "
            "refused; redirects followed; one retry on timeout; at most 2 requests at a time per host. "
            "Writes linkcheck-<UTC time>.csv (url, status, http_code, final_url, checked_at) into --out; "
            "the book shows the newest one. Status: ok, redirected, broken, timeout or error."
        ),
    )
    linkcheck.add_argument("paths", nargs="*", metavar="PATH", default=["data/raw"])
    linkcheck.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
    linkcheck.add_argument("--concurrency", type=int, default=8, help="parallel requests (default 8)")
    linkcheck.add_argument("--out", default="data/linkcheck", metavar="DIR",
                           help="folder for the dated CSV (default data/linkcheck)")
    linkcheck.add_argument("--skip-bad", action="store_true", help="continue with the good corpus files")
    linkcheck.add_argument("--quiet", action="store_true", help="no progress bar")

    fingerprint = commands.add_parser(
        "fingerprint",
        help="print the book's build key for a corpus",
        description=(
            "Print a short hash of the corpus files, the analysis settings (from the environment) "
            "and the helpers' source. The Makefile keeps one book build and execution cache per key."
        ),
    )
    fingerprint.add_argument("paths", nargs="+", metavar="PATH", help="corpus file or directory")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line: ``python -m helpers`` and the ``abstracts-book`` script.

    Parameters
    ----------
    argv
        The arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code: 0, 2 for bad input (one line per problem on stderr), 1 when the tables cannot be written,
        130 or 143 when interrupted or terminated.

    Examples
    --------
    >>> main(["analyse", "no/such/folder", "--out", "out"])
    2
    """
    args = build_parser().parse_args(argv)
    if args.command == "analyse":
        return _run_analyse(args)
    if args.command == "linkcheck":
        return _run_linkcheck_command(args)
    if args.command == "fingerprint":
        from helpers.analysis.corpus import read_corpus  # lazy: at the top it would load pyarrow and pandas
        from helpers.analysis.pipeline import SettingsError  # lazy: at the top it would load pyarrow and pandas
        from helpers.book.settings import book_key, config  # lazy: at the top it would load pyarrow and pandas

        try:
            from helpers.analysis.corpus.groups import paper_groups  # lazy: at the top it would load pyarrow and pandas

            book_config = config()  # bad book settings fail here, before the book build starts
            corpus = read_corpus(args.paths)  # and so does a bad corpus
            paper_groups(corpus.papers, corpus.fields, book_config.settings.group_by)  # and a bad BOOK_GROUP_BY
            print(book_key(replace(book_config, corpus_paths=tuple(Path(p) for p in args.paths))))
        except CorpusError as error:
            return _report_problems(error)
        except SettingsError as error:
            return _report_setting(error)
        return 0
    return EXIT_BAD_INPUT  # pragma: no cover - argparse enforces a command


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread so that the run cleans up as on Ctrl-C (a BaseException, as
    KeyboardInterrupt: no ``except Exception`` on the way swallows it)."""


class _TerminatedAsInterrupt(contextlib.AbstractContextManager):
    """SIGTERM raises :class:`_Terminated` while the block runs (in the main thread; elsewhere nothing changes),
    and the previous handler is back after it."""

    def __enter__(self) -> "_TerminatedAsInterrupt":
        self._previous = None
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGTERM, self._stop)
        return self

    def __exit__(self, *exception: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)

    @staticmethod
    def _stop(signum: int, frame: FrameType | None) -> None:
        raise _Terminated()


def _report_problems(error: CorpusError) -> int:
    """Print each problem of a bad corpus on stderr; returns the exit code for bad input."""
    for problem in error.problems:
        print(f"error: {problem}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _report_setting(error: ValueError) -> int:
    """Print a bad setting's one-line error on stderr (a setting named by its option and the book's variable, as
    both give it); returns the exit code for bad input."""
    from helpers.analysis.settings import SettingsError  # lazy: at the top it would load numpy
    from helpers.book.settings import book_named  # lazy: the book's names only for an error

    print(f"error: {book_named(error) if isinstance(error, SettingsError) else error}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _run_analyse(args: argparse.Namespace) -> int:
    # Lazy: at the top it would load pyarrow and pandas.
    from helpers.analysis.pipeline import AnalysisSettings, SettingsError, run_pipeline, write_outputs
    from helpers.analysis.settings import EngineSettings, check_whole  # lazy: at the top it would load numpy

    out = Path(args.out)
    show_progress = not args.quiet and sys.stderr.isatty()
    folder = None
    try:
        with _TerminatedAsInterrupt():
            try:
                check_whole(args.jobs, "jobs", minimum=1, optional=True)
                settings = AnalysisSettings.from_namespace(args)
                if args.thesaurus is not None or args.stop_terms is not None:
                    from helpers.analysis.text.vocabulary_files import read_vocabulary  # lazy: reads the dictionaries

                    settings = replace(settings, vocabulary=read_vocabulary(args.thesaurus, args.stop_terms))
                engine = EngineSettings.from_values(args.engine, args.scheduler, args.partitions)
                if settings.theme_names is not None:  # a malformed theme file: one line, before DIR is touched
                    from helpers.analysis.themes.theme_file import read_theme_file  # lazy: loads pandas

                    read_theme_file(settings.theme_names)
                folder = OutputFolder(check_out_path(out, args.paths), out, force=args.force)
                with folder:
                    analysis = run_pipeline(args.paths, settings, skip_bad=args.skip_bad, progress=show_progress,
                                            n_jobs=args.jobs, engine=engine)
                    write_start = time.perf_counter()
                    try:
                        folder.commit(write_outputs(analysis, folder.staging))
                    except OSError as error:  # a full disk, a quota: not the input's fault (exit 1)
                        print(f"error: {shown_name(out)}: cannot write the tables ({error.strerror}); "
                              f"{shown_name(out)} unchanged", file=sys.stderr)
                        return 1
                    write_seconds = time.perf_counter() - write_start
            except CorpusError as error:
                return _report_problems(error)
            except (SettingsError, OutputFolderError) as error:
                return _report_setting(error)
    except (KeyboardInterrupt, _Terminated) as stop:
        what = "interrupted" if isinstance(stop, KeyboardInterrupt) else "terminated"
        state = "holds the new tables" if folder is not None and folder.committed else "unchanged"
        print(f"{what}; {shown_name(out)} {state}", file=sys.stderr)
        return 130 if isinstance(stop, KeyboardInterrupt) else 143
    summary = analysis.summary
    if args.timings:
        stages = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in analysis.timings.items())
        print(f"timings: {stages}; analysis {sum(analysis.timings.values()):.2f} s; write {write_seconds:.2f} s",
              file=sys.stderr)
    if engine.engine == "dask":
        # Lazy: at the top it would load pyarrow and pandas.
        from helpers.analysis.pipeline.dask_engine import CLIENT_SIDE

        print(f"note: dask engine: {CLIENT_SIDE}", file=sys.stderr)
    naming = analysis.themes.naming
    if naming is not None and naming.warning:
        print(f"warning: {naming.warning}", file=sys.stderr)
    if analysis.themes.message:
        print(f"note: no themes: {analysis.themes.message}", file=sys.stderr)
    if summary.get("themes_k_at_top"):
        print(f"note: {summary['themes_k']} themes is the largest number searched, not one chosen among more; "
              "set --themes to try more", file=sys.stderr)
    from helpers.book.formatting import count  # lazy: at the top it would load pyarrow and pandas

    print(
        f"{count(summary['unique_papers'], 'paper')} from {count(summary['files'], 'file')} "
        f"({count(summary['blocks'], 'block')}; {summary['skipped_files']:,} skipped) -> {out}",
        file=sys.stderr,
    )
    # The command ends here: the garbage collector's passes over everything it holds (about 0.4 s on a
    # conference, as the interpreter shuts down) can find nothing it needs freed.
    gc.freeze()
    return 0


def _run_linkcheck_command(args: argparse.Namespace) -> int:
    from helpers.analysis.corpus import read_corpus  # lazy: at the top it would load pyarrow and pandas
    from helpers.analysis.links.linkcheck import run_linkcheck  # lazy: at the top it would load pyarrow and pandas
    # Lazy: at the top it would load pyarrow and pandas.
    from helpers.analysis.links.states import distinct_urls, find_links

    try:
        corpus = read_corpus(args.paths, skip_bad=args.skip_bad)
    except CorpusError as error:
        return _report_problems(error)
    urls = distinct_urls(find_links(corpus.papers))
    path, table, seconds = run_linkcheck(urls, Path(args.out), timeout=args.timeout,
                                         concurrency=args.concurrency,
                                         progress=not args.quiet and sys.stderr.isatty())
    counts = table["status"].value_counts().to_dict()
    summary = ", ".join(f"{counts.get(s, 0)} {s}" for s in ["ok", "redirected", "broken", "timeout", "error"])
    print(f"checked {len(table)} links in {seconds:.1f} s: {summary} -> {path}", file=sys.stderr)
    return 0
