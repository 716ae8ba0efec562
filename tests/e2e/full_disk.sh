#!/usr/bin/env bash
# End-to-end: a full disk. On a 200 KiB tmpfs, a short run fits; a week-long run does not: it fails with
# exit 1 and a message naming the database, and the file is left byte for byte as it was (the earlier run
# intact, nothing of the failed one). Needs root to mount a tmpfs (CI runs as root); elsewhere the test
# says so and reports itself skipped (exit 77); tests/check_store.c checks the same through SQLite's page limit.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

mnt="$TMP/tiny"
mkdir -p "$mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=200k tmpfs "$mnt" 2>/dev/null; then
	trap 'umount "$mnt" 2>/dev/null; rm -rf "$TMP"' EXIT
	"$GPUCAP" run --set horizon=30m --quiet --db "$mnt/r.sqlite"
	check "a short run fits" test $? -eq 0
	before=$(sha256sum "$mnt/r.sqlite")
	# (under valgrind a day sampled every 5 s: more samples than the week's every 60 s, in a seventh of the
	# simulated time)
	long=(--set horizon=7d)
	[ -n "$VGDIR" ] && long=(--set horizon=1d --set sample_period=5s)
	"$GPUCAP" run "${long[@]}" --quiet --db "$mnt/r.sqlite" 2>err.txt; rc=$?
	check "full disk exits 1 (got $rc)" test $rc -eq 1
	check "message names the database ($(cat err.txt))" grep -q "r.sqlite: database or disk is full" err.txt
	check "database unchanged" test "$(sha256sum "$mnt/r.sqlite")" = "$before"
	check "earlier run intact" test "$(sqlite3 "$mnt/r.sqlite" 'select count(*) from runs')" = 1
	check "integrity ok" test "$(sqlite3 "$mnt/r.sqlite" 'pragma integrity_check')" = ok
	# Mid-run: a sample every second fills the disk while the event loop is still running (samples are
	# streamed in batches), so the run fails part-way with events still queued: one line, exit 1, no crash
	# (a sanitized build would report a use-after-free here), the file still unchanged.
	"$GPUCAP" run --set horizon=6h --set sample_period=1s --quiet --db "$mnt/r.sqlite" 2>err.txt; rc=$?
	check "mid-run full disk exits 1 (got $rc)" test $rc -eq 1
	check "mid-run: one line on stderr ($(cat err.txt))" test "$(wc -l <err.txt)" -eq 1
	check "mid-run: message names the database" grep -q "r.sqlite: database or disk is full" err.txt
	check "mid-run: database unchanged" test "$(sha256sum "$mnt/r.sqlite")" = "$before"
else
	# Nothing was checked: report a skip (exit 77, SKIP_RETURN_CODE in tests/CMakeLists.txt), not a pass.
	echo "not root or no tmpfs: full-disk test on a real file system skipped"
	exit 77
fi
finish
