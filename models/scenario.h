/*
 * scenario: one simulated service and plan, loaded from YAML and validated.
 *
 * scenario_load() reads a YAML file through libfyaml, applies `--set path.to.key=value` overrides to the
 * parsed document, and fills a struct scenario, checking every key: an unknown key, a wrong type, a value out
 * of range or a missing required key fails with STATUS_EINPUT and a message "FILE:LINE:COL: KEY.PATH: what
 * was wrong; expected what" in the diag. A missing or unreadable file gives STATUS_ENOENT, an empty file or
 * invalid YAML STATUS_EINPUT. A bad override names the override instead of a position ("--set a.b=x: ...").
 * On failure the struct is left zeroed (scenario_fini() on it is harmless).
 *
 * An override "a.b.0.c=value" edits the parsed document before it is read, so its value is checked exactly
 * like file text: numeric components index lists, a missing last key is added, missing mappings on the way
 * are created, and the target must be a single value (a mapping or list gives "... is not a scalar").
 * Instance type names contain dots, so at each mapping the longest run of components that is an existing key
 * wins ("catalog.p5.48xlarge.usd_per_h=50"); a type created under `catalog:` takes every component but the
 * last. A value or key that an override introduced is reported as "--set a.b=x: a.b: ...".
 *
 * Units are converted at this edge: every duration in the struct is an int64 count of microseconds (the
 * engine's time unit), named *_us; prices are USD per instance-hour (*_usd_per_h). Scenario YAML takes
 * durations either as numbers of seconds or as strings with a unit ("90s", "15m", "36h", "7d", "500ms"), and
 * times as ISO-8601 UTC ("2026-12-01T00:00:00Z").
 *
 * The struct has fixed-size arrays (no pointers but the owned texts), so it can be copied by value for
 * sweeps; scenario_fini() frees the texts.
 */
#ifndef GPUCAP_SCENARIO_H
#define GPUCAP_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "option.h"

#define SCENARIO_FLEET_MAX 16     /* fleet entries per scenario */
#define SCENARIO_NAME_MAX 128     /* bytes in names, including the NUL */
#define SCENARIO_STEPS_MAX 64     /* rate steps per scenario */

enum arrival_kind {
	ARRIVAL_POISSON,  /* Poisson process at rate_per_s (piecewise constant with steps) */
	ARRIVAL_UNIFORM   /* evenly spaced arrivals at the same rate: a deterministic load for tests */
};

/* From at_us on, the arrival rate is rate_per_s (until the next step). */
struct rate_step {
	int64_t at_us;      /* when the step takes effect, > the previous step's, <= horizon */
	double rate_per_s;  /* requests per second from then on, >= 0 */
};

enum service_kind {
	SERVICE_CONSTANT,     /* every request takes mean_s */
	SERVICE_EXPONENTIAL,  /* exponential with mean mean_s */
	SERVICE_LOGNORMAL     /* lognormal with mean mean_s and coefficient of variation cv */
};

enum policy_kind {
	POLICY_NONE,            /* fixed fleet */
	POLICY_TARGET_TRACKING  /* Application Auto Scaling target tracking (FACTS.md 6) */
};

enum metric_kind {
	METRIC_CONCURRENCY,  /* concurrency_per_instance: busy slots / slots in service, a fraction */
	METRIC_INVOCATIONS   /* invocations_per_instance: arrivals per minute per instance in service */
};

struct fleet_entry {
	enum option_kind option;  /* purchase option */
	int count;                /* instances at the start (reserved: the reservation size) */
	int max;                  /* most instances this entry may hold; reserved: equals count */
	double usd_per_h;         /* price per instance-hour; filled from the catalogue when not given */
	bool price_given;         /* true if the scenario set usd_per_h */
};

struct scenario {
	char name[SCENARIO_NAME_MAX];  /* `name`, required */
	uint64_t seed;                 /* `seed`, default 1 */
	int64_t start_unix_s;          /* `start`, seconds since 1970-01-01T00:00:00Z; default 2026-01-01 */
	int64_t horizon_us;            /* `horizon`, simulated length, > 0, at most 400 days */
	int64_t sample_period_us;      /* `sample_period`, time-series resolution, default 60 s */

