#!/bin/bash
# Test 7: a real bundled recording (Recordings/hapt-user01-walking.csv, UCI HAPT, 50 Hz accel +
# gyro) played through the kernel: the devices come up at the recording's 50 Hz and iio_readdev's
# samples equal the recording's values within the raw resolution, in order, none missing.
. "$MB_TEST_LIB"
N=250
REC=Recordings/hapt-user01-walking.csv
[ -f "$MB_ROOT/$REC" ] || { echo "$REC missing"; exit 1; }
start_emulator "$MB_ROOT/$REC" --linger 1 --summary-json "$TEST_TMP/summary.json"
accel=$(wait_iio accel_3d 15) || { echo "accel_3d did not appear"; diagnose; exit 1; }
gyro=$(wait_iio gyro_3d 15) || { echo "gyro_3d did not appear"; diagnose; exit 1; }
snapshot "$accel" "$TEST_TMP/accel.json"; snapshot "$gyro" "$TEST_TMP/gyro.json"
measured "$TEST_TMP/accel_run.json" --stdout "$MB_RESULTS/$TEST_NAME.accel.bin" --timeout 25 -- \
    iio_readdev -u local: -b 50 -s $N -T 5000 accel_3d &
a=$!
measured "$TEST_TMP/gyro_run.json" --stdout "$MB_RESULTS/$TEST_NAME.gyro.bin" --timeout 25 -- \
    iio_readdev -u local: -b 50 -s $N -T 5000 gyro_3d &
g=$!
wait $a $g
stop_emulator TERM
collect_json "$MB_RESULTS/$TEST_NAME.json" n:=$N emulator_exit:=$EMU_STATUS recording:="\"$REC\"" \
    accel_capture:="\"$TEST_NAME.accel.bin\"" gyro_capture:="\"$TEST_NAME.gyro.bin\"" \
    accel=$TEST_TMP/accel.json gyro=$TEST_TMP/gyro.json accel_run=$TEST_TMP/accel_run.json \
    gyro_run=$TEST_TMP/gyro_run.json summary=$TEST_TMP/summary.json
