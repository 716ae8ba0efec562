#!/usr/bin/env bash
# End-to-end: the same scenario and seed give identical metrics, samples and events (apart from wall_s);
# another seed gives different ones.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

dump() { # dump DB: everything a run produced except wall-clock fields
	sqlite3 "$1" "select name, printf('%.17g', value) from metrics where name <> 'wall_s' order by name;
		select * from samples order by t_s; select seq, t_s, kind, option, count, detail from events order by seq;"
}
# Under valgrind the first run of each pair runs under memcheck and its twin plain (GPUCAP_PLAIN): the twins
# must still agree byte for byte, and memcheck's time goes to one run of each scenario.
twin=$GPUCAP
[ -n "$VGDIR" ] && twin=$GPUCAP_PLAIN
"$GPUCAP" run --set horizon=12h --seed 5 --quiet --db a.sqlite || fail "run a"
"$twin" run --set horizon=12h --seed 5 --quiet --db b.sqlite || fail "run b"
"$twin" run --set horizon=12h --seed 6 --quiet --db c.sqlite || fail "run c"
check "dump is not empty" test "$(dump a.sqlite | wc -l)" -gt 100
check "same seed, same results" test "$(dump a.sqlite | sha256sum)" = "$(dump b.sqlite | sha256sum)"
check "other seed, other results" test "$(dump a.sqlite | sha256sum)" != "$(dump c.sqlite | sha256sum)"
# --seed equals --set seed=
"$twin" run --set horizon=12h --set seed=5 --quiet --db d.sqlite || fail "run d"
check "--seed N == --set seed=N" test "$(dump a.sqlite | sha256sum)" = "$(dump d.sqlite | sha256sum)"
# model copies: placements, releases and copy loads replay the same way
copies="$SRC/scenarios/copies-scale-to-zero.yaml"
"$GPUCAP" run "$copies" --set horizon=3d --quiet --db e.sqlite || fail "run copies e"
"$twin" run "$copies" --set horizon=3d --quiet --db f.sqlite || fail "run copies f"
check "copies: dump has copy events" test "$(sqlite3 e.sqlite "select count(*) from events where kind like 'copy_%'")" -gt 10
check "copies: same seed, same results" test "$(dump e.sqlite | sha256sum)" = "$(dump f.sqlite | sha256sum)"
# continuous batching with chunked prefill and a KV cache small enough to hold requests back: the batch
# clocks, heaps and first-come-first-served admission replay the same way
batch=(--set workload.service.batching=continuous --set workload.service.prefill=chunked
	--set serving.kv_cache_tokens=6000)
"$GPUCAP" run "$SRC/scenarios/azure-conv.yaml" "${batch[@]}" --quiet --db g.sqlite || fail "run batching g"
"$twin" run "$SRC/scenarios/azure-conv.yaml" "${batch[@]}" --quiet --db h.sqlite || fail "run batching h"
check "batching: the KV cache held requests back" \
	test "$(sqlite3 g.sqlite "select value > 0 from metrics where name = 'kv_cache_limited_share'")" = 1
check "batching: same seed, same results" test "$(dump g.sqlite | sha256sum)" = "$(dump h.sqlite | sha256sum)"
# one thread or two (feed.h: the requests drawn ahead on a second thread): the same results, on a synthetic
# workload and on a trace (azure-conv: its requests streamed from the file by the second thread)
GPUCAP_THREADS=1 "$twin" run --set horizon=12h --seed 5 --quiet --db t1.sqlite || fail "run t1"
check "GPUCAP_THREADS=1: same results as two threads" test "$(dump a.sqlite | sha256sum)" = "$(dump t1.sqlite | sha256sum)"
GPUCAP_THREADS=1 "$twin" run "$SRC/scenarios/azure-conv.yaml" "${batch[@]}" --quiet --db t2.sqlite || fail "run t2"
check "GPUCAP_THREADS=1 on a trace: same results as two threads" \
	test "$(dump g.sqlite | sha256sum)" = "$(dump t2.sqlite | sha256sum)"
out=$(GPUCAP_THREADS=4 "$twin" run --set horizon=1h --quiet --db t3.sqlite 2>&1); rc=$?
check "GPUCAP_THREADS=4: exit 2" test "$rc" = 2
check "GPUCAP_THREADS=4: the message says what is allowed" grep -q "GPUCAP_THREADS must be 1" <<<"$out"
check "GPUCAP_THREADS=4: no database written" test ! -e t3.sqlite
finish
