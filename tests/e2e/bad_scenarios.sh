#!/usr/bin/env bash
# End-to-end: every malformed scenario in tests/data/bad (and an empty file, a missing file, bad
# overrides) exits 2 with a message that names the file and, where there is one, line and column (or,
# for "# expect-anywhere:", the trace file the scenario names); a database that already held runs is
# left byte for byte as it was.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

"$GPUCAP" run --set horizon=1h --quiet --db held.sqlite || { echo "cannot make the database"; exit 1; }
before=$(sha256sum held.sqlite)

expect_bad() { # expect_bad DESCRIPTION EXPECTED-SUBSTRING gpucap-args...
	local what=$1 want=$2; shift 2
	local err rc
	err=$("$GPUCAP" run "$@" --db held.sqlite 2>&1 >/dev/null); rc=$?
	check "$what: exit 2 (got $rc: $err)" test $rc -eq 2
	check "$what: message has '$want' (got: $err)" grep -qF -- "$want" <<<"$err"
	check "$what: database unchanged" test "$(sha256sum held.sqlite)" = "$before"
}

# Under valgrind, one file in three (every third in name order; 273 files took 400 s under memcheck): the
# same error paths run under AddressSanitizer's leak checker for every file in CI's sanitizer pass, and all
# of them in the plain pass.
n=0 i=0
for f in "$SRC"/tests/data/bad/*.yaml; do
	i=$((i + 1))
	[ -n "$VGDIR" ] && [ $((i % 3)) -ne 1 ] && continue
	want=$(head -n 1 "$f" | sed -n 's/^# expect: //p')
	anywhere=$(head -n 1 "$f" | sed -n 's/^# expect-anywhere: //p')  # an error inside a trace it names
	name=$(basename "$f")
	check "$name: has an expectation" test -n "$want$anywhere"
	case $want in
	"") expect_bad "$name" "$anywhere" "$f" ;;         # the message starts with the trace, not the file
	[0-9]*) expect_bad "$name" "$name:$want" "$f" ;;   # "LINE:COL: ..." follows the file name
	*) expect_bad "$name" "$name: $want" "$f" ;;       # no position (an empty document)
	esac
	n=$((n + 1))
done
check "at least 15 malformed scenarios ($n)" test $n -ge 15
expect_bad "empty file" "empty.yaml: empty" "$SRC/tests/data/bad_empty/empty.yaml"
expect_bad "missing file" "no-such-file.yaml" "$TMP/no-such-file.yaml"
expect_bad "bad --set value" "--set serving.slots_per_instance=0" \
	"$SRC/scenarios/chat-serving.yaml" --set serving.slots_per_instance=0
expect_bad "unknown --set key" "nonsense" "$SRC/scenarios/chat-serving.yaml" --set serving.nonsense=1
expect_bad "--set without =" "expected KEY.PATH=VALUE" "$SRC/scenarios/chat-serving.yaml" --set horizon
# two overrides of one setting, however its index is written: the later would replace the earlier unseen
expect_bad "one setting set twice" "--set fleet.00.count=3: fleet.0.count is already set by --set fleet.0.count=2; expected each key once" \
	"$SRC/scenarios/chat-serving.yaml" --set fleet.0.count=2 --set fleet.00.count=3
expect_bad "--seed and --set seed" "--set seed=4: seed is already set by --set seed=3" \
	"$SRC/scenarios/chat-serving.yaml" --set seed=3 --seed 4
# Not a regular file: refused at once, never read (a FIFO with no writer would wait forever; timeout is the
# hang guard, and a hang fails the exit code check with 124).
mkfifo scenario.fifo
expect_bad_now() { # as expect_bad, under a 60 s hang guard
	local what=$1 want=$2; shift 2
	local err rc
	err=$(timeout 60 "$GPUCAP" run "$@" --db held.sqlite 2>&1 >/dev/null); rc=$?
	check "$what: exit 2 (got $rc: $err)" test $rc -eq 2
	check "$what: message has '$want' (got: $err)" grep -qF -- "$want" <<<"$err"
	check "$what: database unchanged" test "$(sha256sum held.sqlite)" = "$before"
}
expect_bad_now "a FIFO" "gpucap: scenario.fifo: not a regular file (a FIFO); expected a scenario file" scenario.fifo
expect_bad_now "a directory" "gpucap: $SRC/tests/data: not a regular file (a directory); expected a scenario file" "$SRC/tests/data"
expect_bad_now "a device" "gpucap: /dev/zero: not a regular file (a device); expected a scenario file" /dev/zero
out=$(timeout 60 "$GPUCAP" validate scenario.fifo 2>&1); rc=$?
check "validate of a FIFO: exit 2 (got $rc: $out)" test $rc -eq 2
# A database that cannot be written (not SQLite) fails with exit 1 and is left alone.
echo "not a database" >junk.sqlite
"$GPUCAP" run --set horizon=1h --db junk.sqlite >/dev/null 2>err.txt; rc=$?
check "non-database --db exits 1 ($rc)" test $rc -eq 1
check "non-database message names it" grep -q "junk.sqlite" err.txt
check "non-database left alone" test "$(cat junk.sqlite)" = "not a database"
finish
