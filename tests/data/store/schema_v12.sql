-- Test fixture, frozen: analysis/schema.sql as it stood at schema version 12 (before issue 36 added the
-- tables calibrations and calibration_hours).
-- gpucap results database, schema version 11: the tables (the views are in analysis/summary_view.sql and
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
--            the column says "at the sample instant" in models/metering/sink.h.
--   events   the event log of a run (scale_out, scale_in, launch, ready, terminate, interruptions), in the
--            order seq = 1, 2, ... in which the run reported them.
--   sweeps   one row per sweep (gpucap sweep FILE): its name, key, file and swept keys, the number of
--            points and replications, and run_id_base: run i of the sweep (i = point * nreps +
--            replication) has run_id = run_id_base + i, reserved when the sweep is registered, so that
--            a sweep written by any number of processes, or merged from shards, has the same run ids.
--            sweep_key is FNV-1a-128 of every run key of the sweep in index order, then the sweep file text.
--   sweep_params  the value of each swept key at each point of a sweep, as given to --set (text), and as
--            a number when it is one (numeric_value, else NULL).
--   warnings one row per warning of a run (models/README.md, "Warnings"; models/metering/warn.h): its code (fleet_at_max,
--            scaling_flaps, ...) and message, in the order the run reported them (seq = 1, 2, ...).
--   labels   the labels given with `gpucap run --label KEY=VALUE`: one row per key of a run.
--   charges  the run's bill by UTC clock hour (analysis/README.md, "The bill in FOCUS form"; models/metering/sink.h, struct
--            sink_charge): one row per (clock hour, purchase option, kind) with a non-zero amount. kind is
--            'usage' (pay-as-you-go), 'used' / 'unused' (the part of a commitment or reservation that
--            covered usage / that nobody used) or 'upfront' (a purchase paid at once). The effective_usd
--            of an option's rows sums to its cost_<option>_usd metric. `gpucap export --focus` reads it.
--   hours    the requests measured per UTC clock hour (analysis/README.md, "Reports"; models/metering/sink.h, struct sink_hour):
--            one row per clock hour the measured window [warm-up, horizon) touches: the requests that
--            ended in it (served or dropped), those over slo.latency_s (dropped included), and the latency
--            percentiles of the ones served in it (NULL when none). `gpucap report` draws them.
--   type_samples  the time series by instance type of a run with several types (serving.types; models/metering/sink.h,
--            struct sink_sample): one row per (sample, type) with the instances of the type in service
--            (serving or draining) at the sample instant and its busy slots averaged over the period. A run
--            with one type has none (its figures are the samples row's). `gpucap export --samples` reads it.
-- Views (analysis/summary_view.sql, kept apart because it changes with every new metric):
--   run_summary  one wide row per run (run columns, the number of warnings, and one column per metric),
--                for sqlite3, pandas or a BI tool.
--   sweep_<name> one per sweep, created when the sweep is registered (analysis/store.h): one row per run
--                of the sweep, with its point, replication, status and error, one column per swept key,
--                then the columns of run_summary.
-- Views (analysis/stats_view.sql), for comparing sweep points over their replications (analysis/README.md, "Comparing runs"):
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
--   10 the indexes runs_by_sweep, sweeps_by_name and labels_by_key (issue 29): `gpucap compare` and
--      `report` read a sweep point by point, merge and --resume a sweep's runs, report the recommend
--      sessions by label; without them each read scanned every run of the file (minutes on a file of
--      250,000 runs); and the tables run_inputs (the files each run's scenario names, with their content hash, which the run key
--      covers) and run_claims (which `gpucap sweep` process runs or ran each run of a sweep). Migration 9 ->
--      10 creates both (empty: runs written before version 10 have no input files recorded, and a resume
--      runs those of them whose scenario names a file again); no value changes.
--   11 run_summary with slo_violations_slowed (issue 32: misses whose service where they ran was slowed,
--      no longer counted as waiting; NULL for runs written before it). Migration 10 -> 11 rebuilds
--      run_summary; no table or value changes.
--   12 charges.use (whose bill line: 'serving' or 'jobs', in the primary key), samples.instances_jobs and
--      runs.region (issue 34: FOCUS for allocation). Migration 11 -> 12 rebuilds charges with use =
--      'serving' in the rows already there (exact for runs without jobs; a run with jobs written before
--      version 12 did not split its bill, and its jobs' part stays inside the serving rows: run it again
--      to tell them apart), adds samples.instances_jobs (NULL there) and runs.region (NULL there: the
--      FOCUS export then takes the provider's default region).
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
	error TEXT,                     -- the message of a failed run; NULL when ok
	-- version 12 (last: older files gain it by ALTER TABLE)
	region TEXT                     -- the cloud region the scenario is priced for (`region:`, or the
	                                -- provider's default: models/README.md); NULL for runs before it
);

CREATE INDEX runs_by_key ON runs (run_key);
-- version 10: a sweep's runs, point by point (compare, report, merge, --resume, the sweep_<name> views), and
-- the runs outside any sweep (sweep_id IS NULL)
CREATE INDEX runs_by_sweep ON runs (sweep_id, point, replication);

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
	instances_total REAL,                 -- sum of the instances_<option> columns
	cost_usd_per_h REAL,                  -- billing rate of the fleet at the sample instant
	copies REAL,                          -- model copies serving at the sample instant; NULL without
	                                      -- serving.copies (last: version 1 files gain it by ALTER TABLE)
	instances_training_plan REAL,         -- live instances of training plans, at the sample instant (after
	                                      -- copies: version 7 files gain it by ALTER TABLE)
	instances_jobs REAL,                  -- live instances whose user is the jobs (a shared entry's lent to
	                                      -- them included), at the sample instant; NULL in a run without
	                                      -- jobs (last: version 11 files gain it by ALTER TABLE)
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

CREATE INDEX sweeps_by_name ON sweeps (name);  -- version 10: compare and report name sweeps

CREATE TABLE warnings (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	seq INTEGER NOT NULL,           -- 1, 2, ... in the order the run reported them
	code TEXT NOT NULL,             -- e.g. 'fleet_at_max' (models/README.md, "Warnings")
	message TEXT NOT NULL,          -- the sentence printed after the summary
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE labels (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	key TEXT NOT NULL,              -- an identifier: [A-Za-z_][A-Za-z0-9_.-]*
	value TEXT NOT NULL,            -- any text, possibly ''
	PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

CREATE INDEX labels_by_key ON labels (key, value);  -- version 10: report finds recommend's runs by label

CREATE TABLE charges (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	hour INTEGER NOT NULL,          -- clock hour index: 0 = the UTC clock hour holding the scenario start
	option TEXT NOT NULL,           -- purchase option, e.g. 'savings_plan'
	kind TEXT NOT NULL,             -- 'usage', 'used', 'unused' or 'upfront'
	use TEXT NOT NULL,              -- whose it is: 'serving' or 'jobs' (version 12; models/README.md, the
	                                -- jobs' cost: the jobs' rows add up to jobs_cost_<option>_usd)
	start_unix_s REAL NOT NULL,     -- the part of the clock hour inside the run's window: [start, end),
	end_unix_s REAL NOT NULL,       -- seconds since 1970-01-01T00:00:00Z
	quantity_h REAL NOT NULL,       -- instance-hours
	list_usd REAL NOT NULL,         -- those instance-hours at the On-Demand price
	billed_usd REAL NOT NULL,       -- what the invoice charges (a commitment's hourly fee share, a purchase)
	effective_usd REAL NOT NULL,    -- amortised cost (upfront fees spread over the hours they pay for)
	PRIMARY KEY (run_id, hour, option, kind, use)
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

CREATE TABLE run_inputs (
	run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
	seq INTEGER NOT NULL,           -- 1, 2, ... in the order the scenario loader met the files
	path TEXT NOT NULL,             -- a file the scenario names (trace, jobs CSV, price or availability
	                                -- trace), resolved against the scenario's folder, as the run read it
	content_hash TEXT NOT NULL,     -- FNV-1a-128 of its bytes, 32 lowercase hex digits (in the run key)
	bytes INTEGER NOT NULL,         -- its size
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE run_claims (
	run_id INTEGER PRIMARY KEY,     -- a run of a sweep, claimed before it is run (no row in runs yet)
	sweep_id INTEGER NOT NULL REFERENCES sweeps ON DELETE CASCADE,
	host TEXT NOT NULL,             -- the host name of the `gpucap sweep` process that claimed it
	pid INTEGER NOT NULL,           -- its process id
	pid_start TEXT NOT NULL,        -- its start time (/proc/PID/stat, clock ticks since boot): a pid reused
	                                -- by another process is not taken for it; '' when unknown
	claimed_at TEXT NOT NULL        -- wall-clock time of the claim, ISO-8601 UTC
);

PRAGMA user_version = 12;
