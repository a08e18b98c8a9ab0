#!/bin/bash
# Reader test 3a (wake-ups, hardware FIFO 1 s at 100 Hz): `motionbatch capture --latency 1` on
# accel_3d. Over a 30 s window after a 3 s start-up: voluntary context switches and CPU ticks of
# the reader (/proc/PID). The emulator stamps samples on arrival and the reader keeps those stamps
# (--no-repair), so the host-side check counts the device's bursts in the window from the data.
# The reader's own userspace returns are compared with the bursts over the whole capture.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
W=30
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop --timestamps arrival --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 10 >/dev/null || { echo "accel_3d did not appear"; exit 1; }
"$MB_BIN" capture --device accel_3d --rate 100 --latency 1 --duration $((W + 5)) --no-repair \
    --output "$TEST_TMP/capture.csv" --stats-json "$TEST_TMP/stats.json" &
pid=$!
sleep 3
window_json "$pid" "$W" >"$TEST_TMP/window.json"
wait "$pid"; rc=$?
stop_emulator TERM
cp "$TEST_TMP/capture.csv" "$MB_RESULTS/$TEST_NAME.csv" 2>/dev/null
cat "$TEST_TMP/window.json"
write_result "{\"exit\": $rc, \"window\": $(file_or_null "$TEST_TMP/window.json"), \"stats\": $(file_or_null "$TEST_TMP/stats.json"), \"emulator\": $(file_or_null "$TEST_TMP/emu.json")}"
