"""The corpus assembled from its files' block rows: duplicates found across files, papers, blocks and files tables."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from helpers.analysis.corpus.files import expand_paths, source_names
from helpers.analysis.corpus.hashes import abstract_facts
from helpers.analysis.corpus.one_file import read_one_file
from helpers.analysis.corpus.tables import (BLOCK_COLUMNS, CLEANING_COLUMNS, FILE_COLUMNS, MERGE_COLUMNS,
                                           METADATA_COLUMNS, PAPER_COLUMNS, Corpus, CorpusError)
from helpers.analysis.readers.identity import normalise_doi, title_key

__all__ = ["read_corpus", "assemble_corpus"]


def read_corpus(paths: Sequence[str | Path] | str | Path, *, skip_bad: bool = False) -> Corpus:
    """Read abstracts from files and directories, each file by its extension.

    Parameters
    ----------
    paths : path or sequence of paths
        Files (``.bib``, ``.ris``, ``.csv``, ``.tsv``, ``.jsonl`` by their reader, anything else in the
        seed format), or directories whose corpus files are read in name order (:func:`directory_files`).
    skip_bad : bool, default False
        Continue with the good files when some are bad; the bad ones are listed
        in ``Corpus.files`` with status ``skipped`` and the problem.

    Returns
    -------
    Corpus

    Raises
    ------
    CorpusError
        Listing every problem found (all bad files, not only the first), each
        line naming the file; raised also with ``skip_bad`` when no file is good.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> corpus = read_corpus(write_corpus({"a.txt": "My Header\\n\\nOne two three four five six.\\n"}))
    >>> corpus.blocks["kind"].tolist(), len(corpus.papers)
    (['header', 'abstract'], 1)
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    files, problems = expand_paths(paths)
    return assemble_corpus([read_one_file(path, name) for path, name in zip(files, source_names(files))],
                           problems, skip_bad=skip_bad)



def assemble_corpus(parsed: Sequence[tuple[dict, list[dict], list[str]]], problems: Sequence[str] = (), *,
                    skip_bad: bool = False) -> Corpus:
    """The :class:`Corpus` of :func:`read_one_file` results in reading order; duplicates are found across all
    files.

    Parameters
    ----------
    parsed : sequence of (dict, list of dict, list of str)
        Each file's :func:`read_one_file` result (or :func:`without_texts` of it), in reading order.
    problems : sequence of str, optional
        Problems found before, such as missing paths.
    skip_bad : bool, default False
        As :func:`read_corpus`.

    Returns
    -------
    Corpus
        The files' tables joined, each paper once.

    Raises
    ------
    CorpusError
        As :func:`read_corpus`.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> same = "Feed intake and egg weight in laying hens."
    >>> folder = write_corpus({"a.txt": same, "b.txt": same})
    >>> corpus = assemble_corpus([read_one_file(folder / name, name) for name in ("a.txt", "b.txt")])
    >>> corpus.blocks["kind"].tolist(), len(corpus.papers)
    (['abstract', 'duplicate'], 1)
    """
    problems = list(problems)
    file_rows: list[dict] = []
    block_rows: list[dict] = []
    for file_row, rows, file_problems in parsed:
        problems.extend(file_problems)
        file_rows.append(file_row)
        block_rows.extend(rows)
    ok_files = [row for row in file_rows if row["status"] == "ok"]
    if problems and (not skip_bad or not ok_files):
        if skip_bad:
            problems.append("no readable corpus file left after skipping the bad ones")
        raise CorpusError(problems)

    # Every row of a bibliographic file (any format but the seed's) carries its entry's key.
    with_records = any("key" in row for row in block_rows)
    merges: list[dict] = []
    papers = _papers_from_blocks(block_rows, with_records, merges)
    block_columns = BLOCK_COLUMNS + (["key"] if with_records else [])
    blocks = pd.DataFrame(block_rows, columns=block_columns)
    blocks["position"] = blocks["position"].astype("Int64")
    if with_records:
        blocks["key"] = blocks["key"].fillna("").astype(str)
    files_table = pd.DataFrame(file_rows, columns=FILE_COLUMNS)
    return Corpus(papers=papers, blocks=blocks, files=files_table, problems=problems,
                  fields=_paper_fields(block_rows), merges=pd.DataFrame(merges, columns=MERGE_COLUMNS),
                  cleaning=_cleaning_counts(block_rows, merges))


