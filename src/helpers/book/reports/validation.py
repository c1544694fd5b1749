"""What the Validation page shows: the package's own measurements on labelled corpora, never this corpus's.

- the term map against terms labelled by reading (``benchmarks/results/term_quality.csv``, made by
  ``make term-quality``; :func:`helpers.book.reports.cooccurrence.term_quality`);
- the theme vocabulary compared with the term map's noun phrases (``benchmarks/results/theme_vocabulary.csv``);
- the themes and scikit-learn LDA on an independent coherence yardstick (``benchmarks/results/theme_yardstick.csv``);
- the link-availability classes against sentences labelled by reading (``tests/evaluation``).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from helpers.book.formatting import corpus_name, count, number
from helpers.book.inputs import page_input
from helpers.book.settings import THEME_VOCABULARY_FILE, THEME_YARDSTICK_FILE

#: The vocabularies the theme comparison shows, in order, as the table names them.
VOCABULARY_NAMES = {
    "unigrams and bigrams (kept)": "words and word pairs (the book's)",
    "term map noun phrases (tried)": "the term map's noun phrases",
    "term map phrases merged, other words as unigrams (merged)": "map phrases merged, other words single",
    "term map phrases merged, other words as unigrams and bigrams (merged variant)": "map phrases merged, other words and pairs",
}


def theme_vocabulary_table(root: Path) -> pd.DataFrame:
    """The themes fitted on each vocabulary, per labelled corpus, with the number of themes the selection rule
    chose and the NPMI coherence of their top terms on one common reference (a term present wherever its
    words occur in a row), without the pairs of a phrase and its own words. Empty when not measured.

    Examples
    --------
    >>> theme_vocabulary_table(Path("/nonexistent")).empty
    True
    """
    path = page_input(THEME_VOCABULARY_FILE, root=Path(root))
    columns = ["corpus", "abstracts", "vocabulary", "terms per abstract", "themes chosen", "coherence (NPMI)"]
    if not path.is_file():
        return pd.DataFrame(columns=columns)
    results = pd.read_csv(path)
    rows = results[(results["k_rule"] == "chosen") & results["vocabulary"].isin(VOCABULARY_NAMES)].copy()
    rows["order"] = rows["vocabulary"].map(list(VOCABULARY_NAMES).index)
    rows = rows.sort_values(["n_abstracts", "order"], kind="stable")
    return pd.DataFrame({
        "corpus": [corpus_name(c) for c in rows["corpus"]], "abstracts": rows["n_abstracts"].to_numpy(),
        "vocabulary": rows["vocabulary"].map(VOCABULARY_NAMES).to_numpy(),
        "terms per abstract": rows["terms_per_abstract"].round(1).to_numpy(), "themes chosen": rows["k"].to_numpy(),
        "coherence (NPMI)": rows["npmi_reference_distinct"].round(3).to_numpy()}, columns=columns)


YARDSTICK_COLUMNS = ["corpus", "abstracts", "themes (k)", "k chosen by", "book themes (NPMI)", "LDA (NPMI)"]


def theme_yardstick(root: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """The book's themes and scikit-learn LDA at the same k on the independent yardstick, per corpus
    (``benchmarks/theme_yardstick.py``), and the values the sentence reading the table glues:
    ``yardstick_ahead`` (comparisons the themes win), ``yardstick_comparisons``, ``yardstick_book_min``,
    ``yardstick_book_max``, ``yardstick_lda_max`` and ``yardstick_reference`` (the reference documents).
    Empty, with every value "not measured", when the file is missing.

    Examples
    --------
    >>> table, values = theme_yardstick(Path("/nonexistent"))
    >>> table.empty, values["yardstick_comparisons"]
    (True, 'not measured')
    """
    path = page_input(THEME_YARDSTICK_FILE, root=Path(root))
    names = ["yardstick_ahead", "yardstick_comparisons", "yardstick_book_min", "yardstick_book_max",
             "yardstick_lda_max", "yardstick_reference"]
    if not path.is_file():
        return pd.DataFrame(columns=YARDSTICK_COLUMNS), dict.fromkeys(names, "not measured")
    results = pd.read_csv(path).sort_values(["n_abstracts", "k_rule"], kind="stable")
    table = pd.DataFrame({
        "corpus": [corpus_name(c) for c in results["corpus"]], "abstracts": results["n_abstracts"].to_numpy(),
        "themes (k)": results["k"].to_numpy(),
        "k chosen by": results["k_rule"].map({"chosen": "the selection rule", "fixed": "fixed"}).to_numpy(),
        "book themes (NPMI)": results["book_npmi"].round(3).to_numpy(),
        "LDA (NPMI)": results["lda_npmi"].round(3).to_numpy()}, columns=YARDSTICK_COLUMNS)
    values = [number(int((results["book_npmi"] > results["lda_npmi"]).sum())), count(len(results), "comparison"),
              number(results["book_npmi"].min()), number(results["book_npmi"].max()),
              number(results["lda_npmi"].max()), count(int(results["reference_documents"].iloc[0]), "abstract")]
    return table, dict(zip(names, values))
