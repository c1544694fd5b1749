"""The paper explorer: every paper of the corpus, searchable, sortable and filterable, at any corpus size.

The page is a small static shell (:func:`explorer_html`) plus one data file,
``explorer-data.js`` (:func:`write_explorer_data`), that sets one global,
``window.EXPLORER_DATA``, with the papers stored column by column
(:func:`explorer_data`). A ``<script src>`` loads it, so the explorer also works
when a reader opens the built book from disk (``file://``, where ``fetch()`` of
JSON fails). The page's own script renders one page of rows at a time
(:data:`PAGE_SIZE`), sets every piece of corpus text with ``textContent`` (never
as HTML), makes links only of ``http(s)`` URLs, and typesets math with the book's
local MathJax only in expanded rows.

Abstract text is untrusted: the data file is pure ASCII with ``<``, ``>`` and
``&`` written as JSON ``\\u`` escapes, so no corpus text can close a script or
open a tag in any context, and URLs that are not ``http(s)`` never reach it.

URL parameters open the explorer filtered: ``?q=words``, ``?theme=<number>``,
``?state=<link state>`` and ``?term=<map term>`` (repeatable: papers using every
term given); ``#paper-<paper_id>`` shows and expands one paper.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import quote

import pandas as pd

from helpers.analysis.links import LINK_STATES
from helpers.analysis.urls import LINKED_KINDS, is_safe_url

DATA_FILE = "explorer-data.js"
DATA_GLOBAL = "EXPLORER_DATA"
PAGE_SIZE = 50
# The book's local MathJax (``mathjax_path`` in _config.yml, served from _static), from a chapter page.
MATHJAX_SRC = "../_static/mathjax/es5/tex-chtml.js"
# Link kinds shown in the "Code and data links" column: those that make a paper linked.
SHOWN_LINK_KINDS = LINKED_KINDS
PAPER_COLUMNS = ("id", "title", "authors", "theme", "state", "words", "file", "text", "links", "claims",
                 "terms")

_JSON_HTML_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


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


def safe_json(value: Any) -> str:
    """Compact JSON that is pure ASCII and holds no ``<``, ``>`` or ``&``: safe inside any script.

    Examples
    --------
    >>> safe_json({"t": "</script><b>&\\"é"})
    '{"t":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026\\\\"\\\\u00e9"}'
    >>> json.loads(safe_json({"t": "</script><b>&\\"é"}))["t"]
    '</script><b>&"é'
    """
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return re.sub(r"[<>&]", lambda m: _JSON_HTML_ESCAPES[m.group(0)], text)


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
    lists = []
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
) -> dict[str, Any]:
    """Everything the explorer shows, one list per column (:data:`PAPER_COLUMNS`).

    Parameters
    ----------
    papers : DataFrame
        ``paper_id, display_title, authors, theme, link_state, n_words, source_file, position, text``
        (:func:`helpers.analysis.metadata.with_titles` adds the titles); rows are shown in
        ``source_file, position`` order.
    links : DataFrame
        ``paper_id, url, kind``; only http(s) URLs of :data:`SHOWN_LINK_KINDS` are kept.
    statements : DataFrame
        ``paper_id, sentence_no, statement, sentence``: each paper's availability claims.
    theme_labels : mapping
        Theme number to label (empty when no theme model could be fitted).
    cooccurrence : CooccurrenceResult, optional
        For each paper's map terms.

    Returns
    -------
    dict
        ``themes`` ({"number": label}), ``states``, ``files``, ``terms`` and ``papers``: a dict of
        equal-length lists ``id, title, authors, theme`` (number or ``None``), ``state``, ``words``,
        ``file`` (index into ``files``), ``text``, ``links`` (URLs), ``claims`` (``[class, sentence]``
        pairs) and ``terms`` (indices into ``terms``).
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
    terms, term_lists = paper_term_lists(cooccurrence, paper_ids)
    columns = {
        "id": paper_ids,
        "title": [_text(t) for t in ordered["display_title"]],
        "authors": [_text(a) for a in ordered["authors"]],
        "theme": [None if pd.isna(t) else int(t) for t in ordered["theme"]],
        "state": [_text(s) for s in ordered["link_state"]],
        "words": [int(n) for n in ordered["n_words"]],
        "file": [file_index[str(f)] for f in ordered["source_file"]],
        "text": [_text(t) for t in ordered["text"]],
        "links": [links_of.get(p, []) for p in paper_ids],
        "claims": [claims_of.get(p, []) for p in paper_ids],
        "terms": term_lists,
    }
    return {
        "themes": {str(int(number)): str(label) for number, label in sorted(theme_labels.items())},
        "states": list(LINK_STATES),
        "files": files,
        "terms": terms,
        "papers": {name: columns[name] for name in PAPER_COLUMNS},
    }


def data_script(data: Mapping[str, Any]) -> str:
    """The data file's text: one statement that sets ``window.EXPLORER_DATA``.

    Examples
    --------
    >>> data_script({"papers": {"id": ["p<1>"]}})
    'window.EXPLORER_DATA = {"papers":{"id":["p\\\\u003c1\\\\u003e"]}};\\n'
    """
    return f"window.{DATA_GLOBAL} = {safe_json(data)};\n"


def write_explorer_data(data: Mapping[str, Any], folder: Path) -> Path:
    """Write :func:`data_script` to ``folder`` (the book's figure folder) as :data:`DATA_FILE`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DATA_FILE
    path.write_text(data_script(data), encoding="ascii", newline="\n")
    return path


def explorer_url(*, q: str = "", theme: int | None = None, state: str = "", terms: tuple[str, ...] = (),
                 page: str = "explorer.html") -> str:
    """A link to the explorer opened filtered, for other chapters' "all N papers" links (HTML-escape it).

    Examples
    --------
    >>> explorer_url(terms=("graph neural network", "node"))
    'explorer.html?term=graph%20neural%20network&term=node'
    >>> explorer_url(q="a&b", theme=3, state="dangling")
    'explorer.html?q=a%26b&theme=3&state=dangling'
    """
    parts = [f"q={quote(q, safe='')}"] if q else []
    parts += [f"theme={int(theme)}"] if theme is not None else []
    parts += [f"state={quote(state, safe='')}"] if state else []
    parts += [f"term={quote(term, safe='')}" for term in terms]
    return page + ("?" + "&".join(parts) if parts else "")


def explorer_markdown(n_papers: int) -> str:
    """The explorer's stand-in in the PDF book, which cannot run it.

    Examples
    --------
    >>> explorer_markdown(57)
    'The interactive explorer of the 57 papers is part of the web version of this book (`chapters/explorer.html`).'
    """
    return (f"The interactive explorer of the {int(n_papers):,} papers is part of the web version of this book "
            "(`chapters/explorer.html`).")


EXPLORER_STYLE = """
<style>
/* This page only: the article takes the whole width beside the book's navigation. */
.bd-main .bd-content .bd-article-container { max-width: none; }
#explorer-app { font-size: .85rem; }
#explorer-app .explorer-controls { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center;
  margin-bottom: .5rem; }
#explorer-app input.explorer-search { flex: 1 1 18rem; padding: .3rem; }
#explorer-app select { max-width: 22rem; padding: .25rem; }
#explorer-app .explorer-count { font-weight: 600; }
#explorer-app .explorer-terms button, #explorer-app .paper-terms button { border: 1px solid #99b;
  border-radius: .8rem; background: #eef; padding: 0 .5rem; margin: 0 .2rem .2rem 0; cursor: pointer; }
#explorer-app table { width: 100%; border-collapse: collapse; table-layout: fixed; }
#explorer-app th, #explorer-app td { border-bottom: 1px solid #ddd; padding: .25rem .3rem;
  vertical-align: top; overflow-wrap: anywhere; }
#explorer-app th { overflow-wrap: normal; }
#explorer-app th button { border: 0; background: none; font-weight: 600; padding: 0; cursor: pointer; }
#explorer-app th[aria-sort="ascending"] button::after { content: " \\25B2"; }
#explorer-app th[aria-sort="descending"] button::after { content: " \\25BC"; }
/* Column shares add up to 100%. */
#explorer-app col.c-expand { width: 3%; } #explorer-app col.c-title { width: 27.5%; }
#explorer-app col.c-authors { width: 18%; } #explorer-app col.c-theme { width: 11%; }
#explorer-app col.c-state { width: 7.5%; } #explorer-app col.c-links { width: 13%; }
#explorer-app col.c-words { width: 6%; } #explorer-app col.c-file { width: 14%; }
#explorer-app td.file { font-size: .7rem; }
#explorer-app td.authors div { display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical;
  overflow: hidden; }
#explorer-app tr.paper-detail td { background: #f7f7f7; padding: .6rem .8rem; }
#explorer-app .abstract-text { font-size: .95rem; line-height: 1.5; margin-bottom: .5rem; }
#explorer-app .paper-claims { margin: .3rem 0; padding-left: 1.2rem; }
#explorer-app .claim-class { font-weight: 600; margin-right: .4rem; }
#explorer-app button.expand { border: 1px solid #999; background: white; cursor: pointer; width: 1.6rem; }
#explorer-app tr.paper-row:target td, #explorer-app tr.paper-row.focus td { background: #fff7d6; }
#explorer-app .explorer-pager { display: flex; gap: .6rem; align-items: center; margin-top: .5rem; }
#explorer-app .explorer-empty td { padding: 1rem; font-style: italic; }
</style>
"""

EXPLORER_SCRIPT = r"""
<script>
(function () {
  "use strict";
  var root = document.getElementById("explorer-app");
  if (!root) { return; }
  var count = root.querySelector(".explorer-count");
  var data = window.EXPLORER_DATA;
  if (!data || !data.papers) {
    count.textContent = "The explorer's data file (" + root.getAttribute("data-src") + ") did not load.";
    return;
  }
  var P = data.papers, total = P.id.length, pageSize = parseInt(root.getAttribute("data-page-size"), 10) || 50;
  var body = root.querySelector("tbody"), search = root.querySelector("input.explorer-search");
  var themeSelect = root.querySelector("select.explorer-theme");
  var stateSelect = root.querySelector("select.explorer-state");
  var termBox = root.querySelector(".explorer-terms"), pager = root.querySelector(".explorer-pager");
  var position = {}, termIndex = {}, i;
  for (i = 0; i < total; i++) { position[P.id[i]] = i; }
  data.terms.forEach(function (term, k) { termIndex[term] = k; });
  var filters = { q: "", theme: "", state: "", terms: [] };
  var sortKey = "", sortDescending = false, order = null, page = 0, open = {}, shown = [];

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function themeText(k) {
    var t = P.theme[k];
    return t === null ? "" : t + ". " + (data.themes[String(t)] || "");
  }
  function searchable(k) {
    return [P.title[k], P.authors[k], P.text[k], themeText(k), P.state[k], P.id[k]];
  }
  function addOption(select, value, label) {
    var option = el("option", "", label);
    option.value = value;
    select.appendChild(option);
  }
  Object.keys(data.themes).sort(function (a, b) { return a - b; }).forEach(function (t) {
    addOption(themeSelect, t, t + ". " + data.themes[t]);
  });
  data.states.forEach(function (s) { addOption(stateSelect, s, s); });
  function choose(select, value) {
    if (value && !Array.prototype.some.call(select.options, function (o) { return o.value === value; })) {
      addOption(select, value, value + " (not in this corpus)");
    }
    select.value = value;
  }

  var collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });
  var keys = {
    title: function (k) { return P.title[k]; }, authors: function (k) { return P.authors[k]; },
    theme: function (k) { return P.theme[k] === null ? Infinity : P.theme[k]; },
    state: function (k) { return data.states.indexOf(P.state[k]); },
    words: function (k) { return P.words[k]; }, file: function (k) { return k; }
  };
  function sortedOrder() {
    if (order && order.key === sortKey + sortDescending) { return order.items; }
    var items = [];
    for (var k = 0; k < total; k++) { items.push(k); }
    if (sortKey) {
      var key = keys[sortKey], values = items.map(key);
      var text = typeof values[0] === "string";
      items.sort(function (a, b) {
        var d = text ? collator.compare(values[a], values[b]) : values[a] - values[b];
        return (sortDescending ? -d : d) || a - b;
      });
    }
    order = { key: sortKey + sortDescending, items: items };
    return items;
  }

  function matches(k, words, theme, terms) {
    if (filters.theme && theme !== P.theme[k]) { return false; }
    if (filters.state && filters.state !== P.state[k]) { return false; }
    for (var t = 0; t < terms.length; t++) {
      if (terms[t] === undefined || P.terms[k].indexOf(terms[t]) === -1) { return false; }
    }
    if (words.length) {
      // Case-insensitive search of each field as it is: no lower-cased copy of the corpus to build.
      var fields = searchable(k);
      for (var w = 0; w < words.length; w++) {
        if (!fields.some(function (field) { return words[w].test(field); })) { return false; }
      }
    }
    return true;
  }
  function filter() {
    var words = filters.q.split(/\s+/).filter(Boolean).map(function (word) {
      return new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
    });
    var theme = filters.theme === "" ? null : Number(filters.theme);
    var terms = filters.terms.map(function (t) { return termIndex[t]; });
    shown = sortedOrder().filter(function (k) { return matches(k, words, theme, terms); });
  }

  var mathjax = null;
  function loadMathJax() {
    // The book's own MathJax, loaded on the first expanded row only (with ui/safe: no javascript: links).
    if (!mathjax) {
      mathjax = new Promise(function (resolve, reject) {
        var script = document.querySelector("script[src*='tex-chtml']");
        if (!script) {
          window.MathJax = { loader: { load: ["ui/safe"] }, startup: { typeset: false },
                             options: { processHtmlClass: "mathjax_process" } };
          script = el("script");
          script.src = root.getAttribute("data-mathjax");
          script.async = true;
          document.head.appendChild(script);
        }
        function ready() {
          if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
            window.MathJax.startup.promise.then(resolve, reject);
            return true;
          }
          return false;
        }
        if (!ready()) {
          script.addEventListener("load", function () { if (!ready()) { reject(new Error("MathJax did not start")); } });
          script.addEventListener("error", function () { reject(new Error("MathJax did not load")); });
        }
      });
    }
    return mathjax;
  }
  function typeset(node) {
    loadMathJax().then(function () { return window.MathJax.typesetPromise([node]); }).catch(function (error) {
      console.warn("MathJax:", error && error.message);
    });
  }
  function detailRow(k) {
    var row = el("tr", "paper-detail"), cell = el("td");
    row.id = "paper-" + P.id[k] + "-abstract";
    row.appendChild(el("td"));
    cell.colSpan = 7;
    var abstract = el("div", "abstract-text mathjax_process");
    abstract.textContent = P.text[k].replace(/\$([^$]+)\$/g, "\\($1\\)");
    cell.appendChild(abstract);
    var claims = P.claims[k];
    cell.appendChild(el("div", "claims-title", claims.length ? "Availability claims (link state: " + P.state[k] + "):"
                                                              : "No availability claim found (link state: " + P.state[k] + ")."));
    if (claims.length) {
      var list = el("ul", "paper-claims");
      claims.forEach(function (claim) {
        var item = el("li");
        item.appendChild(el("span", "claim-class", claim[0]));
        item.appendChild(el("span", "claim-sentence", claim[1]));
        list.appendChild(item);
      });
      cell.appendChild(list);
    }
    if (P.terms[k].length) {
      var terms = el("div", "paper-terms", "Map terms: ");
      P.terms[k].forEach(function (t) {
        var button = el("button", "", data.terms[t]);
        button.type = "button";
        button.title = "Show the papers using this term";
        button.addEventListener("click", function () { addTerm(data.terms[t]); });
        terms.appendChild(button);
      });
      cell.appendChild(terms);
    }
    cell.appendChild(el("div", "paper-meta", "paper_id " + P.id[k] + " · " + data.files[P.file[k]]));
    row.appendChild(cell);
    typeset(abstract);
    return row;
  }
  function paperRow(k) {
    var id = "paper-" + P.id[k], row = el("tr", "paper-row"), cell = el("td"), button = el("button", "expand", open[k] ? "\u2212" : "+");
    row.id = id;
    button.type = "button";
    button.setAttribute("aria-expanded", open[k] ? "true" : "false");
    button.setAttribute("aria-controls", id + "-abstract");
    button.title = "Show the abstract";
    button.addEventListener("click", function () { toggle(k); });
    cell.appendChild(button);
    row.appendChild(cell);
    var title = el("td", "title"), anchor = el("a", "paper-anchor", P.title[k]);
    anchor.href = "#" + id;
    title.appendChild(anchor);
    row.appendChild(title);
    var authors = el("td", "authors");
    authors.appendChild(el("div", "", P.authors[k]));
    authors.title = P.authors[k];
    row.appendChild(authors);
    row.appendChild(el("td", "theme", themeText(k)));
    row.appendChild(el("td", "state", P.state[k]));
    var links = el("td", "links");
    P.links[k].forEach(function (url) {
      if (!/^https?:\/\//i.test(url)) { return; }
      var a = el("a", "", url.replace(/^https?:\/\/(www\.)?/i, ""));
      a.href = url;
      a.rel = "noopener noreferrer";
      a.target = "_blank";
      links.appendChild(a);
      links.appendChild(el("br"));
    });
    row.appendChild(links);
    row.appendChild(el("td", "words", P.words[k]));
    var file = el("td", "file");
    data.files[P.file[k]].split("_").forEach(function (part, n) {  // may break after each "_"
      if (n) { file.appendChild(document.createTextNode("_")); file.appendChild(el("wbr")); }
      file.appendChild(document.createTextNode(part));
    });
    row.appendChild(file);
    return row;
  }
  function describe() {
    var parts = [];
    if (filters.q) { parts.push("search \u201c" + filters.q + "\u201d"); }
    if (filters.theme) { parts.push("theme " + filters.theme); }
    if (filters.state) { parts.push("link state " + filters.state); }
    filters.terms.forEach(function (t) {
      parts.push("map term \u201c" + t + "\u201d" + (termIndex[t] === undefined ? " (not a term of the map)" : ""));
    });
    return parts.join(", ");
  }
  function renderTerms() {
    termBox.textContent = "";
    filters.terms.forEach(function (term) {
      var chip = el("button", "", "map term: " + term + " \u00d7");
      chip.type = "button";
      chip.title = "Remove this term filter";
      chip.addEventListener("click", function () {
        filters.terms = filters.terms.filter(function (t) { return t !== term; });
        update();
      });
      termBox.appendChild(chip);
    });
  }
  function render() {
    var pages = Math.max(1, Math.ceil(shown.length / pageSize));
    page = Math.min(Math.max(page, 0), pages - 1);
    var fragment = document.createDocumentFragment();
    shown.slice(page * pageSize, (page + 1) * pageSize).forEach(function (k) {
      fragment.appendChild(paperRow(k));
      if (open[k]) { fragment.appendChild(detailRow(k)); }
    });
    if (!shown.length) {
      var empty = el("tr", "explorer-empty"), cell = el("td", "", "No paper matches " + describe() + ".");
      cell.colSpan = 8;
      empty.appendChild(cell);
      fragment.appendChild(empty);
    }
    body.textContent = "";
    body.appendChild(fragment);
    count.textContent = shown.length + " of " + total + " papers";
    pager.querySelector(".pager-text").textContent = "Page " + (page + 1) + " of " + pages;
    pager.querySelector(".pager-first").disabled = pager.querySelector(".pager-previous").disabled = page === 0;
    pager.querySelector(".pager-last").disabled = pager.querySelector(".pager-next").disabled = page >= pages - 1;
    pager.hidden = pages < 2;
    renderTerms();
  }
  function remember() {
    var params = new URLSearchParams();
    if (filters.q) { params.set("q", filters.q); }
    if (filters.theme) { params.set("theme", filters.theme); }
    if (filters.state) { params.set("state", filters.state); }
    filters.terms.forEach(function (t) { params.append("term", t); });
    var query = params.toString();
    try {
      history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
    } catch (error) { /* some file:// pages refuse; the filters still apply */ }
  }
  function update() { page = 0; filter(); render(); remember(); }
  function toggle(k) {
    if (open[k]) { delete open[k]; } else { open[k] = true; }
    render();
  }
  function addTerm(term) {
    if (filters.terms.indexOf(term) === -1) { filters.terms.push(term); }
    update();
    root.scrollIntoView();
  }
  function showPaper(id) {
    var k = position[id];
    if (k === undefined) { return false; }
    if (shown.indexOf(k) === -1) {
      filters = { q: "", theme: "", state: "", terms: [] };
      search.value = ""; themeSelect.value = ""; stateSelect.value = "";
      filter();
      remember();
    }
    page = Math.floor(shown.indexOf(k) / pageSize);
    open[k] = true;
    render();
    var row = document.getElementById("paper-" + id);
    row.classList.add("focus");
    row.scrollIntoView({ block: "start" });
    return true;
  }
  function openFromHash() {
    var hash = decodeURIComponent(window.location.hash.slice(1));
    if (hash.indexOf("paper-") === 0) { showPaper(hash.slice(6).replace(/-abstract$/, "")); }
  }

  var params = new URLSearchParams(window.location.search);
  filters.q = params.get("q") || "";
  filters.theme = params.get("theme") || "";
  filters.state = params.get("state") || "";
  filters.terms = params.getAll("term").filter(Boolean);
  search.value = filters.q;
  if (filters.q && document.readyState === "loading") {
    // Sphinx's searchtools.js runs any ?q= as a site search once the page is parsed, and fails outside
    // search.html: hide q from it, then put it back.
    params.delete("q");
    try {
      history.replaceState(null, "", window.location.pathname + (params.toString() ? "?" + params : "") +
                           window.location.hash);
      document.addEventListener("DOMContentLoaded", remember, { once: true });
    } catch (error) { /* file:// pages may refuse */ }
  }
  choose(themeSelect, filters.theme);
  choose(stateSelect, filters.state);
  search.addEventListener("input", function () { filters.q = search.value.trim(); update(); });
  themeSelect.addEventListener("change", function () { filters.theme = themeSelect.value; update(); });
  stateSelect.addEventListener("change", function () { filters.state = stateSelect.value; update(); });
  root.querySelectorAll("th[data-sort] button").forEach(function (button) {
    button.addEventListener("click", function () {
      var header = button.parentNode, key = header.getAttribute("data-sort");
      sortDescending = sortKey === key ? !sortDescending : false;
      sortKey = key;
      root.querySelectorAll("th[data-sort]").forEach(function (h) { h.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", sortDescending ? "descending" : "ascending");
      filter();
      page = 0;
      render();
    });
  });
  pager.querySelector(".pager-previous").addEventListener("click", function () { page -= 1; render(); });
  pager.querySelector(".pager-next").addEventListener("click", function () { page += 1; render(); });
  pager.querySelector(".pager-first").addEventListener("click", function () { page = 0; render(); });
  pager.querySelector(".pager-last").addEventListener("click", function () { page = shown.length; render(); });
  window.addEventListener("hashchange", openFromHash);
  filter();
  render();
  openFromHash();
})();
</script>
"""

_HEADERS = [("", "", "expand"), ("title", "Title", "title"), ("authors", "Authors", "authors"),
            ("theme", "Theme", "theme"), ("state", "Link state", "state"), ("", "Code and data links", "links"),
            ("words", "Words", "words"), ("file", "Source file", "file")]


def explorer_html(*, data_src: str = f"../figures/{DATA_FILE}", mathjax_src: str = MATHJAX_SRC,
                  page_size: int = PAGE_SIZE) -> str:
    """The explorer's page: style, controls, an empty table, the data file's ``<script src>`` and the script.

    The shell holds no corpus text; everything shown comes from the data file
    (:func:`write_explorer_data`), whose address relative to the page is ``data_src``.
    ``mathjax_src`` is the book's MathJax, loaded when the first row is expanded (unless the
    page already loads it).
    """
    columns = "".join(f'<col class="c-{css}">' for _, _, css in _HEADERS)
    headers = "".join(
        f'<th data-sort="{key}" scope="col"><button type="button">{name}</button></th>' if key
        else f'<th scope="col">{name}</th>' for key, name, _ in _HEADERS)
    return (
        EXPLORER_STYLE
        + f'<div id="explorer-app" class="mathjax_ignore" data-page-size="{int(page_size)}" '
          f'data-src="{escape(data_src)}" data-mathjax="{escape(mathjax_src)}">'
        + '<div class="explorer-controls">'
        + '<input class="explorer-search" type="search" placeholder="Search titles, authors, themes, abstracts" '
          'aria-label="Search papers">'
        + '<select class="explorer-theme" aria-label="Filter by theme"><option value="">All themes</option></select>'
        + '<select class="explorer-state" aria-label="Filter by link state"><option value="">All link states'
          '</option></select>'
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
        + EXPLORER_SCRIPT
    )
