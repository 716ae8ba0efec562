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
 * The struct owns its texts (path, text, overrides, warnings), the list of the files it names (inputs) and
 * the traces a fleet entry names (spot prices, availability), which are read and checked while loading, so a
 * malformed trace is bad input like a malformed key and a run never starts on one. scenario_fini() frees all
 * of it; do not copy a loaded struct by value (the copies would share those buffers).
 */
#ifndef GPUCAP_SCENARIO_H
#define GPUCAP_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "availtrace.h"
#include "cron.h"
#include "cwmetrics.h"
#include "diag.h"
#include "option.h"
#include "provider.h"
#include "pricetrace.h"
#include "tracefile.h"

#define SCENARIO_FLEET_MAX 64     /* fleet entries per scenario (a training plan's segments count one each) */
#define SCENARIO_COMMIT_MAX 16    /* `commitments` entries per scenario */
#define SCENARIO_NAME_MAX 128     /* bytes in names, including the NUL */
#define SCENARIO_STEPS_MAX 64     /* rate steps per scenario */
#define SCENARIO_OUTAGES_MAX 16   /* capacity outage windows per fleet entry */
#define SCENARIO_PATH_MAX 1024    /* bytes in a resolved trace path, including the NUL */
#define SCENARIO_ALARM_STEPS_MAX 10  /* step adjustments per step-scaling alarm */
#define SCENARIO_ALARM_PERIODS_MAX 100  /* an alarm's evaluation_periods, at most */
#define SCENARIO_SCHEDULE_MAX 32  /* scheduled scaling actions per scenario */
#define SCENARIO_ZONES_MAX 8      /* availability zones in `zones` */
#define SCENARIO_ZONE_NAME_MAX 64 /* bytes in a zone's name, including the NUL */
#define SCENARIO_MODELS_MAX 8     /* `models`: models served on one fleet (scenario_models.c) */
#define SCENARIO_MODEL_NAME_MAX 17 /* bytes in a model's name, including the NUL: metric names hold it */
#define SCENARIO_MIG_MAX 7        /* profiles in `serving.partitions.layout` */
#define SCENARIO_TYPES_MAX 8      /* instance types per scenario: the serving type and serving.types */

enum arrival_kind {
	ARRIVAL_POISSON,      /* Poisson process at rate_per_s (piecewise constant with steps) */
	ARRIVAL_UNIFORM,      /* evenly spaced arrivals at the same rate: a deterministic load for tests */
	ARRIVAL_DIURNAL,      /* non-homogeneous Poisson: rate_per_s x daily profile x weekly factors */
	ARRIVAL_MMPP,         /* Markov-modulated Poisson: calm at rate_per_s, bursts at burst_rate_per_s */
	ARRIVAL_FLASH_CROWD,  /* Poisson at rate_per_s plus a spike at flash_at decaying exponentially */
	ARRIVAL_TRACE,        /* replay a request trace (CSV) */
	ARRIVAL_RATE_SERIES,  /* per-window rates from CSV files, summed */
	ARRIVAL_CLOUDWATCH    /* arrivals per period from CloudWatch metrics JSON (the AWS CLI's) */
};

enum size_kind {
	SIZE_NONE,         /* not drawn: the trace gives it, or the service model does not need it */
	SIZE_CONSTANT,     /* always mean */
	SIZE_EXPONENTIAL,  /* exponential with mean mean, rounded to a whole token, at least 1 */
	SIZE_LOGNORMAL     /* lognormal with mean and cv, rounded, at least 1 */
};

/* A distribution of token counts. */
struct size_dist {
	enum size_kind kind;  /* how it is drawn */
	double mean;          /* tokens */
	double cv;            /* coefficient of variation (lognormal) */
};

/* One row of a slowdown table (workload.service.slowdown): a request starting where `concurrency` requests
 * (itself included) are in service takes `factor` times its drawn service time. */
struct slowdown_point {
	int concurrency;      /* requests in service on the instance (copy), >= 1 */
	double factor;        /* > 0 */
};

/* One row of the decode-speed table: per-request decode speed when `concurrency` requests share it. */
struct decode_point {
	int concurrency;      /* requests in service on the instance, >= 1 */
	double tokens_per_s;  /* output tokens per second for each of them, > 0 */
};

enum series_format {
	SERIES_AGGREGATE,  /* header window_start_s,rate_per_s[,...]: one rate per window (Poisson inside) */
	SERIES_SERVEGEN    /* ServeGen per-client rows: start, rate, cv, distribution (Gamma|Weibull|""), p1, p2 */
};

#define SCENARIO_SERIES_MAX 64    /* rate-series files per scenario */
#define SCENARIO_DECODE_MAX 32    /* rows of a decode-speed table */

/* From at_us on, the arrival rate is rate_per_s (until the next step). */
struct rate_step {
	int64_t at_us;      /* when the step takes effect, > the previous step's, <= horizon */
	double rate_per_s;  /* requests per second from then on, >= 0 */
};

enum service_kind {
	SERVICE_CONSTANT,     /* every request takes mean_s */
	SERVICE_EXPONENTIAL,  /* exponential with mean mean_s */
	SERVICE_LOGNORMAL,    /* lognormal with mean mean_s and coefficient of variation cv */
	SERVICE_TOKENS,       /* prefill + decode from the request's token counts (models/README.md, "Serving model") */
	SERVICE_TRACE         /* the service time the trace gives for each request */
};

/* How a run advances (`mode`; models/README.md, "Fluid mode"). */
enum run_mode {
	MODE_REQUESTS,  /* one event per request (the default) */
	MODE_FLUID      /* one tick per fluid.period_s with queueing formulas (fluid.h) */
};

enum policy_kind {
	POLICY_NONE,            /* fixed fleet */
	POLICY_TARGET_TRACKING, /* Application Auto Scaling target tracking (SOURCES.md [tt-proportional]) */
	POLICY_STEP,            /* Application Auto Scaling step scaling (SOURCES.md [step-alarms]) */
	POLICY_HPA,             /* the Kubernetes Horizontal Pod Autoscaler (SOURCES.md [hpa-formula]) */
	POLICY_PREDICTIVE       /* forecast from the traffic's own history (policy_predictive.c) */
};

/* What autoscaling's capacity counts (`autoscaling.capacity_unit`, scenario_types.c). */
enum capacity_unit {
	UNIT_INSTANCES,  /* instances of any type (the default) */
	UNIT_GPUS,       /* GPUs: an instance counts its type's GPUs */
	UNIT_SLOTS       /* request slots: an instance counts its type's slots_per_instance */
};

