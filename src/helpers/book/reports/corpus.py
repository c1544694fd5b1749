"""What the corpus chapter shows: its glued values, the length figure, a sample formula, duplicates."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pandas as pd

from helpers.analysis.corpus import MAX_HEADER_WORDS, MIN_ABSTRACT_WORDS, Corpus

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from helpers.analysis.pipeline import Analysis
    from helpers.analysis.texts import PaperTexts

LENGTH_BINS = 15
_INLINE_MATH = re.compile(r"\$([^$]+)\$")
#: Texts read at a time while looking for the first formula.
FORMULA_BATCH = 1_000


def corpus_findings(analysis: "Analysis") -> dict[str, Any]:
    """Every value the corpus chapter glues, by glue name."""
    corpus, summary = analysis.corpus, analysis.summary
    papers = corpus.papers
    words = papers["n_words"]
    return {
        "n_files": summary["files"],
        "n_blocks": summary["blocks"],
        "n_headers": summary["headers"],
        "n_abstract_blocks": summary["abstracts"],
        "n_papers": summary["unique_papers"],
        "n_duplicates": summary["duplicates"],
        "n_too_short": summary["too_short"],
        "n_skipped": summary["skipped_files"],
        "n_distinct_headers": len({h for h in corpus.headers.values() if h}),
        "n_latex": int(papers["has_latex"].sum()),
        "n_markdown": int(papers["has_markdown"].sum()),
        "median_words": int(words.median()) if len(words) else 0,
        "min_words": int(words.min()) if len(words) else 0,
        "max_words": int(words.max()) if len(words) else 0,
        "corpus_sha_prefix": summary["corpus_sha256"][:12],
        "min_abstract_words": MIN_ABSTRACT_WORDS,
        "max_header_words": MAX_HEADER_WORDS,
        "length_bins": LENGTH_BINS,
    }


def record_note(corpus: Corpus) -> str:
    """A Markdown paragraph on the entries of bibliographic files (BibTeX, RIS, CSV, TSV, JSON Lines); ``""`` without any.

    Examples
    --------
    >>> blocks = pd.DataFrame({"kind": ["proceedings", "abstract", "no-abstract", "abstract"], "key": ["P", "a", "b", "c"]})
    >>> note = record_note(Corpus(papers=pd.DataFrame(), blocks=blocks, files=pd.DataFrame()))
    >>> "1 entry has no abstract" in note, "1 is a `@Proceedings` entry" in note
    (True, True)
    >>> record_note(Corpus(papers=pd.DataFrame(), blocks=pd.DataFrame({"kind": ["abstract"]}), files=pd.DataFrame()))
    ''
    """
    if "key" not in corpus.blocks:
        return ""
    kinds = corpus.blocks["kind"].value_counts()
    count = lambda kind: int(kinds.get(kind, 0))  # noqa: E731
    def entries(n: int, one: str, many: str) -> str:
        return f"{n:,} {one if n == 1 else many}"

    parts = [entries(count("no-abstract"), "entry has", "entries have") + " no abstract (kind `no-abstract`, left out "
             "of the analysis)"]
    if count("proceedings"):
        parts.append(entries(count("proceedings"), "is a `@Proceedings` entry", "are `@Proceedings` entries")
                     + " (kind `proceedings`), whose year and venue go to the papers without their own")
    if count("other"):
        parts.append(entries(count("other"), "is another BibTeX block", "are other BibTeX blocks")
                     + " (`@string`, `@preamble`, comments: kind `other`)")
    merged = corpus.merges["matched_by"].value_counts() if len(corpus.merges) else pd.Series(dtype=int)
    if len(merged):
        ways = ", ".join(f"{int(n):,} by {by}" for by, n in merged.items())
        parts.append(entries(len(corpus.merges), "record is", "records are") + f" merged into another record of the "
                     f"same paper ({ways}; the record with the most metadata is kept; `merges.csv` lists them)")
    cleaned = {name: int(corpus.cleaning[name].sum()) for name in ("boilerplate_sentences", "structured_headings")
               if len(corpus.cleaning)}
    if any(cleaned.values()):
        parts.append(f"{cleaned['boilerplate_sentences']:,} publisher sentences (copyright and licence statements) "
                     f"and {cleaned['structured_headings']:,} structured-abstract headings are left out of the "
                     "analysed texts; the explorer shows the abstracts as published")
    return ("Each entry of a bibliographic file (BibTeX, RIS, CSV, TSV or JSON Lines) is one block, its lines "
            "those of the entry in the file, its `key` the entry's key; " + "; ".join(parts) + ". Their LaTeX "
            "(`{B}ayesian`, accents, `--`) is decoded for display; math is kept as written.")


def length_figure(papers: pd.DataFrame, corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """Histogram of words per abstract (:data:`LENGTH_BINS` bins), stacked by source file, median dashed."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    data = papers[["paper_id", "source_file", "n_words"]].sort_values("paper_id").reset_index(drop=True)
    figure, axis = plt.subplots(figsize=(7, 3.5))
    sns.histplot(data=data, x="n_words", hue="source_file", multiple="stack", bins=LENGTH_BINS, ax=axis,
                 palette="colorblind", legend=data["source_file"].nunique() <= 12)
    if len(data):
        axis.axvline(data["n_words"].median(), color="black", linestyle="--", linewidth=1)
    axis.set(xlabel="Words per abstract", ylabel="Abstracts", title=f"Abstract length, {corpus_label} (dashed: median)")
    figure.tight_layout()
    return figure, data


def first_formula(papers: pd.DataFrame, texts: "PaperTexts | None" = None) -> str | None:
    """The first ``$...$`` formula of the corpus, or ``None``.

    ``papers`` holds the texts, or ``texts`` (:class:`helpers.analysis.texts.PaperTexts`) does: then only the
    texts of papers with LaTeX (``has_latex``) are read, a few at a time, until one has a formula.

    Examples
    --------
    >>> first_formula(pd.DataFrame({"text": ["no math", "with $x^2$ and $y$"]}))
    'x^2'
    >>> from helpers.analysis.texts import PaperTexts
    >>> first_formula(pd.DataFrame({"paper_id": ["a", "b"], "has_latex": [False, True]}),
    ...               PaperTexts.in_memory(["a", "b"], ["$a$ unmarked", "with $b$"]))
    'b'
    """
    if texts is None:
        candidates = papers["text"]
    else:
        with_latex = papers.loc[papers["has_latex"], "paper_id"].tolist()
        candidates = (text for start in range(0, len(with_latex), FORMULA_BATCH)
                      for text in texts.take(with_latex[start:start + FORMULA_BATCH]))
    for text in candidates:
        match = _INLINE_MATH.search(text)
        if match:
            return match.group(1)
    return None


def duplicate_table(corpus: Corpus) -> pd.DataFrame:
    """Each duplicate block with where its paper first occurs: ``source_file, block, first_line, paper_id, locations``."""
    duplicates = corpus.blocks[corpus.blocks["kind"] == "duplicate"]
    return duplicates.merge(corpus.papers[["paper_id", "locations"]], on="paper_id")[
        ["source_file", "block", "first_line", "paper_id", "locations"]]
