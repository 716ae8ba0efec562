#!/usr/bin/env bash
# End-to-end: output files are written in full or not at all (sim/outfile.h), and standard output is
# checked. report -o and export -o refuse the database they read, under any spelling (./X, the absolute
# path, a symbolic or hard link), and any path that is not a regular file (a FIFO, a directory, a device):
# exit 2 and the file untouched. A failure after the output existed (a wrong run id, a missing database, a
# file that is not a gpucap database) leaves it byte for byte as it was, with no temporary file beside it;
# so does a full disk (as root, on a small tmpfs), exit 1. A replaced file keeps its mode, a symbolic link
# to a file stays a link. Every command that prints results, with standard output on /dev/full, exits 1
# with "gpucap: writing standard output: ..." (run --json still stores its run). Device nodes and the tmpfs
# need root (CI runs as root); without root those checks are left out and the rest still runs. A usage
# error is one line on stderr that starts with "gpucap".
. "$(dirname "$0")/lib.sh"
cd "$TMP"

root=false
[ "$(id -u)" = 0 ] && root=true
sum() { sha256sum <"$1"; }
# no_temp DIR: no ".NAME.XXXXXX" temporary file left in DIR
no_temp() { ! ls -A "$1" | grep -q '^\..*\.[A-Za-z0-9]\{6\}$'; }
# refused WHAT EXPECTED-RC PATTERN COMMAND...: the command exits EXPECTED-RC (any: not 0) with an error
# line matching PATTERN that starts with "gpucap:"
refused() {
	local what=$1 want=$2 pat=$3 rc; shift 3
	"$@" >out.txt 2>err.txt; rc=$?
	if [ "$want" = any ]; then
		check "$what: fails (got $rc: $(cat err.txt))" test "$rc" -ne 0
	else
		check "$what: exit $want (got $rc: $(cat err.txt))" test "$rc" -eq "$want"
	fi
	check "$what: message ($(cat err.txt))" grep -q "^gpucap: .*$pat" err.txt
}

"$GPUCAP" run --set horizon=30m --quiet --db r.sqlite || fail "first run"
"$GPUCAP" run --set horizon=1h --set seed=7 --quiet --db r.sqlite || fail "second run"
db_sum=$(sum r.sqlite)

# ---- -o is the database being read: refused under every spelling, the database unchanged --------------
ln -s r.sqlite r-link.sqlite
ln r.sqlite r-hard.sqlite
for out in r.sqlite ./r.sqlite "$TMP/r.sqlite" r-link.sqlite r-hard.sqlite "$TMP/./sub/../r.sqlite"; do
	mkdir -p sub
	refused "export --focus -o $out" 2 "this is the results database" "$GPUCAP" export --focus 1 --db r.sqlite -o "$out"
	refused "export --samples -o $out" 2 "this is the results database" "$GPUCAP" export --samples 1 --db r.sqlite -o "$out"
	refused "report -o $out" 2 "this is the results database" "$GPUCAP" report --db r.sqlite -o "$out"
	check "after -o $out: database unchanged" test "$(sum r.sqlite)" = "$db_sum"
	check "after -o $out: link still a link" test -L r-link.sqlite
done
check "no temporary file left" no_temp .
# a database that does not exist yet is still the same path: refused, and nothing created
refused "export -o the --db that does not exist" 2 "this is the results database" \
	"$GPUCAP" export --focus 1 --db new.sqlite -o ./new.sqlite
check "nothing created" test ! -e new.sqlite

# ---- -o is not a regular file: refused, left as it was ----------------------------------------------
mkfifo fifo
mkdir adir
ln -s nowhere dangling
for cmd in "export --focus 1 --db r.sqlite" "export --focus 99 --db r.sqlite" "report --db r.sqlite" \
	"report --db missing.sqlite"; do
	# shellcheck disable=SC2086
	# (a timeout: writing into a FIFO nobody reads would block for ever)
	refused "$cmd -o fifo" 2 "fifo: not a regular file" timeout 60 "$GPUCAP" $cmd -o fifo
	check "$cmd -o fifo: still a FIFO" test -p fifo
	# shellcheck disable=SC2086
	refused "$cmd -o adir" 2 "adir: not a regular file" "$GPUCAP" $cmd -o adir
	check "$cmd -o adir: still a directory" test -d adir
	# shellcheck disable=SC2086
	refused "$cmd -o dangling" 2 "dangling: a symbolic link to nothing" "$GPUCAP" $cmd -o dangling
	check "$cmd -o dangling: nothing created" test ! -e nowhere
