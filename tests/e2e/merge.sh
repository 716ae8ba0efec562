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
# ---- what makes two runs the same run (issue 38) ----
# dump DB FIRST LAST SHIFT TABLE...: every row of runs FIRST..LAST in the tables (but the wall-clock metric
# wall_s), run_id less SHIFT, table by table in order (one sqlite3 call for the rows)
dump() {
	local db=$1 lo=$2 hi=$3 off=$4 sql= t c
	declare -A cols=()
	shift 4
	while read -r t c; do cols[$t]=$c; done < <(sqlite3 -separator ' ' "$db" "select m.name, group_concat('\"' || \
		p.name || '\"') from sqlite_master as m join pragma_table_info(m.name) as p where m.type = 'table' and \
		p.name <> 'run_id' group by m.name")
	for t in "$@"; do
		sql+="select '$t', run_id - $off, ${cols[$t]} from $t where run_id between $lo and $hi"
		[ "$t" = metrics ] && sql+=" and name <> 'wall_s'"
		sql+=" order by 2, ${cols[$t]}; "
	done
	sqlite3 "$db" "$sql"
}
merged() { sed -n 's/^[^ ]*: \([0-9]*\) runs merged into [^ ]*, \([0-9]*\) already there, \([0-9]*\) new sweeps$/\1 \2 \3/p'; }
TABLES="metrics samples events warnings labels charges hours type_samples run_inputs"

# Every row of a run goes with it, at its new id. Three runs fill every table a run owns between them: a Spot
# run on price and availability traces, labelled, 10 minutes long (run_inputs, labels, a horizon_too_short
# warning), a run with a job (events) and a run of three types (type_samples). Merged into one.sqlite, which
# holds a run, IN's runs 1, 2, 3 are OUT's 2, 3, 4 (the next free ids), every row as it was but run_id, and
# outside any sweep (sweep_id NULL).
"$GPUCAP" run "$SRC/scenarios/spot-trace.yaml" --set horizon=10m --label team=ml --quiet --db p.sqlite
"$GPUCAP" run "$SRC/tests/data/focus/serving-jobs.yaml" --set horizon=2h --quiet --db p.sqlite 2>/dev/null
"$GPUCAP" run "$SRC/scenarios/three-types.yaml" --set horizon=10m --quiet --db p.sqlite 2>/dev/null
"$GPUCAP" run --set horizon=1h --seed 9 --quiet --db one.sqlite
out=$("$GPUCAP" merge one.sqlite p.sqlite)
check "three runs merged ($out)" test "$(merged <<<"$out")" = "3 0 0"
check "at ids 2, 3, 4, outside any sweep" test "$(sqlite3 one.sqlite "select group_concat(run_id || ':' || \
	coalesce(sweep_id, '-')) from (select * from runs order by run_id)")" = "1:-,2:-,3:-,4:-"
for t in runs $TABLES; do
	check "every table has rows to copy: $t" test -n "$(dump p.sqlite 1 3 0 $t)"
	check "$t: each run's rows copied whole" test "$(dump p.sqlite 1 3 0 $t)" = "$(dump one.sqlite 2 4 1 $t)"
done

# The identity of a run outside a sweep: run_key, started_at, seed, overrides and scenario_text (merge.h). A
# copy of p.sqlite whose run 1 differs from it in one of the five holds another run: 1 merged (at the next id),
# 2 already there. One that differs in other columns only (wall_s, version) holds the same 3 runs: 0 merged.
# A run_key NULL (a run written before version 3) is not the stored key (merged once) and is itself (the
# second merge of that file: 0 merged, 3 there).
for change in "run_key = run_key || 'x'" "started_at = '2001-01-01T00:00:00Z'" "seed = seed + 1" \
	"overrides = overrides || 'x'" "scenario_text = scenario_text || ' '" "run_key = NULL"; do
	cp p.sqlite k.sqlite
	sqlite3 k.sqlite "update runs set $change where run_id = 1"
	check "$change: another run" test "$("$GPUCAP" merge one.sqlite k.sqlite | merged)" = "1 2 0"
