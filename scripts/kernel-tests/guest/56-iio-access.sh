#!/bin/bash
# Reader test 4 (access states): an unprivileged user gets permission-denied naming the file and
# the udev rule; a second reader gets busy; killing the emulator mid-capture gives lost and a
# clean, prompt exit with the samples so far saved.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop --status-file "$TEST_TMP/status.json"
dev=$(wait_iio accel_3d 10) || { echo "accel_3d did not appear"; exit 1; }
# Permission denied.
as_nobody "$MB_BIN" capture --device accel_3d --duration 1 >/dev/null 2>"$TEST_TMP/perm.err"; perm_rc=$?
# Busy: iio_readdev holds the buffer.
iio_readdev -T 0 -b 1 accel_3d >/dev/null 2>&1 &
holder=$!
sleep 1.5
"$MB_BIN" capture --device accel_3d --duration 1 >/dev/null 2>"$TEST_TMP/busy.err"; busy_rc=$?
"$MB_BIN" devices --json >"$TEST_TMP/busy-devices.json" 2>/dev/null
kill -INT "$holder"; wait "$holder"
# Lost: kill the emulator during a capture.
"$MB_BIN" capture --device accel_3d --rate 100 --latency 0.5 --duration 30 --output "$TEST_TMP/lost.csv" \
    --stats-json "$TEST_TMP/lost-stats.json" 2>"$TEST_TMP/lost.err" &
cap=$!
sleep 4
t0=$(date +%s.%N)
stop_emulator KILL
wait "$cap"; lost_rc=$?
t1=$(date +%s.%N)
lost_rows=$(grep -c '^[0-9]' "$TEST_TMP/lost.csv" 2>/dev/null || echo 0)
cat "$TEST_TMP/perm.err" "$TEST_TMP/busy.err" "$TEST_TMP/lost.err"
python3 - "$TEST_TMP" "$perm_rc" "$busy_rc" "$lost_rc" "$t0" "$t1" "$lost_rows" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, os, sys
tmp, prc, brc, lrc, t0, t1, rows = sys.argv[1:8]
def text(n):
    p = os.path.join(tmp, n); return open(p).read() if os.path.exists(p) else ""
def js(n):
    try: return json.load(open(os.path.join(tmp, n)))
    except Exception: return None
print(json.dumps({
    "permission": {"exit": int(prc), "stderr": text("perm.err")},
    "busy": {"exit": int(brc), "stderr": text("busy.err"), "devices": js("busy-devices.json")},
    "lost": {"exit": int(lrc), "stderr": text("lost.err"), "stats": js("lost-stats.json"),
             "exit_after_kill_s": float(t1) - float(t0), "rows": int(rows)},
}))
PY
