#!/usr/bin/env bash
# End-to-end: the benchmarks of tests/bench/ still run and print their one parseable line, on small sizes
# (diurnal.sh 1 day, fluid.sh 30 days, mmc.sh one repetition). Nothing about speed is asserted here (timings
# belong to the benchmarks); what is checked is that each line has its fields, as numbers, and that the
# three M/M/c simulators agree with Erlang C on the mean wait (within 5%: about 2 million arrivals; SimPy's
# 200 k give an SE near 1.5%). Skipped (77) without GNU time or SimPy 3 (.ci/run installs both) and under
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
check "mmc.sh line: $line" grep -Eq "^mmc lambda=95 mu=1 c=100 arrivals=$num gpucap_events_per_s=$num loop_events_per_s=$num simpy_events_per_s=$num gpucap_vs_loop=$num simpy_vs_loop=$num\$" <<<"$line"
# the run line: "... gpucap N events R M/s (mean wait W s); loop ... (W s); simpy ... (W s); Erlang C mean wait E s"
waits=$(echo "$out" | grep -E '^run 1:' | grep -Eo '[0-9.]+ s\)|mean wait [0-9.]+ s' | grep -Eo '[0-9.]+' | tr '\n' ' ')
erlang=$(echo "$out" | grep -Eo 'Erlang C mean wait [0-9.]+' | grep -Eo '[0-9.]+$')
check "mmc.sh prints three waits and Erlang C's ($waits / $erlang)" test "$(wc -w <<<"$waits")" -ge 3 -a -n "$erlang"
for w in $waits; do
	[ "$w" = "$erlang" ] && continue
	check "mmc.sh: mean wait $w within 5% of Erlang C's $erlang" awk -v w="$w" -v e="$erlang" 'BEGIN { exit !(w > 0.95 * e && w < 1.05 * e) }'
done
finish
