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

costs() { # costs RUN [DB]: "option cost" lines of the run's cost_<option>_usd metrics (DB: r.sqlite)
	sqlite3 -separator ' ' "${2:-r.sqlite}" "SELECT substr(name, 6, length(name) - 9), value FROM metrics WHERE run_id = $1 \
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

# Upfront fees dated, and fee rows kept apart (issue 38), by hand. A 3-hour window from 2026-12-31T22:30Z (off
# the hour, across a new year) has clock hours h0 = [22:30, 23:00), h1 = [23:00, 24:00), h2 = [00:00, 01:00)
# and h3 = [01:00, 01:30) of 2027-01-01. Six reserved terms, each with an upfront fee of its own so that a row
# says whose it is: regional RIs (commitments) A from the window's start 22:30:00 ($1000 upfront, $20/h), B
# from 23:59:59, h1's last second ($500, $10/h), C from the horizon 01:30:00 ($125, $7/h), D from a second
# before the window, 22:29:59 ($64, $3/h); zonal reservations (fleet) E from 00:00:00 ($250, $5/h) and F from
# the horizon ($32, $1/h). An upfront fee is one purchase row in the clock hour its term starts in, when that is
# inside the window [0, horizon) (analysis/README.md): A's in h0 (dated the part of h0 inside the window,
# 22:30-23:00), B's in h1, E's in h2: three One-Time rows of 1000, 500 and 250, none merged with another; C
# and F start at the horizon and D before the window: no row. Each hour the reservations' hourly fees are one
# Recurring reserved row, apart from the Savings Plan's ($100/h) in the same hour: reserved h0 (20 + 3) x 0.5
# = 11.5; h1 20 + 3 + 10 x 1/3600 = 23.0027777778 (B's one second); h2 20 + 10 + 3 + 5 = 38; h3 38 x 0.5 = 19;
# the plan's 50, 100, 100, 50. h0 and h1 are billed in December 2026 (BillingPeriodStart 2026-12-01, End
# 2027-01-01), h2 and h3 in January 2027 (2027-01-01, 2027-02-01). The scenario's name, which holds quotes and a
# comma, is BillingAccountName as written (the CSV field quoted, its quotes doubled: RFC 4180).
cat >upfront.yaml <<'YAML'
name: 'upfront "dates", fees'
seed: 1
start: 2026-12-31T22:30:00Z
horizon: 3h
slo: {latency_s: 20}
workload:
  arrivals: {kind: uniform, rate_per_s: 1}
  service: {kind: constant, mean_s: 1}
serving: {instance_type: p5.48xlarge, slots_per_instance: 8}
fleet:
  - {option: on_demand, count: 2, max: 2}
  - {option: reserved, scope: zonal, count: 1, term: 1y, usd_per_h: 5, upfront_usd: 250, term_start: 2027-01-01T00:00:00Z}
  - {option: reserved, scope: zonal, count: 1, term: 1y, usd_per_h: 1, upfront_usd: 32, term_start: 2027-01-01T01:30:00Z}
commitments:
  - {option: reserved, count: 1, term: 1y, usd_per_h: 20, upfront_usd: 1000, term_start: 2026-12-31T22:30:00Z}
  - {option: reserved, count: 1, term: 1y, usd_per_h: 10, upfront_usd: 500, term_start: 2026-12-31T23:59:59Z}
  - {option: reserved, count: 1, term: 1y, usd_per_h: 7, upfront_usd: 125, term_start: 2027-01-01T01:30:00Z}
  - {option: reserved, count: 1, term: 1y, usd_per_h: 3, upfront_usd: 64, term_start: 2026-12-31T22:29:59Z}
  - {option: savings_plan, commit_usd_per_h: 100, discount: 0.30, term: 1y}
autoscaling: {policy: none}
YAML
"$GPUCAP" run upfront.yaml --db up.sqlite >/dev/null
"$GPUCAP" export --focus 1 --db up.sqlite -o upfront.csv 2>/dev/null
costs 1 up.sqlite >upfront.costs
check "upfront fees: columns valid, sums" python3 "$SRC/tests/e2e/focus.py" upfront.csv "$SRC/tests/data/focus/columns.txt" upfront.costs
check "upfront fees: dated in the hour each term starts, each its own row; fee rows per hour and option" \
	python3 - upfront.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
t = lambda s: s[11:16]
buys = [(t(r["ChargePeriodStart"]), t(r["ChargePeriodEnd"]), float(r["BilledCost"])) for r in rows
        if r["ChargeFrequency"] == "One-Time"]
assert buys == [("22:30", "23:00", 1000), ("23:00", "00:00", 500), ("00:00", "01:00", 250)], buys
assert all(r["CommitmentDiscountId"] == "gpucap:reserved" and r["x_GpucapKind"] == "upfront"
           for r in rows if r["ChargeFrequency"] == "One-Time")
fees = [(t(r["ChargePeriodStart"]), r["x_GpucapOption"], round(float(r["BilledCost"]), 10)) for r in rows
        if r["ChargeFrequency"] == "Recurring"]
assert fees == [("22:30", "reserved", 11.5), ("22:30", "savings_plan", 50), ("23:00", "reserved", 23.0027777778),
                ("23:00", "savings_plan", 100), ("00:00", "reserved", 38), ("00:00", "savings_plan", 100),
                ("01:00", "reserved", 19), ("01:00", "savings_plan", 50)], fees
for r in rows:
    dec = r["ChargePeriodStart"] < "2027-01-01"
    assert (r["BillingPeriodStart"], r["BillingPeriodEnd"]) == (("2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z") if dec
            else ("2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z")), r
    assert r["BillingAccountName"] == 'upfront "dates", fees', r["BillingAccountName"]
PY
check "upfront fees: the name's field quoted" grep -q ',"upfront ""dates"", fees",' upfront.csv
# Fee rows by user: serving and a job each run one p5.48xlarge ($55.04/h) through 2 clock hours under a $100/h
# plan at 30% off. Each hour the plan covers each at 55.04 x 0.7 = 38.528 and 100 - 2 x 38.528 = 22.944 is
# unused (serving's). The hour's fee is one row per user: the job's 38.528, serving's 38.528 + 22.944 = 61.472
# (4 fee rows, not 2 of 100); the job's row tagged with it (the run's one job). The run's label, with a quote,
# a backslash, a space, a tab and a '!', is in Tags as RFC 8259 writes it: the quote and the backslash escaped,
# the tab (a control character, below 0x20) as \u0009, the space and the '!' as they are.
cat >split.yaml <<'YAML'
name: split-fee
seed: 1
start: 2026-12-01T00:00:00Z
horizon: 2h
slo: {latency_s: 20}
workload:
  arrivals: {kind: uniform, rate_per_s: 1}
  service: {kind: constant, mean_s: 1}
serving: {instance_type: p5.48xlarge, slots_per_instance: 8, startup_s: 0}
fleet:
  - {option: on_demand, count: 1, max: 1}
  - {option: on_demand, use: jobs, max: 1}
commitments:
  - {option: savings_plan, commit_usd_per_h: 100, discount: 0.30, term: 1y}
autoscaling: {policy: none}
jobs:
  policy: on_demand
  list:
    - {name: tune, instances: 1, work_instance_hours: 5, submit: 0s}
YAML
"$GPUCAP" run split.yaml --db split.sqlite --label "$(printf 'note=a "q" \\ b\t!')" >/dev/null
"$GPUCAP" export --focus 1 --db split.sqlite -o split.csv 2>/dev/null
check "fee rows by user: one per hour and use" python3 - split.csv <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
fees = [(r["ChargePeriodStart"][11:16], json.loads(r["Tags"]).get("gpucap-job"), json.loads(r["Tags"])["gpucap-use"],
         round(float(r["BilledCost"]), 10)) for r in rows if r["ChargeFrequency"] == "Recurring"]
assert fees == [("00:00", "tune", "jobs", 38.528), ("00:00", None, "serving", 61.472),
                ("01:00", "tune", "jobs", 38.528), ("01:00", None, "serving", 61.472)], fees
for r in rows:
    use = json.loads(r["Tags"])["gpucap-use"]
    assert r["Tags"] == r'{"note":"a \"q\" \\ b\u0009!",' + ('"gpucap-job":"tune",' if use == "jobs" else "") + \
        '"gpucap-use":"%s"}' % use, r["Tags"]
PY
# Amounts that round to zero at 10 decimals are written 0.0000000000, never -0.0000000000; one at the cut is
# written as it rounds. A copy of up.sqlite with a Spot line added in h3 (the meter writes no such dust, a file
# may hold it): quantity -4e-11 h gives ConsumedQuantity and PricingQuantity 0.0000000000 (|x| < 5e-11);
# list_usd -5e-11 (not below the cut) gives ListCost -0.0000000001; billed 0.25 is its BilledCost and, Spot's
# price being the contract, its ContractedCost. A line of an option this build does not know (a file of another
# tool) is described by the option's own name: "p5.48xlarge gpu_flex usage".
cp up.sqlite dust.sqlite
sqlite3 dust.sqlite "INSERT INTO charges SELECT run_id, hour, 'spot', 'usage', use, start_unix_s, end_unix_s, -4e-11, \
	-5e-11, 0.25, 0.25 FROM charges WHERE hour = 3 AND option = 'savings_plan'; INSERT INTO charges SELECT run_id, \
	hour, 'gpu_flex', 'usage', use, start_unix_s, end_unix_s, 1, 55.04, 40, 40 FROM charges WHERE hour = 3 AND \
	option = 'savings_plan'"
"$GPUCAP" export --focus 1 --db dust.sqlite -o dust.csv 2>/dev/null
check "dust: no negative zero, the cut exact" python3 - dust.csv <<'PY'
import csv, sys
r = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["x_GpucapOption"] == "spot"]
assert len(r) == 1, r
r = r[0]
assert (r["ConsumedQuantity"], r["PricingQuantity"], r["ListCost"]) == ("0.0000000000", "0.0000000000",
                                                                        "-0.0000000001"), r
assert (r["BilledCost"], r["ContractedCost"], r["PricingCategory"]) == ("0.2500000000", "0.2500000000", "Dynamic"), r
flex = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["x_GpucapOption"] == "gpu_flex"]
assert [(r["ChargeDescription"], r["ResourceName"]) for r in flex] == [("p5.48xlarge gpu_flex usage",
                                                                       "p5.48xlarge gpu_flex instances of serving")], flex
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
"$GPUCAP" export --focus $id --db r.sqlite >plan.csv 2>plan.err
check "training plan: nothing owed after the horizon, no note ($(cat plan.err))" test ! -s plan.err
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

# A file of schema version 12 (before calibrations, version 13: all the export reads is there) gives the same
# bill: runs.region and charges.use are read from version 12 on.
cp r.sqlite v12.sqlite
sqlite3 v12.sqlite "DROP TABLE calibration_hours; DROP TABLE calibrations; PRAGMA user_version = 12"
"$GPUCAP" export --focus $id --db v12.sqlite -o v12.csv 2>/dev/null
check "a version 12 file: the same bill, region and use" cmp -s region.csv v12.csv

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