/* How the predictive policy forecasts the arrival rate (`autoscaling.forecast`). */
enum forecast_kind {
	FORECAST_YESTERDAY,     /* same_time_yesterday: the rate one day before */
	FORECAST_LAST_WEEK,     /* same_time_last_week: the rate seven days before */
	FORECAST_HOLT_WINTERS   /* holt_winters: additive Holt-Winters with a daily season */
};

/* How a step's adjustment is read (SOURCES.md [step-adjustments]). */
enum adjustment_kind {
	ADJUST_CHANGE_IN_CAPACITY,  /* change_in_capacity: add the adjustment, in instances */
	ADJUST_EXACT_CAPACITY,      /* exact_capacity: the adjustment is the new capacity */
	ADJUST_PERCENT_CHANGE       /* percent_change_in_capacity: add adjustment % of capacity, rounded */
};

/* How an alarm compares a datapoint with its threshold. */
enum comparison_kind {
	COMPARE_GE,  /* greater_or_equal */
	COMPARE_GT,  /* greater */
	COMPARE_LE,  /* less_or_equal */
	COMPARE_LT   /* less */
};

/* One step adjustment: bounds relative to the alarm threshold, in the metric's unit. */
struct step_adjustment {
	double lower;    /* `lower`: metric - threshold from here; -HUGE_VAL when omitted */
	double upper;    /* `upper`: metric - threshold up to here; HUGE_VAL when omitted */
	int adjustment;  /* `adjustment`: instances, a capacity or a percent, as adjustment_type says */
};

/* One scheduled scaling action (`autoscaling.schedule`; scenario_policy.c): at a time or on a cron
 * schedule (UTC, or the scenario's `timezone`: cron_next_in), set the autoscaling bounds; SOURCES.md
 * [scheduled-actions], [scheduled-cron-utc], [scheduled-cron-tz]. */
struct scheduled_action {
	bool recurring;           /* true: `cron`; false: `at` */
	int64_t at_unix_us;       /* `at`: when, microseconds since the epoch (UTC) */
	struct cron cron;         /* `cron`: when it recurs (on the scenario's tz clock) */
	int min;                  /* `min`: the new autoscaling min; -1 = unchanged */
	int max;                  /* `max`: the new autoscaling max; -1 = unchanged */
};

/* A CloudWatch-style alarm of step scaling: in ALARM when datapoints_to_alarm of the last
 * evaluation_periods datapoints (one per autoscaling.resolution_s) breach the threshold. */
struct step_alarm {
	bool enabled;                   /* the alarm was written */
	double threshold;               /* `threshold`, in the metric's unit */
	enum comparison_kind comparison;  /* `comparison`; default greater_or_equal (scale_out),
	                                   less_or_equal (scale_in) */
	int evaluation_periods;         /* `evaluation_periods`, 1..100, default 1 */
	int datapoints_to_alarm;        /* `datapoints_to_alarm`, 1..evaluation_periods, default
	                                   evaluation_periods */
	struct step_adjustment steps[SCENARIO_ALARM_STEPS_MAX];  /* `steps`, ascending, contiguous */
	int nsteps;                     /* entries used, 1..SCENARIO_ALARM_STEPS_MAX */
};

enum metric_kind {
	METRIC_CONCURRENCY,  /* concurrency_per_instance: busy slots / slots in service, a fraction (in this
	                        model also the busy-GPU fraction: an instance's GPUs are shared by its slots) */
	METRIC_INVOCATIONS,  /* invocations_per_instance: arrivals per minute per instance in service */
	METRIC_BACKLOG,      /* backlog_per_instance: requests waiting per instance in service (the async
	                        endpoint metric ApproximateBacklogSizePerInstance,
	                        SOURCES.md [sm-backlog-metric]) */
	METRIC_GPU_UTIL,     /* gpu_utilization: percent of time a GPU runs a request, summed over an
	                        instance's GPUs (0-100 x GPUs), per instance in service; with copies, per copy
	                        normalised to 0-100 (gpumetric.h, SOURCES.md [sm-gpu-metrics]) */
	METRIC_GPU_MEM,      /* gpu_memory_utilization: percent of GPU memory held, summed likewise
	                        (gpumetric.h, SOURCES.md [sm-gpu-metrics], [gpu-mem-prealloc]) */
	METRIC_KINDS         /* how many */
};

/* The percentiles a percentile SLO may name (`slo.latency_p50_s` ...), in this order. */
enum scenario_slo_pct { SCENARIO_SLO_P50, SCENARIO_SLO_P90, SCENARIO_SLO_P95, SCENARIO_SLO_P99,
			SCENARIO_SLO_PCTS };

enum term_kind {
	TERM_NONE,  /* options without a term (on_demand, spot, odcr, capacity_block) */
	TERM_1Y,    /* one year = 365 days (SOURCES.md [ri-terms]) */
	TERM_3Y     /* three years = 1095 days */
};

enum payment_kind {
	PAYMENT_NO_UPFRONT,       /* the whole effective rate hourly */
	PAYMENT_PARTIAL_UPFRONT,  /* half up front, half hourly (an assumption: AWS sets the split per offer) */
	PAYMENT_ALL_UPFRONT       /* everything up front, nothing hourly */
};

enum interrupt_kind {
	INTERRUPT_REQUEUE,  /* requests in flight when an instance is taken go back to the head of the queue */
	INTERRUPT_DROP      /* they are dropped (and violate the SLO) */
};

/* What an endpoint does with a request that finds no instance (with copies: no copy) in service
 * (SOURCES.md [sm-realtime-refuse-at-zero]). */
enum endpoint_kind {
	ENDPOINT_REALTIME,  /* real-time inference: the invocation fails ("any attempts to invoke the endpoint
	                       will produce an error" while it scales from zero): refused */
	ENDPOINT_ASYNC      /* asynchronous inference: "requests received at zero are queued" */
};

/* How an endpoint spreads requests over its instances (`serving.routing`; models/README.md "Routing"). */
enum routing_kind {
	ROUTING_FIRST_FREE,         /* the first instance in pool order that can start it now */
	ROUTING_PREFIX_AWARE,       /* SageMaker PREFIX_AWARE: where its prompt prefix is cached, until that
	                               instance's in-flight requests reach prefix_threshold */
	ROUTING_RANDOM,             /* SageMaker RANDOM: an instance drawn uniformly */
	ROUTING_LEAST_OUTSTANDING,  /* SageMaker LEAST_OUTSTANDING_REQUESTS: fewest in service and waiting, ties
	                               at random */
	ROUTING_ROUND_ROBIN,        /* the next instance in pool order after the last one sent to */
	ROUTING_POWER_OF_TWO        /* two drawn, the one with fewer outstanding requests taken */
};

