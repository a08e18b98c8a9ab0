#!/bin/bash
# Reader test 5 (overflow): per-sample delivery at 100 Hz; the reader stalls for 5 s while the
# kernel buffer holds 2 s; the kernel drops the new samples and the reader must report them lost
# (from the hub timestamps' gap), matching what the emulator sent minus what was captured.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop --timestamps hub --status-file "$TEST_TMP/status.json" --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 10 >/dev/null || { echo "accel_3d did not appear"; exit 1; }
"$MB_BIN" capture --device accel_3d --rate 100 --batch 1 --duration 10 --stall 2:5 --output "$MB_RESULTS/$TEST_NAME.csv" --overwrite --stats-json "$TEST_TMP/stats.json"; rc=$?
sleep 0.5
stop_emulator TERM
write_result "{\"exit\": $rc, \"stats\": $(file_or_null "$TEST_TMP/stats.json"), \"emulator\": $(file_or_null "$TEST_TMP/emu.json")}"
