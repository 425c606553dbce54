#!/usr/bin/env bash
# Installs what the build needs beyond the Swift toolchain: libffi (plugin calls), libcrypto
# (the allow-list's SHA-256) and SQLite (the journal), with their headers and pkg-config files,
# and a C compiler. Idempotent; does nothing when they are already there.
set -euo pipefail
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists libffi 2>/dev/null || missing+=(libffi-dev)
pkg-config --exists libcrypto 2>/dev/null || missing+=(libssl-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v c++ >/dev/null 2>&1 || missing+=(g++)
command -v swift >/dev/null 2>&1 || { echo "error: swift is not on PATH (Swift 6 toolchain needed)" >&2; exit 1; }
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
