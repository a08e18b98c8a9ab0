#!/bin/bash
# Session test 1 (issue 15): a 60 s session at 100 Hz, latency 1 s (hardware FIFO), one device,
# into a recording with --ndjson and --board: the recording equals the emulator's source (a real
# walk, UCI HAPT user 1, resampled to 100 Hz), the live steps and activity equal `replay` of the
# recording, and the reader's scheduler wake-ups stay within ceil(samples / 100) + 2.
# timeout: 150
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
python3 "$MB_ROOT/scripts/kernel-tests/resample-recording.py" "$MB_ROOT/Recordings/hapt-user01-walking.csv" "$TEST_TMP/walk100.csv" --rate 100 || exit 1
cp "$TEST_TMP/walk100.csv" "$MB_RESULTS/$TEST_NAME.source.csv"
start_emulator "$TEST_TMP/walk100.csv" --loop --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 15 >/dev/null && wait_iio gyro_3d 15 >/dev/null || { echo "devices did not appear"; diagnose; exit 1; }
# How the devices sit in sysfs (their identity: the parent device path).
for d in /sys/bus/iio/devices/iio:device*; do
    echo "$d: name=$(cat "$d/name") real=$(readlink -f "$d") device-link=$(readlink -f "$d/device" 2>/dev/null || echo none)"
done
OUT="$TEST_TMP/out"; mkdir -p "$OUT"
"$MB_BIN" capture --device accel_3d --rate 100 --latency 1 --duration 60 --output "$OUT/live.csv" --ndjson --board rpi-zero-2w \
    --stats-json "$TEST_TMP/stats.json" >"$TEST_TMP/batches.ndjson" 2>"$TEST_TMP/log.txt"; rc=$?
stop_emulator TERM
"$MB_BIN" replay "$OUT/live.csv" --json >"$TEST_TMP/replay.json"; rr=$?
cp "$OUT/live.csv" "$MB_RESULTS/$TEST_NAME.csv"
cat "$TEST_TMP/log.txt"
python3 - "$TEST_TMP" "$OUT" "$rc" "$rr" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, os, sys
tmp, out, rc, rr = sys.argv[1:5]
def js(p):
    try: return json.load(open(p))
    except Exception as e: return None
lines = [l for l in open(os.path.join(tmp, "batches.ndjson")) if l.strip()]
messages = []
for l in lines:
    try: messages.append(json.loads(l))
    except ValueError: messages.append({"invalid": l[:200]})
print(json.dumps({"exit": int(rc), "replay_exit": int(rr), "stats": js(os.path.join(tmp, "stats.json")),
                  "replay": js(os.path.join(tmp, "replay.json")), "summary": js(os.path.join(out, "live.summary.json")),
                  "checkpoint_left": os.path.exists(os.path.join(out, "live.checkpoint.json")),
                  "emulator": js(os.path.join(tmp, "emu.json")), "messages": messages,
                  "log": open(os.path.join(tmp, "log.txt")).read()[-4000:]}))
PY
