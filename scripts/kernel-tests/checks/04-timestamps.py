"""Checks 04-timestamps: hub timestamps keep the 10 ms spacing exactly; arrival timestamps bunch
within a FIFO burst (latency 0.5 s) with ~0.5 s gaps between bursts."""
import os, statistics, sys
sys.path.insert(0, os.path.dirname(__file__))
import capture

INTERVAL = 10_000_000


def check(r, ctx):
    p = []
    res = ctx["results"]
    rows = capture.recording(os.path.join(res, r["recording"]))
    figs = {"samples": 0, "lost_samples": 0, "device_deliveries": 0, "process_wakeups": 0, "cpu_time_s": 0.0}
    for mode in ("hub", "arrival"):
        run = r.get(f"{mode}_run") or {}
        if run.get("timed_out") or run.get("exit") != 0:
            p.append(f"{mode}: iio_readdev exit {run.get('exit')} timed_out {run.get('timed_out')}: {run.get('stderr', '').strip()[-300:]}")
        snap = r[mode]
        if snap.get("buffer/hwfifo_enabled") != "1":
            p.append(f"{mode}: hwfifo_enabled {snap.get('buffer/hwfifo_enabled')!r} after writing hwfifo_timeout=0.5")
        samples, _ = capture.decode(os.path.join(res, r[f"{mode}_capture"]), snap, "accel")
        if len(samples) != r["n"]:
            p.append(f"{mode}: captured {len(samples)} samples, expected {r['n']}")
        offset, bad, first = capture.compare(samples, rows, (1, 2, 3), float(snap["in_accel_scale"]))
        if offset != 0 or bad:
            p.append(f"{mode}: values differ from the recording: {first}")
        ts = [s[0] for s in samples]
        d = [b - a for a, b in zip(ts, ts[1:])]
        if not d:
            continue
        summ = r.get(f"{mode}_summary") or {}
        acc = next((x for x in summ.get("sensors", []) if x["name"] == "accel_3d"), {})
        if summ.get("exit_reason") != "signal" or summ.get("signal") != 2:
            p.append(f"{mode}: emulator summary exit_reason {summ.get('exit_reason')!r} signal {summ.get('signal')}, expected SIGINT (2)")
        if acc.get("report_latency_ms") != 500:
            p.append(f"{mode}: emulator latency {acc.get('report_latency_ms')} ms, expected 500")
        figs["samples"] += len(samples)
        figs["device_deliveries"] += acc.get("bursts", 0)
        figs["process_wakeups"] += run.get("process_wakeups", 0)
        figs["cpu_time_s"] = round(figs["cpu_time_s"] + run.get("cpu_time_s", 0.0), 4)
        if mode == "hub":
            worst = max(abs(x - INTERVAL) for x in d)
            figs["hub_max_spacing_error_ns"] = worst
            if worst > 1000:
                p.append(f"hub: timestamp spacing deviates from 10 ms by up to {worst} ns")
            figs["lost_samples"] += capture.gaps(ts, INTERVAL)
        else:
            small = [x for x in d if x < 2_000_000]
            big = [x for x in d if x > 300_000_000]
            figs["arrival_median_spacing_ms"] = round(statistics.median(d) / 1e6, 4)
            figs["arrival_burst_gaps"] = len(big)
            if len(small) < 0.8 * len(d):
                p.append(f"arrival: only {len(small)} of {len(d)} spacings < 2 ms: timestamps not bunched")
            if len(big) < 2:
                p.append(f"arrival: {len(big)} gaps > 300 ms between bursts, expected >= 2 (bursts every 0.5 s)")
            if acc.get("max_burst", 0) < 40:
                p.append(f"arrival: emulator's largest burst {acc.get('max_burst')} samples, expected ~50")
    return p, figs
