#!/usr/bin/env bash
# Mutation testing: is the suite strong enough to notice a planted bug? Each line of tests/mutants.txt
# names a test suite (a CTest name), a source file and a one-line sed replacement. The suite may be
# followed by a colon and the names of the tests in it that kill the mutant (comma-separated; Check suites
# that add their tests with test_add, tests/lib/testutil.h): only those run (GPUCAP_TEST_ONLY), so that a
# long suite is not run whole for each of its mutants. A killed mutant's line names the tests that failed,
# which is how such a list is written. The script copies the
# source tree to a scratch directory (the working tree is never touched), builds there once and runs every
# named suite unmutated (they must pass), then for each mutant: applies the replacement to the scratch copy
# (it must change exactly one line), rebuilds only the target the suite needs, runs the suite and expects it
# to FAIL (the mutant is "killed"), and puts the file back. A mutant that survives, does not apply or does
# not compile makes the script fail (exit 1); exit 0 means every mutant was killed.
#
# SUITE may also be several CTest names joined by "+" (as tests/mutagen.py writes them): the mutant is
# killed when any of them fails, tried in the order given. With MUTATE_STILLBORN_OK=1 (generated lists) a
# mutant that does not compile is counted "stillborn", neither killed nor a failure. MUTATE_TIMEOUT (seconds,
# default 600) bounds each suite's run with a mutant: a mutant that makes a suite run that long is killed.
#
# Usage: tests/mutate.sh [SOURCE_DIR [MUTANT_LIST]]   (defaults: this script's tree, tests/mutants.txt)
# Environment: MUTATE_ONLY=REGEX runs only the mutants whose line matches REGEX; MUTATE_WORKERS (below);
# MUTATE_JOBS sets a single worker's build parallelism (default 2); MUTATE_DIR=DIR uses DIR as the scratch
# directory (DIR/wK for worker K) and keeps it, so that a second run only rebuilds what changed.
set -u
SRC=$(cd "${1:-$(dirname "$0")/..}" && pwd)
LIST=$(cd "$(dirname "${2:-$SRC/tests/mutants.txt}")" && pwd)/$(basename "${2:-$SRC/tests/mutants.txt}")
JOBS=${MUTATE_JOBS:-2}

# Workers: MUTATE_WORKERS=N (default 2, as CI's two cores) runs N copies of this script at once, each with
# its own scratch tree, building with one job and taking a share of the suites (MUTATE_WORKER=K/N, K from 0);
# a mutant's rebuild and suite are mostly one process, so two workers take about half the time of one.
# Their reports are printed in turn, then the total; the exit status is 0 only if every worker's is.
if [ -z "${MUTATE_WORKER:-}" ] && [ "${MUTATE_WORKERS:-2}" -gt 1 ]; then
	W=${MUTATE_WORKERS:-2}
	logs=$(mktemp -d /tmp/gpucap-mutate-logs-XXXXXX)
	start=$(date +%s) pids=()
	for ((k = 0; k < W; k++)); do
		MUTATE_WORKER=$k/$W MUTATE_JOBS=1 MUTATE_DIR=${MUTATE_DIR:+$MUTATE_DIR/w$k} \
			bash "$0" "$SRC" "$LIST" >"$logs/$k.log" 2>&1 &
		pids+=($!)
	done
	status=0
	for ((k = 0; k < W; k++)); do wait "${pids[$k]}" || status=1; done
	killed=0 total=0
	for ((k = 0; k < W; k++)); do
		echo "mutate: worker $k of $W:"
		cat "$logs/$k.log"
		read -r a b <<<"$(sed -n 's/^mutate: \([0-9]*\) of \([0-9]*\) mutants killed.*/\1 \2/p' "$logs/$k.log")"
		killed=$((killed + ${a:-0})) total=$((total + ${b:-0}))
	done
	rm -rf "$logs"
	echo "mutate: $killed of $total mutants killed by $W workers in $(($(date +%s) - start)) s"
	[ "$status" -eq 0 ] && [ "$killed" -eq "$total" ] && [ "$total" -gt 0 ]
	exit
fi
WORKER=${MUTATE_WORKER:-0/1}
if [ -n "${MUTATE_DIR:-}" ]; then
	SCRATCH=$(mkdir -p "$MUTATE_DIR" && cd "$MUTATE_DIR" && pwd)
else
	SCRATCH=$(mktemp -d /tmp/gpucap-mutate-XXXXXX)
	trap 'rm -rf "$SCRATCH"' EXIT
fi
start=$(date +%s)

