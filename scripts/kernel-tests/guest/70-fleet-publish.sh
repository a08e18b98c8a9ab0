#!/bin/bash
# Fleet test (issue 19): a capture in the guest publishes through QEMU's guestfwd (10.0.2.100:1883
# in the guest, relayed to the broker the harness runs on the host's loopback; the guest stays
# restrict=on) and the host's `motionbatch collect` receives every message once, in order. The
# reader's scheduler wake-ups over 60 s are measured without and with --publish.
# timeout: 200
. "$MB_TEST_LIB"
make_recording "$TEST_TMP/rec.csv" --rate 100 --seconds 20 --no-gyro || exit 1
start_emulator "$TEST_TMP/rec.csv" --loop
wait_iio accel_3d 15 >/dev/null || { echo "device did not appear"; diagnose; exit 1; }
OUT="$TEST_TMP/out"; mkdir -p "$OUT"
"$MB_BIN" capture --device accel_3d --rate 100 --latency 1 --duration 60 --output "$OUT/plain.csv" \
    --stats-json "$TEST_TMP/plain.json" >/dev/null 2>"$TEST_TMP/plain.log"; rp=$?
"$MB_BIN" capture --device accel_3d --rate 100 --latency 1 --duration 60 --output "$OUT/pub.csv" --ndjson \
    --publish mqtt://10.0.2.100:1883/fleet --insecure --board-id kernel1 \
    --stats-json "$TEST_TMP/pub.json" >"$TEST_TMP/pub.ndjson" 2>"$TEST_TMP/pub.log"; rq=$?
stop_emulator TERM
cat "$TEST_TMP/plain.log" "$TEST_TMP/pub.log"
cp "$TEST_TMP/pub.ndjson" "$MB_RESULTS/$TEST_NAME.ndjson"
python3 - "$TEST_TMP" "$OUT" "$rp" "$rq" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, os, sys
tmp, out, rp, rq = sys.argv[1:5]
def js(p):
    try: return json.load(open(p))
    except Exception: return None
print(json.dumps({"plain_exit": int(rp), "publish_exit": int(rq), "plain": js(os.path.join(tmp, "plain.json")),
                  "publish": js(os.path.join(tmp, "pub.json")), "outbox_left": os.path.getsize(os.path.join(out, "pub.csv.outbox")) if os.path.exists(os.path.join(out, "pub.csv.outbox")) else None,
                  "log": open(os.path.join(tmp, "pub.log")).read()[-3000:]}))
PY
