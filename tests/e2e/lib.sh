# Shared helpers for the end-to-end tests: sourced with the gpucap binary in $1 and the source tree in $2.
set -u
GPUCAP=$1
SRC=$2
TMP=$(mktemp -d /tmp/gpucap-e2e-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
FAILS=0
PASSES=0

pass() { PASSES=$((PASSES + 1)); }
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
	local what=$1; shift
	if "$@"; then pass; else fail "$what"; fi
}
finish() {
	valgrind_verdict
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
}

# GPUCAP_VALGRIND=1: every "$GPUCAP" command of the test runs under valgrind memcheck, through a wrapper
# that takes its place. Each process writes its own log; a process with an error (an invalid read or write,
# a use of an uninitialised value, a definite leak of gpucap's own; third-party leaks are suppressed in
# tests/valgrind.supp) exits 99, and finish() fails the test and prints that log whatever the exit code the
# test expected. A process killed on purpose (sweep_kill.sh) writes no summary and is not judged.
# Valgrind runs a program 20 to 50 times slower, so it also sets GPUCAP_E2E_HORIZON (2h unless given):
# the tests that run whole shipped scenarios (scenarios.sh) run them to that horizon instead of their own.
# GPUCAP_PLAIN is the binary itself, never wrapped: for a test's fixtures made by another command than the
# one it checks (a sweep of 60 runs that compare.sh reads; sweep.sh's run of the shipped example).
VGDIR=
GPUCAP_PLAIN=$GPUCAP
if [ "${GPUCAP_VALGRIND:-0}" = 1 ]; then
	command -v valgrind >/dev/null || { echo "GPUCAP_VALGRIND=1 but valgrind is not installed" >&2; exit 1; }
	VGDIR=$(mktemp -d /tmp/gpucap-vg-XXXXXX)
	trap 'rm -rf "$TMP" "$VGDIR"' EXIT
	cat >"$VGDIR/gpucap" <<EOF
#!/bin/sh
exec valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --num-callers=30 \\
	--suppressions="$SRC/tests/valgrind.supp" --log-file="$VGDIR/log.%p" "$GPUCAP" "\$@"
EOF
	chmod +x "$VGDIR/gpucap"
	GPUCAP=$VGDIR/gpucap
	export GPUCAP_E2E_HORIZON=${GPUCAP_E2E_HORIZON:-2h}
fi
valgrind_verdict() { # fails the test once for each valgrind log that reports an error
	[ -n "$VGDIR" ] || return 0
	local log runs=0
	for log in "$VGDIR"/log.*; do
		[ -e "$log" ] || continue
		runs=$((runs + 1))
		if grep -q 'ERROR SUMMARY: [1-9]' "$log"; then
			cat "$log" >&2
			fail "valgrind found errors (log above)"
		fi
	done
	echo "valgrind: $runs gpucap processes checked"
}
