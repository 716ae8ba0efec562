#!/usr/bin/env bash
# spot_policies: gpucap's deadline jobs policies against an independent reference of the "Can't Be Late"
# tick model (tests/validation/cant_be_late_ref.py; Wu et al., NSDI 2024, models/SOURCES.md [cant-be-late])
# on SkyPilot Spot availability traces.
#
#   spot_policies.sh GPUCAP_BINARY SRC_DIR     with GPUCAP_SPOT_TRACES=DIR (searched recursively for *.json)
#   GPUCAP_SPOT_STARTS=K   start ticks per trace (default 30), evenly spaced over [0, ticks - window),
#                          window = the deadline in ticks (cant_be_late_ref.py --num-starts)
# Without GPUCAP_SPOT_TRACES it is skipped (exit 77): the traces are not part of the repository.
#
# The job (the paper's Table 3 setting): compute C = 48 h on 1 instance, deadline R0 = 60 h after submit,
# changeover delay d = 0.2 h; Spot $0.918/h and On-Demand $3.06/h (p3.2xlarge). For each trace and start
# tick s, gpucap runs one scenario (written below) with the job submitted at s x gap:
#  - provider gcp: an interrupted Spot VM pays its seconds (aws's free first hour would make preempted Spot
#    free; gcp's free first minute rarely matters), per second with a 60 s minimum, as the reference's pro
#    rata billing (it stops paying when the job ends);
#  - a Spot jobs entry replaying the trace (it starts at t = 0, so the job sees it from tick s), notice_s 1s,
#    instant startup; an On-Demand jobs entry, instant;
#  - the job: restart_overhead d (paid, no progress, at every start), a checkpoint every minute costing
#    nothing, no node failures. A preemption keeps the progress: at the notice the job checkpoints (cost 0,
#    done at once) and leaves at the tick. The notice is 1 s, not 0: with notice_s 0 the instance is taken
#    at the very instant of the checkpoint's end, that event comes first, and the checkpoint is lost (the
#    job rolls back to its last periodic checkpoint, up to a minute per preemption);
#  - launch_retry every gap seconds (backoff = max = gap, multiplier 1): a Spot launch refused at a tick is
#    tried again at the next tick, as the model decides at ticks;
#  - jobs.switch_margin = d: deadline_spot switches when its slack is below d (the restart) + margin = 2d,
#    the greedy policy's safety net R < C + 2d.
# The reference runs greedy, uniform_progress and on_demand on the same start ticks. Compared: gpucap
# deadline_spot with the reference's greedy, gpucap uniform_progress (when gpucap has it: a scenario that
# is rejected is reported and that policy skipped) and on_demand with the reference's. Differences to expect
# for deadline_spot: gpucap decides in continuous time (the switch at the moment the slack reaches 2d, not
# at the first tick after: up to a gap more On-Demand) and switches away from a running Spot instance when
# the restart has taken its slack below 2d, where greedy stays on Spot (slack >= d is still safe there).
# Exit 1 if gpucap misses a deadline (or fails to finish the job) in any run, or if gpucap
# uniform_progress's mean cost over all runs differs from the reference's by more than 3%.
set -u
GPUCAP=$1
SRC=$2
REF="$SRC/tests/validation/cant_be_late_ref.py"
if [ -z "${GPUCAP_SPOT_TRACES:-}" ]; then
	echo "SKIP: set GPUCAP_SPOT_TRACES to a folder of SkyPilot availability traces"
	exit 77
