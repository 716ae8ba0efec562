#!/usr/bin/env bash
# End-to-end: kill -9 a running sweep at several random moments (a seeded sequence of moments; the seed is
# printed, and GPUCAP_TEST_SEED replays it), resume it each time, and check that the final metrics rows
# equal those of the same sweep run without interruption. Every kill leaves only whole runs.
. "$(dirname "$0")/lib.sh"
# Under valgrind (GPUCAP_VALGRIND=1) this test is skipped: it kills gpucap with SIGKILL, and a killed process
# leaves no valgrind summary to judge; the sweep's workers run under valgrind in e2e_sweep.
[ -n "$VGDIR" ] && { echo "skipped under valgrind (GPUCAP_VALGRIND=1)"; exit 77; }
cd "$TMP"

seed=${GPUCAP_TEST_SEED:-$(date +%s)}
echo "seed $seed (replay: GPUCAP_TEST_SEED=$seed)"
RANDOM=$seed
metrics() {
	sqlite3 "$1" "select run_id, name, printf('%.17g', value) from metrics where name <> 'wall_s' order by 1, 2"
}
cat > kill.yaml <<YAML
name: e2e-kill
base: $SRC/scenarios/chat-serving.yaml
replications: 6
set: {horizon: 8h}
grid:
  autoscaling.target: [0.6, 0.7, 0.8]
  fleet.0.count: [2, 6]
YAML
total=36
"$GPUCAP" sweep kill.yaml --db ref.sqlite --jobs 2 --quiet >/dev/null || fail "the reference sweep"
stored() { sqlite3 -cmd ".timeout 5000" k.sqlite "select count(*) from runs where status = 'ok'" 2>/dev/null || echo 0; }
# Each kill comes at a random moment inside the sweep, whatever the machine's speed: wait until a random
# number of further runs (1 to a quarter of those left, leaving at least two to do) is stored, then a random 0-99 ms more.
kills=0
for i in 1 2 3 4 5; do
	have=$(stored)
	room=$((total - 2 - have))
	[ $room -ge 1 ] || break
	target=$((have + 1 + RANDOM % ((room + 3) / 4)))
	extra=$(printf '0.%03d' $((RANDOM % 100)))
	"$GPUCAP" sweep kill.yaml --db k.sqlite --jobs 2 --resume --quiet >/dev/null 2>&1 & pid=$!
	while kill -0 $pid 2>/dev/null && [ "$(stored)" -lt $target ]; do sleep 0.02; done
	sleep "$extra"
	if kill -9 $pid 2>/dev/null; then kills=$((kills + 1)); fi
	wait $pid 2>/dev/null
	sleep 0.1  # the workers die with the sweep (PR_SET_PDEATHSIG)
	check "kill $i (after $target runs + ${extra}s): no half run (every ok run has its metrics)" test \
		"$(sqlite3 -cmd ".timeout 5000" k.sqlite "select count(*) from runs r where status = 'ok' and (select count(*) from metrics m where m.run_id = r.run_id) = 0" 2>/dev/null || echo 0)" = 0
	echo "kill $i after $target runs + ${extra}s: $(stored) runs stored"
done
check "the sweep was killed mid-way at least three times ($kills)" test $kills -ge 3
out=$("$GPUCAP" sweep kill.yaml --db k.sqlite --jobs 2 --resume); rc=$?
check "the last resume: exit 0 ($rc)" test $rc -eq 0
check "$total ok runs" test "$(sqlite3 k.sqlite "select count(*) from runs where status = 'ok'")" = $total
check "no worker left running" test -z "$(pgrep -f "sweep kill.yaml --db k.sqlite" || true)"
check "killed and resumed == uninterrupted" test "$(metrics k.sqlite | sha256sum)" = "$(metrics ref.sqlite | sha256sum)"
finish
