// The explorer's pure functions (src/helpers/web/static/explorer.js), run by node's own test runner.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const globalsBefore = Object.keys(globalThis).sort();
const explorer = require("../../src/helpers/web/static/explorer.js");

const HOSTILE = "</script><img src=x onerror=alert('x')> & \"q\"";
// Four papers in the data file's column layout; the third is hostile in every text field.
const PAPERS = {
  id: ["p1", "p2", "p3", "p4"],
  title: ["Graph neural networks", "paper 10", HOSTILE, "paper 9"],
  authors: ["A & B", "C", "<i>E</i>", "D"],
  theme: [1, 2, null, 1],
  state: ["linked", "none", "dangling", "linked"],
  words: [120, 80, 80, 200],
  file: [0, 0, 1, 1],
  text: ["Message passing (MP) on graphs.", "Language models.", "C++ code </script>", "$x<1$ bounds."],
  terms: [[0, 1], [1], [], [0]],
};
const THEMES = { 1: "graph \u00b7 gnn", 2: "llm & \"language\"" };
const STATES = ["linked", "dangling", "promised", "none"];

function query(overrides) {
  return Object.assign({ words: [], theme: null, state: "", terms: [] }, overrides);
}

test("requiring the file defines no global and exports the pure functions", () => {
  assert.deepEqual(Object.keys(globalThis).sort(), globalsBefore);
  assert.deepEqual(Object.keys(explorer).sort(), [
    "appendMarkup", "broadThemes", "describeFilters", "escapeRegExp", "filterQuery", "filterRows", "foldText",
    "grainText", "hashPaper",
    "inlineMarkup", "isWebUrl", "linkText", "mathText", "pageBounds", "parseFilters", "rowQuery", "searchFields",
    "searchPatterns", "searchText", "sortValues", "sortedRows", "sourceText", "themeText", "venueCodeLinks",
    "yearText"]);
});

test("escapeRegExp escapes every special character", () => {
  assert.equal(explorer.escapeRegExp("a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o"),
               "a\\.b\\*c\\+d\\?e\\^f\\$g\\{h\\}i\\(j\\)k\\|l\\[m\\]n\\\\o");
});

test("searchPatterns: one literal pattern per folded word", () => {
  const patterns = explorer.searchPatterns("  graph\tC++  (MP) ");
  assert.deepEqual(patterns.map((p) => [p.source, p.flags]), [["graph", ""], ["c\\+\\+", ""], ["\\(mp\\)", ""]]);
  assert.equal(patterns[1].test("c++ code"), true);
  assert.equal(patterns[1].test("cc code"), false);
  assert.deepEqual(explorer.searchPatterns(""), []);
  assert.deepEqual(explorer.searchPatterns(" \n "), []);
});

test("isWebUrl: only http(s) URLs become links", () => {
  const links = ["https://github.com/o/r", "HTTP://EXAMPLE.ORG", "http://x.org/a?b=<c>&d='e'"];
  const others = ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " https://x.org", "\njavascript:x", "//evil.org/x",
                  "https//github.com/example/project", "http:/x.org", "data:text/html,<script>alert(1)</script>",
                  "vbscript:x", "ftp://x.org", "", null, undefined, 7];
  assert.deepEqual(links.map(explorer.isWebUrl), [true, true, true]);
  assert.deepEqual(others.map(explorer.isWebUrl), others.map(() => false));
});

test("linkText drops the scheme and www.", () => {
  assert.deepEqual(["https://www.github.com/o/r", "HTTP://WWW.x.org/", "https://wwwx.org", "http://a.org/?q=<b>"]
    .map(explorer.linkText), ["github.com/o/r", "x.org/", "wwwx.org", "a.org/?q=<b>"]);
});

test("themeText names the theme as text, not escaped (it goes to textContent)", () => {
  assert.equal(explorer.themeText(2, THEMES), "2. llm & \"language\"");
  assert.equal(explorer.themeText(null, THEMES), "");
  assert.equal(explorer.themeText(9, THEMES), "9. ");
});

