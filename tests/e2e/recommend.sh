#!/usr/bin/env bash
# End-to-end: `gpucap recommend`. On the deterministic step load of check_recommend.c (demand 1, 2, 3, 3, 5
# instances on 5 days; reserved $5.50/h, on-demand $10/h) it recommends 3 reserved instances (the largest n
# with demand >= n in at least 5.5 / 10 of the hours), as text and as JSON ({"best", "candidates", "runs"});
# --db stores every run labelled recommend=...; --set applies before the search; bad usage and bad --vary exit 2
# with a message.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

cat > steps.yaml <<'YAML'
name: steps
start: 2026-01-01T00:00:00Z
horizon: 5d
slo: {latency_s: 60, max_violation_rate: 0.01}
workload:
  arrivals: {kind: uniform, rate_per_s: 0.02, steps: [{at: 1d, rate_per_s: 0.04}, {at: 2d, rate_per_s: 0.06}, {at: 4d, rate_per_s: 0.10}]}
  service: {kind: constant, mean_s: 45}
serving: {instance_type: g6.xlarge, slots_per_instance: 1, startup_s: 1, queue: central, routing: first_free}
fleet:
  - {option: reserved, count: 0, usd_per_h: 5.5, scope: zonal}
  - {option: on_demand, count: 1, max: 10, usd_per_h: 10}
autoscaling:
  schedule:
    - {at: 2026-01-01T00:00:00Z, min: 1, max: 1}
    - {at: 2026-01-02T00:00:00Z, min: 2, max: 2}
    - {at: 2026-01-03T00:00:00Z, min: 3, max: 3}
    - {at: 2026-01-05T00:00:00Z, min: 5, max: 5}
YAML

out=$("$GPUCAP" recommend steps.yaml --vary fleet.0.count=0..6 --replications 2); rc=$?
check "recommend exits 0 (got $rc)" test $rc -eq 0
check "text names the choice ($out)" grep -q "choice       fleet.0.count=3$" <<<"$out"
# window 2460 / 120 h x 8760 h = 179580; on-demand only 3360 / 120 x 8760 = 245280; 7.50/h x 720 = 5400
check "term cost" grep -q 'cost         \$179580.00 over the term (\$20.50/h' <<<"$out"
check "savings per month" grep -q 'savings      \$5400.00 per month' <<<"$out"
check "runs counted: 5 candidates x 2 + 2 on-demand only" grep -q "runs         12 simulation runs (5 candidates, 2 pruned)" <<<"$out"

"$GPUCAP" recommend steps.yaml --vary fleet.0.count=0..6 --replications 1 --json --db r.sqlite >r.json; rc=$?
check "--json exits 0 (got $rc)" test $rc -eq 0
check "json best, candidates, runs" python3 -c '
import json, sys
d = json.load(open("r.json"))
assert d["best"]["counts"]["fleet.0.count"] == 3, d["best"]
assert abs(d["best"]["cost_window_usd"] - 2460) < 0.005
assert [c["counts"]["fleet.0.count"] for c in d["candidates"]] == [0, 1, 2, 3, 4]
assert d["runs"] == 6 and d["term_h"] == 8760
assert abs(d["on_demand_only"]["cost_window_usd"] - 3360) < 0.005
assert abs(d["break_even"]["fleet.0.count"] - 0.55) < 1e-12
'
check "every run stored with its label" test "$(sqlite3 r.sqlite "select count(*) from labels where key = 'recommend'")" = 6
check "label names the candidate" test "$(sqlite3 r.sqlite "select count(*) from labels where key = 'recommend' and value like 'fleet.0.count=3 seed=1 %'")" = 1

