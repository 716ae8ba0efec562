/*
 * meter: the one place where a run's numbers are added up.
 *
 * Serving and the fleet report what happens (an arrival, a slot becoming busy, an instance going live, a
 * bill) and the meter keeps the sums: request counts, latency and wait histograms, time integrals of busy
 * slots and of slots in service, cost and paid GPU-time per option kind, and the minute-by-minute time
 * series. At the end, meter_report() turns the sums into the named metrics of the README.
 *
 * Time integrals are advanced lazily: every change of a count first calls meter_advance(now), which adds
 * count x elapsed time. meter_close(horizon) freezes the integrals and the bill at the horizon; requests that
 * finish after it (the run drains in-flight work) still count for latency, but not for GPU-hours.
 *
 * Warm-up (meter_set_warmup): request metrics count only requests that arrive at or after warmup_us (the
 * arrival count the policies read, `arrivals`, counts every one); the integrals and bills are split at
 * warmup_us so that the measured window [warmup, horizon) has its own GPU-hours and cost.
 *
 * Little's law (littles_law_error): the measured window's time integral of requests in the system (queued +
 * in service, from the integrals above) against the summed time in system of the requests that arrived in
 * it; the two differ only by the window's edges (models/README.md, "Metrics").
 *
 * Samples and events are buffered (SINK_BATCH rows) and handed to the sink in batches; nothing is
 * allocated after meter_init. The first sink failure is kept in `status` and the message in the diag the
 * meter was given; callers check meter->status and stop the run.
 */
#ifndef GPUCAP_METER_H
#define GPUCAP_METER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "option.h"
#include "savings.h"
#include "sink.h"
#include "tzone.h"

#define METER_BATCH 512
#define METER_MAX_METRICS 200
#define METER_TYPES_MAX 8  /* instance types (scenario.h, SCENARIO_TYPES_MAX) */
#define METER_SLO_PCTS 4   /* percentile SLOs: p50, p90, p95, p99 (scenario.h, enum scenario_slo_pct) */
#define METER_USERS 2      /* whose instances a bill is for: the fleet's users (fleet.h, FLEET_USER_*) */

/* The kinds of a bill line (sink.h, struct sink_charge). */
enum charge_kind { CHARGE_USAGE, CHARGE_USED, CHARGE_UNUSED, CHARGE_UPFRONT, CHARGE_KIND_COUNT };

/* The sums of one (clock hour, user, option kind, charge kind) bill line. */
struct meter_bill_line {
	double quantity_h, list_usd, billed_usd, effective_usd;
};

/* The SLOs as planners state them (models/README.md, "SLOs"); thresholds 0 = not stated. */
struct meter_slo {
	int64_t latency_pct_us[METER_SLO_PCTS];  /* latency percentile thresholds */
	int64_t ttft_pct_us[METER_SLO_PCTS];     /* time-to-first-token percentile thresholds */
	int64_t tpot_pct_us[METER_SLO_PCTS];     /* time-per-output-token percentile thresholds */
	double max_violation_rate;               /* share allowed over slo_latency_us; negative = none */
	int64_t window_us;                       /* window length (divides a day); 0 = none */
	int64_t window_phase_us;                 /* t = 0 lies this far past a UTC window mark, [0, window) */
	const struct tzone *tz;                  /* the clock windows are aligned to (borrowed; the scenario's
	                                            `timezone`); NULL = UTC, with window_phase_us */
};

enum drop_reason {
	DROP_TIMEOUT,   /* waited longer than serving.queue_timeout_s */
	DROP_REFUSED,   /* the queue was full (serving.max_queue) */
	DROP_UNSERVED,  /* still waiting when the run ended with nothing left to serve it */
	DROP_INTERRUPTED /* in service on an instance taken away, with serving.on_interrupt: drop */
};

/* One instance type of a fleet with several (meter_types.c). */
struct meter_type {
	char name[48];               /* the type's name, sanitised for metric names ('.', '-' -> '_') */
	int gpus;                    /* GPUs per instance */
	int slots;                   /* request slots per instance */
	double od_usd_per_h;         /* On-Demand price, USD per instance-hour: list prices of its bill lines */
	int busy;                    /* busy slots now */
	int in_service;              /* instances serving or draining now */
	double busy_slot_us;         /* integral of busy, slot-microseconds */
	double busy_at_sample;       /* busy_slot_us at the previous sample */
	double service_inst_us;      /* integral of in_service, instance-microseconds */
	uint64_t served;             /* measured requests served on it */
	double cost_usd;             /* its charges plus its On-Demand and ODCR usage at their rates, before
	                                Savings Plans settle (a plan's discount is not split by type) */
	double paid_gpu_us;          /* GPU-microseconds its bills cover */
};

