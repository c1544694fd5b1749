"""Where the analysis runs: this machine's cores or a Dask cluster, over partitions of the papers.

The stages of :func:`helpers.analysis.pipeline.run_pipeline` are written once, as per-partition functions
and a reduce step; each module here is one job of running them:

1. :mod:`.file_pieces`, :func:`split_file`: a large corpus file cut into pieces that parse on their own,
   joined back block for block (:func:`join_pieces`).
2. :mod:`.local`, :func:`partition_bounds` and :class:`LocalPartitions`: the papers in consecutive ranges,
   run in this process, on worker processes (:func:`map_chunks`) or threads (:func:`start_in_thread`), within
   :func:`available_cores`; :class:`PartitionRunner` is what an engine provides, :func:`reduce_tree` sums
   the partitions' results in order.
3. :mod:`.dask_cluster`, :class:`~helpers.analysis.engine.dask_cluster.ClusterStages`: the same stages on a
   Dask cluster (imported on its own, ``from helpers.analysis.engine.dask_cluster import ...``: it reads the
   corpus module, which reads :mod:`.file_pieces`, and it needs ``dask.distributed``).
4. :mod:`.paper_texts`, :class:`PaperTexts`: the abstracts' texts apart from the papers table, in parts, read
   part by part.
5. :mod:`.parquet_parts`, :func:`write_partitioned_tables`: the per-paper tables as Parquet files, one per
   partition, beside the CSV tables.
"""

from helpers.analysis.engine.file_pieces import (
                                                PIECE_BYTES,
                                                FilePiece,
                                                ParsedPiece,
                                                file_sha256,
                                                join_pieces,
                                                piece_bytes,
                                                split_file,
)
from helpers.analysis.engine.local import (
                                          MAX_CHUNK_ITEMS,
                                          MIN_PARALLEL_ITEMS,
                                          BackgroundCall,
                                          LocalPartitions,
                                          PartitionRunner,
                                          available_cores,
                                          chunk_count,
                                          map_chunks,
                                          partition_bounds,
                                          reduce_tree,
                                          run_calls,
                                          run_in_threads,
                                          start_in_thread,
                                          worker_count,
)
from helpers.analysis.engine.paper_texts import TEXT_PART, PaperTexts
from helpers.analysis.engine.parquet_parts import (
                                                  PARTITIONED_TABLES,
                                                  PartitionedTable,
                                                  output_partitions,
                                                  paper_parts,
                                                  write_paper_parts,
                                                  write_partitioned_tables,
)

__all__ = [
    "PIECE_BYTES", "FilePiece", "ParsedPiece", "split_file", "piece_bytes", "join_pieces", "file_sha256",
    "MIN_PARALLEL_ITEMS", "MAX_CHUNK_ITEMS", "available_cores", "worker_count", "run_calls", "run_in_threads",
    "BackgroundCall", "start_in_thread", "chunk_count", "partition_bounds", "map_chunks", "PartitionRunner",
    "LocalPartitions", "reduce_tree", "TEXT_PART", "PaperTexts", "PARTITIONED_TABLES", "PartitionedTable",
    "output_partitions", "paper_parts", "write_partitioned_tables", "write_paper_parts",
]
