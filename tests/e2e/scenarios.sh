#!/usr/bin/env bash
# End-to-end: every scenario shipped in scenarios/ validates without warnings and runs to completion,
# writing a run in which every option paid whether used or not (reserved, ODCR, Savings Plan, Capacity
# Block, training plan) is billed (so the examples in the README keep working). On-demand and Spot entries are billed
# only if the load needed them, so they are not checked here. Little's law holds within 1% in every run with
# traffic (littles_law_error).
. "$(dirname "$0")/lib.sh"
cd "$TMP"
# GPUCAP_E2E_HORIZON (lib.sh; set under valgrind): each scenario runs to that horizon instead of its own,
# except those below, whose timed events (a step in the load, an outage, a block's window, a job) lie later:
# they get these overrides instead, which move the start or those times into a short run so that every
# option they name is still used and billed. An empty entry runs the scenario whole (it is cheap: jobs only).
declare -A short_set=(
	[capacity-block-launch.yaml]="start=2026-12-07T10:30:00Z horizon=2h workload.arrivals.steps.0.at=1h workload.arrivals.steps.1.at=2h"
	[realistic-mix.yaml]="start=2026-12-14T10:30:00Z horizon=2h workload.arrivals.steps.0.at=1h workload.arrivals.steps.1.at=2h"
	[savings-plan.yaml]="workload.arrivals.steps.0.at=40m workload.arrivals.steps.1.at=80m"
	[odcr.yaml]="fleet.2.ice_outages.0.start=30m fleet.2.ice_outages.0.end=1h"
	[copies-scale-to-zero.yaml]="start=2026-12-07T05:00:00Z horizon=3h"
	[jobs-shared-block.yaml]="start=2026-02-03T07:00:00Z horizon=2h jobs.list.0.submit=0"
	[jobs-finetune-plan.yaml]="" [jobs-loadtest.yaml]=""
)

# Under valgrind, every other scenario in name order (the first, third, ...): all of them run in the plain
# pass and, to 1 day, in CI's sanitizer pass.
i=0
for f in "$SRC"/scenarios/*.yaml; do
	i=$((i + 1))
	[ -n "$VGDIR" ] && [ $((i % 2)) -ne 1 ] && continue
	name=$(basename "$f")
	err=$("$GPUCAP" validate "$f" 2>&1 >/dev/null); rc=$?
	check "$name validates (rc $rc: $err)" test $rc -eq 0
	check "$name has no warnings ($err)" test -z "$err"
	short=()
	if [ -n "${GPUCAP_E2E_HORIZON:-}" ]; then
		short=(--set "horizon=$GPUCAP_E2E_HORIZON")
		if [ -n "${short_set[$name]+set}" ]; then
			short=()
			for kv in ${short_set[$name]}; do short+=(--set "$kv"); done
		fi
	fi
	"$GPUCAP" run "$f" --db runs.sqlite --quiet "${short[@]}"; rc=$?
	check "$name runs (rc $rc)" test $rc -eq 0
	id=$(sqlite3 runs.sqlite "select max(run_id) from runs")
	check "$name costs something" test "$(sqlite3 runs.sqlite "select value > 0 from metrics where run_id = $id and name = 'cost_total_usd'")" = 1
	# Little's law inside the run (models/README.md, "Metrics"): below 1% wherever requests arrived; NULL exactly when
	# none did (the jobs-only examples: no traffic, no time in system).
	ll=$(sqlite3 runs.sqlite "select case when t.value > 0 then coalesce(l.value < 0.01, 'NULL with traffic')
		else coalesce(l.value, 'no traffic') end from metrics t join metrics l on l.run_id = t.run_id
		and l.name = 'littles_law_error' where t.run_id = $id and t.name = 'requests_total'")
	check "$name littles_law_error below 1% or NULL without traffic ($ll)" test "$ll" = 1 -o "$ll" = "no traffic"
	for opt in reserved odcr savings_plan capacity_block training_plan; do
		if grep -q "option: $opt" "$f"; then
			cost=$(sqlite3 runs.sqlite "select value > 0 from metrics where run_id = $id and name = 'cost_${opt}_usd'")
			check "$name bills $opt" test "$cost" = 1
		fi
	done
done
finish
