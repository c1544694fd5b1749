"""The whole analysis as one function, shared by the CLI and the book.

:func:`run_pipeline` parses the corpus and runs every analysis stage; each
stage returns a frozen, typed result and :class:`Analysis` holds them all.
:func:`cached_pipeline` does the same but keeps the result on disk, keyed by
everything that changes a shown result (:func:`build_key`), so the book's
chapters compute it once per build instead of once per chapter.

The pipeline is the top of the analysis: it imports the stages (corpus, text, themes, term map, links,
change), and none of them imports it. A run flows down its modules once:

1. :mod:`.run`, :func:`run_pipeline`: the options of a run, the engine chosen once (this machine's cores, or a
   Dask cluster), each stage timed.
2. :mod:`.stages`: the stages (text, themes, terms, links, the papers table, the change between groups), each a
   function of the previous stages' results.
3. :mod:`.dask_engine`, :class:`~helpers.analysis.pipeline.dask_engine.ClusterStages`: the same stages on a Dask
   cluster, byte for byte (imported on its own, ``from helpers.analysis.pipeline.dask_engine import ...``: it
   needs ``dask.distributed``).
4. :mod:`.paper_texts`, :class:`PaperTexts`: the abstracts' texts apart from the papers table, in parts, read
   part by part.
5. :mod:`.results`: what the stages give, as frozen classes (:class:`Analysis` holds them all).
6. :mod:`.outputs`, :func:`write_outputs`: the output folder of ``analyse``, its per-paper tables also as
   Parquet parts (:mod:`.parquet_parts`).
7. :mod:`.cache`, :func:`cached_pipeline`: the book's run, kept on disk under :func:`build_key`.

How a run uses this machine: :func:`available_cores` (the cores this process may use), chunks of at most
:data:`MAX_CHUNK_ITEMS` items, and work in this process below :data:`MIN_PARALLEL_ITEMS` items.
"""

from helpers.analysis._parallel import MAX_CHUNK_ITEMS, MIN_PARALLEL_ITEMS, available_cores
from helpers.analysis.pipeline.cache import (
                                           build_key,
                                           cached_pipeline,
                                           corpus_files_fingerprint,
                                           dependency_closure,
                                           environment_fingerprint,
                                           source_fingerprint,
)
from helpers.analysis.pipeline.outputs import write_outputs
from helpers.analysis.pipeline.paper_texts import PaperTexts
from helpers.analysis.pipeline.results import Analysis, LinkTables, ThemesResult
from helpers.analysis.pipeline.run import run_pipeline
from helpers.analysis.settings import AnalysisSettings, EngineSettings, SettingsError

__all__ = [
    "run_pipeline", "Analysis", "ThemesResult",
    "LinkTables", "write_outputs", "build_key", "cached_pipeline", "source_fingerprint", "dependency_closure",
    "environment_fingerprint", "corpus_files_fingerprint", "AnalysisSettings", "EngineSettings", "SettingsError",
]
__all__ += ["available_cores", "MAX_CHUNK_ITEMS", "MIN_PARALLEL_ITEMS", "PaperTexts"]
