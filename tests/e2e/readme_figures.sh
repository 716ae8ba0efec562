#!/usr/bin/env bash
# End-to-end: the figures the manuals quote from example scenarios are what gpucap gives now. The numbers
# are read from the manuals' own sentences (models/README.md: the predictive-diurnal comparison in
# "Autoscaling: predictive", the copies-scale-to-zero comparison in "Autoscaling: model copies", the prefix
# caching comparison; scenarios/README.md: the three-provider example's table and paragraph), never copied
# here, so a change that moves a result fails this test until the manual says the new figure; the
# table of scenarios/README.md, "Scaling traps", row by row, against fresh runs of scenarios/traps; and the
# output of the recommend example of analysis/README.md, line for line. (The worked example of README.md:
# e2e_readme_example.)
. "$(dirname "$0")/lib.sh"
# The figures need the examples' full runs (days of simulated time): too slow under valgrind.
[ -n "$VGDIR" ] && { echo "skipped under valgrind (GPUCAP_VALGRIND=1)"; exit 77; }
cd "$TMP"
MODEL=$SRC/models/README.md        # the predictive, copies and prefix-caching figures
GALLERY=$SRC/scenarios/README.md   # the three-provider example and the scaling traps

run() { # run DB ARGS...: one run into its own database
	local db=$1; shift
	"$GPUCAP" run "$@" --db "$db" --quiet 2>/dev/null
	check "gpucap run $* succeeds" test $? -eq 0
}
run pd.sqlite "$SRC/scenarios/predictive-diurnal.yaml"
run pt.sqlite "$SRC/scenarios/predictive-diurnal.yaml" --set autoscaling.policy=target_tracking
run cz.sqlite "$SRC/scenarios/copies-scale-to-zero.yaml"
run cm.sqlite "$SRC/scenarios/copies-scale-to-zero.yaml" --set autoscaling.min=4
PX="--set serving.slots_per_instance=16 --set autoscaling.min=4 --set serving.prefix_cache_blocks=4000"
run mf.sqlite "$SRC/scenarios/mooncake-synthetic.yaml" $PX
run ma.sqlite "$SRC/scenarios/mooncake-synthetic.yaml" $PX --set serving.routing=prefix_aware

# Each check: a regular expression over the README (its lines joined), the group to take, how the README
# writes it (count, usd, pct: a percentage of a rate, to the digits shown) and the metric it must equal.
python3 - "$MODEL" <<'PY'
import re, sqlite3, sys
text = " ".join(open(sys.argv[1]).read().split())
def metric(db, name):
    return sqlite3.connect(db).execute("select value from metrics where name = ?", (name,)).fetchone()[0]
def shown(kind, value, written):
    if kind == "count":
        return "{:,.0f}".format(value) if "," in written else "{:.0f}".format(value)
    if kind == "usd":
        return "{:,.2f}".format(value)
    decimals = len(written.split(".")[1]) if "." in written else 0
    if kind == "num":  # a plain number, to the digits shown
        return "{:.{}f}".format(value, decimals)
    return "{:.{}f}".format(100 * value, decimals)
pd = (r"`gpucap run scenarios/predictive-diurnal.yaml` gives ([\d,]+) SLO violations \(([\d.]+)%\) for "
      r"\$([\d,.]+), and `gpucap run scenarios/predictive-diurnal.yaml --set autoscaling.policy=target_tracking`"
      r" gives ([\d,]+) \(([\d.]+)%\) for \$([\d,.]+):.*? with (\d+) scale-outs and (\d+) scale-ins against"
      r" (\d+) and (\d+)\.")
cz = (r"On `scenarios/copies-scale-to-zero.yaml` .*? scaling to zero costs \$([\d,.]+) with ([\d,]+) SLO "
      r"violations \(([\d.]+)%\), ([\d,]+) of them requests refused.*? against \$([\d,.]+) and none with "
      r"`--set autoscaling.min=4`")
mx = (r"On `scenarios/mooncake-synthetic.yaml` with `--set serving.slots_per_instance=16 --set "
      r"autoscaling.min=4 --set serving.prefix_cache_blocks=4000` \(4 instances all along\), random routing "
      r"\(the default\) gives a prefix hit rate of ([\d.]+)% and a TTFT mean of ([\d.]+) s \(p99 ([\d.]+) s\) for \$([\d,.]+), and "
      r"`--set serving.routing=prefix_aware` a hit rate of ([\d.]+)% and a TTFT mean of ([\d.]+) s \(p99 ([\d.]+) "
      r"s\) for \$([\d,.]+):")
