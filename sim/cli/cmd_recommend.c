/*
 * cmd_recommend: `gpucap recommend SCENARIO [--vary KEY=LO..HI[:STEP]]... [--max-violation-rate R | --slo-met]
 * [--replications N] [--growth LOW,BASE,HIGH] [--set KEY.PATH=VALUE]... [--jobs N] [--db FILE] [--json]`:
 * the options, then the report of analysis/recommend.h as text or JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "diag.h"
#include "recommend.h"
#include "status.h"

#define CURVE_SHOWN 9  /* rows of the cost curve around the choice */
#define EXIT_SLO_UNREACHABLE 3  /* no candidate keeps the SLO, and no capacity can */
#define EXIT_FLEET_AT_MAX 4     /* no candidate keeps the SLO, and each sat at the fleet's maximum */


static const char recommend_usage[] =
	"usage: gpucap recommend SCENARIO [--vary KEY=LO..HI[:STEP]]... [--max-violation-rate R | --slo-met]\n"
	"                        [--replications N] [--growth LOW,BASE,HIGH [--choose base|expected|regret]]\n"
	"                        [--term window|fluid|windows[:N]] [--set KEY.PATH=VALUE]... [--jobs N]\n"
	"                        [--db FILE] [--json]\n"
	"\n"
	"Choose the commitments with the lowest expected cost over their term that keep the SLO: the counts of\n"
	"the regional reserved instances (commitments.I.count: they change only the bill, so every level is\n"
	"re-billed from the runs' hourly usage, not simulated), of the zonal reserved, odcr or capacity_block\n"
	"entries (fleet.I.count: capacity, each level simulated), the max of on_demand or spot entries, and the\n"
	"Savings Plan $/h of the scenario's savings_plan commitment (computed from each candidate's hourly usage).\n"
	"\n"
	"  --vary commitments.I.count=LO..HI[:STEP]  levels of a regional reserved commitment's count (re-billed)\n"
	"  --vary fleet.I.count=LO..HI[:STEP]  levels of fleet entry I's count (repeatable, at most 4 --vary, each\n"
	"                                      entry once however I is written)\n"
	"  --vary fleet.I.max=LO..HI[:STEP]    levels of an on_demand or spot entry's max (a stated\n"
	"                                      autoscaling.max above what a level holds is lowered to it)\n"
	"  --max-violation-rate R   keep the mean slo_violation_rate over replications <= R (0 to 1)\n"
	"  --slo-met                keep slo_met in every replication (the default; needs an SLO verdict)\n"
	"  --replications N         runs per candidate, seeds seed .. seed + N - 1, the same for all (default 3)\n"
	"  --growth LOW,BASE,HIGH   traffic multiples of scale_rate: every candidate priced at LOW, BASE and HIGH,\n"
	"                           with the regret table (each case's cost of a plan less that case's best)\n"
	"  --choose RULE            with --growth: base (the cheapest at BASE, the default), expected (the least\n"
	"                           mean cost over the cases) or regret (the least worst regret)\n"
	"  --term METHOD            how the cost over the commitment's term is found: window (the scenario's\n"
	"                           window, its cost per hour taken for the whole term), fluid (one fluid-mode\n"
	"                           run over the term, following its growth; 1-year terms) or windows[:N] (N\n"
	"                           request-level runs of the window at dates spread over the term, default 4).\n"
	"                           Default: windows when the scenario's traffic grows (growth_per_day), else\n"
	"                           window. With fluid or windows the choice is checked by the other method, and\n"
	"                           a ladder (part of an RI bought later in the term) is priced\n"
	"  --set KEY.PATH=VALUE     override a scalar of the scenario before the search, as gpucap run --set\n"
	"                           (repeatable); on a key the search sets (a varied one, seed, scale_rate) it\n"
	"                           is the starting value\n"
	"  --jobs N                 worker processes that run the simulations (default 1); the results, the\n"
	"                           output and what --db stores do not depend on N\n"
	"  --db FILE                store every run in FILE, labelled recommend=...\n"
	"  --json                   print {\"best\": {...}, \"candidates\": [...], \"runs\": N, \"invalid\": N, ...}\n"
	"  -h, --help               this help\n"
	"\n"
	"A level that makes the scenario invalid (the loader refuses it) is reported with the loader's message,\n"
	"counted infeasible (\"invalid\" in --json) and the other candidates are still searched.\n"
	"\n"
	"When no candidate keeps the SLO the output says why: slo_unreachable (service time alone breaks it, so no\n"
	"capacity can keep it), fleet_at_max (every candidate's runs sat at the fleet's maximum while requests\n"
	"waited: raise autoscaling.max or an entry's max), or none_in_range (widen --vary or relax the constraint).\n"
	"\n"
	"Exit codes: 0 a choice was found, 1 no candidate keeps the SLO within the levels searched (or another\n"
	"failure), 2 bad input (also when no --vary level makes a valid scenario), 3 slo_unreachable, 4\n"
	"fleet_at_max.\n";

