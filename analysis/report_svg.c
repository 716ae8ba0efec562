/*
 * report_svg: SVG charts (report_svg.h). Layout: a plot area inset by fixed margins (left for the y ticks and
 * label, bottom for the x ticks and label, top for the title, right for the legend); ticks at "nice" steps
 * (1, 2 or 5 times a power of ten), about five per axis. The HTML escape is here, beneath the page that
 * uses it too (report_html.c), so that the page calls the charts and never the other way round.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "report_svg.h"

#define ML 78.0   /* left margin */
#define MR 190.0  /* right margin: the legend */
#define MT 34.0   /* top margin: the title */
#define MB 46.0   /* bottom margin */
#define PW (REPORT_SVG_W - ML - MR)
#define PH (REPORT_SVG_H - MT - MB)

/* Write the first n bytes of s escaped (n stops at the terminating NUL). */
static void escape_n(FILE *out, const char *s, size_t n)
{
	for (; s && n > 0 && *s; s++, n--) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

void report_html_escape(FILE *out, const char *s)
{
	escape_n(out, s, (size_t)-1);
}

/* A tick step of about range / 5, rounded to 1, 2 or 5 x 10^k. */
static double nice_step(double range)
{
	double raw = range / 5, p = pow(10, floor(log10(raw))), f = raw / p;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

/* The top of an axis that holds max: the next tick at or above it (1 for an empty or zero range). */
static double nice_top(double max)
{
	double step;

	if (!(max > 0) || !isfinite(max))
		return 1;
	step = nice_step(max);
	return ceil(max / step - 1e-9) * step;
}

static void svg_open(FILE *out, const char *id, const char *title)
{
	fprintf(out, "<svg id=\"");
	report_html_escape(out, id);
	fprintf(out, "\" class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"", REPORT_SVG_W, REPORT_SVG_H, REPORT_SVG_W, REPORT_SVG_H);
	report_html_escape(out, title);
	fprintf(out, "\">\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n<text x=\"%g\" y=\"20\" "
		"font-size=\"15\" font-weight=\"bold\">", REPORT_SVG_W, REPORT_SVG_H, ML);
	report_html_escape(out, title);
	fprintf(out, "</text>\n");
}

/* Axes with ticks from 0 (x from x_lo) to the tops, and their labels. */
static void axes(FILE *out, double x_lo, double x_hi, double y_top, const char *xlabel, const char *ylabel,
		 bool x_ticks)
{
	double ys = nice_step(y_top), yfont = 12;
	char tick[64];

	/* y tick labels share the left margin with the axis title (22 units): longer ones ("2,500,000") get a
	 * smaller font so that they fit beside it, at 0.62 em per character (DejaVu Sans, the widest usual) */
	for (double v = 0; v <= y_top * (1 + 1e-9); v += ys)
		yfont = fmin(yfont, (ML - 6 - 22) / (0.62 * (double)strlen(numfmt_sig(v, 6, tick, sizeof tick))));
	fprintf(out, "<g font-size=\"12\" fill=\"#333\">\n");
	for (double v = 0; v <= y_top * (1 + 1e-9); v += ys) {
		double y = MT + PH - v / y_top * PH;
		fprintf(out, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>"
			"<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\" font-size=\"%.1f\">%s</text>\n", ML, y,
			ML + PW, y, ML - 6, y + 4, yfont, numfmt_sig(v, 6, tick, sizeof tick));  /* never "2e+07" (numfmt.h) */
	}
	if (x_ticks && x_hi > x_lo) {
		double xs = nice_step(x_hi - x_lo);
		for (double v = ceil(x_lo / xs) * xs; v <= x_hi * (1 + 1e-9); v += xs) {
			double x = ML + (v - x_lo) / (x_hi - x_lo) * PW;
			fprintf(out, "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#333\"/>"
				"<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n", x, MT + PH, x, MT + PH + 5,
				x, MT + PH + 18, numfmt_sig(v, 6, tick, sizeof tick));
		}
	}
	fprintf(out, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#333\"/>"
		"<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#333\"/>\n", ML, MT, ML, MT + PH, ML, MT + PH,
		ML + PW, MT + PH);
	fprintf(out, "<text x=\"%g\" y=\"%d\" text-anchor=\"middle\">", ML + PW / 2, REPORT_SVG_H - 8);
	report_html_escape(out, xlabel);
	fprintf(out, "</text>\n<text transform=\"translate(16 %g) rotate(-90)\" text-anchor=\"middle\">", MT + PH / 2);
	report_html_escape(out, ylabel);
	fprintf(out, "</text>\n</g>\n");
}

/*
 * A legend entry at *y (the first at LEGEND_Y0), then *y moves below it: a swatch (area: filled box; line: a
 * stroke, dashed or not; 3: a triangle) and its name, wrapped at spaces into lines of at most LEGEND_CHARS
 * characters (a longer word is cut into pieces of that length) so that it never runs off the chart's right
 * edge: the margin holds about 150 px of 12 px text.
 */
#define LEGEND_Y0 (MT + 8)
#define LEGEND_CHARS 20
static void legend(FILE *out, double *y, const char *name, const char *color, int shape)
{
	double x = REPORT_SVG_W - MR + 14;
	const char *s = name ? name : "";
	int lines = 0;

	if (shape == 0)
		fprintf(out, "<rect x=\"%g\" y=\"%g\" width=\"14\" height=\"12\" fill=\"%s\"/>", x, *y - 10, color);
	else if (shape == 3)
		fprintf(out, "<path d=\"M%g %gl7 -10l7 10z\" fill=\"%s\"/>", x, *y + 1, color);
	else if (shape == 4)  /* a cross, as the points that break the SLO */
		fprintf(out, "<path d=\"M%g %gl10 10m0 -10l-10 10\" stroke=\"%s\" stroke-width=\"2.5\"/>", x + 2, *y - 9,
			color);
	else
		fprintf(out, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" stroke-width=\"2.5\"%s/>", x,
			*y - 4, x + 16, *y - 4, color, shape == 2 ? " stroke-dasharray=\"5 3\"" : "");
	fprintf(out, "<text class=\"legend\" x=\"%g\" y=\"%g\" font-size=\"12\">", x + 22, *y);
	while (*s) {
		size_t len = strlen(s), cut = len;
		if (len > LEGEND_CHARS) {  /* the last space that keeps the line short enough, else a hard cut */
			for (cut = LEGEND_CHARS; cut > 0 && s[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = LEGEND_CHARS;
		}
		fprintf(out, "<tspan x=\"%g\" dy=\"%d\">", x + 22, lines++ ? 14 : 0);
		escape_n(out, s, cut);
		fprintf(out, "</tspan>");
		for (s += cut; *s == ' '; s++)
			;
	}
	fprintf(out, "</text>\n");
	*y += 20 + 14 * (lines > 1 ? lines - 1 : 0);
}

static void ref_line(FILE *out, double ref, double y_top, const char *name, double *ly)
{
	double y;

	if (isnan(ref))
		return;
	y = MT + PH - fmin(ref, y_top) / y_top * PH;
	fprintf(out, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#d62728\" stroke-width=\"1.5\" "
		"stroke-dasharray=\"6 4\"/>\n", ML, y, ML + PW, y);
	legend(out, ly, name, "#d62728", 2);
}

void report_svg_xy(FILE *out, const char *id, const char *title, const char *xlabel, const char *ylabel,
		   double x0, double dx, int n, const struct report_svg_series *s, int ns,
		   const struct report_svg_marker *m, int nm, double ref, const char *ref_name, double y_max)
{
	double top = 0, x_hi = x0 + dx * (n > 1 ? n - 1 : 1);
	double ly = LEGEND_Y0;

	for (int i = 0; i < n; i++) {
		double stack = 0;
		for (int k = 0; k < ns; k++) {
			double v = s[k].y[i];
			if (isnan(v))
				continue;
			if (s[k].stacked)
				stack += v;
			top = fmax(top, s[k].stacked ? stack : v);
		}
	}
	if (!isnan(ref))
		top = fmax(top, ref);
	top = isnan(y_max) ? nice_top(top * 1.05) : y_max;
	svg_open(out, id, title);
	axes(out, x0, x_hi, top, xlabel, ylabel, true);
#define XP(i) (ML + ((x0 + dx * (i)) - x0) / (x_hi - x0) * PW)
#define YP(v) (MT + PH - (v) / top * PH)
	{
		double *base = calloc(n > 0 ? (size_t)n : 1, sizeof(double));
		for (int k = 0; k < ns && base; k++) {
			if (!s[k].stacked)
				continue;
			fprintf(out, "<path fill=\"%s\" fill-opacity=\"0.85\" d=\"M", s[k].color);
			for (int i = 0; i < n; i++)
				fprintf(out, "%s%.1f %.1f", i ? "L" : "", XP(i), YP(base[i] + (isnan(s[k].y[i]) ? 0 : s[k].y[i])));
			for (int i = n - 1; i >= 0; i--)
				fprintf(out, "L%.1f %.1f", XP(i), YP(base[i]));
			fprintf(out, "Z\"/>\n");
			for (int i = 0; i < n; i++)
				base[i] += isnan(s[k].y[i]) ? 0 : s[k].y[i];
			legend(out, &ly, s[k].name, s[k].color, 0);
		}
		free(base);
	}
	for (int k = 0; k < ns; k++) {
		bool pen = false;
		if (s[k].stacked)
			continue;
		fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s d=\"", s[k].color,
			s[k].dashed ? " stroke-dasharray=\"5 3\"" : "");
		for (int i = 0; i < n; i++) {
			if (isnan(s[k].y[i])) {
				pen = false;
				continue;
			}
			fprintf(out, "%s%.1f %.1f", pen ? "L" : "M", XP(i), YP(fmin(s[k].y[i], top)));
			pen = true;
		}
		fprintf(out, "\"/>\n");
		legend(out, &ly, s[k].name, s[k].color, s[k].dashed ? 2 : 1);
	}
	for (int j = 0; j < nm; j++) {
		double x = ML + (m[j].x - x0) / (x_hi - x0) * PW;
		fprintf(out, "<path d=\"M%.1f %gl-5 %dl10 0z\" fill=\"%s\"/>\n", x, m[j].up ? MT : MT + 8,
			m[j].up ? 8 : -8, m[j].up ? "#2ca02c" : "#9467bd");
	}
	if (nm > 0) {
		legend(out, &ly, "scale-out", "#2ca02c", 3);
		legend(out, &ly, "scale-in", "#9467bd", 3);
	}
	ref_line(out, ref, top, ref_name, &ly);
#undef XP
#undef YP
	fprintf(out, "</svg>\n");
}

void report_svg_bars(FILE *out, const char *id, const char *title, const char *ylabel, const char *const *labels,
		     const double *values, int n, double ref, const char *ref_name)
{
	double top = 0, w = PW / (n > 0 ? n : 1), ly = LEGEND_Y0;

	for (int i = 0; i < n; i++)
		if (!isnan(values[i]))
			top = fmax(top, values[i]);
	if (!isnan(ref))
		top = fmax(top, ref);
	top = nice_top(top * 1.1);
	svg_open(out, id, title);
	axes(out, 0, 1, top, "", ylabel, false);
	for (int i = 0; i < n; i++) {
		double x = ML + w * i + w * 0.15, v = isnan(values[i]) ? 0 : values[i], y = MT + PH - v / top * PH;
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#1f77b4\"/>\n", x, y,
			w * 0.7, MT + PH - y);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">", x + w * 0.35, y - 4);
		if (isnan(values[i]))
			fprintf(out, "n/a");
		else
			fprintf(out, "%s", numfmt_sig(values[i], 4, (char[64]){ 0 }, 64));
		fprintf(out, "</text><text x=\"%.1f\" y=\"%g\" font-size=\"12\" text-anchor=\"middle\">", x + w * 0.35,
			MT + PH + 18);
		report_html_escape(out, labels[i]);
		fprintf(out, "</text>\n");
	}
	ref_line(out, ref, top, ref_name, &ly);
	fprintf(out, "</svg>\n");
}

/* A rectangle in chart units: a point's disc or a label's text. */
struct box {
	double x0, y0, x1, y1;
};

/* Whether b lies in the plot area and keeps 1 unit clear of every one of the n boxes. O(n) per try, O(n^2)
 * per chart: fine for the tens of points a sweep or a recommend search has. */
static bool box_free(const struct box *b, const struct box *taken, int n)
{
	if (b->x0 < ML || b->x1 > ML + PW || b->y0 < MT || b->y1 > MT + PH)
		return false;
	for (int i = 0; i < n; i++)
		if (b->x0 < taken[i].x1 + 1 && taken[i].x0 < b->x1 + 1 && b->y0 < taken[i].y1 + 1 &&
		    taken[i].y0 < b->y1 + 1)
			return false;
	return true;
}

/*
 * Place a label of w units next to the point (px, py) of radius r without touching the n boxes taken: the
 * first free spot of right and left of the point at baselines ever further up and down, then centred above
 * and below it. On success writes its box to taken[n], the text's start or end (anchor) to *tx and *ty and
 * returns the anchor ("start", "end" or "middle"); NULL when no spot is free. Text is 11 units high: 10 above
 * the baseline, 3 below (a sans-serif's ascent and descent at 11 px).
 */
static const char *place_label(double px, double py, double r, double w, struct box *taken, int n, double *tx,
			       double *ty)
{
	static const double dy[] = { 4, -4, 12, -12, 20, -20, 28, -28, 36, -36, 44, -44 };

	for (size_t k = 0; k < sizeof dy / sizeof dy[0] + 2; k++) {
		for (int side = 0; side < 2; side++) {
			double y = k < sizeof dy / sizeof dy[0] ? py + dy[k] : k % 2 ? py + r + 13 : py - r - 4;
			double x = k < sizeof dy / sizeof dy[0] ? (side ? px - r - 3 : px + r + 3) : px;
			const char *anchor = k < sizeof dy / sizeof dy[0] ? (side ? "end" : "start") : "middle";
			struct box b = { x, y - 10, x + w, y + 3 };
			if (*anchor == 'e')
				b.x0 = x - w, b.x1 = x;
			else if (*anchor == 'm')
				b.x0 = x - w / 2, b.x1 = x + w / 2;
			if (box_free(&b, taken, n)) {
				taken[n] = b, *tx = x, *ty = y;
				return anchor;
			}
		}
	}
	return NULL;
}

/* How wide a label of 11-unit text is, over-estimated (DejaVu Sans, the widest common sans, is about 0.62 em
 * per character, bold 0.68): a label that fits here fits in the browser. */
static double label_width(const char *s, bool bold)
{
	return (double)strlen(s) * (bold ? 7.6 : 7.0) + 2;
}

/*
 * The length of the prefix that every one of the n labels shares, up to and including its last ':' (a
 * sweep's points are all SWEEP:N); 0 when fewer than two labels or no such prefix.
 */
static size_t common_prefix(const char *const *labels, int n)
{
	size_t len = 0;

	if (n < 2 || !labels[0])
		return 0;
	for (size_t j = 0; labels[0][j]; j++) {
		for (int i = 1; i < n; i++)
			if (!labels[i] || labels[i][j] != labels[0][j])
				return len;
		if (labels[0][j] == ':')
			len = j + 1;
	}
	return len;
}

/*
 * The points' labels, placed greedily so that none overlaps another, a point or the plot's edge (the
 * highlighted points first): each label whole if it fits, else the point's number (#1 for the first point,
 * class "label number"), else nothing. kind[i] records which: 'w' whole, 'n' number, '-' none, 0 for a
 * point not drawn. Leaders join a label set away from its point. Without memory, no label is drawn and every
 * point is in the note.
 */
static void scatter_labels(FILE *out, const double *px, const double *py, const char *const *labels,
			   const bool *hi, int n, size_t pre, char *kind)
{
	struct box *taken = calloc(2 * (size_t)n + 1, sizeof *taken);
	int nt = 0;

	for (int i = 0; i < n; i++)
		if (kind[i] && taken)
			taken[nt++] = (struct box){ px[i] - 8, py[i] - 8, px[i] + 8, py[i] + 8 };
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			char num[16];
			const char *text = labels[i] ? labels[i] + pre : "", *anchor = NULL;
			double tx, ty;
			if (!kind[i] || hi[i] != (pass == 0))
				continue;
			snprintf(num, sizeof num, "#%d", i + 1);
			kind[i] = '-';
			if (taken && (anchor = place_label(px[i], py[i], 8, label_width(text, hi[i]), taken, nt,
							   &tx, &ty)))
				kind[i] = 'w';
			else if (taken && (anchor = place_label(px[i], py[i], 8, label_width(num, hi[i]), taken, nt,
								&tx, &ty)))
				kind[i] = 'n', text = num;
			if (!anchor)
				continue;
			nt++;
			if (ty - 10 - py[i] > 12 || py[i] - ty - 3 > 12)  /* set apart: a leader to its near edge */
				fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>",
					px[i], py[i], tx, ty > py[i] ? ty - 10 : ty + 3);
			fprintf(out, "<text class=\"label%s\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
				"text-anchor=\"%s\"%s>", kind[i] == 'n' ? " number" : "", tx, ty, anchor,
				hi[i] ? " font-weight=\"bold\"" : "");
			report_html_escape(out, text);
			fprintf(out, "</text>\n");
		}
	}
	free(taken);
}

