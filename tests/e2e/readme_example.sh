#!/usr/bin/env bash
# End-to-end: the README's worked example is what the program prints. Runs `gpucap run` (the default
# scenario into results.sqlite in an empty folder), the doubled-traffic query and the warm-up and SLO
# example of "A worked example", and compares them line by line with the README's text blocks (the engine
# line, a wall-clock timing, excepted).
. "$(dirname "$0")/lib.sh"
# Its figures are those of full week-long runs, far too slow under valgrind (lib.sh): skipped there; the
# same default scenario runs shortened under valgrind in e2e_scenarios.
[ -n "$VGDIR" ] && { echo "skipped under valgrind (GPUCAP_VALGRIND=1)"; exit 77; }
cd "$TMP"
README=$SRC/README.md

# The block that follows "$ build/gpucap run" in the README, up to the closing fence.
block() { # block FIRST-LINE: the README lines after the line equal to FIRST-LINE, up to the fence
	awk -v first="$1" 'found && /^```/ {exit} found {print} $0 == first {found = 1}' "$README"
}
expected=$(block '$ build/gpucap run' | grep -v '^  engine ')
check "README has the worked example" test -n "$expected"
actual=$("$GPUCAP" run | grep -v '^  engine ')
check "gpucap run matches the README's worked example:
$(diff <(echo "$expected") <(echo "$actual"))" test "$expected" = "$actual"

expected=$(block '$ build/gpucap run --set workload.arrivals.rate_per_s=50 --quiet' | tail -n +3)
"$GPUCAP" run --set workload.arrivals.rate_per_s=50 --quiet
query=$(block '$ build/gpucap run --set workload.arrivals.rate_per_s=50 --quiet' | sed -n 1,2p |
	sed 's/^\$ //; s/^ *//' | tr '\n' ' ')
actual=$(eval "$query" | sed "s/ *$//")
check "the doubled-traffic table matches the README:
$(diff <(echo "$expected") <(echo "$actual"))" test "$expected" = "$actual"
# The warm-up and windowed-SLO example, into its own database.
first='$ build/gpucap run --set warmup=1h --set slo.latency_p99_s=20 --set slo.window=1d --db slo.sqlite'
expected=$(block "$first" | grep -v '^  engine ')
check "README has the warm-up example" test -n "$expected"
actual=$("$GPUCAP" run --set warmup=1h --set slo.latency_p99_s=20 --set slo.window=1d --db slo.sqlite |
	grep -v '^  engine ')
check "the warm-up and SLO example matches the README:
$(diff <(echo "$expected") <(echo "$actual"))" test "$expected" = "$actual"
finish
