#!/usr/bin/env bash
# End-to-end: inputs that cannot mix (issue 29). A sweep's runs record the files their scenario names
# (run_inputs) and their run keys cover the files' content: a --resume after a trace changed runs the
# stale runs again, says which file on stderr, and leaves the database as a fresh sweep with the new trace
# would be (a price trace and a jobs CSV); an edited sweep file under a used name is refused (--name
# stores it as a new sweep); two sweep processes of one file on one database split the runs (each run
# once, the rows as one process writes them), and one started while another runs joins it without --resume.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

summary() { # summary DB: run_summary without the wall-clock columns, in run order
	local cols
	cols=$(sqlite3 "$1" "select group_concat('\"' || name || '\"') from pragma_table_info('run_summary') \
		where name not in ('started_at', 'wall_s')")
	sqlite3 "$1" "select $cols from run_summary order by run_id"
}
ok_of() { sed -n 's/.*: \([0-9]*\) ok, .*/\1/p' "$1"; }  # ok_of OUT: the summary line's ok count

mkdir traces
cp "$SRC/scenarios/spot-trace.yaml" .
cp "$SRC"/scenarios/traces/example-spot-prices.txt "$SRC"/scenarios/traces/example-spot-availability.json traces/
cat > tr.yaml <<YAML
name: tr
base: spot-trace.yaml
replications: 2
set: {horizon: 2h}
grid:
  autoscaling.target: [0.6, 0.8]
YAML

# ---- the files a run reads are recorded, and in its key ----
"$GPUCAP" sweep tr.yaml --db r.sqlite --quiet >/dev/null 2>err.txt; rc=$?
check "sweep: exit 0 ($rc: $(cat err.txt))" test $rc -eq 0
check "each run records its two trace files" test "$(sqlite3 r.sqlite "select count(*) from run_inputs where path in \
	('traces/example-spot-prices.txt', 'traces/example-spot-availability.json') group by run_id" | sort -u)" = 2
old_hash=$(sqlite3 r.sqlite "select distinct content_hash from run_inputs where path like '%prices.txt'")
check "the bytes recorded" test "$(sqlite3 r.sqlite "select distinct bytes from run_inputs where path like \
	'%prices.txt'")" = "$(wc -c < traces/example-spot-prices.txt)"
old_keys=$(sqlite3 r.sqlite "select run_key from runs order by run_id")
"$GPUCAP" sweep tr.yaml --db r.sqlite --resume >out.txt 2>err.txt; rc=$?
check "unchanged resume: nothing to do ($rc)" grep -q "0 ok, 0 failed, 4 skipped" out.txt
check "unchanged resume: nothing on stderr ($(cat err.txt))" test ! -s err.txt

# ---- a resume after a trace changed runs the runs afresh, and says why ----
sed -i 's/19.900000/29.900000/' traces/example-spot-prices.txt
"$GPUCAP" sweep tr.yaml --db r.sqlite --resume --quiet >out.txt 2>err.txt; rc=$?
check "changed trace: exit 0 ($rc)" test $rc -eq 0
check "changed trace: every run again ($(cat out.txt))" grep -q "4 runs: 4 ok, 0 failed, 0 skipped" out.txt
check "changed trace: stderr names the file and the run ($(cat err.txt))" \
	grep -q "^gpucap: sweep tr: traces/example-spot-prices.txt changed since run 1 was stored (and 3 more runs): running them again" err.txt
check "changed trace: one line" test "$(wc -l < err.txt)" -eq 1
check "changed trace: 4 runs, none of the old trace" test "$(sqlite3 r.sqlite "select count(*) from runs; \
	select count(*) from run_inputs where content_hash = '$old_hash'" | tr '\n' ' ')" = "4 0 "
