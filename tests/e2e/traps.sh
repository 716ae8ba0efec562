#!/usr/bin/env bash
# End-to-end: the gallery of scaling traps (scenarios/traps/, scenarios/README.md "Scaling traps"). Each trap is a pair of
# scenarios, NAME-wrong.yaml and NAME-right.yaml, that differ only in the trap's keys. For every pair this
# test
#  - fails if a file has no partner or no line in PAIRS below, or a line of PAIRS has no files;
#  - fails if the two files differ in anything but the listed keys (and `name`): as YAML (the leaf values
#    that differ must be exactly the listed keys) and as text (every line that differs must be the `name`
#    line or a line that writes one of those keys);
#  - runs both with the built gpucap on seeds 42, 1, 2 and 3 (common random numbers: the same traffic and
#    service times on both sides of a pair) and asserts the direction of each difference on every seed.
#
# Adding a trap is two files and one line of PAIRS: NAME | trap keys (dotted paths, list items by index) |
# assertions, separated by ';', each `METRIC SIDE OP OTHER [+|-|* NUMBER]` where SIDE and OTHER are `wrong`
# or `right` (OTHER may be a number) and METRIC one of
#   cost (cost_total_usd), violations (slo_violations), violation_rate (slo_violation_rate),
#   scale_outs (scale_out_actions), scale_ins (scale_in_actions), scale_actions (their sum), launches,
#   first_out (time of the first scale_out event, s; +inf when there is none).
# Why each assertion holds, worked out from the scenario (the files' headers say the same):
#  invocation-metric: the one-minute invocations metric at target 38/min sees 30/min before the step at 1 h
#    and 90 after it; 3 datapoints above the target are (3600,3660], (3660,3720], (3720,3780]: a scale-out
#    at exactly 3780 s on any seed. The 10-s concurrency metric passes 0.6 in the second period after the
#    step (in flight 60 + 4/s: averages 80/160 = 0.5, then 120/160 = 0.75), 3 datapoints later: about
#    3640 s, so at least 60 s sooner, and the fleet grows while wrong still waits: fewer violations.
#  cooldown-raise: the first scale-out is the same (3780 s: 0.81 > 0.7 after the first 30% step); after it a
#    1200 s cooldown lets the policy scale out again only on a metric above what triggered the first one
#    (the base is the old capacity), so the ramp's later 30% steps queue: more violations.
#  target-raise: at 0.9 the first step's 0.81 does not breach; the second (1.05) does at 70 min, so the first
#    scale-out is at 4200 + 180 = 4380 s against 3600 + 180 = 3780 s at 0.7 (600 s later), and the fleet
#    trails the ramp with 10% headroom: more violations.
#  scheduled-spike: with the schedule alone there is no policy scale-out at all, and the noon spike (320
#    replies in flight on 256 slots for an hour) queues: more violations than with target tracking beside it.
#  scale-in-cooldown: step scaling removes one instance per scale-in; with a 300 s scale-in cooldown a calm
#    spell sheds one every 5 minutes instead of every 10, so more scale-ins, and the bursts launch more
#    instances again (and wait 7 minutes for them): more launches, more violations. The scale-ins differ on
#    every seed; the launches and violations only over the seeds together ("total"): on one seed the bursts
#    can fall where the extra scale-ins cost nothing (with the seeds 42 1 2 3, seed 1 has 1471 violations
#    wrong against 1490 right, seed 2 36 launches each, while the totals are 12862 against 12335 and 147
#    against 124).
# An assertion is checked on every seed, or with "total" first on the sums over the seeds.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
TRAPS=$SRC/scenarios/traps

