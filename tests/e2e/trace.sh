#!/usr/bin/env bash
# End-to-end: `gpucap trace stats` on the shipped Azure traces (request counts checked against awk, --json
# checked by SQLite's json_valid) and on a bad trace (exit 2, the message names FILE:LINE).
. "$(dirname "$0")/lib.sh"
cd "$TMP"

out=$("$GPUCAP" trace --help); check "trace --help exits 0" test $? -eq 0
check "trace --help lists stats" grep -q "stats FILE" <<<"$out"
check "trace --help lists gen" grep -q "gen --scenario" <<<"$out"
out=$("$GPUCAP" trace stats --help); check "trace stats --help exits 0" test $? -eq 0
check "trace stats --help mentions --time-column" grep -q -- "--time-column C" <<<"$out"
"$GPUCAP" trace >/dev/null 2>&1; check "trace without a command exits 2" test $? -eq 2
"$GPUCAP" trace frobnicate >/dev/null 2>&1; check "unknown trace command exits 2" test $? -eq 2
"$GPUCAP" trace stats >/dev/null 2>&1; check "stats without a file exits 2" test $? -eq 2
"$GPUCAP" trace stats "$TMP/missing.csv" >/dev/null 2>&1; check "missing file exits 2" test $? -eq 2

for name in code conv; do
	f="$SRC/scenarios/traces/AzureLLMInferenceTrace_$name.csv"
	# Data rows: every line but the header. The last line has no newline, so `wc -l` would miss it; awk's
	# NR counts it.
	want=$(awk 'END { print NR - 1 }' "$f")
	out=$("$GPUCAP" trace stats "$f"); rc=$?
	check "$name: stats exits 0" test $rc -eq 0
	check "$name: requests = $want" test "$(awk '$1 == "requests" { print $2 }' <<<"$out")" = "$want"
	check "$name: first arrival" grep -q "^first  *2023-11-16T18:1[57]:" <<<"$out"
	check "$name: azure format recognised" grep -q "^format  *azure" <<<"$out"
	check "$name: per-minute line" grep -Eq "^per_minute +p50 [0-9]+  p90 [0-9]+  p99 [0-9]+  max [0-9]+  empty [0-9]+" <<<"$out"
	"$GPUCAP" trace stats "$f" --json >"$name.json"; rc=$?
	check "$name: --json exits 0" test $rc -eq 0
	check "$name: --json is valid JSON" test "$(sqlite3 :memory: "select json_valid(readfile('$name.json'))")" = 1
	check "$name: --json requests" test "$(sqlite3 :memory: "select json_extract(readfile('$name.json'), '\$.requests')")" = "$want"
	check "$name: --json has input_tokens_p99" test "$(sqlite3 :memory: "select json_type(readfile('$name.json'), '\$.input_tokens_p99')")" = integer
done
# The maxima SOURCES.md gives for the two traces (exact: maxima are kept beside the histograms).
check "code: largest prompt 7437" test "$(sqlite3 :memory: "select json_extract(readfile('code.json'), '\$.input_tokens_max')")" = 7437
check "conv: largest output 1000" test "$(sqlite3 :memory: "select json_extract(readfile('conv.json'), '\$.output_tokens_max')")" = 1000

# The same rows, as a generic trace with epoch-second times and a service column.
printf 'when,svc,extra\n1700092800.5,0.25,x\n1700092830,1.5,y\n1700092925.25,2,z\n' >generic.csv
out=$("$GPUCAP" trace stats generic.csv --time-column when --time-format epoch_s --service-column svc); rc=$?
check "generic: exits 0" test $rc -eq 0
check "generic: 3 requests" grep -q "^requests  *3$" <<<"$out"
check "generic: first in UTC" grep -q "^first  *2023-11-16T00:00:00.500000Z$" <<<"$out"
"$GPUCAP" trace stats generic.csv >/dev/null 2>err.txt; rc=$?
check "not azure, no --time-column: exit 2" test $rc -eq 2
check "... names the file and line" grep -q "generic.csv:1: " err.txt

# A bad trace: exit 2 and FILE:LINE in the message.
bad="$SRC/tests/data/traces/bad/out-of-order.csv"
"$GPUCAP" trace stats "$bad" >/dev/null 2>err.txt; rc=$?
check "bad trace exits 2" test $rc -eq 2
check "bad trace names file:line" grep -q "out-of-order.csv:4: timestamp earlier than the previous row's (line 3)" err.txt
"$GPUCAP" trace stats "$SRC/tests/data/traces/bad/binary.csv" >/dev/null 2>err.txt; rc=$?
check "binary file exits 2" test $rc -eq 2
check "binary file message" grep -q "binary.csv:1: .*expected a text CSV file" err.txt

