#!/bin/bash
# Reader speed at batch 1 (per-sample delivery): as 55, with `--batch 1` (buffer waiting: timed
# waiting needs a batch >= 2) and `iio_readdev -b 1`, and per round two more readers: the same
# capture with `--no-analysis` (the reader alone: iio_readdev analyses nothing) and the minimal
# Swift loop `floor-reader` (poll + read + one store, built like motionbatch), the floor a Swift
# binary pays per wake-up in this emulated guest.
# timeout: 420
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
CPU_AB_ALT=--no-analysis cpu_ab 1 5 15 1
