#!/usr/bin/env bash
# Benchmark: engine events per second on an M/M/c scenario with about two million arrivals.
# usage: tests/bench/engine.sh [path/to/gpucap] [repetitions]
# Each repetition runs it twice, as a user's run (two threads: the requests drawn ahead on the second) and
# with GPUCAP_THREADS=1, alternating; events per second over the run's own wall_s (the simulation, not the
# process's start-up). Prints each run, the two-thread median, then the one-thread median against the
# reference figure in reference.txt (the figure quoted in tests/README.md, measured on the machine named
# there; one thread, as the more repeatable of the two on a VM whose CPUs differ from minute to minute). Nothing is asserted: speed depends on
# the machine. Build with the default RelWithDebInfo (or Release) type, not with sanitizers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpucap=${1:-$here/../../build/gpucap}
reps=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rates=() rates1=()
for i in $(seq "$reps"); do
	for threads in 2 1; do  # as a user's run (requests drawn ahead on a second thread), then on one thread
		json=$(GPUCAP_THREADS=$threads "$gpucap" run "$here/mmc-2m.yaml" --db "$tmp/bench.sqlite" --json)
		events=$(sqlite3 :memory: "select json_extract('$json', '\$.sim_events')")
		arrivals=$(sqlite3 :memory: "select json_extract('$json', '\$.requests_total')")
		wall=$(sqlite3 :memory: "select json_extract('$json', '\$.wall_s')")
		rate=$(awk -v e="$events" -v w="$wall" 'BEGIN { printf "%.0f", e / w }')
		printf 'run %d, %d thread(s): %d arrivals, %d events in %.3f s = %.2f M events/s\n' "$i" "$threads" \
			"$arrivals" "$events" "$wall" "$(awk -v r="$rate" 'BEGIN { print r / 1e6 }')"
		if [ "$threads" = 2 ]; then rates+=("$rate"); else rates1+=("$rate"); fi
	done
done
median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
median1=$(printf '%s\n' "${rates1[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
printf 'two threads (the default): median %.2f M events/s\n' "$(awk -v r="$median" 'BEGIN { print r / 1e6 }')"
ref=$(awk '/^events_per_s/ { print $2 }' "$here/reference.txt")
printf 'median: %.2f M events/s on one thread; reference %.2f M events/s on one thread (%s); ratio %.2f\n' \
	"$(awk -v r="$median1" 'BEGIN { print r / 1e6 }')" "$(awk -v r="$ref" 'BEGIN { print r / 1e6 }')" \
	"$(awk -F': ' '/^measured/ { print $2 }' "$here/reference.txt")" \
	"$(awk -v a="$median1" -v b="$ref" 'BEGIN { print a / b }')"
