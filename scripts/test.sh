#!/usr/bin/env bash
# Runs every MotionBatch test: the Swift unit/integration tests (real datasets in ../shared/datasets
# when present), the fuzz targets over their committed corpus (deterministic: fixed seed and runs),
# then the kernel-in-the-loop tests in QEMU. Exit status 0 only when all passed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --kernel --browser
swift build
swift test 2>&1 | tee .build/swift-test.log
scripts/fuzz.sh replay
if [ -x scripts/kernel-tests.sh ]; then
  scripts/kernel-tests.sh
fi
