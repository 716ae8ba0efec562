#!/usr/bin/env bash
# End-to-end: what `gpucap run` hands a person and a script besides the metrics: warnings after the summary
# and in --json, run metadata in --json, --label (validated, stored, shown), the progress line (a terminal
# only), and the same warnings and labels in the results database.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
SC="$SRC/scenarios/chat-serving.yaml"

# A 10-minute run: shorter than the 900 s target tracking's scale-in alarm needs, so horizon_too_short.
out=$("$GPUCAP" run "$SC" --db r.sqlite --set horizon=10m --label team=search --label 'note=a "b"=c' 2>err.txt)
check "labelled run exits 0" test $? -eq 0
check "warning printed after the summary" test "$(grep -n '' <<<"$out" | grep 'warning: horizon_too_short: the horizon (600 s)' | cut -d: -f1)" -gt \
	"$(grep -n '  engine' <<<"$out" | cut -d: -f1)"
check "labels stored" test "$(sqlite3 r.sqlite "select group_concat(key || '=' || value, ';') from (select * from labels where run_id = 1 order by key)")" = 'note=a "b"=c;team=search'
check "warning stored" test "$(sqlite3 r.sqlite "select count(*) from warnings where run_id = 1 and code = 'horizon_too_short'")" = 1
check "run_summary counts warnings" test "$(sqlite3 r.sqlite "select warnings >= 1 from run_summary where run_id = 1")" = 1
check "run_summary has horizon_s, scenario_path, overrides" test "$(sqlite3 r.sqlite "select horizon_s || '|' || (scenario_path = '$SC') || '|' || overrides from run_summary where run_id = 1")" = "600.0|1|horizon=10m"
check "no progress line when stderr is a file" test ! -s err.txt

# --json: the metadata, labels and warnings beside the metrics.
"$GPUCAP" run "$SC" --db r.sqlite --set horizon=10m --seed 9 --label k=v --json >run.json
check "--json exits 0" test $? -eq 0
j() { sqlite3 :memory: "select $1 from (select readfile('run.json') as d)"; }
check "--json is valid" test "$(j "json_valid(d)")" = 1
check "--json run_id 2" test "$(j "json_extract(d, '\$.run_id')")" = 2
check "--json name, seed" test "$(j "json_extract(d, '\$.name') || ' ' || json_extract(d, '\$.seed')")" = "chat-serving 9"
check "--json overrides" test "$(j "json_extract(d, '\$.overrides')")" = "$(printf 'horizon=10m\nseed=9')"
check "--json horizon_s" test "$(j "json_extract(d, '\$.horizon_s')")" = 600
check "--json scenario_path" test "$(j "json_extract(d, '\$.scenario_path')")" = "$SC"
check "--json timezone (default UTC)" test "$(j "json_extract(d, '\$.timezone')")" = "UTC"
check "--json version" test "$(j "json_extract(d, '\$.version')")" = "$("$GPUCAP" --version | cut -d' ' -f2)"
check "--json labels" test "$(j "json_extract(d, '\$.labels.k')")" = v
check "--json warnings" test "$(j "(select count(*) from json_each(d, '\$.warnings') where json_extract(value, '\$.code') = 'horizon_too_short')")" = 1
check "--json metrics still there" test "$(j "json_type(d, '\$.latency_p99_s')")" = real
check "--json: warnings match the database" test "$(j "json_array_length(d, '\$.warnings')")" = "$(sqlite3 r.sqlite "select count(*) from warnings where run_id = 2")"

# A long enough run has no warning of that kind.
out=$("$GPUCAP" run "$SC" --db r.sqlite --set horizon=2h)
check "2 h run: no horizon_too_short" test "$(grep -c horizon_too_short <<<"$out")" = 0

# Bad labels: exit 2, nothing stored.
for bad in "nokey" "=v" "1abc=v" "a-b=v" "a b=v"; do
	"$GPUCAP" run "$SC" --db r.sqlite --set horizon=10m --label "$bad" >/dev/null 2>err.txt
	check "--label '$bad' exits 2" test $? -eq 2
	check "--label '$bad' says what is expected" grep -q "expected KEY=VALUE" err.txt
done
"$GPUCAP" run "$SC" --db r.sqlite --set horizon=10m --label a=1 --label a=2 >/dev/null 2>err.txt
check "a key twice exits 2" test $? -eq 2
check "a key twice is named" grep -q "key 'a' given twice" err.txt
check "bad labels store no run" test "$(sqlite3 r.sqlite "select count(*) from runs")" = 3

