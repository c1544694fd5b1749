"""The landing page's sentences about the corpus: what it is, where it came from, what the book leaves out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from helpers.analysis.readers.detect import FORMAT_NAMES
from helpers.book.display import markdown_cell as md
from helpers.book.formatting import count, number
from helpers.book.build.title import analysis_name, file_formats
from helpers.book.build.toc import left_out

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["LEFT_OUT_REASONS", "format_names", "landing_sentences"]

#: What each chapter a build can leave out would have shown, and why it is left out.
LEFT_OUT_REASONS = {
    "chapters/change": ("*What changed* (themes, terms and links compared across years, venues or files) is left "
                        "out of this book: its papers form one group. Give papers of two years or more, or set "
                        "`BOOK_GROUP_BY` (`venue`, `file` or a column), to compare groups."),
}


def format_names(analysis: "Analysis") -> str:
    """The input formats of the corpus files, as words: "BibTeX and JSON Lines", "Web of Science plain text".

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (its files).

    Returns
    -------
    str

    Examples
    --------
    >>> import pandas as pd, tempfile, pathlib
    >>> from types import SimpleNamespace
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name, text in [("a.bib", ""), ("b.jsonl", ""), ("c.txt", "PMID- 1\\nTI  - T\\n"), ("d.txt", "Text.")]:
    ...     _ = (folder / name).write_text(text)
    >>> files = pd.DataFrame({"path": [str(folder / n) for n in ["a.bib", "b.jsonl", "c.txt", "d.txt"]]})
    >>> format_names(SimpleNamespace(corpus=SimpleNamespace(files=files)))
    'BibTeX, JSON Lines, PubMed MEDLINE and plain text'
    """
    seen: list[str] = []
    for kind in file_formats(analysis):
        name = "plain text" if kind == "seed" else FORMAT_NAMES[kind]
        if name not in seen:
            seen.append(name)
    if not seen:
        return "no readable file"
    return " and ".join([", ".join(seen[:-1]), seen[-1]] if len(seen) > 1 else seen)


def landing_sentences(analysis: "Analysis") -> dict[str, str]:
    """The landing page's Markdown about the corpus, by glue name (corpus text escaped).

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its name, files, headers and summary.

    Returns
    -------
    dict
        ``intro_corpus_sentence``, ``intro_corpus_paragraph`` and the landing page's other lines about the corpus.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> sentences = landing_sentences(run_pipeline([write_corpus({"a.txt": "Header line\\n\\nSoil erosion on steep slopes."})]))
    >>> sentences["intro_corpus_sentence"][:24]
    'This book reads the **1 '
    """
    name = analysis_name(analysis)
    summary = analysis.summary
    n_files = int(summary["files"])
    corpus_sentence = (f"This book reads the **{md(name.sentence_subject)}** ({count(n_files, 'file')} of "
                       f"{format_names(analysis)}) and reports what they are about, which terms travel together, "
                       "and how often their authors point readers to code and data.")
    headers = sorted({h for h in analysis.corpus.headers.values() if h})
    # One file's header reads; several files' headers read (never "the files' headers" of one file).
    whose = "The file's header reads" if n_files == 1 else ("The files' header reads" if len(headers) == 1
                                                            else "The files' headers read")
    header_text = (f" {whose} {'; '.join(f'*{md(h)}*' for h in headers)}." if headers else "")
    paragraph = (f"{count(int(summary['unique_papers']), 'distinct abstract')} from "
                 f"{count(int(summary['blocks']), 'block')} and entries in {count(n_files, 'file')}, every one "
                 f"accounted for in {{ref}}`sec-corpus-parse-report`.{header_text} Corpus SHA-256 "
                 f"`{summary['corpus_sha256'][:12]}`, helpers version {md(summary['helpers_version'])}.")
    left = " ".join(LEFT_OUT_REASONS[chapter] for chapter in left_out(analysis))
    from helpers.book.reports.findings import finding_pairs  # lazy: at the top it would load scipy and networkx

    pairs = finding_pairs(analysis)
    pairs_lead = (f"the strongest pairs of {number(pairs)} different communities of the term map, each with an "
                  "example paper of its own, are" if pairs != 1
                  else "the strongest pair of the term map is")
    return {"intro_corpus_sentence": corpus_sentence, "intro_corpus_paragraph": paragraph,
            "intro_left_out": left, "intro_pairs_lead": pairs_lead}
