/* queueing: see queueing.h. */
#include "queueing.h"

#include <check.h>
#include <math.h>
#include <stdio.h>

double queueing_erlang_b(int c, double a)
{
	double b = 1.0;

	for (int k = 1; k <= c; k++)
		b = a * b / (k + a * b);
	return b;
}

double queueing_erlang_b_log(int c, double a)
{
	/* log of a^k / k! for k = 0..c; the sum by log-sum-exp around its largest term */
	double top = -INFINITY, sum = 0, last = c * log(a) - lgamma(c + 1.0);

	for (int k = 0; k <= c; k++) {
		double t = k * log(a) - lgamma(k + 1.0);
		if (t > top)
			top = t;
	}
	for (int k = 0; k <= c; k++)
		sum += exp(k * log(a) - lgamma(k + 1.0) - top);
	return exp(last - top) / sum;
}

double queueing_erlang_c(int c, double a)
{
	double b = queueing_erlang_b(c, a);

	return b / (1.0 - (a / c) * (1.0 - b));
}

/*
 * Tolerance, stated (as tests/check_erlang.c): R independent replications; the estimate is their mean and
 * its standard error SE their sample sd / sqrt(R). |mean - theory| <= 5 SE (Student's t on R - 1 = 19
 * degrees of freedom: a false alarm about 1e-4 per check, whatever the seed) AND SE <= 4% of theory, so a
 * check cannot pass by being imprecise: an error of 20% in the simulator is always caught.
 */
void queueing_check_close(const char *what, const double *x, int reps, double theory)
{
	double mean = 0, var = 0, se;

	for (int i = 0; i < reps; i++)
		mean += x[i] / reps;
	for (int i = 0; i < reps; i++)
		var += (x[i] - mean) * (x[i] - mean) / (reps - 1);
	se = sqrt(var / reps);
	fprintf(stderr, "  %-18s sim %.6g +- %.2g (SE)  theory %.6g  (%.2f SE off)\n", what, mean, se, theory,
		fabs(mean - theory) / se);
	ck_assert_msg(se <= 0.04 * theory, "%s: SE %g is too large to test against %g", what, se, theory);
	ck_assert_msg(fabs(mean - theory) <= 5 * se, "%s: %g vs theory %g (SE %g)", what, mean, theory, se);
}
