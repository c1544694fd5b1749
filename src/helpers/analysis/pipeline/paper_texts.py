"""The papers' abstract texts, kept apart from the papers table and read part by part.

A million abstracts are about a gigabyte of text. The analysis needs them only where the words are
counted (the text, term and link stages, on the workers of the dask engine); the papers table, the
book's pages and the cache hold everything else. :class:`PaperTexts` holds the texts in the parts of
:func:`helpers.analysis.pipeline.parquet_parts.output_partitions` (consecutive papers in corpus order), in memory
(the local engine, while it runs) or as one Parquet file per part in a folder (the dask engine, whose
workers send the parts one at a time, and the book's cache): a reader takes one part or a few papers
(:meth:`PaperTexts.take`) and never has to hold them all.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np
import pandas as pd

from helpers.analysis._parallel import MAX_CHUNK_ITEMS
from helpers.analysis.pipeline.parquet_parts import COMPRESSION, output_partitions

__all__ = ["TEXT_PART", "PaperTexts"]

#: A part file's name in a folder of texts.
TEXT_PART = "texts-{:05d}.parquet"


def _write_text_part(texts: Sequence[str], path: Path) -> None:
    import pyarrow as pa  # lazy: Parquet files only
    import pyarrow.parquet as pq  # lazy: Parquet files only

    pq.write_table(pa.table({"text": pa.array(list(texts), type=pa.string())}), path, compression=COMPRESSION)


def _read_text_part(path: Path) -> list[str]:
    import pyarrow.parquet as pq  # lazy: Parquet files only

    return pq.read_table(path, columns=["text"]).column("text").to_pylist()


@dataclass(frozen=True, eq=False)
class PaperTexts:
    """The papers' texts in parts, in memory or as Parquet files, read part by part.

    Make one with :meth:`in_memory` or :meth:`write`; :meth:`saved` writes the memory ones to a
    folder (what the book's cache pickles is then the folder's name, not the texts).

    Attributes
    ----------
    paper_ids : Index
        The papers, in corpus order.
    bounds : tuple of (int, int)
        The parts' row ranges (:func:`helpers.analysis.pipeline.parquet_parts.output_partitions`).
    memory : tuple of tuple of str, or None
        Each part's texts, when they are held in this process.
    folder : Path or None
        Where one :data:`TEXT_PART` file per part is, when they are on disk.

    Examples
    --------
    >>> texts = PaperTexts.in_memory(["a", "b", "c"], ["first", "second", "third"], max_papers=2)
    >>> len(texts), texts.bounds, texts.part(1)
    (3, ((0, 2), (2, 3)), ['third'])
    >>> texts.take(["c", "a"])
    ['third', 'first']
    """

    paper_ids: pd.Index
    bounds: tuple[tuple[int, int], ...]
    memory: tuple[tuple[str, ...], ...] | None = None
    folder: Path | None = None
    _cleanup: object = field(default=None, repr=False, compare=False)

    @classmethod
    def in_memory(cls, paper_ids: Sequence[str], texts: Sequence[str], max_papers: int = MAX_CHUNK_ITEMS
                  ) -> "PaperTexts":
        """The texts held in this process, cut in parts of at most ``max_papers`` papers.

        Parameters
        ----------
        paper_ids : sequence of str
        texts : sequence of str
            The papers' texts, in the order of ``paper_ids``.
        max_papers : int, optional

        Returns
        -------
        PaperTexts
        """
        bounds = tuple(output_partitions(len(paper_ids), max_papers))
        texts = list(texts)
        return cls(pd.Index(paper_ids), bounds, memory=tuple(tuple(texts[a:b]) for a, b in bounds))

    @classmethod
    def write(cls, paper_ids: Sequence[str], parts: Iterable[Sequence[str]], folder: Path | None = None,
              bounds: Sequence[tuple[int, int]] | None = None) -> "PaperTexts":
        """Write ``parts`` (each part's texts, in the order of ``bounds``, by default :func:`helpers.analysis.pipeline.parquet_parts.output_partitions`)
        one at a time to ``folder``.

        Without a folder, a temporary one is made and removed when the object is no longer used.

        Parameters
        ----------
        paper_ids : sequence of str
        parts : iterable of sequence of str
            Each part's texts, in order (read one at a time).
        folder : Path, optional
        bounds : sequence of (int, int), optional

        Returns
        -------
        PaperTexts

        Raises
        ------
        ValueError
            When a part does not hold its range's number of texts.
        """
        bounds = tuple(output_partitions(len(paper_ids)) if bounds is None else ((start, end) for start, end in bounds))
        temporary = folder is None
        if folder is None:
            folder = Path(tempfile.mkdtemp(prefix="helpers-texts-"))
        folder.mkdir(parents=True, exist_ok=True)
        written = 0
        for index, texts in enumerate(parts):
            start, stop = bounds[index]
            if len(texts) != stop - start:
                raise ValueError(f"text part {index} holds {len(texts)} texts, not {stop - start}")
            _write_text_part(texts, folder / TEXT_PART.format(index))
            written += 1
        if written != len(bounds):
            raise ValueError(f"{written} text parts written, not {len(bounds)}")
        made = cls(pd.Index(paper_ids), bounds, folder=folder)
        if temporary:
            object.__setattr__(made, "_cleanup", weakref.finalize(made, shutil.rmtree, folder, True))
        return made

    def __len__(self) -> int:
        return len(self.paper_ids)

    def __getstate__(self) -> dict:
        # A temporary folder dies with its object: a pickled copy must carry the texts instead.
        if self._cleanup is not None:
            return dict(paper_ids=self.paper_ids, bounds=self.bounds, memory=tuple(map(tuple, self.parts())),
                        folder=None, _cleanup=None)
        return dict(paper_ids=self.paper_ids, bounds=self.bounds, memory=self.memory, folder=self.folder,
                    _cleanup=None)

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def part(self, index: int) -> list[str]:
        """The texts of part ``index`` (papers ``bounds[index]``)."""
        if self.memory is not None:
            return list(self.memory[index])
        assert self.folder is not None, "texts are either in memory or in a folder"
        return _read_text_part(self.folder / TEXT_PART.format(index))

    def parts(self) -> Iterator[list[str]]:
        """Each part's texts in order, one part in memory at a time."""
        for index in range(len(self.bounds)):
            yield self.part(index)

    def take(self, paper_ids: Sequence[str]) -> list[str]:
        """The texts of ``paper_ids`` (in that order), reading only the parts that hold them.

        Raises
        ------
        KeyError
            When a paper id is not one of :attr:`paper_ids`.
        """
        positions = self.paper_ids.get_indexer(pd.Index(paper_ids))
        if (positions < 0).any():
            raise KeyError(f"papers without a text: {list(pd.Index(paper_ids)[positions < 0][:3])}")
        starts = np.array([start for start, _ in self.bounds], dtype=np.int64)
        part_of = np.searchsorted(starts, positions, side="right") - 1
        found: list[str] = [""] * len(positions)
        for index in np.unique(part_of):
            texts = self.part(int(index))
            offset = self.bounds[int(index)][0]
            for slot in np.flatnonzero(part_of == index):
                found[slot] = texts[positions[slot] - offset]
        return found

    def saved(self, folder: Path) -> "PaperTexts":
        """The same texts as part files in ``folder`` (written aside and renamed, so a folder is whole or absent)."""
        folder = Path(folder)
        if folder.exists():
            shutil.rmtree(folder)
        partial = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
        saved = PaperTexts.write(list(self.paper_ids), self.parts(), partial, bounds=self.bounds)
        os.replace(partial, folder)
        return PaperTexts(saved.paper_ids, saved.bounds, folder=folder)

