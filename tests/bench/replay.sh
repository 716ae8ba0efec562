#!/usr/bin/env bash
# Benchmark: replaying a long request trace in bounded memory.
# usage: tests/bench/replay.sh [path/to/gpucap] [requests]
# Generates a trace of N requests (default 10,000,000) with `gpucap trace gen` from a Poisson scenario,
# replays it with `gpucap run`, and reports the replay's requests per second and its peak resident memory
# (GNU time's %M; `apt-get install time` if /usr/bin/time is missing). Nothing is asserted: the figure to
# compare with is in reference.txt (replay_*), measured on the machine named there. The generated trace
# (about 25 bytes per request) is written to a temporary folder and removed at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpucap=${1:-$here/../../build/gpucap}
n=${2:-10000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time): apt-get install time"; exit 1; }

rate=1000
horizon=$((n / rate))
cat >"$tmp/gen.yaml" <<YAML
name: bench-gen
seed: 1
horizon: ${horizon}s
slo: {latency_s: 30}
workload:
  arrivals: {kind: poisson, rate_per_s: $rate}
  sizes: {input_tokens: {kind: lognormal, mean: 1000, cv: 1}, output_tokens: {kind: lognormal, mean: 200, cv: 1}}
  service: {kind: tokens, prefill_tokens_per_s: 20000, decode_tokens_per_s: 40}
serving: {instance_type: p5.48xlarge, slots_per_instance: 64}
fleet:
  - {option: reserved, count: 100, scope: zonal}
YAML
"$gpucap" trace gen --scenario "$tmp/gen.yaml" -o "$tmp/trace.csv"
rows=$(($(wc -l <"$tmp/trace.csv") - 1))
cat >"$tmp/replay.yaml" <<YAML
name: bench-replay
seed: 1
horizon: $((horizon + 1))s
slo: {latency_s: 30}
workload:
  arrivals: {kind: trace, path: trace.csv, format: generic,
             columns: {time: time_s, time_format: seconds, input_tokens: input_tokens, output_tokens: output_tokens}}
  service: {kind: tokens, prefill_tokens_per_s: 20000, decode_tokens_per_s: 40}
serving: {instance_type: p5.48xlarge, slots_per_instance: 64}
fleet:
  - {option: reserved, count: 100, scope: zonal}
YAML
/usr/bin/time -f "%M %e" -o "$tmp/time.txt" "$gpucap" run "$tmp/replay.yaml" --db "$tmp/bench.sqlite" --json >"$tmp/run.json"
read -r kb secs <"$tmp/time.txt"
served=$(sqlite3 :memory: "select json_extract(readfile('$tmp/run.json'), '\$.requests_total')")
wall=$(sqlite3 :memory: "select json_extract(readfile('$tmp/run.json'), '\$.wall_s')")
printf 'trace: %d requests; replayed %d in %.2f s of simulation (%.2f s with loading): %.2f M requests/s\n' \
	"$rows" "$served" "$wall" "$secs" "$(awk -v n="$served" -v w="$wall" 'BEGIN { print n / w / 1e6 }')"
printf 'peak resident memory: %.1f MB (reference %s MB)\n' "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" \
	"$(awk '/^replay_peak_mb/ { print $2 }' "$here/reference.txt")"
