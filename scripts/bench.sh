#!/usr/bin/env bash
# The benchmark (docs/performance.md): UndoCore, the plugin path, Qt's QUndoStack and the
# plain-C limit on the anchors' workloads, side by side in one run_all.sh run, then the
# scaling run, the floors (first touch of memory, a libffi call), the journal and the real-text
# row (a generated editing trace through the text editor plugin).
#
#   scripts/bench.sh [N] [REPS]     N default 1000000, REPS default 3
#
# ANCHORS: the anchors' folder (default ../shared/anchors), a read-only reference: its
# sources are copied to a temporary folder and built and run there. SCRATCH: the build folder
# (default .build-bench, so a benchmark build never waits for other builds). SCALING=0 skips
# the scaling run, FLOORS=0 the floors, JOURNAL=0 the journal, TEXT=0 the real-text row.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
N=${1:-1000000}
REPS=${2:-3}
ANCHORS=$(cd "${ANCHORS:-$REPO/../shared/anchors}" && pwd)
SCRATCH=${SCRATCH:-.build-bench}

swift build -c release --scratch-path "$SCRATCH" --product undo-bench >&2
swift build -c release --scratch-path "$SCRATCH" --product UndoBenchCounterPlugin >&2
swift build -c release --scratch-path "$SCRATCH" --product UndoPluginTextEditor >&2
BIN="$REPO/$SCRATCH/release"

WORK=$(mktemp -d /tmp/anchors.XXXXXX)
cp "$ANCHORS"/*.sh "$ANCHORS"/*.c "$ANCHORS"/*.cpp "$WORK"/
chmod u+w "$WORK"/*
(cd "$WORK" && ./build.sh >&2)
echo "anchors built and run in $WORK (results.txt there)" >&2

# run_all.sh gives every bench the plain workload name; these run the plugin-* variant of it,
# with the host's default call route and with every call through ffi_call (impl=undohost-libffi).
printf '#!/bin/sh\nexec "%s/undo-bench" "plugin-$1" "$2"\n' "$BIN" > "$WORK/undo-bench-plugin"
printf '#!/bin/sh\nUNDOHOST_PLUGIN_CALLS=libffi exec "%s/undo-bench" "plugin-$1" "$2"\n' "$BIN" \
    > "$WORK/undo-bench-plugin-libffi"
chmod +x "$WORK/undo-bench-plugin" "$WORK/undo-bench-plugin-libffi"

BENCHES="./qt_undo_bench ./limit_bench $BIN/undo-bench ./undo-bench-plugin ./undo-bench-plugin-libffi" \
    "$WORK/run_all.sh" "$N" "$REPS"

# The medians as a Markdown table, with the ratios to Qt (how many times faster).
echo
awk '
function med(s,   a, k, i, j, t) {
    k = split(s, a, " ")
    for (i = 2; i <= k; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return a[int((k + 1) / 2)]
}
{
    delete f
    for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
    w = f["workload"]; impl = f["impl"]
    if (w ~ /^plugin-/) { sub(/^plugin-/, "", w); impl = (impl == "undohost-libffi") ? "plugin-libffi" : "plugin" }
    else if (impl ~ /^qt/) impl = "qt"
    ns[w, impl] = ns[w, impl] " " f["ns_per_op"]; heap[w, impl] = heap[w, impl] " " f["heap_bytes_per_n"]
}
END {
    print "| workload | UndoCore ns/op | plugin path ns/op | plugin via ffi_call ns/op | Qt ns/op | plain C ns/op | UndoCore vs Qt | plugin vs Qt | via ffi_call vs Qt | heap B/step UndoCore | plugin | Qt | C |"
    print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    split("pushundoredo typing macro labels", order, " ")
    for (i = 1; i <= 4; i++) {
        w = order[i]
        u = med(ns[w, "undohost"]); p = med(ns[w, "plugin"]); l = med(ns[w, "plugin-libffi"])
        q = med(ns[w, "qt"]); c = med(ns[w, "c-limit"])
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx | %.2fx | %.2fx | %.1f | %.1f | %.1f | %.1f |\n", w, u, p, l, q, c,
            q / u, q / p, q / l, med(heap[w, "undohost"]), med(heap[w, "plugin"]), med(heap[w, "qt"]), med(heap[w, "c-limit"])
    }
}' "$WORK/results.txt"

# Waits (at most two minutes) until other processes use less than a quarter of the CPU time
# over one second: the scaling run is one process and would otherwise measure the neighbours.
wait_until_idle() {
    local tries=0 before after busy total
    while [ $tries -lt 120 ]; do
        before=($(head -1 /proc/stat)); sleep 1; after=($(head -1 /proc/stat))
        busy=$(( (after[1] + after[2] + after[3]) - (before[1] + before[2] + before[3]) ))
        total=$(( busy + (after[4] + after[5]) - (before[4] + before[5]) ))
        [ $(( busy * 4 )) -lt "$total" ] && return 0
        tries=$((tries + 1))
    done
    echo "warning: the machine is still busy; running anyway" >&2
}

if [ "${SCALING:-1}" != 0 ]; then
    echo
    wait_until_idle
    "$BIN/undo-bench" scaling 7 "$REPS"
fi

if [ "${FLOORS:-1}" != 0 ]; then
    echo
    wait_until_idle
    "$BIN/undo-bench" floors 5
fi

# The journal (docs/performance.md, "The journal"): changes per second in normal and full beside
# the in-memory history, and reopening the normal journal of 10^5 changes. JOURNAL=0 skips it.
if [ "${JOURNAL:-1}" != 0 ]; then
    echo
    wait_until_idle
    "$BIN/undo-bench" journal 100000
fi

# The real-text row (docs/performance.md, "Real text"): 259,778 edits of the automerge-paper
# trace's shape through the text editor plugin, with per-edit, per-undo and memory figures.
if [ "${TEXT:-1}" != 0 ]; then
    echo
    wait_until_idle
    "$BIN/undo-bench" text
fi