die() { echo "mutate: $*" >&2; exit 2; }

# The target that holds a suite: a Check suite is its own executable; the end-to-end tests run gpucap.
target_of() {
	case $1 in
	e2e_*) echo gpucap ;;
	*) echo "$1" ;;
	esac
}

# Read the list: "SUITE FILE SED-EXPRESSION..." (the expression is the rest of the line); # comments.
# A worker's share is whole suites (so that each suite is built and run unmutated once, not by every
# worker), balanced by an estimate of their cost: (mutants + 1, the unmutated run) x the suite's weight, 5
# for an end-to-end test (it rebuilds and runs gpucap, often many times), 3 for a Check suite given a longer
# CTest time limit in tests/CMakeLists.txt (a slow one), else 1; the costliest first, each to the worker
# with the least so far. (By mutant count alone one worker took 325 s and the other 630 s.)
selected() { # the list's mutant lines that MUTATE_ONLY selects
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in '' | '#'*) continue ;; esac
		[ -n "${MUTATE_ONLY:-}" ] && ! grep -Eq -- "$MUTATE_ONLY" <<<"$line" && continue
		echo "$line"
	done <"$LIST"
}
declare -A owner=()
load=()
for ((k = 0; k < ${WORKER#*/}; k++)); do load[k]=0; done
slow=" $(grep -oE 'gpucap_check_properties\(check_[a-z_]+ [0-9]+\)' "$SRC/tests/CMakeLists.txt" |
	sed 's/.*(\([a-z_]*\) .*/\1/' | tr '\n' ' ')"
weight() { # weight SUITE[+SUITE...]: the relative cost of one run of the suites (above), summed
	local w=0 part
	for part in ${1//+/ }; do
		case $part in e2e_*) w=$((w + 5)) ;; *) [[ $slow == *" $part "* ]] && w=$((w + 3)) || w=$((w + 1)) ;; esac
	done
	echo $w
}
while read -r count name; do
	best=0
	for ((k = 1; k < ${WORKER#*/}; k++)); do [ "${load[k]}" -lt "${load[best]}" ] && best=$k; done
	owner[$name]=$best load[best]=$((load[best] + count))
done < <(selected | awk '{ sub(/:.*/, "", $1); print $1 }' | sort | uniq -c |
	while read -r c name; do echo "$(((c + 1) * $(weight "$name"))) $name"; done | sort -k1,1nr -k2,2)
suites=() files=() exprs=() lines=() onlys=()
n=0
while IFS= read -r line || [ -n "$line" ]; do
	n=$((n + 1))
	case $line in '' | '#'*) continue ;; esac
	[ -n "${MUTATE_ONLY:-}" ] && ! grep -Eq -- "$MUTATE_ONLY" <<<"$line" && continue
	read -r suite file expr <<<"$line"
	[ "${owner[${suite%%:*}]:-0}" -eq "${WORKER%/*}" ] || continue  # this worker's share
	[ -n "$expr" ] || die "$LIST:$n: expected SUITE[:TEST,...] FILE SED-EXPRESSION"
	[ -f "$SRC/$file" ] || die "$LIST:$n: no file $file in $SRC"
	only=
	case $suite in *:*) only=${suite#*:} suite=${suite%%:*} ;; esac
	case $suite in e2e_* | *+*) [ -z "$only" ] || die "$LIST:$n: only a single Check suite can name tests" ;; esac
	suites+=("$suite") files+=("$file") exprs+=("$expr") lines+=("$n") onlys+=("$only")
done <"$LIST"
[ ${#suites[@]} -gt 0 ] || { [ "$WORKER" != 0/1 ] && echo "mutate: 0 of 0 mutants killed" && exit 0; die "$LIST: no mutants"; }

# The scratch copy: the tracked and untracked sources, without build directories or git metadata.
mkdir -p "$SCRATCH/src"
tar -C "$SRC" --exclude=./.git --exclude='./build*' -cf - . | tar -C "$SCRATCH/src" -xf - ||
	die "cannot copy $SRC"
# A kept scratch build may hold objects compiled from a mutant: make sure every mutated file is recompiled.
for f in "${files[@]}"; do touch "$SCRATCH/src/$f"; done
# Without link-time optimisation: a mutant's rebuild then compiles one ordinary object and relinks, where
# the LTO build compiles it twice over (fat objects) and re-optimises the whole of gpucap at every link. LTO
# changes no result (e2e_golden checks the LTO build), so a mutant is killed or not the same either way.
cmake -S "$SCRATCH/src" -B "$SCRATCH/build" -DGPUCAP_WERROR=ON -DGPUCAP_LTO=OFF >"$SCRATCH/configure.log" 2>&1 ||
	die "configure failed (see $SCRATCH/configure.log)"

build() { cmake --build "$SCRATCH/build" -j"$JOBS" --target "$@" >"$SCRATCH/build.log" 2>&1; }
run_suite() { # run_suite SUITE [TESTS]
	GPUCAP_TEST_ONLY=${2:-} ctest --test-dir "$SCRATCH/build" -R "^$1\$" --timeout "${MUTATE_TIMEOUT:-600}" --output-on-failure \
		>"$SCRATCH/test.log" 2>&1
}
# The Check tests that failed, from a suite's output ("file:line:F:tcase:test:0: message"), comma-separated.
failed_tests() { grep -Eo '^[^:]+:[0-9]+:[FE]:[^:]*:[^:]+:' "$SCRATCH/test.log" | cut -d: -f5 | sort -u | paste -sd,; }

# Build what the named suites need, and check that each passes before anything is planted in it.
mapfile -t unique < <(printf '%s\n' "${suites[@]}" | tr '+' '\n' | sort -u)
targets=$(for s in "${unique[@]}"; do target_of "$s"; done | sort -u)
# shellcheck disable=SC2086
build $targets || { cat "$SCRATCH/build.log" >&2; die "the unmutated tree does not build"; }
# (all at once, as many at a time as the build's parallelism: the baseline is a quarter of the script's time)
regex="^($(IFS='|'; echo "${unique[*]}"))\$"
ctest --test-dir "$SCRATCH/build" -R "$regex" -j"$JOBS" --timeout 600 >"$SCRATCH/test.log" 2>&1 ||
	{ cat "$SCRATCH/test.log" >&2; die "a suite fails without any mutant (above)"; }
ran=$(grep -Eo 'tests passed, 0 tests failed out of [0-9]+' "$SCRATCH/test.log" | grep -Eo '[0-9]+$')
[ "${ran:-0}" -eq ${#unique[@]} ] || die "${#unique[@]} suites named, ${ran:-0} found by CTest (a misspelt name?)"
echo "mutate: baseline built and passing in $(($(date +%s) - start)) s: ${#suites[@]} mutants, ${#unique[@]} suites"

killed=0 bad=0 stillborn=0
for i in "${!suites[@]}"; do
	suite=${suites[$i]} file=${files[$i]} expr=${exprs[$i]} only=${onlys[$i]}
	f="$SCRATCH/src/$file"
	where="$(basename "$LIST"):${lines[$i]}"
	cp -p "$f" "$SCRATCH/orig"
	if ! sed -i -e "$expr" "$f" 2>"$SCRATCH/sed.log"; then
		echo "ERROR    $where $file: bad sed expression: $(cat "$SCRATCH/sed.log")"
		bad=$((bad + 1))
	else
		changed=$(diff "$SCRATCH/orig" "$f" | grep -c '^<')
		if [ "$changed" -ne 1 ]; then
			echo "ERROR    $where $file: '$expr' changes $changed lines, not 1"
			bad=$((bad + 1))
		elif ! build $(for part in ${suite//+/ }; do target_of "$part"; done | sort -u); then
			if [ -n "${MUTATE_STILLBORN_OK:-}" ]; then
				echo "stillborn $where $file: the mutant does not compile: '$expr'"
				stillborn=$((stillborn + 1))
			else
				echo "ERROR    $where $file: the mutant does not compile: '$expr'"
				bad=$((bad + 1))
			fi
		else
			by=
			for part in ${suite//+/ }; do  # the first suite that fails kills it
				run_suite "$part" "$only" || { by=$part; break; }
			done
			if [ -z "$by" ]; then
				echo "SURVIVED $where $file '$expr': $suite${only:+ ($only)} still passes"
				bad=$((bad + 1))
			else
				tests=$(failed_tests)
				echo "killed   $where $file '$expr' by $by${tests:+ ($tests)}"
				killed=$((killed + 1))
			fi
		fi
	fi
	# Put the file back with a new time stamp, so that the next build recompiles it.
	cp "$SCRATCH/orig" "$f" && touch "$f"
done
note=
[ "$stillborn" -gt 0 ] && note=" ($stillborn more stillborn: they do not compile)"
echo "mutate: $killed of $((${#suites[@]} - stillborn)) mutants killed, $bad not, in $(($(date +%s) - start)) s$note"
[ "$bad" -eq 0 ]
