#!/usr/bin/env bash
# Benchmark: how a results database and the commands that read it scale with the number of runs (issue 37).
# usage: tests/bench/scale.sh [path/to/gpucap] [runs] [jobs]
#
# A sweep of RUNS runs (default 10000; jobs default 2) of the default chat example cut to one hour
# (scenarios/chat-serving.yaml, horizon 1h: about 90,000 requests and 60 samples a run), as 100 points of
# autoscaling targets x fleet counts with RUNS / 100 replications. It prints the sweep's wall time and the
# peak memory of its process (GNU time's maximum RSS: the parent; each worker is a fork and
# measured in the next line's run), the database's size in total and per run, then the wall time and peak
# memory of `gpucap compare` (text, every point) and `gpucap report` (the HTML page of every point) over
# the first min(RUNS, 2000) runs' sweep (a second sweep of 20 points x 100 replications in its own file, as
# a planner's 2,000-run study would be), and of one `gpucap run` of the same scenario for scale.
# Nothing is asserted. The last line is the one to parse:
#   scale runs=N sweep_s= sweep_peak_mb= db_mb= db_kb_per_run= compare_runs= compare_s= compare_peak_mb=
#         report_s= report_peak_mb= report_mb= run_peak_mb=
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpucap=${1:-$here/../../build/gpucap}
runs=${2:-10000}
jobs=${3:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time): apt-get install time" >&2; exit 1; }
case $runs in
'' | *[!0-9]* | 0) echo "scale.sh: runs must be a multiple of 100, at least 100: $runs" >&2; exit 2 ;;
esac
[ $((runs % 100)) -eq 0 ] || { echo "scale.sh: runs must be a multiple of 100: $runs" >&2; exit 2; }

sweepfile() {  # sweepfile NAME REPLICATIONS TARGETS... -- FLEET_COUNTS...
	local name=$1 reps=$2; shift 2
	local targets=() counts=()
	while [ "$1" != -- ]; do targets+=("$1"); shift; done; shift
	counts=("$@")
	printf 'name: %s\nbase: %s\nreplications: %s\nset: {horizon: 1h}\ngrid:\n  autoscaling.target: [%s]\n  fleet.0.count: [%s]\n' \
		"$name" "$here/../../scenarios/chat-serving.yaml" "$reps" \
		"$(IFS=,; echo "${targets[*]}")" "$(IFS=,; echo "${counts[*]}")"
}
timed() {  # timed OUT CMD...: run CMD, leave "peak_kb wall_s" in OUT
	local out=$1; shift
	/usr/bin/time -f "%M %e" -o "$out" "$@"
}

sweepfile big $((runs / 100)) 0.40 0.45 0.50 0.55 0.60 0.65 0.70 0.75 0.80 0.85 -- 1 2 3 4 5 6 7 8 9 10 >"$tmp/big.yaml"
timed "$tmp/sweep.time" "$gpucap" sweep "$tmp/big.yaml" --db "$tmp/big.sqlite" --jobs "$jobs" --quiet >/dev/null
read -r sweep_kb sweep_s <"$tmp/sweep.time"
db_bytes=$(stat -c %s "$tmp/big.sqlite")

small=$((runs < 2000 ? runs : 2000))
sweepfile study $((small / 20)) 0.5 0.6 0.7 0.8 0.9 -- 2 3 4 6 >"$tmp/study.yaml"
"$gpucap" sweep "$tmp/study.yaml" --db "$tmp/study.sqlite" --jobs "$jobs" --quiet >/dev/null
timed "$tmp/compare.time" "$gpucap" compare --db "$tmp/study.sqlite" study >"$tmp/compare.txt"
read -r compare_kb compare_s <"$tmp/compare.time"
timed "$tmp/report.time" "$gpucap" report --db "$tmp/study.sqlite" study -o "$tmp/report.html"
read -r report_kb report_s <"$tmp/report.time"
report_bytes=$(stat -c %s "$tmp/report.html")
timed "$tmp/run.time" "$gpucap" run "$here/../../scenarios/chat-serving.yaml" --set horizon=1h --db "$tmp/one.sqlite" --quiet
read -r run_kb run_s <"$tmp/run.time"

echo "sweep: $runs runs with --jobs $jobs in ${sweep_s} s, peak ${sweep_kb} KB (the parent); database $db_bytes bytes"
echo "compare of $small runs (20 points): ${compare_s} s, peak ${compare_kb} KB; report: ${report_s} s, peak ${report_kb} KB, $report_bytes bytes"
echo "one run: ${run_s} s, peak ${run_kb} KB"
awk -v n="$runs" -v ss="$sweep_s" -v sk="$sweep_kb" -v db="$db_bytes" -v cn="$small" -v cs="$compare_s" \
	-v ck="$compare_kb" -v rs="$report_s" -v rk="$report_kb" -v rb="$report_bytes" -v uk="$run_kb" 'BEGIN {
	printf "scale runs=%d sweep_s=%.1f sweep_peak_mb=%.1f db_mb=%.1f db_kb_per_run=%.1f compare_runs=%d compare_s=%.2f compare_peak_mb=%.1f report_s=%.2f report_peak_mb=%.1f report_mb=%.2f run_peak_mb=%.1f\n",
	       n, ss, sk / 1024, db / 1048576, db / 1024 / n, cn, cs, ck / 1024, rs, rk / 1024, rb / 1048576, uk / 1024 }'
