#!/usr/bin/env bash
# End-to-end: a scenario replaying a malformed trace, rate series or CloudWatch metrics file (bad timestamp, missing column, negative token count,
# empty file, binary file, a 1 MB line, ...) exits 2 with a message naming the trace file and, where
# there is one, its line; nothing is written: an existing database is left byte for byte as it was, and a
# database that did not exist is not created.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

"$GPUCAP" run --set horizon=1h --quiet --db held.sqlite || { echo "cannot make the database"; exit 1; }
before=$(sha256sum held.sqlite)

scenario() { # scenario TRACE-PATH [FORMAT]: a replay of that file, format azure unless given
	cat >s.yaml <<YAML
name: bad-trace
horizon: 2h
slo: {latency_s: 30}
workload:
  arrivals: {kind: trace, path: $1, format: ${2:-azure}}
  service: {kind: tokens, prefill_tokens_per_s: 20000, decode_tokens_per_s: 40}
serving: {instance_type: p5.48xlarge, slots_per_instance: 64}
fleet:
  - {option: reserved, count: 2, scope: zonal}
YAML
}

expect_bad() { # expect_bad TRACE EXPECTED-SUBSTRING [FORMAT]
	local trace=$1 want=$2 err rc name
	name=$(basename "$trace")
	scenario "$trace" "${3:-azure}"
	err=$("$GPUCAP" run s.yaml --db held.sqlite 2>&1 >/dev/null); rc=$?
	check "$name: exit 2 (got $rc: $err)" test $rc -eq 2
	check "$name: message has '$want' (got: $err)" grep -qF -- "$want" <<<"$err"
	check "$name: message is FILE:LINE: what; expected what" grep -Eq "^gpucap: [^ ]*$name:[1-9][0-9]*: .*; expected " <<<"$err"
	check "$name: database unchanged" test "$(sha256sum held.sqlite)" = "$before"
	"$GPUCAP_PLAIN" run s.yaml --db fresh.sqlite >/dev/null 2>&1  # (the same error path: unwrapped under valgrind)
	check "$name: no new database created" test ! -e fresh.sqlite
}

n=0
for f in "$SRC"/tests/data/traces/bad/*.csv; do
	case $(basename "$f") in
	empty.csv) expect_bad "$f" "empty.csv:1: empty file" ;;
	*) expect_bad "$f" "$(basename "$f"):" ;;   # the file name, then its line
	esac
	n=$((n + 1))
done
check "bad traces tried ($n)" test $n -ge 10
m=0
for f in "$SRC"/tests/data/traces/bad/*.jsonl; do
	expect_bad "$f" "$(basename "$f"):" mooncake
	m=$((m + 1))
done
check "bad JSON-lines traces tried ($m)" test $m -ge 10
expect_bad "$SRC/tests/data/traces/bad/jsonl-fractional-tokens.jsonl" \
	"jsonl-fractional-tokens.jsonl:2: bad token count '63.5' in key 'input_length'; expected a whole number of tokens" mooncake
# the line numbers, for a few by hand
expect_bad "$SRC/tests/data/traces/bad/bad-timestamp.csv" "bad-timestamp.csv:3:"
expect_bad "$SRC/tests/data/traces/bad/negative-tokens.csv" "negative-tokens.csv:4:"
expect_bad "$SRC/tests/data/traces/bad/missing-column.csv" "missing-column.csv:1:"
# a 1 MB line in an otherwise good trace
{ echo "TIMESTAMP,ContextTokens,GeneratedTokens"; echo "2023-11-16 18:17:03.0000000,1,1";
  printf '2023-11-16 18:17:04.0000000,%01048576d,1\n' 7; } >long.csv
expect_bad "$TMP/long.csv" "long.csv:3: line longer than"
# rate series: every row is checked when the scenario loads, so the run never starts
series_scenario() { # series_scenario FILE FORMAT
	cat >s.yaml <<YAML
name: bad-series
horizon: 2h
slo: {latency_s: 30}
workload:
  arrivals: {kind: rate_series, path: $1, format: $2}
  service: {kind: exponential, mean_s: 1}
serving: {instance_type: p5.48xlarge, slots_per_instance: 64}
fleet:
  - {option: reserved, count: 2, scope: zonal}
YAML
}
expect_bad_series() { # expect_bad_series FILE FORMAT EXPECTED-SUBSTRING
	local err rc name
	name=$(basename "$1")
	series_scenario "$1" "$2"
	err=$("$GPUCAP" run s.yaml --db held.sqlite 2>&1 >/dev/null); rc=$?
	check "$name: exit 2 (got $rc: $err)" test $rc -eq 2
	check "$name: message has '$3' (got: $err)" grep -qF -- "$3" <<<"$err"
	check "$name: database unchanged" test "$(sha256sum held.sqlite)" = "$before"
	"$GPUCAP_PLAIN" run s.yaml --db fresh.sqlite >/dev/null 2>&1  # (the same error path: unwrapped under valgrind)
	check "$name: no new database created" test ! -e fresh.sqlite
	"$GPUCAP" validate s.yaml >/dev/null 2>&1
	check "$name: validate refuses it too" test $? -eq 2
}
expect_bad_series "$SRC/tests/data/traces/bad-series/bad-rate.csv" aggregate "bad-rate.csv:4:"
expect_bad_series "$SRC/tests/data/traces/bad-series/out-of-order.csv" aggregate "out-of-order.csv:4: window start 300 s"
expect_bad_series "$SRC/tests/data/traces/bad-series/unknown-distribution.csv" servegen "unknown-distribution.csv:2:"
# CloudWatch metrics JSON: every file of tests/data/cloudwatch/bad/ (check_cwmetrics lists each one's message)
cw_scenario() { # cw_scenario FILE
	cat >s.yaml <<YAML
name: bad-cloudwatch
horizon: 2h
slo: {latency_s: 30}
workload:
  arrivals: {kind: cloudwatch, path: $1}
  service: {kind: exponential, mean_s: 1}
serving: {instance_type: p5.48xlarge, slots_per_instance: 64}
fleet:
  - {option: reserved, count: 2, scope: zonal}
YAML
}
k=0
for f in "$SRC"/tests/data/cloudwatch/bad/*.json; do
	name=$(basename "$f")
	cw_scenario "$f"
	err=$("$GPUCAP" run s.yaml --db held.sqlite 2>&1 >/dev/null); rc=$?
	check "$name: exit 2 (got $rc: $err)" test $rc -eq 2
	check "$name: message is FILE:LINE[:COL]: what; expected what, or the parser's (got: $err)" \
		grep -Eq "^gpucap: [^ ]*$name:[1-9][0-9]*(:[0-9]+)?: (.*expected |invalid JSON: )" <<<"$err"
	check "$name: database unchanged" test "$(sha256sum held.sqlite)" = "$before"
	k=$((k + 1))
done
check "bad CloudWatch files tried ($k)" test $k -ge 15
finish
