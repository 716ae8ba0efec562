#!/usr/bin/env bash
# End-to-end: gpucap sweep. The same sweep with --jobs 1, --jobs 2 and as 3 shards run at once and merged
# gives identical metrics rows; two sweeps run at once on one database both succeed; invalid points are
# recorded as failed runs with their message and the sweep exits 1 with a summary; --resume, --check, bad
# sweep files, the shard environment; the shipped example and analysis/README.md's one-SELECT query.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

metrics() { # metrics DB: every metric row but the wall-clock one
	sqlite3 "$1" "select run_id, name, printf('%.17g', value) from metrics where name <> 'wall_s' order by 1, 2"
}
# (under valgrind, 20-50 times slower, each run of the grid is 30 min long: the sweep runs it 80 times)
h=2h
[ -n "$VGDIR" ] && h=30m
cat > grid.yaml <<YAML
name: e2e-grid
base: $SRC/scenarios/chat-serving.yaml
replications: 2
set: {horizon: $h}
grid:
  autoscaling.target: [0.6, 0.8]
  fleet.0.count: {from: 0, to: 8, step: 4}
YAML
# 2 targets x 3 counts x 2 replications = 12 runs
out=$("$GPUCAP" sweep grid.yaml --db j1.sqlite); rc=$?
check "jobs 1: exit 0 ($rc)" test $rc -eq 0
check "jobs 1: a line per run" test "$(grep -c '^run [0-9]* point [0-9]* rep [01] ok$' <<<"$out")" -eq 12
check "jobs 1: summary" grep -q "^sweep e2e-grid: 12 runs: 12 ok, 0 failed, 0 skipped" <<<"$out"
check "jobs 1: 12 ok runs" test "$(sqlite3 j1.sqlite "select count(*) from runs where status = 'ok'")" = 12
check "metrics are there" test "$(metrics j1.sqlite | wc -l)" -gt 500
# run i is point i / 2, replication i % 2, seed 42 + replication, overrides set + point values + seed
check "run 5 is point 2 rep 1" test "$(sqlite3 j1.sqlite "select point, replication, seed from runs order by run_id limit 1 offset 5")" = "2|1|43"
check "run 5's overrides" test "$(sqlite3 j1.sqlite "select replace(overrides, char(10), ' ') from runs order by run_id limit 1 offset 5")" = "horizon=$h autoscaling.target=0.6 fleet.0.count=8 seed=43"
"$GPUCAP" sweep grid.yaml --db j2.sqlite --jobs 2 --quiet > j2.out; rc=$?
check "jobs 2: exit 0 ($rc)" test $rc -eq 0
check "--quiet: only the summary" test "$(wc -l < j2.out)" -eq 1
check "jobs 1 == jobs 2" test "$(metrics j1.sqlite | sha256sum)" = "$(metrics j2.sqlite | sha256sum)"
# the workers' runs on one thread each (GPUCAP_THREADS=1: requests drawn inline) give the same rows (under
# valgrind from the plain binary: the runs are memcheck's above)
one=$GPUCAP
[ -n "$VGDIR" ] && one=$GPUCAP_PLAIN
GPUCAP_THREADS=1 "$one" sweep grid.yaml --db t1.sqlite --jobs 2 --quiet > t1.out; rc=$?
check "GPUCAP_THREADS=1: exit 0 ($rc)" test $rc -eq 0
check "GPUCAP_THREADS=1: same as two threads" test "$(metrics j1.sqlite | sha256sum)" = "$(metrics t1.sqlite | sha256sum)"
for k in 1 2 3; do "$GPUCAP" sweep grid.yaml --shard $k/3 --quiet > shard$k.out & done
wait
check "shards: default names" test -f e2e-grid-shard-1-of-3.sqlite -a -f e2e-grid-shard-3-of-3.sqlite
check "shard 2 ran 4 runs" grep -q "12 runs\|4 runs in this shard: 4 ok" shard2.out
check "shard 2 holds runs 1, 4, 7, 10" test "$(sqlite3 e2e-grid-shard-2-of-3.sqlite "select group_concat(point * 2 + replication) from (select * from runs order by run_id)")" = "1,4,7,10"
"$GPUCAP" merge merged.sqlite e2e-grid-shard-*-of-3.sqlite >/dev/null; rc=$?
check "merge: exit 0 ($rc)" test $rc -eq 0
check "3 shards merged == jobs 1" test "$(metrics j1.sqlite | sha256sum)" = "$(metrics merged.sqlite | sha256sum)"
# the shard from the environment: GPUCAP_SHARD, Slurm's array variables, an index with --shard-count
GPUCAP_SHARD=3/3 "$GPUCAP" sweep grid.yaml --quiet --db env1.sqlite >/dev/null
SLURM_ARRAY_TASK_ID=7 SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=3 "$GPUCAP" sweep grid.yaml --quiet --db env2.sqlite >/dev/null
JOB_COMPLETION_INDEX=2 "$GPUCAP" sweep grid.yaml --shard-count 3 --quiet --db env3.sqlite >/dev/null
for db in env1 env2 env3; do
	check "$db: shard 3 of 3" test "$(metrics $db.sqlite | sha256sum)" = "$(metrics e2e-grid-shard-3-of-3.sqlite | sha256sum)"
done
err=$(AWS_BATCH_JOB_ARRAY_INDEX=0 "$GPUCAP" sweep grid.yaml --db env4.sqlite 2>&1); rc=$?
check "an index without --shard-count: exit 2 ($rc)" test $rc -eq 2
check "an index without --shard-count: says so" grep -q "shard-count" <<<"$err"

