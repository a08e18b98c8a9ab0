#!/bin/bash
# Live analysis: the real walking recording Recordings/hapt-user01-walking.csv (UCI HAPT, 50 Hz
# accel + gyro) played through the kernel's HID sensor drivers and captured at 50 Hz with latency
# 1 s (hardware FIFO); the capture feeds each delivered batch to the step counter. Its live count
# must equal `motionbatch steps` replaying the recording the same capture wrote (same samples,
# other batching: results never depend on batch size), and be a plausible walking count.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
REC="$MB_ROOT/Recordings/hapt-user01-walking.csv"
[ -f "$REC" ] || { echo "$REC missing"; exit 1; }
start_emulator "$REC" --loop --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 15 >/dev/null && wait_iio gyro_3d 15 >/dev/null || { echo "devices did not appear"; exit 1; }
"$MB_BIN" capture --rate 50 --latency 1 --duration 25 --output "$TEST_TMP/live.csv" --overwrite \
    --stats-json "$TEST_TMP/stats.json" >/dev/null; rc=$?
stop_emulator TERM
"$MB_BIN" steps "$TEST_TMP/live.csv" --json >"$TEST_TMP/replay.json"; rs=$?
cat "$TEST_TMP/stats.json" | grep -E '"(samples|steps|lost_samples)"'
write_result "{\"exit\": $rc, \"steps_exit\": $rs, \"stats\": $(file_or_null "$TEST_TMP/stats.json"),
 \"replay\": $(file_or_null "$TEST_TMP/replay.json"), \"emulator\": $(file_or_null "$TEST_TMP/emu.json")}"
