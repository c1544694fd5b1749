/* The paper explorer (helpers.web.explorer): one page of rows at a time from window.EXPLORER_DATA.
 *
 * A classic script, inlined by explorer_html() after the data file's <script src>. Corpus text is
 * untrusted: it is only ever set as text (textContent, text nodes), a few inline tags (em, i, b, strong, sub,
 * sup; no attributes) become elements made with createElement, and only http(s) URLs become links. The pure
 * functions come first; under node (no window) the file exports them instead of running the page,
 * so tests/js can test them: `require("explorer.js")`.
 */
(function () {
  "use strict";

  var SEARCH_SPECIALS = /[.*+?^${}()|[\]\\]/g;
  var COMBINING_MARKS = /\p{M}/gu;
  var WEB_URL = /^https?:\/\//i;

  /** The text with every regular-expression special character escaped. */
  function escapeRegExp(text) {
    return text.replace(SEARCH_SPECIALS, "\\$&");
  }

  /** Text as search compares it: lower case, compatibility forms decomposed (NFKD: "²" is "2", "ﬁ" is "fi"),
   * combining marks dropped ("ö" is "o"). */
  function foldText(text) {
    return text.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase();
  }

  /** One literal pattern per folded word of the search box (foldText), for folded text; every word must match. */
  function searchPatterns(query) {
    return foldText(query).split(/\s+/).filter(Boolean).map(function (word) {
      return new RegExp(escapeRegExp(word));
    });
  }

  /** Only http(s) URLs become links. */
  function isWebUrl(url) {
    return typeof url === "string" && WEB_URL.test(url);
  }

  /** A link's text: the URL without its scheme and "www.". */
  function linkText(url) {
    return url.replace(/^https?:\/\/(www\.)?/i, "");
  }

  /** "<number>. <label>" of a paper's theme, "" for none. */
  function themeText(theme, themes) {
    return theme === null ? "" : theme + ". " + (themes[String(theme)] || "");
  }

  /**
   * Paper k at the two grains of themes: its broad theme ("A. label", "" without one), its strongest and second
   * themes with their shares of its theme weight ("3. label (62%)"; the second "" without one) and whether it
   * is mixed (its strongest theme holds under half). Without shares in the data: the strongest theme alone.
   */
  function grainText(papers, themes, k, broad, themeBroad) {
    var theme = papers.theme[k], letter = theme === null || !themeBroad ? undefined : themeBroad[String(theme)];
    var grains = { broad: letter === undefined ? "" : letter + ". " + ((broad || {})[letter] || ""),
                   first: themeText(theme, themes), second: "", mixed: false };
    if (!papers.share || theme === null) { return grains; }
    grains.first += " (" + papers.share[k] + "%)";
    grains.mixed = papers.share[k] < 50;
    if (papers.theme2[k] !== null && papers.theme2[k] !== undefined) {
      grains.second = themeText(papers.theme2[k], themes) + " (" + papers.share2[k] + "%)";
    }
    return grains;
  }

  /** The theme numbers (as numbers) of broad theme letter; [] for a letter the data does not have. */
  function broadThemes(letter, themeBroad) {
    return Object.keys(themeBroad || {}).filter(function (t) { return themeBroad[t] === letter; })
      .map(Number).sort(function (a, b) { return a - b; });
  }

  /** Inline math "$x$" written as "\(x\)", the delimiters MathJax reads. */
  function mathText(text) {
    return text.replace(/\$([^$]+)\$/g, "\\($1\\)");
  }

  // The inline tags abstracts may use (PMLR writes <em> and <b>), exactly as written: no attributes, no spaces.
  var INLINE_TAGS = ["em", "i", "b", "strong", "sub", "sup"];
  var INLINE_TAG = "<(/?)(" + INLINE_TAGS.join("|") + ")>";

  /**
   * The text as a list of strings and {tag, children} nodes, one node per allow-listed tag (INLINE_TAGS) that
   * opens and then closes in order. Everything else stays text: other tags, tags with attributes, a tag
   * without its pair, a close that crosses another tag, and anything inside a math span "\(...\)".
   */
  function inlineMarkup(text) {
    var top = { tag: "", source: "", children: [] }, stack = [top];
    function add(child) {
      var list = stack[stack.length - 1].children, last = list.length - 1;
      if (typeof child !== "string") { list.push(child); }
      else if (child && typeof list[last] === "string") { list[last] += child; }
      else if (child) { list.push(child); }
    }
    function markup(segment) {
      var pattern = new RegExp(INLINE_TAG, "gi"), last = 0, match;
      while ((match = pattern.exec(segment)) !== null) {
        add(segment.slice(last, match.index));
        last = pattern.lastIndex;
        var tag = match[2].toLowerCase();
        if (!match[1]) {
          var node = { tag: tag, children: [] };
          add(node);
          stack.push({ tag: tag, source: match[0], children: node.children });
        } else if (stack.length > 1 && stack[stack.length - 1].tag === tag) {
          stack.pop();
        } else {
          add(match[0]);
        }
      }
      add(segment.slice(last));
    }
    var at = 0;
    while (at < text.length) {  // indexOf, not a lazy regular expression: linear on any input
      var open = text.indexOf("\\(", at), close = open === -1 ? -1 : text.indexOf("\\)", open + 2);
      if (close === -1) { markup(text.slice(at)); break; }
      markup(text.slice(at, open));
      add(text.slice(open, close + 2));
      at = close + 2;
    }
    while (stack.length > 1) {  // a tag never closed is text again; its node is its parent's last child
      var entry = stack.pop();
      stack[stack.length - 1].children.pop();
      add(entry.source);
      entry.children.forEach(add);
    }
    return top.children;
  }

  /** Append inlineMarkup's nodes to parent: allow-listed tags as doc.createElement's elements, text as text nodes. */
  function appendMarkup(parent, nodes, doc) {
    nodes.forEach(function (node) {
      if (typeof node === "string") {
        parent.appendChild(doc.createTextNode(node));
      } else if (INLINE_TAGS.indexOf(node.tag) === -1) {
        appendMarkup(parent, node.children, doc);
      } else {
        var element = doc.createElement(node.tag);
        appendMarkup(element, node.children, doc);
        parent.appendChild(element);
      }
    });
  }

  /** A paper's year as text ("" without one, or when the data has no years). */
  function yearText(papers, k) {
    return papers.year && papers.year[k] !== null && papers.year[k] !== undefined ? String(papers.year[k]) : "";
  }

  /** What the Source column says of paper k: data.sources' label (venue and year, header or file name). */
  function sourceText(data, k) {
    return data.sources ? data.sources[data.papers.source[k]] : data.files[data.papers.file[k]];
  }

  /** The fields a search looks in, for paper k of the column store (the year too, when the data has years). */
  function searchFields(papers, themes, k) {
    var fields = [papers.title[k], papers.authors[k], papers.text[k], themeText(papers.theme[k], themes),
                  papers.state[k], papers.id[k]];
    if (papers.year) { fields.push(yearText(papers, k)); }
    return fields;
  }

  /** Paper k's searchFields folded (foldText), one per line: a search word (no white space) stays in one field. */
  function searchText(papers, themes, k) {
    return foldText(searchFields(papers, themes, k).join("\n"));
  }

  /** The filters a URL's query string asks for (?q=, ?broad=, ?theme=, ?state=, repeated ?term=, repeated
   * ?keyword=, ?group=, ?venue_code=). */
  function parseFilters(search) {
    var params = new URLSearchParams(search);
    return { q: params.get("q") || "", broad: params.get("broad") || "", theme: params.get("theme") || "",
             state: params.get("state") || "", terms: params.getAll("term").filter(Boolean),
             keywords: params.getAll("keyword").filter(Boolean),
             group: params.get("group") || "", venueCode: params.get("venue_code") || "" };
  }

  /** The code links paper k gave the venue (http(s) URLs only); null when its input has no code field. */
  function venueCodeLinks(papers, k) {
    if (!papers.venue_code || !Array.isArray(papers.venue_code[k])) { return null; }
    return papers.venue_code[k].filter(isWebUrl);
  }

  /** The query string (without "?") that opens the explorer with these filters. */
  function filterQuery(filters) {
    var params = new URLSearchParams();
    if (filters.q) { params.set("q", filters.q); }
    if (filters.broad) { params.set("broad", filters.broad); }
    if (filters.theme) { params.set("theme", filters.theme); }
    if (filters.state) { params.set("state", filters.state); }
    filters.terms.forEach(function (t) { params.append("term", t); });
    (filters.keywords || []).forEach(function (t) { params.append("keyword", t); });
    if (filters.group) { params.set("group", filters.group); }
    if (filters.venueCode) { params.set("venue_code", filters.venueCode); }
    return params.toString();
  }

  /** The filters in words, for "No paper matches ..." (keywordIndex: the data's keywords by name). */
  function describeFilters(filters, termIndex, keywordIndex) {
    var parts = [];
    if (filters.q) { parts.push("search \u201c" + filters.q + "\u201d"); }
    if (filters.broad) { parts.push("broad theme " + filters.broad); }
    if (filters.theme) { parts.push("theme " + filters.theme); }
    if (filters.state) { parts.push("link state " + filters.state); }
    filters.terms.forEach(function (t) {
      parts.push("map term \u201c" + t + "\u201d" + (termIndex[t] === undefined ? " (not a term of the map)" : ""));
    });
    (filters.keywords || []).forEach(function (t) {
      var known = keywordIndex && Object.prototype.hasOwnProperty.call(keywordIndex, t);
      parts.push("keyword \u201c" + t + "\u201d" + (known ? "" : " (no paper gives this keyword)"));
    });
    if (filters.group) { parts.push("group " + filters.group); }
    if (filters.venueCode) {
      var venue = { given: "a code link given to the venue", "not-given": "no code link given to the venue" };
      parts.push(Object.prototype.hasOwnProperty.call(venue, filters.venueCode) ? venue[filters.venueCode]
        : "code link to the venue \u201c" + filters.venueCode + "\u201d");
    }
    return parts.join(", ");
  }

  /** Each paper's sort value for a column: text, or a number (no theme or year sorts last, file keeps data order). */
  function sortValues(papers, states, key) {
    var column = {
      title: function (k) { return papers.title[k]; }, authors: function (k) { return papers.authors[k]; },
      theme: function (k) { return papers.theme[k] === null ? Infinity : papers.theme[k]; },
      state: function (k) { return states.indexOf(papers.state[k]); },
      words: function (k) { return papers.words[k]; }, file: function (k) { return k; },
      year: function (k) { return yearText(papers, k) === "" ? Infinity : papers.year[k]; }
    }[key];
    return papers.id.map(function (id, k) { return column(k); });
  }

  /** Row indices ordered by values (text with compareText), ties in data order; no values: data order. */
  function sortedRows(total, values, descending, compareText) {
    var items = [];
    for (var k = 0; k < total; k++) { items.push(k); }
    if (values) {
      var text = typeof values[0] === "string";
      items.sort(function (a, b) {
        var d = text ? compareText(values[a], values[b]) : values[a] - values[b];
        return (descending ? -d : d) || a - b;
      });
    }
    return items;
  }

  /**
   * The rows (in their order) that pass every filter. query: words (searchPatterns), theme (a number or
   * null for any), state ("" for any), terms (indices into data.terms; undefined for an unknown term) and
   * group (an index into data.groups, -1 for an unknown group; null or absent for any) and venueCode ("given":
   * papers that gave the venue a code link, "not-given": papers with a code field and none; "" or absent for any;
   * anything else matches nothing) and broadThemes (the theme numbers of the broad theme asked for; null or absent
   * for any) and keywords (indices into data.keywords, every one given by the paper; undefined for an unknown
   * keyword; absent for any). cache (optional):
   * an array of each paper's searchText, filled as papers are searched.
   */
  function filterRows(papers, themes, rows, query, cache) {
    var group = query.group === undefined ? null : query.group;
    return rows.filter(function (k) {
      if (query.theme !== null && query.theme !== papers.theme[k]) { return false; }
      if (query.broadThemes && query.broadThemes.indexOf(papers.theme[k]) === -1) { return false; }
      if (group !== null && (!papers.group || papers.group[k] !== group)) { return false; }
      if (query.state && query.state !== papers.state[k]) { return false; }
      if (query.venueCode) {
        var venue = venueCodeLinks(papers, k);
        if (venue === null || (venue.length > 0 ? "given" : "not-given") !== query.venueCode) { return false; }
      }
      for (var t = 0; t < query.terms.length; t++) {
        if (query.terms[t] === undefined || papers.terms[k].indexOf(query.terms[t]) === -1) { return false; }
      }
      var keywords = query.keywords || [];
      for (var c = 0; c < keywords.length; c++) {
        if (keywords[c] === undefined || !papers.keywords || papers.keywords[k].indexOf(keywords[c]) === -1) {
          return false;
        }
      }
      if (query.words.length) {
        // A paper is folded the first time it is searched, then read from the cache (if given).
        var text = cache ? cache[k] : undefined;
        if (text === undefined) {
          text = searchText(papers, themes, k);
          if (cache) { cache[k] = text; }
        }
        for (var w = 0; w < query.words.length; w++) {
          if (!query.words[w].test(text)) { return false; }
        }
      }
      return true;
    });
  }

  /** The filters as filterRows reads them; groups: the data's group names (absent without groups); themeBroad:
   * the data's theme_broad (absent without broad themes: a broad filter then matches nothing); keywordIndex: the
   * data's keywords by name (absent without keywords: a keyword filter then matches nothing). */
  function rowQuery(filters, termIndex, groups, themeBroad, keywordIndex) {
    var known = keywordIndex || {};
    return { words: searchPatterns(filters.q), theme: filters.theme === "" ? null : Number(filters.theme),
             state: filters.state, terms: filters.terms.map(function (t) { return termIndex[t]; }),
             keywords: (filters.keywords || []).map(function (t) {
               return Object.prototype.hasOwnProperty.call(known, t) ? known[t] : undefined;
             }),
             group: filters.group ? (groups || []).indexOf(filters.group) : null,
             venueCode: filters.venueCode || "",
             broadThemes: filters.broad ? broadThemes(filters.broad, themeBroad) : null };
  }

  /** The page shown (clamped to the pages there are), the number of pages and the slice of rows. */
  function pageBounds(nRows, page, pageSize) {
    var pages = Math.max(1, Math.ceil(nRows / pageSize));
    var shown = Math.min(Math.max(page, 0), pages - 1);
    return { page: shown, pages: pages, start: shown * pageSize, end: (shown + 1) * pageSize };
  }

  /** The paper_id a "#paper-<id>" or "#paper-<id>-abstract" hash names, or null. */
  function hashPaper(hash) {
    var text = decodeURIComponent(hash.slice(1));
    return text.indexOf("paper-") === 0 ? text.slice(6).replace(/-abstract$/, "") : null;
  }

  var core = {
    escapeRegExp: escapeRegExp, searchPatterns: searchPatterns, isWebUrl: isWebUrl, linkText: linkText,
    themeText: themeText, mathText: mathText, searchFields: searchFields, parseFilters: parseFilters,
    filterQuery: filterQuery, describeFilters: describeFilters, sortValues: sortValues, sortedRows: sortedRows,
    filterRows: filterRows, rowQuery: rowQuery, pageBounds: pageBounds, hashPaper: hashPaper, yearText: yearText,
    inlineMarkup: inlineMarkup, appendMarkup: appendMarkup, foldText: foldText, searchText: searchText,
    sourceText: sourceText, venueCodeLinks: venueCodeLinks, grainText: grainText, broadThemes: broadThemes
  };

  // The page's state lives in here, out of the pure functions' reach.
  function runPage() {
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
    var groupSelect = root.querySelector("select.explorer-group");
    var venueSelect = root.querySelector("select.explorer-venue");
    var broadSelect = root.querySelector("select.explorer-broad");
    var withYear = Boolean(P.year) && Boolean(root.querySelector("th[data-sort='year']")), columns = withYear ? 9 : 8;
    var termBox = root.querySelector(".explorer-terms"), pager = root.querySelector(".explorer-pager");
    var position = {}, termIndex = {}, i;
    for (i = 0; i < total; i++) { position[P.id[i]] = i; }
    data.terms.forEach(function (term, k) { termIndex[term] = k; });
    var keywordIndex = Object.create(null);  // a keyword such as "__proto__" is a name like any other
    (data.keywords || []).forEach(function (keyword, k) { keywordIndex[keyword] = k; });
    var filters = { q: "", broad: "", theme: "", state: "", terms: [], keywords: [], group: "", venueCode: "" };
    var sortKey = "", sortDescending = false, order = null, page = 0, open = {}, shown = [], searched = [];

    function el(tag, className, text) {
      var node = document.createElement(tag);
      if (className) { node.className = className; }
      if (text !== undefined && text !== null) { node.textContent = String(text); }
      return node;
    }
    // A filter shown as a button that removes it (remove) and redraws the table.
    function removeChip(text, title, remove) {
      var chip = el("button", "", text + " \u00d7");
      chip.type = "button";
      chip.title = title;
      chip.addEventListener("click", function () { remove(); update(); });
      return chip;
    }
    // A paper's terms or keywords as a line of buttons, each adding its name to the filters (add).
    function filterButtons(className, label, indices, names, title, add) {
      var line = el("div", className, label);
      indices.forEach(function (t) {
        var button = el("button", "", names[t]);
        button.type = "button";
        button.title = title;
        button.addEventListener("click", function () { add(names[t]); });
        line.appendChild(button);
      });
      return line;
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
    if (broadSelect) {
      Object.keys(data.broad || {}).forEach(function (b) {
        var numbers = broadThemes(b, data.theme_broad);
        addOption(broadSelect, b, b + ". " + data.broad[b] + " (theme" + (numbers.length > 1 ? "s " : " ") +
                  numbers.join(", ") + ")");
      });
    }
    if (groupSelect) { (data.groups || []).forEach(function (g) { addOption(groupSelect, g, g); }); }
    function choose(select, value) {
      if (value && !Array.prototype.some.call(select.options, function (o) { return o.value === value; })) {
        addOption(select, value, value + " (not in this corpus)");
      }
      select.value = value;
    }

    var collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });
    function sortedOrder() {
      if (order && order.key === sortKey + sortDescending) { return order.items; }
      var values = sortKey ? sortValues(P, data.states, sortKey) : null;
      order = { key: sortKey + sortDescending, items: sortedRows(total, values, sortDescending, collator.compare) };
      return order.items;
    }
    function filter() {
      shown = filterRows(P, data.themes, sortedOrder(), rowQuery(filters, termIndex, data.groups, data.theme_broad, keywordIndex),
                         searched);
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
            script.addEventListener("load", function () {
              if (!ready()) { reject(new Error("MathJax did not start")); }
            });
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
    function webLink(url, text, className) {
      var a = el("a", className, text);
      a.href = url;
      a.title = url;
      a.rel = "noopener noreferrer";
      a.target = "_blank";
      return a;
    }
    function detailRow(k) {
      var row = el("tr", "paper-detail"), cell = el("td");
      row.id = "paper-" + P.id[k] + "-abstract";
      row.appendChild(el("td"));
      cell.colSpan = columns - 1;
      var abstract = el("div", "abstract-text mathjax_process");
      appendMarkup(abstract, inlineMarkup(mathText(P.text[k])), document);
      cell.appendChild(abstract);
      var claims = P.claims[k];
      cell.appendChild(el("div", "claims-title", claims.length
        ? "Availability claims in the abstract (link state: " + P.state[k] + "):"
        : "No availability claim found in the abstract (link state: " + P.state[k] + ")."));
      if (claims.length) {
        var list = el("ul", "paper-claims");
        claims.forEach(function (claim) {
          var item = el("li");
          item.appendChild(el("span", "claim-class", claim[0]));
          var sentence = el("span", "claim-sentence");
          appendMarkup(sentence, inlineMarkup(claim[1]), document);
          item.appendChild(sentence);
          list.appendChild(item);
        });
        cell.appendChild(list);
      }
      var venue = venueCodeLinks(P, k);
      if (venue !== null) {  // the paper's metadata, not its abstract: a code field of its input
        var given = el("div", "venue-code-detail", venue.length
          ? "Code link given to the venue (the paper's metadata, not its abstract): "
          : "No code link given to the venue (its input has a code field).");
        venue.forEach(function (url, n) {
          if (n) { given.appendChild(document.createTextNode(" \u00b7 ")); }
          given.appendChild(webLink(url, linkText(url), ""));
        });
        cell.appendChild(given);
      }
      if (P.terms[k].length) {
        cell.appendChild(filterButtons("paper-terms", "Map terms: ", P.terms[k], data.terms,
                                       "Show the papers using this term", addTerm));
      }
      if (P.keywords && P.keywords[k].length) {
        cell.appendChild(filterButtons("paper-terms paper-keywords", "Keywords: ", P.keywords[k], data.keywords,
                                       "Show the papers giving this keyword", addKeyword));
      }
      var meta = "paper_id " + P.id[k] + " \u00b7 file " + data.files[P.file[k]];
      if (P.group && data.groups) { meta += " \u00b7 group " + data.groups[P.group[k]]; }
      cell.appendChild(el("div", "paper-meta", meta));
      row.appendChild(cell);
      typeset(abstract);
      return row;
    }
    function paperRow(k) {
      var id = "paper-" + P.id[k], row = el("tr", "paper-row"), cell = el("td");
      var button = el("button", "expand", open[k] ? "\u2212" : "+");
      row.id = id;
      button.type = "button";
      button.setAttribute("aria-expanded", open[k] ? "true" : "false");
      button.setAttribute("aria-controls", id + "-abstract");
      button.title = "Show the abstract";
      button.addEventListener("click", function () { toggle(k); });
      cell.appendChild(button);
      row.appendChild(cell);
      var title = el("td", "title"), anchor = el("a", "paper-anchor");
      appendMarkup(anchor, inlineMarkup(P.title[k]), document);
      anchor.href = "#" + id;
      title.appendChild(anchor);
      row.appendChild(title);
      var authors = el("td", "authors");
      authors.appendChild(el("div", "", P.authors[k] || "\u2014"));  // an em dash: the input gives no authors
      authors.title = P.authors[k];
      row.appendChild(authors);
      if (withYear) { row.appendChild(el("td", "year", yearText(P, k))); }
      var grains = grainText(P, data.themes, k, data.broad, data.theme_broad), theme = el("td", "theme");
      if (grains.broad) { theme.appendChild(el("div", "theme-broad", grains.broad)); }
      var first = el("div", "theme-first", grains.first);
      if (grains.mixed) { first.appendChild(el("span", "theme-mixed", "mixed")); }
      theme.appendChild(first);
      if (grains.second) { theme.appendChild(el("div", "theme-second", grains.second)); }
      row.appendChild(theme);
      row.appendChild(el("td", "state", P.state[k]));
      var links = el("td", "links");
      P.links[k].forEach(function (url) {
        if (!isWebUrl(url)) { return; }
        links.appendChild(webLink(url, linkText(url), ""));
        links.appendChild(el("br"));
      });
      (venueCodeLinks(P, k) || []).forEach(function (url) {
        links.appendChild(webLink(url, "code given to the venue", "venue-code"));
        links.appendChild(el("br"));
      });
      row.appendChild(links);
      row.appendChild(el("td", "words", P.words[k]));
      var file = el("td", "file");
      file.title = "file " + data.files[P.file[k]];
      sourceText(data, k).split("_").forEach(function (part, n) {  // may break after each "_"
        if (n) { file.appendChild(document.createTextNode("_")); file.appendChild(el("wbr")); }
        file.appendChild(document.createTextNode(part));
      });
      row.appendChild(file);
      return row;
    }
    function renderTerms() {
      termBox.textContent = "";
      filters.terms.forEach(function (term) {
        termBox.appendChild(removeChip("map term: " + term, "Remove this term filter", function () {
          filters.terms = filters.terms.filter(function (t) { return t !== term; });
        }));
      });
      filters.keywords.forEach(function (keyword) {
        termBox.appendChild(removeChip("keyword: " + keyword, "Remove this keyword filter", function () {
          filters.keywords = filters.keywords.filter(function (t) { return t !== keyword; });
        }));
      });
    }
    function render() {
      var bounds = pageBounds(shown.length, page, pageSize);
      page = bounds.page;
      var fragment = document.createDocumentFragment();
      shown.slice(bounds.start, bounds.end).forEach(function (k) {
        fragment.appendChild(paperRow(k));
        if (open[k]) { fragment.appendChild(detailRow(k)); }
      });
      if (!shown.length) {
        var empty = el("tr", "explorer-empty");
        var cell = el("td", "", "No paper matches " + describeFilters(filters, termIndex, keywordIndex) + ".");
        cell.colSpan = columns;
        empty.appendChild(cell);
        fragment.appendChild(empty);
      }
      body.textContent = "";
      body.appendChild(fragment);
      count.textContent = shown.length + " of " + total + " papers";
      pager.querySelector(".pager-text").textContent = "Page " + (page + 1) + " of " + bounds.pages;
      pager.querySelector(".pager-first").disabled = pager.querySelector(".pager-previous").disabled = page === 0;
      var last = page >= bounds.pages - 1;
      pager.querySelector(".pager-last").disabled = pager.querySelector(".pager-next").disabled = last;
      pager.hidden = bounds.pages < 2;
      renderTerms();
    }
    function remember() {
      var query = filterQuery(filters);
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
    function addKeyword(keyword) {
      if (filters.keywords.indexOf(keyword) === -1) { filters.keywords.push(keyword); }
      update();
      root.scrollIntoView();
    }
    function showPaper(id) {
      var k = position[id];
      if (k === undefined) {
        if (data.sample_of) {  // a chapter links to a paper the sample left out
          count.textContent = "Paper " + id + " is not in this sample of " + total.toLocaleString("en-US") +
            " of the " + data.sample_of.toLocaleString("en-US") + " papers; the full table above lists every paper.";
        }
        return false;
      }
      if (shown.indexOf(k) === -1) {
        filters = { q: "", broad: "", theme: "", state: "", terms: [], keywords: [], group: "", venueCode: "" };
        search.value = ""; themeSelect.value = ""; stateSelect.value = "";
        if (broadSelect) { broadSelect.value = ""; }
        if (groupSelect) { groupSelect.value = ""; }
        if (venueSelect) { venueSelect.value = ""; }
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
      var id = hashPaper(window.location.hash);
      if (id !== null) { showPaper(id); }
    }

    filters = parseFilters(window.location.search);
    search.value = filters.q;
    if (filters.q && document.readyState === "loading") {
      // Sphinx's searchtools.js runs any ?q= as a site search once the page is parsed, and fails outside
      // search.html: hide q from it, then put it back.
      var params = new URLSearchParams(window.location.search);
      params.delete("q");
      try {
        history.replaceState(null, "", window.location.pathname + (params.toString() ? "?" + params : "") +
                             window.location.hash);
        document.addEventListener("DOMContentLoaded", remember, { once: true });
      } catch (error) { /* file:// pages may refuse */ }
    }
    if (broadSelect) { choose(broadSelect, filters.broad); }
    choose(themeSelect, filters.theme);
    choose(stateSelect, filters.state);
    if (groupSelect) { choose(groupSelect, filters.group); }
    if (venueSelect) { choose(venueSelect, filters.venueCode); }
    search.addEventListener("input", function () { filters.q = search.value.trim(); update(); });
    if (broadSelect) {
      broadSelect.addEventListener("change", function () { filters.broad = broadSelect.value; update(); });
    }
    themeSelect.addEventListener("change", function () { filters.theme = themeSelect.value; update(); });
    stateSelect.addEventListener("change", function () { filters.state = stateSelect.value; update(); });
    if (groupSelect) {
      groupSelect.addEventListener("change", function () { filters.group = groupSelect.value; update(); });
    }
    if (venueSelect) {
      venueSelect.addEventListener("change", function () { filters.venueCode = venueSelect.value; update(); });
    }
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
  }

  if (typeof window === "undefined") {
    if (typeof module === "object" && module) { module.exports = core; }
  } else {
    runPage();
  }
}());