/* Where a request waits when it cannot start (`serving.queue`). */
enum queue_kind {
	QUEUE_CENTRAL,       /* one queue in front of every instance; a freed slot takes its head */
	QUEUE_PER_INSTANCE   /* a request is sent to an instance on arrival and waits there (an endpoint) */
};

enum delay_kind {
	DELAY_DEFAULT,    /* serving.startup_s, the same for every launch */
	DELAY_CONSTANT,   /* always mean */
	DELAY_LOGNORMAL,  /* lognormal with mean and cv */
	DELAY_EMPIRICAL   /* one of the observed values, each equally likely */
};

#define SCENARIO_DELAY_VALUES_MAX 64

/* How long a launch takes until the instance serves (boot, image pull, model load). */
struct delay_dist {
	enum delay_kind kind;                          /* how it is drawn */
	int64_t mean_us;                               /* constant and lognormal: the mean */
	double cv;                                     /* lognormal: coefficient of variation */
	int64_t values_us[SCENARIO_DELAY_VALUES_MAX];  /* empirical: the observed delays */
	int nvalues;
};

/* A window during which launches of one fleet entry fail (insufficient capacity), from the start. */
struct outage {
	int64_t start_us;  /* first moment without capacity */
	int64_t end_us;    /* capacity is back from here */
};

/*
 * One entry of `fleet`. Which fields apply depends on the option; the loader fills defaults from the
 * catalogue and rejects keys that do not apply (models/README.md, "Purchase options").
 */
/* Who a fleet entry's instances are for (`use`). */
enum fleet_use {
	USE_SERVING,  /* the serving fleet (default) */
	USE_JOBS,     /* training and batch jobs (jobs.h) */
	USE_SHARED    /* capacity_block or training_plan shared by time of day: serving inside serving_hours,
	                 jobs outside them (the priority rule, option_share.c) */
};

struct fleet_entry {
	enum option_kind option;  /* purchase option */
	enum fleet_use use;       /* `use`: serving (default) | jobs */
	int count;                /* reserved/odcr/capacity_block: instances bought; on_demand/spot: at t = 0 */
	bool count_auto;          /* on_demand/spot `count: auto`: count was computed from the policy's target
	                             and the arrival rate at t = 0 (scenario_finish.c) */
	int max;                  /* most instances this entry may hold; = count for reserved/odcr/blocks;
	                             0 for savings_plan (it holds no instances) */
	double usd_per_h;         /* reserved: hourly part; on_demand/odcr: rate; spot: fixed price (with a
	                             trace: its price at the scenario start, for reports); capacity_block:
	                             per instance-hour (upfront_usd / (count x hours) when that is given);
	                             savings_plan: the serving type's rate under the plan, od x (1 - discount);
	                             filled from the catalogue */
	bool price_given;         /* true if the scenario set usd_per_h (capacity_block: or upfront_usd) */

	/* reserved (term, payment), savings_plan (term) */
	enum term_kind term;          /* `term`: 1y | 3y */
	enum payment_kind payment;    /* `payment`: no_upfront | partial_upfront | all_upfront */
	double upfront_usd;           /* reserved: per instance, for the whole term; capacity_block: for the
	                                 whole block (all instances; usd_per_h x count x hours by default) */
	int64_t term_start_unix_us;   /* `term_start`, microseconds since the epoch; default the scenario start */

	/* spot */
	double discount;              /* spot: off on-demand (0 when usd_per_h or a trace sets the price);
	                                 savings_plan: off on-demand for covered usage */
	double interruptions_per_hour;/* per instance (from `interruptions_per_hour` or `interruption_band`);
	                                 0 with an availability trace or no model */
	int64_t notice_us;            /* spot: `notice_s`, interruption notice, default 120 s
	                                 (SOURCES.md [spot-notice-2min]); training_plan: `expiry_notice`, the
	                                 notice before its instances are taken 30 min before a segment ends,
	                                 default 10 min (SOURCES.md [tp-expiry-notice]) */
	double reclaims_per_day;      /* `reclaims_per_day`: pool-wide reclaim events */
	double reclaim_fraction;      /* `reclaim_fraction`: share of the pool each takes, default 1 */
	int64_t outage_mean_us;       /* `outage_mean_s`: pool unavailable after a reclaim (exponential mean) */
	int64_t max_wait_us;          /* `max_wait_s` (gcp_dws_flex): longest wait in the queue, default and
	                                 at most 7200 s (SOURCES.md [gcp-dws-queue]) */
	bool evict_delete;            /* `eviction_policy: delete` (azure spot); false: deallocate, the default:
	                                 an evicted VM keeps counting against the quota and its disks are billed
	                                 to the horizon (SOURCES.md [az-spot-eviction-policy]) */
	double disk_usd_per_h;        /* `disk_usd_per_h` (azure spot, deallocate): storage of one evicted VM's
	                                 disks, USD per hour; default 0 */
	double max_usd_per_h;         /* `max_usd_per_h` (azure spot): evicted and not launched while the price
	                                 is above it; 0 = none, the default (SOURCES.md [az-spot-max-price]) */
	char price_trace[SCENARIO_PATH_MAX];  /* `price_trace`, resolved against the scenario's folder; "" */
	char price_zone[64];                  /* `price_zone`; "" = the trace's only zone */
	struct pricetrace prices;             /* loaded price_trace (owned); n = 0 when none */
	char availability_trace[SCENARIO_PATH_MAX];  /* `availability_trace`, resolved; "" when none */
	struct availtrace avail;              /* loaded availability_trace (owned); n = 0 when none */

	/* on_demand and spot: launch failures */
	double ice_probability;       /* `ice_probability`: chance one launch attempt fails */
	struct outage outages[SCENARIO_OUTAGES_MAX];  /* `ice_outages`: windows with no capacity */
	int noutages;

	/* capacity_block (training_plan: a segment's start, and its days x 24 h; odcr: its dates) */
	int64_t start_us;             /* `start` (a UTC time), from the scenario start; may be negative.
	                                 odcr: `start`, default 0 (active from before the window) */
	int64_t duration_us;          /* `duration`, or `end` - `start`: ends at 11:30 UTC, within a day
	                                 of 1..14 days or 21..182 days in 7-day steps (scenario_block.c).
	                                 odcr: `end` - `start`, a limited reservation; 0 = unlimited (no
	                                 `end`, the default: active to the horizon) */
	int64_t commitment_us;        /* odcr: `commitment_duration`, a future-dated reservation's commitment
	                                 (0: none, an immediate reservation) */

