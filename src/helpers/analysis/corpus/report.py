"""The parse report: per file, its blocks by kind and what was cleaned; the papers under each header.

Every block of every file is a row of the corpus's ``blocks`` table; this report counts them, so a reader sees
that nothing was dropped without a row saying why.
"""

from __future__ import annotations

import pandas as pd

from helpers.analysis.corpus.tables import BLOCK_KINDS, CLEANING_COLUMNS, RECORD_KINDS, Corpus

__all__ = ["parse_report", "papers_per_header"]


def parse_report(corpus: Corpus) -> pd.DataFrame:
    """One row per file (plus a total row): how many blocks of each kind it holds.

    The ``blocks`` column equals the sum of the kind columns, so every block of
    every file is accounted for; skipped files appear with their problem. The kinds of
    bibliographic files (:data:`RECORD_KINDS`) have a column when some block has that kind, and so do the
    counts of :attr:`Corpus.cleaning` (:data:`CLEANING_COLUMNS`: publisher sentences and structured-abstract
    headings left out of the analysed texts, rows with an extra field, records merged into another paper)
    when some file has one.

    Parameters
    ----------
    corpus : Corpus

    Returns
    -------
    DataFrame
        ``source_file, status, file_header, blocks``, a column per kind, the cleaning counts and ``problem``.

    Examples
    --------
    >>> from helpers.analysis.corpus import read_corpus, write_corpus
    >>> folder = write_corpus({"a.txt": "Header\\n\\nOne two three four five.\\n\\nToo short.\\n"})
    >>> parse_report(read_corpus(folder))[["source_file", "blocks", "abstract", "too-short"]]
      source_file  blocks  abstract  too-short
    0       a.txt       3         1          1
    1       total       3         1          1
    """
    present = set(corpus.blocks["kind"])
    kind_columns = list(BLOCK_KINDS) + [kind for kind in RECORD_KINDS if kind in present]
    counts = (
        corpus.blocks.groupby(["source_file", "kind"]).size().unstack("kind", fill_value=0)
        .reindex(columns=kind_columns, fill_value=0)
    )
    files = corpus.files.rename(columns={"header": "file_header"})
    report = files[["source_file", "status", "file_header", "problem"]].merge(
        counts, left_on="source_file", right_index=True, how="left"
    )
    report[kind_columns] = report[kind_columns].fillna(0).astype("int64")
    report.insert(4, "blocks", report[kind_columns].sum(axis=1))
    total: dict[str, int | str] = {column: int(report[column].sum()) for column in ["blocks", *kind_columns]}
    total.update(source_file="total", status="", file_header="", problem="")
    report = pd.concat([report, pd.DataFrame([total])], ignore_index=True)
    report["file_header"] = report["file_header"].fillna("(none)")
    # What was left out of the analysed texts, tolerated or merged, per file: a column for each count not 0.
    cleaning = [name for name in CLEANING_COLUMNS if len(corpus.cleaning) and int(corpus.cleaning[name].sum())]
    if cleaning:
        per_file = corpus.cleaning.set_index("source_file")[cleaning]
        report = report.merge(per_file, left_on="source_file", right_index=True, how="left")
        report[cleaning] = report[cleaning].fillna(0).astype("int64")
        report.loc[report["source_file"] == "total", cleaning] = [int(per_file[name].sum()) for name in cleaning]
    return report[["source_file", "status", "file_header", "blocks", *kind_columns, *cleaning, "problem"]]


def papers_per_header(corpus: Corpus) -> pd.DataFrame:
    """Unique papers by file header (files without a header count under ``(none)``).

    Parameters
    ----------
    corpus : Corpus
        A corpus with its files' header lines (:attr:`Corpus.headers`).

    Returns
    -------
    DataFrame
        ``header, files, papers``, most papers first.

    Examples
    --------
    >>> from helpers.analysis.corpus import read_corpus, write_corpus
    >>> files = {"a.txt": "Poultry 2024\\n\\nLight and feed shape egg weight.", "b.txt": "Hens on litter gained weight."}
    >>> papers_per_header(read_corpus(write_corpus(files)))
             header  files  papers
    0        (none)      1       1
    1  Poultry 2024      1       1
    """
    headers = {name: header or "(none)" for name, header in corpus.headers.items()}
    table = corpus.papers.assign(header=corpus.papers["source_file"].map(headers))
    return (
        table.groupby("header").agg(files=("source_file", "nunique"), papers=("paper_id", "size"))
        .reset_index().sort_values(["papers", "header"], ascending=[False, True], ignore_index=True)
    )
