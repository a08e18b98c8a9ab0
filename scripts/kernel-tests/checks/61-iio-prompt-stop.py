"""Checks 61-iio-prompt-stop: a SIGINT into a 10 s batch wait (hardware FIFO, and timed waiting)
or into batch-1 capture (its wake-ups collected in blocking reads) is handled within the
threshold, and a 3 s deadline ends a 10 s wait and a batch-1 capture on time. The batch-1
trials must show joined deliveries (at least 5 samples per batch), or they did not test the
blocking reads.

Latency = the capture's stop_monotonic_s (the wake-up that decided the stop) - the moment the
guest sent the signal, both CLOCK_MONOTONIC. Threshold: THRESHOLD_S, set from the distribution
measured under QEMU TCG plus a margin (scripts/kernel-tests/README.md, "Prompt stop"); the issue's
target is 100 ms at any latency, and before the self-pipe the stop came up to 10 s late."""
THRESHOLD_S = 0.1


def joined(k, t, p):
    """A batch-1 trial's deliveries were joined (samples >= 5 x batches)."""
    n, b = t.get("samples") or 0, t.get("batches") or 0
    if b <= 0 or n < 5 * b: p.append(f"{k}: {n} samples in {b} batches: wake-ups not collected")


def check(r, ctx):
    p, figs = [], {}
    lat = []
    for t in r.get("trials", []):
        k = t.get("kind")
        if t.get("exit") != 0: p.append(f"{k}: capture exited {t.get('exit')}: {t.get('stderr', '')[-200:]}")
        stop = t.get("stop_monotonic_s")
        if k.startswith("signal"):
            if t.get("stop_reason") != "signal": p.append(f"{k}: stop reason {t.get('stop_reason')} != signal")
            if stop is None or t.get("sent") is None:
                p.append(f"{k}: no stop time"); continue
            d = stop - t["sent"]
            lat.append(d)
            if not (-0.001 <= d <= THRESHOLD_S): p.append(f"{k}: stop handled {d * 1000:.1f} ms after the signal (threshold {THRESHOLD_S * 1000:.0f} ms)")
            if k == "signal-timed" and t.get("timed_wait") is not True: p.append(f"{k}: not timed waiting")
            if k == "signal-batch1": joined(k, t, p)
        else:
            if t.get("stop_reason") != "duration": p.append(f"{k}: stop reason {t.get('stop_reason')} != duration")
            e = t.get("elapsed_s") or 0
            figs["deadline_elapsed_s" if k == "deadline-fifo" else k.replace("-", "_") + "_elapsed_s"] = e
            if k == "deadline-batch1": joined(k, t, p)
            if not 3.0 <= e <= 3.0 + THRESHOLD_S: p.append(f"{k}: stopped after {e:.3f} s of a 3 s duration")
    if len(lat) < 9: p.append(f"only {len(lat)} signal trials measured")
    lat.sort()
    figs.update({"trials": len(lat), "stop_latency_ms_max": round(1000 * lat[-1], 2) if lat else None,
                 "stop_latency_ms_median": round(1000 * lat[len(lat) // 2], 2) if lat else None,
                 "stop_latency_ms": [round(1000 * x, 2) for x in lat], "threshold_ms": THRESHOLD_S * 1000})
    return p, figs
