"""Tables as a reader reads them: headers in words (the CSV downloads keep the machine names), rows in number order."""

import pandas as pd

from helpers.book.page_tables import column_header, show_top, table_html, table_markdown
from helpers.book.reports.links import state_counts


def test_headers_are_words_in_html_and_markdown_and_escaped():
    table = pd.DataFrame({"community": [1], "n_terms": [4], "n_papers": [3], "top_terms": ["a, b"], "x<y": [1]})
    html_text, markdown = table_html(table), table_markdown(table)
    for header in ["community", "terms", "papers", "top terms", "x&lt;y"]:
        assert f">{header}</th>" in html_text
    assert markdown.splitlines()[0] == "| community | terms | papers | top terms | x&lt;y |"
    assert "n_terms" not in html_text + markdown and "top_terms" not in html_text + markdown
    assert column_header("f1") == "F1" and column_header("long_form") == "long form"


def test_the_csv_download_keeps_the_machine_names(tmp_path, monkeypatch):
    monkeypatch.setenv("BOOK_FIGURE_DIR", str(tmp_path))
    show_top(pd.DataFrame({"n_papers": [3, 2], "top_terms": ["a", "b"]}), "communities", 1)
    assert (tmp_path / "communities.csv").read_text(encoding="utf-8").splitlines() == ["n_papers,top_terms", "3,a", "2,b"]


def test_link_states_per_theme_in_number_order_not_text_order():
    rows = [("all", "all papers"), ("theme", "1. soil"), ("theme", "2. crops"), ("theme", "10. yield"),
            ("theme", "11. water")]
    shares = pd.DataFrame([{"grouping": grouping, "group": group, "link_state": state, "n_papers": 1}
                           for grouping, group in rows for state in ("linked", "none")])
    assert state_counts(shares)["group"].tolist() == ["all papers", "1. soil", "2. crops", "10. yield", "11. water"]
