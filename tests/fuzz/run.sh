#!/bin/bash
# run.sh TARGET SECONDS [BUILD_DIR]: run the libFuzzer target fuzz_TARGET for SECONDS of wall-clock time on
# its corpus (tests/README.md, "Fuzzing"). BUILD_DIR (default build-fuzz in the source tree) is configured with
#     CC=clang cmake -S . -B build-fuzz -DGPUCAP_FUZZ=ON && cmake --build build-fuzz
# The committed seeds (tests/fuzz/corpus/TARGET) are read, never written: inputs that reach new code go to
# BUILD_DIR/fuzz-work/TARGET, kept between runs, and a crashing input to BUILD_DIR/fuzz-artifacts/TARGET/
# (minimise it with `fuzz_TARGET -minimize_crash=1 -runs=100000 FILE`, then commit it to crashes/TARGET/).
# The crash files are read as seeds too, so a fixed crash stays fixed. One process, one job: run it under
# `nice -n 19` on a shared machine. The log is BUILD_DIR/fuzz-logs/TARGET.log; the last lines printed are
# libFuzzer's final statistics (executions, peak memory) and the size of the working corpus.
# Exit: libFuzzer's status (0 when nothing was found), 2 on a usage error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then
	echo "usage: $0 TARGET SECONDS [BUILD_DIR]" >&2
	exit 2
fi
target=$1 seconds=$2 build=${3:-$here/../../build-fuzz}
exe=$build/tests/fuzz/fuzz_$target
if [ ! -x "$exe" ] || [ ! -d "$here/corpus/$target" ]; then
	echo "$0: no target '$target' (want $exe, built with -DGPUCAP_FUZZ=ON, and $here/corpus/$target)" >&2
	exit 2
fi
work=$build/fuzz-work/$target
mkdir -p "$work" "$build/fuzz-artifacts/$target" "$build/fuzz-logs"
log=$build/fuzz-logs/$target.log
# -timeout: an input that takes 10 s is a hang; -rss_limit_mb: a reader that grows past 2 GB is a finding.
# -max_len: 8 KiB, longer than any seed; 70000 bytes for the request traces, to reach their 64 KiB line limit.
max_len=8192
[ "$target" = tracefile ] && max_len=70000
# The scenario dictionary (keys and choices) for the targets that read scenario keys.
dict=()
case $target in scenario|set|sweepfile) dict=(-dict="$here/scenario.dict") ;; esac
# libfyaml's own known leak is suppressed (lsan.supp says which and why); any other leak is a finding.
export LSAN_OPTIONS="suppressions=$here/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
"$exe" "${dict[@]}" "$work" "$here/corpus/$target" "$here/crashes/$target" -max_total_time="$seconds" -timeout=10 \
	-rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$target/" \
	>"$log" 2>&1
rc=$?
elapsed=$SECONDS
grep -E '^(#[0-9]+ +DONE|Done|stat::|INFO: seed corpus|==[0-9]+==ERROR|SUMMARY)' "$log" | tail -n 12
echo "run.sh: $target: ${elapsed}s of ${seconds}s, exit $rc, working corpus $(ls "$work" | wc -l) files, log $log"
exit $rc
