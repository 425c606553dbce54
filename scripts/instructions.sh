#!/usr/bin/env bash
# Instruction ceilings (docs/performance.md, "Instruction counts"): builds the release undo-bench
# and its plugin, runs every workload under callgrind at two sizes, and prints the instructions
# per op, (Ir at the larger size - Ir at the smaller) / (ops difference), so start-up and the
# plugin's load cancel out. Fails, naming the workload and the figure, when one is above its
# ceiling in scripts/instruction-ceilings.txt. Instruction counts, unlike times, do not depend on
# what else the machine runs.
#
#   scripts/instructions.sh [SMALL] [LARGE]     N default 2000 and 20000
#
# SCRATCH: the build folder (default .build-instr). CEILINGS: the ceilings file. WORKLOADS: the
# workloads to run (default the eight anchors' workloads, then pushundoredo-doc of both paths:
# pushundoredo with every step in a document context, as real programs make them). UPDATE=1
# writes the figures measured plus 5% as the new ceilings instead of checking them.
# valgrind 3.19 cannot read the toolchain's DWARF 5, so the binary and the plugin are run from
# copies with their debug info stripped.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
SMALL=${1:-2000}
LARGE=${2:-20000}
SCRATCH=${SCRATCH:-.build-instr}
CEILINGS=${CEILINGS:-$REPO/scripts/instruction-ceilings.txt}
WORKLOADS=${WORKLOADS:-"pushundoredo typing macro labels plugin-pushundoredo plugin-typing plugin-macro plugin-labels
    pushundoredo-doc plugin-pushundoredo-doc"}
[ "$LARGE" -gt "$SMALL" ] || { echo "error: LARGE ($LARGE) must be above SMALL ($SMALL)" >&2; exit 2; }

if ! command -v valgrind >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: valgrind" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind >/dev/null
fi
command -v objcopy >/dev/null 2>&1 || { echo "error: objcopy (binutils) is needed" >&2; exit 2; }

swift build -c release --scratch-path "$SCRATCH" --product undo-bench >&2
swift build -c release --scratch-path "$SCRATCH" --product UndoBenchCounterPlugin >&2

# The stripped copies, side by side (undo-bench looks for the plugin next to itself), in the
# scratch folder: a folder only this user can change, which the host's trust policy accepts.
BIN="$REPO/$SCRATCH/instructions"
rm -rf "$BIN"
mkdir -p "$BIN"
objcopy --strip-debug "$REPO/$SCRATCH/release/undo-bench" "$BIN/undo-bench"
objcopy --strip-debug "$REPO/$SCRATCH/release/libUndoBenchCounterPlugin.so" "$BIN/libUndoBenchCounterPlugin.so"
WORK=$(mktemp -d /tmp/instructions.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# Ir and ops of one run: "IR OPS".
measure() {
    local workload=$1 n=$2 out="$WORK/$1.$2"
    # The host's default call route, whatever the caller's environment says.
    if ! env -u UNDOHOST_PLUGIN_CALLS valgrind --tool=callgrind --callgrind-out-file="$out.callgrind" \
        "$BIN/undo-bench" "$workload" "$n" > "$out.stdout" 2> "$out.stderr"; then
        echo "error: undo-bench $workload $n failed under callgrind:" >&2
        tail -20 "$out.stderr" >&2
        exit 1
    fi
    local ir ops
    ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p;T;q' "$out.callgrind")
    ops=$(sed -n 's/^\(.* \)\{0,1\}ops=\([0-9]*\).*/\2/p;T;q' "$out.stdout")
    grep -q 'check=ok' "$out.stdout" || { echo "error: undo-bench $workload $n: $(cat "$out.stdout")" >&2; exit 1; }
    [ -n "$ir" ] && [ -n "$ops" ] || { echo "error: no Ir or ops for $workload $n" >&2; exit 1; }
    echo "$ir $ops"
}

ceiling() {
    [ -f "$CEILINGS" ] || return 0
    awk -v w="$1" '$1 == w { print $2 }' "$CEILINGS"
}

failures=()
results=()
printf '%-22s %-8s %10s %10s\n' workload path "Ir/op" ceiling
for workload in $WORKLOADS; do
    read -r ir1 ops1 < <(measure "$workload" "$SMALL")
    read -r ir2 ops2 < <(measure "$workload" "$LARGE")
    per_op=$(awk -v a="$ir1" -v b="$ir2" -v p="$ops1" -v q="$ops2" 'BEGIN { printf "%.0f", (b - a) / (q - p) }')
    case $workload in plugin-*) path=plugin; name=${workload#plugin-} ;; *) path=UndoCore; name=$workload ;; esac
    limit=$(ceiling "$workload")
    printf '%-22s %-8s %10s %10s\n' "$name" "$path" "$per_op" "${limit:--}"
    results+=("$workload $per_op")
    if [ -n "$limit" ] && [ "$per_op" -gt "$limit" ]; then
        failures+=("$workload: $per_op Ir/op, above its ceiling of $limit")
    fi
done

if [ "${UPDATE:-0}" = 1 ]; then
    {
        echo "# Instruction ceilings for scripts/instructions.sh: workload, then the most Ir per op it may take"
        echo "# (callgrind, release build; the figures measured plus 5%). Lower them when a change makes a"
        echo "# workload cheaper; raise one only with the reason in the commit."
        for line in "${results[@]}"; do
            set -- $line
            echo "$1 $(( ($2 * 105 + 99) / 100 ))"
        done
    } > "$CEILINGS"
    echo "ceilings written to $CEILINGS"
    exit 0
fi

if [ ${#failures[@]} -gt 0 ]; then
    for failure in "${failures[@]}"; do echo "FAIL: $failure" >&2; done
    exit 1
fi
[ -f "$CEILINGS" ] && echo "every workload within its ceiling ($CEILINGS)"
exit 0
