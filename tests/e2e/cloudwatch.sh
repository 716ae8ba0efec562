#!/usr/bin/env bash
# End-to-end: CloudWatch metrics as traffic (models/README.md, "CloudWatch metrics as traffic"). The JSON
# `aws cloudwatch get-metric-data` and `get-metric-statistics` print (tests/data/cloudwatch/, each with a gap;
# the first has a PartialData result) replayed by `gpucap run`: with within: even the arrivals per minute
# (the samples table, sample_period 60 s) are exactly the file's sums, the gap minute 0; with within: poisson
# the total is within 4 Poisson standard deviations of the sum (160 +- 4 sqrt(160) = 160 +- 50.6: a false
# alarm about 6e-5). The run summary carries the gap and PartialData warnings; `gpucap trace stats` describes
# both files, as text and JSON. Malformed files are refused by bad_traces.sh.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
CW=$SRC/tests/data/cloudwatch

scenario() { # scenario FILE ARRIVAL-KEYS: a 10-minute run from 10:00 UTC replaying FILE
	cat >s.yaml <<YAML
name: cw
start: 2026-11-02T10:00:00Z
horizon: 10m
slo: {latency_s: 5}
workload:
  arrivals: {kind: cloudwatch, path: $1$2}
  service: {kind: exponential, mean_s: 0.5}
serving: {instance_type: g5.xlarge}
fleet:
  - {option: on_demand, count: 2}
YAML
}
per_minute() { # per_minute DB: arrivals in each minute, space-separated
	sqlite3 "$1" "SELECT CAST(round(arrival_rate_per_s * 60) AS INTEGER) FROM samples ORDER BY t_s" | tr '\n' ' '
}

# get-metric-data, m1 (Sum per minute 10:00..10:09, 10:04 missing), spread evenly: exactly the sums
scenario "$CW/get-metric-data.json" ", id: m1, within: even"
out=$("$GPUCAP" run s.yaml --db even.sqlite 2>err.txt); rc=$?
check "even run succeeds (rc $rc: $(cat err.txt))" test $rc -eq 0
check "even: arrivals per minute are the sums (got $(per_minute even.sqlite))" \
	test "$(per_minute even.sqlite)" = "12 30 7 18 0 25 9 40 3 16 "
check "even: 160 requests in all" grep -q "requests   160 total" <<<"$out"
check "the summary warns of the gap" grep -q "1 of the 10 periods of 60 s have no CloudWatch datapoint" <<<"$out"
# the same file, the PartialData result, by label
scenario "$CW/get-metric-data.json" ", label: Invocations variant-b, within: even"
out=$("$GPUCAP" run s.yaml --db partial.sqlite 2>/dev/null)
check "by label: 5 6 7 per minute (got $(per_minute partial.sqlite))" \
	test "$(per_minute partial.sqlite | cut -d' ' -f1-4)" = "5 6 7 0"
check "the summary warns of PartialData" grep -q "has StatusCode PartialData" <<<"$out"
check "and that the series ends before the horizon" grep -q "the metrics cover 0.05 h of the 0.1667 h horizon" <<<"$out"
# get-metric-statistics, datapoints in no order: Sum 10 20 5 - 8 2
scenario "$CW/get-metric-statistics.json" ", within: even"
"$GPUCAP" run s.yaml --db stats.sqlite --quiet 2>/dev/null
check "statistics: arrivals per minute are the sums (got $(per_minute stats.sqlite))" \
	test "$(per_minute stats.sqlite)" = "10 20 5 0 8 2 0 0 0 0 "
# transforms apply: scale_rate 2 doubles each minute, exactly when even
"$GPUCAP" run s.yaml --db stats.sqlite --quiet --set workload.arrivals.scale_rate=2 2>/dev/null
check "statistics x2 (got $(sqlite3 stats.sqlite "SELECT group_concat(CAST(round(arrival_rate_per_s * 60) AS INTEGER), ' ') FROM samples WHERE run_id = 2"))" \
	test "$(sqlite3 stats.sqlite "SELECT group_concat(CAST(round(arrival_rate_per_s * 60) AS INTEGER), ' ') FROM samples WHERE run_id = 2")" = "20 40 10 0 16 4 0 0 0 0"
# poisson (the default): the total within 4 SD of 160, none in the gap minute
scenario "$CW/get-metric-data.json" ", id: m1"
for seed in 1 2 3; do
	"$GPUCAP" run s.yaml --db poisson.sqlite --quiet --seed $seed 2>/dev/null
done
for run in 1 2 3; do
	total=$(sqlite3 poisson.sqlite "SELECT CAST(round(sum(arrival_rate_per_s) * 60) AS INTEGER) FROM samples WHERE run_id = $run")
	gap=$(sqlite3 poisson.sqlite "SELECT CAST(round(arrival_rate_per_s * 60) AS INTEGER) FROM samples WHERE run_id = $run AND t_s = 300")
	check "poisson run $run: total $total within 160 +- 50" test "$total" -ge 110 -a "$total" -le 210
	check "poisson run $run: no arrival in the gap minute (got $gap)" test "$gap" -eq 0
done
check "poisson runs differ by seed" test "$(per_minute poisson.sqlite)" != "$(per_minute even.sqlite)"

# gpucap trace stats
out=$("$GPUCAP" trace stats "$CW/get-metric-data.json"); rc=$?
check "trace stats: exit 0 (got $rc)" test $rc -eq 0
check "trace stats: two results" grep -q "get-metric-data, 2 results" <<<"$out"
check "trace stats: m1's points and gap" grep -q "9 over 10 periods of 60 s (1 gap" <<<"$out"
check "trace stats: m1's sum" grep -q "sum          160" <<<"$out"
check "trace stats: m1's peak" grep -q "peak         40 per period, at 2026-11-02T10:07:00Z" <<<"$out"
check "trace stats: PartialData warned" grep -q "warning      StatusCode PartialData" <<<"$out"
json=$("$GPUCAP" trace stats "$CW/get-metric-statistics.json" --json)
check "trace stats --json parses" python3 -c 'import json,sys; json.loads(sys.argv[1])' "$json"
check "trace stats --json: sum, gaps, peak" python3 -c '
import json, sys
r = json.loads(sys.argv[1])["results"][0]
assert (r["sum"], r["gaps"], r["peak"], r["peak_at"], r["period_s"]) == (45, 1, 20, "2026-11-02T10:01:00Z", 60), r
' "$json"
err=$("$GPUCAP" trace stats "$CW/bad/cw-off-grid.json" 2>&1 >/dev/null); rc=$?
check "trace stats of a bad file: exit 2 (got $rc)" test $rc -eq 2
check "trace stats of a bad file: FILE:LINE:COL: JSON path" grep -q "cw-off-grid.json:6:29: MetricDataResults\[0\].Timestamps\[0\]" <<<"$err"
finish
