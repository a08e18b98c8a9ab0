#!/bin/bash
# Reader speed: CPU time per sample of `motionbatch capture` (no recording: poll, libiio refill,
# demux, SI conversion, timestamp repair, gap detection) at batch 1 and 100, without hardware FIFO
# at 100 Hz, beside `iio_readdev -T 0 -b 1|100` with the same settings in the same run. Each pair
# runs at once (capture on accel_3d, iio_readdev on gyro_3d: the same driver and scan layout) and
# is measured over 10 s after a 3 s start-up from /proc/PID/schedstat (ns on the CPU).
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
W=10
iio_make_recording "$TEST_TMP/rec.csv" 10
start_emulator "$TEST_TMP/rec.csv" --loop --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 10 >/dev/null || { echo "accel_3d did not appear"; exit 1; }
gyro=$(wait_iio gyro_3d 10) || { echo "gyro_3d did not appear"; exit 1; }
echo 100 >"$gyro/in_anglvel_sampling_frequency"
echo 0 >"$gyro/buffer/hwfifo_timeout"
for b in 100 1; do
    "$MB_BIN" capture --device accel_3d --rate 100 --batch $b --no-hwfifo --duration $((W + 6)) --stats-json "$TEST_TMP/stats$b.json" >/dev/null &
    cap=$!
    iio_readdev -T 0 -b $b gyro_3d >/dev/null 2>&1 &
    ref=$!
    sleep 3
    window_json "$cap" "$W" >"$TEST_TMP/cap$b.json" &
    wp=$!
    window_json "$ref" "$W" >"$TEST_TMP/ref$b.json"
    wait "$wp"
    kill -INT "$ref"; wait "$ref"
    wait "$cap"; eval "rc$b=$?"
done
stop_emulator TERM
cat "$TEST_TMP"/cap*.json "$TEST_TMP"/ref*.json
case "$MB_BIN" in */release/*) build=release ;; */debug/*) build=debug ;; *) build=unknown ;; esac
write_result "{\"build\": \"$build\", \"batch100\": {\"exit\": $rc100, \"capture\": $(file_or_null "$TEST_TMP/cap100.json"), \"readdev\": $(file_or_null "$TEST_TMP/ref100.json"), \"stats\": $(file_or_null "$TEST_TMP/stats100.json")},
 \"batch1\": {\"exit\": $rc1, \"capture\": $(file_or_null "$TEST_TMP/cap1.json"), \"readdev\": $(file_or_null "$TEST_TMP/ref1.json"), \"stats\": $(file_or_null "$TEST_TMP/stats1.json")}}"