struct args {
	struct recommend_opts o;
	const char *sets[RECOMMEND_SETS_MAX];
	bool json;
};

static int parse_number(const char *text, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	return errno || end == text || *end || !isfinite(*out) ? -1 : 0;
}

static int parse_growth(const char *text, double g[3])
{
	const char *p = text;

	for (int i = 0; i < 3; i++) {
		char tok[64];
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= sizeof tok)
			return -1;
		memcpy(tok, p, len);
		tok[len] = 0;
		if (parse_number(tok, &g[i]) || !(g[i] > 0))
			return -1;
		p += len;
		if (i < 2 && *p++ != ',')
			return -1;
	}
	return *p ? -1 : (g[0] <= g[1] && g[1] <= g[2] ? 0 : -1);
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "vary", required_argument, NULL, 'v' },  { "max-violation-rate", required_argument, NULL, 'r' },
		{ "slo-met", no_argument, NULL, 'm' },      { "replications", required_argument, NULL, 'n' },
		{ "growth", required_argument, NULL, 'g' }, { "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },         { "help", no_argument, NULL, 'h' },
		{ "set", required_argument, NULL, 'S' },    { "jobs", required_argument, NULL, 'J' },
		{ "term", required_argument, NULL, 'T' },   { "choose", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	struct diag d;
	double v;
	int c;

	memset(a, 0, sizeof *a);
	diag_clear(&d);
	a->o.replications = 3;
	a->o.jobs = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			if (a->o.nvary == RECOMMEND_VARY_MAX) {
				fprintf(stderr, "gpucap recommend: at most %d --vary options\n", RECOMMEND_VARY_MAX);
				return -1;
			}
			if (recommend_parse_vary(optarg, &a->o.vary[a->o.nvary++], &d)) {
				fprintf(stderr, "gpucap recommend: %s\n", d.msg);
				return -1;
			}
			break;
		case 'r':
			if (parse_number(optarg, &v) || v < 0 || v > 1 || a->o.slo == RECOMMEND_SLO_MET) {
				fprintf(stderr, "gpucap recommend: --max-violation-rate '%s': expected a number from 0 to 1, "
					"without --slo-met\n", optarg);
				return -1;
			}
			a->o.slo = RECOMMEND_SLO_RATE;
			a->o.max_violation_rate = v;
			break;
		case 'm':
			if (a->o.slo == RECOMMEND_SLO_RATE) {
				fprintf(stderr, "gpucap recommend: --slo-met and --max-violation-rate exclude each other\n");
				return -1;
			}
			a->o.slo = RECOMMEND_SLO_MET;
			break;
		case 'n':
			if (parse_number(optarg, &v) || v != floor(v) || v < 1 || v > RECOMMEND_REPS_MAX) {
				fprintf(stderr, "gpucap recommend: --replications '%s': expected an integer from 1 to %d\n",
					optarg, RECOMMEND_REPS_MAX);
				return -1;
			}
			a->o.replications = (int)v;
			break;
		case 'g':
			if (parse_growth(optarg, a->o.growth)) {
				fprintf(stderr, "gpucap recommend: --growth '%s': expected LOW,BASE,HIGH, three numbers > 0 "
					"with LOW <= BASE <= HIGH\n", optarg);
				return -1;
			}
			a->o.growth_given = true;
			break;
		case 'S':
			if (a->o.nsets == RECOMMEND_SETS_MAX) {
				fprintf(stderr, "gpucap recommend: at most %d --set options\n", RECOMMEND_SETS_MAX);
				return -1;
			}
			a->sets[a->o.nsets++] = optarg;
			break;
		case 'J':
			if (parse_number(optarg, &v) || v != floor(v) || v < 1 || v > RECOMMEND_JOBS_MAX) {
				fprintf(stderr, "gpucap recommend: --jobs '%s': expected an integer from 1 to %d\n", optarg,
					RECOMMEND_JOBS_MAX);
				return -1;
			}
			a->o.jobs = (int)v;
			break;
		case 'T': {
			int n = 0, w = 0;
			if (strcmp(optarg, "window") == 0) {
				a->o.term = RECOMMEND_TERM_WINDOW;
			} else if (strcmp(optarg, "fluid") == 0) {
				a->o.term = RECOMMEND_TERM_FLUID;
			} else if (strcmp(optarg, "windows") == 0 ||
				   (sscanf(optarg, "windows:%d%n", &w, &n) == 1 && !optarg[n] && w >= 2 && w <= 52)) {
				a->o.term = RECOMMEND_TERM_WINDOWS;
				a->o.term_windows = w;
			} else {
				fprintf(stderr, "gpucap recommend: --term '%s': expected window, fluid or windows[:N] with N "
					"from 2 to 52\n", optarg);
				return -1;
			}
			break;
		}
		case 'C':
			for (c = 0; c < 3 && strcmp(optarg, recommend_choose_name[c]) != 0; c++)
				;
			if (c == 3) {
				fprintf(stderr, "gpucap recommend: --choose '%s': expected base, expected or regret\n", optarg);
				return -1;
			}
			a->o.choose = (enum recommend_choose)c;
			break;
		case 'd': a->o.db = optarg; break;
		case 'j': a->json = true; break;
		case 'h':
			fputs(recommend_usage, stdout);
			return 1;
		case ':':
			fprintf(stderr, "gpucap recommend: option '%s' needs a value (see gpucap recommend --help)\n",
				argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "gpucap recommend: unknown option '%s' (see gpucap recommend --help)\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "gpucap recommend: expected a scenario file (see gpucap recommend --help)\n");
		return -1;
	}
	a->o.scenario = argv[optind++];
	a->o.sets = a->sets;
	if (optind < argc) {
		fprintf(stderr, "gpucap recommend: one scenario at a time; unexpected '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

/* The cost curve: up to CURVE_SHOWN evaluated candidates around the choice, in grid order. */
static void print_curve(const struct recommend_opts *o, const struct recommend_search *s)
{
	int from = s->best - CURVE_SHOWN / 2, to, width = 40;

	if (from < 0 || s->best < 0)
		from = 0;
	to = from + CURVE_SHOWN < s->ncands ? from + CURVE_SHOWN : s->ncands;
	if (to - from < CURVE_SHOWN)
		from = to - CURVE_SHOWN > 0 ? to - CURVE_SHOWN : 0;
	for (int i = from; i < to; i++) {  /* the candidates' column: 40 wide, or as the longest */
		char what[256];
		recommend_describe(o, &s->cands[i], what, sizeof what);
		if ((int)strlen(what) > width)
			width = (int)strlen(what);
	}
	printf("\ncost curve (term cost: mean and p90 over replications; * = the choice; %d of %d candidates)\n",
	       to - from, s->ncands);
	printf("   %-*s %14s %14s %10s %10s  %s\n", width, "candidate", "term cost", "p90", "viol mean",
	       "viol worst", "SLO");
	for (int i = from; i < to; i++) {
		const struct recommend_candidate *c = &s->cands[i];
		char what[256];
		recommend_describe(o, c, what, sizeof what);
		if (c->invalid) {
			printf("   %-*s invalid: %s\n", width, what, c->why);
			continue;
		}
		printf(" %c %-*s %14.2f %14.2f %9.3f%% %9.3f%%  %s\n", i == s->best ? '*' : ' ', width, what,
		       c->cost_term_usd, c->cost_term_p90_usd, 100 * c->violation_mean, 100 * c->violation_worst,
		       c->feasible ? "kept" : "broken");
	}
}

static void print_growth(const struct recommend_opts *o, const char *name, const struct recommend_search *s)
{
	char what[256];

	if (s->best < 0) {
		printf("  %-12s scale_rate %.4g: no candidate keeps the SLO (%s)\n", name, s->scale_rate,
		       recommend_none_name[s->none]);
		return;
	}
	recommend_describe(o, &s->cands[s->best], what, sizeof what);
	printf("  %-12s scale_rate %.4g: %s, $%.2f over the term\n", name, s->scale_rate, what,
	       s->cands[s->best].cost_term_usd);
}

/* The candidates whose scenario does not load, each with its levels and the loader's message. */
static void print_invalid(const struct recommend_opts *o, const struct recommend_search *s)
{
	char what[256];

	if (s->invalid)
		printf("  invalid      %d of %d candidates are not valid scenarios (not run, counted infeasible):\n",
		       s->invalid, s->ncands);
	for (int i = 0; i < s->ncands; i++) {
		if (!s->cands[i].invalid)
			continue;
		recommend_describe(o, &s->cands[i], what, sizeof what);
		printf("               %s: %s\n", what, s->cands[i].why);
	}
}

/* The term method, where the cost over the term comes from. */
static void print_method(const struct recommend_result *r)
{
	switch (r->term) {
	case RECOMMEND_TERM_AUTO:  /* resolved by recommend_run */
	case RECOMMEND_TERM_WINDOW:
		printf("  term method  window: the simulated window's cost per hour taken for all %.0f hours (growth "
		       "within the term is not followed: --term fluid or windows)\n", r->term_h);
		break;
	case RECOMMEND_TERM_FLUID:
		printf("  term method  fluid: one fluid-mode run over the %.0f-day term, following the scenario's growth "
		       "and pattern (queueing modelled per period)\n", r->term_h / 24);
		break;
	case RECOMMEND_TERM_WINDOWS:
		printf("  term method  windows: %d request-level runs of the window at days spread over the term, each "
		       "standing for its %.0f days%s\n", r->term_windows, r->term_h / 24 / r->term_windows,
		       r->term_auto ? " (the default, as the traffic grows; --term window extrapolates one window)" : "");
		break;
	}
}

/* The check: the choice simulated with its commitments set (and, with a term method that follows the term,
 * by the other method: the difference is the methods'). */
static void print_check(const struct recommend_result *r, const struct recommend_candidate *b)
{
	if (r->term == RECOMMEND_TERM_WINDOW) {
		if (r->checked)
			printf("  checked      simulated with its commitments set: window $%.2f (re-billed $%.2f)\n",
			       r->check.cost_window_usd, b->cost_window_usd);
		return;
	}
	if (!r->checked) {
		printf("  checked      not by the other method: %s\n", r->check_why);
		return;
	}
	if (r->check_term == RECOMMEND_TERM_WINDOWS && r->check_why[0])
		printf("  checked      again by request windows, simulated with its commitments set (%s): $%.2f over "
		       "the term (re-billed $%.2f)\n", r->check_why, r->check.cost_term_usd, b->cost_term_usd);
	else
		printf("  checked      by %s, simulated with its commitments set: $%.2f over the term, %+.2f%% from "
		       "the %s figure (the methods' difference)\n", recommend_term_name[r->check_term], r->check.cost_term_usd,
		       100 * (r->check.cost_term_usd / b->cost_term_usd - 1), recommend_term_name[r->term]);
}

/* "2027-06-01" for hours from the term's start. */
static void date_of(const struct recommend_result *r, double at_h, char *buf, size_t size)
{
	time_t t = (time_t)(r->start_unix_s + at_h * 3600);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}

static void print_ladder(const struct recommend_opts *o, const struct recommend_result *r)
{
	const struct recommend_ladder *L = &r->ladder;
	const struct recommend_candidate *b = &r->base.cands[r->base.best];
	char date[32];

	if (!L->tried)
		return;
	if (!L->better) {
		printf("  ladder       buying %s=%d at the start is cheapest: no later purchase in a later quarter "
		       "costs less over the term\n", o->vary[L->vary].key, b->counts[L->vary]);
		return;
	}
	date_of(r, L->at_h, date, sizeof date);
	printf("  ladder       %s: %d at the start and %d more from %s (term_start), ", o->vary[L->vary].key, L->now,
	       L->later, date);
	if (!isnan(L->sp_usd_per_h))
		printf("%s, ", L->sp_usd_per_h > 0 ? "with the Savings Plan re-optimised" : "no Savings Plan");
	printf("$%.2f over the term, $%.2f less than buying %d at the start; the later ones still cost $%.2f "
	       "after the term\n", L->cost_term_usd, b->cost_term_usd - L->cost_term_usd, b->counts[L->vary],
	       L->owed_usd);
}

/* The regret table: the candidates that are some case's best, and the choice, priced in every case. */
static void print_regret(const struct recommend_opts *o, const struct recommend_result *r)
{
	const struct recommend_search *cs[3] = { &r->low, &r->base, &r->high };
	static const char *const cname[3] = { "low", "base", "high" };
	int rows[4], nrows = 0, width = 20;

	if (!r->regret)
		return;
	for (int c = -1; c < 3; c++) {
		int i = c < 0 ? r->base.best : r->case_best[c];
		bool seen = i < 0;
		for (int k = 0; k < nrows && !seen; k++)
			seen = rows[k] == i;
		if (!seen)
			rows[nrows++] = i;
	}
	for (int k = 0; k < nrows; k++) {
		char what[256];
		recommend_describe(o, &r->base.cands[rows[k]], what, sizeof what);
		if ((int)strlen(what) > width)
			width = (int)strlen(what);
	}
	printf("\nregret (each plan, its Savings Plan held, over the term in each traffic case, and above that case's "
	       "best; * = the choice, --choose %s)\n   %-*s", recommend_choose_name[r->choose], width, "plan");
	for (int c = 0; c < 3; c++) {
		char head[64];
		snprintf(head, sizeof head, "%s x%.4g", cname[c], cs[c]->scale_rate / (r->base.scale_rate /
			 o->growth[1]));
		printf(" %27s", head);
	}
	printf(" %14s\n", "worst regret");
	for (int k = 0; k < nrows; k++) {
		double regret[3], worst = recommend_regret(r, rows[k], regret);
		char what[256];
		recommend_describe(o, &r->base.cands[rows[k]], what, sizeof what);
		printf(" %c %-*s", rows[k] == r->base.best ? '*' : ' ', width, what);
		for (int c = 0; c < 3; c++) {
			char cell[64];
			if (isnan(regret[c]))
				snprintf(cell, sizeof cell, "%.2f (no plan keeps it)", r->case_cost[c][rows[k]]);
			else if (isinf(regret[c]))
				snprintf(cell, sizeof cell, "SLO broken");
			else
				snprintf(cell, sizeof cell, "%.2f (+%.2f)", r->case_cost[c][rows[k]], regret[c]);
			printf(" %27s", cell);
		}
		if (isinf(worst))
			printf(" %14s\n", "SLO broken");
		else
			printf(" %14.2f\n", worst);
	}
	for (int c = 0; c < 3; c++)
		if (r->case_best[c] < 0)
			printf("   (no candidate keeps the SLO at %s: that case is left out of the regret)\n", cname[c]);
}

static void print_text(const struct recommend_opts *o, const struct recommend_result *r)
{
	const struct recommend_search *s = &r->base;
	const struct recommend_candidate *b = s->best >= 0 ? &s->cands[s->best] : NULL;
	char what[256];

	printf("gpucap recommend: %s, %d replication%s per candidate (the same seeds for all), term %.0f h\n",
	       o->scenario, o->replications, o->replications == 1 ? "" : "s", r->term_h);
	print_method(r);
	if (o->slo == RECOMMEND_SLO_RATE)
		printf("  constraint   mean SLO violation rate <= %.4g%%\n", 100 * o->max_violation_rate);
	else
		printf("  constraint   slo_met in every replication\n");
	if (!b) {
		printf("  choice       none: no candidate keeps the SLO (%s)\n", recommend_none_name[s->none]);
		if (s->none_why[0])
			printf("  why          %s\n", s->none_why);
	} else {
		double save_h = r->od.cost_per_hour_usd - b->cost_per_hour_usd;
		recommend_describe(o, b, what, sizeof what);
		printf("  choice       %s\n", what);
		if (r->term == RECOMMEND_TERM_WINDOW)
			printf("  cost         $%.2f over the term ($%.2f/h, $%.2f per 30-day month; window $%.2f)\n",
			       b->cost_term_usd, b->cost_per_hour_usd, b->cost_per_hour_usd * 720, b->cost_window_usd);
		else
			printf("  cost         $%.2f over the term ($%.2f/h, $%.2f per 30-day month on average)\n",
			       b->cost_term_usd, b->cost_per_hour_usd, b->cost_per_hour_usd * 720);
		if (r->od_ok) {
			recommend_describe(o, &r->od, what, sizeof what);
			printf("  on-demand    only (%s): $%.2f over the term ($%.2f/h); SLO violations %.3f%%, %s\n",
			       what, r->od.cost_term_usd, r->od.cost_per_hour_usd, 100 * r->od.violation_mean,
			       r->od.feasible ? "kept" : "broken");
			printf("  savings      $%.2f per month, $%.2f over the term (%.1f%% of on-demand only)\n",
			       save_h * 720, save_h * r->term_h,
			       r->od.cost_per_hour_usd > 0 ? 100 * save_h / r->od.cost_per_hour_usd : 0);
		} else {
			printf("  on-demand    only: not a valid scenario (%s)\n", r->od_why);
		}
		printf("  risk         term cost p90 $%.2f (sd $%.2f); worst violation rate %.3f%%\n",
		       b->cost_term_p90_usd, b->cost_term_sd_usd, 100 * b->violation_worst);
		if (!isnan(b->sp_utilization))
			printf("  plan use     %.1f%% of the Savings Plan commitment covered usage\n",
			       100 * b->sp_utilization);
		if (b->extrapolated[0] && r->term == RECOMMEND_TERM_WINDOW)  /* the run's words, then recommend's way */
			printf("  warning      extrapolated_with_growth: %.*s; --term windows or fluid follows the term\n",
			       (int)(strstr(b->extrapolated, "; simulate the year") ? strstr(b->extrapolated,
			       "; simulate the year") - b->extrapolated : (long)strlen(b->extrapolated)), b->extrapolated);
		print_check(r, b);
		print_ladder(o, r);
	}
	for (int i = 0; i < o->nvary; i++)
		if (!o->vary[i].max)
			printf("  break-even   %s (%s) pays off when it displaces on-demand in more than %.1f%% of the "
			       "hours\n", o->vary[i].key, option_kind_name(r->vary_kind[i]), 100 * r->break_even[i]);
	if (!isnan(r->sp_discount))
		printf("  break-even   Savings Plan: each committed dollar pays off when used in more than %.1f%% of "
		       "the hours\n", 100 * (1 - r->sp_discount));
	if (o->growth_given) {
		print_growth(o, "low growth", &r->low);
		print_growth(o, "high growth", &r->high);
	}
	if (r->ncombos > 1)
		printf("  runs         %d simulation runs (%d candidates: %d simulated, each re-billed at %d commitment "
		       "levels; %d pruned)\n", r->runs, s->ncands, s->ncands / r->ncombos, r->ncombos, s->pruned);
	else
		printf("  runs         %d simulation runs (%d candidates, %d pruned)\n", r->runs, s->ncands, s->pruned);
	print_invalid(o, s);
	print_regret(o, r);
	print_curve(o, s);
}

static const char *first_invalid(const struct recommend_search *s)
{
	for (int i = 0; i < s->ncands; i++)
		if (s->cands[i].invalid)
			return s->cands[i].why;
	return "";
}

int cmd_recommend(int argc, char **argv)
{
	struct args a;
	struct recommend_result r;
	struct diag d;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	diag_clear(&d);
	rc = recommend_run(&a.o, &r, &d);
	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg[0] ? d.msg : status_str(rc));
		recommend_result_fini(&r);
		return cmd_exit_code(rc);
	}
	if (a.json)
		recommend_write_json(stdout, &a.o, &r);
	else
		print_text(&a.o, &r);
	rc = r.base.best >= 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
	if (r.base.invalid)
		fprintf(stderr, "gpucap: %d of %d candidates are not valid scenarios of %s (the first: %s)\n",
			r.base.invalid, r.base.ncands, a.o.scenario, first_invalid(&r.base));
	if (r.base.invalid == r.base.ncands) {
		fprintf(stderr, "gpucap: no --vary level makes a valid scenario; expected levels %s accepts\n",
			a.o.scenario);
		rc = CMD_EXIT_USAGE;
	} else if (r.base.none == RECOMMEND_SLO_UNREACHABLE) {
		fprintf(stderr, "gpucap: no candidate keeps the SLO, and no capacity can (slo_unreachable): %s\n",
			r.base.none_why);
		rc = EXIT_SLO_UNREACHABLE;
	} else if (r.base.none == RECOMMEND_FLEET_AT_MAX) {
		fprintf(stderr, "gpucap: no candidate keeps the SLO; each one's runs sat at the fleet's maximum "
			"(fleet_at_max): raise autoscaling.max or an entry's max (--set, or --vary fleet.I.max)\n");
		rc = EXIT_FLEET_AT_MAX;
	} else if (rc) {
		bool capacity = false;  /* a varied key that changes capacity (not a commitment's count) */
		for (int v = 0; v < a.o.nvary; v++)
			capacity |= !a.o.vary[v].commit;
		fprintf(stderr, "gpucap: no candidate keeps the SLO (none_in_range); %s or relax the constraint\n",
			capacity ? "widen --vary" : "commitments change only the bill, so give the fleet more capacity "
			"(--set, or --vary fleet.I.max)");
	}
	recommend_result_fini(&r);
	return rc;
}
