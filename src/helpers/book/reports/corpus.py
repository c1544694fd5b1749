"""What the corpus chapter shows: its glued values, the length figure, a sample formula, duplicates."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pandas as pd

from helpers.analysis.corpus import MAX_HEADER_WORDS, MIN_ABSTRACT_WORDS, Corpus
from helpers.analysis.corpus import BLOCK_KINDS, RECORD_KINDS, parse_report
from helpers.book.formatting import count, number, plural
from helpers.book.reports import drawing

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from helpers.analysis.pipeline import Analysis
    from helpers.analysis.pipeline.paper_texts import PaperTexts

LENGTH_BINS = 15
_INLINE_MATH = re.compile(r"\$([^$]+)\$")
#: Texts read at a time while looking for the first formula.
FORMULA_BATCH = 1_000


def _holding(n: int) -> str:
    """ "1 abstract contains", "3 abstracts contain": the subject and verb of a sentence about markup."""
    return f"{count(n, 'abstract')} {plural('contains', n)}"


def markup_paragraph(papers: pd.DataFrame, formula: str | None) -> str:
    """The paragraph on LaTeX and Markdown in the abstracts (Markdown): one sentence when there is none; else how
    many abstracts hold each, and, when there is a ``formula`` (:func:`first_formula`), the words that show it.

    Examples
    --------
    >>> none = pd.DataFrame({"has_latex": [False], "has_markdown": [False]})
    >>> print(markup_paragraph(none, None))
    No abstract contains LaTeX (such as `$\\pi(x)$`) or Markdown markup (such as `*emphasis*` or `[text](url)`).
    >>> print(markup_paragraph(none.assign(has_latex=True), None))  # doctest: +NORMALIZE_WHITESPACE
    1 abstract contains LaTeX (such as `$\\pi(x)$`) and 0 abstracts contain Markdown markup (such as `*emphasis*`
    or `[text](url)`). Both are kept in the stored text and removed only when the analysis text is prepared. No
    abstract contains `$...$` math to show.
    """
    n_latex, n_markdown = int(papers["has_latex"].sum()), int(papers["has_markdown"].sum())
    latex, markdown = "LaTeX (such as `$\\pi(x)$`)", "Markdown markup (such as `*emphasis*` or `[text](url)`)"
    if not n_latex and not n_markdown:
        return f"No abstract contains {latex} or {markdown}."
    paragraph = (f"{_holding(n_latex)} {latex} and {_holding(n_markdown)} {markdown}. Both are kept in the stored "
                 "text and removed only when the analysis text is prepared.")
    if formula is None:
        return paragraph + " No abstract contains `$...$` math to show."
    return paragraph + (" Math renders in the book with a locally served MathJax; for example, the first formula in "
                        "the corpus with an operator:")


def corpus_sentences(corpus: Corpus, formula: str | None) -> dict[str, str]:
    """The corpus chapter's sentences, by glue name (Markdown): the parse report, the headers, the markup."""
    return {"corpus_parse_sentence": parse_sentence(corpus), "corpus_headers_sentence": headers_sentence(corpus),
            "corpus_markup_paragraph": markup_paragraph(corpus.papers, formula)}


def corpus_findings(analysis: "Analysis") -> dict[str, Any]:
    """Every value the corpus chapter glues, by glue name (the counts of the parse are in its table and sentence)."""
    corpus, summary = analysis.corpus, analysis.summary
    papers = corpus.papers
    words = papers["n_words"]
    return {
        "median_words": int(words.median()) if len(words) else 0,
        "min_words": int(words.min()) if len(words) else 0,
        "max_words": int(words.max()) if len(words) else 0,
        "corpus_sha_prefix": summary["corpus_sha256"][:12],
        "min_abstract_words": MIN_ABSTRACT_WORDS,
        "max_header_words": MAX_HEADER_WORDS,
        "length_bins": LENGTH_BINS,
    }


