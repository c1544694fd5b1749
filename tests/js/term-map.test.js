// The term map's pure functions (src/helpers/web/static/term-map.js), run by node's own test runner.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const globalsBefore = Object.keys(globalThis).sort();
const map = require("../../src/helpers/web/static/term-map.js");

const HOSTILE = "</script><img src=x onerror=alert(1)>";

function term(label, occurrences, extra) {
  return Object.assign({ label: label, occurrences: occurrences }, extra);
}

test("requiring the file defines no global and draws nothing", () => {
  assert.deepEqual(Object.keys(globalThis).sort(), globalsBefore);
  assert.deepEqual(Object.keys(map).sort(), [
    "WHEEL_HINT", "byOccurrences", "countsText", "edgeWidth", "findStatus", "findTerms", "keyAction", "labelBox",
    "labelOrder", "labelSize", "labelZoom", "legendText", "mapElements", "mapNouns", "neighbourText", "overlaps",
    "termUrl", "tooltipPosition"]);
  assert.equal(map.WHEEL_HINT, "Click the map to zoom with the mouse wheel (or use + and \u2212).");
});

test("a keyword map names keywords and papers where the term map names terms and abstracts", () => {
  const nouns = map.mapNouns("keyword");
  assert.deepEqual(nouns, { item: "keyword", items: "keywords", papers: "papers" });
  assert.deepEqual(map.mapNouns(undefined), { item: "term", items: "terms", papers: "abstracts" });
  assert.equal(map.countsText({ occurrences: 4, links: 2 }, nouns), "Occurrences: 4 papers \u00b7 links: 2");
  assert.equal(map.countsText({ occurrences: 4, links: 2 }), "Occurrences: 4 abstracts \u00b7 links: 2");
  const terms = [{ label: "heat stress" }, { label: "broiler" }];
  assert.equal(map.legendText({ top: [0, 1], n_terms: 3, other: false }, terms, nouns),
               "heat stress, broiler, \u2026 (3 keywords)");
  assert.equal(map.legendText({ top: [0], n_terms: 1, other: false }, terms, nouns), "heat stress (1 keyword)");
  assert.equal(map.findStatus("heat", 0, "", nouns), "No keyword matches \u201cheat\u201d.");
  assert.equal(map.findStatus("heat", 2, "heat stress", nouns),
               "2 keywords match; showing \u201cheat stress\u201d (Enter for the next).");
});

test("termUrl: a keyword map opens the explorer's keyword filter; any other filter name is the term filter", () => {
  assert.equal(map.termUrl("explorer.html", "heat stress", "keyword"), "explorer.html?keyword=heat%20stress");
  assert.equal(map.termUrl("explorer.html", "heat stress", "x=1&term"), "explorer.html?term=heat%20stress");
  assert.equal(map.termUrl("explorer.html?state=linked", HOSTILE, "keyword"),
               "explorer.html?state=linked&keyword=%3C%2Fscript%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E");
});

test("termUrl: the label is one encoded query value, the explorer's own query kept", () => {
  assert.equal(map.termUrl("explorer.html", "graph neural network"), "explorer.html?term=graph%20neural%20network");
  assert.equal(map.termUrl("explorer.html?state=linked", "node"), "explorer.html?state=linked&term=node");
  assert.equal(map.termUrl("explorer.html", HOSTILE),
               "explorer.html?term=%3C%2Fscript%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E");
  assert.equal(map.termUrl("explorer.html", "a&b'c\"d#e"), "explorer.html?term=a%26b'c%22d%23e");
  assert.equal(map.termUrl("explorer.html", "javascript:alert(1)"), "explorer.html?term=javascript%3Aalert(1)");
});

test("edgeWidth maps strengths from zero to the strongest; one width when all are equal", () => {
  assert.equal(map.edgeWidth([]), 1.5);
  assert.equal(map.edgeWidth([0, 0]), 1.5);
  assert.equal(map.edgeWidth([2, 2]), "mapData(strength, 0, 2, 0.6, 4)");
  assert.equal(map.edgeWidth([0.5, 4, 1.25]), "mapData(strength, 0, 4, 0.6, 4)");
  assert.equal(map.edgeWidth([-1, 3]), "mapData(strength, -1, 3, 0.6, 4)");
});