def _cleaning_counts(block_rows: list[dict], merges: list[dict]) -> pd.DataFrame:
    """Per file, the :data:`CLEANING_COLUMNS` counts; an empty table when every count is 0."""
    counts: dict[str, dict[str, int]] = {}

    def add(source_file: str, name: str, value: int) -> None:
        if value:
            per_file = counts.setdefault(source_file, dict.fromkeys(CLEANING_COLUMNS, 0))
            per_file[name] += value

    for row in block_rows:
        add(row["source_file"], "boilerplate_sentences", row.get("boilerplate", 0))
        add(row["source_file"], "structured_headings", row.get("headings", 0))
        add(row["source_file"], "extra_fields", int("extra-field" in row.get("notes", ())))
    for merge in merges:  # the same abstract twice is already a "duplicate" block: only the records that differ
        if merge["matched_by"] != "same abstract":
            add(merge["merged"].rsplit(":", 1)[0], "merged_records", 1)
    table = pd.DataFrame([dict(source_file=name, **values) for name, values in counts.items()],
                         columns=["source_file", *CLEANING_COLUMNS])
    return table.astype({name: "int64" for name in CLEANING_COLUMNS})


def _paper_fields(block_rows: list[dict]) -> pd.DataFrame:
    """``paper_id`` and each other field name of the papers' entries (first occurrence), as text."""
    rows = [dict(row["fields"], paper_id=row["paper_id"]) for row in block_rows
            if row["kind"] == "abstract" and row.get("fields")]
    if not rows:
        return pd.DataFrame({"paper_id": pd.Series(dtype=str)})
    table = pd.DataFrame(rows)
    columns = ["paper_id"] + sorted(c for c in table.columns if c != "paper_id")
    return table[columns].fillna("").astype(str)


def _richness(row: dict) -> tuple[int, int]:
    """How much a record tells: its metadata fields that are filled, then its abstract's words."""
    filled = sum(bool(row.get(name)) and not pd.isna(row.get(name)) for name in (*METADATA_COLUMNS, "keywords"))
    return filled, int(row.get("n_words") or 0)


def _identity_keys(row: dict) -> tuple[str, str]:
    """A record's normalised DOI and its title-and-year key (``""`` without either)."""
    doi = normalise_doi(row.get("doi"))
    title, year = title_key(row.get("title")), row.get("year")
    if year is None or pd.isna(year) or not title or len(title.split()) < 3:
        return doi, ""
    return doi, f"{title}|{int(year)}"


def _paper_row(row: dict, facts: dict, location: str, with_metadata: bool) -> dict:
    """A paper of the papers table from its abstract block and the block's :func:`abstract_facts`."""
    paper = dict(
        paper_id=facts["paper_id"],
        source_file=row["source_file"],
        position=row["position"],
        text=row.get("text"),
        n_words=row["n_words"],
        n_chars=facts["n_chars"],
        has_latex=facts["has_latex"],
        has_markdown=facts["has_markdown"],
        occurrences=1,
        locations=location,
        text_sha1=facts["text_sha1"],
        opening=facts.get("opening"),
    )
    if with_metadata:
        paper.update({name: row.get(name) for name in METADATA_COLUMNS})
        paper.update(keywords=row.get("keywords", ""), subjects=row.get("subjects", ""),
                     published_text=row.get("published_text", ""))
    return paper


