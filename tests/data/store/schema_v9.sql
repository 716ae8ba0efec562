-- Test fixture, frozen: analysis/schema.sql, analysis/summary_view.sql and analysis/stats_view.sql as they stood
-- at schema version 9 (before issue 29 added the indexes runs_by_sweep, sweeps_by_name and labels_by_key and the tables
-- run_inputs and run_claims).
-- tests/check_store_schema.c runs it to make a version-9 file and checks that store_open() migrates it. Do not
-- edit: it stands for files already on disk.
--
-- gpucap results database, schema version 9: the tables (the views are in analysis/summary_view.sql and
-- analysis/stats_view.sql).
--
-- One SQLite file holds many runs. Tables:
--   runs     one row per committed run: what was run (scenario text and --set overrides, so any run can be
--            reproduced), its seed, when and how long it took, the gpucap version that ran it, its run key
--            and, for a run of a sweep, the sweep, point and replication. status is 'ok' for a finished
--            run. A run that fails inside `gpucap run` leaves nothing; a run of a sweep that fails is
--            recorded with status 'failed' and its message in error, and has no metrics, samples or
--            events (its horizon_s is 0 and instance_type '' when the scenario could not be loaded).
--            The seed is stored as the signed 64-bit reading of the unsigned scenario seed: seeds
--            above 9223372036854775807 appear negative (cast back to uint64 to reproduce the run).
--            run_key is FNV-1a-128 (32 lowercase hex digits) of the scenario text, a NUL byte, the
--            overrides text, a NUL byte and the seed in decimal: two runs with the same key ran the same
--            inputs (NULL for runs written before version 3).
--   metrics  one row per (run, metric): latency percentiles, SLO violations, cost and GPU-hours per
--            purchase option, ... A metric that is undefined (NaN, say no request was served) is NULL.
--   samples  the time series of a run, one row per sample period ending at t_s: arrival rate, queue, busy
--            slots, live instances per purchase option, billing rate, model copies. Averages over the period unless
--            the column says "at the sample instant" in models/sink.h.
--   events   the event log of a run (scale_out, scale_in, launch, ready, terminate, interruptions), in the
--            order seq = 1, 2, ... in which the run reported them.
--   sweeps   one row per sweep (gpucap sweep FILE): its name, key, file and swept keys, the number of
--            points and replications, and run_id_base: run i of the sweep (i = point * nreps +
--            replication) has run_id = run_id_base + i, reserved when the sweep is registered, so that
--            a sweep written by any number of processes, or merged from shards, has the same run ids.
--            sweep_key is FNV-1a-128 of every run key of the sweep in index order, then the sweep file text.
--   sweep_params  the value of each swept key at each point of a sweep, as given to --set (text), and as
--            a number when it is one (numeric_value, else NULL).
--   warnings one row per warning of a run (README, "Warnings"; models/warn.h): its code (fleet_at_max,
--            scaling_flaps, ...) and message, in the order the run reported them (seq = 1, 2, ...).
--   labels   the labels given with `gpucap run --label KEY=VALUE`: one row per key of a run.
--   charges  the run's bill by UTC clock hour (README, "The bill in FOCUS form"; models/sink.h, struct
--            sink_charge): one row per (clock hour, purchase option, kind) with a non-zero amount. kind is
--            'usage' (pay-as-you-go), 'used' / 'unused' (the part of a commitment or reservation that
--            covered usage / that nobody used) or 'upfront' (a purchase paid at once). The effective_usd
--            of an option's rows sums to its cost_<option>_usd metric. `gpucap export --focus` reads it.
--   hours    the requests measured per UTC clock hour (README, "Reports"; models/sink.h, struct sink_hour):
--            one row per clock hour the measured window [warm-up, horizon) touches: the requests that
--            ended in it (served or dropped), those over slo.latency_s (dropped included), and the latency
--            percentiles of the ones served in it (NULL when none). `gpucap report` draws them.
--   type_samples  the time series by instance type of a run with several types (serving.types; models/sink.h,
--            struct sink_sample): one row per (sample, type) with the instances of the type in service
--            (serving or draining) at the sample instant and its busy slots averaged over the period. A run
--            with one type has none (its figures are the samples row's). `gpucap export --samples` reads it.
-- Views (analysis/summary_view.sql, kept apart because it changes with every new metric):
--   run_summary  one wide row per run (run columns, the number of warnings, and one column per metric),
--                for sqlite3, pandas or a BI tool.
--   sweep_<name> one per sweep, created when the sweep is registered (analysis/store.h): one row per run
--                of the sweep, with its point, replication, status and error, one column per swept key,
--                then the columns of run_summary.
-- Views (analysis/stats_view.sql), for comparing sweep points over their replications (README, "Comparing runs"):
--   t975         the Student quantile t(0.975, df) for df 1 .. 30.
--   point_stats  one row per (sweep, point, metric): n, mean, stddev and ci95 (the 95% interval's half-width)
--                over the point's ok runs.
-- Times are seconds (t_s, horizon_s, wall_s) from the scenario start, or ISO-8601 UTC text (started_at).
-- samples and events are WITHOUT ROWID: rows are small and always read by (run_id, ...), so the primary
-- key is the table and no second index is stored. Deleting a run deletes its rows (foreign keys must be on,
-- as gpucap turns them on for every connection).
--
-- Versioning: PRAGMA user_version (set at the end of this script) is the schema version, and
-- application_id marks the file as a gpucap results database ('GPCP'). When the schema changes (a table
-- here or the view in summary_view.sql), bump user_version here and STORE_SCHEMA_VERSION in
-- analysis/store.h, and add a migration step in analysis/store.c that turns a version N-1 file into version
-- N; a file newer than the binary knows is refused, never guessed at.
-- History:
--   1  the tables and run_summary; released builds wrote several shapes of the view under this version,
--      the later ones with more metric columns.
--   2  samples.copies (model copies serving); run_summary with time_under_provisioned_s,
--      time_over_provisioned_s, copy_hours and copy_loads. Migration 1 -> 2 adds the column (NULL in the
--      rows already there), drops the view and re-creates it from summary_view.sql; no value changes.
--   3  sweeps: runs.sweep_id, point, replication, run_key and error (status may be 'failed'), the tables
--      sweeps and sweep_params, the index runs_by_key. Migration 2 -> 3 adds the columns (NULL in the rows
--      already there: those runs belong to no sweep and have no key), creates the tables and the index
--      and rebuilds run_summary; no value changes.
--   4  warnings and labels; run_summary gains horizon_s, scenario_path, overrides and warnings (the number of
--      the run's warnings) after instance_type, and the columns of the warm-up, SLO, violation-split and
--      normalised-cost metrics. Migration 3 -> 4 creates the two tables (empty: runs written before
--      version 4 have no warnings or labels recorded, and show 0 warnings) and rebuilds run_summary; no
--      value changes.
--   5  the views t975 and point_stats (analysis/stats_view.sql). Migration 4 -> 5 creates them (and every
--      migration rebuilds them, like run_summary); no table or value changes.
--   6  charges. Migration 5 -> 6 creates the table (empty: runs written before version 6 have no bill
--      lines recorded, and `gpucap export --focus` refuses them); no value changes.
--   7  hours. Migration 6 -> 7 creates the table (empty: runs written before version 7 have no hourly
--      latency recorded, and `gpucap report` says so); no value changes.
--   8  samples.instances_training_plan (SageMaker training plan instances); run_summary with the jobs
--      metrics (jobs_submitted ... jobs_gpu_hours_idle: NULL for runs without jobs). Migration 7 -> 8 adds
--      the column (NULL in the rows already there: those runs had no training plans) and rebuilds
--      run_summary; no value changes.
--   9  type_samples. Migration 8 -> 9 creates the table (empty: runs written before version 9 have no
--      per-type samples recorded); no value changes.
-- The store runs this script, then summary_view.sql and stats_view.sql, inside one transaction, on an empty
-- file only.

CREATE TABLE runs (
	run_id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,             -- scenario name
	scenario_path TEXT,             -- the file loaded; NULL when the scenario came from memory
	scenario_text TEXT NOT NULL,    -- the scenario file's full text as read
	overrides TEXT NOT NULL,        -- the --set overrides, one per line; '' when none
	seed INTEGER NOT NULL,          -- scenario seed (see above for seeds >= 2^63)
	status TEXT NOT NULL,           -- 'ok' once committed
	started_at TEXT NOT NULL,       -- wall-clock start, ISO-8601 UTC
	wall_s REAL,                    -- wall-clock duration of the run, seconds
	version TEXT NOT NULL,          -- gpucap version that ran it
	horizon_s REAL NOT NULL,        -- simulated length, seconds
	instance_type TEXT NOT NULL,    -- serving.instance_type, e.g. 'p5.48xlarge'
	-- version 3 (last: older files gain them by ALTER TABLE)
	sweep_id INTEGER,               -- sweeps.sweep_id; NULL outside a sweep
	point INTEGER,                  -- point index in the sweep, 0..npoints-1; NULL outside a sweep
	replication INTEGER,            -- replication index, 0..nreps-1; NULL outside a sweep
	run_key TEXT,                   -- see above; NULL for runs written before version 3
	error TEXT                      -- the message of a failed run; NULL when ok
);

CREATE INDEX runs_by_key ON runs (run_key);

CREATE TABLE metrics (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	name TEXT NOT NULL,             -- e.g. 'latency_p99_s'; the unit is in the name
	value REAL,                     -- NULL when undefined
	PRIMARY KEY (run_id, name)
) WITHOUT ROWID;

CREATE TABLE samples (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	t_s REAL NOT NULL,                    -- end of the sample period
	arrival_rate_per_s REAL,              -- arrivals in the period / period length
	queue_len REAL,                       -- requests waiting, at the sample instant
	busy_slots REAL,                      -- slots serving a request, time-averaged over the period
	instances_reserved REAL,              -- live instances per purchase option, at the sample instant
	instances_on_demand REAL,
	instances_spot REAL,
	instances_odcr REAL,
	instances_savings_plan REAL,
	instances_capacity_block REAL,
	instances_total REAL,                 -- sum of the instances_* columns
	cost_usd_per_h REAL,                  -- billing rate of the fleet at the sample instant
	copies REAL,                          -- model copies serving at the sample instant; NULL without
	                                      -- serving.copies (last: version 1 files gain it by ALTER TABLE)
	instances_training_plan REAL,         -- live instances of training plans, at the sample instant (after
	                                      -- copies: version 7 files gain it by ALTER TABLE)
	PRIMARY KEY (run_id, t_s)
) WITHOUT ROWID;

CREATE TABLE events (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	seq INTEGER NOT NULL,           -- 1, 2, ... in the order the run reported the events
	t_s REAL NOT NULL,              -- seconds from the scenario start
	kind TEXT NOT NULL,             -- 'scale_out', 'scale_in', 'launch', 'ready', 'terminate', ...
	option TEXT,                    -- purchase option concerned, NULL when not about one option
	count INTEGER,                  -- instances concerned (for scaling: the new desired capacity)
	detail TEXT,                    -- the reason (policy, metric value, target), or NULL
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE sweeps (
	sweep_id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,             -- the sweep's name (its file's name:)
	sweep_key TEXT NOT NULL UNIQUE, -- see above
	file_path TEXT,                 -- the sweep file as given; NULL when not from a file
	file_text TEXT NOT NULL,        -- the sweep file's full text
	params TEXT NOT NULL,           -- the swept keys, one per line, in order
	npoints INTEGER NOT NULL,       -- points of the sweep
	nreps INTEGER NOT NULL,         -- replications of each point
	run_id_base INTEGER NOT NULL,   -- run i of the sweep has run_id = run_id_base + i
	created_at TEXT NOT NULL        -- wall-clock time of registration, ISO-8601 UTC
);

CREATE TABLE sweep_params (
	sweep_id INTEGER NOT NULL REFERENCES sweeps ON DELETE CASCADE,
	point INTEGER NOT NULL,         -- 0..npoints-1
	key TEXT NOT NULL,              -- a swept key, e.g. 'autoscaling.target'
	value TEXT NOT NULL,            -- its value at this point, as given to --set
	numeric_value REAL,             -- the value as a number when it is a decimal number, else NULL
	PRIMARY KEY (sweep_id, point, key)
) WITHOUT ROWID;

CREATE TABLE warnings (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	seq INTEGER NOT NULL,           -- 1, 2, ... in the order the run reported them
	code TEXT NOT NULL,             -- e.g. 'fleet_at_max' (README, "Warnings")
	message TEXT NOT NULL,          -- the sentence printed after the summary
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE labels (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	key TEXT NOT NULL,              -- an identifier: [A-Za-z_][A-Za-z0-9_.-]*
	value TEXT NOT NULL,            -- any text, possibly ''
	PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

CREATE TABLE charges (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	hour INTEGER NOT NULL,          -- clock hour index: 0 = the UTC clock hour holding the scenario start
	option TEXT NOT NULL,           -- purchase option, e.g. 'savings_plan'
	kind TEXT NOT NULL,             -- 'usage', 'used', 'unused' or 'upfront'
	start_unix_s REAL NOT NULL,     -- the part of the clock hour inside the run's window: [start, end),
	end_unix_s REAL NOT NULL,       -- seconds since 1970-01-01T00:00:00Z
	quantity_h REAL NOT NULL,       -- instance-hours
	list_usd REAL NOT NULL,         -- those instance-hours at the On-Demand price
	billed_usd REAL NOT NULL,       -- what the invoice charges (a commitment's hourly fee share, a purchase)
	effective_usd REAL NOT NULL,    -- amortised cost (upfront fees spread over the hours they pay for)
	PRIMARY KEY (run_id, hour, option, kind)
) WITHOUT ROWID;

CREATE TABLE hours (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	hour_start_s REAL NOT NULL,     -- the clock hour's start, seconds from the scenario start (< 0 for the
	                                -- clock hour holding the start when the start is not on the hour)
	requests INTEGER NOT NULL,      -- measured requests that ended in the hour: served or dropped
	violations INTEGER NOT NULL,    -- of those, served over slo.latency_s or dropped
	latency_p50_s REAL,             -- end-to-end latency percentiles of the requests served in the hour;
	latency_p95_s REAL,             -- NULL when none was
	latency_p99_s REAL,
	PRIMARY KEY (run_id, hour_start_s)
) WITHOUT ROWID;

PRAGMA application_id = 1196442448;  -- 0x47504350, 'GPCP'
CREATE TABLE type_samples (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	t_s REAL NOT NULL,              -- end of the sample period, as samples.t_s
	type TEXT NOT NULL,             -- instance type, e.g. 'p4d.24xlarge'
	instances REAL NOT NULL,        -- instances of the type in service (serving or draining), at the sample
	                                -- instant
	busy_slots REAL NOT NULL,       -- slots of the type serving a request, time-averaged over the period
	PRIMARY KEY (run_id, t_s, type)
) WITHOUT ROWID;

PRAGMA user_version = 9;
-- gpucap results database: the run_summary view, schema version 5 (unchanged since version 4).
--
-- run_summary  one wide row per run (run columns plus one column per metric), for sqlite3, pandas or a BI
--              tool. It has no "wall_s" metric column: runs.wall_s already gives the wall-clock time (a metric
--              named wall_s, if a run reports one, stays in the metrics table). `warnings` is the number of the
--              run's warnings (the warnings table has them); metrics a run did not report are NULL.
--
-- The view lives apart from the tables (analysis/schema.sql) because it changes whenever a metric is
-- added, and the tables do not: the store runs this script after schema.sql when it creates a file, and
-- again when it migrates a file of an older schema version (DROP VIEW IF EXISTS run_summary, then this
-- script). It must therefore hold only the view, create it from the tables alone, and always describe the
-- current version. Adding or removing a column here is a schema change: bump the version as schema.sql says.
-- The view reads only; dropping and re-creating it never touches a row.

CREATE VIEW run_summary AS
SELECT
	r.run_id, r.name, r.seed, r.status, r.started_at, r.wall_s, r.instance_type,
	r.horizon_s, r.scenario_path, r.overrides,
	(SELECT count(*) FROM warnings AS w WHERE w.run_id = r.run_id) AS "warnings",
	MAX(CASE WHEN m.name = 'requests_total' THEN m.value END) AS "requests_total",
	MAX(CASE WHEN m.name = 'requests_served' THEN m.value END) AS "requests_served",
	MAX(CASE WHEN m.name = 'requests_dropped' THEN m.value END) AS "requests_dropped",
	MAX(CASE WHEN m.name = 'requests_timed_out' THEN m.value END) AS "requests_timed_out",
	MAX(CASE WHEN m.name = 'requests_refused' THEN m.value END) AS "requests_refused",
	MAX(CASE WHEN m.name = 'requests_unserved' THEN m.value END) AS "requests_unserved",
	MAX(CASE WHEN m.name = 'requests_interrupted_dropped' THEN m.value END) AS "requests_interrupted_dropped",
	MAX(CASE WHEN m.name = 'slo_violations' THEN m.value END) AS "slo_violations",
	MAX(CASE WHEN m.name = 'slo_violation_rate' THEN m.value END) AS "slo_violation_rate",
	MAX(CASE WHEN m.name = 'latency_mean_s' THEN m.value END) AS "latency_mean_s",
	MAX(CASE WHEN m.name = 'latency_p50_s' THEN m.value END) AS "latency_p50_s",
	MAX(CASE WHEN m.name = 'latency_p90_s' THEN m.value END) AS "latency_p90_s",
	MAX(CASE WHEN m.name = 'latency_p95_s' THEN m.value END) AS "latency_p95_s",
	MAX(CASE WHEN m.name = 'latency_p99_s' THEN m.value END) AS "latency_p99_s",
	MAX(CASE WHEN m.name = 'latency_max_s' THEN m.value END) AS "latency_max_s",
	MAX(CASE WHEN m.name = 'wait_mean_s' THEN m.value END) AS "wait_mean_s",
	MAX(CASE WHEN m.name = 'wait_p99_s' THEN m.value END) AS "wait_p99_s",
	MAX(CASE WHEN m.name = 'waited_fraction' THEN m.value END) AS "waited_fraction",
	MAX(CASE WHEN m.name = 'ttft_mean_s' THEN m.value END) AS "ttft_mean_s",
	MAX(CASE WHEN m.name = 'ttft_p50_s' THEN m.value END) AS "ttft_p50_s",
	MAX(CASE WHEN m.name = 'ttft_p90_s' THEN m.value END) AS "ttft_p90_s",
	MAX(CASE WHEN m.name = 'ttft_p99_s' THEN m.value END) AS "ttft_p99_s",
	MAX(CASE WHEN m.name = 'ttft_slo_violations' THEN m.value END) AS "ttft_slo_violations",
	MAX(CASE WHEN m.name = 'ttft_slo_violation_rate' THEN m.value END) AS "ttft_slo_violation_rate",
	MAX(CASE WHEN m.name = 'cost_total_usd' THEN m.value END) AS "cost_total_usd",
	MAX(CASE WHEN m.name = 'cost_reserved_usd' THEN m.value END) AS "cost_reserved_usd",
	MAX(CASE WHEN m.name = 'cost_on_demand_usd' THEN m.value END) AS "cost_on_demand_usd",
	MAX(CASE WHEN m.name = 'cost_spot_usd' THEN m.value END) AS "cost_spot_usd",
	MAX(CASE WHEN m.name = 'cost_odcr_usd' THEN m.value END) AS "cost_odcr_usd",
	MAX(CASE WHEN m.name = 'cost_savings_plan_usd' THEN m.value END) AS "cost_savings_plan_usd",
	MAX(CASE WHEN m.name = 'cost_capacity_block_usd' THEN m.value END) AS "cost_capacity_block_usd",
	MAX(CASE WHEN m.name = 'cost_training_plan_usd' THEN m.value END) AS "cost_training_plan_usd",
	MAX(CASE WHEN m.name = 'cost_per_1k_requests_usd' THEN m.value END) AS "cost_per_1k_requests_usd",
	MAX(CASE WHEN m.name = 'gpu_hours_paid' THEN m.value END) AS "gpu_hours_paid",
	MAX(CASE WHEN m.name = 'gpu_hours_busy' THEN m.value END) AS "gpu_hours_busy",
	MAX(CASE WHEN m.name = 'gpu_hours_idle' THEN m.value END) AS "gpu_hours_idle",
	MAX(CASE WHEN m.name = 'gpu_hours_idle_reserved' THEN m.value END) AS "gpu_hours_idle_reserved",
	MAX(CASE WHEN m.name = 'gpu_hours_idle_on_demand' THEN m.value END) AS "gpu_hours_idle_on_demand",
	MAX(CASE WHEN m.name = 'gpu_hours_idle_spot' THEN m.value END) AS "gpu_hours_idle_spot",
	MAX(CASE WHEN m.name = 'gpu_hours_idle_odcr' THEN m.value END) AS "gpu_hours_idle_odcr",
	MAX(CASE WHEN m.name = 'gpu_hours_idle_savings_plan' THEN m.value END) AS "gpu_hours_idle_savings_plan",
	MAX(CASE WHEN m.name = 'gpu_hours_idle_capacity_block' THEN m.value END)
		AS "gpu_hours_idle_capacity_block",
	MAX(CASE WHEN m.name = 'gpu_hours_idle_training_plan' THEN m.value END) AS "gpu_hours_idle_training_plan",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_reserved' THEN m.value END) AS "gpu_hours_paid_reserved",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_on_demand' THEN m.value END) AS "gpu_hours_paid_on_demand",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_spot' THEN m.value END) AS "gpu_hours_paid_spot",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_odcr' THEN m.value END) AS "gpu_hours_paid_odcr",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_savings_plan' THEN m.value END) AS "gpu_hours_paid_savings_plan",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_capacity_block' THEN m.value END) AS "gpu_hours_paid_capacity_block",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_training_plan' THEN m.value END) AS "gpu_hours_paid_training_plan",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_reserved' THEN m.value END) AS "gpu_hours_busy_reserved",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_on_demand' THEN m.value END) AS "gpu_hours_busy_on_demand",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_spot' THEN m.value END) AS "gpu_hours_busy_spot",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_odcr' THEN m.value END) AS "gpu_hours_busy_odcr",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_savings_plan' THEN m.value END) AS "gpu_hours_busy_savings_plan",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_capacity_block' THEN m.value END) AS "gpu_hours_busy_capacity_block",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_training_plan' THEN m.value END) AS "gpu_hours_busy_training_plan",
	MAX(CASE WHEN m.name = 'gpu_utilization' THEN m.value END) AS "gpu_utilization",
	MAX(CASE WHEN m.name = 'spot_interruptions' THEN m.value END) AS "spot_interruptions",
	MAX(CASE WHEN m.name = 'block_terminations' THEN m.value END) AS "block_terminations",
	MAX(CASE WHEN m.name = 'requests_interrupted' THEN m.value END) AS "requests_interrupted",
	MAX(CASE WHEN m.name = 'launch_failures' THEN m.value END) AS "launch_failures",
	MAX(CASE WHEN m.name = 'commitment_usd' THEN m.value END) AS "commitment_usd",
	MAX(CASE WHEN m.name = 'commitment_unused_usd' THEN m.value END) AS "commitment_unused_usd",
	MAX(CASE WHEN m.name = 'commitment_utilization' THEN m.value END) AS "commitment_utilization",
	MAX(CASE WHEN m.name = 'commitment_coverage' THEN m.value END) AS "commitment_coverage",
	MAX(CASE WHEN m.name = 'commitment_after_horizon_usd' THEN m.value END) AS "commitment_after_horizon_usd",
	MAX(CASE WHEN m.name = 'instances_peak' THEN m.value END) AS "instances_peak",
	MAX(CASE WHEN m.name = 'launches' THEN m.value END) AS "launches",
	MAX(CASE WHEN m.name = 'terminations' THEN m.value END) AS "terminations",
	MAX(CASE WHEN m.name = 'scale_out_actions' THEN m.value END) AS "scale_out_actions",
	MAX(CASE WHEN m.name = 'scale_in_actions' THEN m.value END) AS "scale_in_actions",
	MAX(CASE WHEN m.name = 'time_under_provisioned_s' THEN m.value END) AS "time_under_provisioned_s",
	MAX(CASE WHEN m.name = 'time_over_provisioned_s' THEN m.value END) AS "time_over_provisioned_s",
	MAX(CASE WHEN m.name = 'copy_hours' THEN m.value END) AS "copy_hours",
	MAX(CASE WHEN m.name = 'copy_loads' THEN m.value END) AS "copy_loads",
	MAX(CASE WHEN m.name = 'ttft_p95_s' THEN m.value END) AS "ttft_p95_s",
	MAX(CASE WHEN m.name = 'slo_violations_service' THEN m.value END) AS "slo_violations_service",
	MAX(CASE WHEN m.name = 'slo_violations_wait' THEN m.value END) AS "slo_violations_wait",
	MAX(CASE WHEN m.name = 'slo_violations_dropped' THEN m.value END) AS "slo_violations_dropped",
	MAX(CASE WHEN m.name = 'slo_violation_rate_floor' THEN m.value END) AS "slo_violation_rate_floor",
	MAX(CASE WHEN m.name = 'slo_percentile_floor_ratio' THEN m.value END) AS "slo_percentile_floor_ratio",
	MAX(CASE WHEN m.name = 'slo_met' THEN m.value END) AS "slo_met",
	MAX(CASE WHEN m.name = 'slo_windows' THEN m.value END) AS "slo_windows",
	MAX(CASE WHEN m.name = 'slo_windows_breached' THEN m.value END) AS "slo_windows_breached",
	MAX(CASE WHEN m.name = 'slo_windows_breached_fraction' THEN m.value END) AS "slo_windows_breached_fraction",
	MAX(CASE WHEN m.name = 'slo_worst_window_start_s' THEN m.value END) AS "slo_worst_window_start_s",
	MAX(CASE WHEN m.name = 'slo_worst_window_ratio' THEN m.value END) AS "slo_worst_window_ratio",
	MAX(CASE WHEN m.name = 'warmup_s' THEN m.value END) AS "warmup_s",
	MAX(CASE WHEN m.name = 'measured_s' THEN m.value END) AS "measured_s",
	MAX(CASE WHEN m.name = 'cost_measured_usd' THEN m.value END) AS "cost_measured_usd",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_measured' THEN m.value END) AS "gpu_hours_paid_measured",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_measured' THEN m.value END) AS "gpu_hours_busy_measured",
	MAX(CASE WHEN m.name = 'gpu_hours_idle_measured' THEN m.value END) AS "gpu_hours_idle_measured",
	MAX(CASE WHEN m.name = 'cost_per_hour_usd' THEN m.value END) AS "cost_per_hour_usd",
	MAX(CASE WHEN m.name = 'cost_per_month_usd' THEN m.value END) AS "cost_per_month_usd",
	MAX(CASE WHEN m.name = 'cost_per_year_usd' THEN m.value END) AS "cost_per_year_usd",
	MAX(CASE WHEN m.name = 'commitment_after_horizon_reserved_usd' THEN m.value END) AS "commitment_after_horizon_reserved_usd",
	MAX(CASE WHEN m.name = 'commitment_after_horizon_savings_plan_usd' THEN m.value END) AS "commitment_after_horizon_savings_plan_usd",
	MAX(CASE WHEN m.name = 'commitment_after_horizon_capacity_block_usd' THEN m.value END) AS "commitment_after_horizon_capacity_block_usd",
	MAX(CASE WHEN m.name = 'commitment_after_horizon_training_plan_usd' THEN m.value END) AS "commitment_after_horizon_training_plan_usd",
	MAX(CASE WHEN m.name = 'littles_law_error' THEN m.value END) AS "littles_law_error",
	MAX(CASE WHEN m.name = 'jobs_submitted' THEN m.value END) AS "jobs_submitted",
	MAX(CASE WHEN m.name = 'jobs_completed' THEN m.value END) AS "jobs_completed",
	MAX(CASE WHEN m.name = 'jobs_missed_deadline' THEN m.value END) AS "jobs_missed_deadline",
	MAX(CASE WHEN m.name = 'jobs_terminated' THEN m.value END) AS "jobs_terminated",
	MAX(CASE WHEN m.name = 'job_completion_p50_s' THEN m.value END) AS "job_completion_p50_s",
	MAX(CASE WHEN m.name = 'job_completion_p99_s' THEN m.value END) AS "job_completion_p99_s",
	MAX(CASE WHEN m.name = 'job_wait_mean_s' THEN m.value END) AS "job_wait_mean_s",
	MAX(CASE WHEN m.name = 'work_lost_instance_hours' THEN m.value END) AS "work_lost_instance_hours",
	MAX(CASE WHEN m.name = 'job_interruptions' THEN m.value END) AS "job_interruptions",
	MAX(CASE WHEN m.name = 'job_failures' THEN m.value END) AS "job_failures",
	MAX(CASE WHEN m.name = 'jobs_cost_reserved_usd' THEN m.value END) AS "jobs_cost_reserved_usd",
	MAX(CASE WHEN m.name = 'jobs_cost_on_demand_usd' THEN m.value END) AS "jobs_cost_on_demand_usd",
	MAX(CASE WHEN m.name = 'jobs_cost_spot_usd' THEN m.value END) AS "jobs_cost_spot_usd",
	MAX(CASE WHEN m.name = 'jobs_cost_odcr_usd' THEN m.value END) AS "jobs_cost_odcr_usd",
	MAX(CASE WHEN m.name = 'jobs_cost_savings_plan_usd' THEN m.value END) AS "jobs_cost_savings_plan_usd",
	MAX(CASE WHEN m.name = 'jobs_cost_capacity_block_usd' THEN m.value END) AS "jobs_cost_capacity_block_usd",
	MAX(CASE WHEN m.name = 'jobs_cost_training_plan_usd' THEN m.value END) AS "jobs_cost_training_plan_usd",
	MAX(CASE WHEN m.name = 'jobs_gpu_hours_paid' THEN m.value END) AS "jobs_gpu_hours_paid",
	MAX(CASE WHEN m.name = 'jobs_gpu_hours_idle' THEN m.value END) AS "jobs_gpu_hours_idle",
	MAX(CASE WHEN m.name = 'tpot_mean_s' THEN m.value END) AS "tpot_mean_s",
	MAX(CASE WHEN m.name = 'tpot_p50_s' THEN m.value END) AS "tpot_p50_s",
	MAX(CASE WHEN m.name = 'tpot_p90_s' THEN m.value END) AS "tpot_p90_s",
	MAX(CASE WHEN m.name = 'tpot_p99_s' THEN m.value END) AS "tpot_p99_s",
	MAX(CASE WHEN m.name = 'tpot_slo_violations' THEN m.value END) AS "tpot_slo_violations",
	MAX(CASE WHEN m.name = 'tpot_slo_violation_rate' THEN m.value END) AS "tpot_slo_violation_rate",
	MAX(CASE WHEN m.name = 'kv_cache_utilization' THEN m.value END) AS "kv_cache_utilization",
	MAX(CASE WHEN m.name = 'kv_cache_limited_share' THEN m.value END) AS "kv_cache_limited_share",
	MAX(CASE WHEN m.name = 'requests_kv_too_large' THEN m.value END) AS "requests_kv_too_large",
	MAX(CASE WHEN m.name = 'prefix_hit_rate' THEN m.value END) AS "prefix_hit_rate",
	MAX(CASE WHEN m.name = 'prefill_tokens_saved' THEN m.value END) AS "prefill_tokens_saved",
	MAX(CASE WHEN m.name = 'model_cache_hit_ratio' THEN m.value END) AS "model_cache_hit_ratio",
	MAX(CASE WHEN m.name = 'model_loading_wait_mean_s' THEN m.value END) AS "model_loading_wait_mean_s",
	MAX(CASE WHEN m.name = 'model_loading_wait_p99_s' THEN m.value END) AS "model_loading_wait_p99_s",
	MAX(CASE WHEN m.name = 'loaded_models_per_instance' THEN m.value END) AS "loaded_models_per_instance",
	MAX(CASE WHEN m.name = 'model_loads' THEN m.value END) AS "model_loads",
	MAX(CASE WHEN m.name = 'model_evictions' THEN m.value END) AS "model_evictions",
	MAX(CASE WHEN m.name = 'sim_events' THEN m.value END) AS "sim_events"