done
refused "trace gen -o adir" 2 "adir: not a regular file" \
	"$GPUCAP" trace gen --scenario "$SRC/scenarios/chat-serving.yaml" --set horizon=1m -o adir
if $root; then
	# A character device (the null device's numbers) in $TMP first, on success and on failure; /dev/null
	# itself only when that node survived, and put back if a regression removed it (a gpucap that unlinks
	# its output on failure would otherwise break every other program on the machine).
	mknod cdev c 1 3
	devcmds=("export --focus 1 --db r.sqlite" "export --focus 99 --db r.sqlite" "export --samples 1 --db nope.sqlite"
		"report --db r.sqlite" "report --db nope.sqlite")
	for cmd in "${devcmds[@]}"; do
		# shellcheck disable=SC2086
		refused "$cmd -o cdev" 2 "cdev: not a regular file" "$GPUCAP" $cmd -o cdev
		check "$cmd -o cdev: still a character device" test -c cdev
	done
	if [ -c cdev ]; then
		trap '[ -c /dev/null ] || { rm -f /dev/null; mknod -m 666 /dev/null c 1 3; }; rm -rf "$TMP"' EXIT
		for cmd in "${devcmds[@]}"; do
			# shellcheck disable=SC2086
			refused "$cmd -o /dev/null" 2 "/dev/null: not a regular file" "$GPUCAP" $cmd -o /dev/null
			check "$cmd -o /dev/null: still a character device" test -c /dev/null
		done
		refused "trace gen -o /dev/null" 2 "/dev/null: not a regular file" \
			"$GPUCAP" trace gen --scenario "$SRC/scenarios/chat-serving.yaml" --set horizon=1m -o /dev/null
		check "trace gen: /dev/null still a character device" test -c /dev/null
		[ -c /dev/null ] || { rm -f /dev/null; mknod -m 666 /dev/null c 1 3; }
	fi
else
	echo "not root: device outputs not checked"
fi
check "no temporary file left" no_temp .

# ---- a failure after the output existed: the output unchanged, no temporary file ----------------------
echo "the previous export" > out.csv
echo "the previous report" > out.html
echo "not a database" > text.sqlite
csv_sum=$(sum out.csv)
html_sum=$(sum out.html)
refused "export: wrong run id" 2 "no run 99" "$GPUCAP" export --focus 99 --db r.sqlite -o out.csv
refused "export --samples: wrong run id" 2 "" "$GPUCAP" export --samples 99 --db r.sqlite -o out.csv
refused "export: missing database" any "missing.sqlite" "$GPUCAP" export --focus 1 --db missing.sqlite -o out.csv
refused "export: not a gpucap file" any "text.sqlite" "$GPUCAP" export --focus 1 --db text.sqlite -o out.csv
check "export failures: output unchanged" test "$(sum out.csv)" = "$csv_sum"
refused "report: unknown run" 2 "" "$GPUCAP" report --db r.sqlite 99 -o out.html
refused "report: missing database" any "missing.sqlite" "$GPUCAP" report --db missing.sqlite -o out.html
refused "report: not a gpucap file" any "text.sqlite" "$GPUCAP" report --db text.sqlite -o out.html
check "report failures: output unchanged" test "$(sum out.html)" = "$html_sum"
refused "trace gen: bad scenario" 2 "" "$GPUCAP" trace gen --scenario text.sqlite -o out.csv
check "trace gen failure: output unchanged" test "$(sum out.csv)" = "$csv_sum"
# A database locked by a writer: the export either waits and writes the whole file, or fails and leaves
# the old one (both are right; which one depends on how long readers wait for a lock).
(echo "BEGIN EXCLUSIVE; DELETE FROM labels;"; sleep 2; echo "ROLLBACK;") | sqlite3 r.sqlite &
locker=$!
sleep 0.5
"$GPUCAP" export --focus 1 --db r.sqlite -o out.csv 2>err.txt; rc=$?
wait $locker
if [ $rc -eq 0 ]; then
	check "locked database: waited, the whole export written" cmp -s out.csv <("$GPUCAP" export --focus 1 --db r.sqlite)
	echo "the previous export" > out.csv
else
	check "locked database: output unchanged ($(cat err.txt))" test "$(sum out.csv)" = "$csv_sum"
