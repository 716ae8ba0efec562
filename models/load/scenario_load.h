/*
 * scenario_load: what the parts of the scenario loader share. models/scenario*.c (except scenario_names.c,
 * which belongs with the config type scenario.h, and scenario_schema*.c, which reads the tables below) is one
 * module family, like SQLite's where*.c with whereInt.h; this header is private to it.
 *
 * The family is layered, and calls only downwards (no cycle):
 *     scenario.c            the orchestrator: reads the top level, serving and autoscaling's own keys, and
 *                           calls the section readers in dependency order (read_all)
 *     scenario_<section>.c  one part of the file each: scenario_workload.c the workload (and checks
 *                           slo.ttft_s against the service), scenario_fleet.c the fleet list and the option
 *                           readers beside it (scenario_spot/block/plan/dws/delay.c), scenario_zones.c the
 *                           zones (read before the fleet, which is handed them), scenario_policy.c the
 *                           policies' keys, scenario_jobs.c the jobs, ...
 *     scenario_price.c      what a fleet entry pays and buys, shared by the option readers
 *     scenario_catalog.c    the instance types (catalog: and the built-in catalogue)
 *     scenario_slo.c        slo (the top level's, and each model's)
 *     scenario_keys.c       key checks shared by the readers
 *     scenario_read.c       the small readers every reader uses (durations, times, ints, paths, warnings)
 *     yamldoc.c             YAML with positioned messages (not part of the family: sweep files use it too)
 *
 * A load in progress lives in a struct load: the parsed YAML, the scenario being filled (copied to the
 * caller only when every step has succeeded), the refs that later cross-checks point back into, and the
 * serving instance type after the scenario's `catalog:` overrides.
 *
 * Every reader returns STATUS_OK or a failure status with the message in l->y.d, positioned as
 * yamldoc.h describes; readers of optional values leave *out unchanged when the key is absent, so a
 * caller sets the default first. Warnings (scenario_load_warn) are positioned the same way but do not stop
 * the load; they are collected in l->sc.warnings.
 */
#ifndef GPUCAP_SCENARIO_LOAD_H
#define GPUCAP_SCENARIO_LOAD_H

/* Private to models/load/ (the build defines GPUCAP_IN_LOAD there alone), and to scenario_schema.h, whose
 * tables name the loader's own (key lists, names, bounds). */
#if !defined(GPUCAP_IN_LOAD) && !defined(GPUCAP_SCENARIO_SCHEMA_H)
#error "scenario_load.h is private to models/load/ (models/ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pricelist.h"
#include "scenario.h"
#include "yamldoc.h"

#define S_US INT64_C(1000000)
#define DAY_US (86400 * S_US)
#define MAX_INSTANCES 100000    /* per fleet entry, and for autoscaling min/max */
#define MAX_USD_PER_H 100000.0  /* a sanity bound on any hourly price */
#define MAX_SLOTS 4096          /* serving.slots_per_instance, and so the most requests an instance serves */
#define MAX_GPUS 64             /* GPUs of one instance type */

/* The instance type the scenario serves on, after the scenario's catalog: overrides. */
struct instance_type {
	int gpus;                      /* GPUs per instance */
	int vcpus;                     /* vCPUs per instance; 0 = unknown (a new type that does not say) */
	double od_usd_per_h;           /* On-Demand price, USD per instance-hour */
	double reserved_discount;      /* fraction off On-Demand, 1-year reservation */
	double reserved_3y_discount;   /* fraction off On-Demand, 3-year reservation */
	double savings_plan_discount;  /* fraction off On-Demand under a Savings Plan */
	double spot_discount;          /* typical Spot fraction off On-Demand */
	double cb_usd_per_h;           /* Capacity Block rate per instance-hour; 0 = unknown */
	enum provider provider;        /* whose type it is: the catalogue row's, or catalog:'s `provider` */
	bool provider_given;           /* a catalog: entry wrote `provider` */
	unsigned sells;                /* time-bound products of the type (catalog.h enum catalog_product) */
	struct {                       /* reserved prices from a price list (scenario_prices.c), by [term: 1y,
	                                  3y][enum payment_kind]; not given: the discount's split applies */
		double usd_per_h;      /* the hourly part, USD per instance-hour */
		double upfront_usd;    /* per instance, for the whole term */
		bool given;
	} ri[2][3];
	unsigned price_files;          /* the prices: entries (bit i: entry i) that priced the type; 0 = none */
};