checks = {
    pd: [("pd.sqlite", "slo_violations", "count"), ("pd.sqlite", "slo_violation_rate", "pct"),
         ("pd.sqlite", "cost_total_usd", "usd"), ("pt.sqlite", "slo_violations", "count"),
         ("pt.sqlite", "slo_violation_rate", "pct"), ("pt.sqlite", "cost_total_usd", "usd"),
         ("pd.sqlite", "scale_out_actions", "count"), ("pd.sqlite", "scale_in_actions", "count"),
         ("pt.sqlite", "scale_out_actions", "count"), ("pt.sqlite", "scale_in_actions", "count")],
    cz: [("cz.sqlite", "cost_total_usd", "usd"), ("cz.sqlite", "slo_violations", "count"),
         ("cz.sqlite", "slo_violation_rate", "pct"), ("cz.sqlite", "requests_refused", "count"),
         ("cm.sqlite", "cost_total_usd", "usd")],
    mx: [("mf.sqlite", "prefix_hit_rate", "pct"), ("mf.sqlite", "ttft_mean_s", "num"),
         ("mf.sqlite", "ttft_p99_s", "num"), ("mf.sqlite", "cost_total_usd", "usd"),
         ("ma.sqlite", "prefix_hit_rate", "pct"), ("ma.sqlite", "ttft_mean_s", "num"),
         ("ma.sqlite", "ttft_p99_s", "num"), ("ma.sqlite", "cost_total_usd", "usd")],
}
fails = 0
for pattern, wanted in checks.items():
    m = re.search(pattern, text)
    if not m:
        print("FAIL: the README no longer has the sentence /%s/" % pattern[:60])
        fails += 1
        continue
    for i, (db, name, kind) in enumerate(wanted):
        written, now = m.group(i + 1), shown(kind, metric(db, name), m.group(i + 1))
        if written != now:
            print("FAIL: the README says %s for %s (%s), gpucap gives %s" % (written, name, db, now))
            fails += 1
# "and none": the kept-warm run has no violation
if metric("cm.sqlite", "slo_violations") != 0:
    print("FAIL: the README says none for slo_violations (cm.sqlite), gpucap gives %g"
          % metric("cm.sqlite", "slo_violations"))
    fails += 1
sys.exit(1 if fails else 0)
PY
check "the README's example figures are gpucap's" test $? -eq 0

# models/README.md, "Routing": the Mooncake table, row by row, against a run of each routing and queue.
python3 - "$MODEL" <<'PY' >routing_rows.txt
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"\| `(\w+)` \| `(central|per_instance)` \| ", line)
    if m:
        print(m.group(1), m.group(2), line.strip())