test("mathText turns $x$ into MathJax's \\(x\\) and leaves the rest", () => {
  assert.equal(explorer.mathText("a $x<1$ and $$y$$ </script>"), "a \\(x<1\\) and $\\(y\\)$ </script>");
  assert.equal(explorer.mathText("costs $5 only"), "costs $5 only");
});

test("searchFields: title, authors, text, theme, state, id", () => {
  assert.deepEqual(explorer.searchFields(PAPERS, THEMES, 0),
                   ["Graph neural networks", "A & B", "Message passing (MP) on graphs.", "1. graph \u00b7 gnn",
                    "linked", "p1"]);
});

test("parseFilters reads ?q, ?theme, ?state and every non-empty ?term", () => {
  assert.deepEqual(explorer.parseFilters("?q=a%26b+c&theme=3&state=linked&term=x&term=&term=%3C%2Fscript%3E"),
                   { q: "a&b c", broad: "", theme: "3", state: "linked", terms: ["x", "</script>"], keywords: [],
                     group: "", venueCode: "" });
  assert.deepEqual(explorer.parseFilters(""),
                   { q: "", broad: "", theme: "", state: "", terms: [], keywords: [], group: "", venueCode: "" });
  assert.deepEqual(explorer.parseFilters("?q=javascript:alert(1)&term=%22%27&group=%3Cb%3E&venue_code=given"),
                   { q: "javascript:alert(1)", broad: "", theme: "", state: "", terms: ["\"'"], keywords: [],
                     group: "<b>", venueCode: "given" });
  assert.equal(explorer.parseFilters("?broad=B&theme=2").broad, "B");
});

test("filterQuery writes what parseFilters reads", () => {
  const filters = { q: "a b&c", broad: "", theme: "", state: "linked", terms: ["graph neural network", HOSTILE],
                    keywords: [], group: "", venueCode: "" };
  const text = explorer.filterQuery(filters);
  assert.equal(text, "q=a+b%26c&state=linked&term=graph+neural+network&term=%3C%2Fscript%3E%3Cimg+src%3Dx+onerror%3D"
                     + "alert%28%27x%27%29%3E+%26+%22q%22");
  assert.deepEqual(explorer.parseFilters("?" + text), filters);
  assert.equal(explorer.filterQuery({ q: "", theme: "", state: "", terms: [] }), "");
  const grouped = { q: "", broad: "", theme: "", state: "", terms: [], keywords: [], group: "2025 & <b>",
                    venueCode: "" };
  assert.equal(explorer.filterQuery(grouped), "group=2025+%26+%3Cb%3E");
  assert.deepEqual(explorer.parseFilters("?" + explorer.filterQuery(grouped)), grouped);
});

test("keyword filters: read, written back, described and matched, every keyword given by the paper", () => {
  const filters = explorer.parseFilters("?keyword=heat%20stress&keyword=&keyword=__proto__&term=x");
  assert.deepEqual(filters.keywords, ["heat stress", "__proto__"]);
  assert.equal(explorer.filterQuery(filters), "term=x&keyword=heat+stress&keyword=__proto__");
  assert.deepEqual(explorer.parseFilters("?" + explorer.filterQuery(filters)), filters);
  const known = Object.create(null);
  known["heat stress"] = 0;
  known.broiler = 1;
  assert.equal(explorer.describeFilters({ q: "", theme: "", state: "", terms: [], keywords: ["heat stress", "nope"] },
                                        {}, known),
               "keyword \u201cheat stress\u201d, keyword \u201cnope\u201d (no paper gives this keyword)");
  const made = explorer.rowQuery(filters, {}, undefined, undefined, known);
  assert.deepEqual(made.keywords, [0, undefined]);  // "__proto__" is no keyword of these papers
  const papers = Object.assign({}, PAPERS, { keywords: [[0, 1], [1], [], [0]] });
  const all = [0, 1, 2, 3];
  assert.deepEqual(explorer.filterRows(papers, THEMES, all, query({ keywords: [0] })), [0, 3]);
  assert.deepEqual(explorer.filterRows(papers, THEMES, all, query({ keywords: [0, 1] })), [0]);
  assert.deepEqual(explorer.filterRows(papers, THEMES, all, query({ keywords: [undefined] })), []);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ keywords: [0] })), []);  // no keywords at all
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ keywords: [] })), all);
});