	/* savings_plan */
	double commit_usd_per_h;      /* `commit_usd_per_h`: the hourly commitment */
	double type_discount[SCENARIO_TYPES_MAX];  /* its discount for each type (index in types; [0] is
	                                 `discount`): 1 - rates[type] / the type's On-Demand price, else the
	                                 `discount` given, else the type's catalogue discount
	                                 (SOURCES.md [sp-highest-discount]) */

	/* training_plan: a plan's segments are expanded into one entry each, in order, when loaded: start_us,
	 * duration_us (whole days, 1..182), count (1, 2, 4, ..., 64), usd_per_h or upfront_usd (the segment's)
	 * as for a capacity block. plan_id numbers the plans of a scenario (0, 1, ...); segment numbers the
	 * segment inside its plan (0, 1, ...). */
	int plan_id;
	int segment;

	/* use: shared (capacity_block, training_plan) */
	int serving_from_s;           /* `serving_hours: "HH:MM-HH:MM"` (UTC): serving gets the instances from */
	int serving_to_s;             /*   this second of the day up to that one (may wrap midnight) */
	int64_t share_notice_us;      /* `notice_s` with use: shared: jobs' notice when serving's hours begin */

	/* on_demand, spot, odcr, capacity_block, training_plan */
	struct delay_dist startup;    /* `startup`: launch-to-ready delay of this entry's instances */

	/* on_demand, spot, odcr, capacity_block: where it runs (scenario_zones.c, fleet_zone.c) */
	int zone;                     /* `zone`: 1 + its index in sc.zones; 0 = no `zone` key, the implicit
	                                 zone, which has no outages and no shared Spot pool */

	/* every option but savings_plan (scenario_types.c) */
	int type;                     /* `instance_type`: index into scenario.types; 0 (the serving type) by
	                                 default. Prices and quotas above are that type's */
	int weight;                   /* units of autoscaling capacity one instance counts for: 1, or its
	                                 type's GPUs or slots (autoscaling.capacity_unit) */
	enum provider_variant variant;  /* a provider's own product simulated as `option` (provider.h):
	                                   gcp_calendar, azure_block (capacity_block), gcp_preemptible
	                                   (spot), gcp_dws_flex (on_demand); else NONE */
};

/* One availability zone of `zones` (models/README.md, "Zones"). */
struct zone {
	char name[SCENARIO_ZONE_NAME_MAX];            /* `name`, unique in the list */
	struct outage outages[SCENARIO_OUTAGES_MAX];  /* `outages`: zone-wide capacity losses, in time order,
	                                                 not overlapping, from the start */
	int noutages;
};

/*
 * One instance type a fleet may hold (`serving.instance_type` is types[0]; `serving.types` the rest,
 * scenario_types.c): what one instance of it is and how fast it serves.
 */
struct scenario_type {
	char name[SCENARIO_NAME_MAX];  /* the type's name, as in the catalogue */
	int gpus;                      /* GPUs per instance (catalogue, or catalog: override) */
	int vcpus;                     /* vCPUs per instance; 0 = unknown (no vCPU quota) */
	char family;                   /* instance family letter, for per-family vCPU quotas */
	double od_usd_per_h;           /* On-Demand price, USD per instance-hour */
	int slots;                     /* `slots_per_instance`: requests one instance serves at once; types[0]:
	                                  serving.slots_per_instance */
	double service_scale;          /* `service_scale`: a request's service time on this type is the drawn
	                                  (or token-model) time x this; types[0]: 1 */
	/* token model (workload.service.kind tokens): this type's speeds; default the workload's */
	double prefill_tokens_per_s;   /* `prefill_tokens_per_s` */
	struct decode_point decode[SCENARIO_DECODE_MAX];  /* `decode_tokens_per_s` or `decode_table` */
	int ndecode;
	int64_t kv_cache_tokens;       /* `serving.types.*.kv_cache_tokens`: its instances' KV cache; 0 = the
	                                  serving's (serving_kv_tokens) */
};

/* One model of a multi-model endpoint (`serving.multi_model.models` item; scenario_mme.c). */
#define SCENARIO_MME_MODELS_MAX 1000  /* models per multi-model endpoint */
struct scenario_mme_model {
	char name[SCENARIO_NAME_MAX];  /* `name`, unique */
	double size_gb;                /* `size_gb`: memory it takes once loaded, GB, > 0, <= memory_gb */
	int64_t load_us;               /* `load_s`: time to load it on an instance, >= 0 */
	double share;                  /* `share`: relative share of the requests, >= 0 (normalised) */
};

/* Where jobs run (`jobs.policy`), one file each (jobs_policy_*.c). */
enum job_policy {
	JOB_POLICY_ON_DEMAND,      /* on_demand: on-demand entries only */
	JOB_POLICY_SPOT,           /* spot: Spot entries only, checkpoint and restart on interruptions */
	JOB_POLICY_DEADLINE_SPOT,  /* deadline_spot: Spot until the slack left no longer covers a restart, then
	                              on-demand to the end (uniform progress, "Can't Be Late", NSDI 2024) */
	JOB_POLICY_RESERVED_FIRST, /* reserved_first: capacity blocks and training plans when open, then
	                              on-demand, then Spot */
	JOB_POLICY_UNIFORM_PROGRESS, /* uniform_progress: Spot when available; On-Demand to keep progress on the
	                              line from submission to deadline, with hysteresis and a safety net
	                              ("Can't Be Late", NSDI 2024, §5.2) */
	JOB_POLICY_ADAPTIVE_PROGRESS /* adaptive_progress: uniform_progress with the line's slope the Spot
	                              availability learnt from the trace so far (gpucap's own) */
};

#define JOB_TEAMS_MAX 8               /* teams in `jobs.teams` (each adds its metrics) */
#define JOB_CLASSES_MAX 10            /* priority classes (HyperPod: up to 10, SOURCES.md [hp-cluster-policy]) */

/* How a team shares its idle quota (`lending`; SOURCES.md [hp-lending]). */
enum team_lending {
	TEAM_LEND_AND_BORROW,        /* default */
	TEAM_LEND,                   /* lends its idle quota, never borrows */
	TEAM_DONT_LEND               /* neither */
};

/* A team of `jobs.teams` (SageMaker HyperPod task governance; models/README.md "Team shares"). */
struct job_team {
	char name[32];               /* `name`: letters, digits, '_' or '-' (it names metrics) */
	int quota;                   /* `quota`: instances of the jobs entries the team is entitled to, >= 0 */
	int weight;                  /* `fair_share_weight`: 0-100, default 0 */
	enum team_lending lending;   /* `lending`, default lend_and_borrow */
	int borrow_limit_pct;        /* `borrow_limit`: 1-500 percent of the team's quota, default 50 */
};

