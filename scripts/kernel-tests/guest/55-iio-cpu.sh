#!/bin/bash
# Reader speed at batch 100: CPU time per sample of `motionbatch capture` with its default wait
# (timed: sleeps until each batch is due, then drains without blocking; no recording: libiio
# refill, demux, SI conversion, timestamp repair, gap detection, live analysis) against
# `iio_readdev -T 0 -b 100` with the same settings (accel_3d, 100 Hz, no hardware FIFO, kernel
# watermark 100), one reader at a time: five rounds of capture then iio_readdev, 15 s windows
# from /proc/PID/schedstat after a 2 s start-up (cpu_ab). The checker judges the median of the
# rounds' ratios. The old default, waiting on the buffer's poll fd, is measured the same way
# with `cpu_ab 100 5 15 0 --wait buffer` (docs/iio-reader.md, "Speed").
# timeout: 300
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
cpu_ab 100 5 15 0
