#!/usr/bin/env bash
# End-to-end: `gpucap calibrate` (analysis/README.md, "Calibrating against a bill"). The bills of a week,
# tests/data/calibrate/week-cur.csv and week-focus.csv (written by make_bills.py from a known usage table: 4
# On-Demand and 1 Spot p5.48xlarge every hour, $55.04 and $27.52 an hour), against the scenario of that week
# one On-Demand instance short (week-one-short.yaml): the errors worked out by hand below, the same from both
# formats; against the scenario as billed (week.yaml): none. A run against gpucap's own FOCUS export of
# itself (shipped scenarios with Savings Plans, reserved terms, ODCRs, Spot, a Capacity Block): no error.
# What is stored (calibrations, calibration_hours), --run, --json, --hours; malformed bills and scenarios
# that do not cover the bill exit 2 with FILE:LINE:COL and leave the results file as it was.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
D=$SRC/tests/data/calibrate

# The bills are what make_bills.py writes.
python3 "$D/make_bills.py" "$TMP"
check "make_bills.py writes week-cur.csv" cmp -s week-cur.csv "$D/week-cur.csv"
check "make_bills.py writes week-focus.csv" cmp -s week-focus.csv "$D/week-focus.csv"

# jv FILE PYTHON-EXPRESSION: a value of the JSON object in FILE (j), printed
jv() { python3 -c "import json, sys; j = json.load(open(sys.argv[1])); print($2)" "$1"; }
# near A B [TOL]: |A - B| <= TOL (default 1e-6)
near() { python3 -c "import sys; a, b, t = map(float, sys.argv[1:]); sys.exit(abs(a - b) > t)" "$1" "$2" "${3:-1e-6}"; }

# One instance short, by hand. Each of the 168 hours is billed on_demand 4 h / $220.16 and spot 1 h / $27.52
# (all: 5 h / $247.68); the run has 3 On-Demand instances (3 h / $165.12) and the Spot one (all: 4 h /
# $192.64). Every hour is off by the same amount: instance-hours |4 - 5| / 5 = 20% (on_demand 1/4 = 25%),
# cost 55.04 / 247.68 = 2/9 = 22.2222% (on_demand 25%), spot 0. So the MAPE is 20% and 22.2222%, the totals
# -20% (672 against 840 h) and -22.2222% ($32,363.52 against $41,610.24), and the worst hour is the first of
# equal ones, 2026-11-02T00:00:00Z.
for f in cur focus; do
	"$GPUCAP" calibrate "$D/week-$f.csv" "$D/week-one-short.yaml" --db r.sqlite --json >short-$f.json 2>err.txt
	rc=$?
	check "$f, one short: exits 0 (got $rc)" test $rc -eq 0
	check "$f: format read from the header" test "$(jv short-$f.json 'j["format"]')" = $f
	check "$f: 168 hours from 2026-11-02" test "$(jv short-$f.json 'j["hours"], j["start"]')" = "168 2026-11-02T00:00:00Z"
	check "$f: rows kept 818 (840 instance-hours in 818 rows: a day row, 3 split rows), 25 other types, 3 not usage" \
		test "$(jv short-$f.json 'j["rows_kept"], j["rows_other_type"], j["rows_not_usage"]')" = "818 25 3"
	a='j["classes"]["all"]'
	check "$f: billed 840 h, simulated 672 h" near "$(jv short-$f.json "$a['billed']['instance_hours'] - 840 + $a['simulated']['instance_hours'] - 672")" 0
	check "$f: billed \$41,610.24, simulated \$32,363.52" \
		near "$(jv short-$f.json "abs($a['billed']['cost_usd'] - 41610.24) + abs($a['simulated']['cost_usd'] - 32363.52)")" 0
	check "$f: instance-hours MAPE 20%" near "$(jv short-$f.json "$a['instance_hours_error']['mape_pct']")" 20
	check "$f: instance-hours total -20%" near "$(jv short-$f.json "$a['instance_hours_error']['total_pct']")" -20
	check "$f: cost MAPE 200/9%" near "$(jv short-$f.json "$a['cost_error']['mape_pct']")" 22.2222222222
	check "$f: cost total -200/9%" near "$(jv short-$f.json "$a['cost_error']['total_pct']")" -22.2222222222
	check "$f: worst hour the first, billed 5, simulated 4" test "$(jv short-$f.json \
		"$a['instance_hours_error']['worst_hour'], $a['instance_hours_error']['worst_billed'], $a['instance_hours_error']['worst_simulated']")" = "2026-11-02T00:00:00Z 5 4"
	check "$f: worst cost hour the first too" test "$(jv short-$f.json "$a['cost_error']['worst_hour']")" = 2026-11-02T00:00:00Z
	check "$f: on_demand MAPE 25%, spot 0" near "$(jv short-$f.json \
		"j['classes']['on_demand']['instance_hours_error']['mape_pct'] + j['classes']['on_demand']['cost_error']['mape_pct'] + 100 * j['classes']['spot']['cost_error']['mape_pct']")" 50
	check "$f: 336 hour rows (168 hours x 2 classes)" test "$(jv short-$f.json 'len(j["by_hour"])')" = 336
