"""What the Validation page shows: the package's own measurements on labelled corpora, never this corpus's.

- the term map against terms labelled by reading (``benchmarks/results/term_quality.csv``, made by
  ``make term-quality``; :func:`helpers.book.reports.term_map_quality.term_quality`);
- the theme vocabulary compared with the term map's noun phrases (``benchmarks/results/theme_vocabulary.csv``);
- the themes, scikit-learn LDA and BERTopic on an independent coherence yardstick
  (``benchmarks/results/theme_yardstick.csv``, ``theme_peers.csv``) and in a blind word-intrusion test
  (``benchmarks/results/word_intrusion.csv``);
- the link-availability classes against sentences labelled by reading (``tests/evaluation``): the held-out set
  (the honest score) beside the development set the rules were tuned on (:func:`claim_scores`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from helpers.analysis.links.evaluation import class_scores, load_heldout, predict
from helpers.book.formatting import MISSING, corpus_name, count, number, percent
from helpers.book.inputs import page_input
from helpers.book.reports.benchmark_targets import read_results
from helpers.book.reports.links import evaluation_set
from helpers.book.settings import (FIELD_EXPORTS_FILE, FIGURE_TEXT_FILE, THEME_PEERS_FILE, THEME_VOCABULARY_FILE, THEME_YARDSTICK_FILE,
                                   WORD_INTRUSION_FILE)

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
    columns = ["corpus", "abstracts", "vocabulary", "terms per abstract", "themes chosen", "coherence (NPMI)"]
    results = read_results(THEME_VOCABULARY_FILE, root=root)
    if results is None:
        return pd.DataFrame(columns=columns)
    rows = results[(results["k_rule"] == "chosen") & results["vocabulary"].isin(VOCABULARY_NAMES)].copy()
    rows["order"] = rows["vocabulary"].map(list(VOCABULARY_NAMES).index)
    rows = rows.sort_values(["n_abstracts", "order"], kind="stable")
    return pd.DataFrame({
        "corpus": [corpus_name(c) for c in rows["corpus"]], "abstracts": rows["n_abstracts"].to_numpy(),
        "vocabulary": rows["vocabulary"].map(VOCABULARY_NAMES).to_numpy(),
        "terms per abstract": rows["terms_per_abstract"].round(1).to_numpy(), "themes chosen": rows["k"].to_numpy(),
        "coherence (NPMI)": rows["npmi_reference_distinct"].round(3).to_numpy()}, columns=columns)


YARDSTICK_COLUMNS = ["corpus", "abstracts", "themes (k)", "k chosen by", "book themes (NPMI)", "LDA (NPMI)",
                     "BERTopic (NPMI)", "book / best peer"]
#: How far ahead of the best peer the themes are to stay on the yardstick (issue 38).
TARGET_RATIO = 1.3
YARDSTICK_VALUES = ["yardstick_ahead", "yardstick_comparisons", "yardstick_book_min", "yardstick_book_max",
                    "yardstick_lda_max", "yardstick_bertopic_max", "yardstick_reference", "yardstick_target",
                    "yardstick_target_met", "yardstick_target_misses"]


def _times(ratio: float) -> str:
    """A ratio as the table prints it: ``2.02×``, an em dash where there is none.

    Examples
    --------
    >>> _times(2.0166), _times(float("nan"))
    ('2.02×', '—')
    """
    return MISSING if pd.isna(ratio) else f"{number(ratio, precision=2)}×"


def _yardstick_results(root: Path) -> pd.DataFrame | None:
    """``theme_yardstick.csv`` with BERTopic's best score of ``theme_peers.csv`` (empty where not measured)."""
    results = read_results(THEME_YARDSTICK_FILE, root=root)
    if results is None:
        return None
    peers = read_results(THEME_PEERS_FILE, root=root)
    if peers is not None:
        # BERTopic's best pipeline at each corpus and k (one row per pipeline measured).
        bertopic = peers.groupby(["corpus", "k_rule", "k"], as_index=False)["bertopic_npmi"].max()
        results = results.merge(bertopic, on=["corpus", "k_rule", "k"], how="left")
    else:
        results["bertopic_npmi"] = np.nan
    best_peer = results[["lda_npmi", "bertopic_npmi"]].max(axis=1)
    results["best_peer_npmi"] = best_peer
    # No ratio where the best peer scores at most 0 (the themes, above 0, lead by any factor).
    results["book_ratio"] = (results["book_npmi"] / best_peer).where(best_peer > 0)
    return results.sort_values(["n_abstracts", "k_rule"], kind="stable", ignore_index=True)


