#!/usr/bin/env bash
# End-to-end: the command line as a user meets it (help, version, the default run, --json, the database).
. "$(dirname "$0")/lib.sh"
cd "$TMP"

out=$("$GPUCAP" --help); check "--help exits 0" test $? -eq 0
check "--help lists run" grep -q "run \[SCENARIO\]" <<<"$out"
out=$("$GPUCAP" run --help); check "run --help mentions --set" grep -q -- "--set KEY.PATH=VALUE" <<<"$out"
check "--version" grep -Eq '^gpucap [0-9]+\.[0-9]+\.[0-9]+( \(git [0-9a-f]{7,}(-dirty)?\))?$' <<<"$("$GPUCAP" --version)"
# Built from a git checkout, the version names its commit.
if commit=$(git -C "$SRC" rev-parse --short=12 HEAD 2>/dev/null); then
	check "--version names the commit $commit" grep -q "(git $commit" <<<"$("$GPUCAP" --version)"
fi
"$GPUCAP" >/dev/null 2>&1; check "no command exits 2" test $? -eq 2
"$GPUCAP" frobnicate >/dev/null 2>&1; check "unknown command exits 2" test $? -eq 2
"$GPUCAP" run --bogus >/dev/null 2>&1; check "unknown option exits 2" test $? -eq 2
"$GPUCAP" run --seed -3 >/dev/null 2>&1; check "negative --seed exits 2" test $? -eq 2
"$GPUCAP" run a.yaml b.yaml >/dev/null 2>&1; check "two scenarios exit 2" test $? -eq 2

# The default scenario, shortened, into the default database in the current directory.
out=$("$GPUCAP" run --set horizon=6h); rc=$?
check "default run exits 0" test $rc -eq 0
check "summary names the scenario" grep -q "chat-serving" <<<"$out"
check "summary shows cost" grep -q "cost " <<<"$out"
check "results.sqlite written" test -s results.sqlite
check "one run stored" test "$(sqlite3 results.sqlite 'select count(*) from runs')" = 1
check "run status ok" test "$(sqlite3 results.sqlite 'select status from runs')" = ok
check "overrides stored" test "$(sqlite3 results.sqlite 'select overrides from runs')" = "horizon=6h"
check "scenario text stored" grep -q "name: chat-serving" <<<"$(sqlite3 results.sqlite 'select scenario_text from runs')"
check "360 samples" test "$(sqlite3 results.sqlite 'select count(*) from samples')" = 360
check "events logged" test "$(sqlite3 results.sqlite "select count(*) from events where kind='start'")" -ge 1
for m in requests_total requests_served requests_dropped slo_violations slo_violation_rate latency_mean_s \
	latency_p50_s latency_p90_s latency_p95_s latency_p99_s latency_max_s wait_mean_s wait_p99_s \
	waited_fraction cost_total_usd cost_reserved_usd cost_on_demand_usd cost_per_1k_requests_usd \
	gpu_hours_paid gpu_hours_busy gpu_hours_idle gpu_hours_idle_reserved gpu_hours_idle_on_demand \
	instances_peak launches scale_out_actions scale_in_actions sim_events wall_s; do
	check "metric $m stored" test "$(sqlite3 results.sqlite "select count(*) from metrics where name='$m'")" = 1
done
# Every metric a run stores is a column of run_summary, with the same value.
missing=$(sqlite3 results.sqlite "select name from metrics where name <> 'wall_s' and name not in
	(select name from pragma_table_info('run_summary'))")
check "run_summary has every metric column (missing: $missing)" test -z "$missing"
check "run_summary matches metrics" test "$(sqlite3 results.sqlite "select r.cost_total_usd = m.value from run_summary r
	join metrics m on m.run_id = r.run_id and m.name = 'cost_total_usd'")" = 1

# --json: one valid JSON object with every metric; a second run gets run_id 2.
"$GPUCAP" run --set horizon=2h --json >run.json; check "--json exits 0" test $? -eq 0
check "--json is valid JSON" test "$(sqlite3 :memory: "select json_valid(readfile('run.json'))")" = 1
check "--json has run_id 2" test "$(sqlite3 :memory: "select json_extract(readfile('run.json'), '\$.run_id')")" = 2
check "--json has latency_p99_s" test "$(sqlite3 :memory: "select json_type(readfile('run.json'), '\$.latency_p99_s')")" = real
check "two runs stored" test "$(sqlite3 results.sqlite 'select count(*) from runs')" = 2

# --quiet prints nothing; --db elsewhere; validate.
out=$("$GPUCAP" run --set horizon=1h --quiet --db other.sqlite); check "--quiet is quiet" test -z "$out"
check "--db used" test "$(sqlite3 other.sqlite 'select count(*) from runs')" = 1
check "validate ok" grep -q ": ok" <<<"$("$GPUCAP" validate "$SRC/scenarios/chat-serving.yaml")"
# validate takes run's --seed: a run's command line validates as it stands; a bad seed or --seed with
# --set seed is refused as run refuses it
check "validate --seed 7 ok" grep -q ": ok" <<<"$("$GPUCAP" validate "$SRC/scenarios/chat-serving.yaml" --seed 7)"
"$GPUCAP" validate "$SRC/scenarios/chat-serving.yaml" --seed x 2>err.txt; rc=$?
check "validate --seed x: exit 2 ($rc)" test $rc -eq 2
check "validate --seed x: says what it expected" grep -q "gpucap validate: --seed 'x': expected an integer" err.txt
"$GPUCAP" validate "$SRC/scenarios/chat-serving.yaml" --seed 7 --set seed=8 2>err.txt; rc=$?
check "validate --seed with --set seed: exit 2 ($rc)" test $rc -eq 2
check "validate --seed with --set seed: names both" grep -q -- "--set seed=" err.txt
check "catalog lists p5" grep -q "p5.48xlarge" <<<"$("$GPUCAP" catalog)"

# a jobs summary where no job completed says so: no "nan" anywhere in it
out=$("$GPUCAP" run "$SRC/scenarios/jobs-finetune.yaml" --set horizon=1h --db jobs.sqlite 2>/dev/null)
check "jobs: none completed is said" grep -q "completion none (no job completed)" <<<"$out"
check "jobs: no nan in the summary" test "$(grep -ci nan <<<"$out")" = 0
finish