/* Several instance types (meter_types.c). With one type (ntypes <= 1) none of this is used and the meter
 * works exactly as without it. */
struct meter_types {
	int n;                                       /* types declared; 0 or 1: one type */
	struct meter_type type[METER_TYPES_MAX];
	double busy_gpus[OPTION_KIND_COUNT];         /* GPUs busy now by kind: each busy slot holds its type's
	                                                gpus / slots */
	double busy_gpu_us[OPTION_KIND_COUNT];       /* its integral, GPU-microseconds */
	double busy_gpu_at_warmup[OPTION_KIND_COUNT];/* busy_gpu_us at warmup_us */
	int in_service_slots;                        /* slots of the instances serving or draining now */
	double service_slot_us;                      /* its integral, slot-microseconds */
};

/* A multi-model endpoint's results (mme.h, SOURCES.md [mme-metrics]), reported only when used. */
struct meter_mme {
	bool used;                  /* serving.multi_model is on */
	double hit_ratio;           /* measured admissions that found their model loaded / all; NaN if none */
	double wait_mean_s;         /* mean load wait of the measured admissions that waited; NaN if none */
	double wait_p99_s;          /* its 99th percentile (hist.h: within 1%) */
	double loaded_per_instance; /* time-average of models loaded per open instance, measured window */
	uint64_t loads;             /* loads started from warmup on */
	uint64_t evictions;         /* models unloaded to make room, from warmup on */
};

/*
 * Who pays a bill: the user of the capacity (0 serving, 1 jobs: the fleet's numbering), the instance type it
 * is for (0 with one type), and for a group shared by time of day the share of each bill that is the jobs'
 * (jobs_share in [0, 1], the rest the serving's; < 0: all to user). The fleet makes one for each bill it
 * asks an option for (an instance ending, a group closing) and passes it down; every charge, bill line and
 * usage takes it as an argument.
 */
struct meter_payer {
	int user;           /* 0..METER_USERS-1 */
	int type;           /* 0..types.n-1 */
	double jobs_share;  /* < 0: all to user */
};

/* The payer outside any fleet bill: serving, the first type, no sharing. */
#define METER_PAYER_SERVING ((struct meter_payer){.user = 0, .type = 0, .jobs_share = -1})

struct meter {
	struct sink sink;          /* where batches go, kept */
	struct diag *diag;         /* where a sink failure's message goes, kept */
	int status;                /* first sink failure, STATUS_OK until then */
	int64_t slo_latency_us;    /* SLO threshold */
	int gpus;                  /* GPUs per instance */
	int slots;                 /* slots per instance */
	double horizon_h;          /* simulated hours */

	int64_t warmup_us;         /* requests arriving before this are not measured */
	int64_t horizon_us;        /* end of the billing window */

	/* requests (arrivals: every one, for the policies and samples; the rest: measured ones only) */
	uint64_t arrivals, served, timed_out, refused, unserved, interrupted_dropped, slo_violations, waited;
	uint64_t requests;         /* measured arrivals */
	uint64_t slo_service;      /* served, over slo_latency_us, with a service time alone over it too */
	uint64_t slo_slowed;       /* served, over slo_latency_us, with a service time alone within it but its
	                              service where it ran (slowed by sharing the instance, or a slower type) over it */
	uint64_t slo_wait;         /* served, over slo_latency_us, with its service where it ran within it */
	uint64_t floor_count;      /* measured requests whose service time alone exceeds slo_latency_us */
	uint64_t floor_pct[METER_SLO_PCTS];  /* measured requests whose service time alone exceeds the stated
	                                        latency percentile threshold slo.latency_pct_us[i] */
	struct hist latency;       /* end-to-end latency of served requests */
	struct hist wait;          /* queue wait of served requests */
	struct hist ttft;          /* time to first token of served requests (token model only) */
	int64_t slo_ttft_us;       /* TTFT threshold, 0 = none */
	uint64_t ttft_violations;  /* served with TTFT above the threshold, plus every dropped request */
	/* the serving model's token metrics (meter_tokens.c), reported only when tokens_used */
	bool tokens_used;          /* batching continuous, a KV cache or slo.tpot_s: tpot_*, kv_* reported */
	struct hist tpot;          /* time per output token of served requests with >= 2 output tokens */
	int64_t slo_tpot_us;       /* TPOT threshold, 0 = none */
	uint64_t tpot_violations;  /* served with TPOT above the threshold, plus every dropped request */
	bool kv_used;              /* instances have a KV-cache limit: kv_* reported */
	double kv_utilization;     /* time-average of KV tokens reserved / capacity in service */
	double kv_limited_share;   /* share of the measured time a request waited with a slot free */
	uint64_t kv_too_large;     /* measured requests refused: larger than every instance's KV cache */
	bool prefix_used;          /* instances have a prefix cache: prefix_hit_rate, prefill_tokens_saved */
	double prefix_hit_rate;    /* leading blocks found cached / blocks looked up, measured admissions */
	uint64_t prefix_saved;     /* prompt tokens the prefix caches spared, measured admissions */
	struct meter_mme mme;      /* a multi-model endpoint's results (mme.h); mme.used false without */

