/*
 * queueing: the formulas the validation suites hold the simulator to, and their statistics.
 *
 * Erlang B (loss system M/M/c/c) and Erlang C (M/M/c with an unbounded queue) for offered load a = lambda /
 * mu Erlangs on c servers. Both come from the Erlang B recursion B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)),
 * whose every step stays in (0, 1]: no factorial or power of a is ever formed, so c = 1000 (or 1e5) is as
 * stable as c = 1 (a^c / c! overflows a double from c = 171 on). queueing_erlang_b_log is the textbook
 * formula B = (a^c / c!) / sum_k a^k / k! summed in logarithms, an independent way to the same number.
 *
 * queueing_check_close: R replications of an estimate against theory (see the .c file for the tolerance).
 */
#ifndef GPUCAP_QUEUEING_H
#define GPUCAP_QUEUEING_H

/* Erlang B: the blocking probability of c servers at a Erlangs (c >= 1, a > 0). */
double queueing_erlang_b(int c, double a);

/* Erlang B from the direct formula in log space (lgamma and log-sum-exp), for cross-checking. */
double queueing_erlang_b_log(int c, double a);

/* Erlang C: the probability of waiting, B / (1 - rho (1 - B)) with rho = a / c < 1. */
double queueing_erlang_c(int c, double a);

/* Assert that the mean of x[0..reps-1] is within 5 standard errors of theory and that the standard error is
 * at most 4% of theory (Check assertions; prints the comparison). */
void queueing_check_close(const char *what, const double *x, int reps, double theory);

#endif
