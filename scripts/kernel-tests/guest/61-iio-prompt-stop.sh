#!/bin/bash
# Prompt stop at --latency 10: SIGINT sent at seeded random moments into a 10 s batch wait must
# be handled at once (the signal's byte wakes the poll through the self-pipe), with the hardware
# FIFO (hwfifo_timeout 10 s), without it (timed waiting, batch 1000), and at batch 1 (the
# collected per-sample wake-ups' blocking reads); the deadline of --duration 3 likewise ends a
# 10 s wait, and a run of blocking reads, on time. Each capture reports the monotonic time it
# decided to stop (stop_monotonic_s); the guest records when the signal was sent on the same
# clock. The host-side check judges the worst latency against a threshold set from the
# distribution measured under TCG (scripts/kernel-tests/README.md).
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 10 >/dev/null || { echo "accel_3d did not appear"; exit 1; }
python3 - "$MB_BIN" "$TEST_TMP" >"$MB_RESULTS/$TEST_NAME.json" <<'PY'
import json, os, random, signal, subprocess, sys, time
binary, tmp = sys.argv[1:3]
rng = random.Random(61)
trials = []
def run(kind, args, kill_after):
    stats = os.path.join(tmp, f"stats-{len(trials)}.json")
    start = time.monotonic()
    p = subprocess.Popen([binary, "capture", "--device", "accel_3d", "--rate", "100", *args, "--stats-json", stats],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sent = None
    if kill_after is not None:
        time.sleep(kill_after)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill(); _, err = p.communicate()
    exited = time.monotonic()
    st = json.load(open(stats)) if os.path.exists(stats) else {}
    trials.append({"kind": kind, "args": args, "exit": p.returncode, "started": start, "sent": sent, "exited": exited,
                   "stop_monotonic_s": st.get("stop_monotonic_s"), "stop_reason": st.get("stop_reason"),
                   "elapsed_s": st.get("elapsed_s"), "samples": st.get("samples"), "batches": st.get("batches"), "timed_wait": st.get("timed_wait"),
                   "stderr": err.decode(errors="replace")[-600:]})
for i in range(3):
    run("signal-fifo", ["--latency", "10", "--duration", "60"], rng.uniform(1.0, 2.5))
for i in range(3):
    run("signal-timed", ["--batch", "1000", "--no-hwfifo", "--duration", "60"], rng.uniform(1.0, 2.5))
run("deadline-fifo", ["--latency", "10", "--duration", "3"], None)
# Per-sample delivery without a recording: the wake-ups are collected in blocking reads
# (InterruptibleRead), which the signal and the deadline must end as promptly.
for i in range(3):
    run("signal-batch1", ["--batch", "1", "--no-hwfifo", "--duration", "60"], rng.uniform(1.0, 2.5))
run("deadline-batch1", ["--batch", "1", "--no-hwfifo", "--duration", "3"], None)
print(json.dumps({"trials": trials}))
PY
stop_emulator TERM