	/* percentile and windowed SLOs */
	struct meter_slo slo;
	bool slo_stated;                          /* a percentile SLO or max_violation_rate is stated */
	bool latency_pcts;                        /* a latency percentile threshold is stated (meter_arrival
	                                             counts the floor against it) */
	struct hist win_latency;                  /* latency of the current window's served requests */
	struct hist win_ttft;                     /* their time to first token */
	struct hist win_tpot;                     /* their time per output token */
	uint64_t win_dropped;                     /* requests dropped in the current window */
	uint64_t win_violations;                  /* requests over slo_latency_us in it (dropped included) */
	int64_t win_k;                            /* the current window's index (meter_window_of) */
	int64_t win_lfloor_us[TZONE_CHANGES_MAX]; /* with slo.tz: the local time reached before each change
	                                             (meter_window.c) */
	int win_seg;                              /* the tz segment of the last request's window lookup, */
	int64_t win_seg_from_us, win_seg_to_us;   /* holding unix times [from, to) */

	/* the requests by UTC clock hour, always kept (analysis/README.md "Reports"): row h is clock hour h (allocated at
	 * meter_init, owned); hour_latency holds the current hour's served latencies, emptied as it closes */
	struct sink_hour *hours;
	struct hist hour_latency;
	int hour_k;                               /* the current clock hour, -1 before the first request */
	uint64_t windows_breached;                /* windows where a stated SLO failed */
	double worst_ratio;                       /* largest observed / threshold of a percentile SLO in a
	                                             window; NaN until one is seen */
	int64_t worst_start_us;                   /* where that window's measured part starts */

	/* counts now, and their time integrals up to last_us */
	int64_t last_us;                          /* integrals are complete up to here */
	bool closed;                              /* meter_close was called: integrals frozen */
	int busy[OPTION_KIND_COUNT];              /* busy slots per option kind */
	int busy_all;                             /* their sum */
	unsigned busy_kinds;                      /* bit k set when busy[k] != 0 */
	int in_service;                           /* instances serving or draining */
	int live[OPTION_KIND_COUNT];              /* instances paid for now, per kind */
	double busy_slot_us[OPTION_KIND_COUNT];   /* integral of busy slots, slot-microseconds */
	double busy_slot_us_all;                  /* the same summed over kinds */
	double busy_slot_at_warmup[OPTION_KIND_COUNT];  /* busy_slot_us at warmup_us */
	double queued_at_warmup;                  /* queued_us at warmup_us */
	double sojourn_us;                        /* Little's law: summed time in system (arrival to served
	                                             or dropped, past the horizon too) of measured requests,
	                                             request-us */
	double job_held_us[OPTION_KIND_COUNT];    /* instance-microseconds jobs held instances (busy GPUs) */
	double job_held_meas_us[OPTION_KIND_COUNT];  /* the same from warmup_us on */
	bool warm_taken;                          /* busy_slot_at_warmup is set */
	double service_inst_us;                   /* integral of instances in service, instance-us */
	int copy_gpus;                            /* GPUs per model copy; 0 without copies */
	int copies;                               /* copies serving now */
	double service_copy_us;                   /* integral of copies serving, copy-us */
	int64_t queued;                           /* requests waiting now */
	double queued_us;                         /* integral of requests waiting, request-us */
	double queued_served_us;                  /* the same, only while at least one instance (with
	                                             copies: copy) serves: the waiting part of the
	                                             concurrency metric, request-us */
	double under_us;                          /* time with requests waiting (too little capacity) */
	double over_us;                           /* time with nobody waiting and a whole instance's worth
	                                             of slots idle (one instance too many) */

