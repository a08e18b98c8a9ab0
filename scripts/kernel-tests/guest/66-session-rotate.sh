#!/bin/bash
# Session test 4 (issue 15): rotation every 10 s for 35 s gives 4 recordings whose concatenation is
# the emulator's source (in order, nothing missing or repeated) and none is split inside a batch
# (the batch objects of --ndjson name the recording each went into). Then a full disk (a 128 KiB
# tmpfs): without --max-disk the session saves what it has and stops (exit 1, "disk is full"),
# every recording readable; with --max-disk it deletes the oldest recordings and goes on.
# timeout: 180
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 50 --no-gyro
cp "$TEST_TMP/rec.csv" "$MB_RESULTS/$TEST_NAME.source.csv"
start_emulator "$TEST_TMP/rec.csv" --loop --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 10 >/dev/null || { echo "accel_3d did not appear"; exit 1; }
mkdir -p "$TEST_TMP/small"
mount -t tmpfs -o size=128k tmpfs "$TEST_TMP/small" || { echo "cannot mount a small tmpfs"; exit 1; }
python3 - "$MB_BIN" "$TEST_TMP" "$MB_RESULTS" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, os, shutil, subprocess, sys
binary, tmp, results = sys.argv[1:4]
def capture(out, *extra):
    ndjson = os.path.join(tmp, os.path.basename(out) + ".ndjson")
    p = subprocess.run([binary, "capture", "--device", "accel_3d", "--rate", "100", "--latency", "1", "--output-dir", out, "--ndjson", *extra],
                       stdout=open(ndjson, "wb"), stderr=subprocess.PIPE, timeout=120)
    msgs = [json.loads(l) for l in open(ndjson) if l.strip()]
    return p.returncode, p.stderr.decode(errors="replace"), msgs
def recordings(out):
    files = sorted(f for f in os.listdir(out) if f.endswith(".csv"))
    info = []
    for f in files:
        path = os.path.join(out, f)
        r = subprocess.run([binary, "replay", path, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        head = {}
        for l in open(path):
            if not l.startswith("#"): break
            if ":" in l: k, v = l[2:].split(":", 1); head[k.strip()] = v.strip()
        info.append({"name": f, "rows": sum(1 for l in open(path) if l[:1].isdigit()), "replay_exit": r.returncode,
                     "replay_stderr": r.stderr.decode(errors="replace")[-300:], "header": head,
                     "summary": os.path.exists(os.path.join(out, f[:-4] + ".summary.json"))})
    return info
res = {}
out = os.path.join(tmp, "rot")
rc, err, msgs = capture(out, "--rotate", "10", "--duration", "35")
os.makedirs(os.path.join(results, "66-session-rotate.rot"), exist_ok=True)
for f in os.listdir(out):
    if f.endswith(".csv"): shutil.copy(os.path.join(out, f), os.path.join(results, "66-session-rotate.rot", f))
res["rotate"] = {"exit": rc, "stderr": err[-1500:], "batches": [m for m in msgs if m.get("type") == "batch"],
                 "summary": next((m for m in msgs if m.get("type") == "summary"), None), "recordings": recordings(out)}
small = os.path.join(tmp, "small")
rc, err, msgs = capture(os.path.join(small, "full"), "--rotate", "5", "--duration", "40")
res["full"] = {"exit": rc, "stderr": err[-2500:], "batches": len([m for m in msgs if m.get("type") == "batch"]),
               "reported_samples": max([m.get("total_samples", 0) for m in msgs if m.get("type") == "batch"] or [0]),
               "events": [m.get("event") for m in msgs if m.get("type") == "event"], "recordings": recordings(os.path.join(small, "full"))}
shutil.rmtree(os.path.join(small, "full"))
rc, err, msgs = capture(os.path.join(small, "ring"), "--rotate", "5", "--duration", "40", "--max-disk", "1G")
res["ring"] = {"exit": rc, "stderr": err[-2500:], "batches": len([m for m in msgs if m.get("type") == "batch"]),
               "deleted": [m for m in msgs if m.get("type") == "event" and m.get("event") == "deleted"],
               "disk_full": len([m for m in msgs if m.get("type") == "event" and m.get("event") == "disk-full"]),
               "summary": next((m for m in msgs if m.get("type") == "summary"), None), "recordings": recordings(os.path.join(small, "ring"))}
print(json.dumps(res))
PY
umount "$TEST_TMP/small"
stop_emulator TERM
