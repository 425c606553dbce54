#!/usr/bin/env bash
# Fuzzing with libFuzzer and AddressSanitizer (docs/reliability.md).
#
#   bash scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags...]   fuzz one target (default 180 s)
#   bash scripts/fuzz.sh all [SECONDS]                           fuzz every target in turn
#   bash scripts/fuzz.sh replay                                  replay the saved inputs (no libFuzzer)
#
# TARGET: arguments | titles | c-api | journal. Builds in its own scratch path (.build-fuzz). The working
# corpus grows in .build-fuzz/corpus/TARGET, starting from Tests/FuzzSeeds/TARGET and
# Tests/FuzzRegressions/TARGET; a crash is saved in .build-fuzz/artifacts/TARGET/ and the run
# fails. Copy it into Tests/FuzzRegressions/TARGET/ (with a name saying what it found) once the
# bug is fixed: the test suite replays every file there.
# (The fuzz-* programs are Tests/fuzz-*; their logic is the target UndoFuzzTargets, Tests/UndoFuzzTargets.)
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(arguments titles c-api journal)
scratch=.build-fuzz

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

[[ $# -ge 1 ]] || usage
target=$1
shift

if [[ $target == replay ]]; then
    # The fuzz-* programs without libFuzzer replay files; the test suite does the same
    # (FuzzRegressionTests), this is for a quick look at one target's inputs.
    swift build --product fuzz-arguments >/dev/null
    swift build --product fuzz-titles >/dev/null
    swift build --product fuzz-c-api >/dev/null
    swift build --product fuzz-journal >/dev/null
    bin=$(swift build --show-bin-path)
    status=0
    for t in "${targets[@]}"; do
        inputs=(Tests/FuzzSeeds/"$t")
        [[ -d Tests/FuzzRegressions/$t ]] && inputs+=(Tests/FuzzRegressions/"$t")
        "$bin/fuzz-$t" "${inputs[@]}" || status=1
    done
    exit $status
fi

if [[ $target == all ]]; then
    seconds=${1:-180}
    for t in "${targets[@]}"; do bash "$0" "$t" "$seconds"; done
    exit 0
fi

[[ " ${targets[*]} " == *" $target "* ]] || usage
seconds=${1:-180}
[[ $# -ge 1 ]] && shift

bash scripts/deps.sh >/dev/null
# -sanitize=fuzzer,address instruments the Swift code; --sanitize=fuzzer the C code and the
# link. UNDO_LIBFUZZER makes fuzz-* export LLVMFuzzerTestOneInput instead of a replaying main.
# Optimized (-c release): the same C API inputs ran about 6 times as fast as in a debug build
# (docs/reliability.md gives the rate). The checks of a debug build stay in:
# -assert-config Debug keeps assert() and -DDEBUG the `#if DEBUG` invariant checks.
flags=(-c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DUNDO_LIBFUZZER
       -Xswiftc -assert-config -Xswiftc Debug -Xswiftc -DDEBUG)
build_scratch=$scratch
if [[ $target == c-api ]]; then
    # The C API target's Swift code counts edges without tracing comparisons (-sanitize=fuzzer
    # alone adds trace-cmp): its inputs choose calls by small byte values, and the hooks on
    # every integer compare were 12% of its time. Measured, 60 s from the seeds, three runs
    # each: 642 to 719 inputs per CPU-second against 468 to 619, as many edges and features
    # (docs/reliability.md). Its own build, so the other targets keep theirs.
    build_scratch=$scratch/c-api-build
    flags+=(-Xswiftc -sanitize-coverage=edge,pc-table,inline-8bit-counters)
fi
flags+=(--scratch-path "$build_scratch")
mkdir -p "$scratch"
build() {
    local build_log=$scratch/build-$1.log
    if ! swift build "${flags[@]}" --product "$1" >"$build_log" 2>&1; then
        grep -E "error:" "$build_log" | sort -u | head -20
        echo "building $1 failed (log: $build_log)" >&2
        exit 1
    fi
}
echo "== building fuzz-$target (libFuzzer + ASan, $build_scratch)"
build "fuzz-$target"
if [[ $target == c-api || $target == journal ]]; then
    # The plugins the C API and journal fuzzers load from their own folder, instrumented too.
    for plugin in UndoPluginTextEditor UndoPluginCanvas UndoPluginSwiftNotes; do build "$plugin"; done
fi
bin=$(swift build "${flags[@]}" --show-bin-path)

corpus=$scratch/corpus/$target
artifacts=$scratch/artifacts/$target
mkdir -p "$corpus" "$artifacts"
inputs=("$corpus" Tests/FuzzSeeds/"$target")
[[ -d Tests/FuzzRegressions/$target ]] && inputs+=(Tests/FuzzRegressions/"$target")
extra=()
[[ -f Tests/FuzzDictionaries/$target.dict ]] && extra+=(-dict=Tests/FuzzDictionaries/"$target".dict)
# Titles are short in practice: longer inputs only slow the search down.
[[ $target == titles ]] && extra+=(-max_len=1024)
# C API inputs of at most 384 bytes (about 50 of the target's steps): a minute reaches as many
# edges as with longer inputs, at about 1,000 inputs a second instead of 700 (docs/reliability.md).
[[ $target == c-api ]] && extra+=(-max_len=384)

log=$scratch/fuzz-$target.log
echo "== fuzzing $target for ${seconds}s (log: $log)"
# Leaks are off: the Swift runtime's caches and XCTest-style globals are reported as leaks
# (ASan's check at exit, and libFuzzer's -detect_leaks, which runs inputs again to trace mallocs).
# SWIFT_BACKTRACE off: libFuzzer handles crashes itself and saves the input.
# malloc_context_size=0: ASan records no stack of an allocation or a free while fuzzing
# (unwinding and storing them was a fifth of every input's time with 30 frames, and still about
# 5% with 10). It finds the same errors, and the stack of the access that fails is whole; a
# failure's input is replayed below with 30 frames, so its report still says where the block
# was allocated and freed.
# -reload=0: one fuzzer process, so no other one adds to the corpus; libFuzzer's default reads
# the corpus folder again every second (4% of the C API target's time with a grown corpus).
status=0
ASAN_OPTIONS=detect_leaks=0:malloc_context_size=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} SWIFT_BACKTRACE=enable=no \
    "$bin/fuzz-$target" -max_total_time="$seconds" -detect_leaks=0 -reload=0 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "${extra[@]}" "$@" "${inputs[@]}" >"$log" 2>&1 || status=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
corpus_size=$(find "$corpus" -type f | wc -l)
if [[ $status -ne 0 ]]; then
    grep -E "Fatal error|ERROR: |SUMMARY" "$log" | head -5 || true
    saved=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    if [[ -n $saved && -f $saved ]]; then
        # The same input again, with whole allocation stacks for the report.
        ASAN_OPTIONS=detect_leaks=0:malloc_context_size=30 SWIFT_BACKTRACE=enable=no \
            "$bin/fuzz-$target" -detect_leaks=0 "$saved" >"$scratch/fuzz-$target-replay.log" 2>&1 || true
        echo "its report with whole allocation stacks: $scratch/fuzz-$target-replay.log"
    fi
    echo "fuzz-$target FAILED after ${runs:-?} runs: input saved in $artifacts/ (log: $log)"
    exit 1
fi
echo "fuzz-$target: ${runs:-?} runs in ${seconds}s, clean (corpus: $corpus_size inputs)"
