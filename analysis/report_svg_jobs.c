/*
 * report_svg_jobs: the job timeline (report_jobs.h): one row per job over the run's hours: the submit (a grey
 * dot), the spans it ran (blue bars, from each start or resume to the next interruption, end or termination,
 * or the horizon), checkpoints (green ticks), interruptions (red crosses), the end (a black bar), a
 * termination (a black cross), the switch to on-demand (an orange diamond) and the deadline (a red dashed
 * tick; the job's name red when it missed it). Drawing only.
 */
#include <math.h>
#include <stdio.h>

#include "numfmt.h"
#include "report.h"
#include "report_svg.h"

#define JW 960.0   /* viewBox width, as the other charts */
#define JL 170.0   /* the names' column */
#define JR 30.0
#define JT 34.0
#define JROW 18.0
#define JB 64.0    /* the time axis and the legend */

static double xpos(double t_s, double horizon_s)
{
	double f = horizon_s > 0 ? t_s / horizon_s : 0;

	return JL + (f < 0 ? 0 : f > 1 ? 1 : f) * (JW - JL - JR);
}

/* The spans the job ran: from each 's' to the next 'i', 'e' or 'x' (or the horizon). */
static void spans(FILE *out, const struct report_job *j, double y, double horizon_s)
{
	double from = NAN;

	for (int k = 0; k <= j->nmarks; k++) {
		char m = k < j->nmarks ? j->marks[k].kind : 0;
		double t = k < j->nmarks ? j->marks[k].t_s : horizon_s;
		if (m == 's' && isnan(from)) {
			from = t;
		} else if ((m == 'i' || m == 'e' || m == 'x' || m == 0) && !isnan(from)) {
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"10\" fill=\"#1f77b4\"/>", xpos(from,
				horizon_s), y - 5, fmax(1.5, xpos(t, horizon_s) - xpos(from, horizon_s)));
			from = NAN;
		}
	}
}

static void marks(FILE *out, const struct report_job *j, double y, double horizon_s)
{
	for (int k = 0; k < j->nmarks; k++) {
		double x = xpos(j->marks[k].t_s, horizon_s);
		switch (j->marks[k].kind) {
		case 'c':
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2ca02c\" "
				"stroke-width=\"2\"/>", x, y - 7, x, y + 7);
			break;
		case 'i':
		case 'x':
			fprintf(out, "<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"%s\" stroke-width=\"2\"/>", x - 4, y - 4,
				j->marks[k].kind == 'i' ? "#d62728" : "#000");
			break;
		case 'e':
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"14\" fill=\"#000\"/>", x - 1.5, y - 7);
			break;
		case 'w':
			fprintf(out, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"#ff7f0e\"/>", x, y - 5);
			break;
		default:
			break;
		}
	}
}

static void legend(FILE *out, double y)
{
	static const char *const names[] = { "submitted", "running", "checkpoint", "interrupted", "ended",
					     "deadline" };
	double x = JL;

	fprintf(out, "<g font-size=\"12\">");
	for (int i = 0; i < 6; i++, x += 120) {
		if (i == 0)
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#888\"/>", x + 6, y - 4);
		else if (i == 1)
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#1f77b4\"/>", x, y - 9);
		else if (i == 2)
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2ca02c\" "
				"stroke-width=\"2\"/>", x + 6, y - 11, x + 6, y + 2);
		else if (i == 3)
			fprintf(out, "<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#d62728\" stroke-width=\"2\"/>", x + 2,
				y - 9);
		else if (i == 4)
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"13\" fill=\"#000\"/>", x + 5, y - 11);
		else
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
				"stroke-width=\"2\" stroke-dasharray=\"3 2\"/>", x + 6, y - 11, x + 6, y + 2);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", x + 20, y, names[i]);
	}
	fprintf(out, "</g>\n");
}

void report_svg_jobs(FILE *out, const char *id, const struct report_job *jobs, int n, double horizon_s)
{
	double h = JT + JROW * (n > 0 ? n : 1) + JB, step = 0, hours = horizon_s / 3600;
	char tick[64];

	fprintf(out, "<svg id=\"");
	report_html_escape(out, id);
	fprintf(out, "\" class=\"chart\" viewBox=\"0 0 %g %.0f\" width=\"%g\" height=\"%.0f\" role=\"img\" "
		"aria-label=\"Job timeline\">\n<rect width=\"%g\" height=\"%.0f\" fill=\"#ffffff\"/>\n<text x=\"%g\" "
		"y=\"20\" font-size=\"15\" font-weight=\"bold\">Job timeline (hours from the start)</text>\n", JW, h, JW, h,
		JW, h, JL);
	for (int i = 0; i < n; i++) {
		const struct report_job *j = &jobs[i];
		double y = JT + JROW * (i + 0.5);
		fprintf(out, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#eee\"/>", JL, y, JW - JR, y);
		fprintf(out, "<text x=\"%g\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\"%s>", JL - 8, y + 4,
			j->missed ? " fill=\"#d62728\"" : "");
		report_html_escape(out, j->name);
		fprintf(out, "</text>");
		if (!isnan(j->submit_s))
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#888\"/>", xpos(j->submit_s, horizon_s), y);
		spans(out, j, y, horizon_s);
		marks(out, j, y, horizon_s);
		if (!isnan(j->deadline_s) && j->deadline_s <= horizon_s)
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
				"stroke-width=\"2\" stroke-dasharray=\"3 2\"/>", xpos(j->deadline_s, horizon_s), y - 8,
				xpos(j->deadline_s, horizon_s), y + 8);
		fprintf(out, "\n");
	}
	if (hours > 0) {  /* ticks at a round number of hours */
		static const double steps[] = { 0.25, 0.5, 1, 2, 3, 6, 12, 24, 48, 168, 336, 720, 1440, 2160, 4380, 8760 };
		for (size_t k = 0; k < sizeof steps / sizeof steps[0] && !step; k++)
			if (hours / steps[k] <= 12)
				step = steps[k];
		if (!step)
			step = ceil(hours / 12);
		fprintf(out, "<g font-size=\"12\" fill=\"#333\">");
		for (double v = 0; v <= hours * (1 + 1e-9); v += step)
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/><text x=\"%.1f\" "
				"y=\"%.1f\" text-anchor=\"middle\">%s</text>", xpos(v * 3600, horizon_s), h - JB, xpos(v * 3600,
				horizon_s), h - JB + 5, xpos(v * 3600, horizon_s), h - JB + 18, numfmt_sig(v, 6, tick, sizeof tick));
		fprintf(out, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#333\"/></g>\n", JL, h - JB, JW - JR,
			h - JB);
	}
	legend(out, h - 12);
	fprintf(out, "</svg>\n");
}