/* Under the chart, what its labels leave out: the common prefix, and the points labelled by number or not. */
static void scatter_note(FILE *out, const double *x, const double *y, const char *const *labels, int n,
			 size_t pre, const char *kind)
{
	bool any = pre > 0;
	const char *sep = "";

	for (int i = 0; i < n; i++)
		any = any || kind[i] == 'n' || kind[i] == '-';
	if (!any)
		return;
	fprintf(out, "<p class=\"note\">In the chart above: ");
	if (pre) {
		fprintf(out, "labels leave out the prefix <code>");
		escape_n(out, labels[0], pre);
		fprintf(out, "</code>");
		sep = "; ";
	}
	for (int i = 0; i < n; i++) {
		if (kind[i] != 'n' && kind[i] != '-')
			continue;
		fprintf(out, "%s%s", sep, kind[i] == 'n' ? "" : "not labelled (no room): ");
		if (kind[i] == 'n')
			fprintf(out, "<b>#%d</b> is ", i + 1);
		report_html_escape(out, labels[i]);
		fprintf(out, " (%s, ", numfmt_sig(x[i], 6, (char[64]){ 0 }, 64));
		fprintf(out, "%s)", numfmt_sig(y[i], 6, (char[64]){ 0 }, 64));
		sep = "; ";
	}
	fprintf(out, ".</p>\n");
}

