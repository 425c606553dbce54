#!/usr/bin/env bash
# Writes a C and a Swift plugin with `undo-host new-plugin`, builds each as it says, and runs
# `undo-host check` on them (the C one is also in swift test; the Swift one is here because
# building a package takes a while). Exit status non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product undo-host
host="$PWD/.build/debug/undo-host"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
chmod 700 "$scratch"
cd "$scratch"
"$host" new-plugin c-template | sed -n 2p | sh
"$host" check c-template/libc-template.so
"$host" new-plugin SwiftTemplate --swift
swift build --package-path SwiftTemplate
"$host" check SwiftTemplate/.build/debug/libSwiftTemplate.so
echo "check-new-plugins: both templates build and pass check"
