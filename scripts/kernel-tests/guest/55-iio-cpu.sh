#!/bin/bash
# Reader speed at batch 100: CPU time per sample of `motionbatch capture` (no recording: poll,
# libiio refill, demux, SI conversion, timestamp repair, gap detection) beside
# `iio_readdev -T 0 -b 100` with the same settings (100 Hz, no hardware FIFO) in the same run:
# capture on accel_3d, iio_readdev on gyro_3d at once, 30 s from /proc/PID/schedstat.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
cpu_pair 100 30 --wait timed
