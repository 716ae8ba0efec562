#!/usr/bin/env bash
# End-to-end: a sweep on a full disk. On a 400 KiB tmpfs, a sweep of 18 twelve-hour runs fills the disk after
# a few: the sweep stops (exit 1) with one message naming the database and --resume, no worker goes on
# trying run after run (fewer runs reported than the sweep has), and the runs stored before are whole.
# Remounted bigger, `--resume` completes it, with the rows a sweep on a roomy disk writes. Needs root to
# mount a tmpfs (CI runs as root); elsewhere the test reports itself skipped (exit 77).
. "$(dirname "$0")/lib.sh"
# Under valgrind (GPUCAP_VALGRIND=1) this test is skipped, to keep CI's time (18 twelve-hour runs, twice): the
# store's full-disk paths run under valgrind in e2e_full_disk.
[ -n "$VGDIR" ] && { echo "skipped under valgrind (GPUCAP_VALGRIND=1)"; exit 77; }
cd "$TMP"

summary() { # summary DB: run_summary without the wall-clock columns, in run order
	local cols
	cols=$(sqlite3 "$1" "select group_concat('\"' || name || '\"') from pragma_table_info('run_summary') \
		where name not in ('started_at', 'wall_s')")
	sqlite3 "$1" "select $cols from run_summary order by run_id"
}
mnt="$TMP/tiny"
mkdir -p "$mnt"
if ! { [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=400k tmpfs "$mnt" 2>/dev/null; }; then
	echo "not root or no tmpfs: full-disk sweep test skipped"
	exit 77
fi
trap 'umount "$mnt" 2>/dev/null; rm -rf "$TMP"' EXIT
cat > full.yaml <<YAML
name: full
base: $SRC/scenarios/chat-serving.yaml
replications: 2
set: {horizon: 12h}
grid:
  autoscaling.target: [0.6, 0.7, 0.8]
  fleet.0.count: {from: 0, to: 8, step: 4}
YAML
"$GPUCAP" sweep full.yaml --db "$mnt/r.sqlite" --jobs 2 >out.txt 2>err.txt; rc=$?
check "full disk: exit 1 ($rc)" test $rc -eq 1
check "full disk: one line on stderr ($(cat err.txt))" test "$(wc -l < err.txt)" -eq 1
check "full disk: it names the database and --resume" \
	grep -q "^gpucap: .*r.sqlite: database or disk is full (while .*); the sweep stopped (.*--resume$" err.txt
check "full disk: stopped, not tried run after run ($(grep -c '^run ' out.txt) reported)" test "$(grep -c '^run ' out.txt)" -lt 18
stored=$(sqlite3 "$mnt/r.sqlite" "select count(*) from runs where status = 'ok'")
check "full disk: some runs stored ($stored)" test "$stored" -ge 1 -a "$stored" -lt 18
check "full disk: integrity ok" test "$(sqlite3 "$mnt/r.sqlite" 'pragma integrity_check')" = ok
mount -o remount,size=16m "$mnt"
"$GPUCAP" sweep full.yaml --db "$mnt/r.sqlite" --jobs 2 --resume --quiet >out.txt 2>err.txt; rc=$?
check "resumed: exit 0 ($rc: $(cat err.txt))" test $rc -eq 0
check "resumed: the rest run ($(cat out.txt))" grep -q "18 runs: $((18 - stored)) ok, 0 failed, $stored skipped" out.txt
"$GPUCAP" sweep full.yaml --db roomy.sqlite --jobs 2 --quiet >/dev/null
check "resumed: the rows a sweep on a roomy disk writes" test "$(summary "$mnt/r.sqlite")" = "$(summary roomy.sqlite)"
finish