"$GPUCAP" recommend steps.yaml --vary fleet.0.count=3..1 2>err.txt; rc=$?
check "bad --vary exits 2 (got $rc)" test $rc -eq 2
check "bad --vary message ($(cat err.txt))" grep -q "expected fleet.I.count=LO..HI\[:STEP\]" err.txt
"$GPUCAP" recommend steps.yaml --vary fleet.1.count=0..2 2>err.txt; rc=$?
check "on-demand --vary exits 2 (got $rc)" test $rc -eq 2
check "names the entry ($(cat err.txt))" grep -q "fleet.1 is on_demand" err.txt
"$GPUCAP" recommend steps.yaml --slo-met --max-violation-rate 0.1 2>/dev/null; rc=$?
check "--slo-met with --max-violation-rate exits 2 (got $rc)" test $rc -eq 2
"$GPUCAP" recommend 2>/dev/null; rc=$?
check "no scenario exits 2 (got $rc)" test $rc -eq 2
"$GPUCAP" recommend missing.yaml 2>/dev/null; rc=$?
check "missing scenario exits 2 (got $rc)" test $rc -eq 2
"$GPUCAP" recommend steps.yaml --growth 2,1,3 2>/dev/null; rc=$?
check "unordered --growth exits 2 (got $rc)" test $rc -eq 2
# --set applies to the scenario before the search and to every run (a dearer reservation: 2 instead of 3, as
# check_recommend's dearer_reservation_buys_fewer), and is in the runs' recommend= labels; a bad one is the
# loader's refusal, exit 2
out=$("$GPUCAP" recommend steps.yaml --vary fleet.0.count=0..6 --replications 1 --set sample_period=1h \
	--set fleet.0.usd_per_h=7.5 --db set.sqlite); rc=$?
check "--set: exit 0 (got $rc)" test $rc -eq 0
check "--set fleet.0.usd_per_h=7.5: 2 reserved ($out)" grep -q "choice       fleet.0.count=2$" <<<"$out"
check "--set in the labels" test "$(sqlite3 set.sqlite "select count(*) from labels where key = 'recommend' and value like '% fleet.0.usd_per_h=7.5'")" -gt 0
"$GPUCAP" recommend steps.yaml --vary fleet.0.count=0..6 --set fleet.0.usd_per_hour=7.5 2>err.txt; rc=$?
check "bad --set exits 2 (got $rc)" test $rc -eq 2
check "names the key ($(cat err.txt))" grep -q "usd_per_hour" err.txt
# --vary fleet.I.max on the on_demand entry: its levels are run (a max buys nothing ahead: no break-even)
"$GPUCAP" recommend steps.yaml --vary fleet.0.count=2..3 --vary fleet.1.max=5..6 --replications 1 --json >max.json; rc=$?
check "--vary fleet.1.max: exit 0 (got $rc)" test $rc -eq 0
check "max levels in the candidates, no break-even" python3 -c '
import json
d = json.load(open("max.json"))
assert [c["counts"] for c in d["candidates"]][:2] == [{"fleet.0.count": 2, "fleet.1.max": 5}, {"fleet.0.count": 2, "fleet.1.max": 6}], d["candidates"]
assert d["best"]["counts"] == {"fleet.0.count": 3, "fleet.1.max": 5}, d["best"]
assert list(d["break_even"]) == ["fleet.0.count"], d["break_even"]
assert d["on_demand_only"]["counts"] == {"fleet.0.count": 0, "fleet.1.max": 6}
'
# No candidate keeps the SLO: it says why, in the text, the JSON and the exit code. A steady load that needs 3
# instances under target tracking (check_recommend's on_demand_max_is_searched): with max 1 or 2 every run sits
# at the maximum (fleet_at_max, exit 4); with slo.latency_s 40 under 45 s of service no capacity can keep it
# (slo_unreachable, exit 3); reserved instances alone, 1 to 3 of the 5 needed, have no maximum to hit
# (none_in_range, exit 1).
cat > tt.yaml <<'YAML'
name: tt
start: 2026-01-01T00:00:00Z
horizon: 1d
warmup: 2h
slo: {latency_s: 60, max_violation_rate: 0.01}
workload:
  arrivals: {kind: uniform, rate_per_s: 0.06}
  service: {kind: constant, mean_s: 45}