PY
check "the README has the routing table's 7 rows" test "$(wc -l <routing_rows.txt)" -eq 7
while read -r routing queue row; do
	"$GPUCAP" run "$SRC/scenarios/mooncake-synthetic.yaml" $PX --set serving.routing="$routing" \
		--set serving.queue="$queue" --json --db "rt-$routing-$queue.sqlite" >"rt.json" 2>/dev/null
	now=$(python3 -c '
import json, sys
m = json.load(open("rt.json")); m = m.get("metrics", m)
print("| `%s` | `%s` | %.1f%% | %.3f | %.3f | %.3f | %s |" % (sys.argv[1], sys.argv[2], 100 * m["prefix_hit_rate"],
      m["ttft_mean_s"], m["ttft_p99_s"], m["latency_p99_s"], "{:,.2f}".format(m["cost_total_usd"])))' "$routing" "$queue")
	check "models/README.md's routing row for $routing/$queue is gpucap's (README: $row; now: $now)" \
		test "$row" = "$now"
done <routing_rows.txt

# models/README.md, "Load-dependent service for the other kinds": the target sweep's sentence.
TS="$SRC/tests/data/good/target_slowdown.yaml"
for t in 0.5 0.6 0.7; do
	run "ts$t.sqlite" "$TS" --set autoscaling.target=$t
	run "tf$t.sqlite" "$TS" --set autoscaling.target=$t --set workload.service.slowdown.1.factor=1
done
python3 - "$MODEL" <<'PY'
import re, sqlite3, sys
text = " ".join(open(sys.argv[1]).read().split())
def metric(db, name):
    return sqlite3.connect(db).execute("select value from metrics where name = ?", (name,)).fetchone()[0]
m = re.search(r"`--set autoscaling.target=0.5` gives a p99 of ([\d.]+) s for \$([\d,.]+), 0.6 gives ([\d.]+) s "
              r"for \$([\d,.]+), 0.7 gives ([\d.]+) s for \$([\d,.]+); with the table flat .*? all three "
              r"give ([\d.]+) s\.", text)
if not m:
    print("FAIL: models/README.md no longer has the target sweep's sentence")
    sys.exit(1)
now = []
for t in ("0.5", "0.6", "0.7"):
    now += ["%.2f" % metric("ts%s.sqlite" % t, "latency_p99_s"), "{:,.2f}".format(metric("ts%s.sqlite" % t, "cost_total_usd"))]
flat = {"%.2f" % metric("tf%s.sqlite" % t, "latency_p99_s") for t in ("0.5", "0.6", "0.7")}
now.append(flat.pop() if len(flat) == 1 else "(not one value: %s)" % sorted(flat))
fails = [(i, w, n) for i, (w, n) in enumerate(zip(m.groups(), now)) if w != n]
for i, w, n in fails:
    print("FAIL: the target sweep's figure %d: the README says %s, gpucap gives %s" % (i + 1, w, n))
sys.exit(1 if fails else 0)
PY
check "the README's target sweep is gpucap's" test $? -eq 0

# README.md, "A worked example": the autoscaling target's table, row by row, launches included (targets 0.5,
# 0.7, 0.8 and 0.9: at 0.9 target tracking flaps, launching instances by the hundred).
python3 - "$SRC/README.md" <<'PY' >target_rows.txt
import re, sys
for line in open(sys.argv[1]):
    if re.match(r"\| 0\.\d \| [\d.]+ \| ", line):
        print(line.split("|")[1].strip(), line.strip())
PY
check "README.md has the target table's 4 rows" test "$(wc -l <target_rows.txt)" -eq 4
while read -r t row; do
	"$GPUCAP" run --set autoscaling.target="$t" --json --db "tt-$t.sqlite" >tt.json 2>/dev/null
	now=$(python3 -c '
import json, sys
m = json.load(open("tt.json")); m = m.get("metrics", m)
print("| %s | %.3f | %.3f | %.3f%% | %s | %.1f | %.0f |" % (sys.argv[1], m["latency_p50_s"], m["latency_p99_s"],
      100 * m["slo_violation_rate"], "{:,.2f}".format(m["cost_total_usd"]), m["gpu_hours_idle"], m["launches"]))' "$t")
	check "README.md's target row $t is gpucap's (README: $row; now: $now)" test "$row" = "$now"
done <target_rows.txt

# The three-provider example ("What the three-provider example shows"): its table, row by row, and the
# figures of the paragraph under it, against the three runs (as the README runs them: ids 1, 2, 3 in one
# database) and against `gpucap compare` of them.
for p in aws gcp azure; do run providers.sqlite "$SRC/scenarios/providers-$p.yaml"; done
"$GPUCAP" compare --db providers.sqlite 1 2 3 >providers.txt; rc=$?
check "gpucap compare of the three providers succeeds ($rc)" test $rc -eq 0
python3 - "$GALLERY" providers.sqlite providers.txt <<'PY'
import math, re, sqlite3, sys
lines = open(sys.argv[1]).read().splitlines()
db = sqlite3.connect(sys.argv[2])
compare = open(sys.argv[3]).read()
def m(run, name):
    return db.execute("select value from metrics where run_id = ? and name = ?", (run, name)).fetchone()[0]
fails = []
def same(what, written, now):
    if written != now:
        fails.append("the README says %s for %s, gpucap gives %s" % (written, what, now))
runs = {"aws": 1, "gcp": 2, "azure": 3}
for p, run in runs.items():
    name = db.execute("select name from runs where run_id = ?", (run,)).fetchone()[0]
    same("run %d's scenario" % run, "providers-" + p, name)
    row = [l for l in lines if l.startswith("| `providers-%s.yaml` | " % p)]
    if len(row) != 1:
        fails.append("the README has %d table rows for providers-%s.yaml" % (len(row), p))
        continue
    cells = [c.strip() for c in row[0].split("|")[2:-1]]
    want = ["{:,.2f}".format(m(run, "cost_reserved_usd")), "{:,.2f}".format(m(run, "cost_on_demand_usd")),
            "{:,.2f}".format(m(run, "cost_spot_usd")), "{:,.2f}".format(m(run, "cost_total_usd")),
            "{:,.0f} ({:.3f}%)".format(m(run, "slo_violations"), 100 * m(run, "slo_violation_rate")),
            "{:.2f} s".format(m(run, "latency_p99_s")), "{:,.1f}".format(m(run, "gpu_hours_idle")),
            "{:.0f}".format(m(run, "spot_interruptions"))]
    cols = ["reserved", "on-demand", "Spot", "total", "violations", "p99", "idle GPU-h", "interruptions"]
    for col, written, now in zip(cols, cells, want):
        same("%s of providers-%s" % (col, p), written, now)
    # compare's cost-by-option row for the run, and its point line naming the scenario
    block = compare.split("cost by option over the run ($, means)\n")[1].split("\n\n")[0].splitlines()
    crow = [l.split() for l in block if l.split()[0] == str(run)][0]
    same("compare's total of run %d" % run, "{:.2f}".format(m(run, "cost_total_usd")), crow[-1])
    if not re.search(r"^  %d +providers-%s \(" % (run, p), compare, re.M):
        fails.append("compare does not name run %d's scenario providers-%s" % (run, p))
text = " ".join(" ".join(lines).split())
sec = re.search(r"## What the three-provider example shows(.*?)## What the jobs examples show", text)
text = sec.group(1) if sec else ""
def sentence(pattern, values):
    g = re.search(pattern, text)
    if not g:
        fails.append("the README no longer has the sentence /%s/" % pattern[:60])
        return
    for i, now in enumerate(values):
        same("/%s/ group %d" % (pattern[:30], i + 1), g.group(i + 1), now)
od, dis = 55.04, 0.35
same("the reserved cost worked by hand", "{:,.2f}".format(2 * od * (1 - dis) * 168), "{:,.2f}".format(m(1, "cost_reserved_usd")))
sentence(r"2 x 55\.04 x 0\.65 x 168 h = USD ([\d,.]+)", ["{:,.2f}".format(2 * od * (1 - dis) * 168)])
s2 = math.log(1 + 0.6 ** 2)  # lognormal mean 6 s, cv 0.6: P(S > 20 s)
p20 = 0.5 * math.erfc((math.log(20) - (math.log(6) - s2 / 2)) / math.sqrt(2 * s2))
sentence(r"\(P = ([\d.]+)% for this lognormal\)", ["{:.2f}".format(100 * p20)])
sentence(r"Azure costs USD ([\d.]+) less", ["{:.2f}".format(m(2, "cost_total_usd") - m(3, "cost_total_usd"))])
# AWS's first-hour refunds: the Spot GPU-hours paid for at the Spot rate (8 GPUs, 55.04 x 0.5 per hour),
# less what Spot was billed
refund = m(1, "gpu_hours_paid_spot") / 8 * od * 0.5 - m(1, "cost_spot_usd")
sentence(r"costs nothing \(USD ([\d.]+) here\)", ["{:.2f}".format(refund)])
sentence(r"has (\d+) Spot interruptions against (\d+) and falls back to on-demand for ([\d.]+) instance-hours "
         r"against ([\d.]+), USD ([\d,.]+) \(([\d.]+)%\) (more|less)",
         ["{:.0f}".format(m(1, "spot_interruptions")), "{:.0f}".format(m(2, "spot_interruptions")),
          "{:.1f}".format(m(1, "gpu_hours_paid_on_demand") / 8), "{:.1f}".format(m(2, "gpu_hours_paid_on_demand") / 8),
          "{:,.2f}".format(abs(m(1, "cost_total_usd") - m(2, "cost_total_usd"))),
          "{:.1f}".format(abs(100 * (m(1, "cost_total_usd") / m(2, "cost_total_usd") - 1))),
          "more" if m(1, "cost_total_usd") > m(2, "cost_total_usd") else "less"])
# "Google Cloud and Azure run the same events" (Azure also logs each evicted Spot VM's deallocation, and its
# always-on base is an on-demand entry under a commitment where Google Cloud's is a zonal reservation: the
# base's start is logged under its own option)
ev = lambda run: [(t, k, "base" if k == "start" and o in ("reserved", "on_demand") and t == 0 else o, c)
                  for t, k, o, c in db.execute("select t_s, kind, option, count from events where run_id = ? "
                                               "and kind != 'deallocate' order by seq", (run,)).fetchall()]
if db.execute("select count(*) from events where run_id = 3 and kind = 'deallocate'").fetchone()[0] != m(3, "spot_interruptions"):
    fails.append("the README says Azure deallocates each evicted Spot VM; the deallocations differ from the interruptions")
if ev(2) != ev(3):
    fails.append("the README says Google Cloud and Azure run the same events; they differ")
if "under 3%" in text and abs(m(1, "cost_total_usd") / m(3, "cost_total_usd") - 1) >= 0.03:
    fails.append("the README says the rules move the bill by under 3%")
for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
PY
check "the README's three-provider figures are gpucap's" test $? -eq 0

# The scaling traps ("Scaling traps"): every pair in scenarios/traps has a row of the table, and each row's
# figures (wrong / right, seed 42) are those of fresh runs of the two files.
for f in "$SRC"/scenarios/traps/*-wrong.yaml "$SRC"/scenarios/traps/*-right.yaml; do
	run "traps-$(basename "$f" .yaml).sqlite" "$f" --seed 42
done
python3 - "$GALLERY" "$SRC/scenarios/traps" <<'PY'
import glob, os, sqlite3, sys
lines = open(sys.argv[1]).read().splitlines()
fails = []
def figures(db):
    con = sqlite3.connect(db)
    m = dict(con.execute("select name, value from metrics"))
    first = con.execute("select min(t_s) from events where kind = 'scale_out'").fetchone()[0]
    return ["${:,.2f}".format(m["cost_total_usd"]),
            "{:,.0f} ({:.2f}%)".format(m["slo_violations"], 100 * m["slo_violation_rate"]),
            "{:.0f} out, {:.0f} in".format(m["scale_out_actions"], m["scale_in_actions"]),
            "{:.0f}".format(m["launches"]), "none" if first is None else "{:.0f} s".format(first)]
cols = ["cost", "SLO violations", "scale actions", "launches", "first scale-out"]
names = sorted(os.path.basename(p)[:-len("-wrong.yaml")] for p in glob.glob(sys.argv[2] + "/*-wrong.yaml"))
if len(names) < 5:
    fails.append("scenarios/traps has %d pairs, expected at least 5" % len(names))
for name in names:
    row = [l for l in lines if l.startswith("| `%s` | " % name)]
    if len(row) != 1:
        fails.append("the README has %d rows for the trap %s" % (len(row), name))
        continue
    cells = [c.strip() for c in row[0].split("|")[3:-1]]
    wrong, right = figures("traps-%s-wrong.sqlite" % name), figures("traps-%s-right.sqlite" % name)
    for col, written, w, r in zip(cols, cells, wrong, right):
        if written != "%s / %s" % (w, r):
            fails.append("the README says %s for %s of the trap %s, gpucap gives %s / %s" % (written, col, name, w, r))
    if len(cells) != len(cols):
        fails.append("the trap %s's row has %d figure cells, expected %d" % (name, len(cells), len(cols)))
for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
PY
check "the README's scaling-trap figures are gpucap's" test $? -eq 0

# The recommend examples (analysis/README.md, "Recommending what to buy"): their whole output, line for line,
# from the command each shows, run from the source tree as written (with --jobs 2, which changes only the time).
for example in recommend-commitments recommend-growth; do
python3 - "$SRC/analysis/README.md" "$example" >rec-readme.txt <<'PY'
import sys
text = open(sys.argv[1]).read()
start = text.index("```\n$ gpucap recommend scenarios/%s.yaml" % sys.argv[2])
print(text[start + 4:text.index("```\n", start + 4)], end="")
PY
read -r -a rec_cmd < <(head -1 rec-readme.txt)
tail -n +2 rec-readme.txt >rec-want.txt
(cd "$SRC" && "$GPUCAP" "${rec_cmd[@]:2}" --jobs 2) >rec-got.txt 2>rec-err.txt; rc=$?
check "the README's recommend command (${rec_cmd[*]}) exits 0 (got $rc: $(cat rec-err.txt))" test $rc -eq 0
check "the README's $example output is gpucap's ($(diff rec-want.txt rec-got.txt | head -5))" cmp -s rec-want.txt rec-got.txt
done
finish