#define SCENARIO_PRICE_FILES 8     /* entries of `prices:` */

/* One `prices:` entry, read (scenario_prices.c). */
struct load_prices {
	struct pricelist list;         /* its rows of the region; owned */
	struct yamldoc_ref ref;        /* the entry, for notes */
	enum pricelist_format format;  /* `format` */
	bool convertible;              /* `offering_class: convertible` */
	char file[SCENARIO_NAME_MAX];  /* `file` as written */
	char region[PRICELIST_NAME_MAX];  /* `region`, or its default */
	bool used;                     /* it priced a type the scenario uses */
	struct pricelist_machine machines[PRICELIST_MACHINES_MAX];  /* gcp_skus `machines` */
	int nmachines;                 /* in machines */
};

/* One load in progress. The refs live here, not on the stack, because the cross-checks at the end point
 * back into them (a ref keeps a pointer to its parent). */
struct load {
	struct yamldoc y;
	struct scenario sc;        /* copied to the caller on success; its traces and warnings are owned */
	struct yamldoc_ref root;
	struct yamldoc_ref fleet;
	struct yamldoc_ref autoscaling;
	struct instance_type type;
	struct instance_type types[SCENARIO_TYPES_MAX];  /* sc.types[i] as the catalogue has it (scenario_types.c) */
	const char *path;          /* the scenario file (borrowed), for resolving trace paths; NULL for text */
	size_t warnings_len;       /* bytes used in sc.warnings (which is NULL until the first warning) */
	bool min_given;            /* autoscaling.min was written */
	bool max_given;            /* autoscaling.max was written */
	int fleet_item[SCENARIO_FLEET_MAX];  /* the `fleet` list item each sc.fleet entry was read from (a
	                                        training plan's segments are one entry each, scenario_plan.c) */
	int nplans;                /* training_plan entries read so far (the next plan_id) */
	int plan_segments;         /* sc.fleet entries the last training_plan entry filled */
	struct load_prices prices[SCENARIO_PRICE_FILES];  /* `prices:` (scenario_prices.c) */
	int nprices;               /* entries read */
	bool prices_read;          /* `prices:` was read (it is read on the first type resolved) */
};

/* ---- price lists, in scenario_prices.c ------------------------------------------------------------ */

/* Read `prices:` once (each file, for its region); later calls do nothing. */
int scenario_load_prices(struct load *l);

/* Lay the price lists' prices of type `name` over *t (a built-in row's or a new type's values), in list
 * order: On-Demand, reserved by term and payment (of each entry's offering class, and the 1- and 3-year
 * discounts recomputed from the no-upfront, else the first payment given), Capacity Block rate. */
void scenario_load_prices_apply(const struct load *l, const char *name, struct instance_type *t);

/* Add the note that says where type `name`'s prices came from (one per priced type), a scenario warning. */
int scenario_load_prices_note(struct load *l, const char *name, const struct instance_type *t);

/* Fail at a `prices:` entry that priced none of the scenario's types (after serving.types is read). */
int scenario_load_prices_unused(struct load *l);

/* Free the price lists (the load's end, whatever its outcome). */
void scenario_load_prices_fini(struct load *l);

/* ---- the small readers, in scenario_read.c --------------------------------------------------------- */

/* A duration (units_parse_duration) in microseconds: > lo_us (lo_open) or >= lo_us, and <= hi_us. */
int scenario_load_duration(struct load *l, const struct yamldoc_ref *r, int64_t lo_us, bool lo_open,
			   int64_t hi_us, int64_t *out_us);

