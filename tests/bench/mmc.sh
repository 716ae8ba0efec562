#!/usr/bin/env bash
# Benchmark: gpucap's engine against the reference M/M/c loop, and SimPy, on the same queue (issues 17, 37).
# usage: tests/bench/mmc.sh [path/to/gpucap] [repetitions]
#
# The queue: Poisson arrivals at lambda = 95/s, exponential service with mean 1/mu = 1 s, c = 100 servers,
# FIFO (rho = 0.95), about two million arrivals, then the requests in the system run to completion.
#   gpucap     runs tests/bench/mmc-95.yaml (the queue as a scenario: 100 reserved single-slot instances,
#              arrivals until 21000 s, 1,995,xxx of them) and writes its results database, as a user's run does;
#   mmc_ref    (tests/bench/mmc_ref.c, built beside gpucap as build/tests/mmc_ref with -O2 -march=native;
#              MMC_REF overrides) is the reference loop: a 4-ary heap with fused pop-and-push, xoshiro256+,
#              exponentials by inversion, no allocation or I/O in the loop; run with --n 2e6 (2,000,000
#              customers, 4,000,000 events);
#   mmc_simpy  (tests/bench/mmc_simpy.py, /usr/bin/python3 with SimPy 3) the idiomatic SimPy model over 2100 s
#              (about 200 k arrivals; SIMPY_HORIZON_S overrides), for scale.
# Each program is timed as a whole process (wall clock from start to exit: start-up, reading the scenario
# and writing results included), gpucap and the reference one after the other, in alternating order from
# one repetition to the next, so that a change of machine load falls on both. Each counts its own events:
# the reference and SimPy one arrival and one departure per request; gpucap its sim_events, the same two per
# request plus its own bookkeeping events (the samples, one a minute: 350 among about 3.99 million).
# gpucap runs as a user's run does, on two threads (the requests drawn ahead on the second: feed.h), the
# reference on one; each repetition also runs gpucap on one thread (GPUCAP_THREADS=1), printed as
# gpucap_1thread_*, so that the loops can be compared thread for thread.
# Events per second are medians over the repetitions (default 5); the ratio gpucap_vs_ref is of the medians,
# and each repetition's own ratio is printed too. Each run's mean wait is printed beside Erlang C's, and the
# reference's 95% half-width (20 batch means), as a check that all simulate the same queue (e2e_bench tests
# it). Build with the default RelWithDebInfo (or Release) type, not with sanitizers. Nothing is asserted:
# speed depends on the machine. The last line is the one to parse:
#   mmc lambda=95 mu=1 c=100 arrivals=... gpucap_events_per_s=... ref_events_per_s=... simpy_events_per_s=...
#       gpucap_vs_ref=0.xx simpy_vs_ref=0.0xx erlang_wait_s=... ref_wait_ci95_s=...
#       gpucap_1thread_events_per_s=... gpucap_1thread_vs_ref=0.xx
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpucap=${1:-$here/../../build/gpucap}
reps=${2:-5}
ref=${MMC_REF:-$(dirname "$gpucap")/tests/mmc_ref}
lambda=95 mu=1 c=100 horizon_s=21000 n_ref=2e6 seed=1
simpy_horizon_s=${SIMPY_HORIZON_S:-2100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$ref" ] || { echo "mmc.sh: no mmc_ref at $ref (build the mmc_ref target, or set MMC_REF)" >&2; exit 2; }
case $reps in
'' | *[!0-9]* | 0) echo "mmc.sh: repetitions must be a whole number, at least 1: $reps" >&2; exit 2 ;;
esac

now() { date +%s.%N; }
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p"; }  # the value of KEY=VALUE in a program's line
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
rate() { awk -v e="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", e / (b - a) }'; }

# Erlang C: P(wait) = (a^c / c!) (c / (c - a)) / (sum_{k<c} a^k / k! + (a^c / c!) (c / (c - a))), a = lambda / mu;
# mean wait = P(wait) / (c mu - lambda).
erlang_wait=$(awk -v l=$lambda -v m=$mu -v c=$c 'BEGIN {
	a = l / m; t = 1; s = 0
	for (k = 0; k < c; k++) { s += t; t *= a / (k + 1) }
	top = t * c / (c - a); printf "%.4f", top / (s + top) / (c * m - l) }')

