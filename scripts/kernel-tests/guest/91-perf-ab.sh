#!/bin/bash
# Profiling tool (opt-in: runs only with `scripts/kernel-tests.sh --only 91-`): CPU per sample of
# two builds of motionbatch, .build/ab/A and .build/ab/B (copy them there), capturing at the same
# time on the two devices (A on accel_3d, B on gyro_3d, then swapped), three 8 s windows each,
# capture arguments from .build/ab/args (default `--batch 1`). Only a capture with an
# accelerometer runs the live analysis, so compare A and B on the same device (the figures
# round1_a_us with round2_b_us, round1_b_us with round2_a_us). Nothing is judged.
# timeout: 120
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
A=$MB_ROOT/.build/ab/A; B=$MB_ROOT/.build/ab/B
ARGS=$(cat "$MB_ROOT/.build/ab/args" 2>/dev/null || echo --batch 1)
[ -x "$A" ] && [ -x "$B" ] || { echo "91-perf-ab: copy the two builds to compare to $A and $B"; exit 1; }
iio_make_recording "$TEST_TMP/rec.csv" 10
start_emulator "$TEST_TMP/rec.csv" --loop
wait_iio accel_3d 10 >/dev/null
gyro=$(wait_iio gyro_3d 10)
echo 100 >"$gyro/in_anglvel_sampling_frequency"; echo 0 >"$gyro/buffer/hwfifo_timeout"
accel=$(wait_iio accel_3d 10)
echo 100 >"$accel/in_accel_sampling_frequency" 2>/dev/null
out=""
for round in 1 2; do
    if [ $round = 1 ]; then d1=accel_3d; d2=gyro_3d; else d1=gyro_3d; d2=accel_3d; fi
    "$A" capture --device $d1 --rate 100 $ARGS --no-hwfifo --duration 40 >/dev/null 2>&1 &
    pa=$!
    "$B" capture --device $d2 --rate 100 $ARGS --no-hwfifo --duration 40 >/dev/null 2>&1 &
    pb=$!
    sleep 3
    pair_windows "$pa" "$pb" 3 8 "$TEST_TMP/a.json" "$TEST_TMP/b.json" "$TEST_TMP/w$round.json"
    kill -INT $pa $pb; wait $pa; wait $pb
    out+="${out:+, }\"round$round\": {\"a\": $(cat $TEST_TMP/a.json), \"b\": $(cat $TEST_TMP/b.json), \"windows\": $(cat $TEST_TMP/w$round.json)}"
done
stop_emulator TERM
write_result "{$out}"