check "changed trace: new keys" test "$(sqlite3 r.sqlite "select run_key from runs order by run_id")" != "$old_keys"
"$GPUCAP" sweep tr.yaml --db fresh.sqlite --quiet >/dev/null
check "changed trace: the rows a fresh sweep with the new trace writes" test "$(summary r.sqlite)" = "$(summary fresh.sqlite)"
# merge copies each run's input files with it (and not the claims: they are the file's own)
"$GPUCAP" merge m.sqlite r.sqlite >/dev/null; rc=$?
check "merge: exit 0 ($rc)" test $rc -eq 0
check "merge: the input files go with the runs" test "$(sqlite3 m.sqlite "select run_id, seq, path, content_hash, bytes \
	from run_inputs order by 1, 2")" = "$(sqlite3 r.sqlite "select run_id, seq, path, content_hash, bytes from run_inputs order by 1, 2")"
check "merge: no claims copied" test "$(sqlite3 m.sqlite "select count(*) from run_claims")" = 0
# a killed sweep then a changed trace: the runs stored with the old trace are run again with the missing one
sqlite3 r.sqlite "pragma foreign_keys = on; delete from runs where run_id = 4"
sed -i 's/29.900000/39.900000/' traces/example-spot-prices.txt
"$GPUCAP" sweep tr.yaml --db r.sqlite --resume --quiet >out.txt 2>err.txt; rc=$?
check "partial, changed: 4 runs again ($rc: $(cat out.txt))" grep -q "4 runs: 4 ok, 0 failed, 0 skipped" out.txt
check "partial, changed: the 3 stored ones named ($(cat err.txt))" grep -q "changed since run 1 was stored (and 2 more runs)" err.txt
# a file the base scenario names that is gone: the sweep is refused, naming the file, and nothing changes
mv traces/example-spot-availability.json gone.json
"$GPUCAP" sweep tr.yaml --db r.sqlite --resume --quiet >out.txt 2>err.txt; rc=$?
check "gone file: exit 2 ($rc)" test $rc -eq 2
check "gone file: said ($(cat err.txt))" grep -q "^gpucap: traces/example-spot-availability.json: cannot open" err.txt
check "gone file: the runs stay" test "$(sqlite3 r.sqlite "select count(*) from runs where status = 'ok'")" = 4
mv gone.json traces/example-spot-availability.json

# runs stored before files were hashed (schema version 9: no run_inputs, keys without the files): run again
sqlite3 r.sqlite "delete from run_inputs; update runs set run_key = 'old'"
"$GPUCAP" sweep tr.yaml --db r.sqlite --resume --quiet >out.txt 2>err.txt; rc=$?
check "unrecorded: all run again ($rc: $(cat out.txt))" grep -q "4 runs: 4 ok, 0 failed, 0 skipped" out.txt
check "unrecorded: said ($(cat err.txt))" grep -q "^gpucap: sweep tr: run 1 (and 3 more runs): stored without the content of traces/example-spot-.* (by a gpucap before schema version 10): running them again" err.txt
# a point whose own file (swept) is gone: its stored runs are dropped and run again (and fail), the other
# point's are kept
cp traces/example-spot-availability.json traces/b.json
cat > path.yaml <<YAML
name: paths
base: spot-trace.yaml
replications: 2
set: {horizon: 2h}
grid:
  fleet.1.availability_trace: [traces/example-spot-availability.json, traces/b.json]
YAML
"$GPUCAP" sweep path.yaml --db p.sqlite --quiet >/dev/null 2>&1
rm traces/b.json
"$GPUCAP" sweep path.yaml --db p.sqlite --resume --quiet >out.txt 2>err.txt; rc=$?
check "swept file gone: exit 1, its runs failed ($rc: $(cat out.txt))" grep -q "4 runs: 0 ok, 2 failed, 2 skipped" out.txt
check "swept file gone: said ($(head -1 err.txt))" grep -q "^gpucap: sweep paths: run 3 (and 1 more run): point 1 no longer loads (.*b.json" err.txt
check "swept file gone: no ok run of it left" test "$(sqlite3 p.sqlite "select group_concat(status) from runs where point = 1")" = "failed,failed"