	/* money, per option kind */
	double cost_usd[OPTION_KIND_COUNT];       /* billed to the horizon */
	double paid_gpu_us[OPTION_KIND_COUNT];    /* GPU-microseconds the bill covers */
	double cost_meas_usd[OPTION_KIND_COUNT];  /* the part of cost_usd for [warmup, horizon) */
	double paid_gpu_meas_us[OPTION_KIND_COUNT];  /* the part of paid_gpu_us in [warmup, horizon) */

	/* money by user: every charge and usage is also added to its payer's user's sums (struct
	 * meter_payer). On-Demand and ODCR dollars are settled per clock hour against the Savings Plans
	 * (meter_settle): in each clock hour, each user bears the settled dollars of a usage kind in proportion
	 * to its share of that kind's usage in that hour, and the used part of a Savings Plan's or regional RI's
	 * hourly commitment in proportion to its share of the usage it covered; the unused part is serving's.
	 * user_cost_usd is the sum of the users' bill lines (meter_conserved checks it). */
	double user_cost_usd[METER_USERS][OPTION_KIND_COUNT];     /* cost_usd by user */
	double user_paid_gpu_us[METER_USERS][OPTION_KIND_COUNT];  /* paid_gpu_us by user */

	/* Savings-Plan-eligible usage by user and clock hour, USD at On-Demand (ODCR) rates (as usage_by_hour's
	 * usd, the whole window's): [(h x METER_USERS + user) x SAVINGS_USAGE_COUNT + kind], for the hourly
	 * split of the settled dollars; allocated at meter_init, owned */
	double *user_hour_usd;

	/* usage Savings Plans may cover, by UTC clock hour (savings.h): entry h is the part of the window
	 * inside the h-th clock hour it touches; owned */
	struct savings_hour *usage_by_hour;
	int nhours;                               /* clock hours the window touches */
	struct savings_hour *usage_meas_by_hour;  /* the same, only the usage in [warmup, horizon) (len_h: the
	                                             part of each hour in it); owned */
	int64_t hour_phase_us;                    /* t = 0 is this far past a UTC hour mark, [0, 1 h) */

	/* the bill by clock hour and user (analysis/README.md, "The bill in FOCUS form"): line
	 * meter_bill_index(h, user, option, kind); allocated at meter_init, owned */
	struct meter_bill_line *bill;
	int64_t start_unix_us;                    /* the scenario start (meter_set_prices) */
	double list_usd_per_h;                    /* the On-Demand price of the type, for list prices */
	struct sink_charge charge_rows[METER_BATCH];  /* buffered rows for the sink */

	/* commitments (reserved instances, Savings Plans), for the FinOps figures */
	double committed_usd;                     /* commitment charged for the window */
	double commit_used_usd;                   /* the part of it that covered usage */
	double covered_od_usd;                    /* usage covered by commitments, at On-Demand rates */
	double eligible_od_usd;                   /* usage commitments could cover, at On-Demand rates */
	double after_horizon_usd;                 /* commitments still to pay after the horizon */
	double after_horizon_kind_usd[OPTION_KIND_COUNT];  /* the same by option kind */

	/* fleet activity */
	int live_peak;                            /* most instances paid for at once */
	uint64_t launches, terminations, scale_outs, scale_ins;
	uint64_t copy_loads;                      /* copies placed that had to load (not warm at t = 0) */
	uint64_t launch_failures;                 /* launch attempts refused (quota, capacity, window) */
	uint64_t spot_interruptions;              /* Spot instances given an interruption notice */
	uint64_t block_terminations;              /* instances taken away at a Capacity Block's end */
	uint64_t requests_interrupted;            /* requests in flight on an instance taken away */
	bool dws_used;                            /* the fleet has a gcp_dws_flex entry: its metrics are reported */
	uint64_t dws_requests;                    /* DWS Flex-start requests made (option_dws.c) */
	uint64_t dws_failed;                      /*   of which failed: no capacity within max_wait_s */
	uint64_t dws_granted;                     /*   of which granted capacity within max_wait_s */
	double dws_wait_us;                       /*   their waits, request to start, summed (microseconds) */
	bool dealloc_used;                        /* the fleet has an azure Spot entry: eviction metrics reported */
	uint64_t spot_deallocated;                /* azure Spot VMs evicted with eviction_policy: deallocate */
	double spot_disk_usd;                     /*   the storage their disks cost until the horizon (USD) */