def headers_sentence(corpus: Corpus) -> str:
    """What the files' headers are, in one sentence that agrees with how many files and headers there are.

    Examples
    --------
    >>> def sentence(*headers):
    ...     files = pd.DataFrame({"source_file": [f"{i}.txt" for i in range(len(headers))], "status": "ok",
    ...                           "header": list(headers)})
    ...     return headers_sentence(Corpus(papers=pd.DataFrame(), blocks=pd.DataFrame(), files=files))
    >>> sentence(None, None)
    'No file here has one.'
    >>> sentence("ICML", "ICML 论文")
    'The 2 files use 2 distinct headers, in whatever language they are written; the analysis treats them alike.'
    >>> sentence("ICML", None), sentence("Clarivate Analytics Web of Science")
    ('Of the 2 files, 1 has one.', 'The file has one, shown below.')
    """
    n_files = len(corpus.headers)
    with_header = [h for h in corpus.headers.values() if h]
    if not with_header:
        return "No file here has one."
    if n_files == 1:
        return "The file has one, shown below."
    if len(with_header) < n_files:
        return f"Of the {count(n_files, 'file')}, {number(len(with_header))} {plural('has', len(with_header))} one."
    return (f"The {count(n_files, 'file')} use {count(len(set(with_header)), 'distinct header')}, in whatever "
            "language they are written; the analysis treats them alike.")


def record_note(corpus: Corpus) -> str:
    """A Markdown paragraph on the records of database exports and entries of bibliographic files (BibTeX, RIS, CSV,
    TSV, JSON Lines); ``""`` without any.

    Examples
    --------
    >>> blocks = pd.DataFrame({"kind": ["proceedings", "abstract", "no-abstract", "abstract"], "key": ["P", "a", "b", "c"]})
    >>> note = record_note(Corpus(papers=pd.DataFrame(), blocks=blocks, files=pd.DataFrame()))
    >>> "1 entry has no abstract" in note, "1 is a proceedings volume's own record" in note
    (True, True)
    >>> record_note(Corpus(papers=pd.DataFrame(), blocks=pd.DataFrame({"kind": ["abstract"]}), files=pd.DataFrame()))
    ''
    """
    if "key" not in corpus.blocks:
        return ""
    kinds = corpus.blocks["kind"].value_counts()
    n_kind = lambda kind: int(kinds.get(kind, 0))  # noqa: E731
    def entries(n: int, one: str, many: str) -> str:
        return f"{n:,} {one if n == 1 else many}"

    parts = [entries(n_kind("no-abstract"), "entry has", "entries have") + " no abstract (kind `no-abstract`, left out "
             "of the analysis)"]
    if n_kind("boilerplate-only"):
        parts.append(entries(n_kind("boilerplate-only"), "entry's abstract is", "entries' abstracts are")
                     + " only a publisher's copyright or licence statement (kind `boilerplate-only`, left out of the "
                     "analysis)")
    if n_kind("proceedings"):
        parts.append(entries(n_kind("proceedings"), "is a proceedings volume's own record", "are proceedings volumes' "
                     "own records") + " (kind `proceedings`: a `@Proceedings` entry, whose year and venue go to the "
                     "papers without their own, or a record whose text lists the volume's papers; left out of the "
                     "analysis)")
    if n_kind("other"):
        parts.append(entries(n_kind("other"), "is another BibTeX block", "are other BibTeX blocks")
                     + " (`@string`, `@preamble`, comments: kind `other`)")
    merged = corpus.merges["matched_by"].value_counts() if len(corpus.merges) else pd.Series(dtype=int)
    if len(merged):
        ways = ", ".join(f"{int(n):,} by {by}" for by, n in merged.items())
        parts.append(entries(len(corpus.merges), "record is", "records are") + f" merged into another record of the "
                     f"same paper ({ways}; the record with the most metadata is kept; `merges.csv` lists them)")
    cleaned = {name: int(corpus.cleaning[name].sum()) for name in ("boilerplate_sentences", "structured_headings")
               if len(corpus.cleaning)}
    if any(cleaned.values()):
        parts.append(f"{count(cleaned['boilerplate_sentences'], 'publisher sentence')} (copyright and licence "
                     f"statements) and {count(cleaned['structured_headings'], 'structured-abstract heading')} are "
                     "left out of the analysed texts; the explorer shows the abstracts as published")
    return ("Each record of a database export (Web of Science, Scopus, PubMed and the others) or entry of a "
            "bibliographic file (BibTeX, RIS, CSV, TSV or JSON Lines) is one block, its lines "
            "those of the entry in the file, its `key` the entry's key; " + "; ".join(parts) + ". Their LaTeX "
            "(`{B}ayesian`, accents, `--`) is decoded for display; math is kept as written.")


