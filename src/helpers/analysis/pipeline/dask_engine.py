"""The dask engine: the per-partition stages of the analysis on a Dask cluster (``dask.distributed``).

:func:`helpers.analysis.pipeline.run_pipeline` with ``EngineSettings(engine="dask")`` (or a scheduler
address) runs these stages on the cluster's workers and reduces their results in partition order, so
the tables are byte-identical to the local engine's, whatever the number of workers or partitions:

- **parse**: one task per input file (:func:`helpers.analysis.corpus.read_whole_file`), or per piece of a
  file larger than :data:`helpers.analysis.corpus.file_pieces.PIECE_BYTES` (:func:`helpers.analysis.corpus.read_piece`),
  whose blocks stay on its worker; only the blocks' facts come to this process
  (:func:`helpers.analysis.corpus.light_rows`: lines, kinds, the digest duplicates share, the first words),
  where a file's pieces are joined (:func:`helpers.analysis.corpus.file_pieces.join_pieces`) and duplicates are
  found across files (:func:`helpers.analysis.corpus.assemble_corpus`);
- **text**: the papers in :func:`helpers.analysis._parallel.partition_bounds` row ranges (at most
  :data:`helpers.analysis.pipeline.MAX_CHUNK_ITEMS` papers each, as the local engine's chunks), each
  made on a worker from the parsed files' blocks and tokenised there into word ids of its own, which stay
  there; at the end, the texts come to this process one part at a time, each written to a Parquet file
  (:class:`helpers.analysis.pipeline.paper_texts.PaperTexts`) before the next is asked for;
- **themes**: each partition's theme terms are counted where its word ids are; the vocabulary comes from
  the counts summed by term (:func:`helpers.analysis.themes.start_partitioned_themes`); only the
  selection's sample and the final fit's abstracts come to this process, which fits the model; every
  abstract is weighted on the workers, in blocks of consecutive ``paper_id`` ranks that do not depend on
  the partitions, and only the weights and the summed theme statistics come back;
- **links**: link finding and the link states per partition on the workers, the tables concatenated
  in partition order; they run while this process fits the theme model;
- **co-occurrence**: each partition's candidate terms are counted on the worker holding its word ids
  (:func:`helpers.analysis.cooccurrence.analyse_partitions`, :mod:`helpers.analysis.cooccurrence.counting`);
  the counts are summed by term on one reducer per worker, and the frequent candidates'
  ``X.T @ X`` summed over the partitions; only acronym definitions and these counts come back.

Duplicate detection, the papers table (without texts) and the change between groups run in the calling
process; no abstract's word ids come to it, and its texts only one part at a time, on their way to a file.
:data:`CLIENT_SIDE` says so, and the CLI prints it.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

import pandas as pd

from helpers.analysis.corpus import (Corpus, assemble_corpus, expand_paths, light_piece, read_piece, read_whole_file,
                                     source_names, without_texts)
from helpers.analysis.corpus.file_pieces import ParsedPiece, file_sha256, join_pieces, split_file
from helpers.analysis._parallel import MAX_CHUNK_ITEMS, available_cores, chunk_count, partition_bounds
from helpers.analysis.pipeline.paper_texts import PaperTexts
from helpers.analysis.pipeline.parquet_parts import output_partitions
from helpers.analysis.settings import EngineSettings, SettingsError

if TYPE_CHECKING:
    from distributed import Client, Future

    from helpers.analysis.cooccurrence import CooccurrenceResult
    from helpers.analysis.settings import AnalysisSettings
    from helpers.analysis.text.tokens import TokenizedCorpus
    from helpers.analysis.pipeline.paper_texts import PaperTexts

__all__ = ["CLIENT_SIDE", "PARTITIONS_PER_WORKER", "dask_client", "ClusterStages",
           "DaskPartitions"]

#: Seconds to wait for the scheduler of ``--scheduler``.
CONNECT_SECONDS = 10
#: Default partitions of the papers per worker (more when a partition would hold over
#: :data:`helpers.analysis.pipeline.MAX_CHUNK_ITEMS` papers).
PARTITIONS_PER_WORKER = 2
#: What the dask engine does not partition (printed by ``analyse --engine dask``).
CLIENT_SIDE = ("duplicate detection, the papers table (without texts) and the change between groups run in this "
               "process; texts, word ids, term counts and theme weights stay on the workers, and the texts come here "
               "one part at a time, on their way to a file")


@contextmanager
def dask_client(engine: EngineSettings, n_jobs: int | None = None) -> Iterator["Client"]:
    """A client of ``engine.scheduler``, or of a local cluster on 127.0.0.1 started for the run and closed after.

    The local cluster has ``n_jobs`` (default: the cores this process may use) worker processes of one
    thread each, and no dashboard.

    Parameters
    ----------
    engine : EngineSettings
        The scheduler's address, or none for a local cluster.
    n_jobs : int, optional
        The local cluster's worker processes.

    Yields
    ------
    distributed.Client

    Raises
    ------
    SettingsError
        When no scheduler answers at ``engine.scheduler`` within :data:`CONNECT_SECONDS` seconds.

    Examples
    --------
    >>> with dask_client(EngineSettings(engine="dask"), n_jobs=1) as client:
    ...     client.submit(sum, [1, 2]).result()
    3
    """
    from distributed import Client, LocalCluster  # lazy: the Dask engine only

    if engine.scheduler is not None:
        try:
            client = Client(engine.scheduler, timeout=f"{CONNECT_SECONDS}s")
        except OSError as error:
            raise SettingsError(f"no Dask scheduler answers at {engine.scheduler} within {CONNECT_SECONDS} s "
                                f"({type(error).__name__})", setting="scheduler") from None
        with client:
            yield client
        return
    with _sigint_ignored():  # the workers inherit it: Ctrl-C stops this process, which closes the cluster
        cluster = LocalCluster(n_workers=n_jobs or available_cores(), threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
    with cluster, Client(cluster) as client:
        yield client


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while the block runs (in the main thread; elsewhere nothing changes), so that the processes
    started in it ignore Ctrl-C rather than print their own tracebacks."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _partition_tokens(papers: pd.DataFrame) -> "TokenizedCorpus":
    """One partition's word ids as a corpus of its own (its own vocabulary), for the themes and the term counts."""
    # Lazy: keeps this module's import light.
    from helpers.analysis.text.tokens import _tokenize_chunk, merge_token_chunks

    return merge_token_chunks([_tokenize_chunk(papers["text"].tolist(), True)], papers["paper_id"])


