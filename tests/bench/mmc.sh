#!/usr/bin/env bash
# Benchmark: gpucap's engine beside a minimal C event loop and SimPy on the same M/M/c queue (issue 17).
# usage: tests/bench/mmc.sh [path/to/gpucap] [repetitions]
#
# The queue: Poisson arrivals at lambda = 95/s, exponential service with mean 1/mu = 1 s, c = 100 servers,
# FIFO, arrivals until 21000 s (about two million), then the requests in the system run to completion.
#   gpucap     runs tests/bench/mmc-95.yaml (the same queue as a scenario: 100 reserved single-slot
#              instances) and writes its results database, as a user's run does;
#   mmc_loop   (tests/bench/mmc_loop.c, built beside gpucap as build/tests/mmc_loop; MMC_LOOP overrides)
#              is the smallest reasonable C event loop: a binary heap of (time, seq, kind) records, a FIFO,
#              GSL exponential draws from MT19937 generators, the type gpucap uses;
#   mmc_simpy  (tests/bench/mmc_simpy.py, /usr/bin/python3 with SimPy 3) is the idiomatic SimPy model, run
#              over 2100 s (about 200 k arrivals; SIMPY_HORIZON_S overrides): events per second is the measure.
# Each program is timed as a whole process (wall clock from start to exit, start-up and output included),
# and counts its own events:
#   mmc_loop and mmc_simpy: events popped, one arrival and one departure per request;
#   gpucap: sim_events, the handlers its engine ran: the same arrival and departure per request, plus its
#   own bookkeeping events (the samples, one a minute: 350 more among 3,990,682).
# The events per second of each is the median over the repetitions (default 5), and the ratios are of
# those medians. Each program's mean wait is printed beside Erlang C's, as a check that all three simulate
# the same queue. Build with the default RelWithDebInfo (or Release) type, not with sanitizers. Nothing is
# asserted: speed depends on the machine. The last line is the one to parse:
#   mmc lambda=95 mu=1 c=100 arrivals=... gpucap_events_per_s=... loop_events_per_s=...
#       simpy_events_per_s=... gpucap_vs_loop=0.xx simpy_vs_loop=0.0xx
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpucap=${1:-$here/../../build/gpucap}
reps=${2:-5}
loop=${MMC_LOOP:-$(dirname "$gpucap")/tests/mmc_loop}
lambda=95 mu=1 c=100 horizon_s=21000 seed=1
simpy_horizon_s=${SIMPY_HORIZON_S:-2100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$loop" ] || { echo "mmc.sh: no mmc_loop at $loop (build the mmc_loop target, or set MMC_LOOP)" >&2; exit 2; }

now() { date +%s.%N; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }  # the value of KEY=VALUE in a program's line
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# Erlang C: P(wait) = (a^c / c!) (c / (c - a)) / (sum_{k<c} a^k / k! + (a^c / c!) (c / (c - a))), a = lambda / mu;
# mean wait = P(wait) / (c mu - lambda).
erlang_wait=$(awk -v l=$lambda -v m=$mu -v c=$c 'BEGIN {
	a = l / m; t = 1; s = 0
	for (k = 0; k < c; k++) { s += t; t *= a / (k + 1) }
	top = t * c / (c - a); printf "%.4f", top / (s + top) / (c * m - l) }')

: >"$tmp/gpucap" >"$tmp/loop" >"$tmp/simpy"
for i in $(seq "$reps"); do
	t0=$(now)
	json=$("$gpucap" run "$here/mmc-95.yaml" --set horizon=${horizon_s}s --db "$tmp/bench.sqlite" --json)
	t1=$(now)
	rm -f "$tmp/bench.sqlite"
	events=$(sqlite3 :memory: "select json_extract('$json', '\$.sim_events')")
	arrivals=$(sqlite3 :memory: "select json_extract('$json', '\$.requests_total')")
	wait=$(sqlite3 :memory: "select json_extract('$json', '\$.wait_mean_s')")
	g=$(awk -v e="$events" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", e / (b - a) }')
	echo "$g" >>"$tmp/gpucap"

	t0=$(now)
	line=$("$loop" $lambda $mu $c $horizon_s $seed)
	t1=$(now)
	levents=$(field events <<<"$line")
	lwait=$(field wait_mean_s <<<"$line")
	l=$(awk -v e="$levents" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", e / (b - a) }')
	echo "$l" >>"$tmp/loop"

	t0=$(now)
	line=$(/usr/bin/python3 "$here/mmc_simpy.py" $lambda $mu $c "$simpy_horizon_s" $seed)
	t1=$(now)
	sevents=$(field events <<<"$line")
	swait=$(field wait_mean_s <<<"$line")
	p=$(awk -v e="$sevents" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", e / (b - a) }')
	echo "$p" >>"$tmp/simpy"

	printf 'run %d: gpucap %d events %.2f M/s (mean wait %.4f s); loop %d events %.2f M/s (%.4f s); ' \
		"$i" "$events" "$(awk -v r="$g" 'BEGIN { print r / 1e6 }')" "$wait" \
		"$levents" "$(awk -v r="$l" 'BEGIN { print r / 1e6 }')" "$lwait"
	printf 'simpy %d events %.3f M/s (%.4f s); Erlang C mean wait %s s\n' \
		"$sevents" "$(awk -v r="$p" 'BEGIN { print r / 1e6 }')" "$swait" "$erlang_wait"
done
gm=$(median <"$tmp/gpucap")
lm=$(median <"$tmp/loop")
pm=$(median <"$tmp/simpy")
printf 'mmc lambda=%s mu=%s c=%s arrivals=%s gpucap_events_per_s=%s loop_events_per_s=%s simpy_events_per_s=%s gpucap_vs_loop=%.2f simpy_vs_loop=%.3f\n' \
	$lambda $mu $c "$arrivals" "$gm" "$lm" "$pm" "$(awk -v a="$gm" -v b="$lm" 'BEGIN { print a / b }')" \
	"$(awk -v a="$pm" -v b="$lm" 'BEGIN { print a / b }')"