/* An ISO-8601 UTC time (units_parse_time_us) in microseconds since the epoch, fractions of a second kept. */
int scenario_load_time(struct load *l, const struct yamldoc_ref *r, int64_t *out_unix_us);

/* An int-sized integer in [lo, hi]. */
int scenario_load_int(struct load *l, const struct yamldoc_ref *r, int lo, int hi, int *out);

/* The child `key` of map, which must be present; `what` explains it in the message when it is not. */
int scenario_load_required(struct load *l, const struct yamldoc_ref *map, const char *key,
			   const char *what, struct yamldoc_ref *out);

/*
 * The path at r into buf (SCENARIO_PATH_MAX bytes), resolved against the scenario file's folder: an absolute
 * path, or any path when the scenario has no file (scenario_parse_string), is kept as written. The resolved
 * path is recorded in sc.inputs (scenario.h): every file a scenario names is read through here.
 */
int scenario_load_path(struct load *l, const struct yamldoc_ref *r, char *buf);

/*
 * Add the warning "FILE:LINE:COL: KEY.PATH: message" (placed like an error at r) as one line of
 * l->sc.warnings. Returns STATUS_OK, or STATUS_ENOMEM with a message in the diag.
 */
int scenario_load_warn(struct load *l, const struct yamldoc_ref *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * True if the scenario serves a real-time endpoint without copies, whose capacity may not go below one
 * instance (SOURCES.md [sm-realtime-min1]: a real-time variant's minimum "is required to be 1 or higher";
 * scale-to-zero is only for inference components). Needs serving read first.
 */
bool scenario_load_needs_one(const struct load *l);

/* Fail at r (a min or max of value n) if n is 0 where scenario_load_needs_one. */
int scenario_load_check_zero(struct load *l, const struct yamldoc_ref *r, int n);

/* ---- key checks shared by the readers, in scenario_keys.c --------------------------------------- */

/* True if name is one of keys (NULL-terminated). */
bool scenario_load_listed(const char *name, const char *const *keys);

/* keys joined by ", " into buf (size bytes); returns buf. */
const char *scenario_load_join(const char *const *keys, char *buf, size_t size);

/* Fail if both keys a and b of map are given (at b): they set the same thing. */
int scenario_load_exclusive(struct load *l, const struct yamldoc_ref *map, const char *a, const char *b);

/* Fail if key is given in map without `needs` (at key). */
int scenario_load_only_with(struct load *l, const struct yamldoc_ref *map, const char *key,
			    const char *needs);

/*
 * Every key of the mapping map (n pairs) must belong to variant `kind` of nkinds, whose keys are
 * by_kind[kind]: a key of another variant "does not apply to WORD NAME" (WORD may be NULL: "to NAME"),
 * any other key is unknown.
 */
int scenario_load_check_keys(struct load *l, const struct yamldoc_ref *map, int n,
			     const char *const *const *by_kind, int nkinds, int kind, const char *word,
			     const char *name);

/* ---- the instance types, in scenario_catalog.c ----------------------------------------------------- */

/* Check every entry of `catalog:` and resolve the instance type `type` (written at `it`, for the message when
 * it is unknown) into *out: the scenario's catalog: entry, else the built-in catalogue's row. */
int scenario_load_type(struct load *l, const struct yamldoc_ref *it, const char *type,
		       struct instance_type *out);

/* Is the entry's type (l->type, named in l->sc.serving.instance_type while the entry is read) sold as
 * `product` (one catalog.h SELLS_ bit)? STATUS_OK, else the error at the entry's `option`, quoting the rule
 * (SOURCES.md [sold-types]) and how a catalog: entry may assume otherwise. */
int scenario_load_check_sold(struct load *l, const struct yamldoc_ref *e, unsigned product);

/* Fill the serving fields that come from the type (gpus, vcpus, prices, discounts) from l->type. */
void scenario_load_serve_type(struct load *l);

/* ---- several instance types, in scenario_types.c ------------------------------------------------ */

/* Set sc.types[0] from the serving type and read the optional `types` of the mapping serving (after
 * slots_per_instance and copies). */
int scenario_load_types(struct load *l, const struct yamldoc_ref *serving);

/* A decode_table (the list at `list`) into out[0..*n) (scenario_workload.c). */
int scenario_load_decode_table(struct load *l, const struct yamldoc_ref *list, struct decode_point *out,
			       int *n);

/* Read autoscaling.capacity_unit (after its policy and metrics, and serving). */
int scenario_load_capacity_unit(struct load *l);

/* Read fleet entry e (option and use already read) with `read`, as an instance of the entry's
 * `instance_type` (default the serving type): while `read` runs, l->type and the type fields of
 * l->sc.serving are that type's, so its defaults (prices, discounts) come from it. Sets f->type. */
int scenario_load_typed_entry(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f,
			      int (*read)(struct load *, const struct yamldoc_ref *, struct fleet_entry *));

/* ---- launch delays, in scenario_delay.c ---------------------------------------------------------- */

/* Read the optional `startup` of a fleet entry (the mapping e) into *out; absent: DELAY_DEFAULT. */
int scenario_load_startup(struct load *l, const struct yamldoc_ref *e, struct delay_dist *out);

/* ---- model copies, in scenario_copies.c --------------------------------------------------------- */

/* Read the optional `copies` of the mapping serving (after the instance type: GPUs bound the copies). */
int scenario_load_copies(struct load *l, const struct yamldoc_ref *serving);

/* With copies, once the fleet and autoscaling's bounds are known: check min_instances and initial against
 * the fleet's capacity (instances) and default initial to `counted` starting instances' worth of copies. */
int scenario_copies_finish(struct load *l, int capacity, int counted);

/* ---- the workload, in scenario_workload.c ------------------------------------------------------- */

/*
 * Read `workload` (arrivals, sizes, service) into l->sc, scanning a request trace and opening rate-series
 * files (their failures pass on: STATUS_ENOENT or STATUS_EINPUT naming the file), then check the service
 * kind against the arrivals and slo.ttft_s (read before, with slo) against the service kind.
 */
int scenario_load_workload(struct load *l);

/* The `slo` of the mapping at l->root, into l->sc.slo (scenario_slo.c). */
int scenario_load_slo(struct load *l);

/* ---- several models and MIG partitions, in scenario_models.c ------------------------------------- */

/*
 * `models`: when the root has it, read each entry's slo and workload with the loaders above (l->root pointing
 * at the entry meanwhile) into sc.models, and refuse a top-level slo or workload; else nothing (nmodels 0).
 */
int scenario_load_models(struct load *l);

/* `serving.partitions` and the models' `partition`, checked against the serving type's GPU; and what
 * several models cannot be combined with. After everything else. */
int scenario_load_partitions(struct load *l);
extern const struct scenario_load_names scenario_load_model_keys, scenario_load_partitions_keys;

/* ---- step scaling, in scenario_policy.c -------------------------------------------------------- */

/*
 * Read the step-scaling keys of `autoscaling` (adjustment_type, min_adjustment_magnitude, scale_out,
 * scale_in) into l->sc.autoscaling; they are refused under any other policy. Needs autoscaling's own keys.
 */
int scenario_load_step(struct load *l);

/* Read the Kubernetes HPA keys of `autoscaling` (tolerance, stabilization_window_s, scale_up_percent,
 * scale_up_pods), with their documented defaults; they are refused under another policy. */
int scenario_load_hpa(struct load *l);

/* Read `autoscaling.schedule` (scheduled actions, any policy) into l->sc.autoscaling.schedule; needs the
 * scenario start. */
int scenario_load_schedule(struct load *l);

/* The predictive policy's keys (scenario_policy.c): forecast, lead_s, alpha, beta, gamma; refused under
 * another policy. Needs serving and the autoscaling timing read first. */
int scenario_load_predictive(struct load *l);

/* ---- what an entry pays and buys, in scenario_price.c ---------------------------------------------- */

/* An entry's `usd_per_h` into f->usd_per_h, which holds the default; f->price_given says whether it was written. */
int scenario_load_entry_price(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);

/* A required `count` in [lo, hi] (what: the missing-key hint); the entry holds exactly that many (max = count). */
int scenario_load_bought(struct load *l, const struct yamldoc_ref *e, int lo, int hi, const char *what,
			 struct fleet_entry *f);

/* ---- the fleet, in scenario_fleet.c ----------------------------------------------------------------- */

/* The readers of one option's entry, after its keys are checked: on_demand and spot (with gcp_dws_flex and
 * gcp_preemptible) in scenario_spot.c, capacity_block (with gcp_calendar and azure_block) in scenario_block.c. */
int scenario_load_on_demand(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);
int scenario_load_spot(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);
int scenario_load_capacity_block(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);

/* An odcr entry's dates (scenario_odcr.c): `start`, `end` and `commitment_duration` into f's start_us,
 * duration_us (0: unlimited) and commitment_us, all 0 when none is given (the entry's type must stand in as
 * the serving type, as in a read_entry reader). */
int scenario_load_odcr_dates(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);

/* Read `fleet` into l->sc.fleet (autoscaling's own keys must have been read: max defaults depend on them;
 * `zones` too: the zones are handed to it in l->sc.zones, and an entry's `zone` must name one), then check
 * that Spot entries of one zone agree on their pool's reclaim keys. */
int scenario_load_fleet(struct load *l);

/* The top-level `commitments` list into sc.commit (scenario_fleet.c); after the fleet. */
int scenario_load_commitments(struct load *l);

/* The `fleet` list item that sc.fleet[i] was read from, into *out (for messages about entry i). */
void scenario_load_fleet_item(const struct load *l, int i, struct yamldoc_ref *out);

/*
 * A training_plan entry (its option and keys checked, startup read) at e into f[0], f[1], ...: one sc.fleet
 * entry per segment, in the order written, each with the entry's own fields (use, startup, expiry notice),
 * plan_id and segment set. `room` is how many entries f may fill; l->plan_segments says how many it did.
 * In scenario_plan.c.
 */
int scenario_load_plan(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f, int room);

/* ---- zones, in scenario_zones.c ------------------------------------------------------------------- */

/* Read `zones` into l->sc.zones (before the fleet, which is handed them: entries name them). */
int scenario_load_zones(struct load *l);

/* A fleet entry's `zone` into f->zone (0 when absent); the zone must be listed in `zones`. */
int scenario_load_zone(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);

/* ---- Google Cloud DWS and Azure Spot eviction, in scenario_dws.c ------------------------------------ */

/* A gcp_dws_flex entry's `max_wait_s` into f->max_wait_us (default 7200 s, the documented most); the key on
 * any other on_demand entry is an error. */
int scenario_load_dws_wait(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);

/* An azure Spot entry's `eviction_policy` (deallocate, the default, | delete) and `disk_usd_per_h` (default 0)
 * into f; either key on a Spot entry of another provider, or disk_usd_per_h with delete, is an error. */
int scenario_load_eviction(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);

/* Read `quotas`, `launch_retry` and `allocation` (after the fleet: mixed allocation needs a spot entry). */
int scenario_load_limits(struct load *l);

/* Autoscaling's defaults that depend on the fleet (min, max), then the checks across the two. */
int scenario_load_finish(struct load *l);

/* Read `timezone` (scenario_tz.c; after the workload, whose speedup and offset it needs) into sc.tz. */
int scenario_load_timezone(struct load *l);

/* ---- the run mode, in scenario_mode.c ---------------------------------------------------------- */

/* Read `mode` and `fluid` (last: fluid mode refuses, by key, the features it does not model). */
int scenario_load_mode(struct load *l);

/* ---- GPU metrics, in scenario_gpumetric.c -------------------------------------------------------- */

/* Read serving.kv_cache.preallocate and autoscaling.metric_delay_s, and check the GPU metrics against the
 * rest (last: needs serving, the KV cache, autoscaling, copies and the mode). */
int scenario_load_gpumetric(struct load *l);
#define SCENARIO_MAX_METRIC_DELAY_US (3600 * S_US)  /* autoscaling.metric_delay_s: at most 1 h */

/* ---- jobs, in scenario_jobs.c, scenario_jobfile.c (the CSV) and scenario_job.c (one job) -------------- */

#define MAX_JOBS 100000        /* jobs in `jobs.list` and `jobs.trace` together */
#define MAX_JOB_US (400 * DAY_US)  /* a job's durations (checkpoint interval and cost, restart overhead) */
#define MAX_PRIORITY 1000000       /* a job's priority, -MAX_PRIORITY .. MAX_PRIORITY */

/*
 * Right after the top level (before slo and the workload): a scenario with `jobs` and no `workload` has no
 * traffic (l->sc.no_traffic); `slo` and `autoscaling` are then refused, since nothing would be served.
 */
int scenario_load_traffic(struct load *l);

/* A fleet entry's `use` and `serving_hours` into f (the entry's option and keys checked first). */
int scenario_load_use(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f);

/* Read `jobs` into l->sc.jobs (after the fleet: a job must fit in an entry its policy can use). */
int scenario_load_jobs(struct load *l);

/* Append the rows of the CSV at l->sc.jobs.trace (named by the key at trace) to l->sc.jobs.list. */
int scenario_load_jobfile(struct load *l, const struct yamldoc_ref *trace);

/* `jobs.teams`, `jobs.priority_classes` and `jobs.fair_share` (scenario_teams.c), before the list. */
int scenario_load_teams(struct load *l, const struct yamldoc_ref *jobs);

/* A list job's `team` (required with teams) and `priority_class` (its weight becomes j->priority). */
int scenario_load_job_team(struct load *l, const struct yamldoc_ref *e, struct job_spec *j);

/* Append *j to l->sc.jobs.list (at most MAX_JOBS in all; r places the message when there are more). */
int scenario_jobs_append(struct load *l, const struct yamldoc_ref *r, const struct job_spec *j);

/* Whether jobs under policy p may take instances from entry f (scenario_job.c, like what follows). */
bool scenario_jobs_usable(enum job_policy p, const struct fleet_entry *f);

/* The UTC time at t_us from the scenario start, to the second, into buf (32 bytes); returns buf. */
const char *scenario_jobs_utc(const struct load *l, int64_t t_us, char *buf);

/*
 * The checks of one job that need the scenario, shared by the list and the CSV: each writes into msg
 * (size bytes) what was wrong and returns false, or returns true. Submit: not before the scenario start
 * (submit_us >= 0); deadline: after submit; fit: instances within the largest entry the policy can use.
 */
bool scenario_jobs_submit_ok(const struct load *l, const struct job_spec *j, char *msg, size_t size);
bool scenario_jobs_deadline_ok(const struct load *l, const struct job_spec *j, char *msg, size_t size);
bool scenario_jobs_fit_ok(const struct load *l, const struct job_spec *j, char *msg, size_t size);

/*
 * `submit` or `deadline` text s: a UTC time, or a duration after base_us (the scenario start: 0; the
 * submission); into *out_us from the scenario start. False when s is neither.
 */
bool scenario_jobs_when(const struct load *l, const char *s, int64_t base_us, int64_t *out_us);

/* ---- tables shared with the schema (scenario_schema.c) -------------------------------------------- */

/*
 * The loader's own tables, exported so that `gpucap schema` is generated from what the loader checks and
 * cannot drift from it: key lists (NULL-terminated; n counts the keys), choices as yamldoc_choice
 * reads them, per-variant key lists, and the bounds the loader reads numbers with. Defined next to the
 * readers that use them (scenario.c, scenario_workload.c, scenario_fleet.c, scenario_policy.c,
 * scenario_copies.c, scenario_delay.c).
 */
struct scenario_load_names {
	const char *const *names;  /* names[0..n) */
	int n;
};

/* A mapping whose keys depend on one of its keys (arrivals' kind, a fleet entry's option). */
struct scenario_load_variants {
	const char *key;                 /* the key that selects the variant: "kind", "option" */
	const char *const *names;        /* its values, names[0..n); NULL: option_kind_name(i) */
	int n;                           /* variants */
	const char *const *const *keys;  /* keys[i]: the keys of variant i, NULL-terminated */
};

#define SCENARIO_LOAD_KEYS(a) { a, (int)(sizeof (a) / sizeof (a)[0]) - 1 }  /* a NULL-terminated list */
#define SCENARIO_LOAD_NAMES(a) { a, (int)(sizeof (a) / sizeof (a)[0]) }     /* choices */

/* scenario_batching.c: workload.service.batching, prefill, chunk_tokens (service kind tokens), and the KV
 * cache (serving.kv_cache_tokens or serving.kv_cache; after copies). STATUS_OK or a message. */
int scenario_load_batching(struct load *l, const struct yamldoc_ref *svc);
int scenario_load_kv(struct load *l, const struct yamldoc_ref *serving);
/* serving.prefix_cache_blocks and serving.routing (after the workload and the KV cache). STATUS_OK or a
 * message. */
int scenario_load_prefix(struct load *l, const struct yamldoc_ref *serving);
/* serving.routing, queue and prefix_threshold (scenario_routing.c; after the prefix cache). */
int scenario_load_routing(struct load *l, const struct yamldoc_ref *serving);
/* workload.prefix_reuse: the synthetic reuse model (in the workload, before serving). STATUS_OK or a
 * message. */
int scenario_load_reuse(struct load *l, const struct yamldoc_ref *workload);
extern const struct scenario_load_names scenario_load_batching_names, scenario_load_prefill_names,
	scenario_load_kv_keys, scenario_load_routing_names, scenario_load_reuse_keys,
	scenario_load_queue_names;
extern const struct yamldoc_bounds *const scenario_load_reuse_share;

/* workload.arrivals kind cloudwatch (scenario_cloudwatch.c): its keys, then, after the transforms, the file
 * read and its warnings (a no-op for other kinds). STATUS_OK or a message. */
int scenario_load_cloudwatch(struct load *l, const struct yamldoc_ref *arr);
int scenario_load_cloudwatch_check(struct load *l, const struct yamldoc_ref *arr);
extern const struct scenario_load_names scenario_load_cw_stat_names, scenario_load_cw_gaps_names,
	scenario_load_cw_within_names;

/* serving.multi_model (scenario_mme.c), read last: it refuses what it does not combine with. STATUS_OK or a
 * message. */
int scenario_load_mme(struct load *l);
extern const struct scenario_load_names scenario_load_mme_keys, scenario_load_mme_model_keys;
extern const struct yamldoc_bounds *const scenario_load_mme_memory, *const scenario_load_model_share;

/* scenario.c, scenario_slo.c (slo_keys, rate_share), scenario_catalog.c (type_keys, type_price,
 * type_fraction) */
extern const struct scenario_load_names scenario_load_top_keys, scenario_load_slo_keys,
	scenario_load_serving_keys, scenario_load_autoscaling_keys, scenario_load_type_keys,
	scenario_load_also_keys, scenario_load_policy_names, scenario_load_metric_names,
	scenario_load_interrupt_names, scenario_load_endpoint_names;
extern const struct yamldoc_bounds *const scenario_load_type_price, *const scenario_load_type_fraction,
	*const scenario_load_concurrency_target, *const scenario_load_invocations_target,
	*const scenario_load_rate_share, *const scenario_load_gpu_target;
/* scenario_workload.c */
extern const struct scenario_load_names scenario_load_workload_keys, scenario_load_rate_step_keys,
	scenario_load_sizes_keys, scenario_load_column_keys, scenario_load_decode_keys,
	scenario_load_slowdown_keys, scenario_load_trace_format_names, scenario_load_time_format_names, scenario_load_series_format_names,
	scenario_load_bool_names;
extern const struct scenario_load_variants scenario_load_arrivals, scenario_load_service, scenario_load_size;
extern const struct yamldoc_bounds *const scenario_load_positive_rate, *const scenario_load_any_rate,
	*const scenario_load_cv, *const scenario_load_tokens, *const scenario_load_token_speed,
	*const scenario_load_amplitude, *const scenario_load_hour, *const scenario_load_factor,
	*const scenario_load_magnitude, *const scenario_load_scale, *const scenario_load_speedup,
	*const scenario_load_growth, *const scenario_load_slowdown_factor;
/* scenario_spot.c, scenario_limits.c, scenario_fleet.c, scenario_price.c */
extern const struct scenario_load_names scenario_load_outage_keys, scenario_load_band_names;
extern const struct scenario_load_names scenario_load_quota_keys, scenario_load_retry_keys,
	scenario_load_allocation_keys, scenario_load_strategy_names;
extern const struct scenario_load_names scenario_load_term_names, scenario_load_payment_names,
	scenario_load_scope_names;
extern const struct scenario_load_variants scenario_load_option, scenario_load_commit_option;
extern const struct yamldoc_bounds *const scenario_load_price, *const scenario_load_rate,
	*const scenario_load_upfront, *const scenario_load_fraction, *const scenario_load_share,
	*const scenario_load_commit, *const scenario_load_interruption, *const scenario_load_reclaim,
	*const scenario_load_multiplier, *const scenario_load_percent;
/* scenario_zones.c */
extern const struct scenario_load_names scenario_load_zone_keys, scenario_load_zone_outage_keys;
/* scenario_policy.c */
extern const struct scenario_load_names scenario_load_step_keys, scenario_load_alarm_keys,
	scenario_load_adjustment_keys, scenario_load_adjustment_names, scenario_load_comparison_names,
	scenario_load_hpa_keys, scenario_load_action_keys, scenario_load_predictive_keys,
	scenario_load_forecast_names;
extern const struct yamldoc_bounds *const scenario_load_any_number, *const scenario_load_tolerance,
	*const scenario_load_scale_up_percent, *const scenario_load_open_unit;
/* scenario_copies.c */
extern const struct scenario_load_names scenario_load_copies_keys;
/* scenario_types.c */
extern const struct scenario_load_names scenario_load_serving_type_keys, scenario_load_capacity_unit_names;
extern const struct yamldoc_bounds *const scenario_load_service_scale;
/* scenario_dws.c */
extern const struct scenario_load_names scenario_load_eviction_names;
/* scenario_delay.c */
extern const struct scenario_load_names scenario_load_startup_keys, scenario_load_startup_names;
/* scenario_jobs.c; job_keys and job_policy_names in scenario_job.c */
extern const struct scenario_load_names scenario_load_jobs_keys, scenario_load_failure_keys,
	scenario_load_job_keys, scenario_load_job_policy_names, scenario_load_recovery_names,
	scenario_load_use_names, scenario_load_job_list_keys;
/* scenario_teams.c; scenario_load_work in scenario_job.c */
extern const struct scenario_load_names scenario_load_team_keys, scenario_load_class_keys,
	scenario_load_lending_names;
extern const struct yamldoc_bounds *const scenario_load_work, *const scenario_load_failure_rate;
/* scenario_mode.c */
extern const struct scenario_load_names scenario_load_mode_names, scenario_load_fluid_keys;
extern const struct scenario_load_names scenario_load_provider_names;  /* aws, gcp, azure */
extern const struct scenario_load_names scenario_load_product_names;   /* catalog: sells */
/* scenario_prices.c */
extern const struct scenario_load_names scenario_load_price_keys, scenario_load_price_formats,
	scenario_load_offering_classes, scenario_load_machine_keys;
extern const struct yamldoc_bounds *const scenario_load_machine_gib;
/* scenario_plan.c */
extern const struct scenario_load_names scenario_load_segment_keys;
extern const struct yamldoc_bounds *const scenario_load_startup_cv;

#endif
