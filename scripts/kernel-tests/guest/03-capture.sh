#!/bin/bash
# Test 3: iio_readdev (libiio's reference tool) captures N samples from accel_3d and gyro_3d at
# once; the host-side check converts them with the device scale and compares them with the
# recording, in order, none missing.
. "$MB_TEST_LIB"
N=300
make_recording "$MB_RESULTS/$TEST_NAME.rec.csv" --rate 100 --seconds 6
start_emulator "$MB_RESULTS/$TEST_NAME.rec.csv" --linger 2 --summary-json "$TEST_TMP/summary.json"
accel=$(wait_iio accel_3d 15) || { echo "accel_3d did not appear"; diagnose; exit 1; }
gyro=$(wait_iio gyro_3d 15) || { echo "gyro_3d did not appear"; diagnose; exit 1; }
snapshot "$accel" "$TEST_TMP/accel.json"; snapshot "$gyro" "$TEST_TMP/gyro.json"
measured "$TEST_TMP/accel_run.json" --stdout "$MB_RESULTS/$TEST_NAME.accel.bin" --timeout 20 -- \
    iio_readdev -u local: -b 50 -s $N -T 5000 accel_3d &
a=$!
measured "$TEST_TMP/gyro_run.json" --stdout "$MB_RESULTS/$TEST_NAME.gyro.bin" --timeout 20 -- \
    iio_readdev -u local: -b 50 -s $N -T 5000 gyro_3d &
g=$!
wait $a $g
stop_emulator TERM
collect_json "$MB_RESULTS/$TEST_NAME.json" n:=$N emulator_exit:=$EMU_STATUS \
    recording:="\"$TEST_NAME.rec.csv\"" accel_capture:="\"$TEST_NAME.accel.bin\"" gyro_capture:="\"$TEST_NAME.gyro.bin\"" \
    accel=$TEST_TMP/accel.json gyro=$TEST_TMP/gyro.json accel_run=$TEST_TMP/accel_run.json \
    gyro_run=$TEST_TMP/gyro_run.json summary=$TEST_TMP/summary.json
