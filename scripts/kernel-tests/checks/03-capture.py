"""Checks 03-capture: iio_readdev's samples x scale equal the recording's, in order, none missing."""
import os, sys
sys.path.insert(0, os.path.dirname(__file__))
import capture


def check(r, ctx):
    p, figs = [], {}
    res = ctx["results"]
    rows = capture.recording(os.path.join(res, r["recording"]))
    n = r["n"]
    totals = {"samples": 0, "lost_samples": 0, "device_deliveries": 0, "process_wakeups": 0, "cpu_time_s": 0.0}
    sensors = {x["name"]: x for x in (r.get("summary") or {}).get("sensors", [])}
    for name, prefix, cols, iio in (("accel", "accel", (1, 2, 3), "accel_3d"), ("gyro", "anglvel", (4, 5, 6), "gyro_3d")):
        run = r.get(f"{name}_run") or {}
        if run.get("timed_out") or run.get("exit") != 0:
            p.append(f"{name}: iio_readdev exit {run.get('exit')} signal {run.get('signal')} timed_out {run.get('timed_out')}: {run.get('stderr', '').strip()[-300:]}")
        snap = r[name]
        scale = float(snap[f"in_{prefix}_scale"])
        samples, rest = capture.decode(os.path.join(res, r[f"{name}_capture"]), snap, prefix)
        if rest:
            p.append(f"{name}: capture has {rest} trailing bytes (not whole scans)")
        if len(samples) != n:
            p.append(f"{name}: captured {len(samples)} samples, expected {n}")
        offset, bad, first = capture.compare(samples, rows, cols, scale)
        if offset != 0:
            p.append(f"{name}: capture does not start at the recording's first sample ({first or offset})")
        elif bad:
            p.append(f"{name}: {bad} of {len(samples)} samples differ from the recording; {first}")
        ts = [s[0] for s in samples]
        if any(b <= a for a, b in zip(ts, ts[1:])):
            p.append(f"{name}: timestamps not strictly increasing")
        lost = capture.gaps(ts, 10_000_000)
        if lost:
            p.append(f"{name}: {lost} samples missing (timestamp gaps)")
        em = sensors.get(iio, {})
        totals["samples"] += len(samples)
        totals["lost_samples"] += lost
        totals["device_deliveries"] += em.get("bursts", 0)
        totals["process_wakeups"] += run.get("process_wakeups", 0)
        totals["cpu_time_s"] = round(totals["cpu_time_s"] + run.get("cpu_time_s", 0.0), 4)
    if r.get("emulator_exit") != 0:
        p.append(f"emulator exited {r.get('emulator_exit')}")
    return p, totals
