#!/usr/bin/env bash
# Benchmark: a year-long run in fluid mode (models/README.md, "Fluid mode").
# usage: tests/bench/fluid.sh [path/to/gpucap] [days]
# Runs diurnal-30d.yaml with mode: fluid over `days` (default 365) and prints ONE parseable line:
#   fluid days=365 wall_s=... peak_rss_mb=... cost_usd=... slo_violation_rate=...
# wall_s is the whole process (loading, simulation, writing the samples to SQLite), by GNU time
# (`apt-get install time` if /usr/bin/time is missing). Nothing is asserted: the target is under 5 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpucap=${1:-$here/../../build/gpucap}
days=${2:-365}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time): apt-get install time"; exit 1; }
/usr/bin/time -f "%M %e" -o "$tmp/time.txt" "$gpucap" run "$here/diurnal-30d.yaml" --set mode=fluid \
	--set "horizon=${days}d" --db "$tmp/bench.sqlite" --json >"$tmp/run.json"
read -r kb secs <"$tmp/time.txt"
cost=$(sqlite3 :memory: "select json_extract(readfile('$tmp/run.json'), '\$.cost_total_usd')")
viol=$(sqlite3 :memory: "select json_extract(readfile('$tmp/run.json'), '\$.slo_violation_rate')")
printf 'fluid days=%s wall_s=%s peak_rss_mb=%.1f cost_usd=%s slo_violation_rate=%s\n' "$days" "$secs" \
	"$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$cost" "$viol"
