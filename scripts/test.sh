#!/usr/bin/env bash
# Runs every MotionBatch test: the Swift unit/integration tests (real datasets in ../shared/datasets
# when present), the fuzz targets over their committed corpus (deterministic: fixed seed and runs),
# the service files and installers (scripts/contrib-tests.sh: systemd-analyze verify, install.sh
# into scratch roots, the Debian package and lintian), the Slurm job array on a single-node cluster
# of its own (scripts/slurm-test.sh: merged shards of 'epochs' equal a local run), then the
# kernel-in-the-loop tests in QEMU (which install that package in the guest). Exit status 0 only
# when all passed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --kernel --browser --package --slurm
swift build
# The optimised binary for CaptureAllocationTests (a steady-state wake-up allocates nothing only
# in an optimised build; docs/iio-reader.md, "Batch 1, third round").
swift build -c release --product motionbatch
swift test 2>&1 | tee .build/swift-test.log
scripts/fuzz.sh replay
scripts/contrib-tests.sh
scripts/slurm-test.sh --bin .build/debug/motionbatch
if [ -x scripts/kernel-tests.sh ]; then
  scripts/kernel-tests.sh
fi