test("describeFilters names every filter and unknown terms", () => {
  const filters = { q: "<b>", theme: "3", state: "none", terms: ["graph", "nope"] };
  assert.equal(explorer.describeFilters(filters, { graph: 0 }),
               "search \u201c<b>\u201d, theme 3, link state none, map term \u201cgraph\u201d, "
               + "map term \u201cnope\u201d (not a term of the map)");
  assert.equal(explorer.describeFilters({ q: "", theme: "", state: "", terms: [] }, {}), "");
});

test("sortValues: no theme sorts last, states in their order, file keeps the data order", () => {
  assert.deepEqual(explorer.sortValues(PAPERS, STATES, "theme"), [1, 2, Infinity, 1]);
  assert.deepEqual(explorer.sortValues(PAPERS, STATES, "state"), [0, 3, 1, 0]);
  assert.deepEqual(explorer.sortValues(PAPERS, STATES, "words"), [120, 80, 80, 200]);
  assert.deepEqual(explorer.sortValues(PAPERS, STATES, "file"), [0, 1, 2, 3]);
  assert.deepEqual(explorer.sortValues(PAPERS, STATES, "authors"), ["A & B", "C", "<i>E</i>", "D"]);
});

test("sortedRows: ties in data order both ways, numbers numerically, text by the collator", () => {
  const compare = new Intl.Collator("en", { sensitivity: "base", numeric: true }).compare;
  assert.deepEqual(explorer.sortedRows(4, null, false, compare), [0, 1, 2, 3]);
  assert.deepEqual(explorer.sortedRows(4, [3, Infinity, 1, 3], false, compare), [2, 0, 3, 1]);
  assert.deepEqual(explorer.sortedRows(4, [3, Infinity, 1, 3], true, compare), [1, 0, 3, 2]);
  assert.deepEqual(explorer.sortedRows(3, [Infinity, 1, Infinity], false, compare), [1, 0, 2]);
  assert.deepEqual(explorer.sortedRows(4, ["b", "a", "B", "a"], false, compare), [1, 3, 0, 2]);
  assert.deepEqual(explorer.sortedRows(4, ["b", "a", "B", "a"], true, compare), [0, 2, 1, 3]);
  const titles = explorer.sortValues(PAPERS, STATES, "title");
  assert.deepEqual(explorer.sortedRows(4, titles, false, compare), [2, 0, 3, 1]);  // "paper 9" before "paper 10"
  assert.deepEqual(explorer.sortedRows(0, [], false, compare), []);
});

test("filterRows: every filter at once, rows kept in the order given", () => {
  const all = [3, 2, 1, 0];
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query()), [3, 2, 1, 0]);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ theme: 1 })), [3, 0]);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ theme: NaN })), []);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ state: "linked" })), [3, 0]);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ terms: [1] })), [1, 0]);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ terms: [0, 1] })), [0]);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ terms: [0, undefined] })), []);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ theme: 1, state: "linked", terms: [0] })), [3, 0]);
});

test("filterRows: search words are literal, case-insensitive and must all match some field", () => {
  const search = (text) => explorer.filterRows(PAPERS, THEMES, [0, 1, 2, 3],
                                               query({ words: explorer.searchPatterns(text) }));
  assert.deepEqual(search("GRAPH"), [0, 3]);  // p4 by its theme, "1. graph · gnn"
  assert.deepEqual(search("(mp)"), [0]);
  assert.deepEqual(search("c++"), [2]);
  assert.deepEqual(search("</script>"), [2]);
  assert.deepEqual(search("onerror=alert('x')"), [2]);
  assert.deepEqual(search("&"), [0, 1, 2]);  // "A & B", theme 2's label, the hostile title
  assert.deepEqual(search("\"language\""), [1]);  // a theme label
  assert.deepEqual(search("paper p4"), [3]);  // the title and the id
  assert.deepEqual(search("paper graph"), [3]);  // one word in the title, one in the theme
  assert.deepEqual(search("paper message"), []);
  assert.deepEqual(search(".*"), []);
});

