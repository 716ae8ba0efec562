#!/usr/bin/env bash
# End-to-end: the example sweep as a real Slurm array job. A one-node cluster (slurm_cluster.sh) runs the
# shipped batch script scenarios/sweeps/slurm-array.sh as `sbatch --array=1-3 --wait`; each task finds its
# shard (K/3) from Slurm's environment alone. The three shard files are merged with `gpucap merge`, and the
# result must hold the same runs with the same metrics rows as the same sweep run in one process.
# Needs root and Debian's slurmctld, slurmd, slurm-client and munge (.ci/run installs them); without them
# the test is skipped (exit 77), never passed.
. "$(dirname "$0")/lib.sh"
# Under valgrind (GPUCAP_VALGRIND=1) this test is skipped, to keep CI's time: its Slurm tasks under valgrind
# take minutes, and the sweep code they run is the code e2e_sweep runs under valgrind.
[ -n "$VGDIR" ] && { echo "skipped under valgrind (GPUCAP_VALGRIND=1)"; exit 77; }
. "$(dirname "$0")/slurm_cluster.sh"
trap 'slurm_stop; rm -rf "$TMP"' EXIT
if ! slurm_available; then
	echo "skipped: needs root and slurmctld, slurmd, sbatch, munged"
	exit 77
fi
SWEEP=$SRC/scenarios/sweeps/target-vs-reserved.yaml
cd "$TMP"
slurm_start
check "the Slurm node is idle" test $? -eq 0

GPUCAP=$GPUCAP SWEEP=$SWEEP SHARD_PREFIX=$TMP/tvr sbatch --array=1-3 --wait --export=ALL \
	-o "$TMP/task-%a.out" "$SRC/scenarios/sweeps/slurm-array.sh" >sbatch.out 2>&1
rc=$?
check "sbatch --array=1-3 --wait succeeds ($(cat sbatch.out task-*.out 2>/dev/null | tr '\n' ' '))" test $rc -eq 0
for k in 1 2 3; do
	check "shard $k written" test -s "$TMP/tvr-shard-$k.sqlite"
	# each task ran only its own runs: indices i with i mod 3 = k - 1
	other=$(sqlite3 "$TMP/tvr-shard-$k.sqlite" "select count(*) from runs
		where (run_id - (select run_id_base from sweeps)) % 3 <> $k - 1")
	check "shard $k holds only its own runs" test "$other" = 0
done
"$GPUCAP" merge merged.sqlite tvr-shard-1.sqlite tvr-shard-2.sqlite tvr-shard-3.sqlite >/dev/null 2>merge.err
check "merge succeeds ($(cat merge.err))" test $? -eq 0
"$GPUCAP" sweep "$SWEEP" --db single.sqlite --quiet >/dev/null 2>&1
check "the single-process sweep succeeds" test $? -eq 0
q="select run_id, name, value from metrics where name <> 'wall_s' order by run_id, name"  # wall_s: a timing
check "60 runs merged" test "$(sqlite3 merged.sqlite "select count(*) from runs where status = 'ok'")" = 60
check "merged shards have the single-process metrics rows" \
	test "$(sqlite3 merged.sqlite "$q" | md5sum)" = "$(sqlite3 single.sqlite "$q" | md5sum)"
check "metrics rows are there" test "$(sqlite3 merged.sqlite "select count(*) from metrics")" -gt 0
finish