# a jobs CSV that changed: the same, through the jobs loader
cat > jobs.yaml <<'YAML'
name: jobs-csv
start: 2026-01-12T00:00:00Z
horizon: 1d
serving: {instance_type: p5.48xlarge, startup_s: 5m}
fleet:
  - {option: on_demand, use: jobs, max: 8}
jobs:
  trace: jobs.csv
YAML
printf 'name,instances,work_instance_hours,submit,deadline\nsft,4,32,1h,24h\n' > jobs.csv
cat > js.yaml <<YAML
name: js
base: jobs.yaml
replications: 2
grid:
  fleet.0.max: [8]
YAML
"$GPUCAP" sweep js.yaml --db j.sqlite --quiet >/dev/null 2>err.txt; rc=$?
check "jobs CSV sweep: exit 0 ($rc: $(cat err.txt))" test $rc -eq 0
check "jobs CSV recorded" test "$(sqlite3 j.sqlite "select count(*) from run_inputs where path = 'jobs.csv'")" = 2
printf 'name,instances,work_instance_hours,submit,deadline\nsft,4,40,1h,24h\n' > jobs.csv
"$GPUCAP" sweep js.yaml --db j.sqlite --resume --quiet >out.txt 2>err.txt; rc=$?
check "jobs CSV changed: run again ($rc: $(cat out.txt))" grep -q "2 runs: 2 ok, 0 failed, 0 skipped" out.txt
check "jobs CSV changed: said ($(cat err.txt))" grep -q "^gpucap: sweep js: jobs.csv changed since run 1 was stored (and 1 more run): running them again" err.txt
"$GPUCAP" sweep js.yaml --db jfresh.sqlite --quiet >/dev/null
check "jobs CSV changed: the rows a fresh sweep with the new CSV writes" test "$(summary j.sqlite)" = "$(summary jfresh.sqlite)"

# ---- one sweep of a name ----
"$GPUCAP" sweep tr.yaml --db names.sqlite --quiet >/dev/null
sed -i 's/\[0.6, 0.8\]/[0.6, 0.7]/' tr.yaml
"$GPUCAP" sweep tr.yaml --db names.sqlite --quiet >out.txt 2>err.txt; rc=$?
check "edited file, same name: refused, exit 2 ($rc)" test $rc -eq 2
check "edited file: the message names the sweep there and --name ($(cat err.txt))" \
	grep -q "^gpucap: names.sqlite: already holds a sweep named tr (sweep 1, from tr.yaml, registered .*--name NEW" err.txt
check "edited file: nothing written" test "$(sqlite3 names.sqlite "select count(*) from sweeps; select count(*) from runs" | tr '\n' ' ')" = "1 4 "
"$GPUCAP" sweep tr.yaml --db names.sqlite --name tr-2 --quiet >out.txt 2>err.txt; rc=$?
check "--name: a new sweep ($rc: $(cat err.txt))" test $rc -eq 0
check "--name: two sweeps, two names" test "$(sqlite3 names.sqlite "select group_concat(name, ' ') from sweeps")" = "tr tr-2"
check "--name: its view" test "$(sqlite3 names.sqlite "select count(*) from sweep_tr_2")" = 4
"$GPUCAP" sweep tr.yaml --db names.sqlite --name tr-2 --resume --quiet >out.txt 2>&1
check "--name again: the same sweep" grep -q "0 ok, 0 failed, 4 skipped" out.txt
"$GPUCAP" sweep tr.yaml --db names.sqlite --name .bad --quiet >out.txt 2>err.txt; rc=$?
check "--name .bad: usage error ($rc)" test $rc -eq 2 -a "$(grep -c "^gpucap sweep: --name '.bad'" err.txt)" = 1