done
check "run_key NULL: the same run the second time" test "$("$GPUCAP" merge one.sqlite k.sqlite | merged)" = "0 3 0"
cp p.sqlite k.sqlite
sqlite3 k.sqlite "update runs set wall_s = wall_s + 1, version = 'other' where run_id = 1"
before=$(sha256sum <one.sqlite)
check "wall_s, version: the same run" test "$("$GPUCAP" merge one.sqlite k.sqlite | merged)" = "0 3 0"
check "... and OUT unchanged" test "$(sha256sum <one.sqlite)" = "$before"

# A sweep's runs are placed by its sweep_key: run i of the sweep at OUT's run_id_base + i. A sweep of 2 points
# x 2 replications run whole (whole.sqlite) and as 2 shards (s1: runs 0, 2; s2: runs 1, 3), s1 then holding a
# run outside the sweep (its id 5: the sweep reserves 1-4). sw.sqlite holds run 1. s2 merged first registers
# the sweep at run_id_base 2 (the next free id): its runs 1, 3 at 3, 5 (2 merged, 1 new sweep); s1 then finds
# it by key: runs 0, 2 at 2, 4, its plain run at 6 (max(5, 2 + 4 - 1) + 1), outside the sweep (3 merged, no new
# sweep). Each run's rows are whole.sqlite's run 1 id lower (its base 1); the sweep's params and view come with it.
cat >grid.yaml <<YAML
name: mgrid
base: $SRC/scenarios/spot-trace.yaml
replications: 2
set: {horizon: 10m}
grid:
  autoscaling.target: [0.6, 0.8]
YAML
"$GPUCAP" sweep grid.yaml --db whole.sqlite --quiet >/dev/null
"$GPUCAP" sweep grid.yaml --shard 1/2 --db s1.sqlite --quiet >/dev/null
"$GPUCAP" sweep grid.yaml --shard 2/2 --db s2.sqlite --quiet >/dev/null
"$GPUCAP" run --set horizon=1h --seed 4 --quiet --db s1.sqlite
"$GPUCAP" run --set horizon=1h --seed 9 --quiet --db sw.sqlite
check "s2 into sw: 2 runs, a new sweep" test "$("$GPUCAP" merge sw.sqlite s2.sqlite | merged)" = "2 0 1"
check "s1 into sw: 3 runs, the sweep found" test "$("$GPUCAP" merge sw.sqlite s1.sqlite | merged)" = "3 0 0"
check "run ids, sweep, point, replication" test "$(sqlite3 sw.sqlite "select group_concat(run_id || ':' || \
	coalesce(sweep_id, '-') || '/' || coalesce(point, '-') || '/' || coalesce(replication, '-')) from \
	(select * from runs order by run_id)")" = "1:-/-/-,2:1/0/0,3:1/0/1,4:1/1/0,5:1/1/1,6:-/-/-"
check "the sweep: base 2, its key" test "$(sqlite3 sw.sqlite "select name, run_id_base, npoints, nreps, sweep_key from sweeps")" = \
	"$(sqlite3 whole.sqlite "select name, 2, npoints, nreps, sweep_key from sweeps")"
check "its params" test "$(sqlite3 sw.sqlite "select * from sweep_params")" = "$(sqlite3 whole.sqlite "select * from sweep_params")"
check "its view" test "$(sqlite3 sw.sqlite "select group_concat(run_id) from sweep_mgrid")" = "2,3,4,5"
check "the sweep's runs: whole.sqlite's rows" test "$(dump whole.sqlite 1 4 0 $TABLES)" = "$(dump sw.sqlite 2 5 1 $TABLES)"
check "... and runs" test "$(sqlite3 whole.sqlite "select seed, overrides, run_key, status from runs order by run_id")" = \
	"$(sqlite3 sw.sqlite "select seed, overrides, run_key, status from runs where run_id between 2 and 5 order by run_id")"
before=$(sha256sum <sw.sqlite)
check "s2 again: all there" test "$("$GPUCAP" merge sw.sqlite s2.sqlite | merged)" = "0 2 0"
check "s1 again: all there" test "$("$GPUCAP" merge sw.sqlite s1.sqlite | merged)" = "0 3 0"
check "... OUT unchanged" test "$(sha256sum <sw.sqlite)" = "$before"

