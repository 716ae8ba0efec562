#!/usr/bin/env bash
# Benchmark (not a pass/fail test, not in ctest): runs per second of `gpucap sweep` on 40 short runs with
# --jobs 1 and --jobs 2, and their ratio. Usage: tests/bench/sweep.sh BUILD/gpucap [SOURCE-TREE]
set -eu
GPUCAP=$1
SRC=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
TMP=$(mktemp -d /tmp/gpucap-bench-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/bench.yaml" <<YAML
name: bench
base: $SRC/scenarios/chat-serving.yaml
replications: 4
set: {horizon: 12h}
grid:
  autoscaling.target: [0.5, 0.6, 0.7, 0.8, 0.9]
  fleet.0.count: [2, 6]
YAML
rate() { # rate JOBS: runs per second of the 40 runs
	local t0 t1
	t0=$(date +%s.%N)
	"$GPUCAP" sweep "$TMP/bench.yaml" --db "$TMP/j$1.sqlite" --jobs "$1" --quiet >/dev/null
	t1=$(date +%s.%N)
	echo "40 / ($t1 - $t0)" | bc -l
}
r1=$(rate 1)
r2=$(rate 2)
printf 'jobs 1: %.2f runs/s\njobs 2: %.2f runs/s\nratio: %.2f\n' "$r1" "$r2" "$(echo "$r2 / $r1" | bc -l)"