/* A priority class of `jobs.priority_classes`. */
struct job_class {
	char name[32];               /* `name` */
	int weight;                  /* `weight`: 0-100, higher goes first and preempts lower in its team */
};

/* One training or batch job: a row of `jobs.list` or of the `jobs.trace` CSV. */
struct job_spec {
	char name[64];               /* `name`; default "job-<row>" */
	int instances;               /* `instances`: needed all at once (gang-scheduled), >= 1 */
	double work_h;               /* `work_instance_hours`: compute at full size, > 0; the job computes for
	                                work_h / instances hours when nothing goes wrong */
	int64_t submit_us;           /* `submit`: from the scenario start (UTC time or duration), >= 0 */
	int64_t deadline_us;         /* `deadline`: from the scenario start, > submit; INT64_MAX = none */
	int64_t ckpt_interval_us;    /* `checkpoint_interval`: compute between checkpoints; 0 = never */
	int64_t ckpt_cost_us;        /* `checkpoint_cost`: a checkpoint pauses computing this long, >= 0 */
	int64_t restart_us;          /* `restart_overhead`: instances up to computing again (load the last
	                                checkpoint), also paid at the first start, >= 0 */
	int priority;                /* `priority`: higher goes first from the queue; ties: submit, then row; with
	                                `priority_class`, the class's weight */
	int team;                    /* `team`: index in scenario_jobs.teams; -1 without teams (jobs_teams.c) */
	int64_t max_wait_us;         /* `max_wait` (jobs.managed_spot only): waiting plus running from submit,
	                                beyond which the job is stopped (MaxWaitTimeInSeconds); 0 = no limit */
	int line, col;               /* where it was written (its list item or CSV row), for messages */
};

struct scenario_jobs {
	enum job_policy policy;      /* `jobs.policy`, default on_demand */
	struct job_spec *list;       /* owned: the list's jobs, then the trace's rows, sorted by submit (stable) */
	int n;                       /* 0 = the scenario has no jobs */
	char trace[SCENARIO_PATH_MAX];  /* `jobs.trace`, resolved; "" */
	double failures_per_instance_h; /* `jobs.failures.per_instance_hour`: node failures, Poisson; default
	                                   the Llama 3 figure (SOURCES.md [llama3-failures]) scaled by the
	                                   instance's GPUs */
	bool auto_resume;            /* `jobs.failures.recovery`: automatic (default: HyperPod replaces the node
	                                and resumes) | none (the job goes back to the queue after restart_delay) */
	int64_t replacement_us;      /* `jobs.failures.replacement`: replacing a failed node, default 10 min */
	int64_t restart_delay_us;    /* `jobs.failures.restart_delay`: recovery none, default 1 h */
	int64_t switch_margin_us;    /* `jobs.switch_margin`: deadline_spot switches when slack < restart cost
	                                + this; default 0 */
	int64_t max_pending_us;      /* `jobs.max_pending`: a job waiting this long for a training plan is
	                                terminated (InsufficientCapacityError), default 2 days */
	bool managed_spot;           /* `jobs.managed_spot`: SageMaker managed Spot training (policy spot, aws):
	                                the jobs' Spot instances pay their seconds even when EC2 interrupts
	                                them in their first hour; a job's `max_wait` applies (default false) */
	struct job_team teams[JOB_TEAMS_MAX];  /* `jobs.teams` (jobs_teams.c); nteams = 0: no team shares */
	int nteams;
	struct job_class classes[JOB_CLASSES_MAX];  /* `jobs.priority_classes` */
	int nclasses;
	bool fair_share;             /* `jobs.fair_share`: idle quota by fair-share weight (default true) or
	                                first-come first-served */
};

/*
 * One entry of `models` (scenario_models.c, models/README.md "Several models and MIG partitions"): a model with its own
 * traffic, service and SLO, read by the same loaders as the top-level blocks. Its `blocks` is a whole
 * scenario of which only slo, arrivals, sizes, reuse and service are meaningful (the others are the parent's
 * as they stood when the model was read, and its owned pointers are NULL).
 */
struct scenario_model {
	char name[SCENARIO_MODEL_NAME_MAX];  /* `name`: [a-z0-9_-], unique */
	char partition[16];                  /* `partition`: a profile of serving.partitions.layout; "" = none */
	int slots;                           /* requests one instance serves at once for this model: GPUs x the
	                                        layout's count of its profile, else serving.slots_per_instance */
	struct scenario *blocks;             /* owned: the model's slo, workload and service */
};

struct scenario {
	char name[SCENARIO_NAME_MAX];  /* `name`, required */
	uint64_t seed;                 /* `seed`, default 1 */
	int64_t start_unix_us;         /* `start`, microseconds since 1970-01-01T00:00:00Z; default 2026-01-01 */
	int64_t horizon_us;            /* `horizon`, simulated length, > 0, at most 400 days */
	struct tzone tz;               /* `timezone`: the wall clock of the diurnal profile, weekly factors and
	                                  cron schedules, with its offsets over the run (tzone.h); default UTC */
	int64_t sample_period_us;      /* `sample_period`, time-series resolution, default 60 s */
	int64_t warmup_us;             /* `warmup`: request metrics count arrivals from here on, [0, horizon);
	                                  default 0 */
	enum provider provider;        /* `provider`: aws | gcp | azure; default the serving type's (aws for the
	                                  AWS catalogue and new types): which options exist and how they bill
	                                  (provider.h) */
	char region[SCENARIO_NAME_MAX];  /* `region`: the cloud region the bill is for (a label: the FOCUS
	                                    export's RegionId); default provider_default_region(provider) */

	struct {
		int64_t latency_us;    /* `slo.latency_s`: end-to-end latency threshold, > 0 */
		int64_t ttft_us;       /* `slo.ttft_s`: time-to-first-token threshold; 0 = none */
		int64_t tpot_us;       /* `slo.tpot_s`: time-per-output-token threshold; 0 = none */
		/* percentile SLOs, index SCENARIO_SLO_P50 .. P99: `slo.latency_p50_s` ... and `slo.ttft_p50_s`
		 * ...: the percentile must not exceed the threshold; 0 = not stated */
		int64_t latency_pct_us[SCENARIO_SLO_PCTS];
		int64_t ttft_pct_us[SCENARIO_SLO_PCTS];
		int64_t tpot_pct_us[SCENARIO_SLO_PCTS];  /* `slo.tpot_p50_s` ... (time per output token) */
		double max_violation_rate;  /* `slo.max_violation_rate`: share of requests allowed over
		                               latency_us, [0, 1]; negative = not stated */
		int64_t window_us;     /* `slo.window`: the stated SLOs must also hold in every UTC-aligned window
		                          of this length (it divides 1 day); 0 = over the measured run only */
	} slo;