fi
K=${GPUCAP_SPOT_STARTS:-30}
COMPUTE_H=48 DEADLINE_H=60 OVERHEAD_H=0.2 SPOT_PRICE=0.918 OD_PRICE=3.06
TMP=$(mktemp -d /tmp/gpucap-spot-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

mapfile -t TRACES < <(find "$GPUCAP_SPOT_TRACES" -type f -name '*.json' | LC_ALL=C sort)
if [ "${#TRACES[@]}" -eq 0 ]; then
	echo "FAIL: no *.json trace under $GPUCAP_SPOT_TRACES" >&2
	exit 1
fi

# scenario TRACE GAP_S: the scenario file for one trace (the submit time and horizon are set per run)
scenario() {
	cat <<EOF
name: spot-policies
seed: 1
horizon: 61h
provider: gcp
serving: {instance_type: ref-gpu, startup_s: 0}
catalog: {ref-gpu: {gpus: 1, usd_per_h: $OD_PRICE, provider: gcp}}
launch_retry: {backoff_s: ${2}s, max_backoff_s: ${2}s, multiplier: 1}
fleet:
  - {option: spot, use: jobs, max: 1, usd_per_h: $SPOT_PRICE, notice_s: 1s, availability_trace: "$1",
     startup: {kind: constant, mean_s: 0}}
  - {option: on_demand, use: jobs, max: 1, usd_per_h: $OD_PRICE, startup: {kind: constant, mean_s: 0}}
jobs:
  policy: deadline_spot
  switch_margin: ${OVERHEAD_H}h
  failures: {per_instance_hour: 0}
  list:
    - {name: job, instances: 1, work_instance_hours: $COMPUTE_H, submit: 0, deadline: ${DEADLINE_H}h,
       checkpoint_interval: 1m, checkpoint_cost: 0, restart_overhead: ${OVERHEAD_H}h}
EOF
}

# run_gpucap OUT SCENARIO POLICY SUBMIT_S: one run, its JSON in OUT; returns gpucap's exit code
run_gpucap() {
	local horizon=$(($4 + (DEADLINE_H + 1) * 3600))
	"$GPUCAP" run "$2" --db "$TMP/runs.sqlite" --json --set "jobs.policy=$3" --set "jobs.list.0.submit=${4}s" \
		--set "horizon=${horizon}s" >"$1" 2>"$1.err"
}

POLICIES=(deadline_spot on_demand uniform_progress)
declare -A SKIPPED=()
n=0
for trace in "${TRACES[@]}"; do
	n=$((n + 1))
	dir="$TMP/t$n"
	mkdir -p "$dir"
	gap=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["metadata"]["gap_seconds"])' "$trace") ||
		{ echo "FAIL: $trace: no metadata.gap_seconds" >&2; exit 1; }
	case $gap in *[!0-9]* | '') echo "FAIL: $trace: gap_seconds $gap is not a whole number of seconds" >&2; exit 1 ;; esac
	starts=$(python3 "$REF" --trace "$trace" --num-starts "$K" --print-starts --compute-h $COMPUTE_H \
		--deadline-h $DEADLINE_H --overhead-h $OVERHEAD_H) || { echo "FAIL: $trace: no start ticks" >&2; exit 1; }
	echo "$trace" >"$dir/trace"
	scenario "$trace" "$gap" >"$dir/scenario.yaml"
	for pol in greedy uniform_progress on_demand; do
		python3 "$REF" --trace "$trace" --start-ticks "$starts" --compute-h $COMPUTE_H --deadline-h $DEADLINE_H \
			--overhead-h $OVERHEAD_H --spot-price $SPOT_PRICE --od-price $OD_PRICE --policy $pol --json \
			>"$dir/ref-$pol.json" || { echo "FAIL: the reference failed on $trace ($pol)" >&2; exit 1; }
	done
	for pol in "${POLICIES[@]}"; do
		[ -n "${SKIPPED[$pol]:-}" ] && continue
		mkdir -p "$dir/gpucap-$pol"
		for s in ${starts//,/ }; do
			out="$dir/gpucap-$pol/$s.json"
			run_gpucap "$out" "$dir/scenario.yaml" "$pol" $((s * gap))
			rc=$?
			if [ $rc -eq 2 ] && [ "$pol" = uniform_progress ]; then
				SKIPPED[$pol]=$(head -n 1 "$out.err")
				rm -rf "$dir/gpucap-$pol"
				break
			elif [ $rc -ne 0 ]; then
				echo "FAIL: gpucap exited $rc on $trace, policy $pol, start tick $s:" >&2
				cat "$out.err" >&2
				exit 1
			fi
		done
	done
done
for pol in "${!SKIPPED[@]}"; do
	echo "note: gpucap $pol skipped: the scenario is rejected (${SKIPPED[$pol]})"
done

# The tables, from the runs' JSON: per trace, then over all (trace, start) runs.
python3 - "$TMP" "$n" "$SPOT_PRICE" "$OD_PRICE" <<'EOF'
import glob, json, os, sys

tmp, ntraces = sys.argv[1], int(sys.argv[2])
PAIRS = [("deadline_spot", "greedy"), ("uniform_progress", "uniform_progress"), ("on_demand", "on_demand")]
bad = []

def gpucap_rows(d, pol):
    rows = []
    for f in sorted(glob.glob(os.path.join(d, f"gpucap-{pol}", "*.json"))):
        m = json.load(open(f))
        start = int(os.path.basename(f)[:-5])
        row = {"start_tick": start,
               "cost": m["jobs_cost_spot_usd"] + m["jobs_cost_on_demand_usd"],
               "spot_h": m["gpu_hours_paid_spot"], "od_h": m["gpu_hours_paid_on_demand"],
               "missed": m["jobs_missed_deadline"] > 0 or m["jobs_completed"] != 1}
        rows.append(row)
    return rows

def mean(rows, k):
    return sum(r[k] for r in rows) / len(rows) if rows else float("nan")

def line(name, rows, ref=None):
    s = f"  {name:<26} {mean(rows, 'cost'):9.3f} {mean(rows, 'spot_h'):8.3f} {mean(rows, 'od_h'):8.3f} " \
        f"{sum(1 for r in rows if r['missed']):6d}/{len(rows):<4d}"
    if ref:
        c, rc = mean(rows, "cost"), mean(ref, "cost")
        s += f" {100 * (c - rc) / rc:+7.2f}%"
    print(s)

def table(title, gp, rf):
    print(title)
    print(f"  {'policy':<26} {'cost_usd':>9} {'spot_h':>8} {'od_h':>8} {'missed':>11} vs_ref_cost")
    for g, r in PAIRS:
        if gp.get(g):
            line(f"gpucap {g}", gp[g], rf[r])
        line(f"ref {r}", rf[r])

allg, allr = {}, {}
for i in range(1, ntraces + 1):
    d = os.path.join(tmp, f"t{i}")
    trace = open(os.path.join(d, "trace")).read().strip()
    gp = {g: gpucap_rows(d, g) for g, _ in PAIRS}
    rf = {}
    for _, r in PAIRS:
        rows = json.load(open(os.path.join(d, f"ref-{r}.json")))["runs"]
        for x in rows:
            x["missed"] = not x["met_deadline"]
        rf[r] = rows
    for g, rows in gp.items():
        allg.setdefault(g, []).extend(rows)
        bad += [f"{os.path.basename(trace)} start tick {x['start_tick']}: gpucap {g} missed its deadline"
                for x in rows if x["missed"]]
    for r, rows in rf.items():
        allr.setdefault(r, []).extend(rows)
    table(f"{os.path.basename(trace)}: {len(rf['greedy'])} start ticks", gp, rf)
table(f"all {ntraces} traces: {len(allr['greedy'])} runs per policy "
      "(hours: running hours incl. the changeover delays)", allg, allr)
if allg.get("uniform_progress"):
    c, rc = mean(allg["uniform_progress"], "cost"), mean(allr["uniform_progress"], "cost")
    if abs(c - rc) > 0.03 * rc:
        bad.append(f"gpucap uniform_progress's mean cost {c:.3f} differs from the reference's {rc:.3f} by more "
                   f"than 3%")
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
print("FAIL" if bad else "PASS")
sys.exit(1 if bad else 0)
EOF