PAIRS='
invocation-metric | autoscaling.metric autoscaling.target autoscaling.resolution_s | first_out wrong == 3780; first_out wrong >= right + 60; violations wrong > right
cooldown-raise | autoscaling.scale_out_cooldown_s | first_out wrong == right; violations wrong > right
target-raise | autoscaling.target | first_out wrong == 4380; first_out right == 3780; violations wrong > right
scheduled-spike | autoscaling.policy autoscaling.schedule.1.max | scale_outs wrong == 0; scale_outs right > 0; violations wrong > right * 2
gpu-memory-metric | autoscaling.metric autoscaling.target | late_scale_ins wrong == 0; late_scale_ins right > 0; final_below_peak wrong == 0; final_below_peak right > 0; cost wrong > right
scale-in-cooldown | autoscaling.scale_in_cooldown_s | scale_ins wrong > right; scale_actions wrong > right; launches wrong >= right; total launches wrong > right; total violations wrong > right
'
# The traps are example scenarios too: the editor comment on their first line, valid against the schema.
"$GPUCAP" schema >schema.json
for f in "$TRAPS"/*.yaml; do
	check "$(basename "$f"): first line is the schema comment" \
		test "$(head -n 1 "$f")" = '# yaml-language-server: $schema=../gpucap.schema.json'
done
check "the traps validate against the schema" python3 "$SRC/tests/e2e/schema_check.py" schema.json good "$TRAPS"/*.yaml
check "gpucap validate accepts the traps" "$GPUCAP" validate "$TRAPS"/*.yaml

SEEDS=${GPUCAP_TRAPS_SEEDS:-42 1 2 3}
# Under valgrind each run is 20 to 50 times slower: one seed is enough to check memory.
[ -n "$VGDIR" ] && SEEDS=42

python3 - "$GPUCAP" "$TRAPS" "$SEEDS" "$PAIRS" >verdicts.txt <<'PY'
import difflib, glob, math, os, re, sqlite3, subprocess, sys
import yaml

gpucap, traps, seeds, table = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4]
pairs = {}
for line in table.strip().splitlines():
    name, keys, asserts = [f.strip() for f in line.split("|")]
    pairs[name] = (keys.split(), [a.strip() for a in asserts.split(";") if a.strip()])

def verdict(ok, what):
    print(("ok " if ok else "FAIL ") + what)

# every file has a partner and a line; every line has its files
names = set()
for path in sorted(glob.glob(os.path.join(traps, "*"))):
    m = re.fullmatch(r"(.+)-(wrong|right)\.yaml", os.path.basename(path))
    if not m:
        verdict(False, "%s is not NAME-wrong.yaml or NAME-right.yaml" % os.path.basename(path))
        continue
    other = "right" if m.group(2) == "wrong" else "wrong"
    partner = os.path.exists(os.path.join(traps, "%s-%s.yaml" % (m.group(1), other)))
    verdict(partner, "%s has its partner %s-%s.yaml" % (os.path.basename(path), m.group(1), other))
    if m.group(2) == "wrong":
        verdict(m.group(1) in pairs, "%s has a line in PAIRS" % m.group(1))
    if partner:
        names.add(m.group(1))  # the complete pairs
for name in pairs:
    verdict(name in names, "PAIRS' %s has both its files" % name)

def leaves(node, prefix=""):
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            out.update(leaves(v, prefix + str(k) + "."))
        return out
    if isinstance(node, list):
        out = {}
        for i, v in enumerate(node):
            out.update(leaves(v, prefix + str(i) + "."))
        return out
    return {prefix[:-1]: node}

def differ_only_in(name, keys):
    texts = [open(os.path.join(traps, "%s-%s.yaml" % (name, v))).read() for v in ("wrong", "right")]
    a, b = [leaves(yaml.safe_load(t)) for t in texts]
    differ = {k for k in set(a) | set(b) if a.get(k, None) != b.get(k, None)} - {"name"}
    verdict(differ == set(keys), "%s: the YAML values that differ are %s (expected %s)"
            % (name, " ".join(sorted(differ)) or "none", " ".join(keys)))
    lasts = [k.split(".")[-1] for k in keys if not k.split(".")[-1].isdigit()]
    allowed = re.compile(r"^\s*(name\s*:|.*\b(%s)\s*:)" % "|".join(map(re.escape, lasts)))
    changed = [l for l in difflib.unified_diff(texts[0].splitlines(), texts[1].splitlines(), lineterm="", n=0)
               if l[:1] in "+-" and not l.startswith(("+++", "---"))]
    stray = [l for l in changed if not allowed.match(l[1:])]
    verdict(not stray, "%s: every line that differs writes a trap key or the name%s"
            % (name, "" if not stray else " (not: %s)" % "; ".join(stray)))

def run(name, variant, seed):
    db = "%s-%s-%s.sqlite" % (name, variant, seed)
    rc = subprocess.call([gpucap, "run", os.path.join(traps, "%s-%s.yaml" % (name, variant)), "--seed", seed,
                          "--db", db, "--quiet"])
    if rc != 0:
        return None
    con = sqlite3.connect(db)
    m = dict(con.execute("select name, value from metrics"))
    first = con.execute("select min(t_s) from events where kind = 'scale_out'").fetchone()[0]
    # after the last scale-out: how many scale-ins, and how far below the peak the desired capacity ends
    last_out = con.execute("select max(t_s) from events where kind = 'scale_out'").fetchone()[0]
    late_ins = con.execute("select count(*) from events where kind = 'scale_in' and t_s > ?",
                           (-1.0 if last_out is None else last_out,)).fetchone()[0]
    final = con.execute("select count from events where kind in ('scale_out', 'scale_in') "
                        "order by seq desc limit 1").fetchone()
    return {"cost": m["cost_total_usd"], "violations": m["slo_violations"],
            "violation_rate": m["slo_violation_rate"], "scale_outs": m["scale_out_actions"],
            "scale_ins": m["scale_in_actions"], "scale_actions": m["scale_out_actions"] + m["scale_in_actions"],
            "launches": m["launches"], "first_out": math.inf if first is None else first,
            "late_scale_ins": late_ins,
            "final_below_peak": 0 if final is None else m["instances_peak"] - final[0]}

OPS = {">": lambda x, y: x > y, ">=": lambda x, y: x >= y, "<": lambda x, y: x < y, "<=": lambda x, y: x <= y,
       "==": lambda x, y: x == y}
ASSERT = re.compile(r"(total )?(\w+) (wrong|right) (==|>=|<=|>|<) (wrong|right|[\d.]+)(?: ([-+*]) ([\d.]+))?$")

def check(name, where, a, r):
    m = ASSERT.match(a)
    if not m or m.group(2) not in r["wrong"]:
        verdict(False, "%s: cannot read the assertion '%s'" % (name, a))
        return
    _, metric, side, op, other, arith, num = m.groups()
    x = r[side][metric]
    y = r[other][metric] if other in r else float(other)
    if arith:
        y = y + float(num) if arith == "+" else y - float(num) if arith == "-" else y * float(num)
    verdict(OPS[op](x, y), "%s %s: %s (%g %s %g)" % (name, where, a, x, op, y))

for name, (keys, asserts) in pairs.items():
    if name not in names:
        continue
    differ_only_in(name, keys)
    totals = None
    for seed in seeds:
        r = {v: run(name, v, seed) for v in ("wrong", "right")}
        if None in r.values():
            verdict(False, "%s seed %s: gpucap run fails" % (name, seed))
            totals = False
            continue
        print("numbers %s seed %s: %s" % (name, seed, "; ".join(
            "%s cost %.2f violations %d (%.3f%%) outs %d ins %d launches %d first_out %g" % (
                v, x["cost"], x["violations"], 100 * x["violation_rate"], x["scale_outs"], x["scale_ins"],
                x["launches"], x["first_out"]) for v, x in r.items())))
        if totals is None:
            totals = {v: dict.fromkeys(r[v], 0) for v in r}
        if totals:
            for v in r:
                for k in r[v]:
                    totals[v][k] += r[v][k]
        for a in asserts:
            if not a.startswith("total "):
                check(name, "seed %s" % seed, a, r)
    for a in asserts:
        if a.startswith("total "):
            if totals:
                check(name, "seeds %s" % " ".join(seeds), a, totals)
            else:
                verdict(False, "%s: no totals for '%s' (a run failed)" % (name, a))
PY
rc=$?
check "the trap checker runs ($rc)" test $rc -eq 0
grep '^numbers ' verdicts.txt
while read -r word rest; do
	case $word in
	ok) pass ;;
	FAIL) fail "$rest" ;;
	esac
done <verdicts.txt
finish
