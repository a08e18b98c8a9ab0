#!/bin/bash
# Host side of kernel test 62 (see scripts/kernel-tests/guest/62-iiod.sh): runs the clients
# against iiod in the guest through 127.0.0.1:$MB_IIOD_PORT and writes $MB_RESULTS/62-iiod.host.json.
R="$MB_RESULTS/62-iiod"
URI="ip:127.0.0.1:$MB_IIOD_PORT"
now() { date +%s.%N; }
wait_for() { for _ in $(seq $(( $2 * 10 ))); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }
# Phase 1: discovery and a 6 s capture at 100 Hz with latency 1 s.
t0=$(now)
timeout 30 "$MB_BIN" devices -u "$URI" -T 5000 --json >"$R.devices.json" 2>"$R.devices.err"; dev_rc=$?
t1=$(now)
timeout 40 "$MB_BIN" capture -u "$URI" --rate 100 --latency 1 --duration 6 -o "$R.capture.csv" --overwrite \
    --stats-json "$R.stats.json" >/dev/null 2>"$R.capture.err"; cap_rc=$?
t2=$(now)
# Phase 2: the guest kills iiod 2 s after this capture started.
timeout 40 "$MB_BIN" capture -u "$URI" --rate 100 --latency 1 --duration 30 -o "$R.drop.csv" --overwrite \
    --stats-json "$R.drop-stats.json" >/dev/null 2>"$R.drop.err" &
cap=$!
# The guest kills iiod 2 s after this marker: set it once the capture is streaming (its first
# batch is in the recording), not after a fixed delay: a slow connection under load would
# otherwise be killed before it streamed, and the test would see a start failure instead.
for _ in $(seq 200); do
    [ "$(grep -vc '^#' "$R.drop.csv" 2>/dev/null || echo 0)" -ge 3 ] && break
    kill -0 "$cap" 2>/dev/null || break
    sleep 0.1
done
touch "$R.phase2-started"
wait "$cap"; drop_rc=$?
t3=$(now)
touch "$R.phase2-done"
# Phase 3: a server accepts connections and never answers (a hung iiod): the wait is bounded.
hang_rc=-1; t4=0; t5=0
if wait_for "$R.phase3-ready" 30; then
    t4=$(now)
    timeout 60 "$MB_BIN" devices -u "$URI" -T 1500 >/dev/null 2>"$R.hang.err"; hang_rc=$?
    t5=$(now)
fi
python3 - "$R" "$dev_rc" "$cap_rc" "$drop_rc" "$hang_rc" "$t0" "$t1" "$t2" "$t3" "$t4" "$t5" >"$R.host.json" <<'PY'
import json, os, sys
R = sys.argv[1]
dev_rc, cap_rc, drop_rc, hang_rc = map(int, sys.argv[2:6])
t0, t1, t2, t3, t4, t5 = map(float, sys.argv[6:12])
def js(s):
    try: return json.load(open(R + s))
    except Exception: return None
def text(s):
    try: return open(R + s).read()[-2000:]
    except Exception: return ""
print(json.dumps({
    "devices": {"exit": dev_rc, "seconds": t1 - t0, "json": js(".devices.json"), "stderr": text(".devices.err")},
    "capture": {"exit": cap_rc, "seconds": t2 - t1, "stats": js(".stats.json"), "stderr": text(".capture.err")},
    "drop": {"exit": drop_rc, "stats": js(".drop-stats.json"), "stderr": text(".drop.err"),
             "seconds": t3 - t2},  # iiod is killed about 3 s after this capture started
    "hang": {"exit": hang_rc, "seconds": t5 - t4, "stderr": text(".hang.err")},
}))
PY
