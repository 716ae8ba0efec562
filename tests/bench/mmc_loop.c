/*
 * mmc_loop: the smallest reasonable C event loop for an M/M/c queue, the yardstick tests/bench/mmc.sh
 * measures gpucap's engine against (issue 17). Not part of gpucap and not a test: a bench target.
 *
 * usage: mmc_loop LAMBDA MU C HORIZON_S [SEED]
 *
 * The model is the one of tests/bench/mmc-95.yaml: Poisson arrivals at LAMBDA per second until HORIZON_S,
 * exponential service with rate MU, C servers, an unbounded FIFO queue, and the requests still in the
 * system at the horizon run to completion (as gpucap drains its in-flight work). Events are a plain binary
 * heap of (time, seq, kind) records held by value in one array, ordered by time and then by scheduling
 * order; draws come from GSL's exponential distribution on two MT19937 generators (the type gpucap uses),
 * one for interarrival times and one for service times.
 *
 * An event is one record popped from the heap: one arrival and one departure per request (about
 * 2 x LAMBDA x HORIZON_S in all). The program prints one parseable line:
 *   mmc_loop events=N arrivals=A served=S wait_mean_s=W
 * so that the mean wait can be checked against Erlang C (C(c, a) / (c mu - lambda)).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

enum kind { ARRIVAL, DEPARTURE };

struct ev {
	double t_s;     /* when it fires, seconds */
	uint64_t seq;   /* tie-break: order of scheduling */
	int kind;       /* ARRIVAL or DEPARTURE */
};

struct heap {
	struct ev *a;   /* a[0] is the earliest */
	size_t len, cap;
	uint64_t next_seq;
};

static int before(const struct ev *x, const struct ev *y)
{
	return x->t_s < y->t_s || (x->t_s == y->t_s && x->seq < y->seq);
}

static void push(struct heap *h, double t_s, int kind)
{
	struct ev e = { t_s, h->next_seq++, kind };
	size_t i;

	if (h->len == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 256;
		h->a = realloc(h->a, h->cap * sizeof *h->a);
		if (!h->a) {
			perror("mmc_loop");
			exit(1);
		}
	}
	for (i = h->len++; i > 0 && before(&e, &h->a[(i - 1) / 2]); i = (i - 1) / 2)
		h->a[i] = h->a[(i - 1) / 2];
	h->a[i] = e;
}

static struct ev pop(struct heap *h)
{
	struct ev top = h->a[0], last = h->a[--h->len];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->len)
			break;
		if (c + 1 < h->len && before(&h->a[c + 1], &h->a[c]))
			c++;
		if (!before(&h->a[c], &last))
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->len)
		h->a[i] = last;
	return top;
}

/* FIFO of the waiting requests' arrival times: a ring buffer that doubles when full. */
struct fifo {
	double *a;
	size_t head, len, cap;
};

static void fifo_push(struct fifo *q, double t_s)
{
	if (q->len == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 1024;
		double *a = malloc(cap * sizeof *a);
		if (!a) {
			perror("mmc_loop");
			exit(1);
		}
		for (size_t i = 0; i < q->len; i++)
			a[i] = q->a[(q->head + i) % q->cap];
		free(q->a);
		q->a = a;
		q->head = 0;
		q->cap = cap;
	}
	q->a[(q->head + q->len++) % q->cap] = t_s;
}

static double fifo_pop(struct fifo *q)
{
	double t_s = q->a[q->head];

	q->head = (q->head + 1) % q->cap;
	q->len--;
	return t_s;
}

int main(int argc, char **argv)
{
	struct heap h = { 0 };
	struct fifo q = { 0 };
	double lambda, mu, horizon_s, wait_sum_s = 0;
	long c, free_servers;
	uint64_t events = 0, arrivals = 0, served = 0;
	gsl_rng *arr, *svc;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: mmc_loop LAMBDA MU C HORIZON_S [SEED]\n");
		return 2;
	}
	lambda = atof(argv[1]);
	mu = atof(argv[2]);
	c = atol(argv[3]);
	horizon_s = atof(argv[4]);
	if (!(lambda > 0) || !(mu > 0) || c < 1 || !(horizon_s > 0)) {
		fprintf(stderr, "mmc_loop: LAMBDA, MU, C and HORIZON_S must be positive\n");
		return 2;
	}
	arr = gsl_rng_alloc(gsl_rng_mt19937);
	svc = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(arr, argc == 6 ? strtoul(argv[5], NULL, 10) : 1);
	gsl_rng_set(svc, (argc == 6 ? strtoul(argv[5], NULL, 10) : 1) + 1);
	free_servers = c;

	push(&h, gsl_ran_exponential(arr, 1.0 / lambda), ARRIVAL);
	while (h.len) {
		struct ev e = pop(&h);
		events++;
		if (e.kind == ARRIVAL) {
			double next_s = e.t_s + gsl_ran_exponential(arr, 1.0 / lambda);
			arrivals++;
			if (next_s < horizon_s)
				push(&h, next_s, ARRIVAL);
			if (free_servers > 0) {
				free_servers--;
				served++;
				push(&h, e.t_s + gsl_ran_exponential(svc, 1.0 / mu), DEPARTURE);
			} else {
				fifo_push(&q, e.t_s);
			}
		} else if (q.len > 0) {
			wait_sum_s += e.t_s - fifo_pop(&q);
			served++;
			push(&h, e.t_s + gsl_ran_exponential(svc, 1.0 / mu), DEPARTURE);
		} else {
			free_servers++;
		}
	}
	printf("mmc_loop events=%llu arrivals=%llu served=%llu wait_mean_s=%.6f\n", (unsigned long long)events,
	       (unsigned long long)arrivals, (unsigned long long)served, served ? wait_sum_s / (double)served : 0.0);
	gsl_rng_free(arr);
	gsl_rng_free(svc);
	free(h.a);
	free(q.a);
	return 0;
}
