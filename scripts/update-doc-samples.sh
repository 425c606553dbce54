#!/usr/bin/env bash
# Rewrites the sample outputs in README.md, docs/*.md and the DocC articles with what the
# programs print now (console blocks, Swift examples' output, copies of source files), then
# runs the documentation tests again. Review the result with git diff (docs/checked-examples.md).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
UNDOHOST_UPDATE_DOC_SAMPLES=1 swift test --filter DocsTests >/dev/null || true
swift test --filter DocsTests
git diff --stat -- '*.md'