	/* Keys of kinds other than `kind` are refused while loading, and their fields stay 0. */
	struct {
		enum arrival_kind kind;  /* `workload.arrivals.kind` */
		double rate_per_s;       /* `rate_per_s`, > 0: the (base) rate from t = 0 */
		struct rate_step steps[SCENARIO_STEPS_MAX];  /* `steps` (poisson, uniform): later rates */
		int nsteps;              /* steps used, 0 when the rate is constant */

		/* diurnal: rate_per_s x daily(hour of day) x weekly(day of week) from `start`, on the wall clock of
		 * `timezone` (tz; UTC by default) */
		double amplitude;        /* `amplitude`: daily sinusoid 1 + a cos(2 pi (h - peak_hour) / 24), [0, 1] */
		double peak_hour;        /* `peak_hour`: hour of the daily peak, [0, 24), default 14 */
		double hourly[24];       /* `hourly`: 24 factors instead of the sinusoid (hour 0 first) */
		bool has_hourly;
		double weekly[7];        /* `weekly`: 7 factors, Monday first; default all 1 */
		bool has_weekly;

		/* mmpp: two states; calm at rate_per_s, bursts at burst_rate_per_s */
		double burst_rate_per_s; /* `burst_rate_per_s` */
		int64_t burst_mean_us;   /* `burst_mean_s`: mean burst length (exponential) */
		int64_t calm_mean_us;    /* `calm_mean_s`: mean time between bursts (exponential) */

		/* flash_crowd: rate_per_s x (1 + magnitude x exp(-(t - at) / decay)) from `at` on */
		int64_t flash_at_us;     /* `at` */
		double flash_magnitude;  /* `magnitude`: extra rate at the peak, as a multiple of rate_per_s */
		int64_t flash_decay_us;  /* `decay_s`: time constant of the decay */

		/* trace */
		char path[SCENARIO_PATH_MAX];   /* `path`, resolved against the scenario's folder */
		struct trace_mapping mapping;   /* `format: azure`, or `columns:` {time, time_format,
		                                   input_tokens, output_tokens, service_s} */
		struct trace_summary summary;   /* from the scan done while loading (rows, span) */

		/* rate_series */
		char series[SCENARIO_SERIES_MAX][SCENARIO_PATH_MAX];  /* `paths` (or `path`), resolved */
		int nseries;
		enum series_format series_format;  /* `format`: aggregate | servegen */
		int64_t window_us;       /* `window_s`: window length, default 600 s */

		/* cloudwatch: `path` (above) is the metrics JSON; models/README.md, "CloudWatch metrics as traffic" */
		struct cwmetrics_query cw_query;  /* `id`, `label`, `statistic` (default Sum), `period_s` (0 =
		                                     inferred); index -1 */
		enum cwmetrics_gaps cw_gaps;      /* `gaps`: what a missing period holds, default zero */
		bool cw_even;                     /* `within: even` (exactly the period's count, evenly spaced);
		                                     false: `within: poisson` (default) */

		/* transforms, applied to any kind (models/README.md, "Transforms") */
		double scale_rate;       /* `scale_rate`: x traffic, default 1 */
		double speedup;          /* `speedup`: time compressed by this factor, default 1 */
		double growth_per_day;   /* `growth_per_day`: rate x (1 + g)^days, default 0 */
		bool loop;               /* `loop`: repeat the source to fill the horizon */
		int64_t offset_us;       /* `offset`: skip this much of the source at its start */
	} arrivals;

	struct {
		struct size_dist input;  /* `workload.sizes.input_tokens` (used when the source has none) */
		struct size_dist output; /* `workload.sizes.output_tokens` */
	} sizes;

	/* `workload.prefix_reuse` (scenario_batching.c, workload.c, models/README.md "Prefix caching"): block ids for
	 * sources without them, from a synthetic model of conversations that continue (an assumption,
	 * SOURCES.md [prefix-reuse-synthetic]); share 0 and conversations 0 when absent. */
	struct {
		double share;          /* `share`: probability a request continues an earlier conversation, [0, 1] */
		int conversations;     /* `conversations`: how many of the most recently started conversations can
		                          be continued, >= 1, default 100 (0 = no synthetic reuse) */
		int32_t block_tokens;  /* `block_tokens`: tokens per block, default 512 */
	} reuse;