test("rowQuery: the filters as filterRows reads them", () => {
  const made = explorer.rowQuery({ q: " a  b ", theme: "", state: "none", terms: ["graph", "nope"] }, { graph: 0 });
  assert.deepEqual(made.words.map((p) => p.source), ["a", "b"]);
  assert.deepEqual([made.theme, made.state, made.terms], [null, "none", [0, undefined]]);
  assert.equal(explorer.rowQuery({ q: "", theme: "3", state: "", terms: [] }, {}).theme, 3);
  assert.ok(Number.isNaN(explorer.rowQuery({ q: "", theme: "x", state: "", terms: [] }, {}).theme));
});

test("pageBounds clamps the page to the pages there are", () => {
  assert.deepEqual(explorer.pageBounds(0, 0, 50), { page: 0, pages: 1, start: 0, end: 50 });
  assert.deepEqual(explorer.pageBounds(120, 5, 50), { page: 2, pages: 3, start: 100, end: 150 });
  assert.deepEqual(explorer.pageBounds(120, -1, 50), { page: 0, pages: 3, start: 0, end: 50 });
  assert.deepEqual(explorer.pageBounds(57, 57, 50), { page: 1, pages: 2, start: 50, end: 100 });
  assert.deepEqual(explorer.pageBounds(50, 1, 50), { page: 0, pages: 1, start: 0, end: 50 });
});

test("hashPaper reads #paper-<id> and #paper-<id>-abstract", () => {
  assert.equal(explorer.hashPaper("#paper-p12"), "p12");
  assert.equal(explorer.hashPaper("#paper-p12-abstract"), "p12");
  assert.equal(explorer.hashPaper("#paper-%3Cb%3E%22"), "<b>\"");
  assert.equal(explorer.hashPaper("#paper-"), "");
  assert.equal(explorer.hashPaper("#sec-themes"), null);
  assert.equal(explorer.hashPaper(""), null);
});

// Bibliographic input: a year per paper and groups (indices into data.groups).
const DATED = Object.assign({}, PAPERS, { year: [2025, null, 2023, 2023], group: [1, 2, 0, 0] });
const GROUPS = ["2023", "2025", "(none)"];

test("yearText: the year as text, \"\" without one or without years", () => {
  assert.deepEqual([0, 1, 2].map((k) => explorer.yearText(DATED, k)), ["2025", "", "2023"]);
  assert.equal(explorer.yearText(PAPERS, 0), "");
});

test("searchFields adds the year only when the data has years", () => {
  assert.deepEqual(explorer.searchFields(DATED, THEMES, 0).slice(-2), ["p1", "2025"]);
  assert.equal(explorer.searchFields(PAPERS, THEMES, 0).length, 6);
  assert.deepEqual(explorer.filterRows(DATED, THEMES, [0, 1, 2, 3], query({ words: explorer.searchPatterns("2023") })),
                   [2, 3]);
});

test("sortValues by year: no year sorts last", () => {
  assert.deepEqual(explorer.sortValues(DATED, STATES, "year"), [2025, Infinity, 2023, 2023]);
});

test("filterRows by group; an unknown group matches nothing; no group filter without groups", () => {
  const all = [0, 1, 2, 3];
  assert.deepEqual(explorer.filterRows(DATED, THEMES, all, query({ group: 0 })), [2, 3]);
  assert.deepEqual(explorer.filterRows(DATED, THEMES, all, query({ group: 1, theme: 1 })), [0]);
  assert.deepEqual(explorer.filterRows(DATED, THEMES, all, query({ group: -1 })), []);
  assert.deepEqual(explorer.filterRows(DATED, THEMES, all, query({ group: null })), all);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ group: 0 })), []);
});

test("rowQuery finds the group by name; describeFilters names it as text", () => {
  const base = { q: "", theme: "", state: "", terms: [] };
  assert.equal(explorer.rowQuery(Object.assign({ group: "2025" }, base), {}, GROUPS).group, 1);
  assert.equal(explorer.rowQuery(Object.assign({ group: "1999" }, base), {}, GROUPS).group, -1);
  assert.equal(explorer.rowQuery(Object.assign({ group: "2025" }, base), {}).group, -1);
  assert.equal(explorer.rowQuery(Object.assign({ group: "" }, base), {}, GROUPS).group, null);
  assert.equal(explorer.rowQuery(base, {}, GROUPS).group, null);
  assert.equal(explorer.describeFilters(Object.assign({ group: HOSTILE }, base), {}), "group " + HOSTILE);
});

