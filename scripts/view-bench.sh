#!/usr/bin/env bash
# What one undo costs at the undo-host prompt in a large text (docs/performance.md, "Undo at the
# prompt"): undo-host runs a script that builds a document of CHARS characters with the text
# editor plugin (lines of 48 characters), types 5 characters in its middle, then undoes and
# redoes that edit PAIRS times; the same script without the pairs is the baseline. Both are
# timed as whole processes by farm-bench (medians of RUNS runs); the difference, divided by
# 2 × PAIRS, is the time of one undo or redo with its view. A third script, the baseline with
# PAIRS pairs of edits in the middle instead (insert a character, delete it), gives the time of
# one edit at the prompt the same way ("us per edit").
#
#   scripts/view-bench.sh [CHARS...]      default: 105000 1000000
#
# BIN: the folder with undo-host and libUndoPluginTextEditor.so (default: a release build in
# .build-bench, built first). PAIRS (default 200), RUNS (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${PAIRS:-200}
RUNS=${RUNS:-5}
if [ -z "${BIN:-}" ]; then
    swift build -c release --scratch-path .build-bench --product undo-host >&2
    swift build -c release --scratch-path .build-bench --product UndoPluginTextEditor >&2
    BIN=$(pwd)/.build-bench/release
fi
WORK=$(mktemp -d /tmp/view-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp "$BIN/libUndoPluginTextEditor.so" "$WORK/"
chmod 755 "$WORK" "$WORK/libUndoPluginTextEditor.so"

median_wall() { # the median wall seconds farm-bench prints for the command
    farm-bench -n "$RUNS" --timeout 900 -- "$@" | awk '/^A wall s/ { print $5; exit }'
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%10s %8s %12s %12s %14s %12s %14s\n' chars pairs "baseline s" "with undo s" "us per move" "with edits s" "us per edit"
for CHARS in ${@:-105000 1000000}; do
    LINES=$(( CHARS / 48 ))
    # The document in one insert: LINES lines of 47 characters and a newline.
    awk -v lines="$LINES" 'BEGIN {
        printf "text.insert 0 \""
        for (i = 0; i < lines; i++) printf "line %06d of a document of many lines, words.\\n", i
        printf "\"\n"
        printf "break\n"
        printf "text.insert %d \"HELLO\"\n", (lines / 2) * 48 + 10
    }' > "$WORK/base.undo"
    cp "$WORK/base.undo" "$WORK/moves.undo"
    for ((i = 0; i < PAIRS; i++)); do printf 'undo\nredo\n' >> "$WORK/moves.undo"; done
    cp "$WORK/base.undo" "$WORK/edits.undo"
    MIDDLE=$(( LINES / 2 * 48 + 20 ))
    for ((i = 0; i < PAIRS; i++)); do printf 'text.insert %d "x"\ntext.delete %d 1\n' "$MIDDLE" "$MIDDLE" >> "$WORK/edits.undo"; done
    BASE=$(median_wall "$BIN/undo-host" --plugins "$WORK/libUndoPluginTextEditor.so" run "$WORK/base.undo")
    MOVES=$(median_wall "$BIN/undo-host" --plugins "$WORK/libUndoPluginTextEditor.so" run "$WORK/moves.undo")
    EDITS=$(median_wall "$BIN/undo-host" --plugins "$WORK/libUndoPluginTextEditor.so" run "$WORK/edits.undo")
    awk -v c="$LINES" -v p="$PAIRS" -v b="$BASE" -v m="$MOVES" -v e="$EDITS" \
        'BEGIN { printf "%10d %8d %12.3f %12.3f %14.1f %12.3f %14.1f\n", c * 48, p, b, m, (m - b) / (2 * p) * 1e6,
                 e, (e - b) / (2 * p) * 1e6 }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
