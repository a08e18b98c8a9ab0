#!/bin/bash
# Reader speed at batch 1 (per-sample delivery): as 55, with `--batch 1` (buffer waiting: timed
# waiting needs a batch >= 2) and `iio_readdev -b 1`; per device placement three 6 s windows.
# timeout: 90
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
cpu_pair 1 18
