#!/usr/bin/env bash
# Benchmark: the diurnal replay of issue 17, tests/bench/diurnal-30d.yaml (100 requests/s on average, +-60%
# over the day, lognormal service, target tracking) for DAYS days (default 30, ~259 M requests).
# usage: tests/bench/diurnal.sh [path/to/gpucap] [days]
# Prints one line:
#   diurnal days=D requests=N events=E wall_s=W events_per_s=R peak_rss_mb=M
# requests and events from the run's JSON (requests_total, sim_events); wall_s is the whole process's
# elapsed time (loading, simulation and writing the results), events_per_s = events / wall_s, and
# peak_rss_mb its peak resident memory, both from GNU time (`apt-get install time` if /usr/bin/time is
# missing). Nothing is asserted: speed depends on the machine (the tests/README.md, "Performance", quotes a run).
# Build with the default RelWithDebInfo (or Release) type, not with sanitizers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpucap=${1:-$here/../../build/gpucap}
days=${2:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time): apt-get install time" >&2; exit 1; }
case $days in
'' | *[!0-9]* | 0) echo "days must be a whole number of days, at least 1: $days" >&2; exit 2 ;;
esac

/usr/bin/time -f "%M %e" -o "$tmp/time.txt" "$gpucap" run "$here/diurnal-30d.yaml" --set "horizon=${days}d" \
	--db "$tmp/bench.sqlite" --json >"$tmp/run.json"
read -r kb secs <"$tmp/time.txt"
requests=$(sqlite3 :memory: "select json_extract(readfile('$tmp/run.json'), '\$.requests_total')")
events=$(sqlite3 :memory: "select json_extract(readfile('$tmp/run.json'), '\$.sim_events')")
awk -v d="$days" -v n="$requests" -v e="$events" -v w="$secs" -v k="$kb" 'BEGIN {
	printf "diurnal days=%d requests=%d events=%d wall_s=%.2f events_per_s=%.0f peak_rss_mb=%.1f\n",
	       d, n, e, w, (w > 0 ? e / w : 0), k / 1024 }'