# JSON lines, by hand: rows at 0, 1000, 3000 and 6000 ms kept (status ok), one at 500 ms left out by --where.
# Gaps 1000, 2000, 3000 ms: mean 2000, population variance (1000^2 + 0 + 1000^2) / 3 = 666,667 ms^2,
# std 816.497 ms, cv = 816.497 / 2000 = 0.408248. Prefix reuse: [1,2,3] 0 seen; [1,2,4] 1, 2 seen, 4 not: 2;
# [5,1,2] 5 unseen first: 0 (leading ids only); [1,2,3,4] all seen: 4. (0 + 2 + 0 + 4) / (3 + 3 + 3 + 4) =
# 6 / 13 = 0.461538.
cat >hand.jsonl <<'JSONL'
{"ts": 0, "in": 10, "out": 1.0, "h": [1, 2, 3], "status": "ok"}
{"ts": 500, "status": "failed"}

{"ts": 1000, "in": 10, "out": 1, "h": [1, 2, 4], "status": "ok"}
{"ts": 3000, "in": 10, "out": 1, "h": [5, 1, 2], "status": "ok"}
{"ts": 6000, "in": 10, "out": 1, "h": [1, 2, 3, 4], "status": "ok"}
JSONL
hand=(hand.jsonl --format jsonl --time-column ts --time-format milliseconds --input-column in
      --output-column out --hash-column h --where status=ok,SUCCESS)
out=$("$GPUCAP" trace stats "${hand[@]}"); rc=$?
check "jsonl: exits 0 ($out)" test $rc -eq 0
check "jsonl: 4 requests" grep -q "^requests  *4$" <<<"$out"
check "jsonl: 1 row filtered" grep -q "^filtered  *1 rows left out" <<<"$out"
check "jsonl: cv 0.4082" grep -q "^interarrival  *cv 0.4082 " <<<"$out"
check "jsonl: reuse 0.4615 (6 of 13)" grep -q "^prefix_reuse  *0.4615  (6 of 13 hash ids" <<<"$out"
"$GPUCAP" trace stats "${hand[@]}" --json >hand.json
j() { sqlite3 :memory: "select json_extract(readfile('$1'), '\$.$2')"; }
check "jsonl --json: valid" test "$(sqlite3 :memory: "select json_valid(readfile('hand.json'))")" = 1
check "jsonl --json: interarrival_cv 0.408248" test "$(j hand.json interarrival_cv)" = 0.408248
check "jsonl --json: prefix_reuse_ratio 0.461538" test "$(j hand.json prefix_reuse_ratio)" = 0.461538
check "jsonl --json: filtered 1" test "$(j hand.json filtered)" = 1
"$GPUCAP" trace stats hand.jsonl >/dev/null 2>err.txt
check "JSON lines without --format: exit 2" test $? -eq 2
check "... says to give --format" grep -q "hand.jsonl:1: the file holds JSON lines but no format was given; expected --format" err.txt
"$GPUCAP" trace stats hand.jsonl --format csv --time-column ts --hash-column h >/dev/null 2>err.txt
check "--hash-column on CSV: exit 2" test $? -eq 2
"$GPUCAP" trace stats hand.jsonl --format jsonl --time-column ts --where status >/dev/null 2>err.txt
check "--where without =: exit 2" test $? -eq 2

# The shipped Mooncake synthetic trace: its reuse ratio and gap CV computed independently in Python.
mc="$SRC/scenarios/traces/mooncake_synthetic_trace.jsonl"
"$GPUCAP" trace stats "$mc" --format mooncake --json >mc.json
check "mooncake: exits 0" test $? -eq 0
want=$(python3 - "$mc" <<'PY'
import json, statistics, sys
seen, reused, total, ts = set(), 0, 0, []
for line in open(sys.argv[1]):
    o = json.loads(line)
    h = o["hash_ids"]
    k = 0
    while k < len(h) and h[k] in seen:
        k += 1
    reused += k
    total += len(h)
    seen.update(h)
    ts.append(o["timestamp"])
gaps = [b - a for a, b in zip(ts, ts[1:])]
print(len(ts), "%.6f" % (reused / total), "%.6f" % (statistics.pstdev(gaps) / statistics.mean(gaps)))
PY
)
got="$(j mc.json requests) $(j mc.json prefix_reuse_ratio) $(j mc.json interarrival_cv)"
check "mooncake: requests, reuse ratio and gap cv as Python finds them ($want vs $got)" test "$want" = "$got"

