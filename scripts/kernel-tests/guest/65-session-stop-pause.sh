#!/bin/bash
# Session test 3 (issue 15): SIGTERM stops a session cleanly within 100 ms (the capture's decision
# time minus the moment the signal was sent), the buffer disabled, the summary written; SIGUSR1
# pauses for 5 s and SIGUSR2 resumes: while paused the buffer is disabled, no sample is captured
# and the reader is not woken, and the pause is in the recording and the summary.
# timeout: 120
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop --summary-json "$TEST_TMP/emu.json"
dev=$(wait_iio accel_3d 10) || { echo "accel_3d did not appear"; exit 1; }
python3 - "$MB_BIN" "$TEST_TMP" "$dev" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, os, signal, subprocess, sys, time
binary, tmp, dev = sys.argv[1:4]
def switches(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("voluntary_ctxt_switches:"): return int(line.split()[1])
def enabled():
    return open(os.path.join(dev, "buffer", "enable")).read().strip()
def events(path):
    return [l.strip() for l in open(path) if l.startswith("# event:")]
def rows(path):
    return [int(l.split(",")[0]) for l in open(path) if l[:1].isdigit()]
res = {"stops": []}
# SIGTERM at seeded moments: three sessions.
import random
rng = random.Random(65)
for i in range(3):
    out = os.path.join(tmp, f"stop{i}")
    stats = os.path.join(tmp, f"stop{i}.json")
    p = subprocess.Popen([binary, "capture", "--device", "accel_3d", "--rate", "100", "--latency", "1", "--output-dir", out,
                          "--stats-json", stats], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(rng.uniform(2.5, 4.5))
    during = enabled()
    sent = time.monotonic()
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=20)
    exited = time.monotonic()
    st = json.load(open(stats)) if os.path.exists(stats) else {}
    files = sorted(os.listdir(out)) if os.path.isdir(out) else []
    res["stops"].append({"exit": p.returncode, "sent": sent, "exited": exited, "stop_monotonic_s": st.get("stop_monotonic_s"),
                         "stop_reason": st.get("stop_reason"), "enabled_during": during, "enabled_after": enabled(),
                         "files": files, "summary": next((json.load(open(os.path.join(out, f))) for f in files if f.endswith(".summary.json")), None),
                         "stderr": err.decode(errors="replace")[-800:]})
# Pause and resume.
path = os.path.join(tmp, "pause.csv")
stats = os.path.join(tmp, "pause-stats.json")
p = subprocess.Popen([binary, "capture", "--device", "accel_3d", "--rate", "100", "--latency", "1", "--output", path,
                      "--stats-json", stats, "--ndjson"], stdout=open(os.path.join(tmp, "pause.ndjson"), "wb"), stderr=subprocess.PIPE)
time.sleep(3.5)
paused_sent = time.monotonic()
p.send_signal(signal.SIGUSR1)
# Wait until the pause is in the recording (the capture has handled it), then measure 5 s.
deadline = time.monotonic() + 5
while time.monotonic() < deadline and not any("pause" in e for e in events(path)):
    time.sleep(0.05)
paused_seen = time.monotonic()
time.sleep(0.3)
v0, t0, e0 = switches(p.pid), time.monotonic(), enabled()
rows0 = len(rows(path))
time.sleep(5)
v1, t1, e1 = switches(p.pid), time.monotonic(), enabled()
rows1 = len(rows(path))
p.send_signal(signal.SIGUSR2)
resumed_sent = time.monotonic()
time.sleep(3)
p.send_signal(signal.SIGTERM)
_, err = p.communicate(timeout=20)
st = json.load(open(stats)) if os.path.exists(stats) else {}
summary = os.path.join(tmp, "pause.summary.json")
res["pause"] = {"exit": p.returncode, "paused_sent": paused_sent, "paused_seen": paused_seen, "resumed_sent": resumed_sent,
                "window_s": t1 - t0, "switches_in_window": v1 - v0, "enabled_in_window": [e0, e1], "rows_in_window": rows1 - rows0,
                "events": events(path), "timestamps": rows(path), "stats": st,
                "summary": json.load(open(summary)) if os.path.exists(summary) else None, "stderr": err.decode(errors="replace")[-1500:]}
print(json.dumps(res))
PY
stop_emulator TERM
