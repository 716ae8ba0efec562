#!/usr/bin/env bash
# End-to-end: sweep files that used to hang or mix inputs. A list of 340,000 values (680 KB, under the
# 1 MiB limit) is parsed in well under a second (it took minutes when every item was fetched by index; this
# test's ctest TIMEOUT is the hang guard, no time is asserted); a key that names a setting already set or
# swept, however its index is written, is refused with both places; a NUL byte is placed at its line and
# column; a FIFO, a directory or a device given as the sweep file is refused at once.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

cp "$SRC/scenarios/chat-serving.yaml" base.yaml
# The two long inputs are read in the plain and sanitizer builds; under valgrind (GPUCAP_VALGRIND=1, CI's last
# pass) they are left out: they measure how the reader scales, not memory, and take minutes under memcheck.
if [ -z "$VGDIR" ]; then
# 340,000 values x 3 replications is over the 1,000,000 runs a sweep may have: the file must be read to
# its end before that is known, and nothing is run.
python3 -c '
print("name: big\nbase: base.yaml\nreplications: 3\ngrid:\n  horizon: [" + ",".join("1" for _ in range(340000)) + "]")
' >big.yaml
check "the big file is under 1 MiB" test "$(stat -c %s big.yaml)" -lt 1048576
out=$("$GPUCAP" sweep big.yaml --check 2>&1); rc=$?
check "340,000 values: read to the end, refused for its size (exit $rc: $out)" test $rc -eq 2
check "says why" grep -q "^gpucap: big.yaml:4:1: grid: more than 1000000 runs (points x replications); expected fewer" <<<"$out"

# The scenario reader walks its lists the same way: 50,000 jobs in jobs.list (each read by index, this took
# about 12 s; 100,000, the most, 50 s) validate in about a second.
mkdir jobs && cp -r "$SRC/scenarios/traces" jobs/
python3 - "$SRC/scenarios/jobs-finetune.yaml" >jobs/many.yaml <<'PY'
import sys
out, skip = [], None
for line in open(sys.argv[1]).read().split("\n"):
    ind = len(line) - len(line.lstrip())
    if skip is not None and (ind > skip or not line.strip()):
        continue                                  # the file's own jobs
    skip = None
    out.append(line)
    if line.strip() == "list:":
        skip = ind
        out += [" " * (ind + 2) + "- {instances: 1, work_instance_hours: 1, submit: %ds}" % k for k in range(50000)]
print("\n".join(out))
PY
check "50,000 jobs written" test "$(grep -c 'work_instance_hours: 1, submit' jobs/many.yaml)" -eq 50000
out=$("$GPUCAP" validate jobs/many.yaml 2>&1); rc=$?
check "a scenario of 50,000 jobs validates (exit $rc: $out)" test $rc -eq 0
else
	echo "the 340,000-value list and the 50,000 jobs: left out under valgrind"
fi

# fleet.00.count is fleet.0.count: both places named
printf 'name: dup\nbase: base.yaml\ngrid:\n  fleet.0.count: [1, 2]\n  fleet.00.count: [3]\n' >dup.yaml
out=$("$GPUCAP" sweep dup.yaml --check 2>&1); rc=$?
check "a setting swept twice: exit 2 (got $rc)" test $rc -eq 2
check "both places ($out)" grep -qF "gpucap: dup.yaml:5:3: grid.fleet.00.count: 'fleet.00.count' is swept twice (first as 'fleet.0.count' at dup.yaml:4:3); expected each key once" <<<"$out"
check "nothing stored" test ! -e results.sqlite
printf 'name: dup\nbase: base.yaml\nset: {fleet.-0.count: 2}\nzip:\n  fleet.0.count: [1, 2]\n' >dup2.yaml
out=$("$GPUCAP" sweep dup2.yaml --check 2>&1); rc=$?
check "set and swept as two spellings: exit 2 (got $rc: $out)" test $rc -eq 2
check "both places ($out)" grep -qF "(set as 'fleet.-0.count' at dup2.yaml:3:23)" <<<"$out"

# a NUL byte: its line and column (3:22)
printf 'name: nul\nbase: base.yaml\ngrid: {horizon: [1h, \0002h]}\n' >nul.yaml
out=$("$GPUCAP" sweep nul.yaml --check 2>&1); rc=$?
check "a NUL byte: exit 2 (got $rc)" test $rc -eq 2
check "at its line and column ($out)" grep -qF "gpucap: nul.yaml:3:22: a NUL byte; expected a UTF-8 text file" <<<"$out"

# not a regular file: refused at once (timeout is the hang guard: a hang exits 124)
mkfifo sweep.fifo
out=$(timeout 60 "$GPUCAP" sweep sweep.fifo 2>&1); rc=$?
check "a FIFO: exit 2 (got $rc: $out)" test $rc -eq 2
check "says so ($out)" grep -qF "gpucap: sweep.fifo: not a regular file (a FIFO); expected a sweep file" <<<"$out"
out=$(timeout 60 "$GPUCAP" sweep "$TMP" --check 2>&1); rc=$?
check "a directory: exit 2 (got $rc: $out)" test $rc -eq 2
check "says so ($out)" grep -qF "not a regular file (a directory); expected a sweep file" <<<"$out"
out=$(timeout 60 "$GPUCAP" sweep /dev/zero --check 2>&1); rc=$?
check "a device: exit 2 (got $rc: $out)" test $rc -eq 2
# a base that is a FIFO: refused when the points are checked, not waited on
printf 'name: fifo\nbase: sweep.fifo\ngrid: {horizon: [1h]}\n' >fifobase.yaml
out=$(timeout 60 "$GPUCAP" sweep fifobase.yaml --check 2>&1); rc=$?
check "a FIFO as the base: exit 2 (got $rc: $out)" test $rc -eq 2
check "says so ($out)" grep -qF "sweep.fifo: not a regular file (a FIFO); expected a scenario file" <<<"$out"
finish
