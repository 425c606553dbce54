#!/usr/bin/env bash
# Installs UndoHost into a temporary prefix (scripts/install.sh) and checks it as a user of the
# installed files would, never the build folder:
#   - libundohost.so.1: SONAME libundohost.so.1, links libundohost.so -> .so.1 -> .so.RELEASE,
#     no RUNPATH into the toolchain, no Swift, Foundation or ICU library needed, and only undo_*
#     symbols exported;
#   - examples/c-host and examples/cpp-host built with `pkg-config --cflags --libs undohost` and
#     run with the toolchain off the library path;
#   - the Swift sample plugin (its own Swift runtime) loads and works through the C API;
#   - a plugin runs isolated from C and from undo-host --isolate (the installed runner found);
#   - the resident memory of a C program with a history (printed);
#   - valgrind --error-exitcode=1 --leak-check=full on the C example, with the suppression file
#     (when valgrind is installed).
# Usage: bash scripts/install-check.sh [--keep]   (--keep leaves the prefix for a look)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$(mktemp -d /tmp/undohost-install-XXXXXX)"
[ "${1:-}" = "--keep" ] || trap 'rm -rf "$prefix"' EXIT
fail() { echo "install-check: $*" >&2; exit 1; }

bash "$root/scripts/install.sh" --prefix "$prefix"
lib="$prefix/lib"
release="$(sed -n 's/^#define UNDO_LIBRARY_RELEASE "\(.*\)"$/\1/p' "$root/Include/undohost/undo_host.h")"
[ "$(readlink "$lib/libundohost.so")" = libundohost.so.1 ] || fail "libundohost.so does not link to libundohost.so.1"
[ "$(readlink "$lib/libundohost.so.1")" = "libundohost.so.$release" ] || fail "libundohost.so.1 does not link to the release"
dynamic="$(readelf -d "$lib/libundohost.so.$release")"
grep -q 'Library soname: \[libundohost.so.1\]' <<<"$dynamic" || fail "SONAME is not libundohost.so.1"
# Each check reads a whole output kept in a variable: `cmd | grep -q` under pipefail fails at
# random when grep stops reading at its match and cmd dies of SIGPIPE.
runpaths="$(grep -E 'R(UN)?PATH' <<<"$dynamic" || true)"
if grep -q '/' <<<"$runpaths"; then fail "a RUNPATH names a folder: $(grep PATH <<<"$dynamic")"; fi
needed="$(grep NEEDED <<<"$dynamic" | sed 's/.*\[\(.*\)\]/\1/' | tr '\n' ' ')"
echo "libundohost.so.$release needs: $needed($(du -k "$lib/libundohost.so.$release" | cut -f1) KB)"
if grep -qiE 'swift|foundation|icu|dispatch|BlocksRuntime' <<<"$needed"; then fail "it needs a toolchain library: $needed"; fi
others="$(readelf --dyn-syms -W "$lib/libundohost.so.$release" \
    | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" { print $8 }' | grep -v '^undo_[a-z]' || true)"
[ -z "$others" ] || fail "exports beside undo_*: $(head -5 <<<"$others")"

export PKG_CONFIG_PATH="$lib/pkgconfig"
[ "$(pkg-config --variable=prefix undohost)" = "$prefix" ] || fail "undohost.pc does not name the prefix"
work="$prefix/check"
mkdir -p "$work"
# shellcheck disable=SC2046 # pkg-config's words are meant to split
cc -std=c99 -Wall -Wextra -pedantic -Werror -o "$work/c-host" "$root/examples/c-host/main.c" $(pkg-config --cflags --libs undohost)
# shellcheck disable=SC2046
c++ -std=c++17 -Wall -Wextra -pedantic -Werror -o "$work/cpp-host" "$root/examples/cpp-host/main.cpp" $(pkg-config --cflags --libs undohost)
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror -o "$work/swift-plugin" "$root/Tests/InstallChecks/swift_plugin.c" $(pkg-config --cflags --libs undohost)
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror -o "$work/isolated-plugin" "$root/Tests/InstallChecks/isolated_plugin.c" $(pkg-config --cflags --libs undohost)
# Only the installed library on the loader's path: no toolchain, no build folder.
export LD_LIBRARY_PATH="$lib"
unset UNDOHOST_PLUGIN_PATH
loaded="$(ldd "$work/c-host")"
grep -qF "$lib/libundohost.so.1" <<<"$loaded" || fail "c-host does not use the installed library: $loaded"
if grep -qE 'swift|\.build' <<<"$loaded"; then fail "c-host loads from the toolchain or build folder"; fi
"$work/c-host" > "$work/c-host.out" || fail "c-host failed: $(cat "$work/c-host.out")"
grep -q "menu: \[Undo Typing\] \[Redo Bold\]" "$work/c-host.out" || fail "c-host printed: $(cat "$work/c-host.out")"
"$work/cpp-host" > "$work/cpp-host.out" || fail "cpp-host failed: $(cat "$work/cpp-host.out")"
"$work/swift-plugin" "$lib/undohost/plugins/libUndoPluginSwiftNotes.so" > "$work/swift-plugin.out" \
    || fail "the Swift plugin did not work through the C API"
grep -q "undo-title Undo New Note" "$work/swift-plugin.out" || fail "Swift plugin: $(cat "$work/swift-plugin.out")"
echo "$(grep rss "$work/swift-plugin.out" | tr '\n' ' ')"
"$work/isolated-plugin" "$lib/undohost/plugins/libUndoPluginTextEditor.so" > "$work/isolated.out" \
    || fail "an isolated plugin did not work through the C API: $(cat "$work/isolated.out")"
printf 'text.insert 0 "Hi"\nshow\n' | "$prefix/bin/undo-host" --isolate \
    --plugins "$lib/undohost/plugins/libUndoPluginTextEditor.so" > "$work/isolated-host.out" 2>&1 \
    || fail "undo-host --isolate failed: $(cat "$work/isolated-host.out")"
grep -q "Hi" "$work/isolated-host.out" || fail "undo-host --isolate printed: $(cat "$work/isolated-host.out")"
"$prefix/bin/undo-host" --version
echo "plugins" | "$prefix/bin/undo-host" --plugins >/dev/null 2>&1 || true
if command -v valgrind >/dev/null 2>&1; then
    valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
        --suppressions="$root/scripts/valgrind-swift.supp" -q "$work/c-host" > /dev/null 2> "$work/valgrind.log" \
        || fail "valgrind: $(head -40 "$work/valgrind.log")"
    echo "valgrind: clean on c-host"
fi
echo "install-check: ok ($prefix)"
