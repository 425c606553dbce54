#!/usr/bin/env bash
# The sanitizer jobs (docs/reliability.md), each in its own scratch path:
#
#   bash scripts/sanitizers.sh asan [swift test flags...]   the whole test suite under AddressSanitizer
#   bash scripts/sanitizers.sh tsan [swift test flags...]   the thread stress and isolation tests under ThreadSanitizer
#
# asan builds in .build-asan and runs every test (CI runs this after the normal test run).
# tsan builds in .build-tsan and runs the ThreadStressTests suites and the isolated-plugin
# tests (--filter replaces that choice); UNDOHOST_STRESS_ROUNDS=N sets the operations per
# worker thread (default 2000).
# Either fails when a test fails or the sanitizer reports anything.
set -euo pipefail
cd "$(dirname "$0")/.."

[[ $# -ge 1 ]] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
job=$1
shift
bash scripts/deps.sh

case $job in
asan)
    flags=(--sanitize=address --scratch-path .build-asan)
    # Leak detection is off: XCTest and the Swift runtime keep allocations alive on purpose.
    export ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
    ;;
tsan)
    # --export-dynamic: the Swift plugins (libUndoPluginSwiftNotes.so) resolve the TSan
    # runtime's symbols from the test binary, which must export them.
    flags=(--sanitize=thread -Xlinker --export-dynamic --scratch-path .build-tsan)
    # The thread stress tests, and isolated plugins (a host thread serves the runner's records
    # while calls go on; their watchdogs grow tenfold under TSan: UndoTestSupport.Sanitizers).
    [[ " $* " == *" --filter "* ]] || set -- --filter 'ThreadStressTests|Isolat' "$@"
    # A report fails the run even if the tests pass (TSan's own exit code covers that too).
    export TSAN_OPTIONS=exitcode=66${TSAN_OPTIONS:+:$TSAN_OPTIONS}
    ;;
*)
    echo "unknown job $job (asan or tsan)" >&2
    exit 2
    ;;
esac

scratch=${flags[-1]}
mkdir -p "$scratch"
echo "== building with ${flags[*]} (log: $scratch/build.log)"
# --build-tests builds every product too: the plugin .so files the tests load.
if ! swift build --build-tests "${flags[@]}" >"$scratch/build.log" 2>&1; then
    grep -E "error:" "$scratch/build.log" | sort -u | head -20
    echo "$job: the build failed (see $scratch/build.log)" >&2
    exit 1
fi
log=$scratch/test.log
echo "== swift test ${flags[*]} $* (full output: $log)"
status=0
swift test --skip-build "${flags[@]}" "$@" >"$log" 2>&1 || status=$?
# The failures and the totals; the sanitizers' reports in full below.
grep -E "^✘|^✔ Test run|Executed [0-9]+ tests?, with" "$log" | grep -v "Executed 0 tests" | head -40 || true
if grep -qE "ERROR: AddressSanitizer|WARNING: ThreadSanitizer" "$log"; then
    grep -E -A12 "ERROR: AddressSanitizer|WARNING: ThreadSanitizer" "$log" | head -80
    echo "$job: the sanitizer reported errors (see $log)" >&2
    exit 1
fi
[[ $status -eq 0 ]] || { echo "$job: tests failed, status $status (see $log)" >&2; exit 1; }
echo "$job: clean"