# The progress line: on a terminal (script(1) gives the run a pty) once the run has taken longer than the
# threshold (lowered to 0 s here so that a short run shows it), never with --json or --quiet.
if command -v script >/dev/null 2>&1; then
	GPUCAP_PROGRESS_AFTER_S=0 script -qec "'$GPUCAP' run '$SC' --db r.sqlite --set horizon=6h" typescript >/dev/null 2>&1
	check "progress on a terminal" grep -q "gpucap: simulated .* h of 6 h (.*%), about .* s to go" typescript
	check "the summary follows it" grep -q "  engine" typescript
	GPUCAP_PROGRESS_AFTER_S=0 script -qec "'$GPUCAP' run '$SC' --db r.sqlite --set horizon=6h --quiet" typescript >/dev/null 2>&1
	check "no progress with --quiet" test "$(grep -c 'gpucap: simulated' typescript)" = 0
	GPUCAP_PROGRESS_AFTER_S=0 script -qec "'$GPUCAP' run '$SC' --db r.sqlite --set horizon=6h --json" typescript >/dev/null 2>&1
	check "no progress with --json" test "$(grep -c 'gpucap: simulated' typescript)" = 0
	# the default threshold (2 s): a run of a fraction of a second shows none
	script -qec "'$GPUCAP' run '$SC' --db r.sqlite --set horizon=1h" typescript >/dev/null 2>&1
	check "no progress for a short run" test "$(grep -c 'gpucap: simulated' typescript)" = 0
else
	echo "script(1) not found: progress on a terminal not checked"
fi
GPUCAP_PROGRESS_AFTER_S=0 "$GPUCAP" run "$SC" --db r.sqlite --set horizon=6h >/dev/null 2>err.txt
check "no progress when stderr is not a terminal" test ! -s err.txt

# merge carries warnings and labels.
"$GPUCAP" merge m.sqlite r.sqlite --quiet
check "merge copies labels" test "$(sqlite3 m.sqlite "select count(*) from labels")" = "$(sqlite3 r.sqlite "select count(*) from labels")"
check "merge copies warnings" test "$(sqlite3 m.sqlite "select count(*) from warnings")" = "$(sqlite3 r.sqlite "select count(*) from warnings")"
# The summary's lines per model (several models), per team (jobs.teams) and for a multi-model endpoint say
# what the results database holds for the same run.
db_metric() { sqlite3 s.sqlite "select printf('%.0f', value) from metrics where run_id = $1 and name = '$2'"; }
out=$("$GPUCAP" run "$SRC/scenarios/mig-two-models.yaml" --db s.sqlite --set horizon=1h)
for m in chat embed; do
	line=$(grep "^  model $m " <<<"$out")
	check "summary: a line for model $m" test -n "$line"
	check "summary: model $m's requests are the database's" \
		test "$(sed -E 's/.*: ([0-9]+) requests, ([0-9]+) served.*/\1 \2/' <<<"$line")" = \
		"$(db_metric 1 model.$m.requests) $(db_metric 1 model.$m.served)"
	check "summary: model $m's violations are the database's" \
		test "$(sed -E 's/.*dropped; ([0-9]+) over.*/\1/' <<<"$line")" = "$(db_metric 1 model.$m.slo_violations)"
done
out=$("$GPUCAP" run "$SRC/scenarios/mme-many-models.yaml" --db s.sqlite --set horizon=1h)
line=$(grep "^  models " <<<"$out")
check "summary: the multi-model line" test -n "$line"
check "summary: loads and evictions are the database's" \
	test "$(sed -E 's/.*; ([0-9]+) loads, ([0-9]+) evictions.*/\1 \2/' <<<"$line")" = \
	"$(db_metric 2 model_loads) $(db_metric 2 model_evictions)"
out=$("$GPUCAP" run "$SRC/scenarios/jobs-teams.yaml" --db s.sqlite)
for t in research product eval; do
	line=$(grep "^  team $t " <<<"$out")
	check "summary: a line for team $t" test -n "$line"
	check "summary: team $t's completed jobs and cost are the database's" \
		test "$(sed -E 's/^  team [a-z]+ +([0-9]+) completed.*\$([0-9.]+)$/\1 \2/' <<<"$line")" = \
		"$(db_metric 3 team_${t}_jobs_completed) $(sqlite3 s.sqlite "select printf('%.2f', value) from metrics where run_id = 3 and name = 'team_${t}_cost_usd'")"
done
finish
