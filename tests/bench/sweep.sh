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
# ROUNDS rounds (default 3), --jobs 1 and --jobs 2 interleaved so that a slow spell of the machine hits
# both; the ratio reported is the median of the rounds' ratios.
ratios=()
for round in $(seq 1 "${ROUNDS:-3}"); do
	rm -f "$TMP"/j*.sqlite
	r1=$(rate 1)
	r2=$(rate 2)
	ratio=$(echo "$r2 / $r1" | bc -l)
	ratios+=("$ratio")
	printf 'round %d: jobs 1: %.2f runs/s, jobs 2: %.2f runs/s, ratio %.2f\n' "$round" "$r1" "$r2" "$ratio"
done
printf 'median ratio: %.2f\n' "$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')"