def theme_yardstick(root: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """The book's themes, scikit-learn LDA and BERTopic at the same k on the independent yardstick, per corpus
    (``benchmarks/theme_yardstick.py``, ``benchmarks/theme_peers.py``), and the values the sentences reading
    the table glue: ``yardstick_ahead`` (comparisons the themes win over both peers), ``yardstick_comparisons``,
    ``yardstick_book_min``, ``yardstick_book_max``, ``yardstick_lda_max``, ``yardstick_bertopic_max``,
    ``yardstick_reference`` (the reference documents), ``yardstick_target`` (:data:`TARGET_RATIO`),
    ``yardstick_target_met`` (comparisons where the themes score at least that multiple of the best peer) and
    ``yardstick_target_misses`` (the others, named). Empty, with every value "not measured", when the file is
    missing; BERTopic's column is empty when it was not measured.

    Examples
    --------
    >>> table, values = theme_yardstick(Path("/nonexistent"))
    >>> table.empty, values["yardstick_comparisons"]
    (True, 'not measured')
    """
    results = _yardstick_results(root)
    if results is None:
        return pd.DataFrame(columns=YARDSTICK_COLUMNS), dict.fromkeys(YARDSTICK_VALUES, "not measured")
    table = pd.DataFrame({
        "corpus": [corpus_name(c) for c in results["corpus"]], "abstracts": results["n_abstracts"].to_numpy(),
        "themes (k)": results["k"].to_numpy(),
        "k chosen by": results["k_rule"].map({"chosen": "the selection rule", "fixed": "fixed"}).to_numpy(),
        "book themes (NPMI)": results["book_npmi"].round(3).to_numpy(),
        "LDA (NPMI)": results["lda_npmi"].round(3).to_numpy(),
        "BERTopic (NPMI)": results["bertopic_npmi"].round(3).to_numpy(),
        "book / best peer": [_times(r) for r in results["book_ratio"]]}, columns=YARDSTICK_COLUMNS)
    met = results["book_npmi"] >= TARGET_RATIO * results["best_peer_npmi"]
    misses = [f"{corpus_name(row.corpus)} at {count(int(row.k), 'theme')} ({_times(row.book_ratio)})"
              for row in results[~met].itertuples()]
    values = [number(int((results["book_npmi"] > results["best_peer_npmi"]).sum())), count(len(results), "comparison"),
              number(results["book_npmi"].min()), number(results["book_npmi"].max()),
              number(results["lda_npmi"].max()),
              number(results["bertopic_npmi"].max()) if results["bertopic_npmi"].notna().any() else "not measured",
              count(int(results["reference_documents"].iloc[0]), "abstract"), f"{TARGET_RATIO:g}",
              number(int(met.sum())), "; ".join(misses) if misses else "none"]
    return table, dict(zip(YARDSTICK_VALUES, values))


INTRUSION_COLUMNS = ["corpus", "model", "items", "intruder found", "precision", "mean confidence when right"]
MODEL_NAMES = {"book": "book themes", "LDA": "LDA", "BERTopic": "BERTopic"}
INTRUSION_VALUES = ["intrusion_items", "intrusion_sentence"]
NOT_JUDGED = "No reader has judged the word-intrusion items yet."


def word_intrusion(root: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """The blind word-intrusion test (``benchmarks/word_intrusion.py``): per corpus and model, the items, how many
    intruders the reader found, the precision and the reader's mean confidence (1-3) when right; and the glued
    values ``intrusion_items`` (items judged) and ``intrusion_sentence`` (the sentence reading the table, for
    ``{glue:md}``). Empty, with the finding :data:`NOT_JUDGED`, when no answers were scored.

    Examples
    --------
    >>> table, values = word_intrusion(Path("/nonexistent"))
    >>> table.empty, values["intrusion_sentence"]
    (True, 'No reader has judged the word-intrusion items yet.')
    """
    scores = read_results(WORD_INTRUSION_FILE, root=root)
    if scores is None:
        return (pd.DataFrame(columns=INTRUSION_COLUMNS),
                {**dict.fromkeys(INTRUSION_VALUES, "not judged"), "intrusion_sentence": NOT_JUDGED})
    scores["order"] = scores["model"].map(list(MODEL_NAMES).index)
    scores["last"] = scores["corpus"] == "all"
    scores = scores.sort_values(["last", "corpus", "order"], kind="stable", ignore_index=True)
    table = pd.DataFrame({
        "corpus": ["all" if c == "all" else corpus_name(c) for c in scores["corpus"]],
        "model": scores["model"].map(MODEL_NAMES).to_numpy(), "items": scores["items"].to_numpy(),
        "intruder found": scores["right"].to_numpy(), "precision": scores["precision"].round(3).to_numpy(),
        "mean confidence when right": scores["mean_confidence_right"].round(2).to_numpy()}, columns=INTRUSION_COLUMNS)
    overall = scores[scores["last"]].set_index("model")
    book = overall.loc["book"]
    peers = overall.drop(index="book")

    def found(row) -> str:
        confidence = f", mean confidence {number(row['mean_confidence_right'], precision=2)}" if row["right"] else ""
        return f"{number(int(row['right']))} of {count(int(row['items']), 'item')} ({percent(row['precision'])}{confidence})"

    corpora = " and ".join(corpus_name(c) for c in sorted(set(scores["corpus"]) - {"all"}))
    finding = (f"In a blind word-intrusion test on {corpora}, the reader found the intruder in {found(book)} of the "
               "book's themes, against " + " and ".join(f"{found(row)} of {MODEL_NAMES[model]}'s"
                                                        for model, row in peers.iterrows()) + ".")
    values = [count(int(overall["items"].sum()), "item"), finding]
    return table, dict(zip(INTRUSION_VALUES, values))


HELDOUT_SET = Path("tests") / "evaluation" / "availability_heldout.csv"
#: The classes whose held-out scores the Validation page prints (the table has every class).
HELDOUT_CLASSES_SHOWN = ("linked", "dangling")
CLAIM_COLUMNS = ["set", "class", "labelled", "precision (95% CI)", "recall (95% CI)", "F1"]


def _ratio(value: float) -> str:
    return "n/a" if pd.isna(value) else f"{value:.2f}"


def _interval(low: float, high: float, between: str = " to ") -> str:
    return "n/a" if pd.isna(low) else f"{low:.2f}{between}{high:.2f}"


def _score_rows(name: str, scores: pd.DataFrame) -> pd.DataFrame:
    """One set's rows of the claim table: ratios with their Wilson intervals, "n/a" where undefined."""
    return pd.DataFrame({
        "set": name, "class": list(scores.index), "labelled": scores["support"].to_numpy(),
        "precision (95% CI)": [f"{_ratio(r.precision)} ({_interval(r.precision_low, r.precision_high, '–')})"
                               if r.predicted else "n/a" for r in scores.itertuples()],
        "recall (95% CI)": [f"{_ratio(r.recall)} ({_interval(r.recall_low, r.recall_high, '–')})"
                            if r.support else "n/a" for r in scores.itertuples()],
        "F1": [_ratio(v) for v in scores["f1"]]}, columns=CLAIM_COLUMNS)


def claim_scores(root: Path) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, str]]:
    """The link classes on the held-out set (the honest score) and on the development set: a table per set and class,
    the held-out sentences the classifier gets wrong (``label, predicted, sentence``), and the glued values
    ``links_heldout_*`` (sizes; precision, recall, their Wilson intervals and support of each class the page
    prints, :data:`HELDOUT_CLASSES_SHOWN`; the promised class in a sentence of its own) and ``links_dev_n``,
    ``links_dev_papers`` (the development set's sentences and abstracts).

    Every value is "n/a" and both tables empty when either set is missing (a copy of the book without its tests).

    Examples
    --------
    >>> table, wrong, values = claim_scores(Path("/nonexistent"))
    >>> table.empty, values["links_heldout_n"], values["links_heldout_linked_precision"]
    (True, 'n/a', 'n/a')
    """
    path = page_input(HELDOUT_SET, root=Path(root))
    development = evaluation_set(Path(root))
    names = ["links_heldout_n", "links_heldout_papers", "links_heldout_wrong", "links_heldout_promised_note",
             "links_dev_n", "links_dev_papers"] + [
        f"links_heldout_{state}_{value}" for state in HELDOUT_CLASSES_SHOWN
        for value in ("precision", "precision_ci", "recall", "recall_ci", "support")]
    if development is None or not path.is_file():
        return (pd.DataFrame(columns=CLAIM_COLUMNS), pd.DataFrame(columns=["label", "predicted", "sentence"]),
                dict.fromkeys(names, "n/a"))
    heldout = load_heldout(path)
    guessed = predict(heldout)
    held = class_scores(list(heldout["class"]), guessed).set_index("class")
    dev = class_scores(list(development["class"]), predict(development)).set_index("class")
    table = pd.concat([_score_rows("held-out", held), _score_rows("development", dev)], ignore_index=True)
    wrong = heldout.assign(predicted=guessed)
    wrong = wrong[wrong["predicted"] != wrong["class"]]
    wrong = pd.DataFrame({"label": wrong["class"].to_numpy(), "predicted": wrong["predicted"].to_numpy(),
                          "sentence": wrong["sentence"].to_numpy()})
    promised = int(held.loc["promised", "support"])
    values = {"links_heldout_n": number(len(heldout)), "links_dev_n": number(len(development)),
              "links_dev_papers": number(development["paper_id"].nunique()),
              "links_heldout_papers": number(heldout[["corpus", "key"]].drop_duplicates().shape[0]),
              "links_heldout_wrong": count(len(wrong), "sentence"),
              "links_heldout_promised_note": (
                  "no held-out sentence is a promise without a link, so the promised class has no held-out "
                  "score" if promised == 0 else
                  f"promised claims are found with precision {_ratio(held.loc['promised', 'precision'])} and "
                  f"recall {_ratio(held.loc['promised', 'recall'])} of {count(promised, 'sentence')}")}
    for state in HELDOUT_CLASSES_SHOWN:
        row = held.loc[state]
        values.update({f"links_heldout_{state}_precision": _ratio(row["precision"]),
                       f"links_heldout_{state}_precision_ci": _interval(row["precision_low"], row["precision_high"]),
                       f"links_heldout_{state}_recall": _ratio(row["recall"]),
                       f"links_heldout_{state}_recall_ci": _interval(row["recall_low"], row["recall_high"]),
                       f"links_heldout_{state}_support": number(int(row["support"]))})
    return table, wrong, values


