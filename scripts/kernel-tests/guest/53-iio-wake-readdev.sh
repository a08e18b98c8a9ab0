#!/bin/bash
# Reader test 3b (reference): libiio's `iio_readdev -T 0 -b 100` on the same emulated accel_3d with
# the same settings (100 Hz, hwfifo_timeout 1 s), measured the same way as 52 over 30 s.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
W=30
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop --status-file "$TEST_TMP/status.json" --summary-json "$TEST_TMP/emu.json"
dev=$(wait_iio accel_3d 10) || { echo "accel_3d did not appear"; exit 1; }
echo 100 >"$dev/in_accel_sampling_frequency"
echo 1 >"$dev/buffer/hwfifo_timeout"
iio_readdev -T 0 -b 100 accel_3d >"$TEST_TMP/data.bin" 2>"$TEST_TMP/readdev.err" &
pid=$!
sleep 3
window_json "$pid" "$W" accel_3d >"$TEST_TMP/window.json"
bytes_before_kill=$(stat -c %s "$TEST_TMP/data.bin")
kill -INT "$pid"; wait "$pid"
echo 0 >"$dev/buffer/hwfifo_timeout"
stop_emulator TERM
cat "$TEST_TMP/window.json" "$TEST_TMP/readdev.err"
write_result "{\"window\": $(file_or_null "$TEST_TMP/window.json"), \"bytes\": $bytes_before_kill, \"emulator\": $(file_or_null "$TEST_TMP/emu.json")}"
