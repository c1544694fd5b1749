"""The per-paper tables as Parquet parts (helpers.analysis.pipeline.parquet_parts): they read back as the CSV tables."""

from __future__ import annotations


import pandas as pd
import pytest

from tests.support import SEED_DIR, run_in_process
from helpers.analysis.corpus import read_corpus
from helpers.analysis.pipeline.parquet_parts import PARTITIONED_TABLES, output_partitions, write_partitioned_tables
from helpers.analysis.pipeline import AnalysisSettings, run_pipeline

pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def five_papers(tmp_path_factory):
    """Five abstracts written here, three of them with links, two with availability statements."""
    folder = tmp_path_factory.mktemp("five")
    texts = read_corpus(SEED_DIR).papers["text"].tolist()[:5]
    texts[0] += " Code is available at https://github.com/example/one."
    texts[2] += " Our data: https://zenodo.org/records/12345 and https://github.com/example/three."
    texts[4] += " Code will be released at https://github.com/example/five."
    (folder / "five.txt").write_text("Five abstracts\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    return run_pipeline([folder], AnalysisSettings())


def test_output_partitions_hold_at_most_max_papers():
    assert output_partitions(0) == [(0, 0)]
    assert output_partitions(20_000) == [(0, 20_000)]
    assert output_partitions(20_001) == [(0, 10_001), (10_001, 20_001)]
    assert output_partitions(1_000_000)[-1] == (980_000, 1_000_000)
    assert len(output_partitions(1_000_000)) == 50


def test_two_parts_read_back_as_the_csv_tables(five_papers, tmp_path):
    tables = five_papers.tables()
    written = write_partitioned_tables(tables, tmp_path, max_papers=3)
    assert [(table.name, table.parts) for table in written] == [
        (name, ("part-00000.parquet", "part-00001.parquet")) for name in PARTITIONED_TABLES]
    papers = [pd.read_parquet(tmp_path / "papers" / part) for part in written[0].parts]
    assert [len(part) for part in papers] == [3, 2]
    # Links: the first and fourth seed abstracts have a code link of their own, plus the four added here.
    assert [len(pd.read_parquet(tmp_path / "links" / part)) for part in written[1].parts] == [4, 2]
    assert [len(pd.read_parquet(tmp_path / "link_statements" / part)) for part in written[2].parts] == [3, 2]
    for name in PARTITIONED_TABLES:
        csv = tables[name].to_csv(index=False, lineterminator="\n")
        parts = pd.concat([pd.read_parquet(tmp_path / name / part) for part in written[0].parts], ignore_index=True)
        assert parts.to_csv(index=False, lineterminator="\n") == csv, name
        assert pd.read_parquet(tmp_path / name).to_csv(index=False, lineterminator="\n") == csv, name


def test_parts_are_the_same_bytes_on_every_run(five_papers, tmp_path):
    for run in ("a", "b"):
        write_partitioned_tables(five_papers.tables(), tmp_path / run, max_papers=2)
    files = sorted(path.relative_to(tmp_path / "a") for path in (tmp_path / "a").rglob("*.parquet"))
    assert len(files) == 9
    for path in files:
        assert (tmp_path / "a" / path).read_bytes() == (tmp_path / "b" / path).read_bytes(), path


def test_rows_out_of_the_papers_order_are_refused(five_papers, tmp_path):
    tables = dict(five_papers.tables())
    tables["links"] = tables["links"].iloc[::-1]
    with pytest.raises(ValueError, match="links: rows are not in the papers' order"):
        write_partitioned_tables(tables, tmp_path, max_papers=2)
    tables["links"] = tables["links"].assign(paper_id="nobody")
    with pytest.raises(ValueError, match="rows of papers not in the papers table: \\['nobody'\\]"):
        write_partitioned_tables(tables, tmp_path, max_papers=2)


def test_analyse_replaces_an_older_runs_parts(tmp_path):
    out = tmp_path / "out"
    (out / "papers").mkdir(parents=True)
    (out / "papers" / "part-00007.parquet").write_bytes(b"an older, larger run's part")
    (out / ".analyse-files").write_text("papers/part-00007.parquet\n")  # the older run's list of what it wrote
    result = run_in_process("analyse", str(SEED_DIR), "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in (out / "papers").iterdir()) == ["part-00000.parquet"]
    assert len(pd.read_parquet(out / "papers")) == 57
