"""The Validation page's tables, read from benchmark files written in the tests."""

import pandas as pd


def test_the_yardstick_table_reads_the_benchmark_file(tmp_path):
    from helpers.book.reports import validation

    results = tmp_path / "benchmarks" / "results"
    results.mkdir(parents=True)
    pd.DataFrame({
        "corpus": ["icml-2023-2025", "seed", "seed"], "n_abstracts": [751, 57, 57], "k_rule": ["chosen", "chosen", "fixed"],
        "k": [12, 7, 16], "book_npmi": [0.2109, 0.1635, 0.1303], "lda_npmi": [0.0637, -0.001, 0.1400],
        "ratio": [3.3, None, 0.93], "reference_documents": [996] * 3, "reference": ["union"] * 3,
    }).to_csv(results / "theme_yardstick.csv", index=False)
    table, values = validation.theme_yardstick(tmp_path)
    assert table.values.tolist() == [
        ["seed", 57, 7, "the selection rule", 0.164, -0.001], ["seed", 57, 16, "fixed", 0.13, 0.14],
        ["ICML 2023–2025", 751, 12, "the selection rule", 0.211, 0.064]]
    assert values == {"yardstick_ahead": "2", "yardstick_comparisons": "3 comparisons", "yardstick_book_min": "0.130",
                      "yardstick_book_max": "0.211", "yardstick_lda_max": "0.140", "yardstick_reference": "996 abstracts"}
