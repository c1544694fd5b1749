"""The paper explorer: one searchable, sortable, filterable HTML table of every paper.

A small static page of our own (no CDN, no framework): every cell is
HTML-escaped, because abstract text is untrusted; only ``http``/``https`` URLs
become links, with ``rel="noopener noreferrer"``. Math in ``$...$`` is handed
to the book's local MathJax as ``\\(...\\)`` inside the escaped text.
"""

from __future__ import annotations

import html
import re

import pandas as pd

from helpers.links import is_safe_url

_INLINE_MATH = re.compile(r"\$([^$]+)\$")

EXPLORER_SCRIPT = """
<script>
(function () {
  var root = document.getElementById("paper-explorer");
  if (!root) { return; }
  var body = root.querySelector("tbody");
  var rows = Array.prototype.slice.call(body.querySelectorAll("tr.paper-row"));
  var search = root.querySelector("input.explorer-search");
  var themeFilter = root.querySelector("select.explorer-theme");
  var stateFilter = root.querySelector("select.explorer-state");
  var counter = root.querySelector(".explorer-count");
  function apply() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var text = row.getAttribute("data-search");
      var ok = words.every(function (w) { return text.indexOf(w) !== -1; });
      if (themeFilter.value && row.getAttribute("data-theme") !== themeFilter.value) { ok = false; }
      if (stateFilter.value && row.getAttribute("data-state") !== stateFilter.value) { ok = false; }
      row.hidden = !ok;
      var detail = document.getElementById(row.id + "-abstract");
      if (detail) { detail.hidden = !ok || !row.classList.contains("open"); }
      if (ok) { shown += 1; }
    });
    counter.textContent = shown + " of " + rows.length + " papers";
  }
  function toggle(row) {
    row.classList.toggle("open");
    var detail = document.getElementById(row.id + "-abstract");
    detail.hidden = !row.classList.contains("open");
    row.querySelector("button.expand").setAttribute("aria-expanded", String(!detail.hidden));
  }
  rows.forEach(function (row) {
    row.querySelector("button.expand").addEventListener("click", function () { toggle(row); });
  });
  root.querySelectorAll("th[data-sort]").forEach(function (header, index) {
    header.addEventListener("click", function () {
      var key = header.getAttribute("data-sort");
      var descending = header.getAttribute("aria-sort") === "ascending";
      root.querySelectorAll("th[data-sort]").forEach(function (h) { h.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", descending ? "descending" : "ascending");
      rows.sort(function (a, b) {
        var x = a.getAttribute("data-" + key), y = b.getAttribute("data-" + key);
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return descending ? -order : order;
      });
      rows.forEach(function (row) {
        body.appendChild(row);
        body.appendChild(document.getElementById(row.id + "-abstract"));
      });
    });
  });
  search.addEventListener("input", apply);
  themeFilter.addEventListener("change", apply);
  stateFilter.addEventListener("change", apply);
  function openFromHash() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var row = id ? document.getElementById(id) : null;
    if (row && row.classList.contains("paper-row") && !row.classList.contains("open")) { toggle(row); }
  }
  window.addEventListener("hashchange", openFromHash);
  apply();
  openFromHash();
})();
</script>
"""

EXPLORER_STYLE = """
<style>
#paper-explorer .explorer-controls { display: flex; gap: .5rem; flex-wrap: wrap; margin-bottom: .5rem; }
#paper-explorer input.explorer-search { flex: 1 1 16rem; padding: .3rem; }
#paper-explorer table { width: 100%; border-collapse: collapse; font-size: .85rem; }
#paper-explorer th, #paper-explorer td { border-bottom: 1px solid #ddd; padding: .25rem; vertical-align: top; }
#paper-explorer th[data-sort] { cursor: pointer; }
#paper-explorer tr.paper-abstract td { background: #f7f7f7; padding: .6rem; }
#paper-explorer button.expand { border: 1px solid #999; background: white; cursor: pointer; }
</style>
"""


def escape(value: object) -> str:
    """HTML-escape any cell value (quotes too)."""
    if value is None or (isinstance(value, float) and pd.isna(value)) or value is pd.NA:
        return ""
    return html.escape(str(value), quote=True)


def safe_link(url: str, text: str | None = None) -> str:
    """An ``<a>`` for an http(s) URL, escaped, ``rel="noopener noreferrer"``; other schemes stay text.

    Examples
    --------
    >>> safe_link("https://x.org/?a=1&b=2")
    '<a href="https://x.org/?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">https://x.org/?a=1&amp;b=2</a>'
    >>> safe_link("javascript:alert(1)")
    'javascript:alert(1)'
    """
    shown = escape(text if text is not None else url)
    if not is_safe_url(url):
        return shown
    return f'<a href="{escape(url)}" rel="noopener noreferrer" target="_blank">{shown}</a>'


