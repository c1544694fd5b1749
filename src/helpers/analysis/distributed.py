"""The dask engine: the per-partition stages of the analysis on a Dask cluster (``dask.distributed``).

:func:`helpers.analysis.pipeline.run_pipeline` with ``EngineSettings(engine="dask")`` (or a scheduler
address) runs these stages on the cluster's workers and reduces their results in partition order, so
the tables are byte-identical to the local engine's, whatever the number of workers or partitions:

- **parse**: one task per input file (:func:`helpers.analysis.corpus.read_one_file`); duplicates are
  found across files when the parsed files are assembled (:func:`helpers.analysis.corpus.assemble_corpus`);
- **text**: the papers in :func:`helpers.analysis.parallel.partition_bounds` row ranges (at most
  :data:`helpers.analysis.parallel.MAX_CHUNK_ITEMS` papers each, as the local engine's chunks), each
  tokenised on a worker into word ids of its own, which stay there;
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

Duplicate detection and the change between groups run in the calling process, and the papers' texts
come back to it (the papers table needs them); no abstract's word ids do. :data:`CLIENT_SIDE` says so,
and the CLI prints it.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import pandas as pd

from helpers.analysis.corpus import Corpus, assemble_corpus, expand_paths, read_one_file, source_names
from helpers.analysis.parallel import chunk_count, partition_bounds
from helpers.analysis.settings import ENGINE_NAMES, EngineSettings, SettingsError

if TYPE_CHECKING:
    from distributed import Client, Future

    from helpers.analysis.cooccurrence import CooccurrenceResult
    from helpers.analysis.settings import AnalysisSettings
    from helpers.analysis.text import TokenizedCorpus

__all__ = ["CLIENT_SIDE", "PARTITIONS_PER_WORKER", "partition_bounds", "dask_client", "ClusterStages",
           "DaskPartitions"]

#: Seconds to wait for the scheduler of ``--scheduler``.
CONNECT_SECONDS = 10
#: Default partitions of the papers per worker (more when a partition would hold over
#: :data:`helpers.analysis.parallel.MAX_CHUNK_ITEMS` papers).
PARTITIONS_PER_WORKER = 2
#: What the dask engine does not partition (printed by ``analyse --engine dask``).
CLIENT_SIDE = ("the papers' texts come back to this process (duplicate detection, the papers table and the change "
               "between groups run here); word ids, term counts and theme weights are computed on the workers")


@contextmanager
def dask_client(engine: EngineSettings, n_jobs: int | None = None) -> Iterator["Client"]:
    """A client of ``engine.scheduler``, or of a local cluster on 127.0.0.1 started for the run and closed after.

    The local cluster has ``n_jobs`` (default: the cores this process may use) worker processes of one
    thread each, and no dashboard.
    """
    from distributed import Client, LocalCluster

    from helpers.analysis.parallel import available_cores

    if engine.scheduler is not None:
        try:
            client = Client(engine.scheduler, timeout=f"{CONNECT_SECONDS}s")
        except OSError as error:
            raise SettingsError(f"{ENGINE_NAMES['scheduler']}: no Dask scheduler answers at {engine.scheduler} "
                                f"within {CONNECT_SECONDS} s ({type(error).__name__})") from None
        with client:
            yield client
        return
    with LocalCluster(n_workers=n_jobs or available_cores(), threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


def _partition_tokens(papers: pd.DataFrame) -> "TokenizedCorpus":
    """One partition's word ids as a corpus of its own (its own vocabulary), for the themes and the term counts."""
    from helpers.analysis.text import _tokenize_chunk, merge_token_chunks

    return merge_token_chunks([_tokenize_chunk(papers["text"].tolist(), True)], papers["paper_id"])


def _partition_texts(papers: pd.DataFrame) -> list[str]:
    """One partition's stored texts (the acronym finder reads them)."""
    return papers["text"].tolist()


class DaskPartitions:
    """The :class:`helpers.analysis.parallel.PartitionRunner` of a Dask client: calls are tasks on its
    workers, handles are futures, and one reduction bucket per worker."""

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
    """One partition's links, link states and statements (:func:`helpers.analysis.links.analyse_links`)."""
    from helpers.analysis.links import analyse_links

    return analyse_links(papers, n_jobs=1)


class ClusterStages:
    """The per-partition stages on the cluster of ``client``, in the order the pipeline calls them.

    :meth:`read_corpus`, then :meth:`start` (sends the papers' partitions to the workers and starts the
    text and links tasks), then :meth:`wait_for_tokens`; the themes and the term map run on
    :meth:`runner` with :attr:`token_parts`, and :meth:`links` waits for its tasks and reduces.
    """

    def __init__(self, client: "Client", partitions: int | None = None) -> None:
        self.client = client
        self.n_partitions = partitions
        self._links: list["Future"] = []
        self._token_parts: list["Future"] = []
        self._text_parts: list["Future"] = []

    def read_corpus(self, paths: Sequence[str | Path], skip_bad: bool = False) -> Corpus:
        """:func:`helpers.analysis.corpus.read_corpus`, one file per task on the workers."""
        files, problems = expand_paths(list(paths))
        futures = self.client.map(read_one_file, files, source_names(files), pure=False)
        return assemble_corpus(self.client.gather(futures), problems, skip_bad=skip_bad)

    def start(self, corpus: Corpus) -> None:
        """Send the papers in partitions to the workers and start tokenising them and finding their links."""
        papers = corpus.papers[["paper_id", "source_file", "text"]]
        n_workers = max(1, len(self.client.scheduler_info(n_workers=-1)["workers"]))
        bounds = partition_bounds(len(papers), self.n_partitions
                                  or chunk_count(len(papers), n_workers, PARTITIONS_PER_WORKER))
        parts = self.client.scatter([papers.iloc[start:stop].reset_index(drop=True) for start, stop in bounds],
                                    hash=False)  # no hashing of every text for the keys
        # The word ids first (this process waits for them); the links meanwhile, while themes and terms run here.
        self._token_parts = self.client.map(_partition_tokens, parts, pure=False, priority=1)
        self._text_parts = self.client.map(_partition_texts, parts, pure=False, priority=1)
        self._links = self.client.map(_links_partition, parts, pure=False)

    @property
    def token_parts(self) -> list["Future"]:
        """Each partition's word ids (a :class:`helpers.analysis.text.TokenizedCorpus` of its own), on the workers."""
        return self._token_parts

    def runner(self) -> DaskPartitions:
        """The :class:`helpers.analysis.parallel.PartitionRunner` of this cluster."""
        return DaskPartitions(self.client)

    def wait_for_tokens(self) -> None:
        """Wait until every partition's word ids are ready on the workers (nothing comes back)."""
        from distributed import wait

        wait(self._token_parts)

    def cooccurrence(self, settings: "AnalysisSettings") -> "CooccurrenceResult":
        """The term map, each partition's terms counted on the worker that holds its word ids
        (:func:`helpers.analysis.cooccurrence.analyse_partitions`): only counts come back."""
        from helpers.analysis.cooccurrence import analyse_partitions

        return analyse_partitions(DaskPartitions(self.client), self._token_parts, self._text_parts,
                                  seed=settings.seed, min_occurrences=settings.min_occurrences,
                                  relevant_share=settings.relevant_share)

    def links(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """``(links, states, statements)``: the partitions' tables concatenated in partition order."""
        parts = self.client.gather(self._links)
        return tuple(pd.concat([part[i] for part in parts], ignore_index=True) for i in range(3))  # type: ignore