def _papers_from_blocks(block_rows: list[dict], with_metadata: bool = False,
                        merges: list[dict] | None = None) -> pd.DataFrame:
    """Assign ``paper_id`` to abstract blocks, marking later copies as duplicates.

    A copy is a block with the same text (:func:`dedup_key`), or, in bibliographic files, a record with
    the same normalised DOI, or the same normalised title and year where one of them has no DOI. A text block
    keeps the first; of two records of a bibliographic file the richer (:func:`_richness`; the first when
    they tie) is the paper, in its own place in the order. Each record of a bibliographic file merged into
    another is listed in ``merges`` (:data:`MERGE_COLUMNS`; ``matched_by`` ``same abstract``, ``doi`` or
    ``title and year``).

    ``with_metadata`` adds :data:`METADATA_COLUMNS` (empty for papers of seed-format files), and ``keywords``,
    ``subjects`` and ``published_text`` when some paper has them. Blocks of :func:`without_texts` give a table without
    ``text`` and with ``opening`` (last).
    """
    papers: dict[str, dict] = {}
    dedup: dict[str, str] = {}
    members: dict[str, list[dict]] = {}  # each paper's block rows, the paper's own first
    by_doi: dict[str, str] = {}
    by_title: dict[str, str] = {}
    alias: dict[str, str] = {}  # a paper replaced by a richer record: its id to the record's
    with_texts = True
    merges = [] if merges is None else merges

    def resolve(paper_id: str) -> str:
        while paper_id in alias:
            paper_id = alias[paper_id]
        return paper_id

    for row in block_rows:
        if row["kind"] not in ("abstract",):
            row["paper_id"] = None
            continue
        facts = row.get("facts")
        if facts is None:
            facts = abstract_facts(row["text"])
        else:
            with_texts = False
        paper_id, dedup_sha1 = str(facts["paper_id"]), str(facts["dedup_sha1"])
        row["paper_id"] = paper_id
        location = f"{row['source_file']}:{row['position']}"
        is_record = "key" in row  # a record of a bibliographic file (the seed format has no keys)
        doi, title = _identity_keys(row) if with_metadata and is_record else ("", "")
        match, matched_by = None, ""
        if paper_id in papers or paper_id in alias:
            if dedup[paper_id] != dedup_sha1:
                raise CorpusError(
                    [f"{row['source_file']}: block {row['block']}: paper id {paper_id} collides"
                     f" with {papers[resolve(paper_id)]['locations']}; please report this"]
                )
            match, matched_by = resolve(paper_id), "same abstract"
        elif doi and doi in by_doi:
            match, matched_by = resolve(by_doi[doi]), "doi"
        elif title and title in by_title:
            candidate = resolve(by_title[title])
            if not doi or not papers[candidate].get("doi"):
                match, matched_by = candidate, "title and year"
        if match is None:
            dedup[paper_id] = dedup_sha1
            papers[paper_id] = _paper_row(row, facts, location, with_metadata)
            members[paper_id] = [row]
        else:
            existing, kept_row = papers[match], members[match][0]
            kept_location = f"{kept_row['source_file']}:{kept_row['position']}"
            if is_record and _richness(row) > _richness(kept_row):  # the new record is the paper, at its own place
                old_members = members.pop(match)
                del papers[match]
                for member in old_members:
                    member["kind"], member["paper_id"] = "duplicate", paper_id
                paper = _paper_row(row, facts, location, with_metadata)
                paper["occurrences"] = existing["occurrences"] + 1
                paper["locations"] = existing["locations"] + "; " + location
                papers[paper_id], dedup[paper_id], members[paper_id] = paper, dedup_sha1, [row, *old_members]
                if paper_id != match:
                    alias[match] = paper_id
                merges.append(dict(paper_id=paper_id, kept=location, merged=kept_location, matched_by=matched_by))
            else:
                row["kind"], row["paper_id"] = "duplicate", match
                existing["occurrences"] += 1
                existing["locations"] += "; " + location
                members[match].append(row)
                if is_record:
                    merges.append(dict(paper_id=match, kept=kept_location, merged=location, matched_by=matched_by))
                paper_id = match
        for key, key_map in ((doi, by_doi), (title, by_title)):
            if key and key not in key_map:
                key_map[key] = paper_id
    for merge in merges:  # a paper replaced by a richer record later on is that record's paper
        merge["paper_id"] = resolve(merge["paper_id"])
    extra = []
    if with_metadata:
        extra = [name for name in ("keywords", "subjects", "published_text") if any(p[name] for p in papers.values())]
    columns = PAPER_COLUMNS + (METADATA_COLUMNS + extra if with_metadata else [])
    if not with_texts:
        columns = [c for c in columns if c != "text"] + ["opening"]
    table = pd.DataFrame(list(papers.values()), columns=columns)
    table = table.astype({"position": "int64", "n_words": "int64", "n_chars": "int64",
                          "occurrences": "int64", "has_latex": bool, "has_markdown": bool})
    if with_metadata:
        for name in METADATA_COLUMNS + extra:
            if name == "year":
                table[name] = pd.array([pd.NA if v is None or pd.isna(v) else int(v) for v in table[name]],
                                       dtype="Int64")
            else:
                table[name] = table[name].fillna("").astype(str)
    return table
