#!/usr/bin/env bash
# Builds UndoHost for release and installs it the way a distribution packages a C library:
#
#     bash scripts/install.sh --prefix /usr/local      (or --prefix "$HOME/.local")
#
# installs
#     PREFIX/lib/libundohost.so.1.4.0               the C API (SONAME libundohost.so.1, exports only
#     PREFIX/lib/libundohost.so.1 -> .so.1.4.0      undo_*, the Swift runtime linked in: it needs
#     PREFIX/lib/libundohost.so -> .so.1            libc, libm, libstdc++, libgcc_s, libffi, libcrypto, libsqlite3)
#     PREFIX/include/undohost/*.h                   the headers
#     PREFIX/lib/pkgconfig/undohost.pc              pkg-config file with these paths
#     PREFIX/lib/undohost/plugins/libUndoPlugin*.so the bundled plugins (undo_history_load_bundled)
#     PREFIX/bin/undo-host                          the host program
#     PREFIX/libexec/undohost/undo-plugin-runner    the process isolated plugins run in (found by
#                                                   libundohost.so and undo-host from lib and bin)
# then:  cc app.c $(pkg-config --cflags --libs undohost)   (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig
# when PREFIX is not a standard one, and PREFIX/lib on the loader's path: ldconfig or LD_LIBRARY_PATH).
# Options:
#     --prefix DIR         where to install (required)
#     --destdir DIR        stage under DIR (paths inside the files stay PREFIX), for packagers
#     --scratch-path DIR   the release build's folder (default .build-install)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix=""
destdir=""
scratch="$root/.build-install"
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="$2"; shift 2 ;;
        --destdir) destdir="$2"; shift 2 ;;
        --scratch-path) scratch="$2"; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$prefix" ] || { echo "install.sh: --prefix DIR is required (see --help)" >&2; exit 2; }
case "$prefix" in /*) ;; *) echo "install.sh: --prefix must be absolute, not $prefix" >&2; exit 2 ;; esac
header="$root/Include/undohost/undo_common.h"
major="$(sed -n 's/^#define UNDO_ABI_VERSION_MAJOR \([0-9]*\)$/\1/p' "$header")"
minor="$(sed -n 's/^#define UNDO_ABI_VERSION_MINOR \([0-9]*\)$/\1/p' "$header")"
release="$(sed -n 's/^#define UNDO_LIBRARY_RELEASE "\(.*\)"$/\1/p' "$root/Include/undohost/undo_host.h")"
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$release" ] || { echo "install.sh: cannot read the versions from the headers" >&2; exit 1; }

# The Swift runtime is linked statically (-static-stdlib): no RUNPATH into the toolchain and no
# libswiftCore.so to ship. Each product is linked on its own, so that only the library gets the
# SONAME.
build=(swift build --package-path "$root" -c release --scratch-path "$scratch" -Xswiftc -static-stdlib)
echo "== building (release, static Swift runtime) in $scratch" >&2
"${build[@]}" --product undohost -Xlinker -soname -Xlinker "libundohost.so.$major" >&2
for product in undo-host undo-plugin-runner UndoPluginSwiftNotes; do
    "${build[@]}" --product "$product" >&2
done
bin="$("${build[@]}" --show-bin-path)"
# The C plugins are plain C: built with cc, they need libc only (linked by swiftc they would
# carry a Swift runtime they never use).
cc=${CC:-cc}
plugins="$scratch/c-plugins"
mkdir -p "$plugins"
"$cc" -std=c99 -O2 -fPIC -shared -fvisibility=hidden -I "$root/Include" -I "$root/Plugins/TextEditor/include" \
    "$root/Plugins/TextEditor/text_editor.c" -o "$plugins/libUndoPluginTextEditor.so"
"$cc" -std=c99 -O2 -fPIC -shared -fvisibility=hidden -I "$root/Include" -I "$root/Plugins/Canvas/include" \
    "$root/Plugins/Canvas/canvas.c" -o "$plugins/libUndoPluginCanvas.so"

target="$destdir$prefix"
install -d "$target/lib/pkgconfig" "$target/include/undohost" "$target/bin" "$target/lib/undohost/plugins" \
    "$target/libexec/undohost"
# Debug info stripped (distributions keep their own debug packages; valgrind 3.19 cannot read
# the toolchain's DWARF 5): the symbol table stays.
install -m 755 "$bin/libundohost.so" "$target/lib/libundohost.so.$release"
strip --strip-debug "$target/lib/libundohost.so.$release"
ln -sfn "libundohost.so.$release" "$target/lib/libundohost.so.$major"
ln -sfn "libundohost.so.$major" "$target/lib/libundohost.so"
install -m 644 "$root"/Include/undohost/*.h "$target/include/undohost/"
install -m 755 "$bin/undo-host" "$target/bin/undo-host"
install -m 755 "$bin/undo-plugin-runner" "$target/libexec/undohost/undo-plugin-runner"
strip --strip-debug "$target/libexec/undohost/undo-plugin-runner"
install -m 755 "$plugins"/libUndoPlugin*.so "$bin/libUndoPluginSwiftNotes.so" "$target/lib/undohost/plugins/"
strip --strip-debug "$target/bin/undo-host" "$target"/lib/undohost/plugins/*.so
cat > "$target/lib/pkgconfig/undohost.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: undohost
Description: UndoHost C API: one shared undo history, extended by plugins
Version: $release
Cflags: -I\${includedir}
Libs: -L\${libdir} -lundohost
PC
echo "installed libundohost.so.$release (ABI $major.$minor), headers, undohost.pc, plugins and undo-host under $target" >&2
