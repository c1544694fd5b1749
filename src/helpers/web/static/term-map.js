(function () {
  var root = document.currentScript.parentElement;
  var data = JSON.parse(root.querySelector("script.term-map-data").textContent);
  var box = root.querySelector(".term-map-canvas");
  var tooltip = root.querySelector(".term-map-tooltip");
  var search = root.querySelector(".term-map-search");
  var status = root.querySelector(".term-map-status");
  var library = root.querySelector("script.term-map-library");
  var started = false;
  var WHEEL_HINT = "Click the map to zoom with the mouse wheel (or use + and −).";
  function termUrl(label) {
    var url = data.explorer;
    return url + (url.indexOf("?") === -1 ? "?" : "&") + "term=" + encodeURIComponent(label);
  }
  function start() {
    if (started) { return; }
    started = true;
    var terms = data.terms;
    var strengths = data.links.map(function (l) { return l[2]; });
    var low = Math.min.apply(null, strengths.concat([0])), high = Math.max.apply(null, strengths.concat([0]));
    var edgeWidth = high > low ? "mapData(strength, " + low + ", " + high + ", 0.6, 4)" : 1.5;
    var elements = terms.map(function (t, i) {
      return { group: "nodes", data: { id: "t" + i, index: i, label: t.label, colour: t.colour,
               size: t.size, font: t.font }, position: { x: t.x, y: t.y } };
    }).concat(data.links.map(function (l, i) {
      return { group: "edges", data: { id: "l" + i, source: "t" + l[0], target: "t" + l[1], strength: l[2] } };
    }));
    var cy = window.cytoscape({
      container: box, elements: elements, layout: { name: "preset", fit: false },
      minZoom: 0.05, maxZoom: 4, boxSelectionEnabled: false, autoungrabify: true, userZoomingEnabled: false,
      style: [
        { selector: "node", style: { "background-color": "data(colour)", "width": "data(size)",
          "height": "data(size)", "background-opacity": 0.9, "border-width": 0.5, "border-color": "#fff" } },
        { selector: "edge", style: { "curve-style": "haystack", "haystack-radius": 0, "line-color": "#9a9a9a",
          "opacity": 0.22, "width": edgeWidth } },
        { selector: ".faded", style: { "opacity": 0.15 } },
        { selector: "edge.near", style: { "opacity": 0.75, "line-color": "#555" } },
        { selector: "node.near, node.hover, node.match", style: { "opacity": 1, "z-index": 10 } },
        { selector: "node.hover, node.match", style: { "border-width": 3, "border-color": "#000" } }
      ]
    });
    root.termMap = cy;
    var byOccurrences = cy.nodes().toArray().sort(function (a, b) {
      return terms[b.data("index")].occurrences - terms[a.data("index")].occurrences;
    });
    // Labels live on a canvas of their own above the nodes, so no circle ever covers a drawn label.
    var layer = document.createElement("canvas");
    layer.className = "term-map-labels";
    layer.setAttribute("aria-hidden", "true");
    box.appendChild(layer);
    var pen = layer.getContext("2d"), FONT = "px Helvetica Neue, Helvetica, Arial, sans-serif";
    pen.font = "100" + FONT;
    var widthAt1 = terms.map(function (t) { return pen.measureText(t.label).width / 100; });
    root.termMapLabels = [];
    function overlapping(c) {
      return function (q) { return c[0] < q[2] && q[0] < c[2] && c[1] < q[3] && q[1] < c[3]; };
    }
    var largestFont = Math.max.apply(null, terms.map(function (t) { return t.font; }));
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
      // The largest label stays between 14 and 24 px: zoomed far out the big terms stay named,
      // zoomed far in the terms spread apart rather than the letters growing.
      var zoom = Math.min(Math.max(cy.zoom(), 14 / largestFont), 24 / largestFont), placed = [], drawn = [];
      if (!tooltip.hidden) {  // no label hides under the tooltip
        var tx = tooltip.offsetLeft - box.offsetLeft, ty = tooltip.offsetTop - box.offsetTop;
        placed.push([tx, ty, tx + tooltip.offsetWidth, ty + tooltip.offsetHeight]);
      }
      // The hovered term and the one the search box shows are always labelled; their neighbours
      // and the other matches next, where they fit.
      var must = cy.$("node.hover, node.current").toArray(), near = cy.$("node.near, node.match").toArray();
      var dim = must.length + near.length > 0, seen = {};
      near = byOccurrences.filter(function (node) { return near.indexOf(node) !== -1; });
      must.concat(near, byOccurrences).forEach(function (node) {
        var i = node.data("index");
        if (seen[i]) { return; }
        seen[i] = true;
        var forced = node.hasClass("hover") || node.hasClass("current");
        var lit = forced || node.hasClass("near") || node.hasClass("match");
        var size = terms[i].font * zoom;
        if (lit) { size = Math.max(size, 11); } else if (size < 7) { return; }
        // Under the node if that space is free, else above, right or left of it.
        var p = node.renderedPosition(), r = node.renderedWidth() / 2 + 1, h = size * 1.2;
        var w = widthAt1[i] * size * (lit ? 1.1 : 1) + 4;  // bold is wider
        var spots = [[p.x - w / 2, p.y + r], [p.x - w / 2, p.y - r - h],
                     [p.x + r, p.y - h / 2], [p.x - r - w, p.y - h / 2]];
        var b = null;
        for (var k = 0; k < spots.length && !b; k++) {
          var c = [spots[k][0], spots[k][1], spots[k][0] + w, spots[k][1] + h];
          var inside = c[2] > 0 && c[0] < width && c[3] > 0 && c[1] < height;
          if (forced || (inside && !placed.some(overlapping(c)))) { b = c; }
        }
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
      var names = entry.top.map(function (i) { return terms[i].label; }).join(", ");
      var more = entry.n_terms > entry.top.length ? ", …" : "";
      var count = entry.n_terms + (entry.n_terms === 1 ? " term" : " terms");
      var grey = entry.other ? "other communities and unlinked terms: " : "";
      item.appendChild(document.createTextNode(grey + names + more + " (" + count + ")"));
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
      tooltip.appendChild(text("p", "Occurrences: " + t.occurrences + " abstracts \u00b7 links: " + t.links,
                               "term-map-counts"));
      if (t.neighbours.length) {
        tooltip.appendChild(text("p", "Strongest links:"));
        var list = document.createElement("ol");
        list.className = "term-map-neighbours";
        t.neighbours.forEach(function (pair) {
          list.appendChild(text("li", terms[pair[0]].label + " (" + pair[1].toFixed(2) + ")"));
        });
        tooltip.appendChild(list);
      } else {
        tooltip.appendChild(text("p", "No link drawn."));
      }
      var link = text("a", "List the papers that use it", "term-map-papers");
      link.href = termUrl(t.label);
      tooltip.appendChild(link);
      shown = node;
      // A hover tooltip lets the mouse through; a pinned one can be clicked.
      tooltip.style.pointerEvents = node === pinned ? "auto" : "none";
      tooltip.hidden = false;
      highlight(node);
      moveTooltip();
    }
    // Above the term if there is room, else under its label; never outside the map's sides.
    function moveTooltip() {
      if (!shown || tooltip.hidden) { return; }
      var p = shown.renderedPosition(), r = shown.renderedWidth() / 2;
      var left = Math.min(box.offsetLeft + p.x - 16, box.offsetLeft + box.clientWidth - tooltip.offsetWidth);
      var top = box.offsetTop + p.y - r - 8 - tooltip.offsetHeight;
      if (top < box.offsetTop) { top = box.offsetTop + p.y + r + 30; }
      tooltip.style.left = Math.max(box.offsetLeft, left) + "px";
      tooltip.style.top = top + "px";
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
        window.location.assign(termUrl(terms[event.target.data("index")].label));
      }
    });
    cy.on("tap", function (event) { if (event.target === cy) { unpin(); } });
    cy.on("mouseover", "node", function () { box.style.cursor = "pointer"; });
    cy.on("mouseout", "node", function () { box.style.cursor = ""; });
    var matches = [], current = -1;
    function find() {
      var query = search.value.trim().toLowerCase();
      cy.batch(function () { cy.elements().removeClass("match current"); });
      unpin();
      matches = [];
      current = -1;
      if (!query) { status.textContent = ""; return; }
      terms.forEach(function (t, i) {
        var label = t.label.toLowerCase(), at = label.indexOf(query);
        if (at === -1) { return; }
        matches.push({ index: i, rank: label === query ? 0 : (at === 0 ? 1 : 2), occurrences: t.occurrences });
      });
      matches.sort(function (a, b) { return a.rank - b.rank || b.occurrences - a.occurrences || a.index - b.index; });
      if (!matches.length) {
        status.textContent = "No term matches \u201c" + search.value.trim() + "\u201d.";
        return;
      }
      cy.batch(function () {
        cy.elements().addClass("faded");
        matches.forEach(function (m) { cy.getElementById("t" + m.index).removeClass("faded").addClass("match"); });
      });
      next();
    }
    function next() {
      if (!matches.length) { return; }
      current = (current + 1) % matches.length;
      var node = cy.getElementById("t" + matches[current].index);
      cy.batch(function () { cy.$(".current").removeClass("current"); node.addClass("current"); });
      status.textContent = matches.length + (matches.length === 1 ? " term matches" : " terms match") +
        "; showing \u201c" + terms[matches[current].index].label + "\u201d" +
        (matches.length > 1 ? " (Enter for the next)." : ".");
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
      var moves = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
      if (event.key === "+" || event.key === "=") { zoomBy(1.4); }
      else if (event.key === "-") { zoomBy(1 / 1.4); }
      else if (event.key === "0") { fit(); }
      else if (moves[event.key]) { cy.panBy({ x: moves[event.key][0], y: moves[event.key][1] }); }
      else { return; }
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
})();
