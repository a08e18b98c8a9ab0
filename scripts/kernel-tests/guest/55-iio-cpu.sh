#!/bin/bash
# Reader speed at batch 100: CPU time per sample of `motionbatch capture` with its default wait
# (timed: sleeps until each batch is due, then drains without blocking; no recording: libiio
# refill, demux, SI conversion, timestamp repair, gap detection) beside `iio_readdev -T 0 -b 100`
# with the same settings (100 Hz, no hardware FIFO, kernel watermark 100) in the same run: capture
# on accel_3d and iio_readdev on gyro_3d at once, then swapped, three 8 s windows per placement
# from /proc/PID/schedstat (the checker judges the geometric mean of the placements' median
# window ratios). iio_readdev's blocking reads are woken by every sample
# (its voluntary switches are reported). The old default, waiting on the buffer's poll fd, is
# measured the same way with `cpu_pair 100 24 --wait buffer` (docs/iio-reader.md, "Speed").
# timeout: 100
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
cpu_pair 100 24
