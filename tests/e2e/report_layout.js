// Measures a gpucap report page in the browser for report_layout.py (injected before </body> by
// report_layout.py inject; the result is a pre element, id gpucap-layout, read back with --dump-dom). Lines:
//   viewport CLIENT_WIDTH SCROLL_WIDTH INNER_HEIGHT SCROLL_HEIGHT
//   box KIND ID LEFT TOP WIDTH HEIGHT   page coordinates of the structure: decision, h2, chart, table, label
//   wide TAG#ID RIGHT                   an element whose right edge is beyond the page's width
//   sci TEXT                            a number in scientific notation in the rendered text
//   cut CHART TEXT                      a text of a chart reaching beyond the chart
//   overlap CHART TEXT | TEXT           two texts of a chart drawn over each other
(function () {
	var out = [], de = document.documentElement;
	function box(kind, id, e) {
		var r = e.getBoundingClientRect();
		if (r.width > 0 && r.height > 0)
			out.push(["box", kind, id || "-", Math.round(r.left + scrollX), Math.round(r.top + scrollY),
				  Math.round(r.width), Math.round(r.height)].join(" "));
	}
	out.push(["viewport", de.clientWidth, de.scrollWidth, innerHeight, de.scrollHeight].join(" "));
	document.querySelectorAll("#decision").forEach(function (e) { box("decision", "decision", e); });
	document.querySelectorAll("h2").forEach(function (e, i) {
		box("h2", e.parentElement.id || e.parentElement.className || "h2-" + i, e);
	});
	document.querySelectorAll("svg.chart").forEach(function (e) { box("chart", e.id, e); });
	var nth = {};  // a table is named by its section and its place in it: "recommend/0" its first
	document.querySelectorAll("table").forEach(function (e) {
		var s = e.closest("section") || {}, k = s.id || s.className || "-";
		nth[k] = (nth[k] || 0) + 1;
		box("table", k + "/" + (nth[k] - 1), e);
	});
	document.querySelectorAll("svg.chart text.label").forEach(function (e) {
		box("label", e.closest("svg").id, e);
	});
	// every text of a chart inside the chart (a legend or label not cut) and clear of its other texts
	document.querySelectorAll("svg.chart").forEach(function (svg) {
		var c = svg.getBoundingClientRect(), rs = [];
		svg.querySelectorAll("text").forEach(function (e) {
			var r = e.getBoundingClientRect(), s = e.textContent.substring(0, 40);
			if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5)
				out.push("cut " + svg.id + " " + s);
			rs.forEach(function (q) {  // 1 px of overlap allowed: glyph boxes include the line gap
				if (r.left < q[0].right - 1 && q[0].left < r.right - 1 && r.top < q[0].bottom - 1 &&
				    q[0].top < r.bottom - 1)
					out.push("overlap " + svg.id + " " + q[1] + " | " + s);
			});
			rs.push([r, s]);
		});
	});
	document.querySelectorAll("body *").forEach(function (e) {
		var r = e.getBoundingClientRect();
		if (r.width > 0 && r.right + scrollX > de.clientWidth + 0.5)
			out.push("wide " + e.tagName.toLowerCase() + "#" + (e.id || "-") + " " + Math.round(r.right + scrollX));
	});
	// a number in scientific notation: digits, an optional fraction, e or E, an optional sign, digits, not
	// inside a word (p5.48xlarge, e2e and hex ids are words: a letter or digit touches them on the left)
	var sci = /(^|[^\w.])([+-]?\d+(\.\d+)?[eE][+-]?\d+)(?![\w.])/g, t = document.body.innerText, m;
	while ((m = sci.exec(t)) !== null)
		out.push("sci " + t.substring(Math.max(0, m.index - 30), m.index + m[0].length + 30).replace(/\s+/g, " "));
	var p = document.createElement("pre");
	p.id = "gpucap-layout";
	p.textContent = out.join("\n");
	document.body.appendChild(p);
})();
