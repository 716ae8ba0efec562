#!/usr/bin/env bash
# End-to-end: the input and resource limits (models/README.md, "Limits"). --db "" and --db :memory: are refused (they
# keep nothing), as is a path that is not a regular file (/dev/null, a directory), without leaving
# /dev/null-journal; a database whose schema cannot be created (no byte may be written: ulimit -f 0, as on a
# full disk) is not left behind as an empty file; a run that would add more than 1 GiB to the database is
# refused before the database is opened (exit 2, the estimate in the message) unless --force, in gpucap run
# and in a sweep's points; --force is in both commands' help; a max_queue that could take more than the
# 2 GiB memory budget is warned.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

for db in "" ":memory:"; do
	"$GPUCAP" run --set horizon=10m --quiet --db "$db" 2>err.txt; rc=$?
	check "--db '$db' exits 2 ($rc)" test $rc -eq 2
	check "--db '$db' says it keeps nothing ($(cat err.txt))" grep -q "keeps nothing" err.txt
done
rm -f /dev/null-journal 2>/dev/null
"$GPUCAP" run --set horizon=10m --quiet --db /dev/null 2>err.txt; rc=$?
check "--db /dev/null exits 2 ($rc)" test $rc -eq 2
check "--db /dev/null says why ($(cat err.txt))" grep -q "/dev/null: not a regular file" err.txt
check "no /dev/null-journal left" test ! -e /dev/null-journal
mkdir adir
"$GPUCAP" run --set horizon=10m --quiet --db adir 2>err.txt; rc=$?
check "--db DIRECTORY exits 2 ($rc)" test $rc -eq 2

# Schema creation that cannot write a byte: exit 1, a message naming the file, and no file left.
# (stderr goes through a pipe: the file-size limit would stop it reaching a file.) Not under valgrind: the
# file-size limit stops valgrind writing its own log too (check_store covers the same through SQLite).
if [ -z "$VGDIR" ]; then
	err=$( (trap '' XFSZ; ulimit -f 0; "$GPUCAP" run --set horizon=10m --quiet --db new.sqlite) 2>&1 ); rc=$?
	check "failed creation exits 1 ($rc)" test $rc -eq 1
	check "failed creation names the file ($err)" grep -q "new.sqlite" <<<"$err"
	check "failed creation leaves no file" test ! -e new.sqlite
	check "failed creation leaves no journal" test ! -e new.sqlite-journal
fi

# 400 days sampled every second: 34,560,000 samples x 64 B + 9601 hours x 64 B + 38,406 charges x 80 B
# (on_demand and spot) = 2,215,526,944 B = 2.06 GiB > 1 GiB.
"$GPUCAP" run --set horizon=400d --set sample_period=1s --db big.sqlite 2>err.txt; rc=$?
check "2 GiB run exits 2 ($rc)" test $rc -eq 2
check "2 GiB run: the estimate ($(cat err.txt))" grep -q "about 2.06 GiB.*34560000 samples.*--force" err.txt
check "2 GiB run: no database created" test ! -e big.sqlite
"$GPUCAP" run --set horizon=10m --force --quiet --db small.sqlite; rc=$?
check "--force on a small run exits 0 ($rc)" test $rc -eq 0
check "run --help lists --force" grep -q -- "--force" <<<"$("$GPUCAP" run --help)"
check "sweep --help lists --force" grep -q -- "--force" <<<"$("$GPUCAP" sweep --help)"

# serving.max_queue 10^8: 10^8 x (120 + 3 x 8) B = 14,400,000,000 B = 13.41 GiB of queue > 2 GiB, said on
# stderr before the run and kept with the run's warnings.
out=$("$GPUCAP" run --set serving.max_queue=100000000 --set horizon=10m --json --db mem.sqlite 2>err.txt); rc=$?
check "max_queue 1e8 runs ($rc)" test $rc -eq 0
check "memory warning before the run ($(cat err.txt))" grep -q "^gpucap: warning: memory_budget: the run could use 13.41 GiB" err.txt
check "memory warning kept with the run" test "$(sqlite3 mem.sqlite "select count(*) from warnings where code = 'memory_budget'")" = 1
check "memory warning in --json" grep -q '"code": "memory_budget"' <<<"$out"

# A sweep whose one point is over the limit: that run fails with the estimate, the other is stored.
cat > big.yaml <<YAML
name: e2e-big
base: $SRC/scenarios/chat-serving.yaml
replications: 1
set: {sample_period: 1s}
grid:
  horizon: [10m, 400d]
YAML
out=$("$GPUCAP" sweep big.yaml --db sweep.sqlite); rc=$?
check "sweep with a point over the limit exits 1 ($rc)" test $rc -eq 1
check "that point failed with the estimate ($out)" grep -q "point 1 rep 0 failed: the run would add about 2.06 GiB" <<<"$out"
check "the other is ok" test "$(sqlite3 sweep.sqlite "select count(*) from runs where status = 'ok'")" = 1
out=$("$GPUCAP" sweep big.yaml --check); rc=$?
check "--check reports the point over the limit (exit $rc)" test $rc -eq 2
check "--check says why ($out)" grep -q "^point 1 (horizon=400d): the run would add about 2.06 GiB" <<<"$out"
out=$("$GPUCAP" sweep big.yaml --check --force); rc=$?
check "--check --force accepts it (exit $rc: $out)" test $rc -eq 0
finish
