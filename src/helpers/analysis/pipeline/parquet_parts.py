"""The large per-paper tables as Parquet files, one per partition of the papers, beside the CSV summaries.

A million papers make ``papers.csv`` about a gigabyte that every reader must parse whole. The same
rows are also written as a folder of Parquet files (:func:`write_partitioned_tables`):
``papers/part-00000.parquet``, ``papers/part-00001.parquet``, ... and likewise ``links/`` and
``link_statements/``, which pandas, pyarrow, Dask, DuckDB or Spark read as one dataset
(``pandas.read_parquet("out/papers")``) or part by part, with the columns' types kept.

The parts are the papers in corpus order cut into :func:`output_partitions`: ranges of at most
:data:`helpers.analysis.pipeline.MAX_CHUNK_ITEMS` papers, the same whatever the engine, workers or
``--partitions``, so the files are too. A link or statement row goes to its paper's part, and each part
keeps the CSV's row order: the parts read in name order are the CSV table, row for row. The bytes are
the same on every run (no timestamps; pyarrow's version is pinned).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from contextlib import nullcontext
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from helpers.analysis._parallel import MAX_CHUNK_ITEMS, partition_bounds
from helpers.analysis.spreadsheet import write_csv

__all__ = ["PARTITIONED_TABLES", "PartitionedTable", "output_partitions", "paper_parts", "write_partitioned_tables",
           "write_paper_parts"]

#: The per-paper tables written in parts (the others are a few rows per theme, term or group).
PARTITIONED_TABLES = ("papers", "links", "link_statements")
#: Parquet compression: zstd is supported by every current Parquet reader and smaller than snappy on text.
COMPRESSION = "zstd"


def output_partitions(n_papers: int, max_papers: int = MAX_CHUNK_ITEMS) -> list[tuple[int, int]]:
    """The papers' row ranges ``[start, stop)`` of the Parquet parts: as few as hold at most ``max_papers`` each.

    Parameters
    ----------
    n_papers : int
    max_papers : int, optional
        At most this many papers a part (default: the analysis's chunk size, 20,000).

    Returns
    -------
    list of (int, int)

    Examples
    --------
    >>> output_partitions(57), output_partitions(45_000), output_partitions(5, max_papers=2)
    ([(0, 57)], [(0, 15000), (15000, 30000), (30000, 45000)], [(0, 2), (2, 4), (4, 5)])
    """
    return partition_bounds(n_papers, -(-n_papers // max_papers))


def paper_parts(paper_ids: pd.Series, bounds: list[tuple[int, int]], rows: pd.Series) -> np.ndarray:
    """The part (index into ``bounds``) of each of ``rows``, the paper ids of a table's rows.

    Parameters
    ----------
    paper_ids : Series of str
        The papers in the order the bounds cut.
    bounds : list of (int, int)
        The parts' row ranges (:func:`output_partitions`).
    rows : Series of str
        The ``paper_id`` of each row of a table.

    Returns
    -------
    ndarray of int64

    Raises
    ------
    ValueError
        A row of a paper not in ``paper_ids`` (every link and statement belongs to a paper of the corpus).

    Examples
    --------
    >>> paper_parts(pd.Series(["a", "b", "c"]), [(0, 2), (2, 3)], pd.Series(["c", "a", "a"])).tolist()
    [1, 0, 0]
    """
    part_of_paper = np.zeros(len(paper_ids), dtype=np.int64)
    for index, (start, stop) in enumerate(bounds):
        part_of_paper[start:stop] = index
    position = pd.Index(paper_ids).get_indexer(rows)
    if (position < 0).any():
        raise ValueError(f"rows of papers not in the papers table: {sorted(set(rows[position < 0]))[:3]}")
    return part_of_paper[position]


def _write_part(table: pd.DataFrame, path: Path) -> None:
    import pyarrow as pa  # lazy: Parquet files only
    import pyarrow.parquet as pq  # lazy: Parquet files only

    pq.write_table(pa.Table.from_pandas(table, preserve_index=False), path, compression=COMPRESSION)


def _part_name(index: int) -> str:
    return f"part-{index:05d}.parquet"


@dataclass(frozen=True)
class PartitionedTable:
    """One table written in parts.

    Attributes
    ----------
    name : str
        Its folder's name (as the CSV, without ``.csv``).
    parts : tuple of str
        Its part files' names, in order.

    Examples
    --------
    >>> PartitionedTable("papers", ("part-00000.parquet",)).files
    ['papers/part-00000.parquet']
    """

    name: str
    parts: tuple[str, ...]

    @property
    def files(self) -> list[str]:
        """The part files relative to the output folder, e.g. ``["papers/part-00000.parquet"]``."""
        return [f"{self.name}/{part}" for part in self.parts]


def write_paper_parts(parts: Iterable[pd.DataFrame], folder: Path, csv_file: Path | None = None) -> PartitionedTable:
    """Write the papers table given in parts (those of :func:`output_partitions`, in order) as
    ``folder/papers/part-*.parquet`` and, with ``csv_file``, as one CSV file; one part in memory at a time.

    The CSV is byte for byte the whole table's ``to_csv(index=False, lineterminator="\\n")``.

    Parameters
    ----------
    parts : iterable of DataFrame
        The papers table's parts, in order.
    folder : Path
        The output folder.
    csv_file : Path, optional
        Where to write the whole table as CSV (formula-safe cells).

    Returns
    -------
    PartitionedTable

    Examples
    --------
    >>> import tempfile, pathlib, pandas as pd
    >>> folder = pathlib.Path(tempfile.mkdtemp(prefix="papers-"))
    >>> parts = [pd.DataFrame({"paper_id": ["a", "b"]}), pd.DataFrame({"paper_id": ["c"]})]
    >>> write_paper_parts(parts, folder, folder / "papers.csv").files
    ['papers/part-00000.parquet', 'papers/part-00001.parquet']
    >>> (folder / "papers.csv").read_text()
    'paper_id\\na\\nb\\nc\\n'
    """
    (Path(folder) / "papers").mkdir(parents=True, exist_ok=True)
    names = []
    with (open(csv_file, "w", encoding="utf-8", newline="") if csv_file is not None else nullcontext()) as handle:
        for index, part in enumerate(parts):
            names.append(_part_name(index))
            _write_part(part, Path(folder) / "papers" / names[-1])
            if handle is not None:
                write_csv(part, handle, header=index == 0)  # formula-safe cells (helpers.analysis.spreadsheet)
    return PartitionedTable("papers", tuple(names))


def write_partitioned_tables(tables: Mapping[str, pd.DataFrame], folder: Path, max_papers: int = MAX_CHUNK_ITEMS,
                             names: Sequence[str] = PARTITIONED_TABLES) -> list[PartitionedTable]:
    """Write the tables ``names`` (of :data:`PARTITIONED_TABLES`) of ``tables`` (names as
    :meth:`Analysis.tables`) into ``folder`` in parts.

    ``tables["papers"]`` sets the parts (:func:`output_partitions` of its rows, at most ``max_papers`` each,
    in its order); the other tables' rows follow their ``paper_id``. Every part is written, empty or not,
    so each table has the same part names.

    Parameters
    ----------
    tables : mapping of str to DataFrame
        The output tables by name (``papers`` among them).
    folder : Path
        The output folder.
    max_papers : int, optional
        At most this many papers a part.
    names : sequence of str, optional
        The tables to write in parts (default :data:`PARTITIONED_TABLES`).

    Returns
    -------
    list of PartitionedTable

    Raises
    ------
    ValueError
        When a table's rows are not grouped in the papers' order, so its parts would not read back as
        its CSV, or a row names a paper not in ``papers``.

    Examples
    --------
    >>> import tempfile, pathlib, pandas as pd
    >>> papers = pd.DataFrame({"paper_id": ["a", "b", "c"]})
    >>> links = pd.DataFrame({"paper_id": ["a", "c"], "url": ["https://x.org", "https://y.org"]})
    >>> written = write_partitioned_tables({"papers": papers, "links": links}, pathlib.Path(tempfile.mkdtemp()),
    ...                                    max_papers=2, names=("papers", "links"))
    >>> [table.files for table in written][1]
    ['links/part-00000.parquet', 'links/part-00001.parquet']
    """
    folder = Path(folder)
    papers = tables["papers"]
    bounds = output_partitions(len(papers), max_papers)
    part_names = tuple(_part_name(index) for index in range(len(bounds)))
    written = []
    for name in names:
        table = tables[name].reset_index(drop=True)
        parts = (np.repeat(np.arange(len(bounds)), [stop - start for start, stop in bounds]) if name == "papers"
                 else paper_parts(papers["paper_id"], bounds, table["paper_id"]))
        if len(parts) and (np.diff(parts) < 0).any():
            raise ValueError(f"{name}: rows are not in the papers' order, so its parts would not read as {name}.csv")
        (folder / name).mkdir(parents=True, exist_ok=True)
        # The rows are in part order (checked above), so each part is one slice of them.
        ends = np.searchsorted(parts, np.arange(len(bounds) + 1))
        for index, part in enumerate(part_names):
            _write_part(table.iloc[ends[index]:ends[index + 1]], folder / name / part)
        written.append(PartitionedTable(name, part_names))
    return written
