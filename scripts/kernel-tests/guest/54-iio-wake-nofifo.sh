#!/bin/bash
# Reader test 3c (wake-ups without hardware FIFO, 100 Hz, --no-hwfifo): `motionbatch capture
# --batch 1` on accel_3d and, at the same time, `--batch 100` (kernel watermark 100) on gyro_3d;
# each measured over 30 s after a 3 s start-up. The watermark-100 reader (default wait: timed, one
# wake-up per batch) must return to userspace at most ceil(N/100) + 2 times.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
W=30
iio_make_recording "$TEST_TMP/rec.csv" 10
start_emulator "$TEST_TMP/rec.csv" --loop --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 10 >/dev/null && wait_iio gyro_3d 10 >/dev/null || { echo "devices did not appear"; exit 1; }
"$MB_BIN" capture --device accel_3d --rate 100 --batch 1 --no-hwfifo --duration $((W + 5)) --stats-json "$TEST_TMP/stats1.json" &
p1=$!
"$MB_BIN" capture --device gyro_3d --rate 100 --batch 100 --no-hwfifo --duration $((W + 5)) --stats-json "$TEST_TMP/stats100.json" &
p100=$!
sleep 3
window_json "$p1" "$W" >"$TEST_TMP/w1.json" &
wp=$!
window_json "$p100" "$W" >"$TEST_TMP/w100.json"
wait "$wp"
wait "$p1"; rc1=$?
wait "$p100"; rc100=$?
stop_emulator TERM
cat "$TEST_TMP/w1.json" "$TEST_TMP/w100.json"
write_result "{\"watermark1\": {\"exit\": $rc1, \"window\": $(file_or_null "$TEST_TMP/w1.json"), \"stats\": $(file_or_null "$TEST_TMP/stats1.json")},
 \"watermark100\": {\"exit\": $rc100, \"window\": $(file_or_null "$TEST_TMP/w100.json"), \"stats\": $(file_or_null "$TEST_TMP/stats100.json")},
 \"emulator\": $(file_or_null "$TEST_TMP/emu.json")}"
