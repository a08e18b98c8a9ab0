#!/bin/bash
# Test 2: writing sampling_frequency changes the emulator's report interval, writing
# buffer/hwfifo_timeout changes its report latency, and hwfifo_enabled reflects it. The emulator's
# status file (rewritten after every SET_REPORT) and exit summary say what it was asked.
. "$MB_TEST_LIB"
python3 "$MB_ROOT/scripts/kernel-tests/make-recording.py" "$TEST_TMP/rec.csv" --rate 100 --seconds 5
start_emulator "$TEST_TMP/rec.csv" --loop --status-file "$TEST_TMP/status.json" --summary-json "$TEST_TMP/summary.json"
accel=$(wait_iio accel_3d 15) || { echo "accel_3d did not appear"; diagnose; exit 1; }
gyro=$(wait_iio gyro_3d 15) || { echo "gyro_3d did not appear"; diagnose; exit 1; }
steps=()
# step LABEL FILE VALUE: writes VALUE to FILE, then snapshots sysfs readbacks and the emulator status.
step() {
    local label=$1 file=$2 value=$3 werr=""
    echo "$value" >"$file" 2>"$TEST_TMP/werr" || werr=$(cat "$TEST_TMP/werr")
    sleep 0.2
    python3 - "$label" "$file" "$value" "$werr" "$accel" "$gyro" "$TEST_TMP/status.json" >>"$TEST_TMP/steps.jsonl" <<'PY'
import json, sys
label, f, value, werr, accel, gyro, status = sys.argv[1:8]
def rd(p):
    try:
        return open(p).read().strip()
    except OSError as e:
        return {"error": e.strerror}
snap = {}
for name, d, ch in (("accel", accel, "accel"), ("gyro", gyro, "anglvel")):
    snap[name] = {"sampling_frequency": rd(f"{d}/in_{ch}_sampling_frequency"),
                  "hwfifo_timeout": rd(f"{d}/buffer/hwfifo_timeout"),
                  "hwfifo_enabled": rd(f"{d}/buffer/hwfifo_enabled")}
try:
    st = json.load(open(status))
except (OSError, ValueError) as e:
    st = {"error": str(e)}
print(json.dumps({"label": label, "file": f, "value": value, "write_error": werr, "sysfs": snap,
                  "status": {s["name"]: {k: s[k] for k in ("report_interval_ms", "report_latency_ms", "fifo_enabled")}
                             for s in st.get("sensors", [])}}))
PY
}
step accel_50hz "$accel/in_accel_sampling_frequency" 50
step accel_200hz "$accel/in_accel_sampling_frequency" 200
step gyro_25hz "$gyro/in_anglvel_sampling_frequency" 25
step accel_fifo_1s "$accel/buffer/hwfifo_timeout" 1
step accel_fifo_0_25s "$accel/buffer/hwfifo_timeout" 0.25
step gyro_fifo_2s "$gyro/buffer/hwfifo_timeout" 2
step accel_fifo_off "$accel/buffer/hwfifo_timeout" 0
stop_emulator TERM
python3 - "$TEST_TMP" "$EMU_STATUS" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, sys, os
tmp, est = sys.argv[1:3]
steps = [json.loads(l) for l in open(os.path.join(tmp, "steps.jsonl"))]
sp = os.path.join(tmp, "summary.json")
print(json.dumps({"steps": steps, "emulator_exit": int(est),
                  "summary": json.load(open(sp)) if os.path.exists(sp) else None}))
PY
