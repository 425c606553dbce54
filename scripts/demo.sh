#!/usr/bin/env bash
# The run command: installs what is missing, builds undo-host and the bundled plugins, and
# plays the demo session. Extra arguments go to undo-host instead of "demo".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
swift build >&2
if [ $# -eq 0 ]; then set -- demo; fi
exec .build/debug/undo-host "$@"