	/* time series */
	int64_t period_us;                        /* sample period */
	uint64_t arrivals_at_sample;              /* arrivals at the previous sample */
	double busy_at_sample;                    /* busy_slot_us_all at the previous sample */
	int64_t t_at_sample;                      /* time of the previous sample */
	struct sink_sample samples[METER_BATCH];  /* buffered rows */
	int nsamples;
	struct meter_types types;                 /* several instance types (meter_types.c) */
	struct sink_event events[METER_BATCH];    /* buffered rows */
	char event_detail[METER_BATCH][96];       /* their detail strings */
	int nevents;
};

/* The meter's plain counters, changed only through meter_count (the models count their events; the meter
 * reports them). */
enum meter_counter {
	METER_LAUNCHES,            /* launches */
	METER_TERMINATIONS,        /* terminations */
	METER_LAUNCH_FAILURES,     /* launch_failures */
	METER_SPOT_INTERRUPTIONS,  /* spot_interruptions */
	METER_BLOCK_TERMINATIONS,  /* block_terminations */
	METER_COPY_LOADS,          /* copy_loads */
	METER_DWS_REQUESTS,        /* dws_requests */
	METER_DWS_FAILED,          /* dws_failed */
	METER_SPOT_DEALLOCATED     /* spot_deallocated */
};

/* Add n to counter c. */
void meter_count(struct meter *m, enum meter_counter c, uint64_t n);

/* A DWS Flex-start request granted capacity after waiting wait_us (dws_granted, dws_wait_us). */
void meter_dws_granted(struct meter *m, double wait_us);

/* Report the DWS metrics (the fleet has a gcp_dws_flex entry) or the eviction metrics (an azure Spot entry). */
void meter_report_dws(struct meter *m);
void meter_report_dealloc(struct meter *m);

/* The storage an evicted azure Spot VM's disks cost until the horizon, USD (spot_disk_usd). */
void meter_spot_disk(struct meter *m, double usd);

/* A commitment's window (reserved instances): charged, the part that covered usage, the usage covered and
 * the usage it could cover, at On-Demand rates (committed_usd, commit_used_usd, covered_od_usd,
 * eligible_od_usd). */
void meter_commitment(struct meter *m, double committed_usd, double used_usd, double covered_od_usd,
		      double eligible_od_usd);

/* The latency SLO threshold the served requests are judged against from now (a model's own, with several). */
void meter_set_slo_latency(struct meter *m, int64_t slo_latency_us);

/* The run failed with status, whose message is already in the diag: keep the first failure, say nothing. */
void meter_failed(struct meter *m, int status);

/* Set up (the struct is large: allocate it inside a heap object). hour_phase_us: how far t = 0 lies past
 * the UTC hour mark before it, in [0, 1 h) (Savings Plans settle by clock hour). STATUS_OK or
 * STATUS_ENOMEM. */
int meter_init(struct meter *m, struct sink sink, struct diag *d, int64_t slo_latency_us, int gpus,
	       int slots, int64_t horizon_us, int64_t hour_phase_us, int64_t period_us);

/* The scenario start (Unix microseconds) and the type's On-Demand price, for the bill lines. */
void meter_set_prices(struct meter *m, int64_t start_unix_us, double list_usd_per_h);

/*
 * A bill line: quantity_h instance-hours, billed_usd and effective_usd of option kind `option`, spread
 * evenly over [t0_us, t1_us) clock hour by clock hour (before t = 0: the first hour; past the horizon: the
 * last; an empty interval: the hour holding t0_us). The list price is quantity_h x the On-Demand price.
 */
void meter_bill(struct meter *m, const struct meter_payer *pay, enum option_kind option, enum charge_kind kind,
		double t0_us, double t1_us, double quantity_h, double billed_usd, double effective_usd);

/* The end of the clock hour holding t_us (the first clock hour past it), on the run's clock. */
int64_t meter_hour_end(const struct meter *m, int64_t t_us);

/* Hand the bill lines to the sink (after meter_settle); returns m->status. */
int meter_emit_bill(struct meter *m);

/* Hand the hourly request rows to the sink: the clock hours the measured window touches (after
 * meter_finish); returns m->status. */
int meter_emit_hours(struct meter *m);

