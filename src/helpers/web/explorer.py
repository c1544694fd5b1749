"""The paper explorer: every paper of the corpus, searchable, sortable and filterable, at any corpus size.

The page is a small static shell (:func:`explorer_html`) plus one data file,
``explorer-data.js`` (:func:`write_explorer_data`), that sets one global,
``window.EXPLORER_DATA``, with the papers stored column by column
(:func:`explorer_data`). A ``<script src>`` loads it, so the explorer also works
when a reader opens the built book from disk (``file://``, where ``fetch()`` of
JSON fails). The page's style and script are package files, ``static/explorer.css``
and ``static/explorer.js``, inlined into the shell. The script renders one page of
rows at a time (:data:`PAGE_SIZE`), sets every piece of corpus text as text
(``textContent``, text nodes; never as HTML), makes elements of six inline tags only
(``em, i, b, strong, sub, sup`` written without attributes and closed in order,
built with ``createElement``; any other tag shows as written), makes links only of
``http(s)`` URLs, and typesets math with the book's local MathJax only in expanded rows.

Abstract text is untrusted: the data file is pure ASCII with ``<``, ``>``, ``&``
and ``'`` written as JSON ``\\u`` escapes (:func:`helpers.web.assets.script_json`),
so no corpus text can close a script or open a tag in any context, and URLs that
are not ``http(s)`` never reach it.

URL parameters open the explorer filtered: ``?q=words``, ``?theme=<number>``,
``?state=<link state>``, ``?term=<map term>`` (repeatable: papers using every
term given), ``?keyword=<keyword>`` (repeatable: papers giving every keyword, as the keyword map spells them),
``?group=<group>`` and, where the input has a code field, ``?venue_code=given`` or
``?venue_code=not-given`` (a code link given to the venue, or none), ``?broad=<letter>`` (the papers whose
strongest theme is in that broad theme, :mod:`helpers.analysis.themes.hierarchy`); ``#paper-<paper_id>``
shows and expands one paper.
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Mapping, Sequence
from urllib.parse import quote

import numpy as np
import pandas as pd

from helpers.analysis.links.states import LINK_STATES
from helpers.analysis.links.urls import LINKED_KINDS, is_safe_url
from helpers.web.assets import inline_script, script_json, static_text

if TYPE_CHECKING:
    from helpers.analysis.engine.paper_texts import PaperTexts

DATA_FILE = "explorer-data.js"
DATA_GLOBAL = "EXPLORER_DATA"
# The page's style and script, shipped in static/ (linted and tested under tests/js).
STYLE_FILE, SCRIPT_FILE = "explorer.css", "explorer.js"
PAGE_SIZE = 50
# The book's local MathJax (``mathjax_path`` in _config.yml, served from _static), from a chapter page.
MATHJAX_SRC = "../_static/mathjax/es5/tex-chtml.js"
# Link kinds shown in the "Code and data links" column: those that make a paper linked.
SHOWN_LINK_KINDS = LINKED_KINDS
PAPER_COLUMNS = ("id", "title", "authors", "theme", "state", "words", "file", "source", "text", "links",
                 "claims", "terms")
# Columns the data has only when the papers carry them: ``year`` (a number or null), ``group`` (an index
# into the data's ``groups``, with two groups or more), ``venue_code`` (where the input has a code field),
# ``share``, ``theme2`` and ``share2`` (the two grains of themes: whole percents, rounded down), ``keywords``
# (indices into the data's ``keywords``, where papers give keywords).
OPTIONAL_COLUMNS = ("year", "group", "venue_code", "share", "theme2", "share2", "keywords")


def whole_percent(share: float) -> int:
    """A share as a whole percent rounded down, so a mixed paper (its strongest theme under half) never shows 50%.

    Examples
    --------
    >>> [whole_percent(s) for s in (0.57, 0.499999, 0.5, 1.0, 0.0)]
    [57, 49, 50, 100, 0]
    """
    return int(math.floor(round(float(share) * 100, 6)))


#: The most papers the explorer holds: its data file grows with them (about 24 MiB, ready in under 1 s at
#: 20,000 papers; ``benchmarks/explorer_ready.py``). A larger corpus is shown as a seeded sample of this many.
MAX_EXPLORER_PAPERS = 20_000
#: The sample's seed (numpy's ``default_rng``).
SAMPLE_SEED = 0


def explorer_papers(papers: pd.DataFrame, limit: int = MAX_EXPLORER_PAPERS, seed: int = SAMPLE_SEED,
                    texts: "PaperTexts | None" = None) -> pd.DataFrame:
    """The papers the explorer holds: all of them up to ``limit``, else a seeded random sample of ``limit``
    (rows kept in their order); with ``texts`` (:class:`helpers.analysis.texts.PaperTexts`), their ``text``
    column is added, read for these papers only: the abstract as published (``published_text``) where the
    analysed text leaves publisher boilerplate out.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": list("abcdef")})
    >>> explorer_papers(papers, limit=10)["paper_id"].tolist(), explorer_papers(papers, limit=3)["paper_id"].tolist()
    (['a', 'b', 'c', 'd', 'e', 'f'], ['d', 'e', 'f'])
    >>> from helpers.analysis.engine.paper_texts import PaperTexts
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

    Examples
    --------
    >>> explorer_sample_ids(["a", "b"]) is None, sorted(explorer_sample_ids(list("abcdef"), limit=3))
    (True, ['d', 'e', 'f'])
    """
    if len(paper_ids) <= limit:
        return None
    return frozenset(explorer_papers(pd.DataFrame({"paper_id": list(paper_ids)}), limit)["paper_id"])


def papers_link_text(n_papers: int, n_in_sample: int | None = None) -> str:
    """The text of a link to the explorer filtered to ``n_papers`` papers, ``n_in_sample`` of them in its sample
    (``None``: it holds every paper).

    Examples
    --------
    >>> papers_link_text(97), papers_link_text(1_970, n_in_sample=1_601), papers_link_text(12, n_in_sample=12)
    ('all 97 papers', 'the 1,601 of 1,970 in the sample', 'all 12 papers')
    >>> papers_link_text(1), papers_link_text(0)
    ('the 1 paper', 'no paper')
    """
    if n_in_sample is None or n_in_sample == n_papers:
        if n_papers <= 1:
            return "the 1 paper" if n_papers == 1 else "no paper"
        return f"all {int(n_papers):,} papers"
    return f"the {int(n_in_sample):,} of {int(n_papers):,} in the sample"


def _is_hash_part(part: str) -> bool:
    """A part of a file name that names nothing: digits only, or 4+ hexadecimal characters with a digit and a letter."""
    if part.isdigit():
        return True
    return len(part) >= 4 and all(c in "0123456789abcdef" for c in part.lower()) and not part.isalpha()


def readable_file_name(name: str) -> bool:
    """Whether a file name (its suffix aside) says something to a reader: some part of it (split at anything
    but letters and digits) is more than digits or a hash (``_is_hash_part``).

    Examples
    --------
    >>> readable_file_name("icml2023.bib"), readable_file_name("part-A.jsonl"), readable_file_name("a.txt")
    (True, True, True)
    >>> readable_file_name("000_2e4aa40cf9124fb1.txt"), readable_file_name("0001.txt")
    (False, False)
    """
    parts = [p for p in re.split(r"[\W_]+", str(PurePosixPath(name).with_suffix(""))) if p]
    return any(not _is_hash_part(part) for part in parts)


def source_labels(papers: pd.DataFrame, headers: Mapping[str, str | None] | None = None) -> list[str]:
    """What the explorer's Source column says of each paper, never a bare hash: its ``venue`` and ``year``
    where the input gives a venue ("ICML 2024"), else its file's header line (``headers``: file name to
    header, :attr:`helpers.analysis.corpus.Corpus.headers`), else its file's name when
    :func:`readable_file_name`, else "file <n> of <files>" (files in name order).

    Examples
    --------
    >>> papers = pd.DataFrame({"source_file": ["000_2e4aa40cf9124fb1.txt", "002_a8c086987ad7c5d5.txt", "b.bib"],
    ...                        "venue": ["", "", "ICML"], "year": [None, None, 2024]})
    >>> source_labels(papers, {"000_2e4aa40cf9124fb1.txt": "ICML 2024 Papers"})
    ['ICML 2024 Papers', 'file 2 of 3', 'ICML 2024']
    """
    files = sorted(set(papers["source_file"].astype(str)))
    place = {name: n for n, name in enumerate(files, start=1)}
    by_file = {}
    for name in files:
        header = (headers or {}).get(name)
        by_file[name] = (header if isinstance(header, str) and header.strip() else
                         name if readable_file_name(name) else f"file {place[name]:,} of {len(files):,}")
    venues = papers["venue"] if "venue" in papers else pd.Series("", index=papers.index)
    years = papers["year"] if "year" in papers else pd.Series(None, index=papers.index, dtype=object)
    labels = []
    for name, venue, year in zip(papers["source_file"].astype(str), venues, years):
        venue = _text(venue).strip()
        labels.append(f"{venue} {int(year)}" if venue and not pd.isna(year) else venue or by_file[name])
    return labels


def escape(value: object) -> str:
    """HTML-escape any cell value (quotes too); missing values give ``""``.

    Examples
    --------
    >>> escape('<a href="x">&</a>'), escape(None), escape(float("nan"))
    ('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;', '', '')
    """
    if value is None or (isinstance(value, float) and pd.isna(value)) or value is pd.NA:
        return ""
    return html.escape(str(value), quote=True)


def _text(value: object) -> str:
    return "" if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)) else str(value)


def paper_term_lists(cooccurrence: Any, paper_ids: list[str]) -> tuple[list[str], list[list[int]]]:
    """The map's terms and, for each paper of ``paper_ids``, the indices of the terms it uses.

    ``cooccurrence`` is a :class:`helpers.analysis.cooccurrence.CooccurrenceResult` (or any
    object with ``terms``, ``paper_terms`` and ``paper_ids``) or ``None``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from scipy import sparse
    >>> result = SimpleNamespace(terms=pd.DataFrame({"term": ["graph", "model"]}), paper_ids=["a", "b"],
    ...                          paper_terms=sparse.csr_matrix([[1, 1], [0, 1]]))
    >>> paper_term_lists(result, ["b", "a", "c"])
    (['graph', 'model'], [[1], [0, 1], []])
    """
    if cooccurrence is None or len(cooccurrence.terms) == 0:
        return [], [[] for _ in paper_ids]
    terms = [str(t) for t in cooccurrence.terms["term"]]
    matrix = cooccurrence.paper_terms.tocsr()
    row_of = {paper_id: row for row, paper_id in enumerate(cooccurrence.paper_ids)}
    lists: list[list[int]] = []
    for paper_id in paper_ids:
        row = row_of.get(paper_id)
        if row is None:
            lists.append([])
            continue
        start, end = matrix.indptr[row], matrix.indptr[row + 1]
        used = matrix.indices[start:end][matrix.data[start:end] != 0]
        lists.append(sorted(int(i) for i in used))
    return terms, lists


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
        "title": [_text(t) for t in ordered["display_title"]],
        "authors": [_text(a) for a in ordered["authors"]],
        "theme": [None if pd.isna(t) else int(t) for t in ordered["theme"]],
        "state": [_text(s) for s in ordered["link_state"]],
        "words": [int(n) for n in ordered["n_words"]],
        "file": [file_index[str(f)] for f in ordered["source_file"]],
        "source": [source_index[label] for label in labels],
        "text": [_text(t) for t in ordered["text"]],
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
            [u for u in _text(urls).split() if is_safe_url(u)] if bool(field) else None
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


def paper_keyword_lists(cells: pd.Series, variants: pd.DataFrame) -> tuple[list[str], list[list[int]]]:
    """Every keyword the papers give, as counted (sorted), and each paper's keywords as indices into it.

    Examples
    --------
    >>> variants = pd.DataFrame({"written": ["Broilers", "broiler", "Study"], "keyword": ["broiler", "broiler", ""]})
    >>> paper_keyword_lists(pd.Series(["Broilers; Study", None, "broiler"]), variants)
    (['broiler'], [[0], [], [0]])
    """
    from helpers.analysis.keywords.normalise import paper_keyword_sets  # lazy: it loads the term lexicon

    sets = paper_keyword_sets(cells.tolist(), variants)
    keywords = sorted({keyword for found in sets for keyword in found})
    index = {keyword: position for position, keyword in enumerate(keywords)}
    return keywords, [sorted(index[keyword] for keyword in found) for found in sets]


def data_script(data: Mapping[str, Any]) -> str:
    """The data file's text: one statement that sets ``window.EXPLORER_DATA``.

    Examples
    --------
    >>> data_script({"papers": {"id": ["p<1>"]}})
    'window.EXPLORER_DATA = {"papers":{"id":["p\\\\u003c1\\\\u003e"]}};\\n'
    """
    return f"window.{DATA_GLOBAL} = {script_json(data, ascii_only=True)};\n"


def write_explorer_data(data: Mapping[str, Any], folder: Path) -> Path:
    """Write :func:`data_script` to ``folder`` (the book's figure folder) as :data:`DATA_FILE`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DATA_FILE
    path.write_text(data_script(data), encoding="ascii", newline="\n")
    return path


def explorer_url(*, q: str = "", theme: int | None = None, state: str = "", terms: tuple[str, ...] = (),
                 group: str = "", venue_code: str = "", broad: str = "", page: str = "explorer.html") -> str:
    """A link to the explorer opened filtered, for other chapters' "all N papers" links (HTML-escape it).

    Examples
    --------
    >>> explorer_url(terms=("graph neural network", "node"))
    'explorer.html?term=graph%20neural%20network&term=node'
    >>> explorer_url(q="a&b", theme=3, state="dangling")
    'explorer.html?q=a%26b&theme=3&state=dangling'
    >>> explorer_url(group="2025", terms=("llm",))
    'explorer.html?term=llm&group=2025'
    >>> explorer_url(group="2025", venue_code="given")
    'explorer.html?group=2025&venue_code=given'
    >>> explorer_url(broad="B")
    'explorer.html?broad=B'
    """
    parts = [f"q={quote(q, safe='')}"] if q else []
    parts += [f"theme={int(theme)}"] if theme is not None else []
    parts += [f"state={quote(state, safe='')}"] if state else []
    parts += [f"term={quote(term, safe='')}" for term in terms]
    parts += [f"group={quote(group, safe='')}"] if group else []
    parts += [f"venue_code={quote(venue_code, safe='')}"] if venue_code else []
    parts += [f"broad={quote(broad, safe='')}"] if broad else []
    return page + ("?" + "&".join(parts) if parts else "")


def explorer_markdown(n_papers: int) -> str:
    """The explorer's stand-in in the PDF book, which cannot run it.

    Examples
    --------
    >>> explorer_markdown(57)
    'The interactive explorer of the 57 papers is part of the web version of this book (`chapters/explorer.html`).'
    >>> explorer_markdown(1)
    'The interactive explorer of the 1 paper is part of the web version of this book (`chapters/explorer.html`).'
    """
    papers = "paper" if int(n_papers) == 1 else "papers"
    return (f"The interactive explorer of the {int(n_papers):,} {papers} is part of the web version of this book "
            "(`chapters/explorer.html`).")


_HEADERS = [("", "", "expand"), ("title", "Title", "title"), ("authors", "Authors", "authors"),
            ("theme", "Theme", "theme"), ("state", "Link state", "state"), ("", "Code and data links", "links"),
            ("words", "Words", "words"), ("file", "Source", "file")]
_YEAR_HEADER = ("year", "Year", "year")


def explorer_html(*, data_src: str = f"../figures/{DATA_FILE}", mathjax_src: str = MATHJAX_SRC,
                  page_size: int = PAGE_SIZE, with_year: bool = False, with_groups: bool = False,
                  with_venue_code: bool = False, with_broad: bool = False) -> str:
    """The explorer's page: style, controls, an empty table, the data file's ``<script src>`` and the script.

    The shell holds no corpus text; everything shown comes from the data file
    (:func:`write_explorer_data`), whose address relative to the page is ``data_src``.
    ``mathjax_src`` is the book's MathJax, loaded when the first row is expanded (unless the
    page already loads it). ``with_year`` adds a Year column (the data has ``year``), ``with_groups``
    a group filter (the data has ``groups``), ``with_venue_code`` a filter by the code link given to the venue
    (the data has ``venue_code``), ``with_broad`` a broad theme filter (the data has ``broad``); without them the
    page is as it always was.
    """
    shown = _HEADERS[:3] + [_YEAR_HEADER] + _HEADERS[3:] if with_year else _HEADERS
    columns = "".join(f'<col class="c-{css}">' for _, _, css in shown)
    headers = "".join(
        f'<th data-sort="{key}" scope="col"><button type="button">{name}</button></th>' if key
        else f'<th scope="col">{name}</th>' for key, name, _ in shown)
    group_select = ('<select class="explorer-group" aria-label="Filter by group"><option value="">All groups'
                    '</option></select>' if with_groups else "")
    venue_select = ('<select class="explorer-venue" aria-label="Filter by code link given to the venue">'
                    '<option value="">Any code link to the venue</option>'
                    '<option value="given">Code link given to the venue</option>'
                    '<option value="not-given">No code link given to the venue</option></select>'
                    if with_venue_code else "")
    broad_select = ('<select class="explorer-broad" aria-label="Filter by broad theme"><option value="">'
                    'All broad themes</option></select>' if with_broad else "")
    app_class = "mathjax_ignore with-year" if with_year else "mathjax_ignore"
    return (
        f"\n<style>\n{static_text(STYLE_FILE)}</style>\n"
        + f'<div id="explorer-app" class="{app_class}" data-page-size="{int(page_size)}" '
          f'data-src="{escape(data_src)}" data-mathjax="{escape(mathjax_src)}">'
        + '<div class="explorer-controls">'
        + '<input class="explorer-search" type="search" placeholder="Search titles, authors, themes, abstracts" '
          'aria-label="Search papers">' + broad_select
        + '<select class="explorer-theme" aria-label="Filter by theme"><option value="">All themes</option></select>'
        + '<select class="explorer-state" aria-label="Filter by link state"><option value="">All link states'
          '</option></select>' + group_select + venue_select
        + '<span class="explorer-terms" aria-label="Map term filters"></span>'
        + '<span class="explorer-count" role="status" aria-live="polite">Loading the papers…</span></div>'
        + f"<table><colgroup>{columns}</colgroup><thead><tr>{headers}</tr></thead><tbody></tbody></table>"
        + '<nav class="explorer-pager" aria-label="Pages of papers" hidden>'
          '<button type="button" class="pager-first">First</button>'
          '<button type="button" class="pager-previous">Previous</button><span class="pager-text"></span>'
          '<button type="button" class="pager-next">Next</button>'
          '<button type="button" class="pager-last">Last</button></nav>'
        + "<noscript>The explorer needs JavaScript; every paper is also in the analysis's papers.csv.</noscript>"
        + "</div>"
        + f'<script src="{escape(data_src)}"></script>'
        + "\n" + inline_script(static_text(SCRIPT_FILE), name=SCRIPT_FILE) + "\n"
    )
