/*
 * tests/bench/mmc_ref.c: the reference M/M/c loop gpucap's speed is measured against (tests/bench/mmc.sh).
 *
 * Source: the "tightest yardstick" supplied with gpucap's speed review (issue 37, "Speed against the
 * tightest yardstick, and decisions in seconds"), kept here unchanged below this comment so that the
 * benchmark can be rerun anywhere. It is not part of gpucap; its own header says what it measures. The
 * build (tests/CMakeLists.txt, target mmc_ref) follows its BUILD line: -O2 -march=native.
 */
/*
 * mmc_ref.c -- tight C reference ("physical limit") for an M/M/c FIFO queue.
 *
 * WHAT IT MEASURES
 *   The event rate (events/s) of the simplest fast discrete-event loop for
 *   M/M/c on this machine, plus the queue statistics to check it against
 *   Erlang C (erlang_c.py).  Every arrival and every departure goes through
 *   one event list, as in a general DES kernel:
 *     - event list: 4-ary min-heap of {time, kind} in one preallocated array
 *       (never holds more than c+1 events: <= c departures + 1 next arrival);
 *     - waiting line: FIFO ring buffer of arrival times (power-of-two size,
 *       doubled on overflow -- amortised, never per event);
 *     - RNG: inline xoshiro256+ seeded by splitmix64; exponentials by
 *       inverse transform, -log(1-u)/rate;
 *     - no malloc and no I/O inside the loop; pop+push fused as "replace top".
 *   N customers arrive; the run ends when the N-th departs, so
 *   events = arrivals + departures = 2N.  Only the loop is timed
 *   (CLOCK_MONOTONIC).  Wait = service start - arrival; p_wait = fraction
 *   of customers that had to queue; system time = wait + service.
 *   wait_ci95 = 95% half-width of mean_wait by 20 batch means (in customer
 *   order), a rough error bar for the Erlang C comparison.
 *
 * BUILD / RUN
 *   cc -O2 -march=native -o mmc_ref mmc_ref.c -lm
 *   ./mmc_ref --lam 9 --mu 1 --c 10 --n 1000000 --seed 1
 * OUTPUT (one line)
 *   model=c_ref customers=.. events=.. wall_s=.. events_per_s=.. mean_wait=..
 *   p_wait=.. mean_system_time=.. wait_ci95=..
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- RNG: xoshiro256+ (top 53 bits -> double in [0,1)) ---- */
static uint64_t s[4];
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next_u64(void) {
    uint64_t r = s[0] + s[3], t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}
static inline double expo(double rate) {
    double u = (double)(next_u64() >> 11) * 0x1.0p-53;   /* [0,1) */
    return -log(1.0 - u) / rate;                           /* 1-u in (0,1] */
}
static void seed_rng(uint64_t x) {                         /* splitmix64 */
    for (int i = 0; i < 4; i++) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        s[i] = z ^ (z >> 31);
    }
}

/* ---- event list: D-ary min-heap on time (D=4: log4(c) levels; D=2 and
   D=8 measured the same within noise; build with -DD=2 to check) ---- */
#ifndef D
#define D 4
#endif
enum { ARR = 0, DEP = 1 };
typedef struct { double t; int kind; } Ev;
static Ev *heap;
static int hn;

static inline void sift_down(int i, Ev e) {   /* place e at hole i, move down */
    for (;;) {
        int c = D * i + 1, m;
        if (c >= hn) break;
        m = c;
        int end = c + D < hn ? c + D : hn;
        for (int k = c + 1; k < end; k++) if (heap[k].t < heap[m].t) m = k;
        if (heap[m].t >= e.t) break;
        heap[i] = heap[m]; i = m;
    }
    heap[i] = e;
}
static inline void push(double t, int kind) {
    int i = hn++;
    while (i > 0) {
        int p = (i - 1) / D;
        if (heap[p].t <= t) break;
        heap[i] = heap[p]; i = p;
    }
    heap[i].t = t; heap[i].kind = kind;
}
static inline void replace_top(double t, int kind) { sift_down(0, (Ev){t, kind}); }
static inline void pop_top(void) { if (--hn > 0) sift_down(0, heap[hn]); }

/* ---- FIFO waiting line: ring buffer of arrival times ---- */
static double *ring;
static size_t rcap = 1 << 12, rhead, rlen;
static void ring_grow(void) {                 /* rare: double, unwrap */
    double *nr = malloc(2 * rcap * sizeof *nr);
    for (size_t k = 0; k < rlen; k++) nr[k] = ring[(rhead + k) & (rcap - 1)];
    free(ring); ring = nr; rhead = 0; rcap *= 2;
}

int main(int argc, char **argv) {
    double lam = 9, mu = 1; long c = 10, n = 1000000; uint64_t seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--lam")) lam = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--mu")) mu = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--c")) c = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--n")) n = (long)atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], 0, 10);
        else { fprintf(stderr, "usage: %s --lam L --mu M --c C --n N --seed S\n", argv[0]); return 2; }
    }
    seed_rng(seed);
    heap = malloc((c + 2) * sizeof *heap);
    ring = malloc(rcap * sizeof *ring);

    enum { NB = 20 };                         /* batch means for the error bar */
    double bsum[NB] = {0};
    long bsize = n / NB > 0 ? n / NB : 1;

    long arrived = 1, departed = 0, started = 0, busy = 0, nwaited = 0, events = 0;
    double sum_w = 0, sum_sys = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);

    push(expo(lam), ARR);
    while (departed < n) {
        double now = heap[0].t;
        events++;
        if (heap[0].kind == ARR) {
            if (arrived < n) { replace_top(now + expo(lam), ARR); arrived++; }
            else pop_top();
            if (busy < c) {                   /* free server: start now */
                double sv = expo(mu);
                busy++; sum_sys += sv; started++;
                push(now + sv, DEP);
            } else {                          /* all busy: join the line */
                if (rlen == rcap) ring_grow();
                ring[(rhead + rlen++) & (rcap - 1)] = now;
                nwaited++;
            }
        } else {                              /* departure */
            departed++;
            if (rlen) {                       /* next in line starts service */
                double a = ring[rhead]; rhead = (rhead + 1) & (rcap - 1); rlen--;
                double w = now - a, sv = expo(mu);
                long b = started++ / bsize;
                bsum[b < NB ? b : NB - 1] += w;
                sum_w += w; sum_sys += w + sv;
                replace_top(now + sv, DEP);
            } else { busy--; pop_top(); }
        }
    }

    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);

    /* batch-means 95% half-width of mean_wait (t quantile, 19 d.o.f.) */
    double m = 0, v = 0;
    for (int b = 0; b < NB; b++) {
        long sz = (b < NB - 1) ? bsize : n - (NB - 1) * bsize;
        bsum[b] /= sz; m += bsum[b] / NB;
    }
    for (int b = 0; b < NB; b++) v += (bsum[b] - m) * (bsum[b] - m) / (NB - 1);
    double ci = 2.093 * sqrt(v / NB);

    printf("model=c_ref customers=%ld events=%ld wall_s=%.4f events_per_s=%.0f "
           "mean_wait=%.6g p_wait=%.6g mean_system_time=%.6g wait_ci95=%.3g\n",
           n, events, wall, events / wall, sum_w / n, (double)nwaited / n,
           sum_sys / n, ci);
    return 0;
}