def _partition_texts(papers: pd.DataFrame) -> list[str]:
    """One partition's stored texts (the acronym finder reads them)."""
    return papers["text"].tolist()


def _rows_of(parsed: tuple[dict, list[dict], list[str]] | ParsedPiece) -> list[dict]:
    """The block rows of a parse task's result (a whole file's or a piece's)."""
    return parsed.rows if isinstance(parsed, ParsedPiece) else parsed[1]


def _partition_papers(paper_ids: list[str], blocks: list[tuple[int, list[int]]], *parsed) -> pd.DataFrame:
    """One partition's ``paper_id, source_file, text``: the papers ``paper_ids``, whose abstracts are the
    blocks ``blocks`` (``(unit, block rows)`` pairs, ``unit`` an index into ``parsed``, the parse tasks'
    results: :func:`helpers.analysis.corpus.read_whole_file` or :func:`helpers.analysis.corpus.read_piece`),
    in that order."""
    sources, texts = [], []
    for unit, rows in blocks:
        unit_rows = _rows_of(parsed[unit])
        for row in rows:
            sources.append(unit_rows[row]["source_file"])
            texts.append(unit_rows[row]["text"])
    if len(texts) != len(paper_ids):
        raise ValueError(f"a partition of {len(paper_ids)} papers found {len(texts)} abstracts")
    return pd.DataFrame({"paper_id": paper_ids, "source_file": sources, "text": texts})


def _text_range(offsets: list[tuple[int, int]], *text_parts: list[str]) -> list[str]:
    """The texts ``text_parts[i][start:stop]`` for each ``(start, stop)`` of ``offsets``, joined."""
    return [text for (start, stop), texts in zip(offsets, text_parts) for text in texts[start:stop]]


class DaskPartitions:
    """The partition runner of a Dask client: calls are tasks on its workers, handles are futures, and one
    reduction bucket per worker (the local engine's runner runs each call at once, in this process).

    Parameters
    ----------
    client : distributed.Client
    priority : int, default 2
        The tasks' priority on the scheduler.

    Attributes
    ----------
    n_buckets : int
        The client's workers: a reduction by key is cut into one bucket each.

    Examples
    --------
    >>> from distributed import Client
    >>> with Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None) as client:
    ...     runner = DaskPartitions(client)
    ...     runner.gather(runner.map(pow, [2, 3], [2, 2])), runner.n_buckets
    ([4, 9], 1)
    """

    def __init__(self, client: "Client", priority: int = 2) -> None:
        self.client, self.priority = client, priority
        self.n_buckets = max(1, len(client.scheduler_info(n_workers=-1)["workers"]))

    def map(self, function, *iterables):
        return self.client.map(function, *iterables, pure=False, priority=self.priority)

    def submit(self, function, *args):
        return self.client.submit(function, *args, pure=False, priority=self.priority)

    def share(self, value):
        return self.client.scatter([value], broadcast=True, hash=False)[0]

    def gather(self, handles):
        return self.client.gather(list(handles))