	struct {
		enum service_kind kind;  /* `workload.service.kind` */
		double mean_s;           /* `workload.service.mean_s`, > 0 */
		double cv;               /* `workload.service.cv` (lognormal only), > 0; default 1 */
		/* `slowdown` (kinds other than tokens; scenario_workload.c): by concurrency, sorted; none = the
		 * drawn time whatever the load */
		struct slowdown_point slowdown[SCENARIO_DECODE_MAX];
		int nslowdown;
		/* tokens */
		double prefill_tokens_per_s;  /* `prefill_tokens_per_s`: prompt tokens processed per second */
		struct decode_point decode[SCENARIO_DECODE_MAX];  /* `decode_tokens_per_s` (one row) or
		                                   `decode_table`: per-request speed by concurrency, sorted */
		int ndecode;
		double overhead_s;       /* `overhead_s`: fixed time per request (scheduling, tokenising), >= 0 */
		bool continuous;         /* `batching`: fixed (false, default: speed fixed at start) | continuous
		                            (speed follows the batch size as it changes; scenario_batching.c) */
		bool chunked;            /* `prefill`: whole (false, default) | chunked (continuous only) */
		int chunk_tokens;        /* `chunk_tokens`: prompt tokens per iteration when chunked, default 512 */
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
		enum interrupt_kind on_interrupt;  /* `serving.on_interrupt`: requeue (default) | drop */
		enum endpoint_kind endpoint;       /* `serving.endpoint`: realtime (default) | async */
		int vcpus;                /* vCPUs per instance, from the catalogue (quotas count them); 0 for a
		                             new catalog: type that does not give vcpus (then no vCPU quota) */
		char family;              /* instance family letter for quota messages ('p', 'g', ...) */
		double spot_discount;     /* catalogue: typical spot discount (assumption) */
		double reserved_3y_discount;   /* catalogue: 3-year commitment discount (assumption) */
		double savings_plan_discount;  /* catalogue: 1-year Compute Savings Plan discount (assumption);
		                                  also the default for a 3-year plan */
		double capacity_block_usd_per_h; /* catalogue: Capacity Block rate; 0 when unknown */
		/* KV cache per instance (scenario_batching.c): `kv_cache_tokens`, or `kv_cache` {gpu_memory_gb,
		 * model_gb, bytes_per_token, utilization}, tokens = floor((gpus x gpu_memory_gb x utilization -
		 * model_gb) x 1e9 / bytes_per_token) with each type's GPUs (a type's own kv_cache_tokens first);
		 * neither: no limit */
		int64_t kv_cache_tokens;  /* `kv_cache_tokens`, > 0; 0 = derived (kv_gpu_memory_gb > 0) or none */
		double kv_gpu_memory_gb;  /* `kv_cache.gpu_memory_gb`: memory per GPU, GB (1e9 bytes); 0 = none */
		double kv_model_gb;       /* `kv_cache.model_gb`: the model's weights per instance, GB */
		double kv_bytes_per_token;/* `kv_cache.bytes_per_token`: KV bytes one token holds */
		double kv_utilization;    /* `kv_cache.utilization`: share of GPU memory usable, default 0.9 */
		bool kv_preallocate;      /* `kv_cache.preallocate`: the server holds utilization x GPU memory from
		                             an instance's first request on (default true), else a high-water
		                             mark of the KV cache in use (gpumetric.h; scenario_gpumetric.c) */
		/* prefix cache per instance (scenario_batching.c, models/README.md "Prefix caching"): token model and a trace
		 * with hash ids only */
		int64_t prefix_cache_blocks;  /* `prefix_cache_blocks`: blocks one instance's cache keeps, >= 1;
		                                 -1 = unbounded (PREFCACHE_UNBOUNDED); 0 = no prefix cache */
		/* routing (scenario_routing.c, models/README.md "Routing") */
		enum routing_kind routing;  /* `routing` */
		enum queue_kind queue;      /* `queue` */
		int prefix_threshold;       /* `prefix_threshold` (prefix_aware, per-instance queues): in-flight
		                               requests at which a prefix's instance stops taking more of it;
		                               default the instance's slots */
	} serving;

	/*
	 * `serving.copies`: model copies on instances (SageMaker inference components; models/README.md, "Autoscaling: model copies").
	 * With copies, the serving unit is the copy: serving.slots is slots per copy, every policy metric is
	 * per copy, and autoscaling's capacity (min, max, the policies' answers, scheduled actions) counts
	 * copies (sagemaker:inference-component:DesiredCopyCount, SOURCES.md [sm-ic-copies]); instances follow.
	 */
	struct {
		bool enabled;              /* serving.copies is given */
		int gpus;                  /* `gpus_per_copy` (NumberOfAcceleratorDevicesRequired), >= 1 */
		int per_instance;          /* `per_instance`: copies one instance holds; default
		                              floor(instance GPUs / gpus_per_copy) */
		int initial;               /* `initial`: copies at t = 0; default the fleet's counts x per_instance,
		                              within autoscaling min and max */
		int min_instances;         /* `min_instances` (ManagedInstanceScaling MinInstanceCount), default 0 */
		int64_t startup_us;        /* `startup_s`: placement to serving on a ready instance (model
		                              download and load), default 120 s (an assumption,
		                              SOURCES.md [delay-copy-startup]) */
		struct delay_dist startup; /* `startup`: a distribution instead of startup_s (scenario_delay.c) */
	} copies;

	struct {
		int on_demand_vcpus;      /* `quotas.on_demand_vcpus`: running on-demand vCPUs; -1 = no limit */
		int on_demand_instances;  /* `quotas.on_demand_instances`; -1 = no limit */
		int spot_vcpus;           /* `quotas.spot_vcpus`; -1 = no limit */
		int spot_instances;       /* `quotas.spot_instances`; -1 = no limit */
	} quotas;

	struct {
		int64_t backoff_us;       /* `launch_retry.backoff_s`: first wait after a failed launch, 30 s */
		int64_t max_backoff_us;   /* `launch_retry.max_backoff_s`: cap, 600 s */
		double multiplier;        /* `launch_retry.multiplier`: growth per consecutive failure, 2 */
	} launch_retry;

	struct {
		bool mixed;               /* `allocation.strategy`: order (false, default) | mixed */
		int on_demand_base;       /* `allocation.on_demand_base_capacity`, default 0 */
		double on_demand_pct;     /* `allocation.on_demand_percentage_above_base`, default 100 */
		bool spot_fallback;       /* `allocation.spot_fallback`: fill spot shortfall on-demand, default true */
	} allocation;

	struct scenario_type types[SCENARIO_TYPES_MAX];  /* [0]: the serving type; then `serving.types` */
	int ntypes;                                    /* entries used, >= 1 */

	struct fleet_entry fleet[SCENARIO_FLEET_MAX];  /* `fleet`, in allocation order */
	int nfleet;                                    /* entries used, >= 1 */
	/* `commitments`: what only discounts usage (regional reserved instances, Savings Plans), in the order
	 * the bill applies them (RIs before plans whatever the order: savings.h). Each is a fleet_entry of
	 * option reserved (count, type, term, payment, usd_per_h, upfront_usd, term_start) or savings_plan
	 * (commit_usd_per_h, discount, type_discount, term, term_start); it holds no instances (max = 0), and
	 * nothing in the fleet, its ceiling or the autoscaler depends on it. */
	struct fleet_entry commit[SCENARIO_COMMIT_MAX];
	int ncommit;
	struct zone zones[SCENARIO_ZONES_MAX];         /* `zones`, in the order listed */
	int nzones;                                    /* 0 when the scenario has no `zones` */

