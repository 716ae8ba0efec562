#!/bin/bash
# End-to-end: locks, hot journals and refused files, for every command that reads a results database
# (analysis/store_read.h, store_wait.h; issue 29).
#  - a lock held by another process for 2 s (python's sqlite3 inside BEGIN EXCLUSIVE) is waited for by
#    export, compare, report, merge (its input and its output) and run, which then succeed;
#  - with GPUCAP_BUSY_TIMEOUT_MS=200 a lock held longer is exit 1, the message naming the file and the wait;
#    on a terminal the wait is announced ("gpucap: waiting for FILE");
#  - a hot journal left by a writer killed inside a transaction is rolled back by the next reader: compare,
#    export, report and merge succeed with the data as it was before that transaction; when the folder is
#    read-only (root: a read-only bind mount), the message says what to run;
#  - a directory, a file of a newer schema version and a damaged merge input are refused with messages that
#    name them (the merge output unchanged).
. "$(dirname "$0")/lib.sh" "$@"
cd "$TMP" || exit 1

cat >tiny.yaml <<YAML
name: tiny
base: $SRC/scenarios/chat-serving.yaml
replications: 2
set: {horizon: 10m}
grid:
  autoscaling.target: [0.6, 0.8]
YAML
"$GPUCAP" sweep tiny.yaml --db a.sqlite --quiet >/dev/null
check "a.sqlite has the sweep's 4 runs" test "$(sqlite3 a.sqlite 'select count(*) from runs')" = 4
"$GPUCAP" run "$SRC/scenarios/chat-serving.yaml" --set horizon=10m --db b.sqlite >/dev/null

cat >hold.py <<'PY'
# hold.py FILE SECONDS: hold an exclusive lock on FILE (no reader or writer gets in), then commit
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
open(sys.argv[1] + ".held", "w").close()
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
PY
hold() { # hold FILE SECONDS: in the background, once the lock is held
	rm -f "$1.held"
	python3 hold.py "$1" "$2" &
	HOLDER=$!
	for _ in $(seq 100); do [ -e "$1.held" ] && return; sleep 0.05; done
}

# every reader (and merge's output) waits for a lock held 2 s, then succeeds
waits() { # waits FILE WHAT ARGS...
	local file=$1 what=$2; shift 2
	hold "$file" 2
	"$GPUCAP" "$@" >out.txt 2>err.txt; local rc=$?
	wait "$HOLDER"
	check "$what waits for the lock, then exits 0 (got $rc: $(cat err.txt))" test $rc -eq 0
}
waits a.sqlite "export --focus" export --focus 1 --db a.sqlite -o bill.csv
waits a.sqlite "export --samples" export --samples 1 --db a.sqlite -o samples.csv
waits a.sqlite "compare" compare --db a.sqlite tiny
waits a.sqlite "report" report --db a.sqlite tiny -o report.html
waits a.sqlite "merge (input)" merge out.sqlite a.sqlite
waits out.sqlite "merge (output)" merge out.sqlite b.sqlite
waits a.sqlite "run --db" run "$SRC/scenarios/chat-serving.yaml" --set horizon=10m --set seed=7 --db a.sqlite
check "merge copied a.sqlite's and b.sqlite's runs" test "$(sqlite3 out.sqlite 'select count(*) from runs')" = 5

# a short wait (GPUCAP_BUSY_TIMEOUT_MS) runs out: exit 1, the file and the wait named (the lock is held until
# the command has ended, however slow it is: under valgrind, say)
release() { kill "$HOLDER"; wait "$HOLDER" 2>/dev/null; }
times_out() { # times_out FILE WHAT ARGS...
	local file=$1 what=$2; shift 2
	hold "$file" 600
	GPUCAP_BUSY_TIMEOUT_MS=200 "$GPUCAP" "$@" >/dev/null 2>err.txt; local rc=$?
	release
	check "$what: a lock held too long is exit 1 (got $rc)" test $rc -eq 1
	check "$what: the message names $file and the wait ($(cat err.txt))" \
		grep -qE "^gpucap: .*$file.*database is locked.*waited 0\.[0-9] s for another process's lock" err.txt
}
times_out a.sqlite "compare" compare --db a.sqlite tiny
times_out a.sqlite "report" report --db a.sqlite tiny -o report.html
times_out a.sqlite "export" export --focus 1 --db a.sqlite -o bill.csv
times_out a.sqlite "merge (input)" merge out.sqlite a.sqlite
times_out out.sqlite "merge (output)" merge out.sqlite a.sqlite
times_out a.sqlite "run --db" run "$SRC/scenarios/chat-serving.yaml" --set horizon=10m --db a.sqlite

# on a terminal (script(1) gives one) a wait longer than a second says what it waits for
if command -v script >/dev/null; then
	hold a.sqlite 600
	GPUCAP_BUSY_TIMEOUT_MS=2500 script -qec "$GPUCAP compare --db a.sqlite tiny >/dev/null" /dev/null >tty.txt 2>&1
	release
	check "on a terminal the wait is announced ($(tr -d '\r' <tty.txt))" \
		grep -q "gpucap: waiting for a.sqlite: another gpucap process holds its lock" tty.txt
fi
"$GPUCAP" compare --db a.sqlite tiny >/dev/null 2>err.txt
check "without a lock nothing is said" test ! -s err.txt

