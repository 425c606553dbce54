#!/usr/bin/env bash
# The test command: installs what is missing, builds everything (the plugin .so files too)
# and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
swift build
swift test "$@"