/* Set the time-to-first-token threshold (0 = none). */
void meter_set_ttft_slo(struct meter *m, int64_t ttft_us);

/* meter_tokens.c: report the token metrics (tpot_*; kv_* when kv) and set the TPOT threshold (0 = none).
 * Call before anything happens. */
void meter_set_tokens(struct meter *m, int64_t tpot_us, bool kv);

/* A request that arrived at arrival_us was served with time per output token tpot_us (call only for
 * requests with at least 2 output tokens, right after its meter_served). */
void meter_tpot(struct meter *m, int64_t arrival_us, int64_t tpot_us);

/* The KV-cache results of the run: utilisation, the share of time the cache (not the slots) held a
 * request back, and the measured requests refused as larger than any cache. */
void meter_set_kv(struct meter *m, double utilization, double limited_share, uint64_t too_large);
/* Instances have a prefix cache (after meter_set_tokens): its metrics are reported. At the end, serving
 * hands over its hit rate (NAN when nothing was looked up) and the prompt tokens it spared. */
void meter_set_prefix_used(struct meter *m);
void meter_set_prefix(struct meter *m, double hit_rate, uint64_t saved);

/* A multi-model endpoint's results, handed over by serving at the end (copied). */
void meter_set_mme(struct meter *m, const struct meter_mme *mme);

/* Add the token metrics to list from index n (when tokens_used); returns the new count. */
int meter_report_tokens(const struct meter *m, struct sink_metric *list, int n);

/* Measure requests arriving from warmup_us on, and split the bill there (0 <= warmup_us < horizon). Call
 * before anything happens. */
void meter_set_warmup(struct meter *m, int64_t warmup_us);

/* State the percentile, violation-rate and windowed SLOs (copied). Call before anything happens. */
void meter_set_slo(struct meter *m, const struct meter_slo *slo);
void meter_fini(struct meter *m);

/* On-demand usage of [t0_us, t1_us) at usd_per_h, spread over the clock hours it covers (the part past
 * the horizon goes to the last hour). */
void meter_od_usage(struct meter *m, const struct meter_payer *pay, int64_t t0_us, int64_t t1_us, double usd_per_h);

/* ODCR capacity of [t0_us, t1_us) at usd_per_h (count x rate), paid whether used or not: unused until
 * meter_odcr_used says instances ran in it. */
void meter_odcr_reserved(struct meter *m, const struct meter_payer *pay, int64_t t0_us, int64_t t1_us,
			 double usd_per_h);

/* An instance ran in an ODCR over [t0_us, t1_us) (within the reservation's time), rate usd_per_h: that
 * much of the reserved capacity is used. */
void meter_odcr_used(struct meter *m, const struct meter_payer *pay, int64_t t0_us, int64_t t1_us, double usd_per_h);

/* Bring the integrals up to now_us (no-op once closed). */
void meter_advance(struct meter *m, int64_t now_us);

/*
 * Requests. An arrival at arrival_us whose service time alone (with a slot to itself at once; the token
 * model at concurrency 1) would be alone_us. A request served at now_us after waiting wait_us, with latency
 * latency_us, time to first token ttft_us (-1: not modelled) and alone_us as it arrived. A request dropped
 * at now_us. One of the requests in service on an instance taken away.
 */
void meter_arrival(struct meter *m, int64_t arrival_us, int64_t alone_us);
void meter_busy(struct meter *m, int64_t now_us, enum option_kind kind, int delta);

/* Jobs held n instances of kind from from_us to to_us (jobs.h): their GPUs count as busy for that time. */
void meter_job_held(struct meter *m, enum option_kind kind, int n, int64_t from_us, int64_t to_us);
void meter_served(struct meter *m, int64_t now_us, int64_t arrival_us, int64_t wait_us, int64_t latency_us,
		  int64_t ttft_us, int64_t alone_us);
void meter_dropped(struct meter *m, int64_t now_us, int64_t arrival_us, enum drop_reason why, bool waited);
void meter_interrupted(struct meter *m, int64_t arrival_us);

/* Serving: delta requests joined (+) or left (-) the queue now. */
void meter_queue(struct meter *m, int64_t now_us, int delta);

/* Fleet: an instance of `kind` starts (+1) or stops (-1) being paid for / being in service. */
void meter_live(struct meter *m, int64_t now_us, enum option_kind kind, int delta);
void meter_in_service(struct meter *m, int64_t now_us, int delta);

