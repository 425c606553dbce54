#!/usr/bin/env bash
# Writes undohost.pc, the pkg-config file for the UndoHost C API, so that a C program builds with
#     cc app.c $(pkg-config --cflags --libs undohost)
# It points at this repository's Include/ and at the build folder's libundohost.so (with an rpath,
# so the program runs without LD_LIBRARY_PATH). Build first (swift build), then:
#     bash scripts/undohost.pc.sh                      # writes <build folder>/undohost.pc
#     export PKG_CONFIG_PATH=$(swift build --show-bin-path)
# Options:
#     --scratch-path DIR   the build's scratch path (as given to swift build; default .build)
#     -c, --configuration  debug (default) or release
#     --libdir DIR         the folder with libundohost.so, instead of asking swift build
#     --output DIR         where to write undohost.pc (default: the build folder). To install it
#                          for every user: --output /usr/local/lib/pkgconfig (then no
#                          PKG_CONFIG_PATH is needed; keep the repository and build folder in place)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch=""
configuration=debug
output=""
libdir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch="$2"; shift 2 ;;
        -c|--configuration) configuration="$2"; shift 2 ;;
        --output) output="$2"; shift 2 ;;
        --libdir) libdir="$(cd "$2" && pwd)"; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "undohost.pc.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
args=(--package-path "$root" -c "$configuration")
[ -n "$scratch" ] && args+=(--scratch-path "$scratch")
[ -n "$libdir" ] || libdir="$(swift build "${args[@]}" --show-bin-path)"
if [ ! -f "$libdir/libundohost.so" ]; then
    echo "undohost.pc.sh: $libdir/libundohost.so is missing: run swift build ${args[*]:2} first" >&2
    exit 1
fi
output="${output:-$libdir}"
mkdir -p "$output"
# The library's release (what pkg-config --modversion and --atleast-version compare), not the
# ABI version: the ABI is UNDO_ABI_VERSION_MAJOR/MINOR in undo_common.h.
version="$(sed -n 's/^#define UNDO_LIBRARY_RELEASE "\(.*\)"$/\1/p' "$root/Include/undohost/undo_host.h")"
[ -n "$version" ] || { echo "undohost.pc.sh: cannot read UNDO_LIBRARY_RELEASE from undo_host.h" >&2; exit 1; }
cat > "$output/undohost.pc" <<PC
includedir=$root/Include
libdir=$libdir

Name: undohost
Description: UndoHost C API: one shared undo history, extended by plugins
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lundohost -Wl,-rpath,\${libdir}
PC
echo "$output/undohost.pc"