fi
check "locked database: no temporary file left" no_temp .
refused "report: no such folder" 1 "nodir/x.html: cannot create a temporary file" \
	"$GPUCAP" report --db r.sqlite -o nodir/x.html
check "no temporary file left" no_temp .
check "the database unchanged throughout" test "$(sum r.sqlite)" = "$db_sum"

# ---- success: the whole file, the old mode kept, a new file as fopen makes it, links followed ---------
"$GPUCAP" export --focus 1 --db r.sqlite > focus-stdout.csv || fail "export to stdout"
chmod 640 out.csv
"$GPUCAP" export --focus 1 --db r.sqlite -o out.csv; rc=$?
check "export -o: exit 0 ($rc)" test $rc -eq 0
check "export -o: the same as on stdout" cmp -s out.csv focus-stdout.csv
check "export -o: mode 640 kept ($(stat -c %a out.csv))" test "$(stat -c %a out.csv)" = 640
"$GPUCAP" export --focus 1 --db r.sqlite -o - > dash.csv
check "export -o -: standard output" cmp -s dash.csv focus-stdout.csv
(umask 027 && "$GPUCAP" export --focus 1 --db r.sqlite -o new.csv)
check "a new file: 0666 less the umask ($(stat -c %a new.csv))" test "$(stat -c %a new.csv)" = 640
(umask 022 && "$GPUCAP" report --db r.sqlite -o new.html)
check "a new report: 644 ($(stat -c %a new.html))" test "$(stat -c %a new.html)" = 644
mkdir real
echo old > real/target.csv
ln -s real/target.csv link.csv
"$GPUCAP" export --focus 1 --db r.sqlite -o link.csv; rc=$?
check "export -o a link: exit 0 ($rc)" test $rc -eq 0
check "the link is still a link" test -L link.csv
check "what it points at was written" cmp -s real/target.csv focus-stdout.csv
check "no temporary file left beside the link's target" no_temp real
"$GPUCAP" trace gen --scenario "$SRC/scenarios/chat-serving.yaml" --set horizon=1m -o gen.csv 2>/dev/null
check "trace gen: a trace written" test "$(head -1 gen.csv | cut -c1-6)" = time_s
check "no temporary file left" no_temp .

# ---- a full disk: the previous report stays whole -----------------------------------------------------
mnt="$TMP/tiny"
mkdir -p "$mnt"
if $root && mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
	trap '[ -c /dev/null ] || { rm -f /dev/null; mknod -m 666 /dev/null c 1 3; }; umount "$mnt" 2>/dev/null; rm -rf "$TMP"' EXIT
	"$GPUCAP" report --db r.sqlite 1 -o "$mnt/report.html"; rc=$?
	check "full disk: a one-run report fits (exit $rc)" test $rc -eq 0
	before=$(sum "$mnt/report.html")
	"$GPUCAP" report --db r.sqlite -o "$mnt/report.html" 2>err.txt; rc=$?  # both runs: twice the size
	check "full disk: a bigger report exits 1 (got $rc)" test $rc -eq 1
	check "full disk: message names the file ($(cat err.txt))" \
		grep -q "^gpucap: $mnt/report.html: writing failed (No space left on device); the file was left as it was" err.txt
	check "full disk: previous report unchanged" test "$(sum "$mnt/report.html")" = "$before"
	check "full disk: no temporary file left" no_temp "$mnt"
	"$GPUCAP" trace gen --scenario "$SRC/scenarios/chat-serving.yaml" --set horizon=1h -o "$mnt/gen.csv" 2>err.txt; rc=$?
	check "full disk: trace gen exits 1 (got $rc)" test $rc -eq 1
	check "full disk: trace gen leaves nothing" test ! -e "$mnt/gen.csv"
	check "full disk: trace gen leaves no temporary file" no_temp "$mnt"
	check "full disk: previous report still unchanged" test "$(sum "$mnt/report.html")" = "$before"
	umount "$mnt"
else
	echo "not root or no tmpfs: full-disk outputs not checked"
fi

# ---- standard output full or closed: exit 1 and one message ------------------------------------------
cat > sweep.yaml <<YAML
name: e2e-outputs
base: $SRC/scenarios/chat-serving.yaml
set: {horizon: 30m}
grid:
  fleet.0.count: [1, 2]
