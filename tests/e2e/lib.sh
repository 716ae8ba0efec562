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
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
}