test("mapElements: nodes t<i> at the data's positions, then edges l<j>", () => {
  const terms = [{ label: HOSTILE, x: 1.5, y: -2, colour: "#0173b2", size: 30, font: 19, occurrences: 9 },
                 { label: "b", x: 0, y: 0, colour: "#c8c8c8", size: 6, font: 9.4, occurrences: 1 }];
  assert.deepEqual(map.mapElements(terms, [[0, 1, 1.5]]), [
    { group: "nodes", data: { id: "t0", index: 0, label: HOSTILE, colour: "#0173b2", size: 30, font: 19 },
      position: { x: 1.5, y: -2 } },
    { group: "nodes", data: { id: "t1", index: 1, label: "b", colour: "#c8c8c8", size: 6, font: 9.4 },
      position: { x: 0, y: 0 } },
    { group: "edges", data: { id: "l0", source: "t0", target: "t1", strength: 1.5 } },
  ]);
  assert.deepEqual(map.mapElements([], []), []);
});

test("byOccurrences: most occurrences first, ties in data order", () => {
  assert.deepEqual(map.byOccurrences([term("a", 3), term("b", 1), term("c", 3), term("d", 7)]), [3, 0, 2, 1]);
  assert.deepEqual(map.byOccurrences([]), []);
});

test("overlaps: boxes that only touch do not overlap", () => {
  assert.equal(map.overlaps([0, 0, 10, 10], [5, 5, 15, 15]), true);
  assert.equal(map.overlaps([0, 0, 10, 10], [10, 0, 20, 10]), false);
  assert.equal(map.overlaps([0, 0, 10, 10], [0, 10, 10, 20]), false);
  assert.equal(map.overlaps([0, 0, 10, 10], [2, 2, 3, 3]), true);
});

test("labelZoom keeps the largest label between 14 and 24 px", () => {
  assert.equal(map.labelZoom(1, 20), 1);
  assert.equal(map.labelZoom(0.1, 20), 0.7);
  assert.equal(map.labelZoom(5, 20), 1.2);
});

test("labelSize: lit labels at least 11 px, others hidden below 7 px", () => {
  assert.equal(map.labelSize(10, 0.5, false), null);
  assert.equal(map.labelSize(10, 0.5, true), 11);
  assert.equal(map.labelSize(7, 1, false), 7);
  assert.equal(map.labelSize(10, 2, false), 20);
  assert.equal(map.labelSize(10, 2, true), 20);
});

test("labelOrder: must-show first, lit ones by occurrences, then the rest, each once", () => {
  assert.deepEqual(map.labelOrder([4], [2, 4, 1], [0, 1, 2, 3, 4]), [4, 1, 2, 0, 3]);
  assert.deepEqual(map.labelOrder([], [], [2, 0, 1]), [2, 0, 1]);
});

test("labelBox: under the node, else above, right, left; never over a placed label or outside", () => {
  // A 20 x 10 label of the node at (50, 50) with radius 5, in a 100 x 100 map.
  const place = (placed, x, y, forced) => map.labelBox(x, y, 5, 20, 10, placed, 100, 100, forced);
  assert.deepEqual(place([], 50, 50, false), [40, 55, 60, 65]);
  assert.deepEqual(place([[40, 55, 60, 65]], 50, 50, false), [40, 35, 60, 45]);
  assert.deepEqual(place([[0, 55, 100, 65], [0, 35, 100, 45]], 50, 50, false), [55, 45, 75, 55]);
  const around = [[0, 55, 100, 65], [0, 35, 100, 45], [55, 45, 75, 55]];
  assert.deepEqual(place(around, 50, 50, false), [25, 45, 45, 55]);
  assert.equal(place(around.concat([[25, 45, 45, 55]]), 50, 50, false), null);
  assert.deepEqual(place(around.concat([[25, 45, 45, 55]]), 50, 50, true), [40, 55, 60, 65]);
  assert.equal(place([], 50, 200, false), null);  // below the map
  assert.deepEqual(place([], 50, 95, false), [40, 80, 60, 90]);  // under [40, 100, 60, 110] is outside: above
});