done
check "the warnings of the scenario are printed" test ! -s err.txt
check "two runs, two calibrations stored" test "$(sqlite3 r.sqlite 'SELECT count(*) FROM runs; SELECT count(*) FROM calibrations' | tr '\n' ' ')" = "2 2 "
check "stored: MAPE, worst hour, total" test "$(sqlite3 r.sqlite "SELECT round(hours_mape_pct, 6), hours_worst_unix_s, \
	round(cost_total_pct, 4), bill_format, types, rows_kept FROM calibrations WHERE calibration_id = 1")" = "20.0|1793577600|-22.2222|cur|p5.48xlarge|818"
check "stored: the hours by class add up to the totals" test "$(sqlite3 r.sqlite "SELECT class, count(*), round(sum(billed_h), 6), \
	round(sum(simulated_usd), 2) FROM calibration_hours WHERE calibration_id = 2 GROUP BY class ORDER BY class" | tr '\n' ' ')" = \
	"on_demand|168|672.0|27740.16 spot|168|168.0|4623.36 "

# analysis/README.md's example is this output, word for word.
(cd "$SRC" && "$GPUCAP" calibrate tests/data/calibrate/week-cur.csv tests/data/calibrate/week-one-short.yaml \
	--db "$TMP/readme.sqlite") | sed "s|$TMP/readme.sqlite|r.sqlite|" >readme.txt
check "analysis/README.md shows the output of its example" python3 -c \
	'import sys; sys.exit(open(sys.argv[2]).read() not in open(sys.argv[1]).read())' "$SRC/analysis/README.md" readme.txt

# As billed: no error, from either format.
"$GPUCAP" calibrate "$D/week-cur.csv" "$D/week.yaml" --db r.sqlite --json >exact.json
check "as billed: exits 0" test $? -eq 0
check "as billed: MAPE 0 (instance-hours and cost)" near "$(jv exact.json \
	'j["classes"]["all"]["instance_hours_error"]["mape_pct"] + j["classes"]["all"]["cost_error"]["mape_pct"]')" 0
run=$(jv exact.json 'j["run_id"]')
"$GPUCAP" calibrate "$D/week-focus.csv" --run $run --db r.sqlite >text.txt
check "--run: exits 0, no new run" test $? -eq 0 -a "$(sqlite3 r.sqlite 'SELECT count(*) FROM runs')" = 3
check "text: the error lines" grep -q "instance-hours: MAPE 0.00% over 168 hours billed > 0; total 0.00%; worst hour 2026-11-02T00:00:00Z" text.txt
check "text: the rows left out are counted" grep -q "846 rows: 818 kept, 25 of other instance types or services, 3 not usage" text.txt
"$GPUCAP" calibrate "$D/week-focus.csv" --run 1 --db r.sqlite --hours >hours.txt
check "--hours: a line per hour and class" test "$(grep -c '^2026-11-0[2-8]T..:00:00Z  on_demand  *4.000  *3.000  *220.1600  *165.1200$' hours.txt)" = 168