// Inline tags of abstracts (PMLR writes <em> and <b>): the allow-list becomes elements, everything else text.
const em = (...children) => ({ tag: "em", children });

test("inlineMarkup: allow-listed tags without attributes become nodes, in order and nested", () => {
  assert.deepEqual(explorer.inlineMarkup("the <em>consensus of dependent experts</em> rule"),
                   ["the ", em("consensus of dependent experts"), " rule"]);
  assert.deepEqual(explorer.inlineMarkup("<b>A</b><i>b</i><strong>c</strong>x<sub>i</sub>y<sup>2</sup>"),
                   [{ tag: "b", children: ["A"] }, { tag: "i", children: ["b"] }, { tag: "strong", children: ["c"] },
                    "x", { tag: "sub", children: ["i"] }, "y", { tag: "sup", children: ["2"] }]);
  assert.deepEqual(explorer.inlineMarkup("<b>bold <em>and</em> more</b>"),
                   [{ tag: "b", children: ["bold ", em("and"), " more"] }]);
  assert.deepEqual(explorer.inlineMarkup("<EM>Loud</Em>"), [em("Loud")]);
  assert.deepEqual(explorer.inlineMarkup("<em></em>"), [em()]);
  assert.deepEqual(explorer.inlineMarkup("plain a < b > c"), ["plain a < b > c"]);
  assert.deepEqual(explorer.inlineMarkup(""), []);
});

test("inlineMarkup: any other tag, attribute or odd spacing stays text", () => {
  const literal = ["<em onclick=alert(1)>x</em>", "<script>alert(1)</script>", "<em >x</em>", "<em/>",
                   "<img src=x onerror=alert(1)>", "<a href=\"javascript:alert(1)\">x</a>", "<span>x</span>",
                   "<emph>x</emph>", "<b\n>x</b>", "<!-- <em> -->", "&lt;em&gt;x&lt;/em&gt;"];
  literal.forEach((text) => {
    const nodes = explorer.inlineMarkup(text);
    assert.ok(nodes.every((node) => typeof node === "string"), text);
    assert.equal(nodes.join(""), text);
  });
});

test("inlineMarkup: hostile content inside an allowed tag is its text", () => {
  assert.deepEqual(explorer.inlineMarkup("<sup><img src=x onerror=alert(1)></sup>"),
                   [{ tag: "sup", children: ["<img src=x onerror=alert(1)>"] }]);
  assert.deepEqual(explorer.inlineMarkup("<em><script>alert(1)</script></em>"), [em("<script>alert(1)</script>")]);
  assert.deepEqual(explorer.inlineMarkup("<em onclick=alert(1)><b>x</b></em>"),
                   ["<em onclick=alert(1)>", { tag: "b", children: ["x"] }, "</em>"]);
});

test("inlineMarkup: a tag without its pair stays text, the pairs around it still render", () => {
  assert.deepEqual(explorer.inlineMarkup("a <em>b"), ["a <em>b"]);
  assert.deepEqual(explorer.inlineMarkup("a</em> b"), ["a</em> b"]);
  assert.deepEqual(explorer.inlineMarkup("<em>a</b></em>"), [em("a</b>")]);
  assert.deepEqual(explorer.inlineMarkup("<b><i>x</b>y</i>"), ["<b>", { tag: "i", children: ["x</b>y"] }]);
  assert.deepEqual(explorer.inlineMarkup("<b>open <em>x</em> and <i>shut</i>"),
                   ["<b>open ", em("x"), " and ", { tag: "i", children: ["shut"] }]);
  assert.deepEqual(explorer.inlineMarkup("<em><em>x</em>"), ["<em>", em("x")]);
  assert.deepEqual(explorer.inlineMarkup("<sub>a<sup>b</sub>c</sup>"),
                   ["<sub>a", { tag: "sup", children: ["b</sub>c"] }]);
});

