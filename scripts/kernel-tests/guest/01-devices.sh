#!/bin/bash
# Test 1: the emulated hub appears as IIO devices accel_3d and gyro_3d with the expected channels,
# scale and sampling frequency, and iio_info lists them. Reading in_accel_x_raw goes through a
# GET_REPORT(input) answered with the recording's first sample.
. "$MB_TEST_LIB"
python3 "$MB_ROOT/scripts/kernel-tests/make-recording.py" "$TEST_TMP/rec.csv" --rate 100 --seconds 5
start_emulator "$TEST_TMP/rec.csv" --loop --status-file "$TEST_TMP/status.json" --summary-json "$TEST_TMP/summary.json"
accel=$(wait_iio accel_3d 8) || { echo "accel_3d did not appear"; diagnose; exit 1; }
gyro=$(wait_iio gyro_3d 15) || { echo "gyro_3d did not appear"; diagnose; exit 1; }
python3 "$MB_ROOT/scripts/kernel-tests/iio-snapshot.py" "$accel" >"$TEST_TMP/accel.json"
python3 "$MB_ROOT/scripts/kernel-tests/iio-snapshot.py" "$gyro" >"$TEST_TMP/gyro.json"
iio_info >"$TEST_TMP/iio_info.txt" 2>&1; iio_info_rc=$?
raw_x=$(cat "$accel/in_accel_x_raw" 2>&1); raw_z=$(cat "$accel/in_accel_z_raw" 2>&1)
graw_y=$(cat "$gyro/in_anglvel_y_raw" 2>&1)
stop_emulator TERM
python3 - "$TEST_TMP" "$iio_info_rc" "$raw_x" "$raw_z" "$graw_y" "$EMU_STATUS" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, sys, os
tmp, rc, rx, rz, gy, est = sys.argv[1:7]
def load(n):
    p = os.path.join(tmp, n)
    return json.load(open(p)) if os.path.exists(p) else None
info = open(os.path.join(tmp, "iio_info.txt")).read()
rows = [l.strip().split(",") for l in open(os.path.join(tmp, "rec.csv"))][1:]
print(json.dumps({
    "accel": load("accel.json"), "gyro": load("gyro.json"),
    "iio_info_exit": int(rc), "iio_info": info[-6000:],
    "raw": {"accel_x": rx, "accel_z": rz, "anglvel_y": gy},
    "recording_rows": rows,
    "emulator_exit": int(est), "summary": load("summary.json"),
}))
PY
