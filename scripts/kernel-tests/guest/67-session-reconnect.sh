#!/bin/bash
# Session test 5 (issue 15): the emulator is removed and created again mid-session. With
# --reconnect the session waits (device events, no polling), finds the device again by its
# identity (new iio:deviceN, new HID instance), continues into a second recording and records the
# gap; SIGTERM then ends it with exit 0. Without --reconnect it saves the partial recording and
# exits non-zero within 1 s of the removal.
# timeout: 120
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 30 --no-gyro
python3 - "$MB_BIN" "$TEST_TMP" "$MB_ROOT" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, os, signal, subprocess, sys, time
binary, tmp, root = sys.argv[1:4]
def wait_iio(name, t=15):
    end = time.monotonic() + t
    while time.monotonic() < end:
        for d in os.listdir("/sys/bus/iio/devices"):
            try:
                if open(f"/sys/bus/iio/devices/{d}/name").read().strip() == name: return d
            except OSError: pass
        time.sleep(0.05)
    return None
def gone(name, t=15):
    end = time.monotonic() + t
    while time.monotonic() < end:
        if wait_iio(name, 0) is None: return True
        time.sleep(0.05)
    return False
def emulator():
    p = subprocess.Popen([binary, "emulate", os.path.join(tmp, "rec.csv"), "--loop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return p, wait_iio("accel_3d")
def parent(dev):
    return os.path.dirname(os.path.realpath(f"/sys/bus/iio/devices/{dev}"))
res = {}
# With --reconnect.
emu, dev1 = emulator()
out = os.path.join(tmp, "with")
os.makedirs(out)
cap = subprocess.Popen([binary, "capture", "--device", "accel_3d", "--rate", "100", "--latency", "1", "--output", os.path.join(out, "r.csv"),
                        "--reconnect", "--ndjson"], stdout=open(os.path.join(tmp, "with.ndjson"), "wb"), stderr=subprocess.PIPE)
time.sleep(5)
parent1 = parent(dev1)
emu.send_signal(signal.SIGTERM); emu.wait(timeout=10)
removed = time.monotonic()
gone("accel_3d")
time.sleep(2)
emu, dev2 = emulator()
back = time.monotonic()
parent2 = parent(dev2) if dev2 else None
time.sleep(6)
cap.send_signal(signal.SIGTERM)
_, err = cap.communicate(timeout=20)
emu.send_signal(signal.SIGTERM); emu.wait(timeout=10)
gone("accel_3d")
msgs = [json.loads(l) for l in open(os.path.join(tmp, "with.ndjson")) if l.strip()]
files = sorted(os.listdir(out))
def lines(name): return open(os.path.join(out, name)).read().splitlines()
res["with"] = {"exit": cap.returncode, "stderr": err.decode(errors="replace")[-2500:], "files": files,
               "devices": [dev1, dev2], "parents": [parent1, parent2], "removed": removed, "back": back,
               "recordings": {f: {"events": [l for l in lines(f) if l.startswith("# event:")],
                                  "header": [l for l in lines(f) if l.startswith("# ") and not l.startswith("# event:")],
                                  "rows": sum(1 for l in lines(f) if l[:1].isdigit())} for f in files if f.endswith(".csv")},
               "summaries": {f: json.load(open(os.path.join(out, f))) for f in files if f.endswith(".summary.json")},
               "session": next((m for m in msgs if m.get("type") == "summary"), None),
               "events": [m.get("event") for m in msgs if m.get("type") == "event"]}
# Without --reconnect.
emu, dev = emulator()
out = os.path.join(tmp, "without")
os.makedirs(out)
stats = os.path.join(tmp, "without-stats.json")
cap = subprocess.Popen([binary, "capture", "--device", "accel_3d", "--rate", "100", "--latency", "1", "--output", os.path.join(out, "l.csv"),
                        "--stats-json", stats], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
time.sleep(4)
emu.send_signal(signal.SIGKILL); emu.wait(timeout=10)
killed = time.monotonic()
try:
    _, err = cap.communicate(timeout=10)
except subprocess.TimeoutExpired:
    cap.kill(); _, err = cap.communicate()
exited = time.monotonic()
files = sorted(os.listdir(out))
r = subprocess.run([binary, "replay", os.path.join(out, "l.csv"), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
res["without"] = {"exit": cap.returncode, "exit_after_removal_s": exited - killed, "stderr": err.decode(errors="replace")[-1500:],
                  "files": files, "rows": sum(1 for l in open(os.path.join(out, "l.csv")) if l[:1].isdigit()) if "l.csv" in files else 0,
                  "events": [l for l in open(os.path.join(out, "l.csv")) if l.startswith("# event:")] if "l.csv" in files else [],
                  "replay_exit": r.returncode, "stats": json.load(open(stats)) if os.path.exists(stats) else None,
                  "summary": json.load(open(os.path.join(out, "l.summary.json"))) if "l.summary.json" in files else None}
print(json.dumps(res))
PY
