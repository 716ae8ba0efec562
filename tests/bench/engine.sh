#!/usr/bin/env bash
# Benchmark: engine events per second on an M/M/c scenario with about two million arrivals.
# usage: tests/bench/engine.sh [path/to/gpucap] [repetitions]
# Prints each repetition and the median; compares it with the reference figure in reference.txt (the
# figure quoted in the README, measured on the machine named there). Nothing is asserted: speed depends on
# the machine. Build with the default RelWithDebInfo (or Release) type, not with sanitizers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpucap=${1:-$here/../../build/gpucap}
reps=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rates=()
for i in $(seq "$reps"); do
	json=$("$gpucap" run "$here/mmc-2m.yaml" --db "$tmp/bench.sqlite" --json)
	events=$(sqlite3 :memory: "select json_extract('$json', '\$.sim_events')")
	arrivals=$(sqlite3 :memory: "select json_extract('$json', '\$.requests_total')")
	wall=$(sqlite3 :memory: "select json_extract('$json', '\$.wall_s')")
	rate=$(awk -v e="$events" -v w="$wall" 'BEGIN { printf "%.0f", e / w }')
	printf 'run %d: %d arrivals, %d events in %.3f s = %.2f M events/s\n' "$i" "$arrivals" "$events" "$wall" \
		"$(awk -v r="$rate" 'BEGIN { print r / 1e6 }')"
	rates+=("$rate")
done
median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
ref=$(awk '/^events_per_s/ { print $2 }' "$here/reference.txt")
printf 'median: %.2f M events/s; reference %.2f M events/s (%s); ratio %.2f\n' \
	"$(awk -v r="$median" 'BEGIN { print r / 1e6 }')" "$(awk -v r="$ref" 'BEGIN { print r / 1e6 }')" \
	"$(awk -F': ' '/^measured/ { print $2 }' "$here/reference.txt")" \
	"$(awk -v a="$median" -v b="$ref" 'BEGIN { print a / b }')"
