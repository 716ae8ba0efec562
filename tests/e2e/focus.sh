#!/usr/bin/env bash
# End-to-end: `gpucap export --focus` (analysis/README.md, "The bill in FOCUS form"). On shipped scenarios (savings
# plan, reserved terms with upfront fees, ODCR, Spot, a Capacity Block; horizons shortened where a scenario
# allows) the CSV validates against tests/data/focus/columns.txt and EffectiveCost sums, per option, to the
# run's cost_<option>_usd to the cent (tests/e2e/focus.py); unused commitment has its own rows, worked out by
# hand on a small plan; serving's and the jobs' rows apart (Tags) add up to their bills; bad usage and unknown
# runs exit 2. `gpucap export --samples`: a three-type run's time series, each type's columns adding up to the
# run's.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

costs() { # costs RUN: "option cost" lines of the run's cost_<option>_usd metrics
	sqlite3 -separator ' ' r.sqlite "SELECT substr(name, 6, length(name) - 9), value FROM metrics WHERE run_id = $1 \
		AND name IN ('cost_reserved_usd', 'cost_on_demand_usd', 'cost_spot_usd', 'cost_odcr_usd', \
		'cost_savings_plan_usd', 'cost_capacity_block_usd', 'cost_training_plan_usd')"
}

# (reserved-terms with its term starting inside the window, so that its upfront fee is a purchase row)
specs=("savings-plan" "reserved-terms horizon=2d fleet.0.term_start=2026-12-01T06:00:00Z" "odcr horizon=2d"
	"spot-burst horizon=2d" "capacity-block-launch horizon=8d workload.arrivals.steps.1.at=8d")
if [ -n "$VGDIR" ]; then # under valgrind (20-50 times slower): hours, the block's opening inside them
	specs=("savings-plan horizon=6h workload.arrivals.steps.0.at=2h workload.arrivals.steps.1.at=4h" "reserved-terms horizon=8h fleet.0.term_start=2026-12-01T06:00:00Z"
		"odcr horizon=6h fleet.2.ice_outages.0.start=1h fleet.2.ice_outages.0.end=2h" "spot-burst horizon=6h"
		"capacity-block-launch start=2026-12-07T10:30:00Z horizon=3h workload.arrivals.steps.0.at=1h workload.arrivals.steps.1.at=3h")
fi
for spec in "${specs[@]}"; do
	set -- $spec
	name=$1; shift
	sets=(); for s in "$@"; do sets+=(--set "$s"); done
	"$GPUCAP" run "$SRC/scenarios/$name.yaml" --db r.sqlite "${sets[@]}" >/dev/null 2>err.txt
	check "$name runs" test $? -eq 0
	id=$(sqlite3 r.sqlite "SELECT max(run_id) FROM runs")
	"$GPUCAP" export --focus $id --db r.sqlite -o $name.csv; rc=$?
	check "$name: export exits 0 (got $rc)" test $rc -eq 0
	costs $id >$name.costs
	check "$name: columns valid, EffectiveCost per option = cost_<option>_usd" \
		python3 "$SRC/tests/e2e/focus.py" $name.csv "$SRC/tests/data/focus/columns.txt" $name.costs
done
# reserved-terms buys reservations with upfront fees; the Capacity Block is paid upfront
check "reserved-terms: an upfront purchase row" grep -q ',One-Time,.*,reserved,upfront' reserved-terms.csv
check "capacity-block-launch: the block's purchase row" grep -q ',One-Time,.*,capacity_block,upfront' capacity-block-launch.csv
check "odcr: used reserved capacity rows" grep -q ',Used,Usage,.*,odcr,used' odcr.csv