# An hour missing from the bill (every row starting 2026-11-03T05:00:00Z removed: billed 0, simulated 5 h):
# no percentage for it, counted apart; the other 167 hours have none.
grep -v ',2026-11-03T05:00:00Z,,' "$D/week-focus.csv" >gap.csv
"$GPUCAP" calibrate gap.csv --run $run --db r.sqlite --json >gap.json
check "a billed-zero hour: counted apart, MAPE over the 167 others" test "$(jv gap.json \
	'j["classes"]["all"]["instance_hours_error"]["zero_billed_hours"], j["classes"]["all"]["instance_hours_error"]["hours"], j["classes"]["all"]["instance_hours_error"]["mape_pct"]')" = "1 167 0"

# A run against its own FOCUS export: no error, in every class (commitments, reservations, Spot).
# (focus.sh's short horizons: a few hours each, the Capacity Block opening inside them)
specs=("savings-plan horizon=6h workload.arrivals.steps.0.at=2h workload.arrivals.steps.1.at=4h"
	"reserved-terms horizon=8h fleet.0.term_start=2026-12-01T06:00:00Z"
	"odcr horizon=6h fleet.2.ice_outages.0.start=1h fleet.2.ice_outages.0.end=2h" "spot-burst horizon=6h"
	"capacity-block-launch start=2026-12-07T10:30:00Z horizon=3h workload.arrivals.steps.0.at=1h workload.arrivals.steps.1.at=3h")
for spec in "${specs[@]}"; do
	set -- $spec
	name=$1; shift
	sets=(); for s in "$@"; do sets+=(--set "$s"); done
	"$GPUCAP_PLAIN" run "$SRC/scenarios/$name.yaml" --db s.sqlite "${sets[@]}" >/dev/null 2>&1
	id=$(sqlite3 s.sqlite "SELECT max(run_id) FROM runs")
	"$GPUCAP_PLAIN" export --focus $id --db s.sqlite -o $name.csv 2>/dev/null
	"$GPUCAP" calibrate $name.csv --run $id --db s.sqlite --json >$name.json
	check "$name: calibrated against its own export, exits 0" test $? -eq 0
	check "$name: no error in any class" python3 - $name.json <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for name, c in j["classes"].items():
    for what in ("instance_hours", "cost_usd", "commitment_used_h", "commitment_unused_usd"):
        b, s = c["billed"][what], c["simulated"][what]
        assert abs(b - s) <= 1e-6 * max(1, abs(b)), (name, what, b, s)
    for e in ("instance_hours_error", "cost_error"):
        assert c[e]["mape_pct"] is None or c[e]["mape_pct"] < 1e-6, (name, e, c[e])
        assert c[e]["zero_billed_hours"] == 0, (name, e, c[e])
assert j["classes"]["all"]["billed"]["cost_usd"] > 0
PY
done
check "savings-plan: covered hours compared" test "$(jv savings-plan.json 'j["classes"]["savings_plan"]["billed"]["commitment_used_h"] > 0')" = True
check "odcr: reservations compared" test "$(jv odcr.json 'j["classes"]["reservation"]["billed"]["commitment_used_h"] > 0')" = True

