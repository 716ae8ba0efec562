/*
 * report_svg: the charts of `gpucap report`, written as inline SVG (no script, no external reference). Every
 * chart is REPORT_SVG_W x REPORT_SVG_H user units, with a title, labelled axes (units in the labels), tick
 * values, a legend and an id on the <svg> element (so a test can find each chart). Values that are NaN are
 * left out (a line breaks there). The page scales a chart to its column (the viewBox); a legend name too long
 * for the right margin wraps onto more lines, and long y tick values get a smaller font beside the axis
 * title. Every text is escaped (report_html_escape). Drawing only: the numbers come from report.h. Each function writes to out and never fails (the caller checks the stream).
 */
#ifndef GPUCAP_REPORT_SVG_H
#define GPUCAP_REPORT_SVG_H

#include <stdbool.h>
#include <stdio.h>

#define REPORT_SVG_W 960
#define REPORT_SVG_H 320

/*
 * Write s to out with &, <, >, " and ' escaped as HTML entities; NULL writes nothing. Used for every text of
 * the charts and of the page (report_html.c), and defined here, in the lower of the two files.
 */
void report_html_escape(FILE *out, const char *s);

struct report_svg_series {
	const char *name;    /* legend text (borrowed) */
	const double *y;     /* [n] values (borrowed) */
	const char *color;   /* a CSS colour, e.g. "#1f77b4" */
	bool stacked;        /* drawn as a stacked area (on the previous stacked series), else as a line */
	bool dashed;         /* for a line */
};

struct report_svg_marker {
	double x;            /* where, in x units */
	bool up;             /* a scale-out (up triangle) or a scale-in (down) */
};

/*
 * An x-y chart of n values per series at x = x0 + i dx: stacked areas first, then lines; markers as small
 * triangles at the top edge with a legend entry; ref (NaN: none) a dashed horizontal line labelled ref_name.
 * y_max (NaN: from the data) fixes the top of the y axis.
 */
void report_svg_xy(FILE *out, const char *id, const char *title, const char *xlabel, const char *ylabel,
		   double x0, double dx, int n, const struct report_svg_series *s, int ns,
		   const struct report_svg_marker *m, int nm, double ref, const char *ref_name, double y_max);

/* Vertical bars: one per label, with its value written above it; ref as in report_svg_xy. */
void report_svg_bars(FILE *out, const char *id, const char *title, const char *ylabel, const char *const *labels,
		     const double *values, int n, double ref, const char *ref_name);

/*
 * Points (x[i], y[i]) labelled labels[i]; hi[i] draws the point filled and its label in bold (the Pareto
 * front, the recommendation); line joins the points in the order given. Labels (<text class="label">) never
 * overlap one another, a point or the plot's edge: each is placed at the first free spot around its point
 * (highlighted points first); one that fits nowhere is drawn as the point's number #i+1 (class "label
 * number"), or not at all. A prefix "NAME:" shared by every label (a sweep's point ids) is left out of the
 * chart. Then, after the </svg>, a <p class="note"> says what the chart leaves out: that prefix, and each
 * numbered or unlabelled point by its whole label and coordinates, so that no point goes unnamed.
 * bad (NULL: none) marks the points that break the SLO: a red cross instead of a circle, and a legend entry.
 */
void report_svg_scatter(FILE *out, const char *id, const char *title, const char *xlabel, const char *ylabel,
			const double *x, const double *y, const char *const *labels, const bool *hi, const bool *bad,
			int n, bool line, const char *hi_name);

#endif
