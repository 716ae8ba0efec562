/*
 * rebill: a run's bill under other commitments, from the hourly usage it handed back, without simulating it
 * again (`gpucap recommend`, analysis/README.md "Re-billing").
 *
 * A regional reserved instance or a Savings Plan changes the bill and never the fleet (models/pricing/savings.h):
 * a run made without it hands back its eligible usage by UTC clock hour (world_run_usage), and its bill with
 * it is the run's bill plus the commitment's charges less the usage it covered, hour by hour, by the same
 * settlement arithmetic (savings_settle_all): exact, in microseconds per hour, and with the same requests (common
 * random numbers for free). Regional RIs apply before Savings Plans; several RIs of one type cover up to their
 * summed count per hour whatever their order, so RIs added here after the run's own give the same total.
 *
 * A term is the usage a candidate's cost over the commitment's term is billed on:
 *   - one window extrapolated (its hours; the term cost is the window's cost per measured hour x term hours),
 *   - one run over the whole term (fluid mode; its hours are the term's),
 *   - several windows at dates spread over the term, each standing for its segment: rebill_term_of_windows
 *     builds the term's hours by repeating window i's hours over segment i.
 * Money is USD, times are hours from the scenario start. Nothing here allocates except where it says so.
 */
#ifndef GPUCAP_REBILL_H
#define GPUCAP_REBILL_H

#include "savings.h"

/*
 * The change of the bill of hours[0 .. n) (borrowed) when the regional RIs ris[0 .. nris) are added after what
 * the run already applied: their charges over the hours of their terms less the usage they covered (USD).
 * When left is not NULL (n entries, may equal hours) it receives the hours with that cover taken off, what a
 * Savings Plan is then settled against.
 */
double rebill_ris(const struct savings_hour *hours, int n, const struct savings_ri_terms *ris, int nris,
		  struct savings_hour *left);

/*
 * The change of the bill of hours[0 .. n) (borrowed) from one Savings Plan of commit_usd_per_h at discount (every
 * type at it): the commitment charged less the usage it covered (USD; 0 when commit_usd_per_h <= 0). *util (may
 * be NULL) receives the share of the commitment that covered usage, NaN without a plan.
 */
double rebill_plan(const struct savings_hour *hours, int n, double commit_usd_per_h, double discount, double *util);

/*
 * The Savings Plan commitment, on a grid of cents, that minimises the bill of hourly eligible usage
 * hours[0 .. n) (borrowed) under one plan of discount d:
 *     f(c) = sum_h [ c len_h + max(0, u_h - c len_h / (1 - d)) ],  u_h = the hour's eligible usage (USD at
 * On-Demand rates, all kinds). f is convex and piecewise linear with breakpoints b_h = (1 - d) u_h / len_h;
 * its slope right of c is W - F(c) / (1 - d), W = sum len_h, F(c) = sum of len_h over hours with b_h > c; so
 * the exact minimiser is the smallest c >= 0 with F(c) <= (1 - d) W, found by sorting the b_h (the
 * Cost Explorer rule: commit to the level used at SP rates in at least (1 - d) of the hours); 0, no plan,
 * when the hours with any usage weigh at most (1 - d) W. The answer is the cheaper of the two cent values
 * around it (the lower on a tie). Returns STATUS_OK or STATUS_ENOMEM.
 */
int rebill_sp_optimum(const struct savings_hour *hours, int n, double discount, double *usd_per_h);

/*
 * The hours of a term of term_h hours from nwin windows (win[i][0 .. nwin_h[i]), borrowed, each a run's
 * measured hours in time order): segment i is [i term_h / nwin, (i + 1) term_h / nwin), filled by window i's
 * hours repeated in order from the segment's start, the last repetition cut where the segment ends (the cut
 * hour's usage pro-rated). Each hour's t0_h is its place in the term. On success *out is a new array of *nout
 * entries (returns owned: free() it) and STATUS_OK; STATUS_ENOMEM leaves them as they were; STATUS_EINPUT when
 * a window has no hours.
 */
int rebill_term_of_windows(const struct savings_hour *const *win, const int *nwin_h, int nwin, double term_h,
			   struct savings_hour **out, int *nout);

#endif
