"""The paper explorer's data: every paper of the corpus as columns of plain values, in one script file.

:func:`explorer_data` turns the analysis's tables into one list per column (:data:`PAPER_COLUMNS`, and the
columns the papers carry only sometimes: year, group, venue code, theme shares, keywords), the values of
the page's filters beside them (themes, link states, files, sources, map terms, groups, broad themes,
keywords). :func:`write_explorer_data` writes them as ``explorer-data.js`` (:data:`DATA_FILE`), one statement
that sets ``window.EXPLORER_DATA``: a ``<script src>`` loads it, so the explorer also works when a reader
opens the built book from disk (``file://``, where ``fetch()`` of JSON fails).

Abstract text is untrusted: the data file is pure ASCII with ``<``, ``>``, ``&`` and ``'`` written as JSON
``\\u`` escapes (:func:`helpers.web.assets.script_json`), so no corpus text can close a script or open a tag in
any context, and URLs that are not ``http(s)`` never reach it. A corpus larger than the explorer holds is
shown as a seeded sample of it (:func:`explorer_papers`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np
import pandas as pd

from helpers.analysis.links.states import LINK_STATES
from helpers.analysis.links.hosts import LINKED_KINDS
from helpers.analysis.links.urls import is_safe_url
from helpers.web.assets import script_json
from helpers.web.explorer_columns import cell_text, paper_keyword_lists, paper_term_lists, source_labels, whole_percent

if TYPE_CHECKING:
    from helpers.analysis.pipeline.paper_texts import PaperTexts

DATA_FILE = "explorer-data.js"
DATA_GLOBAL = "EXPLORER_DATA"
# Link kinds shown in the "Code and data links" column: those that make a paper linked.
SHOWN_LINK_KINDS = LINKED_KINDS
PAPER_COLUMNS = ("id", "title", "authors", "theme", "state", "words", "file", "source", "text", "links",
                 "claims", "terms")




#: The most papers the explorer holds: its data file grows with them (about 24 MiB, ready in under 1 s at
#: 20,000 papers; ``benchmarks/explorer_ready.py``). A larger corpus is shown as a seeded sample of this many.
MAX_EXPLORER_PAPERS = 20_000
#: The sample's seed (numpy's ``default_rng``).
SAMPLE_SEED = 0


def explorer_papers(papers: pd.DataFrame, limit: int = MAX_EXPLORER_PAPERS, seed: int = SAMPLE_SEED,
                    texts: "PaperTexts | None" = None) -> pd.DataFrame:
    """The papers the explorer holds: all of them up to ``limit``, else a seeded random sample of ``limit``
    (rows kept in their order); with ``texts`` (:class:`helpers.analysis.pipeline.PaperTexts`), their ``text``
    column is added, read for these papers only: the abstract as published (``published_text``) where the
    analysed text leaves publisher boilerplate out.

    Parameters
    ----------
    papers
        The papers table, in its order.
    limit
        The most papers the explorer holds.
    seed
        The sample's seed.
    texts
        The abstracts' texts, kept apart from the table.

    Returns
    -------
    DataFrame
        The rows the explorer shows.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": list("abcdef")})
    >>> explorer_papers(papers, limit=10)["paper_id"].tolist(), explorer_papers(papers, limit=3)["paper_id"].tolist()
    (['a', 'b', 'c', 'd', 'e', 'f'], ['d', 'e', 'f'])
    >>> from helpers.analysis.pipeline.paper_texts import PaperTexts
    >>> explorer_papers(papers, limit=2, texts=PaperTexts.in_memory(list("abcdef"), list("ABCDEF")))["text"].tolist()
    ['D', 'E']
    >>> published = papers.assign(published_text=["", "", "", "D. (C) 2012 Elsevier Ltd.", "", ""])
    >>> explorer_papers(published, limit=2, texts=PaperTexts.in_memory(list("abcdef"), list("ABCDEF")))["text"].tolist()
    ['D. (C) 2012 Elsevier Ltd.', 'E']
    """
    if len(papers) > limit:
        rows = np.sort(np.random.default_rng(seed).choice(len(papers), size=limit, replace=False))
        papers = papers.iloc[rows]
    if texts is not None:
        text = pd.Series(texts.take(papers["paper_id"].tolist()), index=papers.index)
        if "published_text" in papers:  # the abstract as published, where publisher boilerplate was left out
            text = papers["published_text"].where(papers["published_text"] != "", text)
        papers = papers.assign(text=text)
    return papers


def explorer_sample_ids(paper_ids: Sequence[str], limit: int = MAX_EXPLORER_PAPERS) -> frozenset[str] | None:
    """The papers the explorer holds (:func:`explorer_papers`) of a corpus whose papers, in the papers table's
    order, are ``paper_ids``; ``None`` when it holds every paper.

    Parameters
    ----------
    paper_ids
        The corpus's papers, in the papers table's order.
    limit
        The most papers the explorer holds.

    Returns
    -------
    frozenset of str or None
        The ids in the sample.

    Examples
    --------
    >>> explorer_sample_ids(["a", "b"]) is None, sorted(explorer_sample_ids(list("abcdef"), limit=3))
    (True, ['d', 'e', 'f'])
    """
    if len(paper_ids) <= limit:
        return None
    return frozenset(explorer_papers(pd.DataFrame({"paper_id": list(paper_ids)}), limit)["paper_id"])




def explorer_data(
    papers: pd.DataFrame,
    links: pd.DataFrame,
    statements: pd.DataFrame,
    theme_labels: Mapping[int, str],
    cooccurrence: Any = None,
    group_order: Sequence[str] = (),
    corpus_papers: int | None = None,
    headers: Mapping[str, str | None] | None = None,
    hierarchy: pd.DataFrame | None = None,
    keyword_variants: pd.DataFrame | None = None,
) -> dict[str, Any]:
    """Everything the explorer shows, one list per column (:data:`PAPER_COLUMNS`).

    Parameters
    ----------
    papers : DataFrame
        ``paper_id, display_title, authors, theme, link_state, n_words, source_file, position, text``
        (:func:`helpers.analysis.corpus.titles.with_titles` adds the titles); rows are shown in
        ``source_file, position`` order.
    links : DataFrame
        ``paper_id, url, kind``; only http(s) URLs of :data:`SHOWN_LINK_KINDS` are kept.
    statements : DataFrame
        ``paper_id, sentence_no, statement, sentence``: each paper's availability claims.
    theme_labels : mapping
        Theme number to label (empty when no theme model could be fitted).
    cooccurrence : CooccurrenceResult, optional
        For each paper's map terms.
    group_order : sequence of str, optional
        The groups of ``papers["group"]`` (:attr:`helpers.analysis.pipeline.Analysis.group_order`);
        with two or more the data has ``groups`` and each paper's ``group``, for the group filter.
    corpus_papers : int, optional
        The papers of the whole corpus when ``papers`` is a sample of it (:func:`explorer_papers`): the
        data then has ``sample_of``, and the page says a paper it links to is not in the sample.
    headers : mapping, optional
        Each file's header line or ``None`` (:attr:`helpers.analysis.corpus.Corpus.headers`), for the
        Source column (:func:`source_labels`).
    hierarchy : DataFrame, optional
        ``broad_theme, broad_label, theme`` (:attr:`helpers.analysis.themes.hierarchy.ThemeHierarchy.table`): the
        data then has ``broad`` ({"letter": label}, in order) and ``theme_broad`` ({"number": letter}), for the
        broad theme filter (``?broad=<letter>``).
    keyword_variants : DataFrame, optional
        ``written, keyword`` (:attr:`helpers.analysis.keywords.KeywordMap.variants`): each keyword as written and
        as counted; with ``papers["keywords"]`` the data then has ``keywords`` (every keyword some paper gives, as
        counted, sorted) and each paper's ``keywords`` (indices), for the keyword filter (``?keyword=``).

    Returns
    -------
    dict
        ``themes`` ({"number": label}), ``states``, ``files``, ``sources``, ``terms`` and ``papers``: a dict of
        equal-length lists ``id, title, authors, theme`` (number or ``None``), ``state``, ``words``,
        ``file`` (index into ``files``, the file names), ``source`` (index into ``sources``, the Source
        column's labels), ``text``, ``links`` (URLs), ``claims`` (``[class, sentence]`` pairs) and ``terms``
        (indices into ``terms``); plus ``year`` when ``papers`` has a year column,
        and ``group`` (index into ``groups``) with two groups or more; ``venue_code`` when ``papers`` has
        :func:`helpers.analysis.links.states.venue_code_links`' columns (the http(s) code links the paper gave the
        venue, ``[]`` for none, ``None`` where its input has no code field); ``share``, ``theme2`` and ``share2``
        when ``papers`` has ``second_theme`` (:func:`helpers.analysis.themes.hierarchy.paper_grains`): the
        strongest and second theme's shares of the paper's theme weight (:func:`whole_percent`) and the second
        theme (number or ``None``); ``sample_of`` (the corpus's
        papers) when ``corpus_papers`` is more than ``papers`` holds.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["p1"], "display_title": ["Hens <b>in</b> aviaries"], "authors": ["A. Ng"],
    ...                        "theme": [0], "link_state": ["no-link"], "n_words": [120], "source_file": ["hens.txt"],
    ...                        "position": [0], "text": ["Keel bone fractures."]})
    >>> links = pd.DataFrame(columns=["paper_id", "url", "kind"])
    >>> statements = pd.DataFrame(columns=["paper_id", "sentence_no", "statement", "sentence"])
    >>> data = explorer_data(papers, links, statements, {0: "keel bone"})
    >>> data["themes"], data["papers"]["title"], data["files"]
    ({'0': 'keel bone'}, ['Hens <b>in</b> aviaries'], ['hens.txt'])
    """
    ordered = papers.sort_values(["source_file", "position"], kind="stable")
    paper_ids = [str(p) for p in ordered["paper_id"]]
    shown = links[links["kind"].isin(SHOWN_LINK_KINDS) & links["url"].map(is_safe_url)]
    links_of = shown.groupby("paper_id", sort=False)["url"].apply(lambda u: list(dict.fromkeys(u))).to_dict()
    claims = statements.sort_values(["paper_id", "sentence_no"], kind="stable")
    claims_of = {paper_id: [[str(s), str(t)] for s, t in zip(group["statement"], group["sentence"])]
                 for paper_id, group in claims.groupby("paper_id", sort=False)}
    files = sorted(set(ordered["source_file"].astype(str)))
    file_index = {name: i for i, name in enumerate(files)}
    labels = source_labels(ordered, headers)
    sources = list(dict.fromkeys(labels))
    source_index = {label: i for i, label in enumerate(sources)}
    terms, term_lists = paper_term_lists(cooccurrence, paper_ids)
    columns: dict[str, list[Any]] = {
        "id": paper_ids,
        "title": [cell_text(t) for t in ordered["display_title"]],
        "authors": [cell_text(a) for a in ordered["authors"]],
        "theme": [None if pd.isna(t) else int(t) for t in ordered["theme"]],
        "state": [cell_text(s) for s in ordered["link_state"]],
        "words": [int(n) for n in ordered["n_words"]],
        "file": [file_index[str(f)] for f in ordered["source_file"]],
        "source": [source_index[label] for label in labels],
        "text": [cell_text(t) for t in ordered["text"]],
        "links": [links_of.get(p, []) for p in paper_ids],
        "claims": [claims_of.get(p, []) for p in paper_ids],
        "terms": term_lists,
    }
    paper_columns: dict[str, list[Any]] = {name: columns[name] for name in PAPER_COLUMNS}
    data: dict[str, Any] = {
        "themes": {str(int(number)): str(label) for number, label in sorted(theme_labels.items())},
        "states": list(LINK_STATES),
        "files": files,
        "sources": sources,
        "terms": terms,
        "papers": paper_columns,
    }
    if "year" in ordered:
        paper_columns["year"] = [None if pd.isna(y) else int(y) for y in ordered["year"]]
    if len(group_order) > 1 and "group" in ordered:
        index = {str(name): i for i, name in enumerate(group_order)}
        data["groups"] = [str(name) for name in group_order]
        paper_columns["group"] = [index[str(g)] for g in ordered["group"]]
    if "venue_code_field" in ordered and "venue_code_url" in ordered:
        paper_columns["venue_code"] = [
            [u for u in cell_text(urls).split() if is_safe_url(u)] if bool(field) else None
            for field, urls in zip(ordered["venue_code_field"], ordered["venue_code_url"])]
    if "second_theme" in ordered:
        paper_columns["share"] = [whole_percent(w) if not pd.isna(t) else 0
                                   for t, w in zip(ordered["theme"], ordered["theme_weight"])]
        paper_columns["theme2"] = [None if pd.isna(t) else int(t) for t in ordered["second_theme"]]
        paper_columns["share2"] = [whole_percent(w) for w in ordered["second_theme_weight"]]
    if hierarchy is not None and len(hierarchy):
        data["broad"] = {str(b): str(label) for b, label in zip(hierarchy["broad_theme"], hierarchy["broad_label"])}
        pairs = sorted(zip(hierarchy["theme"], hierarchy["broad_theme"]))
        data["theme_broad"] = {str(int(t)): str(b) for t, b in pairs}
    if keyword_variants is not None and len(keyword_variants) and "keywords" in ordered:
        data["keywords"], paper_columns["keywords"] = paper_keyword_lists(ordered["keywords"], keyword_variants)
    if corpus_papers is not None and int(corpus_papers) > len(ordered):
        data["sample_of"] = int(corpus_papers)
    return data




def data_script(data: Mapping[str, Any]) -> str:
    """The data file's text: one statement that sets ``window.EXPLORER_DATA``.

    Parameters
    ----------
    data
        :func:`explorer_data`'s result.

    Returns
    -------
    str
        ASCII JavaScript.

    Examples
    --------
    >>> data_script({"papers": {"id": ["p<1>"]}})
    'window.EXPLORER_DATA = {"papers":{"id":["p\\\\u003c1\\\\u003e"]}};\\n'
    """
    return f"window.{DATA_GLOBAL} = {script_json(data, ascii_only=True)};\n"


def write_explorer_data(data: Mapping[str, Any], folder: Path) -> Path:
    """Write :func:`data_script` to ``folder`` (the book's figure folder) as :data:`DATA_FILE`.

    Parameters
    ----------
    data
        :func:`explorer_data`'s result.
    folder
        Where the file goes (created if missing).

    Returns
    -------
    Path
        The file written.

    Examples
    --------
    >>> import tempfile
    >>> write_explorer_data({"papers": {}}, Path(tempfile.mkdtemp())).read_text()
    'window.EXPLORER_DATA = {"papers":{}};\\n'
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DATA_FILE
    path.write_text(data_script(data), encoding="ascii", newline="\n")
    return path