test("inlineMarkup: math spans keep their '<' and '>' as text", () => {
  assert.deepEqual(explorer.inlineMarkup("<em>if</em> \\(a<b>c\\) and \\(x</b>\\)"),
                   [em("if"), " \\(a<b>c\\) and \\(x</b>\\)"]);
  assert.deepEqual(explorer.inlineMarkup(explorer.mathText("<em>the $k<i>$ nets</em>")),
                   [em("the \\(k<i>\\) nets")]);
});

test("inlineMarkup: deep nesting and long inputs stay linear", () => {
  const deep = "<b>".repeat(5000) + "x" + "</b>".repeat(5000);
  let node = explorer.inlineMarkup(deep)[0];
  for (let depth = 1; depth < 5000; depth++) { node = node.children[0]; }
  assert.deepEqual(node, { tag: "b", children: ["x"] });
  const unclosed = "<em>".repeat(20000) + "x";
  assert.deepEqual(explorer.inlineMarkup(unclosed), [unclosed]);
});

/** A stand-in for document: createElement and createTextNode only, recording every element made. */
function fakeDocument() {
  const made = [];
  const node = (fields) => Object.assign({ children: [], appendChild(child) { this.children.push(child); } }, fields);
  return {
    made,
    createElement(tag) { made.push(tag); return node({ tag }); },
    createTextNode(text) { return { text }; },
  };
}

function outline(node) {
  return node.text !== undefined ? node.text : [node.tag, node.children.map(outline)];
}

test("appendMarkup builds elements with createElement and text with text nodes only", () => {
  const doc = fakeDocument();
  const parent = doc.createElement("div");
  explorer.appendMarkup(parent, explorer.inlineMarkup("a <em>b <sup>2</sup></em> <script>x</script>"), doc);
  assert.deepEqual(outline(parent), ["div", ["a ", ["em", ["b ", ["sup", ["2"]]]], " <script>x</script>"]]);
  assert.deepEqual(doc.made, ["div", "em", "sup"]);
});

test("appendMarkup refuses a node whose tag is not on the allow-list: its text only", () => {
  const doc = fakeDocument();
  const parent = doc.createElement("div");
  explorer.appendMarkup(parent, [{ tag: "script", children: ["alert(1)"] }, { tag: "em", children: ["ok"] }], doc);
  assert.deepEqual(outline(parent), ["div", ["alert(1)", ["em", ["ok"]]]]);
  assert.deepEqual(doc.made, ["div", "em"]);
});

// Search folds accents, case and compatibility forms (NFKD, combining marks dropped, lower case) on both sides.
test("foldText: NFKD, no combining marks, lower case", () => {
  assert.equal(explorer.foldText("Schrödinger ÉCOLE Ångström"), "schrodinger ecole angstrom");
  assert.equal(explorer.foldText("Schro\u0308dinger"), "schrodinger");  // already decomposed
  assert.equal(explorer.foldText("I²SB ﬁne ℋ İstanbul"), "i2sb fine h istanbul");
  assert.equal(explorer.foldText("Łukasz Straße 東京 <em>x</em>"), "łukasz straße 東京 <em>x</em>");
  assert.equal(explorer.foldText(""), "");
});

test("searchPatterns fold the query: literal patterns of folded words", () => {
  assert.deepEqual(explorer.searchPatterns("  Schrödinger C++ ").map((p) => p.source), ["schrodinger", "c\\+\\+"]);
});

test("filterRows: search ignores accents and case on both the query and the papers", () => {
  const papers = Object.assign({}, PAPERS, {
    title: ["I²SB: Image-to-Image Schrödinger Bridge", "paper 10", "Ecole", "paper 9"],
    authors: ["Gómez", "C", "<i>E</i>", "D"],
  });
  const search = (text) => explorer.filterRows(papers, THEMES, [0, 1, 2, 3],
                                               query({ words: explorer.searchPatterns(text) }));
  ["schrodinger", "Schrödinger", "SCHRÖDINGER", "schro\u0308dinger", "i2sb", "I²SB", "gomez", "GÓMEZ"]
    .forEach((text) => assert.deepEqual(search(text), [0], text));
  assert.deepEqual(search("école"), [2]);
  assert.deepEqual(search("graph"), [0, 3]);  // unchanged: p1's abstract, p4's theme
});

