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