serving: {instance_type: g6.xlarge, slots_per_instance: 1, startup_s: 1}
fleet:
  - {option: on_demand, count: 1, max: 6, usd_per_h: 10}
autoscaling: {policy: target_tracking, target: 0.7, min: 1, max: 6}
YAML
"$GPUCAP" recommend tt.yaml --vary fleet.0.max=1..2 --replications 1 --json >atmax.json 2>err.txt; rc=$?
check "fleet_at_max: exit 4 (got $rc)" test $rc -eq 4
check "stderr says fleet_at_max ($(cat err.txt))" grep -q "sat at the fleet's maximum (fleet_at_max): raise autoscaling.max" err.txt
check "json no_choice fleet_at_max" python3 -c '
import json
d = json.load(open("atmax.json"))
assert d["best"] is None and d["no_choice"]["reason"] == "fleet_at_max", d["no_choice"]
assert "sat at its maximum" in d["no_choice"]["message"]
assert [c["fleet_at_max_replications"] for c in d["candidates"]] == [1, 1]
'
out=$("$GPUCAP" recommend tt.yaml --vary fleet.0.max=3..3 --replications 1 --set slo.latency_s=40 2>err.txt); rc=$?
check "slo_unreachable: exit 3 (got $rc)" test $rc -eq 3
check "text says slo_unreachable ($out)" grep -q "choice       none: no candidate keeps the SLO (slo_unreachable)" <<<"$out"
check "and why" grep -q "why          .*on service time alone" <<<"$out"
check "stderr too ($(cat err.txt))" grep -q "and no capacity can (slo_unreachable)" err.txt
sed '/^fleet:/,$d' steps.yaml >r.yaml
printf 'fleet:\n  - {option: reserved, count: 1, usd_per_h: 5.5, scope: zonal}\n' >>r.yaml
"$GPUCAP" recommend r.yaml --vary fleet.0.count=1..3 --replications 1 >out.txt 2>err.txt; rc=$?
check "none_in_range: exit 1 (got $rc)" test $rc -eq 1
check "says none_in_range ($(cat err.txt))" grep -q "(none_in_range); widen --vary" err.txt
# --jobs N: the runs in N worker processes; the output and what --db stores do not depend on N. On the step
# load with an ODCR entry and a Savings Plan: two lines of reserved counts (pruned: an idle worker runs a
# candidate ahead of the pruning, thrown away), the check and both growth searches give the same JSON byte for
# byte with --jobs 1 and 3; with --db (hourly samples, to keep it quick) the same runs with the same ids,
# overrides and keys, and the same labels. The --jobs 1 references come from the plain binary (GPUCAP_PLAIN:
# under valgrind only the workers' side is checked by memcheck).
sed 's/  - {option: on_demand, count: 1, max: 10, usd_per_h: 10}/&\n  - {option: odcr, count: 0, usd_per_h: 9}/' steps.yaml >jobs.yaml
printf 'commitments:\n  - {option: savings_plan, commit_usd_per_h: 5, discount: 0.85}\n' >>jobs.yaml
for j in 1 3; do
	bin=$GPUCAP
	[ $j = 1 ] && bin=$GPUCAP_PLAIN
	"$bin" recommend jobs.yaml --vary fleet.2.count=0..1 --vary fleet.0.count=0..6 --replications 1 \
		--growth 0.5,1,1.5 --jobs $j --json >jobs$j.json; rc=$?
	check "--jobs $j: exit 0 (got $rc)" test $rc -eq 0
	"$bin" recommend jobs.yaml --vary fleet.0.count=0..6 --replications 1 --set sample_period=1h --jobs $j \
		--json --db jobs$j.sqlite >db$j.json; rc=$?
	check "--jobs $j --db: exit 0 (got $rc)" test $rc -eq 0
