/* The interactive term map (helpers.web.term_map): a Cytoscape.js drawing of one map's JSON data.
 *
 * A classic script, inlined by term_map_html() at the end of its <div class="term-map">, which it
 * finds as document.currentScript's parent: no ids, so a page may hold several maps. Term labels
 * are untrusted: they are drawn as canvas text or set with textContent. The pure functions come
 * first; under node (no window) the file exports them instead of drawing, for tests/js.
 */
(function () {
  "use strict";

  var WHEEL_HINT = "Click the map to zoom with the mouse wheel (or use + and \u2212).";

  /** The explorer opened on the papers that use a term (the query parameter "term", or the map's own filter,
   * "keyword" for a map of authors' keywords). */
  function termUrl(explorer, label, filter) {
    var name = filter === "keyword" ? "keyword" : "term";
    return explorer + (explorer.indexOf("?") === -1 ? "?" : "&") + name + "=" + encodeURIComponent(label);
  }

  /** Edge widths: a Cytoscape mapData() from 0 (or the weakest link, if negative) to the strongest. */
  function edgeWidth(strengths) {
    var low = strengths.reduce(function (a, b) { return Math.min(a, b); }, 0);
    var high = strengths.reduce(function (a, b) { return Math.max(a, b); }, 0);
    return high > low ? "mapData(strength, " + low + ", " + high + ", 0.6, 4)" : 1.5;
  }

  /** Cytoscape's elements: node "t<i>" for term i, edge "l<j>" for link j, at the data's positions. */
  function mapElements(terms, links) {
    return terms.map(function (t, i) {
      return { group: "nodes", data: { id: "t" + i, index: i, label: t.label, colour: t.colour,
               size: t.size, font: t.font }, position: { x: t.x, y: t.y } };
    }).concat(links.map(function (l, i) {
      return { group: "edges", data: { id: "l" + i, source: "t" + l[0], target: "t" + l[1], strength: l[2] } };
    }));
  }

  /** Term indices, most occurrences first, ties in data order. */
  function byOccurrences(terms) {
    return terms.map(function (t, i) { return i; }).sort(function (a, b) {
      return terms[b].occurrences - terms[a].occurrences || a - b;
    });
  }

  /** Whether two [left, top, right, bottom] boxes overlap (touching edges do not). */
  function overlaps(a, b) {
    return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  }

  /** The zoom labels are drawn at: the largest label stays between 14 and 24 px. */
  function labelZoom(zoom, largestFont) {
    return Math.min(Math.max(zoom, 14 / largestFont), 24 / largestFont);
  }

  /** A label's font size in px, at least 11 when lit (focused or near the focus), null when too small (< 7). */
  function labelSize(font, zoom, lit) {
    var size = font * zoom;
    if (lit) { return Math.max(size, 11); }
    return size < 7 ? null : size;
  }

  /** The order labels are placed in: the must-show terms, the lit ones by occurrences, then all by occurrences. */
  function labelOrder(must, near, ranked) {
    var seen = {}, order = [];
    must.concat(ranked.filter(function (i) { return near.indexOf(i) !== -1; }), ranked).forEach(function (i) {
      if (!seen[i]) { seen[i] = true; order.push(i); }
    });
    return order;
  }

  /**
   * Where a w x h label of the node at (x, y), radius r, goes: under the node if that space is free,
   * else above, right or left of it; null when none is inside the width x height map and free of the
   * placed boxes. A forced label always goes under its node.
   */
  function labelBox(x, y, r, w, h, placed, width, height, forced) {
    var spots = [[x - w / 2, y + r], [x - w / 2, y - r - h], [x + r, y - h / 2], [x - r - w, y - h / 2]];
    for (var k = 0; k < spots.length; k++) {
      var c = [spots[k][0], spots[k][1], spots[k][0] + w, spots[k][1] + h];
      var inside = c[2] > 0 && c[0] < width && c[3] > 0 && c[1] < height;
      if (forced || (inside && !placed.some(function (q) { return overlaps(c, q); }))) { return c; }
    }
    return null;
  }

  /** What a map's items are called and what they occur in: terms in abstracts, or (filter "keyword") the
   * authors' keywords in papers. */
  function mapNouns(filter) {
    return filter === "keyword" ? { item: "keyword", items: "keywords", papers: "papers" }
      : { item: "term", items: "terms", papers: "abstracts" };
  }

  /** A legend entry's text: its largest terms and its number of terms (nouns: mapNouns). */
  function legendText(entry, terms, nouns) {
    var noun = nouns || mapNouns("term");
    var names = entry.top.map(function (i) { return terms[i].label; }).join(", ");
    var more = entry.n_terms > entry.top.length ? ", \u2026" : "";
    var count = entry.n_terms + " " + (entry.n_terms === 1 ? noun.item : noun.items);
    var grey = entry.other ? "other communities: " : "";
    return grey + names + more + " (" + count + ")";
  }

  /** The tooltip's counts line (nouns: mapNouns). */
  function countsText(term, nouns) {
    return "Occurrences: " + term.occurrences + " " + (nouns || mapNouns("term")).papers + " \u00b7 links: " + term.links;
  }

  /** One neighbour in the tooltip: its label and the link's strength to two decimals. */
  function neighbourText(label, strength) {
    return label + " (" + strength.toFixed(2) + ")";
  }

  /** The terms whose label contains the query (case-insensitive): exact first, then prefixes, then the rest. */
  function findTerms(terms, query) {
    var wanted = query.trim().toLowerCase(), matches = [];
    if (!wanted) { return matches; }
    terms.forEach(function (t, i) {
      var label = t.label.toLowerCase(), at = label.indexOf(wanted);
      if (at === -1) { return; }
      matches.push({ index: i, rank: label === wanted ? 0 : (at === 0 ? 1 : 2), occurrences: t.occurrences });
    });
    return matches.sort(function (a, b) {
      return a.rank - b.rank || b.occurrences - a.occurrences || a.index - b.index;
    });
  }

  /** The status line after a search: how many terms match and which one is shown (nouns: mapNouns). */
  function findStatus(query, nMatches, label, nouns) {
    var noun = nouns || mapNouns("term");
    if (!nMatches) { return "No " + noun.item + " matches \u201c" + query.trim() + "\u201d."; }
    return nMatches + (nMatches === 1 ? " " + noun.item + " matches" : " " + noun.items + " match") +
      "; showing \u201c" + label + "\u201d" +
      (nMatches > 1 ? " (Enter for the next)." : ".");
  }

  /**
   * The tooltip's page position: above the term (centre x, y, radius r) if there is room, else under its
   * label; never outside the map's sides. map: the map's offsetLeft, offsetTop and clientWidth.
   */
  function tooltipPosition(map, x, y, r, tipWidth, tipHeight) {
    var left = Math.min(map.left + x - 16, map.left + map.width - tipWidth);
    var top = map.top + y - r - 8 - tipHeight;
    if (top < map.top) { top = map.top + y + r + 30; }
    return { left: Math.max(map.left, left), top: top };
  }

  /** What a key does on the focused map: ["zoom", factor], ["fit"], ["pan", dx, dy] or null. */
  function keyAction(key) {
    var moves = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
    if (key === "+" || key === "=") { return ["zoom", 1.4]; }
    if (key === "-") { return ["zoom", 1 / 1.4]; }
    if (key === "0") { return ["fit"]; }
    return Object.prototype.hasOwnProperty.call(moves, key) ? ["pan", moves[key][0], moves[key][1]] : null;
  }

  var core = {
    WHEEL_HINT: WHEEL_HINT, mapNouns: mapNouns, termUrl: termUrl, edgeWidth: edgeWidth, mapElements: mapElements,
    byOccurrences: byOccurrences, overlaps: overlaps, labelZoom: labelZoom, labelSize: labelSize,
    labelOrder: labelOrder, labelBox: labelBox, legendText: legendText, countsText: countsText,
    neighbourText: neighbourText, findTerms: findTerms, findStatus: findStatus, tooltipPosition: tooltipPosition,
    keyAction: keyAction
  };

  // The page's state lives in here, out of the pure functions' reach.
  function runPage() {
    var root = document.currentScript.parentElement;
    var data = JSON.parse(root.querySelector("script.term-map-data").textContent);
    var nouns = mapNouns(data.filter);
    var box = root.querySelector(".term-map-canvas");
    var tooltip = root.querySelector(".term-map-tooltip");
    var search = root.querySelector(".term-map-search");
    var status = root.querySelector(".term-map-status");
    var library = root.querySelector("script.term-map-library");
    var started = false;
    function start() {
      if (started) { return; }
      started = true;
      var terms = data.terms;
      var cy = window.cytoscape({
        container: box, elements: mapElements(terms, data.links), layout: { name: "preset", fit: false },
        minZoom: 0.05, maxZoom: 4, boxSelectionEnabled: false, autoungrabify: true, userZoomingEnabled: false,
        style: [
          { selector: "node", style: { "background-color": "data(colour)", "width": "data(size)",
            "height": "data(size)", "background-opacity": 0.9, "border-width": 0.5, "border-color": "#fff" } },
          { selector: "edge", style: { "curve-style": "haystack", "haystack-radius": 0, "line-color": "#9a9a9a",
            "opacity": 0.22, "width": edgeWidth(data.links.map(function (l) { return l[2]; })) } },
          { selector: ".faded", style: { "opacity": 0.15 } },
          { selector: "edge.near", style: { "opacity": 0.75, "line-color": "#555" } },
          { selector: "node.near, node.hover, node.match", style: { "opacity": 1, "z-index": 10 } },
          { selector: "node.hover, node.match", style: { "border-width": 3, "border-color": "#000" } }
        ]
      });
      root.termMap = cy;
      var nodeAt = [];
      cy.nodes().forEach(function (node) { nodeAt[node.data("index")] = node; });
      var ranked = byOccurrences(terms);
      function indices(selector) { return cy.$(selector).map(function (node) { return node.data("index"); }); }
      // Labels live on a canvas of their own above the nodes, so no circle ever covers a drawn label.
      var layer = document.createElement("canvas");
      layer.className = "term-map-labels";
      layer.setAttribute("aria-hidden", "true");
      box.appendChild(layer);
      var pen = layer.getContext("2d"), FONT = "px Helvetica Neue, Helvetica, Arial, sans-serif";
      pen.font = "100" + FONT;
      var widthAt1 = terms.map(function (t) { return pen.measureText(t.label).width / 100; });
      root.termMapLabels = [];
      var largestFont = terms.reduce(function (a, t) { return Math.max(a, t.font); }, -Infinity);
      // Focused terms first, then the largest; a label is drawn where it is big enough to read and
      // overlaps no label already drawn, so zooming in reveals more of them (as in VOSviewer).
      function drawLabels() {
        var ratio = window.devicePixelRatio || 1, width = box.clientWidth, height = box.clientHeight;
        if (layer.width !== Math.round(width * ratio) || layer.height !== Math.round(height * ratio)) {
          layer.width = Math.round(width * ratio);
          layer.height = Math.round(height * ratio);
          layer.style.width = width + "px";
          layer.style.height = height + "px";
        }
        pen.setTransform(ratio, 0, 0, ratio, 0, 0);
        pen.clearRect(0, 0, width, height);
        pen.textAlign = "center";
        pen.textBaseline = "top";
        pen.lineJoin = "round";
        // Zoomed far out the big terms stay named; zoomed far in, the terms spread apart rather than the
        // letters growing.
        var zoom = labelZoom(cy.zoom(), largestFont), placed = [], drawn = [];
        if (!tooltip.hidden) {  // no label hides under the tooltip
          var tx = tooltip.offsetLeft - box.offsetLeft, ty = tooltip.offsetTop - box.offsetTop;
          placed.push([tx, ty, tx + tooltip.offsetWidth, ty + tooltip.offsetHeight]);
        }
        // The hovered term and the one the search box shows are always labelled; their neighbours
        // and the other matches next, where they fit.
        var must = indices("node.hover, node.current"), near = indices("node.near, node.match");
        var dim = must.length + near.length > 0;
        labelOrder(must, near, ranked).forEach(function (i) {
          var node = nodeAt[i];
          var forced = node.hasClass("hover") || node.hasClass("current");
          var lit = forced || node.hasClass("near") || node.hasClass("match");
          var size = labelSize(terms[i].font, zoom, lit);
          if (size === null) { return; }
          var p = node.renderedPosition(), r = node.renderedWidth() / 2 + 1, h = size * 1.2;
          var w = widthAt1[i] * size * (lit ? 1.1 : 1) + 4;  // bold is wider
          var b = labelBox(p.x, p.y, r, w, h, placed, width, height, forced);
          if (!b) { return; }
          placed.push(b);
          drawn.push(terms[i].label);
          pen.globalAlpha = dim && !lit ? 0.25 : 1;
          pen.font = (lit ? "bold " : "") + size.toFixed(1) + FONT;
          pen.lineWidth = Math.max(2, size / 5);
          pen.strokeStyle = "rgba(255, 255, 255, 0.9)";
          pen.strokeText(terms[i].label, (b[0] + b[2]) / 2, b[1] + size * 0.1);
          pen.fillStyle = "#1a1a1a";
          pen.fillText(terms[i].label, (b[0] + b[2]) / 2, b[1] + size * 0.1);
        });
        pen.globalAlpha = 1;
        root.termMapLabels = drawn;
      }
      cy.on("render", drawLabels);
      // The legend names each colour by its largest terms (text nodes, as everywhere).
      var legend = root.querySelector(".term-map-legend");
      (data.legend || []).forEach(function (entry) {
        var item = document.createElement("li"), swatch = document.createElement("span");
        swatch.className = "term-map-swatch";
        swatch.style.backgroundColor = entry.colour;
        item.appendChild(swatch);
        item.appendChild(document.createTextNode(legendText(entry, terms, nouns)));
        legend.appendChild(item);
      });
      cy.on("viewport resize", function () { moveTooltip(); });
      var shown = null, pinned = null;
      function text(tag, value, className) {
        var element = document.createElement(tag);
        element.textContent = value;
        if (className) { element.className = className; }
        return element;
      }
      function showTooltip(node) {
        var t = terms[node.data("index")];
        tooltip.replaceChildren();
        tooltip.appendChild(text("span", t.label, "term-map-term"));
        tooltip.appendChild(text("p", countsText(t, nouns), "term-map-counts"));
        if (t.neighbours.length) {
          tooltip.appendChild(text("p", "Strongest links:"));
          var list = document.createElement("ol");
          list.className = "term-map-neighbours";
          t.neighbours.forEach(function (pair) {
            list.appendChild(text("li", neighbourText(terms[pair[0]].label, pair[1])));
          });
          tooltip.appendChild(list);
        } else {
          tooltip.appendChild(text("p", "No link drawn."));
        }
        var link = text("a", "List the papers that use it", "term-map-papers");
        link.href = termUrl(data.explorer, t.label, data.filter);
        tooltip.appendChild(link);
        shown = node;
        // A hover tooltip lets the mouse through; a pinned one can be clicked.
        tooltip.style.pointerEvents = node === pinned ? "auto" : "none";
        tooltip.hidden = false;
        highlight(node);
        moveTooltip();
      }
      function moveTooltip() {
        if (!shown || tooltip.hidden) { return; }
        var p = shown.renderedPosition();
        var at = tooltipPosition({ left: box.offsetLeft, top: box.offsetTop, width: box.clientWidth }, p.x, p.y,
                                 shown.renderedWidth() / 2, tooltip.offsetWidth, tooltip.offsetHeight);
        tooltip.style.left = at.left + "px";
        tooltip.style.top = at.top + "px";
      }
      function hideTooltip() {
        tooltip.hidden = true;
        shown = null;
        cy.batch(function () {
          cy.elements().removeClass("hover near faded");
          if (cy.$(".match").length) { cy.elements().not(".match").addClass("faded"); }
        });
      }
      // A term found by the search box or tapped stays shown until another is chosen or the background is tapped.
      function pin(node) { pinned = node; showTooltip(node); }
      function unpin() { pinned = null; hideTooltip(); }
      function highlight(node) {
        cy.batch(function () {
          cy.elements().removeClass("hover near").addClass("faded");
          var around = node.closedNeighborhood();
          around.removeClass("faded").addClass("near");
          node.addClass("hover");
          cy.$(".match").removeClass("faded");
        });
      }
      cy.on("mouseover", "node", function (event) { showTooltip(event.target); });
      function leave() { if (pinned) { showTooltip(pinned); } else { hideTooltip(); } }
      cy.on("mouseout", "node", leave);
      box.addEventListener("mouseleave", leave);
      cy.on("tap", "node", function (event) {
        var original = event.originalEvent || {};
        if (String(original.type || "").indexOf("touch") === 0 || original.pointerType === "touch") {
          pin(event.target);
        } else {
          window.location.assign(termUrl(data.explorer, terms[event.target.data("index")].label, data.filter));
        }
      });
      cy.on("tap", function (event) { if (event.target === cy) { unpin(); } });
      cy.on("mouseover", "node", function () { box.style.cursor = "pointer"; });
      cy.on("mouseout", "node", function () { box.style.cursor = ""; });
      var matches = [], current = -1;
      function find() {
        cy.batch(function () { cy.elements().removeClass("match current"); });
        unpin();
        matches = findTerms(terms, search.value);
        current = -1;
        if (!search.value.trim()) { status.textContent = ""; return; }
        if (!matches.length) {
          status.textContent = findStatus(search.value, 0, "", nouns);
          return;
        }
        cy.batch(function () {
          cy.elements().addClass("faded");
          matches.forEach(function (m) { nodeAt[m.index].removeClass("faded").addClass("match"); });
        });
        next();
      }
      function next() {
        if (!matches.length) { return; }
        current = (current + 1) % matches.length;
        var node = nodeAt[matches[current].index];
        cy.batch(function () { cy.$(".current").removeClass("current"); node.addClass("current"); });
        status.textContent = findStatus(search.value, matches.length, terms[matches[current].index].label, nouns);
        cy.stop();
        var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        cy.animate({ center: { eles: node }, zoom: Math.max(cy.zoom(), 1.2) },
                   { duration: still ? 0 : 250, complete: function () { pin(node); } });
        pin(node);
      }
      search.addEventListener("input", find);
      search.addEventListener("keydown", function (event) {
        if (event.key === "Enter") { event.preventDefault(); next(); }
        if (event.key === "Escape") { search.value = ""; find(); }
      });
      function zoomBy(factor) {
        cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: box.clientWidth / 2, y: box.clientHeight / 2 } });
      }
      root.querySelector(".term-map-zoom-in").addEventListener("click", function () { zoomBy(1.4); });
      root.querySelector(".term-map-zoom-out").addEventListener("click", function () { zoomBy(1 / 1.4); });
      root.querySelector(".term-map-fit").addEventListener("click", fit);
      // The wheel zooms only once the map has the focus (a click or Tab), so it never traps the page's scrolling.
      box.addEventListener("mousedown", function () { box.focus({ preventScroll: true }); });
      box.addEventListener("touchstart", function () { box.focus({ preventScroll: true }); }, { passive: true });
      box.addEventListener("focus", function () {
        cy.userZoomingEnabled(true);
        if (status.textContent === WHEEL_HINT) { status.textContent = ""; }
      });
      box.addEventListener("blur", function () { cy.userZoomingEnabled(false); });
      box.addEventListener("wheel", function () {
        if (document.activeElement !== box && !status.textContent) { status.textContent = WHEEL_HINT; }
      }, { passive: true });
      box.addEventListener("keydown", function (event) {
        var action = keyAction(event.key);
        if (!action) { return; }
        if (action[0] === "zoom") { zoomBy(action[1]); }
        else if (action[0] === "fit") { fit(); }
        else { cy.panBy({ x: action[1], y: action[2] }); }
        event.preventDefault();
      });
      function fit() {
        cy.fit(undefined, 30);
        // A small map is not blown up: its nodes stay the size they have in a large one.
        if (cy.zoom() > 1.4) { zoomBy(1.4 / cy.zoom()); }
      }
      fit();
      root.setAttribute("data-ready", "true");
    }
    // The library is deferred, so the page's text is laid out before the map is drawn.
    if (window.cytoscape) { start(); }
    else {
      library.addEventListener("load", start);
      window.addEventListener("load", function () {
        if (!window.cytoscape) {
          status.textContent = "The map could not load its script (" + library.getAttribute("src") + ").";
        }
      });
    }
  }

  if (typeof window === "undefined") {
    if (typeof module === "object" && module) { module.exports = core; }
  } else {
    runPage();
  }
}());