	struct {
		enum policy_kind policy;        /* `autoscaling.policy`, default none */
		enum metric_kind metric;        /* `autoscaling.metric`, default concurrency_per_instance */
		double target;                  /* `autoscaling.target`, > 0 */
		enum capacity_unit capacity_unit;  /* `autoscaling.capacity_unit`: what min, max, desired
		                                   capacity and the policies' answers count; default
		                                   instances */
		int min;                        /* `autoscaling.min`, >= 0 */
		int max;                        /* `autoscaling.max`, >= min */
		int64_t resolution_us;          /* `autoscaling.resolution_s`, metric period, default 60 s; with a
		                                   GPU metric one of 10, 30, 60, 120, 180, 240, 300 s
		                                   (SOURCES.md [sm-metric-publish-frequency]) */
		int64_t metric_delay_us;        /* `autoscaling.metric_delay_s`: the policies see each period's
		                                   metrics this much later, a whole number of periods, <= 1 h;
		                                   default 0 (metriclag.h, SOURCES.md [cw-metric-delay]) */
		int64_t scale_out_cooldown_us;  /* `autoscaling.scale_out_cooldown_s`, default 300 s */
		int64_t scale_in_cooldown_us;   /* `autoscaling.scale_in_cooldown_s`, default 300 s */
		double scale_in_margin;         /* `autoscaling.scale_in_margin`: scale in only below
		                                   target x (1 - margin); default 0.10
		                                   (SOURCES.md [tt-scale-in-margin]) */
		int scale_out_datapoints;       /* target tracking: consecutive datapoints above the target
		                                   before a scale-out, default 3 (an assumption,
		                                   SOURCES.md [tt-alarms]) */
		int scale_in_datapoints;        /* ... below target x (1 - margin) before a scale-in, default 15 */
		struct {
			enum metric_kind metric;  /* `metric` of one more target-tracking policy */
			double target;            /* its `target` */
		} also[2];                      /* `autoscaling.also`: more target-tracking policies on the same
		                                   fleet, on other metrics
		                                   (SOURCES.md [tt-multiple-policies]) */
		int nalso;                      /* entries used, 0..2 */
		bool scale_from_zero;           /* `autoscaling.scale_from_zero`: with no instance, requests
		                                   waiting for 2 periods launch 1
		                                   (SOURCES.md [sm-scale-from-zero]) */
		/* step scaling only (policy step; scenario_policy.c): */
		enum adjustment_kind adjustment_type;  /* `autoscaling.adjustment_type`, default
		                                          change_in_capacity */
		int min_adjustment_magnitude;   /* `autoscaling.min_adjustment_magnitude`, instances; percent
		                                   change only; 0 = none (default) */
		struct step_alarm scale_out;    /* `autoscaling.scale_out`; enabled false when omitted */
		struct step_alarm scale_in;     /* `autoscaling.scale_in`; enabled false when omitted */
		/* Kubernetes HPA only (policy hpa; scenario_policy.c): */
		double tolerance;               /* `autoscaling.tolerance`: no action within this ratio, 0.1 */
		int64_t stabilization_window_us;/* `autoscaling.stabilization_window_s`: scale-down window, 300 s */
		double scale_up_percent;        /* `autoscaling.scale_up_percent`: per period, default 100 */
		int scale_up_pods;              /* `autoscaling.scale_up_pods`: per period, default 4 */
		/* predictive only (policy predictive; scenario_policy.c): */
		enum forecast_kind forecast;    /* `autoscaling.forecast`, default same_time_yesterday */
		int64_t lead_us;                /* `autoscaling.lead_s`: provision this far ahead; default
						 * serving.startup_s + resolution_s */
		double alpha, beta, gamma;      /* holt_winters smoothing: level, trend, season; 0.5, 0.1, 0.3 */
		/* scheduled actions, any policy (scenario_policy.c): */
		struct scheduled_action schedule[SCENARIO_SCHEDULE_MAX];  /* `autoscaling.schedule`, in order */
		int nschedule;                  /* actions used; 0 = none */
	} autoscaling;

	/* `serving.partitions.layout` (scenario_models.c): MIG profiles and their count on every GPU of every
	 * instance (SOURCES.md [sm-mig-layout]); nmig = 0 without */
	struct {
		char profile[SCENARIO_MIG_MAX][16];  /* profile names, e.g. "3g.40gb" */
		int count[SCENARIO_MIG_MAX];         /* instances of it per GPU, >= 1 */
		int n;
	} mig;
	struct scenario_model *models;  /* `models`, owned array of nmodels; NULL without */
	int nmodels;                    /* 0 = one model, the top-level workload and slo */

	struct scenario_jobs jobs;  /* `jobs` (scenario_jobs.c); jobs.n = 0 without */
	/* `serving.multi_model` (scenario_mme.c, mme.h, models/README.md "Multi-model endpoints"): models loaded on
	 * demand into each instance's model memory; n = 0 without */
	struct {
		double memory_gb;             /* `memory_gb`: model memory per instance, GB, > 0 */
		struct scenario_mme_model *models;/* owned: `models`, n of them */
		int n;                        /* 0 = a single-model endpoint (the default) */
	} mme;
	bool no_traffic;            /* no `workload`: a jobs-only scenario (jobs.n > 0) */
	enum run_mode mode;         /* `mode`: requests (default) | fluid (scenario_mode.c, fluid.h) */
	int64_t fluid_period_us;    /* `fluid.period_s`: the fluid tick, default 60 s; divides
	                               autoscaling.resolution_s and sample_period */

	char *warnings;   /* warnings found while loading, one per line ("FILE:LINE:COL: ..."), owned; "" */
	char *path;       /* the file loaded, owned; NULL for scenario_parse_string */
	char *text;       /* the file's full text as read, owned */
	char *overrides;  /* the --set overrides, one per line, owned; "" when none */
	/* The files the scenario names (traces, jobs CSVs, price and availability traces), as resolved, in the
	 * order the loader met them, each once: owned, NULL when none. The results store hashes their content
	 * into the run key (store.h), so that a run is known to be stale when one of them changes. */
	struct {
		char (*path)[SCENARIO_PATH_MAX];
		int n;
	} inputs;
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

/* Free the texts and traces a loaded scenario owns and zero it. NULL and zeroed structs are allowed. */
void scenario_fini(struct scenario *sc);

/* The scenario spellings of the enums ("poisson", "lognormal", "target_tracking", ...). */
const char *scenario_service_name(enum service_kind k);


/* The spellings of autoscaling.policy and autoscaling.metric, indexed by the enums, and one of them ("?" when
 * out of range). These belong with the config (scenario_names.c): run-time code uses them, the loader reads
 * with the same tables. */
extern const char *const scenario_policy_names[POLICY_PREDICTIVE + 1];
extern const char *const scenario_metric_names[METRIC_KINDS];
const char *scenario_policy_name(enum policy_kind k);
const char *scenario_metric_name(enum metric_kind k);

/* Where types[k]'s prices come from, one line into buf (scenario_origin.c): the built-in catalogue (with its
 * date and source) or the scenario's own keys. False, buf untouched, for a type priced from a `prices:` file:
 * the loader's warning "TYPE is priced from ..." says so already. */
bool scenario_price_origin(const struct scenario *sc, int k, char *buf, size_t size);

/* How far `start` lies past the last UTC mark of an SLO window (windows are aligned to clock times from
 * midnight; a window divides a day, so the epoch, a midnight, is such a mark); 0 without a window
 * (scenario_time.c). */
int64_t scenario_window_phase_us(const struct scenario *sc);

#endif