# a hot journal: a writer killed inside a transaction that changed every metric and deleted the samples
cat >kill.py <<'PY'
# kill.py FILE: change FILE inside a transaction with a tiny page cache (the journal is written), then die
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA cache_size = 1")
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE metrics SET value = -1")
db.execute("DELETE FROM samples")
os.kill(os.getpid(), 9)
PY
metrics=$(sqlite3 a.sqlite 'select total(value) from metrics')
samples=$(sqlite3 a.sqlite 'select count(*) from samples')
hot() { # hot NAME: a copy of a.sqlite as NAME with a hot journal beside it
	cp a.sqlite "$1"
	(python3 kill.py "$1"; true) 2>/dev/null  # the subshell, not this shell, says "Killed"
	[ -s "$1-journal" ]
}
check "a killed writer leaves a hot journal" hot hot.sqlite
"$GPUCAP" compare --db hot.sqlite tiny >hot.txt 2>err.txt; rc=$?
check "compare after a killed writer exits 0 (got $rc: $(cat err.txt))" test $rc -eq 0
check "compare reads the data as before the killed transaction" cmp -s <(sed 1d hot.txt) \
	<("$GPUCAP" compare --db a.sqlite tiny | sed 1d)
check "the journal is rolled back: the metrics and samples as before" \
	test "$(sqlite3 hot.sqlite 'select total(value) from metrics; select count(*) from samples')" = "$metrics
$samples"
hot hot2.sqlite
"$GPUCAP" export --samples 1 --db hot2.sqlite -o hot.csv 2>err.txt; rc=$?
check "export after a killed writer exits 0 (got $rc: $(cat err.txt))" test $rc -eq 0
hot hot3.sqlite
"$GPUCAP" report --db hot3.sqlite tiny -o hot.html 2>err.txt; rc=$?
check "report after a killed writer exits 0 (got $rc: $(cat err.txt))" test $rc -eq 0
hot shard.sqlite
"$GPUCAP" merge --quiet merged.sqlite shard.sqlite 2>err.txt; rc=$?
check "merge of a killed shard exits 0 (got $rc: $(cat err.txt))" test $rc -eq 0
check "the killed shard's runs merged as before its killed transaction" \
	test "$(sqlite3 merged.sqlite 'select total(value) from metrics; select count(*) from samples')" = "$metrics
$samples"
# (as root, a read-only bind mount of the folder; left out where mounts are not allowed)
mkdir ro && hot ro/hot.sqlite
if [ "$(id -u)" = 0 ] && mount --bind ro ro 2>/dev/null; then
	if mount -o remount,bind,ro ro 2>/dev/null; then
		"$GPUCAP" compare --db ro/hot.sqlite tiny >/dev/null 2>err.txt; rc=$?
		umount ro
		check "a hot journal in a read-only folder: exit 1 (got $rc)" test $rc -eq 1
		check "... and the message says what to run ($(cat err.txt))" grep -q \
			"ro/hot.sqlite-journal, left by a writer that was killed.*as a user who can write ro/hot.sqlite and the folder ro" err.txt
	else
		umount ro
	fi
fi

# a directory as the database
mkdir dir.sqlite
for cmd in "compare --db dir.sqlite" "report --db dir.sqlite -o r.html" "export --focus 1 --db dir.sqlite" \
	"export --samples 1 --db dir.sqlite" "merge out.sqlite dir.sqlite"; do
	"$GPUCAP" $cmd >/dev/null 2>err.txt; rc=$?
	check "$cmd: exit 2 (got $rc)" test $rc -eq 2
	check "$cmd: named as a directory ($(cat err.txt))" \
		grep -qx "gpucap: dir.sqlite: is a directory, not a results database" err.txt
done

# a file of a newer schema version: refused by every reader, both versions named
cp a.sqlite new.sqlite
sqlite3 new.sqlite 'pragma user_version = 99'
before=$(sha256sum <out.sqlite)
for cmd in "compare --db new.sqlite" "report --db new.sqlite -o r.html" "export --focus 1 --db new.sqlite" \
	"export --samples 1 --db new.sqlite" "merge out.sqlite new.sqlite"; do
	"$GPUCAP" $cmd >/dev/null 2>err.txt; rc=$?
	check "$cmd: exit 2 (got $rc)" test $rc -eq 2
	check "$cmd: refused, both versions named ($(cat err.txt))" \
		grep -qE "^gpucap: new.sqlite: results database schema version 99 is newer than this gpucap knows \([0-9]+\)" err.txt
done
check "merge left its output unchanged" test "$(sha256sum <out.sqlite)" = "$before"

# a damaged merge input (its metrics table's root page overwritten) is named, the output unchanged
cp a.sqlite bad.sqlite
python3 - bad.sqlite "$(sqlite3 a.sqlite "select rootpage from sqlite_master where name = 'metrics'")" \
	"$(sqlite3 a.sqlite 'pragma page_size')" <<'PY'
import sys
page, size = int(sys.argv[2]), int(sys.argv[3])
with open(sys.argv[1], "r+b") as f:
    f.seek((page - 1) * size)
    f.write(b"\xff" * size)
PY
"$GPUCAP" merge out.sqlite bad.sqlite 2>err.txt; rc=$?
check "a damaged input: non-zero exit (got $rc)" test $rc -ne 0
check "... named as damaged ($(cat err.txt))" grep -q "^gpucap: bad.sqlite: .*damaged" err.txt
check "... not the output" bash -c '! grep -q "out.sqlite:" err.txt'
check "... the output unchanged" test "$(sha256sum <out.sqlite)" = "$before"
finish