# Unused commitment, by hand: one on-demand instance (p5.48xlarge, $55.04/h) all along under a $100/h plan
# at 30% off, 3 clock hours from 2026-12-01T00:00Z. Each hour the plan covers the instance at
# 55.04 x 0.7 = $38.528 (used) and $100 - 38.528 = $61.472 is unused: 3 Used rows of EffectiveCost 38.528,
# 3 Unused rows of 61.472 (sum 184.416 = commitment_unused_usd), 3 hourly fee rows of BilledCost 100, and no
# On-Demand charge (cost_savings_plan_usd = 300, cost_on_demand_usd = 0).
"$GPUCAP" run "$SRC/scenarios/savings-plan.yaml" --db r.sqlite --set horizon=3h --set fleet.0.count=1 \
	--set fleet.0.max=1 --set autoscaling.min=1 --set autoscaling.max=1 --set commitments.0.commit_usd_per_h=100 \
	--set workload.arrivals.rate_per_s=1 --set workload.arrivals.steps.0.at=2h \
	--set workload.arrivals.steps.1.at=3h >/dev/null
id=$(sqlite3 r.sqlite "SELECT max(run_id) FROM runs")
"$GPUCAP" export --focus $id --db r.sqlite >small.csv
costs $id >small.costs
check "small plan: columns valid, sums" python3 "$SRC/tests/e2e/focus.py" small.csv "$SRC/tests/data/focus/columns.txt" small.costs
check "small plan: rows by hand" python3 - small.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
used = [r for r in rows if r["CommitmentDiscountStatus"] == "Used"]
unused = [r for r in rows if r["CommitmentDiscountStatus"] == "Unused"]
fees = [r for r in rows if r["ChargeFrequency"] == "Recurring"]
assert len(rows) == 9 and len(used) == 3 and len(unused) == 3 and len(fees) == 3, len(rows)
for r in used:
    assert abs(float(r["EffectiveCost"]) - 38.528) < 1e-6 and float(r["BilledCost"]) == 0, r
    assert abs(float(r["ConsumedQuantity"]) - 1) < 1e-9 and abs(float(r["ListCost"]) - 55.04) < 1e-6, r
for r in unused:
    assert abs(float(r["EffectiveCost"]) - 61.472) < 1e-6 and float(r["BilledCost"]) == 0, r
    assert r["ChargeCategory"] == "Usage" and r["CommitmentDiscountCategory"] == "Spend", r
for r in fees:
    assert abs(float(r["BilledCost"]) - 100) < 1e-6 and float(r["EffectiveCost"]) == 0, r
    assert r["ChargeCategory"] == "Purchase", r
assert [r["ChargePeriodStart"] for r in fees] == ["2026-12-01T00:00:00Z", "2026-12-01T01:00:00Z",
                                                  "2026-12-01T02:00:00Z"], fees
assert abs(sum(float(r["EffectiveCost"]) for r in unused) - 184.416) < 1e-6
PY

# A training plan of two segments ($30 per instance-hour): 2 x 30 x 24 = $1440 and an upfront_usd of $1000,
# each one purchase row (One-Time, CapacityReservationId gpucap:training_plan) of its price, and usage rows
# whose EffectiveCost adds up to cost_training_plan_usd = $2440.
cat >plan.yaml <<'YAML'
name: plan
start: 2026-01-01T00:00:00Z
horizon: 6d
slo: {latency_s: 10}
workload:
  arrivals: {kind: uniform, rate_per_s: 1}
  service: {kind: constant, mean_s: 1}
serving: {instance_type: p5.48xlarge, slots_per_instance: 8}
fleet:
  - option: training_plan
    usd_per_h: 30
    segments:
      - {start: 2026-01-02T00:00:00Z, days: 1, count: 2}
      - {start: 2026-01-04T00:00:00Z, days: 2, count: 1, upfront_usd: 1000}
  - {option: on_demand, count: 1, max: 1}
YAML
"$GPUCAP" run plan.yaml --db r.sqlite >/dev/null
id=$(sqlite3 r.sqlite "SELECT max(run_id) FROM runs")
"$GPUCAP" export --focus $id --db r.sqlite >plan.csv
costs $id >plan.costs
check "training plan: columns valid, EffectiveCost per option = cost_<option>_usd" \
	python3 "$SRC/tests/e2e/focus.py" plan.csv "$SRC/tests/data/focus/columns.txt" plan.costs