FROM runs AS r
LEFT JOIN metrics AS m ON m.run_id = r.run_id
GROUP BY r.run_id;
-- gpucap results database: the statistics views, schema version 5.
--
-- t975         the Student t quantile t(0.975, df) for df = 1 .. 30 (from GSL's gsl_cdf_tdist_Pinv, to 6
--              decimals): SQLite has no t quantile. point_stats uses 1.96, the normal quantile, for df > 30;
--              that understates the half-width by at most 4% (t(0.975, 31) = 2.0395).
-- point_stats  one row per (sweep, point, metric) over the point's runs with status 'ok' (failed runs and
--              NULL values left out): n, the mean, the sample standard deviation (n - 1 in the denominator;
--              NULL when n < 2) and ci95, the half-width of the 95% confidence interval of the mean,
--              t(0.975, n - 1) stddev / sqrt(n) (NULL when n < 2): the interval is mean +- ci95, as
--              `gpucap compare` computes it. sweep is the sweep's name; name the metric's. The standard
--              deviation is computed in two passes (deviations from the mean), never as sum(x^2) - n mean^2.
--              It uses sqrt(), one of SQLite's built-in math functions (present since SQLite 3.35 when built
--              with them, as the sqlite3 shell and Python's sqlite3 module usually are).
--
-- Like summary_view.sql, this script holds only views built from the tables; the store runs it after the
-- tables when it creates a file, and migrations from earlier versions run it too (dropping the views
-- first). The views read only.

