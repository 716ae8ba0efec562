#!/usr/bin/env bash
# End-to-end: README.md's table "Jobs with deadlines on Spot" is what gpucap gives now. The deadline
# policies run scenarios/jobs-spot-policies.yaml (the Can't Be Late study's setting: 48 h of compute, a 60 h
# deadline, 12 min restarts) on each of the three synthetic traces scenarios/traces/synthetic-spot-*.json,
# submitted at K = 10 start ticks evenly spaced over [0, ticks - 361) (361 = the window of 60 h plus one
# tick), each run to submit + 61 h. Per policy, over the 30 runs: the mean cost, its saving against
# on_demand's, the mean regret (the cost above the job's offline optimum, jobs_regret_usd), the mean regret
# per trace, and the deadlines met. The table is written here from the runs and compared with the README's,
# line for line; `jobs_table.sh GPUCAP SRC --print` prints it (to paste after a change that moves it). The
# traces must be what their generator writes (scenarios/traces/README.md gives the commands).
. "$(dirname "$0")/lib.sh"
# 120 runs, each with the optimum's dynamic programme: too slow under valgrind.
[ -n "$VGDIR" ] && { echo "skipped under valgrind (GPUCAP_VALGRIND=1)"; exit 77; }
PRINT=${3:-}
cd "$TMP"
POLICIES="on_demand deadline_spot uniform_progress adaptive_progress"
TRACES="steady choppy scarce"
for tr in $TRACES; do
	trace=$SRC/scenarios/traces/synthetic-spot-$tr.json
	python3 "$SRC/scenarios/traces/spot_availability_gen.py" "$tr" --seed 1 | cmp -s - "$trace"
	check "spot_availability_gen.py $tr --seed 1 writes $trace as shipped" test $? -eq 0
	ticks=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["data"]))' "$trace")
	for k in 0 1 2 3 4 5 6 7 8 9; do
		s=$(((ticks - 361) * k / 10 * 600))
		for pol in $POLICIES; do
			"$GPUCAP" run "$SRC/scenarios/jobs-spot-policies.yaml" --db runs.sqlite --json \
				--set "fleet.0.availability_trace=$trace" --set "jobs.policy=$pol" \
				--set "jobs.list.0.submit=${s}s" --set "horizon=$((s + 61 * 3600))s" >"$tr-$k-$pol.json" 2>"err"
			check "jobs-spot-policies $pol on $tr from ${s}s runs" test $? -eq 0 || cat err >&2
		done
	done
done
if python3 - "$SRC/README.md" "$PRINT" "$POLICIES" "$TRACES" <<'PY'; then
import glob, json, re, sys
readme, pr, policies, traces = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
runs = {}
for f in glob.glob("*-*-*.json"):
    tr, k, pol = f[:-5].split("-", 2)
    m = json.load(open(f))
    runs.setdefault(pol, []).append(dict(tr=tr, cost=m["cost_total_usd"], regret=m["jobs_regret_usd"],
                                         met=m["jobs_completed"] == 1 and m["jobs_missed_deadline"] == 0))
def mean(xs):
    return sum(xs) / len(xs)
od = mean([r["cost"] for r in runs["on_demand"]])
head = ("| policy | mean cost | saved against on_demand | mean regret | regret " + " / ".join(traces) +
        " | deadlines met |")
lines = [head, "|---|---|---|---|---|---|"]
for pol in policies:
    rs = runs[pol]
    c = mean([r["cost"] for r in rs])
    per = " / ".join("${:.2f}".format(mean([r["regret"] for r in rs if r["tr"] == t])) for t in traces)
    lines.append("| `{}` | ${:.2f} | {:.1f}% | ${:.2f} | {} | {} of {} |".format(
        pol, c, 100 * (od - c) / od, mean([r["regret"] for r in rs]), per, sum(r["met"] for r in rs), len(rs)))
table = "\n".join(lines)
if pr == "--print":
    print(table)
    sys.exit(0)
text = open(readme).read()
m = re.search(r"<!-- jobs-table -->\n(.*?)\n<!-- /jobs-table -->", text, re.S)
if not m:
    print("README.md has no <!-- jobs-table --> ... <!-- /jobs-table --> block", file=sys.stderr)
    sys.exit(1)
if m.group(1).strip() != table:
    print("README.md's table:\n" + m.group(1).strip() + "\nthe runs give:\n" + table, file=sys.stderr)
    sys.exit(1)
PY
	pass
else
	fail "README.md's jobs table (above) is not what the runs give"
fi
finish