def abstract_html(text: str) -> str:
    """The abstract as escaped HTML, with ``$...$`` math turned into MathJax's ``\\(...\\)``.

    Examples
    --------
    >>> abstract_html("Bound $x<1$ <script>alert(1)</script>")
    'Bound \\\\(x&lt;1\\\\) &lt;script&gt;alert(1)&lt;/script&gt;'
    """
    pieces, last = [], 0
    for match in _INLINE_MATH.finditer(text):
        pieces.append(escape(text[last:match.start()]))
        pieces.append("\\(" + escape(match.group(1)) + "\\)")
        last = match.end()
    pieces.append(escape(text[last:]))
    return "".join(pieces)


def explorer_html(papers: pd.DataFrame, links: pd.DataFrame, theme_labels: dict[int, str]) -> str:
    """The whole explorer (controls, table, script) as one HTML string.

    ``papers`` needs ``paper_id, display_title, authors, theme, link_state,
    n_words, source_file, text``; ``links`` needs ``paper_id, url, kind``.
    """
    code_links = links[links["kind"].isin(["code", "model/data hub", "project page", "other"])]
    links_of = code_links.groupby("paper_id")["url"].apply(list).to_dict()
    theme_options = "".join(
        f'<option value="{t}">{t}. {escape(label)}</option>' for t, label in sorted(theme_labels.items()))
    state_options = "".join(f'<option value="{s}">{s}</option>'
                            for s in ["linked", "dangling", "promised", "none"])
    rows = []
    for paper in papers.sort_values(["source_file", "position"]).itertuples(index=False):
        theme = "" if pd.isna(paper.theme) else int(paper.theme)
        theme_text = f"{theme}. {theme_labels.get(theme, '')}" if theme != "" else ""
        urls = links_of.get(paper.paper_id, [])
        search_text = " ".join([paper.display_title, paper.authors, theme_text, paper.link_state,
                                paper.source_file, paper.paper_id, paper.text]).lower()
        row_id = f"paper-{paper.paper_id}"
        rows.append(
            f'<tr class="paper-row" id="{row_id}" data-search="{escape(search_text)}" '
            f'data-theme="{theme}" data-state="{escape(paper.link_state)}" '
            f'data-title="{escape(paper.display_title.lower())}" data-words="{paper.n_words}" '
            f'data-file="{escape(paper.source_file)}" data-themeno="{theme if theme != "" else 999}">'
            f'<td><button class="expand" type="button" aria-expanded="false" '
            f'aria-controls="{row_id}-abstract" title="Show the abstract">+</button></td>'
            f'<td><a class="paper-anchor" href="#{row_id}">{escape(paper.display_title)}</a></td>'
            f'<td>{escape(paper.authors)}</td><td>{escape(theme_text)}</td>'
            f'<td>{escape(paper.link_state)}</td>'
            f'<td>{"<br>".join(safe_link(u) for u in urls)}</td>'
            f'<td>{paper.n_words}</td><td>{escape(paper.source_file)}</td></tr>'
            f'<tr class="paper-abstract" id="{row_id}-abstract" hidden><td></td>'
            f'<td colspan="7"><div class="abstract-text mathjax_process">{abstract_html(paper.text)}</div>'
            f'<div class="abstract-meta">paper_id {escape(paper.paper_id)}</div></td></tr>'
        )
    headers = "".join(
        f'<th data-sort="{key}">{name}</th>' if key else f"<th>{name}</th>"
        for key, name in [("", ""), ("title", "Title"), ("", "Authors"), ("themeno", "Theme"),
                          ("", "Link state"), ("", "Code and data links"), ("words", "Words"),
                          ("file", "Source file")])
    return (
        EXPLORER_STYLE
        + '<div id="paper-explorer">'
        + '<div class="explorer-controls">'
        + '<input class="explorer-search" type="search" placeholder="Search titles, authors, abstracts" '
          'aria-label="Search papers">'
        + f'<select class="explorer-theme" aria-label="Filter by theme"><option value="">All themes</option>'
          f'{theme_options}</select>'
        + f'<select class="explorer-state" aria-label="Filter by link state"><option value="">All link states'
          f'</option>{state_options}</select><span class="explorer-count"></span></div>'
        + f"<table><thead><tr>{headers}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        + EXPLORER_SCRIPT
    )
