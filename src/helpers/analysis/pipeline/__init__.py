"""The whole analysis as one function, shared by the CLI and the book.

:func:`run_pipeline` parses the corpus and runs every analysis stage; each
stage returns a frozen, typed result and :class:`Analysis` holds them all.
The book keeps the result on disk (:mod:`helpers.book.cache`), so its
chapters compute it once per build instead of once per chapter.

A run flows down its modules once:

1. :mod:`.run`, :func:`run_pipeline`: the options of a run (:class:`RunOptions`), the engine chosen once
   (:class:`LocalStages` or :class:`DaskStages`), each stage timed (:class:`StageClock`).
2. :mod:`.stages`: the stages (text, themes, terms, links, the papers table, the change between groups), each a
   function of the previous stages' results.
3. :mod:`.results`: what they give, as frozen classes (:class:`Analysis` holds them all).
4. :mod:`.outputs`, :func:`write_outputs`: the output folder of ``analyse``.
"""

from helpers.analysis.pipeline.outputs import write_outputs
from helpers.analysis.pipeline.results import Analysis, LinkTables, ThemesResult
from helpers.analysis.pipeline.run import RunOptions, StageClock, run_pipeline, run_stages
from helpers.analysis.pipeline.stages import (
                                            DaskStages,
                                            LocalStages,
                                            StageEngine,
                                            ThemeStage,
                                            analyse_group_change,
                                            analyse_hierarchy,
                                            analyse_link_tables,
                                            analyse_terms,
                                            analyse_text,
                                            detach_texts,
                                            local_token_partitions,
                                            paper_table,
                                            start_theme_stage,
)
from helpers.analysis.settings import AnalysisSettings, EngineSettings, SettingsError

__all__ = [
    "run_pipeline", "run_stages", "RunOptions", "StageClock", "StageEngine", "LocalStages", "DaskStages",
    "analyse_text", "detach_texts", "local_token_partitions", "ThemeStage", "start_theme_stage",
    "analyse_terms", "analyse_link_tables", "analyse_hierarchy", "paper_table", "analyse_group_change", "Analysis", "ThemesResult",
    "LinkTables", "write_outputs", "AnalysisSettings", "EngineSettings", "SettingsError",
]