# ---- two sweep processes of one file on one database split the work ----
# Under valgrind (GPUCAP_VALGRIND=1) this part is left out, to keep CI's time: its 24-run sweeps of chat-serving,
# run three more times, take tens of minutes there, and it kills a sweep with SIGKILL (e2e_sweep_kill is left
# out under valgrind for the same reason). The claims' code paths are run above too (every sweep claims).
if [ -n "$VGDIR" ]; then echo "two processes, join and kill: left out under valgrind"; finish; exit; fi
cat > par.yaml <<YAML
name: par
base: $SRC/scenarios/chat-serving.yaml
replications: 3
set: {horizon: 6h}
grid:
  autoscaling.target: [0.5, 0.6, 0.7, 0.8]
  fleet.0.count: [0, 4]
YAML
# 4 x 2 points x 3 replications = 24 runs
"$GPUCAP" sweep par.yaml --db one.sqlite --quiet >/dev/null
"$GPUCAP" sweep par.yaml --db two.sqlite --jobs 2 --quiet >a.out 2>a.err & pa=$!
"$GPUCAP" sweep par.yaml --db two.sqlite --jobs 2 --quiet >b.out 2>b.err & pb=$!
wait $pa; ra=$?; wait $pb; rb=$?
check "two at once: both exit 0 ($ra, $rb: $(cat a.err b.err))" test $ra -eq 0 -a $rb -eq 0
check "two at once: each run run once ($(cat a.out b.out))" test $(( $(ok_of a.out) + $(ok_of b.out) )) -eq 24
check "two at once: 24 runs" test "$(sqlite3 two.sqlite "select count(*) from runs where status = 'ok'")" = 24
check "two at once: each claimed by the one that ran it" test "$(sqlite3 two.sqlite "select count(*) from run_claims")" = 24
check "two at once: both ran some" test "$(sqlite3 two.sqlite "select count(distinct pid) from run_claims")" = 2
check "two at once: the rows one process writes" test "$(summary two.sqlite)" = "$(summary one.sqlite)"
# a second process started while the first runs joins it, without --resume
"$GPUCAP" sweep par.yaml --db join.sqlite --quiet >a.out 2>a.err & pa=$!
for _ in $(seq 200); do
	[ "$(sqlite3 join.sqlite "select count(*) from runs" 2>/dev/null)" -ge 2 ] 2>/dev/null && break
	sleep 0.05
done
"$GPUCAP" sweep par.yaml --db join.sqlite --quiet >b.out 2>b.err; rb=$?
wait $pa; ra=$?
check "join: both exit 0 ($ra, $rb: $(cat b.err))" test $ra -eq 0 -a $rb -eq 0
if grep -q "joining it" b.err; then  # the first may have finished before the second looked
	check "join: each run run once ($(cat a.out b.out))" test $(( $(ok_of a.out) + $(ok_of b.out) )) -eq 24
else
	check "join: the first had finished ($(cat b.out))" grep -q "already holds 24 of the 24" b.err
fi
check "join: the rows one process writes" test "$(summary join.sqlite)" = "$(summary one.sqlite)"
# a sweep killed with its claims: a resume takes the dead process's claims over and completes it
"$GPUCAP" sweep par.yaml --db kill.sqlite --quiet >/dev/null 2>&1 & pa=$!
for _ in $(seq 200); do
	[ "$(sqlite3 kill.sqlite "select count(*) from runs" 2>/dev/null)" -ge 2 ] 2>/dev/null && break
	sleep 0.05
done
kill -9 $pa; wait $pa 2>/dev/null
"$GPUCAP" sweep par.yaml --db kill.sqlite --resume --quiet >out.txt 2>err.txt; rc=$?
check "killed, resumed: exit 0 ($rc: $(cat err.txt))" test $rc -eq 0
check "killed, resumed: the rows one process writes" test "$(summary kill.sqlite)" = "$(summary one.sqlite)"
finish
