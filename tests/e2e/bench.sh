#!/usr/bin/env bash
# End-to-end: the benchmarks of tests/bench/ still run and print their one parseable line, on small sizes
# (diurnal.sh 1 day, fluid.sh 30 days, mmc.sh one repetition). Nothing about speed is asserted here (timings
# belong to the benchmarks); what is checked is that each line has its fields, as numbers, and that the
# M/M/c simulators agree with Erlang C on the mean wait. The tolerance is statistical: at rho = 0.95 the
# waits of successive requests are strongly correlated, and the reference's own 95% half-width from 20 batch
# means over its 2 million requests (printed as ref_wait_ci95_s, about 0.009 s on 0.101 s: 9%) is the
# error bar of one run. gpucap and the reference (about as many requests) must be within twice that (about
# 4 standard errors; over 8 seeds gpucap's waits ranged 0.096 to 0.112 s), SimPy (a tenth of the requests)
# within twice that times sqrt(10). A queue simulated wrongly (a wrong rate, c or service) is off by far more:
# with c = 99 the wait is 0.17 s. Skipped (77) without GNU time or SimPy 3 (.ci/run installs both) and under
# valgrind (a run of millions of events there takes many minutes).
. "$(dirname "$0")/lib.sh"
[ -n "$VGDIR" ] && { echo "skipped under valgrind"; exit 77; }
[ -x /usr/bin/time ] || { echo "skipped: no GNU time (apt-get install time)"; exit 77; }
/usr/bin/python3 -c "import simpy" 2>/dev/null || { echo "skipped: no SimPy 3 (apt-get install python3-simpy3)"; exit 77; }
cd "$TMP"
num='[0-9][0-9.e+-]*'

out=$(bash "$SRC/tests/bench/diurnal.sh" "$GPUCAP" 1); rc=$?
line=$(echo "$out" | tail -1)
check "diurnal.sh runs (rc $rc)" test $rc -eq 0
check "diurnal.sh line: $line" grep -Eq "^diurnal days=1 requests=$num events=$num wall_s=$num events_per_s=$num peak_rss_mb=$num\$" <<<"$line"
req=$(sed -E 's/.* requests=([0-9]+) .*/\1/' <<<"$line")
# 100 requests/s for a day: 8.64 M, Poisson SD 2,940; 5 SD
check "diurnal.sh: about 8.64 M requests ($req)" awk -v n="$req" 'BEGIN { exit !(n > 8625300 && n < 8654700) }'

out=$(bash "$SRC/tests/bench/fluid.sh" "$GPUCAP" 30); rc=$?
line=$(echo "$out" | tail -1)
check "fluid.sh runs (rc $rc)" test $rc -eq 0
check "fluid.sh line: $line" grep -Eq "^fluid days=30 wall_s=$num peak_rss_mb=$num cost_usd=$num slo_violation_rate=$num\$" <<<"$line"

out=$(bash "$SRC/tests/bench/mmc.sh" "$GPUCAP" 1); rc=$?
line=$(echo "$out" | tail -1)
check "mmc.sh runs (rc $rc)" test $rc -eq 0
check "mmc.sh line: $line" grep -Eq "^mmc lambda=95 mu=1 c=100 arrivals=$num gpucap_events_per_s=$num ref_events_per_s=$num simpy_events_per_s=$num gpucap_vs_ref=$num simpy_vs_ref=$num erlang_wait_s=$num ref_wait_ci95_s=$num gpucap_1thread_events_per_s=$num gpucap_1thread_vs_ref=$num\$" <<<"$line"
erlang=$(sed -E 's/.* erlang_wait_s=([0-9.]+) .*/\1/' <<<"$line")
ci=$(sed -E 's/.* ref_wait_ci95_s=([0-9.e+-]+)( .*)?$/\1/' <<<"$line")
# the run line: "run 1 (...): gpucap N events R M/s (mean wait W s); ref N events R M/s (W s +- H); ...; simpy N events R M/s (W s); ..."
g=$(echo "$out" | grep -E '^run 1 ' | grep -Eo 'gpucap [0-9]+ events [0-9.]+ M/s \(mean wait [0-9.]+ s' | grep -Eo '[0-9.]+ s$' | grep -Eo '[0-9.]+')
r=$(echo "$out" | grep -E '^run 1 ' | grep -Eo 'ref [0-9]+ events [0-9.]+ M/s \([0-9.]+ s' | grep -Eo '[0-9.]+ s$' | grep -Eo '[0-9.]+')
p=$(echo "$out" | grep -E '^run 1 ' | grep -Eo 'simpy [0-9]+ events [0-9.]+ M/s \([0-9.]+ s' | grep -Eo '[0-9.]+ s$' | grep -Eo '[0-9.]+')
check "mmc.sh prints three waits, Erlang C's and the reference's half-width ($g $r $p / $erlang +- $ci)" \
	test -n "$g" -a -n "$r" -a -n "$p" -a -n "$erlang" -a -n "$ci"
for pair in "gpucap $g 1" "reference $r 1" "SimPy $p 3.1623"; do
	set -- $pair
	check "mmc.sh: $1's mean wait $2 within 2 x $3 x $ci of Erlang C's $erlang" \
		awk -v w="$2" -v e="$erlang" -v h="$ci" -v k="$3" 'BEGIN { d = w - e; if (d < 0) d = -d; exit !(h > 0 && d < 2 * k * h) }'
done
finish