	struct {
		int64_t latency_us;    /* `slo.latency_s`: end-to-end latency threshold, > 0 */
	} slo;

	struct {
		enum arrival_kind kind;  /* `workload.arrivals.kind`: poisson | uniform */
		double rate_per_s;       /* `workload.arrivals.rate_per_s`, > 0: the rate from t = 0 */
		struct rate_step steps[SCENARIO_STEPS_MAX];  /* `workload.arrivals.steps`: later rates */
		int nsteps;              /* steps used, 0 when the rate is constant */
	} arrivals;

	struct {
		enum service_kind kind;  /* `workload.service.kind` */
		double mean_s;           /* `workload.service.mean_s`, > 0 */
		double cv;               /* `workload.service.cv` (lognormal only), > 0; default 1 */
	} service;

	struct {
		char instance_type[SCENARIO_NAME_MAX];  /* `serving.instance_type`, from the catalogue */
		int gpus;                 /* GPUs per instance, from the catalogue (or `catalog:` override) */
		double od_usd_per_h;      /* On-Demand price of the type, USD per instance-hour */
		double reserved_usd_per_h;/* reserved price of the type (catalogue: OD less reserved_discount) */
		int slots;                /* `serving.slots_per_instance`, requests served at once, >= 1 */
		int64_t queue_timeout_us; /* `serving.queue_timeout_s`; 0 = wait as long as needed */
		int64_t startup_us;       /* `serving.startup_s`, launch-to-ready delay, default 420 s */
		int max_queue;            /* `serving.max_queue`, requests refused beyond it, default 1000000 */
	} serving;

	struct fleet_entry fleet[SCENARIO_FLEET_MAX];  /* `fleet`, in allocation order */
	int nfleet;                                    /* entries used, >= 1 */

	struct {
		enum policy_kind policy;        /* `autoscaling.policy`, default none */
		enum metric_kind metric;        /* `autoscaling.metric`, default concurrency_per_instance */
		double target;                  /* `autoscaling.target`, > 0 */
		int min;                        /* `autoscaling.min`, >= 0 */
		int max;                        /* `autoscaling.max`, >= min */
		int64_t resolution_us;          /* `autoscaling.resolution_s`, metric period, default 60 s */
		int64_t scale_out_cooldown_us;  /* `autoscaling.scale_out_cooldown_s`, default 300 s */
		int64_t scale_in_cooldown_us;   /* `autoscaling.scale_in_cooldown_s`, default 300 s */
		double scale_in_margin;         /* `autoscaling.scale_in_margin`: scale in only below
		                                   target x (1 - margin); default 0.10 (FACTS.md 6) */
	} autoscaling;

	char *path;       /* the file loaded, owned; NULL for scenario_parse_string */
	char *text;       /* the file's full text as read, owned */
	char *overrides;  /* the --set overrides, one per line, owned; "" when none */
};

/*
 * Load `path`, apply `nsets` overrides ("a.b.0.c=value", borrowed), validate, and fill *sc (caller-owned,
 * need not be initialised). Returns STATUS_OK, or STATUS_ENOENT / STATUS_EINPUT / STATUS_ENOMEM with the
 * message in *d; on failure *sc is zeroed.
 */
int scenario_load(struct scenario *sc, const char *path, const char *const *sets, int nsets,
		  struct diag *d);

/*
 * As scenario_load, but from YAML text in memory; `label` (borrowed) stands for the file name in messages.
 */
int scenario_parse_string(struct scenario *sc, const char *text, const char *label,
			  const char *const *sets, int nsets, struct diag *d);

/* Free the texts a loaded scenario owns and zero it. NULL is allowed. */
void scenario_fini(struct scenario *sc);

/* The scenario spellings of the enums ("poisson", "lognormal", "target_tracking", ...). */
const char *scenario_service_name(enum service_kind k);
const char *scenario_policy_name(enum policy_kind k);
const char *scenario_metric_name(enum metric_kind k);

#endif