YAML
cat > steps.yaml <<'YAML'
name: steps
horizon: 1d
slo: {latency_s: 60, max_violation_rate: 0.01}
workload:
  arrivals: {kind: uniform, rate_per_s: 0.02}
  service: {kind: constant, mean_s: 45}
serving: {instance_type: g6.xlarge, slots_per_instance: 1, startup_s: 1}
fleet:
  - {option: reserved, count: 0, usd_per_h: 5.5, scope: zonal}
  - {option: on_demand, count: 1, max: 10, usd_per_h: 10}
YAML
"$GPUCAP" trace gen --scenario "$SRC/scenarios/chat-serving.yaml" --set horizon=10m -o small.csv 2>/dev/null
full() { # full WHAT COMMAND...: with stdout on /dev/full the command exits 1 with the message
	local what=$1 rc; shift
	"$@" >/dev/full 2>err.txt; rc=$?
	check "$what >/dev/full: exit 1 (got $rc)" test $rc -eq 1
	check "$what >/dev/full: message ($(cat err.txt))" grep -q "^gpucap: writing standard output: " err.txt
}
runs=$(sqlite3 r.sqlite 'select count(*) from runs')
full "run" "$GPUCAP" run --set horizon=30m --db r.sqlite
full "run --json" "$GPUCAP" run --set horizon=30m --json --db r.sqlite
check "run --json >/dev/full: says the run is stored" grep -q "the run is stored: run [0-9]* in r.sqlite" err.txt
check "run >/dev/full: both runs stored" test "$(sqlite3 r.sqlite 'select count(*) from runs')" = $((runs + 2))
full "recommend --json" "$GPUCAP" recommend steps.yaml --vary fleet.0.count=0..2 --replications 1 --json
full "sweep" "$GPUCAP" sweep sweep.yaml --db s.sqlite
full "merge" "$GPUCAP" merge m.sqlite r.sqlite
full "validate" "$GPUCAP" validate "$SRC/scenarios/chat-serving.yaml"
full "compare" "$GPUCAP" compare --db r.sqlite
full "catalog" "$GPUCAP" catalog
full "trace stats" "$GPUCAP" trace stats small.csv --time-column time_s --time-format seconds
full "schema" "$GPUCAP" schema
full "export --focus" "$GPUCAP" export --focus 1 --db r.sqlite
full "export --samples -o -" "$GPUCAP" export --samples 1 --db r.sqlite -o -
full "report -o -" "$GPUCAP" report --db r.sqlite -o -
full "--help" "$GPUCAP" --help
# (not under valgrind: it opens files of its own, and one takes the closed descriptor 1)
if [ "${GPUCAP_VALGRIND:-0}" != 1 ]; then
	"$GPUCAP" catalog >&- 2>err.txt; rc=$?
	check "catalog with stdout closed: exit 1 (got $rc)" test $rc -eq 1
	check "catalog with stdout closed: message" grep -q "^gpucap: writing standard output: Bad file descriptor" err.txt
fi
"$GPUCAP" run --set horizon=30m --quiet --db r.sqlite >&- 2>err.txt; rc=$?
check "run --quiet with stdout closed writes nothing there: exit 0 (got $rc: $(cat err.txt))" test $rc -eq 0

# ---- every line on stderr of a usage error starts with "gpucap" (one line, not a usage dump) ----------
only_gpucap_lines() { # only_gpucap_lines WHAT COMMAND...: exit 2, one line on stderr, starting "gpucap"
	local what=$1 rc; shift
	"$@" >/dev/null 2>err.txt; rc=$?
	check "$what: exit 2 (got $rc)" test $rc -eq 2
	check "$what: one line starting gpucap ($(head -3 err.txt))" \
		test "$(wc -l <err.txt)" -eq 1 -a "$(grep -c '^gpucap[ :]' err.txt)" -eq 1
}
only_gpucap_lines "no command" "$GPUCAP"
only_gpucap_lines "trace without a command" "$GPUCAP" trace
only_gpucap_lines "trace gen without -o" "$GPUCAP" trace gen --scenario "$SRC/scenarios/chat-serving.yaml"
only_gpucap_lines "trace gen --set without a value" "$GPUCAP" trace gen -o x.csv --scenario "$SRC/scenarios/chat-serving.yaml" --set
only_gpucap_lines "merge with one file" "$GPUCAP" merge m.sqlite
only_gpucap_lines "validate without a file" "$GPUCAP" validate
only_gpucap_lines "report without -o" "$GPUCAP" report --db r.sqlite
finish
