/*
 * report_svg: SVG charts (report_svg.h). Layout: a plot area inset by fixed margins (left for the y ticks and
 * label, bottom for the x ticks and label, top for the title, right for the legend); ticks at "nice" steps
 * (1, 2 or 5 times a power of ten), about five per axis. The HTML escape is here, beneath the page that
 * uses it too (report_html.c), so that the page calls the charts and never the other way round.
 */
#include <math.h>
#include <stdlib.h>

#include "numfmt.h"
#include "report_svg.h"

#define ML 78.0   /* left margin */
#define MR 190.0  /* right margin: the legend */
#define MT 34.0   /* top margin: the title */
#define MB 46.0   /* bottom margin */
#define PW (REPORT_SVG_W - ML - MR)
#define PH (REPORT_SVG_H - MT - MB)

void report_html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
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
	double ys = nice_step(y_top);

	char tick[64];

	fprintf(out, "<g font-size=\"12\" fill=\"#333\">\n");
	for (double v = 0; v <= y_top * (1 + 1e-9); v += ys) {
		double y = MT + PH - v / y_top * PH;
		fprintf(out, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>"
			"<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", ML, y, ML + PW, y, ML - 6, y + 4,
			numfmt_sig(v, 6, tick, sizeof tick));  /* never "2e+07" (numfmt.h) */
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

/* Legend entry i: a swatch (area: filled box; line: a stroke, dashed or not) and its name. */
static void legend(FILE *out, int i, const char *name, const char *color, int shape)
{
	double x = REPORT_SVG_W - MR + 14, y = MT + 8 + 20 * i;

	if (shape == 0)
		fprintf(out, "<rect x=\"%g\" y=\"%g\" width=\"14\" height=\"12\" fill=\"%s\"/>", x, y - 10, color);
	else if (shape == 3)
		fprintf(out, "<path d=\"M%g %gl7 -10l7 10z\" fill=\"%s\"/>", x, y + 1, color);
	else
		fprintf(out, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" stroke-width=\"2.5\"%s/>", x,
			y - 4, x + 16, y - 4, color, shape == 2 ? " stroke-dasharray=\"5 3\"" : "");
	fprintf(out, "<text x=\"%g\" y=\"%g\" font-size=\"12\">", x + 22, y);
	report_html_escape(out, name);
	fprintf(out, "</text>\n");
}

static void ref_line(FILE *out, double ref, double y_top, const char *name, int li)
{
	double y;

	if (isnan(ref))
		return;
	y = MT + PH - fmin(ref, y_top) / y_top * PH;
	fprintf(out, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#d62728\" stroke-width=\"1.5\" "
		"stroke-dasharray=\"6 4\"/>\n", ML, y, ML + PW, y);
	legend(out, li, name, "#d62728", 2);
}

void report_svg_xy(FILE *out, const char *id, const char *title, const char *xlabel, const char *ylabel,
		   double x0, double dx, int n, const struct report_svg_series *s, int ns,
		   const struct report_svg_marker *m, int nm, double ref, const char *ref_name, double y_max)
{
	double top = 0, x_hi = x0 + dx * (n > 1 ? n - 1 : 1);
	int li = 0;

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
			legend(out, li++, s[k].name, s[k].color, 0);
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
		legend(out, li++, s[k].name, s[k].color, s[k].dashed ? 2 : 1);
	}
	for (int j = 0; j < nm; j++) {
		double x = ML + (m[j].x - x0) / (x_hi - x0) * PW;
		fprintf(out, "<path d=\"M%.1f %gl-5 %dl10 0z\" fill=\"%s\"/>\n", x, m[j].up ? MT : MT + 8,
			m[j].up ? 8 : -8, m[j].up ? "#2ca02c" : "#9467bd");
	}
	if (nm > 0) {
		legend(out, li++, "scale-out", "#2ca02c", 3);
		legend(out, li++, "scale-in", "#9467bd", 3);
	}
	ref_line(out, ref, top, ref_name, li);
#undef XP
#undef YP
	fprintf(out, "</svg>\n");
}

void report_svg_bars(FILE *out, const char *id, const char *title, const char *ylabel, const char *const *labels,
		     const double *values, int n, double ref, const char *ref_name)
{
	double top = 0, w = PW / (n > 0 ? n : 1);

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
	ref_line(out, ref, top, ref_name, 0);
	fprintf(out, "</svg>\n");
}

void report_svg_scatter(FILE *out, const char *id, const char *title, const char *xlabel, const char *ylabel,
			const double *x, const double *y, const char *const *labels, const bool *hi, int n,
			bool line, const char *hi_name)
{
	double xt = 0, yt = 0;

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
		double px, py;
		if (isnan(x[i]) || isnan(y[i]))
			continue;
		px = ML + x[i] / xt * PW, py = MT + PH - y[i] / yt * PH;
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"#1f77b4\" stroke-width=\"2\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\"%s>", px, py, hi[i] ? 7 : 5, hi[i] ? "#ff7f0e" : "#ffffff",
			px + 7, py - 6, hi[i] ? " font-weight=\"bold\"" : "");
		report_html_escape(out, labels[i]);
		fprintf(out, "</text>\n");
	}
	legend(out, 0, hi_name, "#ff7f0e", 0);
	legend(out, 1, "other points", "#1f77b4", 1);
	fprintf(out, "</svg>\n");
}