# trace gen, then replay: the same requests at the same times give the same latencies as the scenario (with
# the scenario's seed, so that the random routing draws the same instances, and its slowdown table, which
# trace gen's service times are drawn before)
"$GPUCAP" trace gen --scenario "$SRC/scenarios/chat-serving.yaml" --set horizon=30m -o gen.csv 2>/dev/null
check "trace gen exits 0" test $? -eq 0
check "trace gen header" test "$(head -n 1 gen.csv)" = "time_s,service_s"
cat >replay.yaml <<YAML
name: replay
seed: 42
horizon: 30m
slo: {latency_s: 20}
workload:
  arrivals: {kind: trace, path: gen.csv, format: generic,
             columns: {time: time_s, time_format: seconds, service_s: service_s}}
  service:
    kind: trace
    slowdown: [{concurrency: 1, factor: 1.0}, {concurrency: 32, factor: 1.3}]  # as chat-serving.yaml
serving: {instance_type: p5.48xlarge, slots_per_instance: 32}
fleet:
  - {option: reserved, count: 8, scope: zonal}
YAML
"$GPUCAP" run replay.yaml --db rt.sqlite --quiet
"$GPUCAP" run "$SRC/scenarios/chat-serving.yaml" --set horizon=30m --set autoscaling.policy=none \
	--set fleet.0.count=8 --db rt.sqlite --quiet
same=$(sqlite3 rt.sqlite "select count(*) from metrics a join metrics b on a.name = b.name
	where a.run_id = 1 and b.run_id = 2 and a.name in ('requests_total', 'latency_mean_s', 'latency_p99_s',
	'wait_mean_s', 'latency_max_s') and a.value = b.value")
check "replayed trace gives identical latencies ($same of 5)" test "$same" = 5
check "rows = requests" test "$(($(wc -l <gen.csv) - 1))" = "$(sqlite3 rt.sqlite "select value from metrics where run_id = 1 and name = 'requests_total'" | cut -d. -f1)"

# A trace written in batches (12 rows, 10 of them sharing a timestamp with a neighbour), scaled: every copy
# comes before the next row, so `trace gen` writes rows in time order and `run` replays them. scale_rate 2
# gives exactly 24 rows; 3.5 gives 3 or 4 per row, 36 to 48. The old rule put copies after rows of their
# own batch (rows out of order, and a run whose clock ran backwards).
cat >batches.yaml <<YAML
name: batches
horizon: 20s
sample_period: 1s
slo: {latency_s: 20}
workload:
  arrivals: {kind: trace, path: $SRC/tests/data/traces/batches.csv, format: generic,
             columns: {time: time_s, time_format: seconds, service_s: service_s}}
  service: {kind: trace}
serving: {instance_type: p5.48xlarge, slots_per_instance: 4}
fleet:
  - {option: reserved, count: 2, scope: zonal}
YAML
for k in 2 3.5; do
	"$GPUCAP" trace gen --scenario batches.yaml --set workload.arrivals.scale_rate=$k -o "batches-$k.csv" 2>/dev/null
	check "batches x$k: trace gen exits 0" test $? -eq 0
	check "batches x$k: rows in time order" awk -F, 'NR > 2 && $1 + 0 < prev { exit 1 } NR > 1 { prev = $1 + 0 }' \
		"batches-$k.csv"
	rows=$(($(wc -l <"batches-$k.csv") - 1))
	if [ "$k" = 2 ]; then check "batches x2: 24 rows" test "$rows" -eq 24
	else check "batches x3.5: 36 to 48 rows ($rows)" test "$rows" -ge 36 -a "$rows" -le 48; fi
	"$GPUCAP" run batches.yaml --set workload.arrivals.scale_rate=$k --db batches.sqlite --quiet
	check "batches x$k: run exits 0" test $? -eq 0
	check "batches x$k: run serves the $rows rows trace gen wrote" test "$(sqlite3 batches.sqlite "select
		cast(value as int) from metrics where run_id = (select max(run_id) from runs)
		and name = 'requests_served'")" = "$rows"
done
finish
