"""The researcher's theme file (helpers.analysis.themes.naming): renaming reaches every consumer, merging sums the
themes, a file written for other themes is ignored with a warning, a malformed file is a one-line error."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from helpers.analysis.pipeline import AnalysisSettings, run_pipeline
from helpers.book.cache import build_key
from helpers.analysis.themes.naming import apply_theme_names, starter_text
from helpers.analysis.themes.theme_file import ThemeFileError, read_theme_file

TOPICS = {
    "poultry": ["broiler chickens fed dietary enzyme gained weight", "laying hens housed in enriched cages",
                "broiler chickens litter quality and footpad lesions", "laying hens egg shell quality and calcium"],
    "traffic": ["crash frequency at signalised intersections of urban roads",
                "driver speed and crash severity on rural roads",
                "pedestrian crash risk at urban intersections", "crash severity of drivers on rural highways"],
    "chemistry": ["catalyst activity of platinum nanoparticles in hydrogenation",
                  "zeolite catalyst selectivity for methanol conversion",
                  "platinum catalyst nanoparticles on carbon support", "methanol synthesis over copper zeolite catalyst"],
}


def write_corpus(folder: Path) -> Path:
    """Twelve abstracts of three fields, two sites each, as a CSV with titles, years and sites."""
    rows = []
    for topic, texts in TOPICS.items():
        for index, text in enumerate(texts):
            rows.append({"title": f"{topic} study {index + 1}", "year": 2020 + index % 2, "site": "AB"[index % 2],
                         "abstract": f"{text.capitalize()}. We report {text} in a field trial."})
    path = folder / "corpus.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("names"))


@pytest.fixture(scope="module")
def rule(corpus):
    return run_pipeline([corpus], AnalysisSettings(themes=3), n_jobs=1)


def theme_of(analysis, topic: str) -> int:
    """The theme holding the papers of ``topic`` (by their titles)."""
    papers = analysis.papers
    themes = papers[papers["title"].str.startswith(topic)]["theme"]
    assert themes.nunique() == 1, themes.tolist()
    return int(themes.iloc[0])


def named_file(rule, folder: Path, names: dict[int, str], **edits: str) -> Path:
    """The starter file of ``rule`` with ``names`` written in (and header values replaced by ``edits``)."""
    lines = []
    for line in starter_text(rule.themes.naming).splitlines():
        cells = line.split("\t")
        if cells[0].isdigit():
            cells[1] = names.get(int(cells[0]), "")
        for key, value in edits.items():
            if line.startswith(f"# {key}:"):
                cells = [f"# {key}: {value}"]
        lines.append("\t".join(cells))
    path = folder / "names.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_three_fields_are_three_themes(rule):
    # The premise of the tests below: each field is one theme of four papers.
    assert sorted(theme_of(rule, topic) for topic in TOPICS) == [1, 2, 3]
    assert rule.themes.table["n_papers"].tolist() == [4, 4, 4]
    assert rule.themes.naming is not None and not rule.themes.naming.applied


def test_rename_reaches_every_consumer(rule, corpus, tmp_path):
    from helpers.book.reports import theme_naming
    from helpers.book.reports import theme_figures, themes as themes_report
    from helpers.web.explorer_data import explorer_data

    poultry, traffic = theme_of(rule, "poultry"), theme_of(rule, "traffic")
    path = named_file(rule, tmp_path, {poultry: "Hens & <broilers>", traffic: "Road safety"})
    named = run_pipeline([corpus], AnalysisSettings(themes=3, theme_names=str(path), group_by="site"), n_jobs=1)
    labels = named.themes.labels
    assert labels[poultry] == "Hens & <broilers>" and labels[traffic] == "Road safety"
    other = ({1, 2, 3} - {poultry, traffic}).pop()
    assert labels[other] == rule.themes.labels[other]  # a theme left unnamed keeps the rule's label
    table = named.themes.table
    assert table["name_source"].tolist() == ["file" if t in (poultry, traffic) else "rule" for t in (1, 2, 3)]
    # themes.csv, the hierarchy, the change between the two sites, the links by theme, the page's tables,
    # figures and the explorer's data all carry the names.
    assert dict(zip(named.hierarchy.table["theme"], named.hierarchy.table["label"]))[traffic] == "Road safety"
    assert named.change is not None
    prevalence = named.change.theme_prevalence
    assert set(prevalence[prevalence["theme"] == traffic]["label"]) == {"Road safety"}
    assert themes_report.theme_names(named.themes.model)[poultry] == f"{poultry}. Hens & <broilers>"
    overview = themes_report.theme_overview(named.themes.model, named.papers.assign(display_title=named.papers["title"]))
    assert overview["named by"].tolist() == ["you" if t in (poultry, traffic) else "rule" for t in (1, 2, 3)]
    _, bars = theme_figures.top_terms_figure(named.themes.model, "test")
    assert set(bars[bars["theme"] == traffic]["label"]) == {"Road safety"}
    from helpers.book.reports.links import shares_table

    shares = shares_table(named.papers, named.themes.labels)
    assert f"{traffic}. Road safety" in set(shares.get("theme_label", shares.iloc[:, 0]).astype(str)) or \
        shares.astype(str).apply(lambda c: c.str.contains("Road safety")).any().any()
    papers = named.papers.assign(display_title=named.papers["title"], n_words=5, text="x", position=0)
    data = explorer_data(papers, named.links.links, named.links.statements, named.themes.labels)
    assert "Road safety" in json.dumps(data)
    note = theme_naming.names_note(named)
    assert note == "2 of the 3 themes carry your names, from `names.tsv`; the other keeps the rule's label."
    assert theme_naming.names_note(rule).startswith("All labels are the rule's")


def test_merge_sums_the_themes(rule, corpus, tmp_path):
    poultry, traffic = theme_of(rule, "poultry"), theme_of(rule, "traffic")
    # The same name, case and spacing aside; the merged theme is named as its lowest model theme spells it.
    first, second = sorted((poultry, traffic))
    path = named_file(rule, tmp_path, {first: "Animals and roads", second: " animals  AND roads "})
    named = run_pipeline([corpus], AnalysisSettings(themes=3, theme_names=str(path)), n_jobs=1)
    table = named.themes.table
    # Numbered by the lowest model theme each holds: the merged theme takes the first number.
    assert table["theme"].tolist() == [1, 2]
    merged = table[table["model_themes"] == f"{first}, {second}"].iloc[0]
    assert merged["label"] == "Animals and roads" and merged["n_papers"] == 8
    assert pd.isna(merged["coherence"])
    assert sorted(table["n_papers"].tolist()) == [4, 8]
    # Each paper's weight on the merged theme is its weight on the two themes summed.
    old = rule.themes.model.weights.set_index("paper_id")
    new = named.themes.model.weights.set_index("paper_id")
    summed = old[f"theme_{poultry}"] + old[f"theme_{traffic}"]
    assert (new[f"theme_{int(merged['theme'])}"] - summed).abs().max() <= 2e-6
    assert list(new.columns) == ["theme_1", "theme_2"]
    # The papers of both themes are the merged theme's; its terms are those of both.
    both = named.papers[named.papers["title"].str.match("poultry|traffic")]
    assert set(both["theme"]) == {int(merged["theme"])}
    terms = set(named.themes.model.top_terms.query(f"theme == {int(merged['theme'])}")["term"])
    assert {"crash", "broiler"} <= {t.split()[0] for t in terms} | terms
    # The broad themes are made of the themes shown.
    assert set(named.hierarchy.table["theme"]) == {1, 2}
    assert set(named.papers["broad_theme"]) <= set(named.hierarchy.table["broad_theme"])


def test_apply_keeps_a_rename_exact(rule):
    model = rule.themes.model
    renamed = apply_theme_names(model, {1: "One"})
    assert renamed.paper_themes.equals(model.paper_themes)
    assert renamed.weights.equals(model.weights)
    assert renamed.themes["n_papers"].tolist() == model.themes["n_papers"].tolist()


@pytest.mark.parametrize("edit, why", [
    ({"corpus": "0" * 64}, "was written for another corpus (SHA-256 000000000000, not "),
    ({"seed": "5"}, "was written for seed 5, not 0"),
    ({"themes": "4"}, "was written for 4 themes, not these 3"),
    ({"model": "abcdefabcdef"}, "was written for other themes (model abcdefabcdef, not "),
])
def test_a_file_for_other_themes_warns_and_is_ignored(rule, tmp_path, edit, why):
    from helpers.analysis.themes.naming import name_themes_by_file

    path = named_file(rule, tmp_path, {1: "Mine"}, **edit)
    model = rule.themes.model
    kept, naming = name_themes_by_file(model, read_theme_file(path), rule.corpus.sha256, rule.settings.seed)
    assert not naming.applied
    assert naming.warning.startswith(f"--theme-names / BOOK_THEME_NAMES: names.tsv {why}")
    # The themes page's one-line warning (Markdown, escaped).
    from helpers.book.reports.theme_naming import names_warning

    shown = names_warning(dataclasses.replace(rule, themes=dataclasses.replace(rule.themes, naming=naming)))
    assert shown.startswith("**Warning:** `--theme-names` / `BOOK_THEME_NAMES`: names.tsv was written for ")
    assert shown.endswith("; ignored \\(the rule's labels are shown\\).")  # Markdown-escaped
    assert names_warning(rule) == ""
    assert naming.warning.endswith("; ignored (the rule's labels are shown)") and "\n" not in naming.warning
    assert kept is model
    # The same file, unedited, is applied.
    named, naming = name_themes_by_file(model, read_theme_file(named_file(rule, tmp_path, {1: "Mine"})),
                                        rule.corpus.sha256, rule.settings.seed)
    assert naming.applied and naming.warning == "" and named.themes["label"].iloc[0] == "Mine"
    # The theme file the page then offers keeps the names applied, the others the rule's.
    (tmp_path / "again.tsv").write_text(starter_text(naming), encoding="utf-8")
    assert read_theme_file(tmp_path / "again.tsv").names == {**rule.themes.labels, 1: "Mine"}


def test_the_cli_warns_and_writes_the_rule_labels(rule, corpus, tmp_path):
    path = named_file(rule, tmp_path, {1: "Mine"}, seed="7")
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "helpers", "analyse", str(corpus), "--out", str(out), "--quiet",
                             "--themes", "3", "--jobs", "1", "--theme-names", str(path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == ["warning: --theme-names / BOOK_THEME_NAMES: names.tsv was written for seed 7, not 0; "
                        "ignored (the rule's labels are shown)"]
    themes = pd.read_csv(out / "themes.csv")
    assert themes["label"].tolist() == rule.themes.table["label"].tolist()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["theme_names"]["applied"] is False
    # The starter file analyse writes is a theme file of these themes, with the rule's labels.
    starter = read_theme_file(out / "theme_names.tsv")
    assert starter.fingerprint == rule.themes.naming.fingerprint
    assert starter.names == rule.themes.labels


@pytest.mark.parametrize("body, line, what", [
    ("theme\tname\n1\tA\n", 1, "no '# corpus:' line (a theme file records the corpus and settings it was "
                               "written for: start from the themes page's starter file)"),
    ("{head}1\tA\nx\tB\n", 8, "the theme must be a whole number of at least 1, got 'x'"),
    ("{head}1\tA\n1\tB\n", 8, "theme 1 given twice (first on line 7)"),
    ("{head}4\tA\n", 7, "theme 4 is above the file's 3 themes"),
    ("# corpus: a\n1\tA\n", 2, "the first row must be the header 'theme<TAB>name', got '1\\tA'"),
    ("{head}2\tA\x07B\n", 7, "the name of theme 2 holds a control character"),
    ("{head}3\tCost in $\\frac{{a}}$\n", 7, "the name of theme 3 holds a '$' (figures read it as math); write the "
                                          "currency as a word"),
])
def test_a_malformed_file_is_one_line_naming_file_and_line(tmp_path, body, line, what):
    head = "# corpus: abc\n# themes: 3\n# seed: 0\n# grain: themes\n# model: 0123\ntheme\tname\n"
    path = tmp_path / "bad names.tsv"
    path.write_text(body.replace("{head}", head), encoding="utf-8")
    with pytest.raises(ThemeFileError) as error:
        read_theme_file(path)
    assert str(error.value) == f"--theme-names / BOOK_THEME_NAMES: bad names.tsv, line {line}: {what}"


def test_the_cli_stops_on_a_malformed_file_with_nothing_written(corpus, tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("theme\tname\n", encoding="utf-8")
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "helpers", "analyse", str(corpus), "--out", str(out), "--quiet",
                             "--theme-names", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"error: {read_error(path)}"]
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["bad.tsv"]


def read_error(path: Path) -> str:
    with pytest.raises(ThemeFileError) as error:
        read_theme_file(path)
    return str(error.value)


def test_the_file_is_in_the_build_key_and_on_the_reproduce_page(rule, corpus, tmp_path):
    from helpers.book.reports.reproduce import settings_table

    path = named_file(rule, tmp_path, {1: "Mine"})
    settings = AnalysisSettings(themes=3, theme_names=str(path))
    key = build_key([corpus], settings)
    assert key != build_key([corpus], AnalysisSettings(themes=3))
    path.write_text(path.read_text(encoding="utf-8").replace("Mine", "Ours"), encoding="utf-8")
    assert build_key([corpus], settings) != key
    named = run_pipeline([corpus], settings, n_jobs=1)
    rows = settings_table(named)
    value = rows[rows["setting"] == "theme_names"]["value"].iloc[0]
    assert value == f"names.tsv (SHA-256 {named.themes.naming.file_sha256}; applied)"


def test_the_book_reads_book_theme_names(rule, tmp_path):
    from helpers.analysis.settings import SettingsError
    from helpers.book.settings import BookConfig

    path = named_file(rule, tmp_path, {1: "Mine"})
    config = BookConfig.from_environment({"BOOK_THEME_NAMES": "names.tsv"}, root=tmp_path)
    assert config.settings.theme_names == str(path)
    (tmp_path / "bad.tsv").write_text("theme\tname\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"^--theme-names / BOOK_THEME_NAMES: bad.tsv, line 1: no '# corpus:'"):
        BookConfig.from_environment({"BOOK_THEME_NAMES": "bad.tsv"}, root=tmp_path)
    assert dataclasses.replace(config.settings, theme_names=None).as_dict() == AnalysisSettings().as_dict()
