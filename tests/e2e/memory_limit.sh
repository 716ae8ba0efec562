#!/usr/bin/env bash
# End-to-end: memory running out. A scenario whose queue may hold 10^8 requests (max_queue) is overloaded
# (50,000 requests/s on one slot) under a memory limit of about 600 MB: gpucap warns first (memory_budget),
# then the queue's growth exhausts the limit part-way through the run. It must end with exit 1 and "out of
# memory", no crash, and the results file byte for byte as it was (its earlier run intact).
# The limit: `ulimit -v` for a plain build; an AddressSanitizer build reserves far more address space than
# that for itself, so there ASan's own soft RSS limit makes malloc return NULL instead (ASAN_OPTIONS, when the
# binary is sanitized). Under valgrind (GPUCAP_VALGRIND=1) the test reports itself skipped (exit 77).
. "$(dirname "$0")/lib.sh"
cd "$TMP"

if [ "${GPUCAP_VALGRIND:-0}" = 1 ]; then
	echo "skipped: a memory limit cannot be set under valgrind"
	exit 77
fi
cat >oom.yaml <<'YAML'
name: oom
horizon: 2h
slo: {latency_s: 10}
workload:
  arrivals: {kind: poisson, rate_per_s: 50000}
  service: {kind: exponential, mean_s: 1}
serving: {instance_type: g5.xlarge, slots_per_instance: 1, max_queue: 100000000}
fleet:
  - {option: reserved, count: 1, scope: zonal}
YAML
"$GPUCAP" run --set horizon=30m --quiet --db r.sqlite
check "a first run is stored" test $? -eq 0
cp r.sqlite before.sqlite
if nm "$GPUCAP" 2>/dev/null | grep -q __asan_init; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}soft_rss_limit_mb=600:allocator_may_return_null=1" \
		"$GPUCAP" run oom.yaml --db r.sqlite 2>err.txt; rc=$?
else
	(ulimit -v 600000; exec "$GPUCAP" run oom.yaml --db r.sqlite 2>err.txt); rc=$?
fi
check "out of memory exits 1 (got $rc: $(cat err.txt))" test $rc -eq 1
check "it says out of memory" grep -q "out of memory" err.txt
check "it warned of the memory budget first" grep -q "memory_budget" err.txt
check "results file unchanged" cmp -s r.sqlite before.sqlite
check "earlier run intact" test "$(sqlite3 r.sqlite 'select count(*) from runs')" = 1
finish
