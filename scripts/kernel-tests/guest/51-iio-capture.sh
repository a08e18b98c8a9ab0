#!/bin/bash
# Reader test 2 (capture): 100 Hz with latency 1 s through the hardware FIFO, accel + gyro merged,
# once with hub timestamps and once with arrival timestamps (bunched bursts, repaired by the
# reader). The recordings and the source are checked on the host (values, order, spacing, losses).
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 20
cp "$TEST_TMP/rec.csv" "$MB_RESULTS/$TEST_NAME.source.csv"
ok=0
for mode in hub arrival; do
    start_emulator "$TEST_TMP/rec.csv" --loop --timestamps "$mode" --status-file "$TEST_TMP/status.json" --summary-json "$TEST_TMP/emu-$mode.json"
    wait_iio accel_3d 10 >/dev/null && wait_iio gyro_3d 10 >/dev/null || { echo "devices did not appear ($mode)"; exit 1; }
    "$MB_BIN" capture --rate 100 --latency 1 --duration 6 --output "$MB_RESULTS/$TEST_NAME.$mode.csv" --overwrite \
        --stats-json "$TEST_TMP/stats-$mode.json"; rc=$?
    [ $rc -eq 0 ] || { echo "capture ($mode) exited $rc"; ok=1; }
    stop_emulator TERM
    wait_gone accel_3d 10
    eval "rc_$mode=$rc"
done
write_result "{\"hub\": {\"exit\": $rc_hub, \"stats\": $(file_or_null "$TEST_TMP/stats-hub.json"), \"emulator\": $(file_or_null "$TEST_TMP/emu-hub.json")},
 \"arrival\": {\"exit\": $rc_arrival, \"stats\": $(file_or_null "$TEST_TMP/stats-arrival.json"), \"emulator\": $(file_or_null "$TEST_TMP/emu-arrival.json")}}"
exit $ok
