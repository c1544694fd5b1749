"""The output folder of ``analyse``: every table as CSV, the per-paper ones also as Parquet parts, the
network files (the term map's, and the keyword map's as ``keyword_network.json``, ...) and ``summary.json``.

What a researcher takes away to a spreadsheet, VOSviewer, Gephi or their own code; the same bytes on every run.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers.analysis.pipeline.parquet_parts import write_paper_parts, write_partitioned_tables
from helpers.analysis.pipeline.results import Analysis
from helpers.analysis.spreadsheet import write_csv

__all__ = ["write_outputs"]


def write_outputs(analysis: Analysis, folder: Path) -> list[str]:
    """Write the tables as CSV, the per-paper ones also as Parquet parts, the network files and ``summary.json``.

    The abstracts' texts are read one part at a time (:meth:`Analysis.paper_parts`).

    Parameters
    ----------
    analysis : Analysis
    folder : Path
        An existing folder (``analyse --out`` swaps it in whole: :mod:`helpers.analysis.output_folder`).

    Returns
    -------
    list of str
        The files written, relative to ``folder``: the tables' CSV files, their Parquet parts
        (:func:`helpers.analysis.pipeline.parquet_parts.write_partitioned_tables`), the network files, a starter
        theme file (``theme_names.tsv``) when there are themes, and ``summary.json``.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> folder = write_corpus({"a.txt": "Cover crops kept more water in the soil of dry fields."})
    >>> written = write_outputs(run_pipeline([folder], n_jobs=1), folder)
    >>> written[0], "papers/part-00000.parquet" in written, written[-1]
    ('papers.csv', True, 'summary.json')
    """
    # Lazy: at the top it would load scipy and networkx.
    from helpers.analysis.cooccurrence.exporters import network_writers
    # The papers table, with every abstract's text, is written one part at a time.
    papers = write_paper_parts(analysis.paper_parts(), folder, folder / "papers.csv")
    written = ["papers.csv"]
    tables = analysis.tables(with_papers=False)
    for name, table in tables.items():
        write_csv(table, folder / f"{name}.csv")
        written.append(f"{name}.csv")
    written.extend(papers.files)
    for partitioned in write_partitioned_tables(dict(tables, papers=analysis.papers), folder,
                                                names=("links", "link_statements")):
        written.extend(partitioned.files)
    for name, writer in network_writers(analysis.cooccurrence).items():
        writer(folder / name)
        written.append(name)
    if analysis.themes.naming is not None:  # a starter theme file for these themes (helpers.analysis.themes.naming)
        from helpers.analysis.themes.naming import starter_text  # lazy: keeps this module's import light

        (folder / "theme_names.tsv").write_text(starter_text(analysis.themes.naming), encoding="utf-8")
        written.append("theme_names.tsv")
    if analysis.has_keywords and analysis.keywords is not None:  # the keyword map's files, named "keyword_..."
        for name, writer in network_writers(analysis.keywords.network).items():
            writer(folder / f"keyword_{name}")
            written.append(f"keyword_{name}")
    (folder / "summary.json").write_text(json.dumps(analysis.summary, indent=2, sort_keys=True) + "\n")
    written.append("summary.json")
    return written