# A sweep's failed run: OUT's failed run is replaced by IN's ok one, and only by an ok one. sw.sqlite's run 3
# (s2's run 2) marked failed as a failed attempt leaves it (status, error, no metrics): merging s2 copies it
# again (1 merged, 1 there), ok, its metrics back. s2 with run 2 failed (s2f) changes nothing where OUT has it
# ok (0 merged, 2 there) or failed (OUT's error kept), and is copied, failed, where OUT has no such run.
mark_failed() { sqlite3 "$1" "update runs set status = 'failed', error = '$3' where run_id = $2; delete from metrics where run_id = $2"; }
cp sw.sqlite f.sqlite; mark_failed f.sqlite 3 killed
check "OUT failed, IN ok: replaced" test "$("$GPUCAP" merge f.sqlite s2.sqlite | merged)" = "1 1 0"
check "... ok" test "$(sqlite3 f.sqlite "select status, coalesce(error, '-') from runs where run_id = 3")" = "ok|-"
check "... its rows back" test "$(dump f.sqlite 3 3 0 $TABLES)" = "$(dump sw.sqlite 3 3 0 $TABLES)"
cp s2.sqlite s2f.sqlite; mark_failed s2f.sqlite 2 bad
check "OUT ok, IN failed: kept" test "$("$GPUCAP" merge sw.sqlite s2f.sqlite | merged)" = "0 2 0"
check "... OUT unchanged" test "$(sha256sum <sw.sqlite)" = "$before"
cp sw.sqlite f.sqlite; mark_failed f.sqlite 3 killed
check "OUT failed, IN failed: kept" test "$("$GPUCAP" merge f.sqlite s2f.sqlite | merged)" = "0 2 0"
check "... OUT's failure" test "$(sqlite3 f.sqlite "select status, error from runs where run_id = 3")" = "failed|killed"
check "no run in OUT, IN failed: copied" test "$("$GPUCAP" merge fresh.sqlite s2f.sqlite | merged)" = "2 0 1"
check "... failed" test "$(sqlite3 fresh.sqlite "select group_concat(run_id || status) from runs")" = "2failed,4ok"

# A sweep of that name but another key (another grid: another sweep_key) is refused, OUT unchanged.
sed 's/0.6, 0.8/0.5/' grid.yaml >other.yaml
"$GPUCAP" sweep other.yaml --db o.sqlite --quiet >/dev/null
"$GPUCAP" merge sw.sqlite o.sqlite 2>err.txt >/dev/null; rc=$?
check "a name clash: exit 2 (got $rc)" test $rc -eq 2
check "... says so ($(cat err.txt))" grep -q "o.sqlite: its sweep 'mgrid' is not the sweep of that name already in sw.sqlite" err.txt
check "... OUT unchanged" test "$(sha256sum <sw.sqlite)" = "$before"

# OUT itself as IN, by another name (a hard link: the same file), and a damaged IN are refused, named.
ln sw.sqlite link.sqlite
"$GPUCAP" merge sw.sqlite link.sqlite 2>err.txt; rc=$?
check "OUT as IN: exit 2 (got $rc), named ($(cat err.txt))" grep -q "link.sqlite: is the output file sw.sqlite itself" err.txt
cp p.sqlite bad.sqlite
python3 - bad.sqlite "$(sqlite3 p.sqlite "select rootpage from sqlite_master where name = 'metrics'")" \
	"$(sqlite3 p.sqlite 'pragma page_size')" <<'PY'
import sys
page, size = int(sys.argv[2]), int(sys.argv[3])
with open(sys.argv[1], "r+b") as f:
    f.seek((page - 1) * size)
    f.write(b"\xff" * size)
PY
"$GPUCAP" merge sw.sqlite bad.sqlite 2>err.txt; rc=$?
check "a damaged IN: exit 2 (got $rc)" test $rc -eq 2
check "... named, with quick_check's finding ($(cat err.txt))" \
	grep -q "^gpucap: bad.sqlite: the file is damaged (\*\*\* in database main \*\*\* .*); not merged, sw.sqlite is unchanged" err.txt
check "... OUT unchanged" test "$(sha256sum <sw.sqlite)" = "$before"
finish