def _links_partition(papers: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """One partition's links, link states and statements (:func:`helpers.analysis.links.states.analyse_links`)."""
    from helpers.analysis.links.states import analyse_links  # lazy: keeps this module's import light

    return analyse_links(papers, n_jobs=1)


class ClusterStages:
    """The per-partition stages on the cluster of ``client``, in the order the pipeline calls them.

    :meth:`read_corpus`, then :meth:`start` (sends the papers' partitions to the workers and starts the
    text and links tasks), then :meth:`wait_for_tokens`; the themes and the term map run on
    :meth:`runner` with :attr:`token_parts`, and :meth:`links` waits for its tasks and reduces.

    Parameters
    ----------
    client : distributed.Client
    partitions : int, optional
        Partitions of the papers (default :data:`PARTITIONS_PER_WORKER` per worker, more when one would hold
        over 20,000 papers).
    piece_size : int, optional
        Bytes a piece of a large file holds (default
        :data:`helpers.analysis.corpus.file_pieces.PIECE_BYTES`).

    Examples
    --------
    >>> from distributed import Client
    >>> from helpers.analysis.corpus import write_corpus
    >>> folder = write_corpus({"a.txt": "Cover crops kept more water in the soil of dry fields."})
    >>> with Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None) as client:
    ...     corpus = ClusterStages(client).read_corpus([folder])
    >>> corpus.blocks["kind"].tolist()
    ['abstract']
    """

    def __init__(self, client: "Client", partitions: int | None = None, piece_size: int | None = None) -> None:
        self.client = client
        self.n_partitions = partitions
        self.piece_size = piece_size
        self._links: list["Future"] = []
        self._token_parts: list["Future"] = []
        self._text_parts: list["Future"] = []
        self._bounds: list[tuple[int, int]] = []
        self._parsed: list["Future"] = []
        self._abstracts: list[tuple[int, int]] = []

    def read_corpus(self, paths: Sequence[str | Path], skip_bad: bool = False) -> Corpus:
        """:func:`helpers.analysis.corpus.read_corpus`, one file (or one piece of a large file, at most
        ``piece_size`` bytes, default :data:`helpers.analysis.corpus.file_pieces.PIECE_BYTES`) per task on the
        workers, which keep the texts: the corpus's papers table has each abstract's ``opening`` instead of
        its ``text``."""
        client = self.client
        files, problems = expand_paths(list(paths))
        names = source_names(files)
        splits = [split_file(path, name, self.piece_size) for path, name in zip(files, names)]
        tasks = [client.map(read_piece, split, pure=False) if len(split) > 1
                 else [client.submit(read_whole_file, path, name, pure=False)]
                 for path, name, split in zip(files, names, splits)]
        digest_tasks = {index: client.submit(file_sha256, files[index], pure=False)
                        for index, split in enumerate(splits) if len(split) > 1}
        light_parts = client.gather([client.map(light_piece, task, pure=False) if len(task) > 1
                                     else [client.submit(without_texts, task[0], pure=False)] for task in tasks])
        digests: dict[int, str] = dict(zip(digest_tasks, client.gather(list(digest_tasks.values()))))
        # Per file: its read_one_file result without texts; per block: its (task, row) in self._parsed.
        light: list = []
        origins: list[tuple[int, int]] = []
        first_task = 0
        for index, (task, parts) in enumerate(zip(tasks, light_parts)):
            joined = join_pieces(files[index], names[index], parts, digests[index]) if len(task) > 1 else parts[0]
            if joined is None:  # read whole: the file's problem is named as read_one_file names it
                task = tasks[index] = [client.submit(read_whole_file, files[index], names[index], pure=False)]
                joined = client.submit(without_texts, task[0], pure=False).result()
                parts = [joined]
            light.append(joined)
            origins.extend((first_task + piece, row) for piece, part in enumerate(parts)
                           for row in range(len(_rows_of(part))))
            first_task += len(task)
        corpus = assemble_corpus(light, problems, skip_bad=skip_bad)
        # Each paper's abstract block (task, row), in the papers' order: duplicates are marked by now.
        self._parsed = [future for task in tasks for future in task]
        blocks = (block for _, rows, _ in light for block in rows)
        self._abstracts = [origin for block, origin in zip(blocks, origins) if block["kind"] == "abstract"]
        return corpus

    def start(self, corpus: Corpus) -> None:
        """Make the papers' partitions on the workers from the parsed files and start tokenising them and
        finding their links."""
        paper_ids = corpus.papers["paper_id"].tolist()
        n_workers = max(1, len(self.client.scheduler_info(n_workers=-1)["workers"]))
        self._bounds = bounds = partition_bounds(len(paper_ids), self.n_partitions
                                                 or chunk_count(len(paper_ids), n_workers, PARTITIONS_PER_WORKER))
        parts = []
        for start, stop in bounds:
            by_task: dict[int, list[int]] = {}
            for task, row in self._abstracts[start:stop]:
                by_task.setdefault(task, []).append(row)
            tasks = sorted(by_task)  # the papers' order is the files' order, then the pieces', then the blocks'
            parts.append(self.client.submit(_partition_papers, paper_ids[start:stop],
                                            [(index, by_task[task]) for index, task in enumerate(tasks)],
                                            *[self._parsed[task] for task in tasks], pure=False, priority=2))
        self._parsed, self._abstracts = [], []  # the parsed blocks leave the workers once the partitions are made
        # The word ids first (this process waits for them); the links meanwhile, while themes and terms run here.
        self._token_parts = self.client.map(_partition_tokens, parts, pure=False, priority=1)
        self._text_parts = self.client.map(_partition_texts, parts, pure=False, priority=1)
        self._links = self.client.map(_links_partition, parts, pure=False)

    @property
    def token_parts(self) -> list["Future"]:
        """Each partition's word ids (a :class:`helpers.analysis.text.tokens.TokenizedCorpus` of its own), on the
        workers."""
        return self._token_parts

    def runner(self) -> DaskPartitions:
        """The :class:`helpers.analysis._parallel.PartitionRunner` of this cluster."""
        return DaskPartitions(self.client)

    def wait_for_tokens(self) -> None:
        """Wait until every partition's word ids are ready on the workers (nothing comes back)."""
        from distributed import wait  # lazy: the Dask engine only

        wait(self._token_parts)

    def cooccurrence(self, settings: "AnalysisSettings") -> "CooccurrenceResult":
        """The term map, each partition's terms counted on the worker that holds its word ids
        (:func:`helpers.analysis.cooccurrence.analyse_partitions`): only counts come back."""
        # Lazy: at the top it would load scipy and networkx.
        from helpers.analysis.cooccurrence import TermMapOptions, analyse_partitions

        return analyse_partitions(DaskPartitions(self.client), self._token_parts, self._text_parts,
                                  TermMapOptions.from_settings(settings))

    def texts(self, paper_ids: Sequence[str], folder: Path | None = None, max_papers: int = MAX_CHUNK_ITEMS
              ) -> "PaperTexts":
        """The papers' texts, written to ``folder`` (default: a temporary one) in the parts of
        :func:`helpers.analysis.pipeline.parquet_parts.output_partitions` (at most ``max_papers`` each); each part comes
        from the workers while the previous one is written, so this process holds at most two."""
        def ask(start: int, stop: int) -> "Future":
            pieces = [(index, max(start, a) - a, min(stop, b) - a) for index, (a, b) in enumerate(self._bounds)
                      if a < stop and start < b]
            return self.client.submit(_text_range, [(lo, hi) for _, lo, hi in pieces],
                                      *[self._text_parts[index] for index, _, _ in pieces], pure=False)

        ranges = output_partitions(len(paper_ids), max_papers)

        def parts():
            pending = ask(*ranges[0]) if ranges else None
            for index in range(len(ranges)):
                current = pending
                pending = ask(*ranges[index + 1]) if index + 1 < len(ranges) else None
                yield current.result()
                del current

        return PaperTexts.write(list(paper_ids), parts(), folder, bounds=ranges)

    def links(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """``(links, states, statements)``: the partitions' tables concatenated in partition order."""
        parts = self.client.gather(self._links)
        return tuple(pd.concat([part[i] for part in parts], ignore_index=True) for i in range(3))
