#!/bin/bash
# Session test 2 (issue 15): a session into an output directory killed with SIGKILL at a seeded
# random moment (3 seeds). Each recording must read back with at most the last batch missing
# (every batch the capture reported on stdout is in it), and `motionbatch recover DIR` must
# complete it (summary written, steps = replay of the rows, checkpointed CPU and wake-ups); for the
# last seed a new session into the same directory recovers it itself.
# timeout: 150
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
python3 "$MB_ROOT/scripts/kernel-tests/resample-recording.py" "$MB_ROOT/Recordings/hapt-user01-walking.csv" "$TEST_TMP/walk100.csv" --rate 100 || exit 1
start_emulator "$TEST_TMP/walk100.csv" --loop --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 15 >/dev/null || { echo "accel_3d did not appear"; diagnose; exit 1; }
python3 - "$MB_BIN" "$TEST_TMP" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import glob, json, os, random, signal, subprocess, sys, time
binary, tmp = sys.argv[1:3]
trials = []
def run(*args, **kw):
    p = subprocess.run([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=90, **kw)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
for seed in (1, 2, 3):
    rng = random.Random(6400 + seed)
    out = os.path.join(tmp, f"seed{seed}")
    ndjson = open(os.path.join(tmp, f"seed{seed}.ndjson"), "wb")
    p = subprocess.Popen([binary, "capture", "--device", "accel_3d", "--rate", "100", "--latency", "1", "--output-dir", out, "--ndjson"],
                         stdout=ndjson, stderr=subprocess.PIPE)
    delay = rng.uniform(3.0, 7.0)
    time.sleep(delay)
    killed = time.monotonic()
    p.send_signal(signal.SIGKILL)
    _, err = p.communicate(timeout=30)
    ndjson.close()
    msgs = [json.loads(l) for l in open(os.path.join(tmp, f"seed{seed}.ndjson")) if l.strip()]
    batches = [m for m in msgs if m.get("type") == "batch"]
    files = sorted(f for f in os.listdir(out) if f.endswith(".csv"))
    t = {"seed": seed, "delay_s": delay, "killed_mono_s": killed, "exit": p.returncode, "stderr": err.decode(errors="replace")[-500:],
         "reported_samples": batches[-1]["total_samples"] if batches else 0, "reported_batches": len(batches),
         "last_reported_end_s": batches[-1]["end_s"] if batches else None, "files": files,
         "checkpoint_before": sorted(f for f in os.listdir(out) if f.endswith(".checkpoint.json"))}
    if files:
        rec = os.path.join(out, files[0])
        rows = [l for l in open(rec) if l[:1].isdigit()]
        t["rows"] = len(rows)
        t["last_row_s"] = int(rows[-1].split(",")[0]) / 1e9 if rows else None
        t["torn"] = not open(rec, "rb").read().endswith(b"\n")
        rc, so, se = run("replay", rec, "--json")
        t["replay_before_exit"] = rc
        t["replay_before"] = json.loads(so) if rc == 0 else se[-300:]
    if seed < 3:
        rc, so, se = run("recover", out, "--json")
        t["recover_exit"] = rc
        t["recover"] = json.loads(so) if so.strip() else None
        t["recover_stderr"] = se[-300:]
    else:
        # A new session into the same directory recovers what the killed one left, first.
        rc, so, se = run("capture", "--device", "accel_3d", "--rate", "100", "--latency", "1", "--output-dir", out, "--duration", "3")
        t["restart_exit"] = rc
        t["restart_stderr"] = se[-1500:]
    t["files_after"] = sorted(os.listdir(out))
    if files:
        s = os.path.join(out, files[0].replace(".csv", ".summary.json"))
        t["summary"] = json.load(open(s)) if os.path.exists(s) else None
        rc, so, se = run("replay", os.path.join(out, files[0]), "--json")
        t["replay_after_exit"] = rc
        t["replay_after"] = json.loads(so) if rc == 0 else se[-300:]
    trials.append(t)
print(json.dumps({"trials": trials}))
PY
stop_emulator TERM