check "training plan: two purchase rows of 1440 and 1000" python3 - plan.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["x_GpucapOption"] == "training_plan"]
buys = sorted(float(r["BilledCost"]) for r in rows if r["ChargeFrequency"] == "One-Time")
assert len(buys) == 2 and abs(buys[0] - 1000) < 1e-6 and abs(buys[1] - 1440) < 1e-6, buys
assert all(r["CapacityReservationId"] == "gpucap:training_plan" for r in rows), rows[0]
assert abs(sum(float(r["EffectiveCost"]) for r in rows) - 2440) < 1e-6
PY

# Allocation (issue 34): serving and a fine-tuning job under one Savings Plan (tests/data/focus/serving-jobs.yaml),
# run with a label. Grouped by Tags' gpucap-use, EffectiveCost sums to the jobs' bill (the jobs_cost_<option>_usd
# metrics) and to serving's (cost_total_usd less the jobs') to the cent, and all rows to cost_total_usd; the jobs
# bear part of the plan (rows of savings_plan used with gpucap-use jobs); every row's Tags is a JSON object with
# the run's labels; RegionId is the provider's default (aws: us-east-1), or the scenario's region in a second
# run; ResourceId is one per (use, option, type) pool and the same in a second export. The export says on
# stderr what the run still owes after its horizon and that it writes no projected rows for it.
short=(); [ -n "$VGDIR" ] && short=(--set horizon=4h) # under valgrind: the job still runs (from hour 1)
"$GPUCAP" run "$SRC/tests/data/focus/serving-jobs.yaml" --db r.sqlite "${short[@]}" --label team=ml-platform \
	--label 'note=a "quoted", label' >/dev/null 2>err.txt
check "serving-jobs runs" test $? -eq 0
id=$(sqlite3 r.sqlite "SELECT max(run_id) FROM runs")
"$GPUCAP" export --focus $id --db r.sqlite -o alloc.csv 2>alloc.err; rc=$?
check "serving-jobs: export exits 0 (got $rc)" test $rc -eq 0
"$GPUCAP" export --focus $id --db r.sqlite -o alloc2.csv 2>/dev/null
costs $id >alloc.costs
check "serving-jobs: columns valid, EffectiveCost per option = cost_<option>_usd" \
	python3 "$SRC/tests/e2e/focus.py" alloc.csv "$SRC/tests/data/focus/columns.txt" alloc.costs
sqlite3 -separator ' ' r.sqlite "SELECT name, value FROM metrics WHERE run_id = $id AND (name = 'cost_total_usd' \
	OR name LIKE 'jobs_cost_%_usd')" >alloc.metrics
check "serving-jobs: EffectiveCost by gpucap-use = the users' bills to the cent; Tags, RegionId, ResourceId" \
	python3 - alloc.csv alloc2.csv alloc.metrics us-east-1 <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
again = list(csv.DictReader(open(sys.argv[2], newline="")))
m = {l.split()[0]: float(l.split()[1]) for l in open(sys.argv[3]) if l.strip()}
jobs_bill = sum(v for k, v in m.items() if k.startswith("jobs_cost_"))
total = m["cost_total_usd"]
by_use, pools = {}, {}
for r in rows:
    tags = json.loads(r["Tags"])
    assert isinstance(tags, dict), r["Tags"]
    assert tags["team"] == "ml-platform" and tags["note"] == 'a "quoted", label', tags
    use = tags["gpucap-use"]
    # a run of one job: its rows name the job, serving's do not
    assert tags.get("gpucap-job") == ("finetune" if use == "jobs" else None), tags
    by_use[use] = by_use.get(use, 0.0) + float(r["EffectiveCost"])
    assert r["RegionId"] == sys.argv[4] and r["RegionName"] == sys.argv[4], r["RegionId"]
    key = (use, r["x_GpucapOption"], r["SkuId"])
    assert r["ResourceId"], r
    assert pools.setdefault(key, r["ResourceId"]) == r["ResourceId"], (key, r["ResourceId"])
assert len(set(pools.values())) == len(pools), pools
assert [r["ResourceId"] for r in rows] == [r["ResourceId"] for r in again]
assert jobs_bill > 0 and total - jobs_bill > 0, m
assert abs(by_use["jobs"] - jobs_bill) < 0.005, (by_use, jobs_bill)
assert abs(by_use["serving"] - (total - jobs_bill)) < 0.005, (by_use, total - jobs_bill)
assert abs(sum(float(r["EffectiveCost"]) for r in rows) - total) < 0.005
assert any(json.loads(r["Tags"])["gpucap-use"] == "jobs" and r["x_GpucapOption"] == "savings_plan"
           and r["x_GpucapKind"] == "used" for r in rows), "the jobs bear no part of the plan"
