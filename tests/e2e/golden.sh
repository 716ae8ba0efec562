#!/usr/bin/env bash
# End-to-end: results are byte-identical to the golden digests in tests/golden/digests.txt, taken from the
# runs listed in tests/golden/runs.txt before the engine's speed work (issue 17). A speed-up must not change
# what a run computes; a change that is meant to change results regenerates the digests with --update
# (usage: golden.sh GPUCAP SRC [--update]) and says in its commit message which results changed and why.
# Under valgrind the test skips itself (77): the runs are long, and e2e_determinism covers the same code.
. "$(dirname "$0")/lib.sh"
[ -n "$VGDIR" ] && { echo "skipped under valgrind: the golden runs take minutes there"; exit 77; }
cd "$TMP"
update=${3:-}
runs=$SRC/tests/golden/runs.txt
digests=$SRC/tests/golden/digests.txt

# Everything a run produced except wall_s and sim_events: the number of events the engine ran is how the
# run was computed, not what it found (a lazily re-armed timeout changes it, and nothing else).
dump() {
	sqlite3 "$1" "select name, printf('%.17g', value) from metrics where name not in ('wall_s', 'sim_events')
		order by name;
		select * from samples order by t_s; select seq, t_s, kind, option, count, detail from events order by seq;"
}
out=()
while IFS='|' read -r file sets; do
	file=${file%% *}
	case $file in '' | '#'*) continue ;; esac
	args=()
	for kv in $sets; do args+=(--set "$kv"); done
	rm -f run.sqlite
	"$GPUCAP" run "$SRC/$file" --db run.sqlite --quiet "${args[@]}"; rc=$?
	check "$file runs (rc $rc)" test $rc -eq 0
	sum=$(dump run.sqlite | sha256sum | cut -c1-64)
	out+=("$sum $file")
	if [ -z "$update" ]; then
		want=$(awk -v f="$file" '$2 == f { print $1 }' "$digests")
		check "$file: results identical to the golden digest (got $sum, want ${want:-none})" test "$sum" = "$want"
	fi
done <"$runs"
if [ "$update" = --update ]; then
	printf '%s\n' "${out[@]}" >"$digests"
	echo "wrote $digests"
fi
finish
