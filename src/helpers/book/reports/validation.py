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
    (``benchmarks/theme_yardstick.py``), and the glued values of the sentence that reads the table
    (``yardstick_sentence``, ``yardstick_reference``). Empty, with a sentence saying so, when not measured.

    Examples
    --------
    >>> table, values = theme_yardstick(Path("/nonexistent"))
    >>> table.empty, values["yardstick_sentence"]
    (True, 'Not measured in this build (run python benchmarks/theme_yardstick.py).')
    """
    path = page_input(THEME_YARDSTICK_FILE, root=Path(root))
    if not path.is_file():
        return pd.DataFrame(columns=YARDSTICK_COLUMNS), {
            "yardstick_sentence": "Not measured in this build (run python benchmarks/theme_yardstick.py).",
            "yardstick_reference": "the corpora measured"}
    results = pd.read_csv(path).sort_values(["n_abstracts", "k_rule"], kind="stable")
    table = pd.DataFrame({
        "corpus": [corpus_name(c) for c in results["corpus"]], "abstracts": results["n_abstracts"].to_numpy(),
        "themes (k)": results["k"].to_numpy(),
        "k chosen by": results["k_rule"].map({"chosen": "the selection rule", "fixed": "fixed"}).to_numpy(),
        "book themes (NPMI)": results["book_npmi"].round(3).to_numpy(),
        "LDA (NPMI)": results["lda_npmi"].round(3).to_numpy()}, columns=YARDSTICK_COLUMNS)
    ahead = int((results["book_npmi"] > results["lda_npmi"]).sum())
    lowest = results["book_npmi"].min()
    best_lda = results["lda_npmi"].max()
    sentence = (f"The book's themes score higher than LDA in {ahead} of {count(len(results), 'comparison')}: "
                f"from {number(lowest)} to {number(results['book_npmi'].max())}, against at most "
                f"{number(best_lda)} for LDA.")
    return table, {"yardstick_sentence": sentence,
                   "yardstick_reference": count(int(results["reference_documents"].iloc[0]), "abstract")}
