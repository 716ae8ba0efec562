#!/usr/bin/env bash
# End-to-end: kill -9 a running sweep at several random moments (a seeded sequence of delays; the seed is
# printed, and GPUCAP_TEST_SEED replays it), resume it each time, and check that the final metrics rows
# equal those of the same sweep run without interruption. Every kill leaves only whole runs.
. "$(dirname "$0")/lib.sh"
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
replications: 2
set: {horizon: 8h}
grid:
  autoscaling.target: [0.6, 0.7, 0.8]
  fleet.0.count: [2, 6]
YAML
"$GPUCAP" sweep kill.yaml --db ref.sqlite --jobs 2 --quiet >/dev/null || fail "the reference sweep"
kills=0
for i in 1 2 3 4 5; do
	# a delay of 0.05 .. 1.2 s
	delay=$(printf '0.%02d' $((5 + RANDOM % 95))); [ $((RANDOM % 4)) -eq 0 ] && delay=1.2
	"$GPUCAP" sweep kill.yaml --db k.sqlite --jobs 2 --resume --quiet >/dev/null 2>&1 & pid=$!
	sleep "$delay"
	if kill -9 $pid 2>/dev/null; then kills=$((kills + 1)); fi
	wait $pid 2>/dev/null
	sleep 0.1  # the workers die with the sweep (PR_SET_PDEATHSIG)
	check "kill $i after ${delay}s: no half run (every ok run has its metrics)" test \
		"$(sqlite3 k.sqlite "select count(*) from runs r where status = 'ok' and (select count(*) from metrics m where m.run_id = r.run_id) = 0" 2>/dev/null || echo 0)" = 0
	echo "kill $i after ${delay}s: $(sqlite3 k.sqlite "select count(*) from runs" 2>/dev/null || echo 0) runs stored"
done
check "the sweep was killed at least twice ($kills)" test $kills -ge 2
out=$("$GPUCAP" sweep kill.yaml --db k.sqlite --jobs 2 --resume); rc=$?
check "the last resume: exit 0 ($rc)" test $rc -eq 0
check "12 ok runs" test "$(sqlite3 k.sqlite "select count(*) from runs where status = 'ok'")" = 12
check "no worker left running" test -z "$(pgrep -f "sweep kill.yaml --db k.sqlite" || true)"
check "killed and resumed == uninterrupted" test "$(metrics k.sqlite | sha256sum)" = "$(metrics ref.sqlite | sha256sum)"
finish
