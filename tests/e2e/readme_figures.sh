#!/usr/bin/env bash
# End-to-end: the figures the README quotes from example scenarios are what gpucap gives now. The numbers
# are read from the README's own sentences (the predictive-diurnal comparison in "Autoscaling: predictive",
# the copies-scale-to-zero comparison in "Copies"), never copied here, so a change that moves a result
# fails this test until the README says the new figure. (The worked example: e2e_readme_example.)
. "$(dirname "$0")/lib.sh"
# The figures need the examples' full runs (days of simulated time): too slow under valgrind.
[ -n "$VGDIR" ] && { echo "skipped under valgrind (GPUCAP_VALGRIND=1)"; exit 77; }
cd "$TMP"
README=$SRC/README.md

run() { # run DB ARGS...: one run into its own database
	local db=$1; shift
	"$GPUCAP" run "$@" --db "$db" --quiet 2>/dev/null
	check "gpucap run $* succeeds" test $? -eq 0
}
run pd.sqlite "$SRC/scenarios/predictive-diurnal.yaml"
run pt.sqlite "$SRC/scenarios/predictive-diurnal.yaml" --set autoscaling.policy=target_tracking
run cz.sqlite "$SRC/scenarios/copies-scale-to-zero.yaml"
run cm.sqlite "$SRC/scenarios/copies-scale-to-zero.yaml" --set autoscaling.min=4

# Each check: a regular expression over the README (its lines joined), the group to take, how the README
# writes it (count, usd, pct: a percentage of a rate, to the digits shown) and the metric it must equal.
python3 - "$README" <<'PY'
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
    return "{:.{}f}".format(100 * value, decimals)
pd = (r"`gpucap run scenarios/predictive-diurnal.yaml` gives ([\d,]+) SLO violations \(([\d.]+)%\) for "
      r"\$([\d,.]+), and `gpucap run scenarios/predictive-diurnal.yaml --set autoscaling.policy=target_tracking`"
      r" gives ([\d,]+) \(([\d.]+)%\) for \$([\d,.]+):.*? with (\d+) scale-outs and (\d+) scale-ins against"
      r" (\d+) and (\d+)\.")
cz = (r"On `scenarios/copies-scale-to-zero.yaml` .*? scaling to zero costs \$([\d,.]+) with ([\d,]+) SLO "
      r"violations \(([\d.]+)%\), ([\d,]+) of them requests refused.*? against \$([\d,.]+) and none with "
      r"`--set autoscaling.min=4`")
checks = {
    pd: [("pd.sqlite", "slo_violations", "count"), ("pd.sqlite", "slo_violation_rate", "pct"),
         ("pd.sqlite", "cost_total_usd", "usd"), ("pt.sqlite", "slo_violations", "count"),
         ("pt.sqlite", "slo_violation_rate", "pct"), ("pt.sqlite", "cost_total_usd", "usd"),
         ("pd.sqlite", "scale_out_actions", "count"), ("pd.sqlite", "scale_in_actions", "count"),
         ("pt.sqlite", "scale_out_actions", "count"), ("pt.sqlite", "scale_in_actions", "count")],
    cz: [("cz.sqlite", "cost_total_usd", "usd"), ("cz.sqlite", "slo_violations", "count"),
         ("cz.sqlite", "slo_violation_rate", "pct"), ("cz.sqlite", "requests_refused", "count"),
         ("cm.sqlite", "cost_total_usd", "usd")],
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
finish