run_gpucap() {  # run_gpucap THREADS: sets g (events/s), g_events, g_wait, arrivals
	local t0 t1 json
	rm -f "$tmp/bench.sqlite"
	t0=$(now)
	json=$(GPUCAP_THREADS=$1 "$gpucap" run "$here/mmc-95.yaml" --set horizon=${horizon_s}s --db "$tmp/bench.sqlite" --json)
	t1=$(now)
	g_events=$(sqlite3 :memory: "select json_extract('$json', '\$.sim_events')")
	arrivals=$(sqlite3 :memory: "select json_extract('$json', '\$.requests_total')")
	g_wait=$(sqlite3 :memory: "select json_extract('$json', '\$.wait_mean_s')")
	g=$(rate "$g_events" "$t0" "$t1")
}
run_ref() {
	local t0 t1 line
	t0=$(now)
	line=$("$ref" --lam $lambda --mu $mu --c $c --n $n_ref --seed $seed)
	t1=$(now)
	r_events=$(field events <<<"$line")
	r_wait=$(field mean_wait <<<"$line")
	r_ci=$(field wait_ci95 <<<"$line")
	r=$(rate "$r_events" "$t0" "$t1")
}

: >"$tmp/gpucap" >"$tmp/gpucap1" >"$tmp/ref" >"$tmp/simpy"
for i in $(seq "$reps"); do
	if [ $((i % 2)) -eq 1 ]; then run_gpucap 2; run_ref; order="gpucap first"; else run_ref; run_gpucap 2; order="ref first"; fi
	echo "$g" >>"$tmp/gpucap"
	echo "$r" >>"$tmp/ref"
	run_gpucap 1  # the same run on one thread (requests drawn inline: GPUCAP_THREADS=1)
	g1=$g
	echo "$g1" >>"$tmp/gpucap1"
	g=$(tail -1 "$tmp/gpucap")

	t0=$(now)
	line=$(/usr/bin/python3 "$here/mmc_simpy.py" $lambda $mu $c "$simpy_horizon_s" $seed)
	t1=$(now)
	s_events=$(field events <<<"$line")
	s_wait=$(field wait_mean_s <<<"$line")
	p=$(rate "$s_events" "$t0" "$t1")
	echo "$p" >>"$tmp/simpy"

	printf 'run %d (%s): gpucap %d events %.2f M/s (mean wait %.4f s); ref %d events %.2f M/s (%.4f s +- %s); ratio %.2f; ' \
		"$i" "$order" "$g_events" "$(awk -v x="$g" 'BEGIN { print x / 1e6 }')" "$g_wait" \
		"$r_events" "$(awk -v x="$r" 'BEGIN { print x / 1e6 }')" "$r_wait" "$r_ci" \
		"$(awk -v a="$g" -v b="$r" 'BEGIN { print a / b }')"
	printf 'gpucap on one thread %.2f M/s; ' "$(awk -v x="$g1" 'BEGIN { print x / 1e6 }')"
	printf 'simpy %d events %.3f M/s (%.4f s); Erlang C mean wait %s s\n' \
		"$s_events" "$(awk -v x="$p" 'BEGIN { print x / 1e6 }')" "$s_wait" "$erlang_wait"
done
gm=$(median <"$tmp/gpucap")
g1m=$(median <"$tmp/gpucap1")
rm_=$(median <"$tmp/ref")
pm=$(median <"$tmp/simpy")
printf 'mmc lambda=%s mu=%s c=%s arrivals=%s gpucap_events_per_s=%s ref_events_per_s=%s simpy_events_per_s=%s gpucap_vs_ref=%.2f simpy_vs_ref=%.3f erlang_wait_s=%s ref_wait_ci95_s=%s gpucap_1thread_events_per_s=%s gpucap_1thread_vs_ref=%.2f\n' \
	$lambda $mu $c "$arrivals" "$gm" "$rm_" "$pm" "$(awk -v a="$gm" -v b="$rm_" 'BEGIN { print a / b }')" \
	"$(awk -v a="$pm" -v b="$rm_" 'BEGIN { print a / b }')" "$erlang_wait" "$r_ci" \
	"$g1m" "$(awk -v a="$g1m" -v b="$rm_" 'BEGIN { print a / b }')"
