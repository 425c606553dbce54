#!/usr/bin/env bash
# Builds the DocC documentation of UndoCore, UndoPluginKit and UndoCodableJournal (swift-docc-plugin) and fails on
# any warning: a broken symbol link, an undocumented parameter, a missing page.
# The archives are in .build/plugins/Swift-DocC/outputs/.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for target in UndoCore UndoPluginKit UndoCodableJournal; do
    log=$(mktemp)
    if ! swift package --disable-sandbox generate-documentation --target "$target" >"$log" 2>&1; then
        cat "$log"; echo "docs: $target failed" >&2; status=1
    elif grep -q "warning:" "$log"; then
        grep -A8 "warning:" "$log"; echo "docs: $target has warnings" >&2; status=1
    else
        echo "docs: $target built with no warnings"
    fi
    rm -f "$log"
done
exit $status
