#!/bin/bash
# Test 6: a hub FIFO smaller than one latency period overflows. With --fifo-capacity 20 and
# hwfifo_timeout 0.5 s at 100 Hz each burst holds 20 of 51 samples: drop-oldest keeps the newest
# 20, drop-newest the oldest 20. The lost samples show as gaps in the hub timestamps, and every
# delivered sample still carries the recording value of its own instant.
. "$MB_TEST_LIB"
N=100
make_recording "$MB_RESULTS/$TEST_NAME.rec.csv" --rate 100 --seconds 8 --no-gyro
for policy in drop-oldest drop-newest; do
    start_emulator "$MB_RESULTS/$TEST_NAME.rec.csv" --fifo-capacity 20 --overflow $policy --linger 2 \
        --summary-json "$TEST_TMP/summary-$policy.json"
    accel=$(wait_iio accel_3d 15) || { echo "accel_3d did not appear ($policy)"; diagnose; exit 1; }
    echo 0.5 >"$accel/buffer/hwfifo_timeout" || exit 1
    snapshot "$accel" "$TEST_TMP/accel-$policy.json"
    measured "$TEST_TMP/run-$policy.json" --stdout "$MB_RESULTS/$TEST_NAME.$policy.bin" --timeout 20 -- \
        iio_readdev -u local: -b 20 -s $N -T 5000 accel_3d
    stop_emulator TERM
    wait_gone accel_3d 10 || { echo "accel_3d still present after the emulator exited"; exit 1; }
done
collect_json "$MB_RESULTS/$TEST_NAME.json" n:=$N recording:="\"$TEST_NAME.rec.csv\"" \
    oldest_capture:="\"$TEST_NAME.drop-oldest.bin\"" newest_capture:="\"$TEST_NAME.drop-newest.bin\"" \
    oldest=$TEST_TMP/accel-drop-oldest.json newest=$TEST_TMP/accel-drop-newest.json \
    oldest_run=$TEST_TMP/run-drop-oldest.json newest_run=$TEST_TMP/run-drop-newest.json \
    oldest_summary=$TEST_TMP/summary-drop-oldest.json newest_summary=$TEST_TMP/summary-drop-newest.json
