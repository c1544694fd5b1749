"""The Validation page's tables, read from benchmark files written in the tests."""

import pandas as pd
from tests.support import benchmark_results


def _write_yardstick(root, peers=True):
    results = benchmark_results(root)
    pd.DataFrame({
        "corpus": ["icml-2023-2025", "seed", "seed"], "n_abstracts": [751, 57, 57], "k_rule": ["chosen", "chosen", "fixed"],
        "k": [12, 7, 16], "book_npmi": [0.2109, 0.1635, 0.1303], "lda_npmi": [0.0637, -0.001, 0.1400],
        "ratio": [3.3, None, 0.93], "reference_documents": [996] * 3, "reference": ["union"] * 3,
    }).to_csv(results / "theme_yardstick.csv", index=False)
    if peers:
        # One row per BERTopic pipeline; one could not give k topics on the seed.
        pd.DataFrame({"corpus": ["seed", "icml-2023-2025", "seed", "icml-2023-2025", "seed"], "n_abstracts": [57, 751, 57, 751, 57],
                      "k_rule": ["chosen", "chosen", "fixed", "chosen", "chosen"], "k": [7, 12, 16, 12, 7],
                      "pipeline": ["a", "a", "a", "b", "b"], "bertopic_npmi": [-0.02, 0.15, 0.09, 0.11, None],
                      "reference_documents": [996] * 5}).to_csv(results / "theme_peers.csv", index=False)


def test_the_yardstick_table_reads_the_benchmark_file(tmp_path):
    from helpers.book.reports import validation

    _write_yardstick(tmp_path, peers=False)
    table, values = validation.theme_yardstick(tmp_path)
    assert table.drop(columns=["BERTopic (NPMI)"]).values.tolist() == [
        ["seed", 57, 7, "the selection rule", 0.164, -0.001, "—"], ["seed", 57, 16, "fixed", 0.13, 0.14, "0.93×"],
        ["ICML 2023–2025", 751, 12, "the selection rule", 0.211, 0.064, "3.31×"]]
    assert table["BERTopic (NPMI)"].isna().all()
    assert values == {"yardstick_ahead": "2", "yardstick_comparisons": "3 comparisons", "yardstick_book_min": "0.130",
                      "yardstick_book_max": "0.211", "yardstick_lda_max": "0.140", "yardstick_bertopic_max": "not measured",
                      "yardstick_reference": "996 abstracts", "yardstick_target": "1.3", "yardstick_target_met": "2",
                      "yardstick_target_misses": "seed at 16 themes (0.93×)"}


def test_the_yardstick_table_puts_bertopics_best_pipeline_beside_lda_and_the_ratio_to_the_best_peer(tmp_path):
    from helpers.book.reports import validation

    _write_yardstick(tmp_path)
    table, values = validation.theme_yardstick(tmp_path)
    # ICML 2023–2025: BERTopic (0.15) is the best peer, 0.2109 / 0.15 = 1.406; seed at 7: both peers below 0.
    assert table[["BERTopic (NPMI)", "book / best peer"]].values.tolist() == [
        [-0.02, "—"], [0.09, "0.93×"], [0.15, "1.41×"]]
    assert (values["yardstick_bertopic_max"], values["yardstick_target_met"], values["yardstick_ahead"]) == ("0.150", "2", "2")


def test_the_word_intrusion_table_and_finding(tmp_path):
    from helpers.book.reports import validation

    results = benchmark_results(tmp_path)
    pd.DataFrame({
        "corpus": ["seed", "seed", "seed", "all", "all", "all"], "model": ["BERTopic", "LDA", "book"] * 2,
        "items": [7, 7, 7, 7, 7, 7], "answered": [7] * 6, "right": [5, 0, 7, 5, 0, 7],
        "precision": [0.714286, 0.0, 1.0, 0.714286, 0.0, 1.0], "mean_confidence_right": [2.2, None, 2.857143, 2.2, None, 2.857143],
        "mean_confidence_wrong": [1.0, 1.5, None, 1.0, 1.5, None]}).to_csv(results / "word_intrusion.csv", index=False)
    table, values = validation.word_intrusion(tmp_path)
    assert table.fillna(-9).values.tolist() == [
        ["seed", "book themes", 7, 7, 1.0, 2.86], ["seed", "LDA", 7, 0, 0.0, -9], ["seed", "BERTopic", 7, 5, 0.714, 2.2],
        ["all", "book themes", 7, 7, 1.0, 2.86], ["all", "LDA", 7, 0, 0.0, -9], ["all", "BERTopic", 7, 5, 0.714, 2.2]]
    assert values == {
        "intrusion_items": "21 items",
        "intrusion_sentence": "In a blind word-intrusion test on seed, the reader found the intruder in 7 of 7 items (100%, mean confidence 2.86) of the book's "
                             "themes, against 0 of 7 items (0%) of LDA's and 5 of 7 items (71%, mean confidence 2.20) "
                             "of BERTopic's."}