test("filterRows reads folded fields from a cache when given one, and fills it", () => {
  const cache = [];
  const words = explorer.searchPatterns("graphs");
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, [0, 1], query({ words }), cache), [0]);
  assert.equal(cache[0], explorer.searchText(PAPERS, THEMES, 0));
  assert.equal(cache[2], undefined);  // rows not searched are not folded
  cache[1] = "graphs";  // a stale entry proves the cache is read
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, [0, 1], query({ words }), cache), [0, 1]);
});

test("searchText: every field folded, one per line, so no word spans two fields", () => {
  assert.equal(explorer.searchText(PAPERS, THEMES, 0),
               "graph neural networks\na & b\nmessage passing (mp) on graphs.\n1. graph \u00b7 gnn\nlinked\np1");
  const search = (text) => explorer.filterRows(PAPERS, THEMES, [0, 1, 2, 3],
                                               query({ words: explorer.searchPatterns(text) }));
  assert.deepEqual(search("networksa"), []);
});

test("sourceText: the Source column's label; a data file without sources gives the file name", () => {
  const data = { files: ["000_2e4aa40cf9124fb1.txt", "b.txt"], sources: ["ICML 2024 Papers", "<b>x</b>"],
                 papers: { file: [0, 1], source: [0, 1] } };
  assert.deepEqual([0, 1].map((k) => explorer.sourceText(data, k)), ["ICML 2024 Papers", "<b>x</b>"]);
  const older = { files: data.files, papers: { file: [0, 1] } };
  assert.deepEqual([0, 1].map((k) => explorer.sourceText(older, k)), ["000_2e4aa40cf9124fb1.txt", "b.txt"]);
});

// Issue 38: the code link a paper gave the venue (its metadata), beside the abstract's links and state.
const VENUE = Object.assign({}, PAPERS, {
  venue_code: [["https://github.com/o/v", "javascript:alert(1)"], [], null, ["http://x.org/a"]],
});

test("venueCodeLinks: http(s) links only; [] with a code field and no link; null without a code field", () => {
  assert.deepEqual([0, 1, 2, 3].map((k) => explorer.venueCodeLinks(VENUE, k)),
                   [["https://github.com/o/v"], [], null, ["http://x.org/a"]]);
  assert.equal(explorer.venueCodeLinks(PAPERS, 0), null);
});

test("filterRows by the code link given to the venue; papers without a code field are in neither list", () => {
  const all = [0, 1, 2, 3];
  assert.deepEqual(explorer.filterRows(VENUE, THEMES, all, query({ venueCode: "given" })), [0, 3]);
  assert.deepEqual(explorer.filterRows(VENUE, THEMES, all, query({ venueCode: "not-given" })), [1]);
  assert.deepEqual(explorer.filterRows(VENUE, THEMES, all, query({ venueCode: "given", state: "linked" })), [0, 3]);
  assert.deepEqual(explorer.filterRows(VENUE, THEMES, all, query({ venueCode: "given", theme: 2 })), []);
  assert.deepEqual(explorer.filterRows(VENUE, THEMES, all, query({ venueCode: "<b>" })), []);
  assert.deepEqual(explorer.filterRows(VENUE, THEMES, all, query({ venueCode: "" })), all);
  assert.deepEqual(explorer.filterRows(PAPERS, THEMES, all, query({ venueCode: "given" })), []);
});

