#!/bin/bash
# Test 4: with hub timestamps the IIO timestamps reproduce the sample spacing exactly; with arrival
# timestamps a FIFO burst (report latency 0.5 s via buffer/hwfifo_timeout) shows bunched timestamps.
. "$MB_TEST_LIB"
N=150
make_recording "$MB_RESULTS/$TEST_NAME.rec.csv" --rate 100 --seconds 6 --no-gyro
for mode in hub arrival; do
    start_emulator "$MB_RESULTS/$TEST_NAME.rec.csv" --timestamps $mode --linger 2 --summary-json "$TEST_TMP/summary-$mode.json"
    accel=$(wait_iio accel_3d 15) || { echo "accel_3d did not appear ($mode)"; diagnose; exit 1; }
    echo 0.5 >"$accel/buffer/hwfifo_timeout" || exit 1
    snapshot "$accel" "$TEST_TMP/accel-$mode.json"
    measured "$TEST_TMP/run-$mode.json" --stdout "$MB_RESULTS/$TEST_NAME.$mode.bin" --timeout 20 -- \
        iio_readdev -u local: -b 25 -s $N -T 5000 accel_3d
    # Stop with SIGINT here (Ctrl-C), SIGTERM elsewhere: both must remove the device cleanly.
    stop_emulator INT
    echo "$mode: emulator exit $EMU_STATUS"
    [ "$EMU_STATUS" = 0 ] || { echo "emulator exited $EMU_STATUS after SIGINT"; exit 1; }
    wait_gone accel_3d 10 || { echo "accel_3d still present after the emulator exited"; exit 1; }
done
collect_json "$MB_RESULTS/$TEST_NAME.json" n:=$N recording:="\"$TEST_NAME.rec.csv\"" \
    hub_capture:="\"$TEST_NAME.hub.bin\"" arrival_capture:="\"$TEST_NAME.arrival.bin\"" \
    hub=$TEST_TMP/accel-hub.json arrival=$TEST_TMP/accel-arrival.json \
    hub_run=$TEST_TMP/run-hub.json arrival_run=$TEST_TMP/run-arrival.json \
    hub_summary=$TEST_TMP/summary-hub.json arrival_summary=$TEST_TMP/summary-arrival.json