/* Model copies (copies.h): each copy holds gpus GPUs and the meter's slots are per copy; from then on
 * busy GPU-hours and time over-provisioned are counted per copy. */
void meter_set_copies(struct meter *m, int gpus);

/* Copies: delta copies start (+) or stop (-) serving now. */
void meter_copies(struct meter *m, int64_t now_us, int delta);

/* A bill: usd for `paid_us` microseconds of one or more instances of kind (already multiplied out), spread
 * evenly over [t0_us, t1_us) (t0_us < t1_us, or both equal for an empty charge): the part of it inside
 * [warmup, horizon) is the measured cost. */
void meter_charge(struct meter *m, const struct meter_payer *pay, enum option_kind kind, double usd,
		  double paid_inst_us, double t0_us, double t1_us);

/* A bill whose measured part the caller works out itself (a Spot price that changes): usd and
 * paid_inst_us for the whole bill, meas_usd and meas_inst_us for its part inside [warmup, horizon). */
void meter_charge_split(struct meter *m, const struct meter_payer *pay, enum option_kind kind, double usd,
			double paid_inst_us, double meas_usd, double meas_inst_us);

/* A commitment of kind still to pay after the horizon (commitment_after_horizon_usd). */
void meter_after_horizon(struct meter *m, enum option_kind kind, double usd);

/* Log an event (detail is copied; may be NULL). */
void meter_event(struct meter *m, int64_t now_us, const char *kind, const char *option, int count,
		 const char *detail);

/* Take one time-series sample at now_us with the current queue length, billing rate and the live instances
 * the jobs hold now (NaN: a run without jobs). */
void meter_sample(struct meter *m, int64_t now_us, int64_t queue_len, double cost_usd_per_h,
		  double instances_jobs);

/* Close the bill: settle the regional RIs, then the Savings Plans (savings.h) against the eligible usage
 * by clock hour, charge the commitments and the on-demand usage they did not cover, and take the ODCR
 * dollars they covered off the ODCR bill. Call once, after the fleet's bills are in. */
void meter_settle(struct meter *m, const struct savings_ri_terms *ris, int nris, const struct savings_plan_terms *plans,
		  int nplans);

/* Freeze integrals at horizon_us. */
void meter_close(struct meter *m, int64_t horizon_us);

/* The run is over (every request served or dropped): close the last SLO window. */
void meter_finish(struct meter *m);

/* Record a failure of the run itself (out of memory); the first one is kept. */
void meter_fail(struct meter *m, int status);

/* Hand buffered rows to the sink. Returns m->status. */
int meter_flush(struct meter *m);

/*
 * SLO windows (meter_window.c; models/README.md "Local time"): aligned to UTC clock times, or with slo.tz to
 * that zone's, on a local clock that never goes back (the repeated hour of a fall-back change stays in the
 * window open when the clock went back; windows the clock jumps over do not occur). meter_window_of: the
 * index of the window holding run time t_us (O(log changes) on a zone's clock); meter_window_next the same
 * for times in order, O(1) but at a change (keeps the segment of the last call); meter_window_start: the
 * run time at which window k starts (its first instant; on a zone's clock a UTC instant like every run time);
 * meter_window_count: the windows that occur over the measured part [warmup, horizon); meter_window_setup:
 * after m->slo and m->start_unix_us are set.
 */
int64_t meter_window_local(const struct meter *m, int64_t t_us);
static inline int64_t meter_window_of(const struct meter *m, int64_t t_us)
{
	if (m->slo.tz)
		return meter_window_local(m, t_us);
	return (t_us + m->slo.window_phase_us) / m->slo.window_us;
}
int64_t meter_window_next(struct meter *m, int64_t t_us);
int64_t meter_window_start(const struct meter *m, int64_t k);
double meter_window_count(const struct meter *m);
void meter_window_setup(struct meter *m);

/* Where bill line (clock hour h, user, option kind, charge kind) lies in m->bill. */
static inline size_t meter_bill_index(int h, int user, int option, int kind)
{
	return (((size_t)h * METER_USERS + (size_t)user) * OPTION_KIND_COUNT + (size_t)option) * CHARGE_KIND_COUNT +
	       (size_t)kind;
}

/* The name of a user in the bill lines (sink_charge.use): "serving", "jobs". */
extern const char *const meter_user_names[METER_USERS];

/* The quantile of each percentile SLO (0.50, 0.90, 0.95, 0.99), by enum scenario_slo_pct. */
extern const double meter_slo_quantile[METER_SLO_PCTS];

