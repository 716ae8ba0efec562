#!/bin/bash
# End-to-end: reading one sweep of a large results database takes that sweep's rows, not a scan of every run
# (issue 29; analysis/schema.sql, version 10's indexes). Two parts:
#  - the queries compare, report, merge and --resume make for one sweep are planned on an index: EXPLAIN QUERY
#    PLAN of each (their text as in analysis/compare.c, report.c, merge.c and store_sweep.c) shows no SCAN of
#    runs, metrics, sweep_params or labels. Without the indexes runs is scanned: the check fails.
#  - a file of 100,000 runs (made cheaply by SQL: most in 12 other sweeps, the rest outside any sweep, each
#    with a real run's scenario text) answers `compare` and `report` for one small sweep with the same figures
#    as the small file holding that sweep alone. ctest's TIMEOUT on this test is the hang guard (it took
#    minutes before the indexes); no time is asserted.
. "$(dirname "$0")/lib.sh" "$@"
cd "$TMP" || exit 1

cat >tiny.yaml <<YAML
name: tiny
base: $SRC/scenarios/chat-serving.yaml
replications: 2
set: {horizon: 10m}
grid:
  autoscaling.target: [0.6, 0.8]
  fleet.0.count: [0, 2]
YAML
"$GPUCAP" sweep tiny.yaml --db small.sqlite --quiet >/dev/null; rc=$?
check "the small sweep runs (exit $rc)" test $rc -eq 0

# query plans: every detail line of each plan, and no full scan of a table that grows with the runs
plan() { sqlite3 small.sqlite "EXPLAIN QUERY PLAN $1" | sed 's/^[^A-Z]*//'; }
no_scan() { # no_scan WHAT SQL
	local p
	p=$(plan "$2")
	check "$1 uses an index ($(echo "$p" | tr '\n' ';'))" \
		bash -c '! grep -qE "SCAN (runs|metrics|sweep_params|labels|r|o|sp|m)( |$)" <<<"$1"' _ "$p"
}
no_scan "compare: a point's runs" \
	"SELECT run_id, seed, status FROM runs WHERE sweep_id = 1 AND point = 2 ORDER BY replication, run_id"
no_scan "compare: a point's params" \
	"SELECT sp.key, sp.value FROM sweep_params AS sp JOIN sweeps AS s USING (sweep_id) WHERE sp.sweep_id = 1 AND
	 sp.point = 2 ORDER BY instr(char(10) || s.params || char(10), char(10) || sp.key || char(10))"
no_scan "compare: a sweep by name" "SELECT sweep_id, npoints FROM sweeps WHERE name = 'tiny' ORDER BY sweep_id DESC LIMIT 1"
no_scan "compare: a run's metric" "SELECT value FROM metrics WHERE run_id = 3 AND name = 'cost_total_usd'"
no_scan "compare: the runs outside a sweep" \
	"SELECT run_id FROM runs WHERE sweep_id IS NULL AND status = 'ok' ORDER BY run_id"
no_scan "report: the runs outside a sweep but recommend's" \
	"SELECT run_id FROM runs WHERE sweep_id IS NULL AND run_id NOT IN
	 (SELECT run_id FROM labels WHERE key = 'recommend') ORDER BY run_id"
no_scan "report: the recommend sessions" \
	"SELECT value, group_concat(run_id) FROM labels WHERE key = 'recommend_session' GROUP BY value ORDER BY min(run_id)"
no_scan "merge: a sweep's runs of the input" "SELECT run_id, status = 'ok' FROM runs WHERE sweep_id = 1 ORDER BY run_id"
no_scan "merge: is a plain run already in the output" \
	"SELECT EXISTS (SELECT 1 FROM runs AS o WHERE o.run_key IS 'x' AND o.started_at = 'y' AND o.seed = 1 AND
	 o.overrides = '' AND o.scenario_text = '')"
no_scan "--resume: the runs of a sweep done" \
	"SELECT r.run_id - s.run_id_base FROM runs AS r JOIN sweeps AS s ON s.sweep_id = r.sweep_id WHERE
	 s.sweep_id = 1 AND r.status = 'ok' AND r.run_id BETWEEN s.run_id_base AND s.run_id_base + 8 - 1"

# Under valgrind (GPUCAP_VALGRIND=1) the file of 100,000 runs is left out: reading it under memcheck takes
# minutes, and the reads are the ones the small file ran above.
if [ -n "$VGDIR" ]; then echo "the 100,000-run file: left out under valgrind"; finish; exit; fi
# 100,000 more runs: 60,000 in 12 other sweeps of 50 points x 100 replications, 40,000 outside any sweep,
# each with the first run's scenario text and 5 of its metrics
cp small.sqlite big.sqlite
sqlite3 big.sqlite <<'SQL'
BEGIN;
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 11)
INSERT INTO sweeps (name, sweep_key, file_path, file_text, params, npoints, nreps, run_id_base, created_at)
SELECT 'other-' || i, printf('%032x', i + 1000), NULL, '', 'x', 50, 100, 100001 + i * 5000, '2026-01-01T00:00:00Z'
FROM k;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
INSERT INTO runs (run_id, name, scenario_path, scenario_text, overrides, seed, status, started_at, wall_s, version,
		  horizon_s, instance_type, sweep_id, point, replication, run_key, error)
SELECT 100001 + i, r.name, r.scenario_path, r.scenario_text, r.overrides, i, 'ok', r.started_at, r.wall_s,
       r.version, r.horizon_s, r.instance_type,
       CASE WHEN i < 60000 THEN (SELECT sweep_id FROM sweeps WHERE name = 'other-' || (i / 5000)) END,
       CASE WHEN i < 60000 THEN (i % 5000) / 100 END, CASE WHEN i < 60000 THEN i % 100 END,
       printf('%032x', i + 5000000), NULL
FROM n, (SELECT * FROM runs ORDER BY run_id LIMIT 1) AS r;
INSERT INTO metrics (run_id, name, value)
SELECT r.run_id, m.name, m.value FROM runs AS r, (SELECT name, value FROM metrics WHERE run_id = 1 LIMIT 5) AS m
WHERE r.run_id > 100000;
COMMIT;
SQL
check "the big file has 100,008 runs" test "$(sqlite3 big.sqlite 'select count(*) from runs')" = 100008

for f in small big; do
	"$GPUCAP" compare --db $f.sqlite tiny >compare-$f.txt; rc=$?
	check "compare on the $f file exits 0 (got $rc)" test $rc -eq 0
	"$GPUCAP" compare --db $f.sqlite --csv tiny >compare-$f.csv
	"$GPUCAP" report --db $f.sqlite tiny -o report-$f.html; rc=$?
	check "report on the $f file exits 0 (got $rc)" test $rc -eq 0
done
# the first line of the text names the file; the CSV's figures and the page's (but the file name) are alike
check "compare: the same figures on both files" test "$(sed 1d compare-small.txt)" = "$(sed 1d compare-big.txt)"
check "compare --csv: the same bytes on both files" cmp -s compare-small.csv compare-big.csv
check "report: the same page on both files (but the file name)" \
	test "$(sed 's/small\.sqlite/FILE/g' report-small.html)" = "$(sed 's/big\.sqlite/FILE/g' report-big.html)"
finish