CREATE VIEW t975 (df, t) AS VALUES
	(1, 12.706205), (2, 4.302653), (3, 3.182446), (4, 2.776445), (5, 2.570582), (6, 2.446912),
	(7, 2.364624), (8, 2.306004), (9, 2.262157), (10, 2.228139), (11, 2.200985), (12, 2.178813),
	(13, 2.160369), (14, 2.144787), (15, 2.131450), (16, 2.119905), (17, 2.109816), (18, 2.100922),
	(19, 2.093024), (20, 2.085963), (21, 2.079614), (22, 2.073873), (23, 2.068658), (24, 2.063899),
	(25, 2.059539), (26, 2.055529), (27, 2.051831), (28, 2.048407), (29, 2.045230), (30, 2.042272);

CREATE VIEW point_stats AS
WITH v AS (
	SELECT r.sweep_id, r.point, m.name, m.value
	FROM runs AS r JOIN metrics AS m ON m.run_id = r.run_id
	WHERE r.sweep_id IS NOT NULL AND r.status = 'ok' AND m.value IS NOT NULL
), a AS (
	SELECT sweep_id, point, name, count(*) AS n, avg(value) AS mean FROM v GROUP BY sweep_id, point, name
), s AS (
	SELECT a.sweep_id, a.point, a.name, a.n, a.mean,
	       CASE WHEN a.n > 1 THEN sqrt(sum((v.value - a.mean) * (v.value - a.mean)) / (a.n - 1)) END AS stddev
	FROM a JOIN v ON v.sweep_id = a.sweep_id AND v.point = a.point AND v.name = a.name
	GROUP BY a.sweep_id, a.point, a.name
)
SELECT s.sweep_id, w.name AS sweep, s.point, s.name, s.n, s.mean, s.stddev,
       CASE WHEN s.n > 1 THEN coalesce((SELECT t FROM t975 WHERE df = s.n - 1), 1.96) * s.stddev / sqrt(s.n)
       END AS ci95
FROM s JOIN sweeps AS w ON w.sweep_id = s.sweep_id;