/*
 * Conservation identities of a finished run (after meter_finish): every measured request served or dropped
 * and none left in the system; each option's cost and paid GPU-time split between the users without loss;
 * each user's bill lines of an option add up to its cost of it (user_cost_usd);
 * busy GPU-time of each option never above its paid GPU-time. True when all hold; otherwise false with the
 * first broken identity described in why (n bytes). Pure: usable inside assert, and on a meter a test
 * breaks on purpose.
 */
bool meter_conserved(const struct meter *m, char *why, size_t n);

/*
 * Fluid mode (fluid.h) hands its requests over in batches, already counted. meter_served_batch: the
 * latency->n measured requests whose latencies latency holds (NULL: none) were served by now_us. Counts,
 * the latency histograms (the run's, the clock hour's and the SLO window's) and the hour's and the window's
 * rows advance as latency->n calls of meter_served would, except that the violations are the caller's
 * (`violations` requests over the SLO, `viol_service` of them with a service time alone over it), `waited`
 * requests waited, and sojourn_us is their summed time in system. Their waits go into the wait histogram
 * once for the whole run, with meter_waits_batch (the run's wait histogram has no hour or window).
 * meter_dropped_batch is n calls of meter_dropped (why, waited as given) in one. meter_tally_end(t_us):
 * the end of the clock hour and of the SLO window holding t_us, whichever comes first; requests handed
 * over together at times before it land in one hour row and one window.
 */
void meter_served_batch(struct meter *m, int64_t now_us, const struct hist *latency, uint64_t violations,
			uint64_t viol_service, uint64_t waited, double sojourn_us);
void meter_waits_batch(struct meter *m, const struct hist *wait);
void meter_dropped_batch(struct meter *m, int64_t now_us, enum drop_reason why, uint64_t n, uint64_t waited,
			 double sojourn_us);
int64_t meter_tally_end(const struct meter *m, int64_t t_us);

/*
 * Several instance types (meter_types.c; the two that advance the integrals, meter_type_busy and
 * meter_type_in_service, in meter.c). meter_types_set declares them (n <= METER_TYPES_MAX; index 0 is
 * the type the meter was set up with); with n <= 1 nothing changes. Then serving and the fleet report, as
 * they report kinds: a slot of type t becoming busy (+1) or free (-1) with meter_type_busy (after
 * meter_busy), an instance of type t entering (+1) or leaving (-1) service with meter_type_in_service (after
 * meter_in_service), a measured request served on type t with meter_type_served; and name the type in
 * each bill's payer (struct meter_payer). Busy GPU-hours then weigh each busy slot by its type's GPUs per
 * slot, paid GPU-hours each bill by its type's GPUs, and the report adds per-type metrics (type_<name>_...).
 */
void meter_types_set(struct meter *m, int n, const char *const *names, const int *gpus, const int *slots,
		     const double *od_usd_per_h);
void meter_type_busy(struct meter *m, int64_t now_us, int type, enum option_kind kind, int delta);
void meter_type_in_service(struct meter *m, int64_t now_us, int type, int delta);
void meter_type_served(struct meter *m, int type);

/* Internal to the meter (meter_bill.c): the bill lines of the settlement, hour by hour and split between the
 * users, with the users' costs of what it decides (called by meter_settle). */
void meter_bill_settled(struct meter *m, const struct savings_ri_terms *ris, int nris,
			const struct savings_plan_terms *plans, int nplans);

/* Internal to the meter: the mixed-type integrals over dt microseconds (meter_advance), the warm-up
 * snapshot, the GPUs per instance of a type, and the per-type metrics (after list[n]). */
void meter_types_advance(struct meter *m, double dt);
void meter_types_warmup(struct meter *m);
int meter_types_bill_gpus(const struct meter *m, int type);
int meter_types_report(const struct meter *m, struct sink_metric *list, int n);

/* Set list[n] (of METER_MAX_METRICS) to name = value and return n + 1; a full list is left as it is (n).
 * In meter.c, beneath every file that reports metrics (meter_report.c, meter_tokens.c, jobs_teams_report.c). */
int meter_put(struct sink_metric *list, int n, const char *name, double value);

/* Fill list (METER_MAX_METRICS entries) with the named metrics; returns how many. */
int meter_report(const struct meter *m, uint64_t sim_events, double wall_s, struct sink_metric *list);

#endif