# a database that holds runs of the sweep: refused without --resume; with it, nothing left to run
err=$("$GPUCAP" sweep grid.yaml --db j1.sqlite 2>&1); rc=$?
check "again without --resume: exit 2 ($rc)" test $rc -eq 2
check "again without --resume: suggests it" grep -q "already holds 12 of the 12 runs.*--resume" <<<"$err"
out=$("$GPUCAP" sweep grid.yaml --db j1.sqlite --resume); rc=$?
check "--resume of a finished sweep: exit 0 ($rc)" test $rc -eq 0
check "--resume of a finished sweep: all skipped" grep -q "0 ok, 0 failed, 12 skipped" <<<"$out"
check "--resume adds no run" test "$(sqlite3 j1.sqlite "select count(*) from runs")" = 12

# two sweeps at once on one database
sed 's/e2e-grid/e2e-other/; s/0.6, 0.8/0.5, 0.7/' grid.yaml > other.yaml
"$GPUCAP" sweep grid.yaml --db both.sqlite --jobs 2 --quiet > both1.out & p1=$!
"$GPUCAP" sweep other.yaml --db both.sqlite --jobs 2 --quiet > both2.out & p2=$!
wait $p1; rc1=$?; wait $p2; rc2=$?
check "two sweeps at once: both exit 0 ($rc1, $rc2)" test $rc1 -eq 0 -a $rc2 -eq 0
check "two sweeps at once: 24 ok runs" test "$(sqlite3 both.sqlite "select count(*) from runs where status = 'ok'")" = 24
check "two sweeps at once: two sweeps" test "$(sqlite3 both.sqlite "select count(*) from sweeps")" = 2
check "two sweeps at once: the first as alone" test "$(sqlite3 both.sqlite "select count(*) from runs r join sweeps s using (sweep_id) where s.name = 'e2e-grid'")" = 12

# invalid points: recorded as failed with the message, the rest run, exit 1
cat > bad.yaml <<YAML
name: e2e-bad
base: $SRC/scenarios/chat-serving.yaml
set: {horizon: 1h}
grid:
  serving.slots_per_instance: [0, 32, 5000]
YAML
out=$("$GPUCAP" sweep bad.yaml --check); rc=$?
check "--check: exit 2 ($rc)" test $rc -eq 2
check "--check: names point 0" grep -q "^point 0 (serving.slots_per_instance=0): .*expected an integer from 1 to 4096" <<<"$out"
check "--check: 2 invalid" grep -q "3 points, 2 invalid" <<<"$out"
check "--check: no database" test ! -e results.sqlite
out=$("$GPUCAP" sweep bad.yaml --db bad.sqlite --jobs 2); rc=$?
check "invalid points: exit 1 ($rc)" test $rc -eq 1
check "invalid points: summary counts them" grep -q "3 runs: 1 ok, 2 failed" <<<"$out"
check "invalid points: a failed line" grep -q "^run 2 point 2 rep 0 failed: .*got '5000'" <<<"$out"
check "invalid points: recorded" test "$(sqlite3 bad.sqlite "select count(*) from runs where status = 'failed' and error like '%serving.slots_per_instance%expected an integer%'")" = 2
check "invalid points: no metrics for them" test "$(sqlite3 bad.sqlite "select count(distinct run_id) from metrics")" = 1
"$GPUCAP" sweep bad.yaml --check --quiet >/dev/null
"$GPUCAP" sweep grid.yaml --check >/dev/null; check "a valid sweep checks" test $? -eq 0

# bad sweep files and usage
printf 'name: x\nbase: b.yaml\ngrid: {seed: [1, 2]}\n' > seed.yaml
err=$("$GPUCAP" sweep seed.yaml 2>&1); rc=$?
check "swept seed: exit 2 ($rc)" test $rc -eq 2
check "swept seed: file:line:col" grep -q "seed.yaml:3:8: grid.seed: the seed is not swept" <<<"$err"
"$GPUCAP" sweep missing.yaml 2>/dev/null; check "missing file: exit 2" test $? -eq 2
"$GPUCAP" sweep grid.yaml --jobs 0 2>/dev/null; check "--jobs 0: exit 2" test $? -eq 2
"$GPUCAP" sweep grid.yaml --shard 4/3 2>/dev/null; check "--shard 4/3: exit 2" test $? -eq 2
"$GPUCAP" sweep --help >/dev/null; check "sweep --help" test $? -eq 0

# the shipped example (4 targets x 5 reserved counts x 3 seeds) and analysis/README.md's query
ex="$SRC/scenarios/sweeps/target-vs-reserved.yaml"
# (the plain binary even under valgrind: the sweeps above already run the same code under memcheck, and this
# part checks the example and the manual's query)
"$GPUCAP_PLAIN" sweep "$ex" --db tvr.sqlite --jobs 2 --quiet > tvr.out; rc=$?
check "example: exit 0 ($rc)" test $rc -eq 0
check "example: 60 runs" grep -q "60 runs: 60 ok" tvr.out
query=$(sed -n '/^```sql cheapest-point/,/^```$/p' "$SRC/analysis/README.md" | sed '1d;$d')
check "analysis/README.md has the query" test -n "$query"
rows=$(sqlite3 tvr.sqlite "$query"); rc=$?
check "README query runs ($rc)" test $rc -eq 0
check "README query gives one row ($rows)" test "$(wc -l <<<"$rows")" -eq 1 -a -n "$rows"
check "the view has a column per swept key" test "$(sqlite3 tvr.sqlite "select count(distinct autoscaling_target) || ' ' || count(distinct fleet_0_count) from sweep_target_vs_reserved")" = "4 5"
finish
