-- gpucap results database: the run_summary view, schema version 3.
--
-- run_summary  one wide row per run (run columns plus one column per metric), for sqlite3, pandas or a BI
--              tool. It has no "wall_s" metric column: runs.wall_s already gives the wall-clock time (a metric
--              named wall_s, if a run reports one, stays in the metrics table).
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
	MAX(CASE WHEN m.name = 'gpu_hours_paid_reserved' THEN m.value END) AS "gpu_hours_paid_reserved",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_on_demand' THEN m.value END) AS "gpu_hours_paid_on_demand",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_spot' THEN m.value END) AS "gpu_hours_paid_spot",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_odcr' THEN m.value END) AS "gpu_hours_paid_odcr",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_savings_plan' THEN m.value END) AS "gpu_hours_paid_savings_plan",
	MAX(CASE WHEN m.name = 'gpu_hours_paid_capacity_block' THEN m.value END) AS "gpu_hours_paid_capacity_block",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_reserved' THEN m.value END) AS "gpu_hours_busy_reserved",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_on_demand' THEN m.value END) AS "gpu_hours_busy_on_demand",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_spot' THEN m.value END) AS "gpu_hours_busy_spot",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_odcr' THEN m.value END) AS "gpu_hours_busy_odcr",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_savings_plan' THEN m.value END) AS "gpu_hours_busy_savings_plan",
	MAX(CASE WHEN m.name = 'gpu_hours_busy_capacity_block' THEN m.value END) AS "gpu_hours_busy_capacity_block",
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
	MAX(CASE WHEN m.name = 'sim_events' THEN m.value END) AS "sim_events"
FROM runs AS r
LEFT JOIN metrics AS m ON m.run_id = r.run_id
GROUP BY r.run_id;