# Bad input: exit 2, FILE:LINE:COL and what was expected; nothing written (no results file is created).
bad() { # bad DESCRIPTION EXPECTED-MESSAGE ARGS...
	local what=$1 msg=$2; shift 2
	"$GPUCAP" calibrate "$@" --db bad.sqlite >out.txt 2>err.txt
	local rc=$?
	check "$what: exits 2 (got $rc)" test $rc -eq 2
	check "$what: says '$msg' (got: $(cat err.txt))" grep -qF -- "$msg" err.txt
	check "$what: no results file" test ! -e bad.sqlite
}
sed '1s/,EffectiveCost,/,Cost,/' "$D/week-focus.csv" >nocost.csv
bad "missing column" "nocost.csv:1: row: the header has no column EffectiveCost; expected a FOCUS header" nocost.csv "$D/week.yaml"
sed '3s/2026-11-02T00:00:00Z,,/2026-11-31T00:00:00Z,,/' "$D/week-focus.csv" >baddate.csv
bad "bad date" "baddate.csv:3:6: ChargePeriodStart: '2026-11-31T00:00:00Z'; expected an ISO-8601 UTC time" baddate.csv "$D/week.yaml"
sed '4s/,1,55.04,55.04,/,one,55.04,55.04,/' "$D/week-cur.csv" >badnum.csv
bad "non-numeric amount" "badnum.csv:4:9: line_item_usage_amount: 'one'; expected a number" badnum.csv "$D/week.yaml"
sed '5s/,1,Hours,/,1,GB,/' "$D/week-focus.csv" >badunit.csv
bad "unit not hours" "badunit.csv:5:9: ConsumedUnit: 'GB'; expected Hours" badunit.csv "$D/week.yaml"
bad "period not covered" "the bill covers 2026-11-02T00:00:00Z to 2026-11-09T00:00:00Z, the scenario 2026-11-02T00:00:00Z to 2026-11-05T00:00:00Z; expected a scenario whose start and horizon cover" \
	"$D/week-cur.csv" "$D/week.yaml" --set horizon=3d
bad "empty after filtering" "no usage of g6.xlarge in the bill (846 rows: 843 of other instance types or services, 3 not usage)" \
	"$D/week-focus.csv" "$D/week.yaml" --type g6.xlarge
bad "forced format" "the header has no column line_item_usage_start_date; expected an AWS CUR 2.0 header" \
	"$D/week-focus.csv" "$D/week.yaml" --format cur
printf 'a,b\n1,2\n' >other.csv
bad "neither format" "other.csv:1: row: neither a FOCUS nor a CUR 2.0 header" other.csv "$D/week.yaml"
printf '' >empty.csv
bad "empty file" "empty.csv: empty; expected a FOCUS or CUR 2.0 header" empty.csv "$D/week.yaml"
head -3 "$D/week-cur.csv" >short.csv; printf 'x,"y\n' >>short.csv
bad "bad quoting" "short.csv:4: row: malformed quoting at the end" short.csv "$D/week.yaml"
head -3 "$D/week-cur.csv" >fields.csv; echo 'a,b' >>fields.csv
bad "a row of the wrong length" "fields.csv:4: row: 2 fields; expected as many fields as the header" fields.csv "$D/week.yaml"
bad "no such bill" "nope.csv: cannot open" nope.csv "$D/week.yaml"
bad "no scenario nor run" "expected BILL and either SCENARIO or --run RUN" "$D/week-cur.csv"
bad "--format" "--format 'xml': expected auto, focus or cur" "$D/week-cur.csv" "$D/week.yaml" --format xml
"$GPUCAP" calibrate "$D/week-cur.csv" --run 99 --db r.sqlite >/dev/null 2>err.txt
check "an unknown run: exits 2" test $? -eq 2
check "an unknown run: says so" grep -q "r.sqlite: no run 99" err.txt
before=$(sqlite3 r.sqlite 'SELECT count(*) FROM calibrations')
"$GPUCAP" calibrate "$D/week-cur.csv" --run 1 --db r.sqlite --set seed=2 >/dev/null 2>&1
check "--set with --run is refused" test $? -eq 2
check "failures store no calibration" test "$(sqlite3 r.sqlite 'SELECT count(*) FROM calibrations')" = "$before"
finish
