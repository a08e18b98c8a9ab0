#!/bin/bash
# Reader test 3b (reference): libiio's `iio_readdev -T 0 -b 100` on the same emulated accel_3d with
# the same settings (100 Hz, hwfifo_timeout 1 s, arrival timestamps on the monotonic clock),
# measured the same way as 52 over 30 s; its data (24-byte scans) is kept to count the bursts.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
W=30
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop --timestamps arrival --summary-json "$TEST_TMP/emu.json"
dev=$(wait_iio accel_3d 10) || { echo "accel_3d did not appear"; exit 1; }
clock=$(cat "$dev/current_timestamp_clock")
echo monotonic >"$dev/current_timestamp_clock"
echo 100 >"$dev/in_accel_sampling_frequency"
echo 1 >"$dev/buffer/hwfifo_timeout"
iio_readdev -T 0 -b 100 accel_3d >"$TEST_TMP/data.bin" 2>"$TEST_TMP/readdev.err" &
pid=$!
sleep 3
window_json "$pid" "$W" >"$TEST_TMP/window.json"
kill -INT "$pid"; wait "$pid"
echo 0 >"$dev/buffer/hwfifo_timeout"
echo "$clock" >"$dev/current_timestamp_clock"
stop_emulator TERM
cp "$TEST_TMP/data.bin" "$MB_RESULTS/$TEST_NAME.bin"
cat "$TEST_TMP/window.json" "$TEST_TMP/readdev.err"
write_result "{\"window\": $(file_or_null "$TEST_TMP/window.json"), \"emulator\": $(file_or_null "$TEST_TMP/emu.json")}"
