#!/bin/bash
# Reader test 1 (discovery): `motionbatch devices --json` finds the emulated accel_3d and gyro_3d
# with their channels, scale, rate and hardware-FIFO attributes, available to root and
# permission-denied (with the udev rule) for an unprivileged user.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 5
start_emulator "$TEST_TMP/rec.csv" --loop --status-file "$TEST_TMP/status.json"
wait_iio accel_3d 10 >/dev/null || { echo "accel_3d did not appear"; exit 1; }
wait_iio gyro_3d 10 >/dev/null || { echo "gyro_3d did not appear"; exit 1; }
"$MB_BIN" devices --json >"$TEST_TMP/root.json" 2>"$TEST_TMP/root.err"; rc=$?
"$MB_BIN" devices >"$TEST_TMP/root.txt" 2>&1
as_nobody "$MB_BIN" devices --json >"$TEST_TMP/nobody.json" 2>"$TEST_TMP/nobody.err"; nrc=$?
cat "$TEST_TMP/root.txt" "$TEST_TMP/root.err" "$TEST_TMP/nobody.err"
write_result "{\"exit\": $rc, \"nobody_exit\": $nrc, \"root\": $(file_or_null "$TEST_TMP/root.json"), \"nobody\": $(file_or_null "$TEST_TMP/nobody.json")}"
