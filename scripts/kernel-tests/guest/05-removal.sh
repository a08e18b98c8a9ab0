#!/bin/bash
# Test 5: killing the emulator (SIGKILL: the kernel destroys the uhid device when the fd closes)
# in the middle of a capture makes the reader (iio_readdev) fail cleanly: it exits with an error
# status and message within a few seconds instead of hanging.
. "$MB_TEST_LIB"
make_recording "$TEST_TMP/rec.csv" --rate 100 --seconds 30 --no-gyro
start_emulator "$TEST_TMP/rec.csv"
accel=$(wait_iio accel_3d 15) || { echo "accel_3d did not appear"; diagnose; exit 1; }
measured "$TEST_TMP/run.json" --stdout "$TEST_TMP/capture.bin" --timeout 20 -- \
    iio_readdev -u local: -b 20 -s 0 accel_3d &
reader=$!
wait_file "$TEST_TMP/capture.bin" 10 || echo "no data before the kill"
sleep 1
bytes_before=$(stat -c %s "$TEST_TMP/capture.bin")
kill_at=$(monotonic)
stop_emulator KILL
wait_gone accel_3d 10; gone=$?
gone_at=$(monotonic)
wait $reader
# Informational: the same with no libiio timeout (-T 0): does the reader notice the removal at all?
start_emulator "$TEST_TMP/rec.csv"
wait_iio accel_3d 15 >/dev/null || { echo "accel_3d did not reappear"; exit 1; }
measured "$TEST_TMP/run-notimeout.json" --stdout "$TEST_TMP/capture2.bin" --timeout 8 -- \
    iio_readdev -u local: -b 20 -s 0 -T 0 accel_3d &
reader=$!
wait_file "$TEST_TMP/capture2.bin" 10; sleep 0.5
kill2_at=$(monotonic)
stop_emulator KILL
wait $reader
collect_json "$MB_RESULTS/$TEST_NAME.json" run=$TEST_TMP/run.json kill_at:=$kill_at gone_at:=$gone_at \
    run_no_timeout=$TEST_TMP/run-notimeout.json kill2_at:=$kill2_at \
    device_gone:=$([ $gone = 0 ] && echo true || echo false) emulator_status:=$EMU_STATUS \
    bytes_before_kill:=$bytes_before bytes_total:=$(stat -c %s "$TEST_TMP/capture.bin")
