#!/usr/bin/env bash
# End-to-end: gpucap installed like any program. `cmake --install` into a temporary prefix, the installed
# tree moved elsewhere, then the moved copy runs its default scenario and a shipped example that replays a
# trace, from an empty folder with a bare environment: the data must be found relative to the binary, never
# through a path compiled in from the source or build tree. The man page must document every command and
# option that --help lists. Arguments: the gpucap binary, the source tree, the build tree.
. "$(dirname "$0")/lib.sh"
BUILD=$3
cd "$TMP"

cmake --install "$BUILD" --prefix "$TMP/prefix" >install.log 2>&1
check "cmake --install succeeds" test $? -eq 0
for f in bin/gpucap share/gpucap/scenarios/chat-serving.yaml share/gpucap/scenarios/traces/AzureLLMInferenceTrace_code.csv \
	share/man/man1/gpucap.1 share/doc/gpucap/README.md share/doc/gpucap/NOTICE share/doc/gpucap/models/SOURCES.md \
	share/doc/gpucap/models/README.md share/doc/gpucap/models/ARCHITECTURE.md share/doc/gpucap/analysis/README.md \
	share/doc/gpucap/scenarios/README.md share/doc/gpucap/scenarios/REFERENCE.md share/doc/gpucap/tests/README.md; do
	check "installed $f" test -s "$TMP/prefix/$f"
done
mv "$TMP/prefix" "$TMP/moved"
P=$TMP/moved

# No path of the source or build tree is compiled into the program (debug information aside).
# (A sanitizer build embeds source file names for its reports: nothing to check there.)
strip -o stripped "$P/bin/gpucap"
if readelf -d stripped 2>/dev/null | grep -q "libasan\|libubsan"; then
	echo "sanitizer build: the compiled-in path check is skipped"
else
	check "no source-tree path in the binary" test "$(grep -c -F -- "$SRC" stripped)" = 0
	check "no build-tree path in the binary" test "$(grep -c -F -- "$BUILD" stripped)" = 0
fi

mkdir empty && cd empty
out=$(env -i PATH=/usr/bin:/bin "$P/bin/gpucap" run --set horizon=2h 2>&1); rc=$?
check "installed gpucap run exits 0 ($out)" test $rc -eq 0
check "installed run prints the summary" grep -q "^  cost " <<<"$out"
check "installed run names the default scenario" grep -q "chat-serving" <<<"$out"
check "results.sqlite written in the current folder" test -s results.sqlite
out=$(env -i PATH=/usr/bin:/bin "$P/bin/gpucap" run "$P/share/gpucap/scenarios/azure-code.yaml" --db b.sqlite 2>&1)
check "installed example with a trace runs ($out)" test $? -eq 0
check "the example replays its 8819 requests" grep -q "requests   8819 total" <<<"$out"
out=$(env -i PATH=/usr/bin:/bin "$P/bin/gpucap" run --help)
check "run --help names the installed default" grep -qF "$P/share/gpucap/scenarios/chat-serving.yaml" <<<"$(sed 's|/\./|/|g' <<<"$out")"

# Without its data the program says where it looked and exits 2.
mkdir -p "$TMP/bare/bin" && cp "$P/bin/gpucap" "$TMP/bare/bin/"
out=$(env -i PATH=/usr/bin:/bin "$TMP/bare/bin/gpucap" run 2>&1); rc=$?
check "missing data exits 2" test $rc -eq 2
check "missing data names the places tried ($out)" grep -qF "$TMP/bare/bin/../share/gpucap" <<<"$out"
out=$(env -i PATH=/usr/bin:/bin GPUCAP_DATA_DIR="$P/share/gpucap" "$TMP/bare/bin/gpucap" run --set horizon=1h 2>&1)
check "GPUCAP_DATA_DIR points at the data ($out)" test $? -eq 0

# The man page documents every command and every option the help texts list.
man=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$P/share/man/man1/gpucap.1")
helps=$("$GPUCAP" --help; for c in run sweep merge compare recommend report export validate catalog schema trace; do "$GPUCAP" $c --help; done
	"$GPUCAP" trace stats --help; "$GPUCAP" trace gen --help)
opts=$(grep -oE -- '--[a-z][a-z-]*' <<<"$helps" | sort -u)
check "help texts list options" test -n "$opts"
for o in $opts -o -h; do
	check "man page documents $o" grep -qF -- "$o" <<<"$man"
done
cmds=$(sed -n '/^commands:/,/^$/p' <<<"$("$GPUCAP" --help)" | grep -E '^  [a-z]' | awk '{print $1}' | sort -u)
check "help lists commands" test -n "$cmds"
for c in $cmds; do
	check "man page documents the $c command" grep -qE "^\.(B|BR|BI|TP) .*\b$c\b|^\.B gpucap $c" <<<"$man"
done
finish