PY
check "serving-jobs: the export notes what is owed after the horizon" grep -q "no projected rows" alloc.err
check "serving-jobs: samples count the jobs' instances" \
	test "$(sqlite3 r.sqlite "SELECT max(instances_jobs) FROM samples WHERE run_id = $id")" = "2.0"
"$GPUCAP" run "$SRC/tests/data/focus/serving-jobs.yaml" --db r.sqlite --set region=eu-west-1 --set horizon=2h \
	>/dev/null 2>err.txt
id=$(sqlite3 r.sqlite "SELECT max(run_id) FROM runs")
"$GPUCAP" export --focus $id --db r.sqlite -o region.csv 2>/dev/null
costs $id >region.costs
sqlite3 -separator ' ' r.sqlite "SELECT name, value FROM metrics WHERE run_id = $id AND (name = 'cost_total_usd' \
	OR name LIKE 'jobs_cost_%_usd')" >region.metrics
check "a scenario's region: RegionId eu-west-1, bills by use still add up" \
	python3 - region.csv region.csv region.metrics eu-west-1 <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
m = {l.split()[0]: float(l.split()[1]) for l in open(sys.argv[3]) if l.strip()}
jobs = sum(float(r["EffectiveCost"]) for r in rows if json.loads(r["Tags"])["gpucap-use"] == "jobs")
assert all(r["RegionId"] == sys.argv[4] for r in rows), rows[0]["RegionId"]
assert abs(jobs - sum(v for k, v in m.items() if k.startswith("jobs_cost_"))) < 0.005
assert abs(sum(float(r["EffectiveCost"]) for r in rows) - m["cost_total_usd"]) < 0.005
PY

# --samples: the time series, with two columns per type for a run of several types (analysis/series.h)
"$GPUCAP" run "$SRC/scenarios/three-types.yaml" --db r.sqlite --set horizon=2h >/dev/null 2>err.txt
check "three-types runs" test $? -eq 0
id=$(sqlite3 r.sqlite "SELECT max(run_id) FROM runs")
"$GPUCAP" export --samples $id --db r.sqlite -o samples.csv
check "export --samples exits 0" test $? -eq 0
check "samples: 120 rows, each type's busy slots add up to busy_slots, its instances to at most the total" \
	python3 - samples.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
types = [c[len("busy_slots:"):] for c in rows[0] if c.startswith("busy_slots:")]
assert types[0] == "p5.48xlarge" and sorted(types[1:]) == ["g6e.48xlarge", "p4d.24xlarge"], types
assert len(rows) == 120, len(rows)
for r in rows:
    assert abs(sum(float(r["busy_slots:" + t]) for t in types) - float(r["busy_slots"])) < 1e-6, r
    assert sum(float(r["instances:" + t]) for t in types) <= float(r["instances_total"]) + 1e-9, r
PY
"$GPUCAP" export --samples 1 --db r.sqlite >one.csv
check "a run of one type: no type columns" sh -c '! head -1 one.csv | grep -q "instances:"'
"$GPUCAP" export --db r.sqlite --samples 1 --focus 1 >/dev/null 2>&1; rc=$?
check "--samples with --focus exits 2 (got $rc)" test $rc -eq 2

"$GPUCAP" export --db r.sqlite --focus 99 >/dev/null 2>err.txt; rc=$?
check "unknown run exits 2 (got $rc)" test $rc -eq 2
check "unknown run: message" grep -q "no run 99" err.txt
"$GPUCAP" export --db r.sqlite >/dev/null 2>&1; rc=$?
check "no --focus exits 2 (got $rc)" test $rc -eq 2
"$GPUCAP" export --db r.sqlite --focus x1 >/dev/null 2>&1; rc=$?
check "bad run id exits 2 (got $rc)" test $rc -eq 2
finish
