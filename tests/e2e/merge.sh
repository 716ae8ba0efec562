#!/usr/bin/env bash
# End-to-end: `gpucap merge OUT IN...`. Runs written into two files merge into a third with their rows
# (metrics, samples), new run ids after OUT's own; merging again changes nothing; a file of another schema
# version is refused with exit 2, a message naming it, and OUT unchanged; bad usage exits 2.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

"$GPUCAP" run --set horizon=2h --seed 1 --quiet --db a.sqlite
"$GPUCAP" run --set horizon=2h --seed 2 --quiet --db b.sqlite
"$GPUCAP" run --set horizon=2h --seed 3 --quiet --db b.sqlite
"$GPUCAP" run --set horizon=2h --seed 9 --quiet --db out.sqlite
out=$("$GPUCAP" merge out.sqlite a.sqlite b.sqlite); rc=$?
check "merge exits 0 (got $rc)" test $rc -eq 0
check "merge reports ($out)" grep -q "b.sqlite: 2 runs merged into out.sqlite, 0 already there" <<<"$out"
check "4 runs in OUT" test "$(sqlite3 out.sqlite 'select group_concat(run_id || ":" || seed) from (select * from runs order by run_id)')" = "1:9,2:1,3:2,4:3"
check "metrics copied" test "$(sqlite3 out.sqlite 'select count(*) from metrics where run_id = 3')" = \
	"$(sqlite3 b.sqlite 'select count(*) from metrics where run_id = 1')"
check "samples copied" test "$(sqlite3 out.sqlite 'select sum(cost_usd_per_h) from samples where run_id = 4')" = \
	"$(sqlite3 b.sqlite 'select sum(cost_usd_per_h) from samples where run_id = 2')"
before=$(sha256sum out.sqlite)
"$GPUCAP" merge --quiet out.sqlite a.sqlite b.sqlite; rc=$?
check "merging again exits 0 (got $rc)" test $rc -eq 0
check "merging again changes nothing" test "$(sha256sum out.sqlite)" = "$before"

sqlite3 old.sqlite 'pragma application_id = 1196442448; pragma user_version = 2; create table runs (x)'
"$GPUCAP" merge out.sqlite old.sqlite 2>err.txt; rc=$?
check "older file refused with exit 2 (got $rc)" test $rc -eq 2
check "message names the file ($(cat err.txt))" grep -q "old.sqlite: results database schema version 2" err.txt
check "OUT unchanged" test "$(sha256sum out.sqlite)" = "$before"
"$GPUCAP" merge out.sqlite 2>/dev/null; rc=$?
check "merge without IN exits 2 (got $rc)" test $rc -eq 2
check "merge --help" "$GPUCAP" merge --help
finish