test("rowQuery, filterQuery and describeFilters carry the venue filter", () => {
  const filters = { q: "", broad: "", theme: "", state: "", terms: [], keywords: [], group: "",
                    venueCode: "not-given" };
  assert.equal(explorer.rowQuery(filters, {}).venueCode, "not-given");
  assert.equal(explorer.filterQuery(filters), "venue_code=not-given");
  assert.deepEqual(explorer.parseFilters("?" + explorer.filterQuery(filters)), filters);
  assert.equal(explorer.describeFilters(filters, {}), "no code link given to the venue");
  assert.equal(explorer.describeFilters(Object.assign({}, filters, { venueCode: "given" }), {}),
               "a code link given to the venue");
  assert.equal(explorer.describeFilters(Object.assign({}, filters, { venueCode: HOSTILE }), {}),
               "code link to the venue \u201c" + HOSTILE + "\u201d");
  assert.equal(explorer.describeFilters(Object.assign({}, filters, { venueCode: "constructor" }), {}),
               "code link to the venue \u201cconstructor\u201d");
});

// The two grains of themes: broad themes A (themes 1, 3) and B (theme 2); shares in whole percents.
const GRAINS = Object.assign({}, PAPERS, { share: [62, 45, 0, 100], theme2: [2, 1, null, null],
                                           share2: [38, 30, 0, 0] });
const BROAD = { A: "graph \u00b7 <b>network</b>", B: "language & text" };
const THEME_BROAD = { 1: "A", 2: "B", 3: "A" };

test("grainText: broad theme, top two themes with shares, mixed under half; text, not escaped", () => {
  assert.deepEqual(explorer.grainText(GRAINS, THEMES, 0, BROAD, THEME_BROAD),
                   { broad: "A. graph \u00b7 <b>network</b>", first: "1. graph \u00b7 gnn (62%)",
                     second: "2. llm & \"language\" (38%)", mixed: false });
  assert.deepEqual(explorer.grainText(GRAINS, THEMES, 1, BROAD, THEME_BROAD),
                   { broad: "B. language & text", first: "2. llm & \"language\" (45%)",
                     second: "1. graph \u00b7 gnn (30%)", mixed: true });
  assert.deepEqual(explorer.grainText(GRAINS, THEMES, 2, BROAD, THEME_BROAD),
                   { broad: "", first: "", second: "", mixed: false });
  assert.deepEqual(explorer.grainText(GRAINS, THEMES, 3, BROAD, THEME_BROAD),
                   { broad: "A. graph \u00b7 <b>network</b>", first: "1. graph \u00b7 gnn (100%)", second: "",
                     mixed: false });
  // Data without the grains: the strongest theme alone, as before.
  assert.deepEqual(explorer.grainText(PAPERS, THEMES, 1, undefined, undefined),
                   { broad: "", first: "2. llm & \"language\"", second: "", mixed: false });
});

test("broadThemes: the theme numbers of a broad theme, ascending; none for an unknown letter", () => {
  assert.deepEqual(explorer.broadThemes("A", THEME_BROAD), [1, 3]);
  assert.deepEqual(explorer.broadThemes("B", THEME_BROAD), [2]);
  assert.deepEqual(explorer.broadThemes("<b>", THEME_BROAD), []);
  assert.deepEqual(explorer.broadThemes("A", undefined), []);
});

test("filterRows by broad theme (?broad=): the papers whose strongest theme is in it", () => {
  const all = [0, 1, 2, 3];
  const rows = (broad, theme) => explorer.filterRows(
    GRAINS, THEMES, all, explorer.rowQuery({ q: "", broad: broad, theme: theme || "", state: "", terms: [] }, {},
                                           undefined, THEME_BROAD));
  assert.deepEqual(rows("A"), [0, 3]);
  assert.deepEqual(rows("B"), [1]);
  assert.deepEqual(rows(""), [0, 1, 2, 3]);
  assert.deepEqual(rows("Z"), []);
  assert.deepEqual(rows("A", "2"), []);
  assert.deepEqual(rows("B", "2"), [1]);
  // Data without broad themes: a broad filter matches nothing.
  assert.deepEqual(explorer.filterRows(GRAINS, THEMES, all, explorer.rowQuery(
    { q: "", broad: "A", theme: "", state: "", terms: [] }, {}, undefined, undefined)), []);
  assert.equal(explorer.filterQuery({ q: "", broad: "A & B", theme: "", state: "", terms: [] }), "broad=A+%26+B");
  assert.equal(explorer.describeFilters({ q: "", broad: "C", theme: "", state: "", terms: [] }, {}), "broad theme C");
});