void report_svg_scatter(FILE *out, const char *id, const char *title, const char *xlabel, const char *ylabel,
			const double *x, const double *y, const char *const *labels, const bool *hi, const bool *bad,
			int n, bool line, const char *hi_name)
{
	bool any_bad = false;
	double xt = 0, yt = 0, ly = LEGEND_Y0;
	double *px = calloc(n > 0 ? 2 * (size_t)n : 1, sizeof *px), *py = px ? px + n : NULL;
	char *kind = calloc(n > 0 ? (size_t)n : 1, 1);
	size_t pre = common_prefix(labels, n);

	for (int i = 0; i < n; i++) {
		if (!isnan(x[i]))
			xt = fmax(xt, x[i]);
		if (!isnan(y[i]))
			yt = fmax(yt, y[i]);
	}
	xt = nice_top(xt * 1.05);
	yt = nice_top(yt * 1.05);
	svg_open(out, id, title);
	axes(out, 0, xt, yt, xlabel, ylabel, true);
	if (line) {
		bool pen = false;
		fprintf(out, "<path fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" d=\"");
		for (int i = 0; i < n; i++) {
			if (isnan(x[i]) || isnan(y[i]))
				continue;
			fprintf(out, "%s%.1f %.1f", pen ? "L" : "M", ML + x[i] / xt * PW, MT + PH - y[i] / yt * PH);
			pen = true;
		}
		fprintf(out, "\"/>\n");
	}
	for (int i = 0; i < n; i++) {
		double cx, cy;
		if (isnan(x[i]) || isnan(y[i]))
			continue;
		cx = ML + x[i] / xt * PW, cy = MT + PH - y[i] / yt * PH;
		if (bad && bad[i]) {  /* breaks the SLO: a red cross, never mistaken for a candidate to buy */
			fprintf(out, "<path class=\"bad\" d=\"M%.1f %.1fl10 10m0 -10l-10 10\" stroke=\"#d62728\" "
				"stroke-width=\"2.5\"/>\n", cx - 5, cy - 5);
			any_bad = true;
		} else {
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"#1f77b4\" "
				"stroke-width=\"2\"/>\n", cx, cy, hi[i] ? 7 : 5, hi[i] ? "#ff7f0e" : "#ffffff");
		}
		if (px && kind)
			px[i] = cx, py[i] = cy, kind[i] = '-';
	}
	if (px && kind)
		scatter_labels(out, px, py, labels, hi, n, pre, kind);
	legend(out, &ly, hi_name, "#ff7f0e", 0);
	legend(out, &ly, "other points", "#1f77b4", 1);
	if (any_bad)
		legend(out, &ly, "breaks the SLO", "#d62728", 4);
	fprintf(out, "</svg>\n");
	if (kind)
		scatter_note(out, x, y, labels, n, pre, kind);
	free(px);
	free(kind);
}