test("legendText: the largest terms as text, an ellipsis when there are more", () => {
  const terms = [term("graph", 9), term(HOSTILE, 4), term("x", 1)];
  assert.equal(map.legendText({ top: [0, 1], n_terms: 5, other: false }, terms),
               `graph, ${HOSTILE}, \u2026 (5 terms)`);
  assert.equal(map.legendText({ top: [2], n_terms: 1, other: true }, terms),
               "other communities: x (1 term)");
  assert.equal(map.legendText({ top: [0, 1], n_terms: 2, other: false }, terms), `graph, ${HOSTILE} (2 terms)`);
});

test("countsText and neighbourText", () => {
  assert.equal(map.countsText({ occurrences: 40, links: 4 }), "Occurrences: 40 abstracts \u00b7 links: 4");
  assert.equal(map.neighbourText(HOSTILE, 2.5), `${HOSTILE} (2.50)`);
  assert.equal(map.neighbourText("a", 1.005), "a (1.00)");
  assert.equal(map.neighbourText("a", 0.125), "a (0.13)");
});

test("findTerms: exact label first, then prefixes, then the rest; ties by occurrences, then data order", () => {
  const terms = [term("graph neural network", 40), term("Graph", 3), term("paragraph", 9), term("graph theory", 40),
                 term("message passing", 12), term(HOSTILE, 7), term("subgraph", 9)];
  const found = (query) => map.findTerms(terms, query).map((m) => [m.index, m.rank]);
  assert.deepEqual(found(" GRAPH "), [[1, 0], [0, 1], [3, 1], [2, 2], [6, 2]]);
  assert.deepEqual(found("</script>"), [[5, 1]]);
  assert.deepEqual(found("<img"), [[5, 2]]);
  assert.deepEqual(found("no such term"), []);
  assert.deepEqual(found(""), []);
  assert.deepEqual(found("  "), []);
  assert.deepEqual(map.findTerms(terms, "message"), [{ index: 4, rank: 1, occurrences: 12 }]);
});

test("findStatus says how many terms match and which one is shown", () => {
  assert.equal(map.findStatus("  no such term ", 0, ""), "No term matches \u201cno such term\u201d.");
  assert.equal(map.findStatus("message", 1, "message passing"), "1 term matches; showing \u201cmessage passing\u201d.");
  assert.equal(map.findStatus("<", 3, HOSTILE), `3 terms match; showing \u201c${HOSTILE}\u201d (Enter for the next).`);
});

test("tooltipPosition: above the term if there is room, else under it; within the map's sides", () => {
  const box = { left: 10, top: 100, width: 800 };
  assert.deepEqual(map.tooltipPosition(box, 400, 300, 15, 200, 80), { left: 394, top: 297 });
  assert.deepEqual(map.tooltipPosition(box, 400, 50, 15, 200, 80), { left: 394, top: 195 });
  assert.deepEqual(map.tooltipPosition(box, 790, 300, 15, 200, 80), { left: 610, top: 297 });
  assert.deepEqual(map.tooltipPosition(box, 2, 300, 15, 200, 80), { left: 10, top: 297 });
});

test("keyAction: + = - 0 and the arrows, nothing else", () => {
  assert.deepEqual(["+", "=", "-", "0", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].map(map.keyAction), [
    ["zoom", 1.4], ["zoom", 1.4], ["zoom", 1 / 1.4], ["fit"], ["pan", 60, 0], ["pan", -60, 0], ["pan", 0, 60],
    ["pan", 0, -60]]);
  assert.deepEqual(["a", "Enter", "constructor", "toString", "__proto__"].map(map.keyAction),
                   [null, null, null, null, null]);
});
