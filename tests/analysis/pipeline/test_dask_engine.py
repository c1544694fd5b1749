"""The dask engine (helpers.analysis.pipeline.dask_engine): the same tables as the local engine, byte for byte.

A local Dask cluster of two worker processes is started by this module and closed after it; the
corpus is written by the test (the seed abstracts in four files, plus a duplicate across files, a
too-short block and links).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import SEED_DIR
from helpers.analysis.themes import counting
from helpers.analysis.corpus import read_corpus
from helpers.analysis._parallel import partition_bounds
from helpers.analysis.pipeline.dask_engine import ClusterStages
from helpers.analysis.settings import EngineSettings, SettingsError
from helpers.analysis.text.tokens import _tokenize_chunk, merge_token_chunks, tokenize_corpus
from helpers.book.settings import BookConfig
from helpers.cli import main

TABLES = ["blocks.csv", "files.csv", "left_out_terms.csv", "link_statements.csv", "links.csv", "papers.csv", "term_pairs.csv",
          "terms.csv", "theme_hierarchy.csv", "themes.csv"]


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None) as local_cluster:
        yield local_cluster


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """The seed abstracts in four files (one with a header), a duplicate across files, a too-short block, links."""
    folder = tmp_path_factory.mktemp("corpus")
    texts = read_corpus(SEED_DIR).papers["text"].tolist()
    texts[3] += " Code: https://github.com/example/graphs and data at http://data.example.org/set."
    quarters = [texts[0:15], texts[15:30], texts[30:45], texts[45:]]
    quarters[2] = quarters[2] + [texts[0], "Too short to count."]  # a duplicate of a paper of the first file
    for index, blocks in enumerate(quarters):
        header = "Test abstracts\n\n" if index == 0 else ""
        (folder / f"part_{index}.txt").write_text(header + "\n\n".join(blocks) + "\n", encoding="utf-8")
    return folder


def output_files(out) -> dict[str, bytes]:
    """Every file ``analyse`` wrote, by its path in ``out`` (the Parquet parts too: ``papers/part-00000.parquet``)."""
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def local_tables(corpus, tmp_path_factory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("local")
    assert main(["analyse", str(corpus), "--out", str(out), "--quiet"]) == 0
    return output_files(out)


@pytest.mark.parametrize("partitions", [2, 3])
def test_dask_engine_writes_the_local_engines_tables(cluster, corpus, local_tables, tmp_path, capsys, partitions):
    out = tmp_path / "dask"
    assert main(["analyse", str(corpus), "--out", str(out), "--quiet", "--scheduler", cluster.scheduler_address,
                 "--partitions", str(partitions)]) == 0
    written = output_files(out)
    assert sorted(name for name in written if name.endswith(".csv")) == TABLES
    assert [name for name in written if name.endswith(".parquet")] == [
        "link_statements/part-00000.parquet", "links/part-00000.parquet", "papers/part-00000.parquet"]
    assert written.keys() == local_tables.keys()
    for name, data in local_tables.items():
        assert written[name] == data, f"{name} differs with {partitions} partitions"
    papers = local_tables["papers.csv"].decode().splitlines()
    assert len(papers) == 1 + 57  # the duplicate is one paper; the too-short block none
    assert ("note: dask engine: duplicate detection, the papers table (without texts) and the change between groups "
            "run in this process; texts, word ids, term counts and theme weights stay on the workers, and the texts "
            "come here one part at a time, on their way to a file" in capsys.readouterr().err)


def test_dask_engine_with_records_and_groups(cluster, corpus, tmp_path):
    """A JSON Lines file of the same abstracts with years (duplicates of the text files) and grouping by year."""
    texts = read_corpus(corpus).papers["text"].tolist()
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps({"key": f"k{i}", "title": f"Paper {i}", "year": 2023 + i % 2,
                                           "abstract": text}) + "\n" for i, text in enumerate(texts[:30])),
                       encoding="utf-8")
    paths = [str(records), *sorted(str(path) for path in corpus.iterdir())]
    outputs = {}
    for engine, options in (("local", []), ("dask", ["--scheduler", cluster.scheduler_address, "--partitions", "3"])):
        out = tmp_path / engine
        assert main(["analyse", *paths, "--out", str(out), "--quiet", "--group-by", "year", *options]) == 0
        outputs[engine] = output_files(out)
    assert outputs["dask"].keys() == outputs["local"].keys()
    for name, data in outputs["local"].items():
        assert outputs["dask"][name] == data, f"{name} differs"
    assert b'"group_by": "year"' in outputs["local"]["summary.json"]


def test_theme_weights_in_blocks_whatever_the_partitions(cluster, corpus, local_tables, tmp_path, monkeypatch):
    """Abstracts weighted in blocks of 20 consecutive paper_id ranks (three blocks of the 57 papers, each across
    partitions): every table the same on the local engine and on the cluster with 2 and 5 partitions."""
    monkeypatch.setattr(counting, "TRANSFORM_BLOCK", 20)
    transform_block, blocks = counting._transform_block, []
    monkeypatch.setattr(counting, "_transform_block",
                        lambda fitted, *pieces: blocks.append(len(pieces)) or transform_block(fitted, *pieces))
    outputs = {}
    for name, options in (("local", []), ("dask-2", ["--scheduler", cluster.scheduler_address, "--partitions", "2"]),
                          ("dask-5", ["--scheduler", cluster.scheduler_address, "--partitions", "5"])):
        assert main(["analyse", str(corpus), "--out", str(tmp_path / name), "--quiet", *options]) == 0
        outputs[name] = output_files(tmp_path / name)
    for name in ("dask-2", "dask-5"):
        assert outputs[name].keys() == outputs["local"].keys()
        for file, data in outputs["local"].items():
            assert outputs[name][file] == data, f"{file} differs on {name}"
    assert blocks[:3] == [1, 1, 1]  # the local run: three blocks of its one partition
    # On this corpus the blocks change no weight in its six shown decimals.
    assert outputs["local"]["themes.csv"] == local_tables["themes.csv"]
    assert outputs["local"]["papers.csv"] == local_tables["papers.csv"]


def test_token_chunks_merge_to_the_whole(corpus):
    texts = read_corpus(corpus).papers["text"].tolist()
    whole = tokenize_corpus(texts, [str(i) for i in range(len(texts))], clean=True)
    for n_chunks in (1, 2, 3, 7):
        chunks = [_tokenize_chunk(texts[start:stop], True) for start, stop in partition_bounds(len(texts), n_chunks)]
        merged = merge_token_chunks(chunks, [str(i) for i in range(len(texts))])
        assert merged.vocabulary.tolist() == whole.vocabulary.tolist()
        assert merged.token_ids.tolist() == whole.token_ids.tolist()
        assert merged.starts.tolist() == whole.starts.tolist()


@pytest.mark.parametrize("options, message", [
    (["--engine", "spark"], "error: --engine / BOOK_ENGINE: must be one of local, dask, got 'spark'"),
    (["--scheduler", "localhost:8786"], "error: --scheduler / BOOK_DASK_SCHEDULER: must be an address "
                                        "tcp://HOST:PORT (or tls://HOST:PORT), got 'localhost:8786'"),
    (["--scheduler", "tcp://localhost:99999"], "error: --scheduler / BOOK_DASK_SCHEDULER: must be an address "
                                               "tcp://HOST:PORT (or tls://HOST:PORT), got 'tcp://localhost:99999'"),
    (["--engine", "local", "--scheduler", "tcp://localhost:8786"],
     "error: --scheduler / BOOK_DASK_SCHEDULER: needs the dask engine, got --engine local"),
    (["--engine", "dask", "--partitions", "0"],
     "error: --partitions / BOOK_PARTITIONS: must be a whole number of at least 1, got 0"),
])
def test_bad_engine_settings_exit_2_with_one_line(tmp_path, capsys, options, message):
    out = tmp_path / "out"
    assert main(["analyse", str(SEED_DIR), "--out", str(out), "--quiet", *options]) == 2
    assert capsys.readouterr().err.splitlines() == [message]
    assert not out.exists()


def test_book_reads_the_scheduler_from_its_settings():
    config = BookConfig.from_environment({"BOOK_DASK_SCHEDULER": "tcp://10.0.0.5:8786"}, root=Path("/book"))
    assert config.engine == EngineSettings(engine="dask", scheduler="tcp://10.0.0.5:8786")
    assert BookConfig.from_environment({}, root=Path("/book")).engine == EngineSettings()
    with pytest.raises(SettingsError, match=r"^--scheduler / BOOK_DASK_SCHEDULER: must be an address"):
        BookConfig.from_environment({"BOOK_DASK_SCHEDULER": "my-cluster"}, root=Path("/book"))


def test_the_workers_keep_the_texts_and_send_them_one_part_at_a_time(cluster, corpus, tmp_path):
    distributed = pytest.importorskip("distributed")
    local = read_corpus(corpus)
    with distributed.Client(cluster) as client:
        stages = ClusterStages(client, partitions=3)
        light = stages.read_corpus([corpus])
        assert "text" not in light.papers
        assert light.papers["opening"].iloc[1] == "Increasing experimental evidence suggests that the human hippocampus,…"
        assert light.papers.drop(columns="opening").equals(local.papers.drop(columns="text"))
        assert light.blocks.equals(local.blocks)
        stages.start(light)
        stages.wait_for_tokens()
        texts = stages.texts(light.papers["paper_id"].tolist(), tmp_path / "texts", max_papers=20)
    assert sorted(path.name for path in (tmp_path / "texts").iterdir()) == [
        "texts-00000.parquet", "texts-00001.parquet", "texts-00002.parquet"]
    assert texts.bounds == ((0, 19), (19, 38), (38, 57))
    assert [text for part in texts.parts() for text in part] == local.papers["text"].tolist()


def test_large_files_are_parsed_in_pieces_on_the_workers(cluster, corpus, tmp_path, monkeypatch):
    """Files cut into pieces of 4 KB (a seed-format file of all the abstracts, a JSON Lines file, a file with a bad
    byte in its last piece, skipped): the dask engine's tables are the local engine's, pieces or not."""
    from helpers.analysis.corpus import file_pieces

    texts = read_corpus(corpus).papers["text"].tolist()
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "all.txt").write_text("All abstracts\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    (folder / "records.jsonl").write_text("".join(json.dumps({"key": f"k{i}", "year": 2023 + i % 2, "abstract": text})
                                                  + "\n" for i, text in enumerate(texts[::-1])), encoding="utf-8")
    (folder / "bad.txt").write_bytes(("\n\n".join(texts[:8]) + "\n\nA bad \xff byte at the end.\n").encode("latin-1",
                                                                                                      errors="replace"))
    assert [len(file_pieces.split_file(path, path.name, 4096)) for path in sorted(folder.iterdir())] == [15, 3, 15]
    outputs = {}
    for name, size, options in (("local", file_pieces.PIECE_BYTES, []), ("local-pieces", 4096, []),
                                ("dask-pieces", 4096, ["--scheduler", cluster.scheduler_address, "--partitions", "3"])):
        monkeypatch.setattr(file_pieces, "PIECE_BYTES", size)
        assert main(["analyse", str(folder), "--out", str(tmp_path / name), "--quiet", "--skip-bad", *options]) == 0
        outputs[name] = output_files(tmp_path / name)
    for name in ("local-pieces", "dask-pieces"):
        assert outputs[name].keys() == outputs["local"].keys()
        for file, data in outputs["local"].items():
            assert outputs[name][file] == data, f"{file} differs on {name}"
    files = outputs["local"]["files.csv"].decode().splitlines()
    assert files[1].startswith("all.txt,") and files[2].startswith("bad.txt,") and ",skipped," in files[2] and "line 17, byte " in files[2]