FIELD_COLUMNS = ["corpus", "abstracts", "abstracts lost", "copyright left", "label words found", "labels naming twice",
                 "themes", "smallest theme", "themes under the floor"]
#: The export files of ``benchmarks/field_exports.py`` as the table names them (their field and database).
FIELD_CORPUS_NAMES = {
    "wos-traffic-safety.txt": "traffic safety (Web of Science)", "scopus-poultry.csv": "poultry science (Scopus)",
    "wos-circular-economy.txt": "circular economy (Web of Science)",
    "pubmed-mcda.txt": "decision analysis in health (PubMed)", "scopus-innovation.csv": "innovation studies (Scopus)",
    "wos-mcda.bib": "decision analysis (Web of Science BibTeX)", "scopus-mcda.bib": "decision analysis (Scopus BibTeX)",
}


def field_reading(root: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """The checks a researcher of another field makes, per dev export and ICML folder
    (``benchmarks/results/field_exports.csv``), and the sentence that sums them up (``field_sentence``).

    Examples
    --------
    >>> table, values = field_reading(Path("/nonexistent"))
    >>> table.empty, values["field_sentence"]
    (True, 'These checks have not been run (`python benchmarks/field_exports.py`).')
    """
    rows = read_results(FIELD_EXPORTS_FILE, root=root, keep_default_na=False)
    if rows is None:
        return (pd.DataFrame(columns=FIELD_COLUMNS),
                {"field_sentence": "These checks have not been run (`python benchmarks/field_exports.py`)."})
    table = pd.DataFrame({
        "corpus": [FIELD_CORPUS_NAMES.get(name, corpus_name(name)) for name in rows["corpus"]],
        "abstracts": rows["papers"].map(number).to_numpy(), "abstracts lost": rows["lost"].to_numpy(),
        "copyright left": rows["copyright_left"].to_numpy(),
        "label words found": [f"{number(found)} of {number(parts)}"
                              for found, parts in zip(rows["label_parts_found"], rows["label_parts"])],
        "labels naming twice": rows["labels_naming_twice"].to_numpy(), "themes": rows["themes"].to_numpy(),
        "smallest theme": rows["smallest_theme"].to_numpy(),
        "themes under the floor": rows["themes_under_floor"].to_numpy()}, columns=FIELD_COLUMNS)
    lost, left, found, parts, twice, under = (int(rows[column].sum()) for column in (
        "lost", "copyright_left", "label_parts_found", "label_parts", "labels_naming_twice", "themes_under_floor"))
    sentence = (
        f"On {count(len(rows), 'corpus', plural_form='corpora')}, {count(lost, 'abstract')} "
        f"{'was' if lost == 1 else 'were'} lost, {count(left, 'analysed text')} still "
        f"{'holds' if left == 1 else 'hold'} a copyright statement, "
        f"{number(found)} of {number(parts)} label words ({percent(found / parts if parts else float('nan'))}) occur "
        f"as written in their theme's abstracts, {count(twice, 'label')} {'names' if twice == 1 else 'name'} one "
        f"thing twice and {count(under, 'theme')} {'is' if under == 1 else 'are'} under the floor.")
    return table, {"field_sentence": sentence}


FIGURE_TEXT_COLUMNS = ["corpus", "figures", "legible", "smallest text on the page (px)", "lowest median (px)",
                       "smallest text in print (pt)", "smallest in"]
#: The corpora of ``benchmarks/figure_text.py`` as the table names them.
FIGURE_TEXT_CORPORA = {"icml-2023-2025": "ICML 2023–2025", "synthetic-3000": "synthetic, 3,000 abstracts",
                       "wos-traffic-safety": "traffic safety (Web of Science)",
                       "pubmed-mcda": "decision analysis in health (PubMed)"}


def figure_legibility(root: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """How large every figure's text is where it is read, per corpus (``benchmarks/results/figure_text.csv``, from
    each saved SVG at the width the page shows it at a 1280 px window, and at the width the PDF prints it), and
    the sentence that sums it up (``figure_text_sentence``).

    Examples
    --------
    >>> table, values = figure_legibility(Path("/nonexistent"))
    >>> table.empty, values["figure_text_sentence"]
    (True, 'The figures have not been measured (`python benchmarks/figure_text.py`).')
    """
    from helpers.book.figure_text import MIN_MEDIAN_PX, MIN_PRINT_PT, MIN_PX  # lazy: keeps this module light

    rows = read_results(FIGURE_TEXT_FILE, root=root, keep_default_na=False)
    if rows is None:
        return (pd.DataFrame(columns=FIGURE_TEXT_COLUMNS),
                {"figure_text_sentence": "The figures have not been measured (`python benchmarks/figure_text.py`)."})
    rows["meets"] = rows["meets"].astype(str) == "True"
    groups = rows.groupby("corpus", sort=False)
    smallest = rows.loc[groups["smallest_px"].idxmin()].set_index("corpus")["figure"]
    table = pd.DataFrame({
        "corpus": [FIGURE_TEXT_CORPORA.get(name, corpus_name(name)) for name in groups.groups],
        "figures": groups.size().map(number).to_numpy(),
        "legible": [f"{number(n)} of {number(m)}" for n, m in zip(groups["meets"].sum(), groups.size())],
        "smallest text on the page (px)": groups["smallest_px"].min().map(lambda v: f"{v:.1f}").to_numpy(),
        "lowest median (px)": groups["median_px"].min().map(lambda v: f"{v:.1f}").to_numpy(),
        "smallest text in print (pt)": groups["smallest_pt"].min().map(lambda v: f"{v:.1f}").to_numpy(),
        "smallest in": [smallest[name] for name in groups.groups]}, columns=FIGURE_TEXT_COLUMNS)
    legible, n = int(rows["meets"].sum()), len(rows)
    sentence = (
        f"On {count(rows['corpus'].nunique(), 'corpus', plural_form='corpora')}, {number(legible)} of {number(n)} "
        f"figures ({percent(legible / n)}) have their smallest text at {MIN_PX:g} CSS px or more and their median "
        f"text at {MIN_MEDIAN_PX:g} px or more on the page at a 1280 px window, and their smallest text at "
        f"{MIN_PRINT_PT:g} pt or more in print; the smallest text of any figure is "
        f"{rows['smallest_px'].min():.1f} px on the page and {rows['smallest_pt'].min():.1f} pt in print.")
    return table, {"figure_text_sentence": sentence}