def length_figure(papers: pd.DataFrame, corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """Histogram of words per abstract (:data:`LENGTH_BINS` bins), stacked by source file, median dashed."""
    import seaborn as sns  # lazy: slow to import

    data = papers[["paper_id", "source_file", "n_words"]].sort_values("paper_id").reset_index(drop=True)
    figure, axis = drawing.column_subplots(3.3)
    sns.histplot(data=data, x="n_words", hue="source_file", multiple="stack", bins=LENGTH_BINS, ax=axis,
                 palette="colorblind", legend=data["source_file"].nunique() <= 12)
    if len(data):
        axis.axvline(data["n_words"].median(), color="black", linestyle="--", linewidth=1)
    axis.set(xlabel="Words per abstract", ylabel="Abstracts")
    drawing.set_title(figure, f"Abstract length, {corpus_label} (dashed: median)")
    return drawing.finish(figure), data


#: An example formula has at least this many characters (spaces aside) and an operator (:func:`is_example_formula`).
MIN_FORMULA_CHARS = 3
_OPERATOR = re.compile(r"[=<>+\-*/^_|]|\\(?:frac|sqrt|sum|prod|int|in|le|ge|leq|geq|neq|cdot|times|approx|sim|to)"
                       r"(?![A-Za-z])")


def is_example_formula(formula: str) -> bool:
    r"""Whether a formula shows what math looks like: :data:`MIN_FORMULA_CHARS` characters or more and an
    operator or relation (not a lone symbol such as ``k`` or ``\alpha``).

    Examples
    --------
    >>> is_example_formula("k"), is_example_formula(r"\alpha"), is_example_formula("x^2"), is_example_formula(r"x \in S")
    (False, False, True, True)
    """
    return len("".join(formula.split())) >= MIN_FORMULA_CHARS and bool(_OPERATOR.search(formula))


def first_formula(papers: pd.DataFrame, texts: "PaperTexts | None" = None) -> str | None:
    """The corpus's first ``$...$`` formula that :func:`is_example_formula`, else its first formula, or ``None``.

    ``papers`` holds the texts, or ``texts`` (:class:`helpers.analysis.pipeline.paper_texts.PaperTexts`) does: then only the
    texts of papers with LaTeX (``has_latex``) are read, a few at a time, until one has an example formula.

    Examples
    --------
    >>> first_formula(pd.DataFrame({"text": ["no math", "with $k$, then $x^2$ and $y$"]}))
    'x^2'
    >>> from helpers.analysis.pipeline.paper_texts import PaperTexts
    >>> first_formula(pd.DataFrame({"paper_id": ["a", "b"], "has_latex": [False, True]}),
    ...               PaperTexts.in_memory(["a", "b"], ["$a+1$ unmarked", "with $b$"]))
    'b'
    """
    if texts is None:
        candidates = papers["text"]
    else:
        with_latex = papers.loc[papers["has_latex"], "paper_id"].tolist()
        candidates = (text for start in range(0, len(with_latex), FORMULA_BATCH)
                      for text in texts.take(with_latex[start:start + FORMULA_BATCH]))
    first = None
    for text in candidates:
        for match in _INLINE_MATH.finditer(text):
            if is_example_formula(match.group(1)):
                return match.group(1)
            first = match.group(1) if first is None else first
    return first


def duplicate_table(corpus: Corpus) -> pd.DataFrame:
    """Each duplicate block with where its paper first occurs: ``source_file, block, first_line, paper_id, locations``."""
    duplicates = corpus.blocks[corpus.blocks["kind"] == "duplicate"]
    return duplicates.merge(corpus.papers[["paper_id", "locations"]], on="paper_id")[
        ["source_file", "block", "first_line", "paper_id", "locations"]]


#: How the parse report's sentence names each kind of block, singular and plural (the noun inflected is the
#: phrase's head, never its last word: "blocks too short to be abstracts", "entries without an abstract").
KIND_PHRASES = {
    "header": ("header", "headers"), "abstract": ("abstract", "abstracts"),
    "duplicate": ("repeat of an earlier abstract", "repeats of an earlier abstract"),
    "too-short": ("block too short to be an abstract", "blocks too short to be abstracts"),
    "no-abstract": ("entry without an abstract", "entries without an abstract"),
    "boilerplate-only": ("boilerplate-only abstract", "boilerplate-only abstracts"),
    "proceedings": ("proceedings-volume record", "proceedings-volume records"),
    "other": ("other entry (`@string`, `@preamble`, comments)", "other entries (`@string`, `@preamble`, comments)"),
}


def parse_sentence(corpus: Corpus) -> str:
    """The parse report in one Markdown sentence whose parts add up to every block read.

    Examples
    --------
    >>> blocks = pd.DataFrame({"kind": ["proceedings", "abstract", "abstract", "no-abstract", "duplicate"]})
    >>> files = pd.DataFrame({"source_file": ["a.bib"], "status": ["ok"]})
    >>> print(parse_sentence(Corpus(papers=pd.DataFrame({"x": [1, 2]}), blocks=blocks, files=files)))
    The book read 1 file holding 5 blocks and entries: 3 abstracts (1 of them a repeat of an earlier abstract), 1 entry without an abstract and 1 proceedings-volume record. That leaves 2 distinct papers for the analysis.
    >>> blocks = pd.DataFrame({"kind": ["abstract", "no-abstract", "no-abstract", "too-short", "too-short"]})
    >>> print(parse_sentence(Corpus(papers=pd.DataFrame({"x": [1]}), blocks=blocks, files=files)))
    The book read 1 file holding 5 blocks and entries: 1 abstract, 2 blocks too short to be abstracts and 2 entries without an abstract. That leaves 1 distinct paper for the analysis.
    """
    kinds = corpus.blocks["kind"].value_counts()
    n_files = int((corpus.files["status"] == "ok").sum())
    n_abstracts = int(kinds.get("abstract", 0) + kinds.get("duplicate", 0))
    parts = []
    for kind in (*BLOCK_KINDS, *RECORD_KINDS):
        if kind == "duplicate":
            continue
        n = n_abstracts if kind == "abstract" else int(kinds.get(kind, 0))
        if n == 0 and kind not in ("abstract",):
            continue
        singular, plural_form = KIND_PHRASES[kind]
        phrase = count(n, singular, plural_form=plural_form)
        if kind == "abstract" and kinds.get("duplicate", 0):
            phrase += f" ({number(int(kinds['duplicate']))} of them a repeat of an earlier abstract)"
        parts.append(phrase)
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    sentence = (f"The book read {count(n_files, 'file')} holding {count(int(len(corpus.blocks)), 'block')} and "
                f"entries: {listed}. That leaves {count(len(corpus.papers), 'distinct paper')} for the analysis.")
    skipped = getattr(corpus, "skipped_files", [])
    if len(skipped):
        sentence += f" {count(len(skipped), 'file')} {'was' if len(skipped) == 1 else 'were'} skipped (see the table)."
    return sentence


def parse_table(corpus: Corpus) -> pd.DataFrame:
    """:func:`helpers.analysis.corpus.parse_report` as the page shows it: a ``file`` column, the header, the
    blocks and their kinds; ``status`` and ``problem`` only when a file was skipped."""
    table = parse_report(corpus).rename(columns={"source_file": "file", "file_header": "file's header",
                                                 "header": "headers"})
    if (table["problem"].fillna("") == "").all():
        table = table.drop(columns=["status", "problem"])
    # A kind no file holds is a column of zeros: left out (the sentence above names every kind present).
    kinds = [c for c in table.columns[table.columns.get_loc("blocks") + 1:] if c not in ("problem",)]
    empty = [c for c in kinds if c != "abstract" and not table[c].any()]
    table = table.drop(columns=empty)
    return table.rename(columns={c: str(c).replace("_", " ") for c in table.columns})