done
check "--jobs 1 and 3: the same JSON" cmp jobs1.json jobs3.json
check "--jobs 1 and 3 with --db: the same JSON" cmp db1.json db3.json
# (with --growth nothing is pruned: every candidate is priced in every case, for the regret)
check "runs were pruned, the plan checked" python3 -c '
import json
for f in "jobs1.json", "db1.json":
    d = json.load(open(f))
    assert (d["pruned"] > 0) == (f == "db1.json") and d["checked"], (f, d["pruned"], d["checked"])
'
check "--growth: every candidate priced in every case, the regret in the JSON" python3 -c '
import json, math
d = json.load(open("jobs1.json"))
assert d["term"]["method"] == "window" and d["term"]["default"] and d["choose"] == "base", d["term"]
assert len(d["regret"]) == len(d["candidates"]) and len(d["case_best"]) == 3
b = d["case_best"][1]
assert d["candidates"][b]["cost_term_usd"] == min(c["cost_term_usd"] for c in d["candidates"] if c["feasible"])
for r, c in zip(d["regret"], d["candidates"]):
    assert math.isclose(r["cost_base_usd"], c["cost_term_usd"], rel_tol=1e-12), (r, c)
    assert r["breaks_slo"][1] == (not c["feasible"])
'
for q in "select run_id, run_key, overrides, seed from runs order by run_id" \
	 "select run_id, key, value from labels order by run_id, key" \
	 "select run_id, count(*), total(instances_total) from samples group by run_id order by run_id"; do
	check "--jobs 1 and 3 store the same: $q" test "$(sqlite3 jobs1.sqlite "$q" | md5sum)" = "$(sqlite3 jobs3.sqlite "$q" | md5sum)"
done
check "as many runs stored as counted" test "$(sqlite3 jobs3.sqlite "select count(*) from runs")" = \
	"$(python3 -c 'import json; print(json.load(open("db3.json"))["runs"])')"
"$GPUCAP" recommend steps.yaml --jobs 0 2>err.txt; rc=$?
check "--jobs 0: exit 2 (got $rc)" test $rc -eq 2
check "says so ($(cat err.txt))" grep -q "jobs '0': expected an integer from 1 to 1024" err.txt
# A level that makes the scenario invalid does not stop the search: a fixed fleet (no policy, no schedule)
# of one reserved instance and no on-demand count under a steady 0.06/s of 45 s (2.7 busy: 3 instances
# serve it), so fleet.0.count=0 leaves no instance (the loader refuses that), and levels 1.. are still
# searched and the cheapest kept (3). The invalid one is listed with its level and the loader's message,
# counted in the JSON, and named on stderr; exit 0 since a choice was found. (steps.yaml itself would not
# do: its schedule brings instances at t = 0, which makes an empty fleet a valid plan.)
cat >one.yaml <<'YAML'
name: steps
start: 2026-01-01T00:00:00Z
horizon: 5d
slo: {latency_s: 60, max_violation_rate: 0.01}
workload:
  arrivals: {kind: uniform, rate_per_s: 0.06}
  service: {kind: constant, mean_s: 45}
serving: {instance_type: g6.xlarge, slots_per_instance: 1, startup_s: 1, queue: central, routing: first_free}
fleet:
  - {option: reserved, count: 1, usd_per_h: 5.5, scope: zonal}
  - {option: on_demand, count: 0, max: 10, usd_per_h: 10}
YAML
out=$("$GPUCAP" recommend one.yaml --vary fleet.0.count=0..6 --replications 1 2>err.txt); rc=$?
check "one invalid level: exit 0 (got $rc: $(cat err.txt))" test $rc -eq 0
check "the others searched, the best chosen ($out)" grep -q "choice       fleet.0.count=3$" <<<"$out"
check "the invalid level listed with its reason" grep -q "^               fleet.0.count=0: one.yaml:9:1: fleet: the fleet has no instances" <<<"$out"
check "its curve row says invalid" grep -q "^   fleet.0.count=0  *invalid: one.yaml:9:1: fleet: the fleet has no instances" <<<"$out"
check "counted ($out)" grep -q "invalid      1 of 5 candidates are not valid scenarios" <<<"$out"
check "stderr names it ($(cat err.txt))" grep -q "^gpucap: 1 of 5 candidates are not valid scenarios of one.yaml (the first: one.yaml:9:1: fleet:" err.txt
"$GPUCAP" recommend one.yaml --vary fleet.0.count=0..6 --replications 1 --json >one.json 2>/dev/null
check "json: invalid count and reason" python3 -c '
import json
d = json.load(open("one.json"))
assert d["invalid"] == 1, d["invalid"]
c = d["candidates"]
assert c[0]["counts"]["fleet.0.count"] == 0 and not c[0]["feasible"] and c[0]["cost_term_usd"] is None
assert c[0]["invalid"].startswith("one.yaml:9:1: fleet: the fleet has no instances"), c[0]["invalid"]
assert all(x["invalid"] is None for x in c[1:]) and d["best"]["counts"]["fleet.0.count"] == 3
'
# every level invalid: nothing was searched, which is bad input (exit 2), each named
"$GPUCAP" recommend steps.yaml --vary fleet.0.count=100001..100002 --replications 1 >out.txt 2>err.txt; rc=$?
check "every level invalid: exit 2 (got $rc)" test $rc -eq 2
check "says so ($(cat err.txt))" grep -q "no --vary level makes a valid scenario" err.txt
check "names each level's reason" grep -q "fleet.0.count=100002: --set fleet.0.count=100002: fleet.0.count: expected an integer from 0 to 100000" out.txt

# one entry varied twice, however its index is written, is refused with both options
"$GPUCAP" recommend steps.yaml --vary fleet.0.count=0..2 --vary fleet.00.count=1..3 2>err.txt; rc=$?
check "--vary of one entry twice: exit 2 (got $rc)" test $rc -eq 2
check "names both ($(cat err.txt))" grep -q "^gpucap: --vary fleet.00.count=1..3: fleet.0.count is already varied by --vary fleet.0.count=0..2; expected each entry once" err.txt
"$GPUCAP" recommend steps.yaml --vary fleet.+0.count=0..2 2>err.txt; rc=$?
check "--vary fleet.+0.count (no index for --set): exit 2 (got $rc)" test $rc -eq 2
# A session is stored as its candidates end, so a killed search leaves part of one: it says
# recommend_session_state=incomplete from its first candidate on, and complete only once the search ended.
check "a finished session is complete" test "$(sqlite3 r.sqlite "select group_concat(value) from labels where key = 'recommend_session_state'")" = complete
"$GPUCAP" report --db r.sqlite -o done.html 2>err.txt
check "report of a finished session: no 'incomplete' ($(cat err.txt))" bash -c '! grep -q incomplete done.html'
# the state a search killed after its third candidate leaves: three candidates, no choice, still incomplete
cp r.sqlite killed.sqlite
sqlite3 killed.sqlite "update labels set value = 'incomplete' where key = 'recommend_session_state';
delete from labels where key in ('recommend_choice', 'recommend_result');
delete from labels where key like 'recommend_%' and run_id in (select run_id from labels where key = 'recommend_candidate' and value in ('fleet.0.count=3', 'fleet.0.count=4'))"
"$GPUCAP" report --db killed.sqlite -o killed.html 2>err.txt; rc=$?
check "report of a killed session: exit 0 (got $rc: $(cat err.txt))" test $rc -eq 0
check "its heading says incomplete" grep -q "(session steps#[0-9]*)</span> (incomplete)</h2>" killed.html
check "and why, with the candidates it had" grep -q "Incomplete: this search was stopped before it ended .* only the 3 candidates it had finished" killed.html
check "recommend --help" "$GPUCAP" recommend --help
finish
