"""Checks 07-real-recording: a bundled UCI HAPT recording comes out of the kernel at 50 Hz with
the recording's values (within the raw resolution), in order, none missing."""
import math, os, sys
sys.path.insert(0, os.path.dirname(__file__))
import capture

INTERVAL = 20_000_000


def check(r, ctx):
    p = []
    rows = capture.recording(os.path.join(ctx["root"], r["recording"]))
    figs = {"samples": 0, "lost_samples": 0, "device_deliveries": 0, "process_wakeups": 0, "cpu_time_s": 0.0}
    sensors = {x["name"]: x for x in (r.get("summary") or {}).get("sensors", [])}
    for name, prefix, cols, iio in (("accel", "accel", (1, 2, 3), "accel_3d"), ("gyro", "anglvel", (4, 5, 6), "gyro_3d")):
        run = r.get(f"{name}_run") or {}
        if run.get("timed_out") or run.get("exit") != 0:
            p.append(f"{name}: iio_readdev exit {run.get('exit')} timed_out {run.get('timed_out')}: {run.get('stderr', '').strip()[-300:]}")
        snap = r[name]
        freq = float(snap.get(f"in_{prefix}_sampling_frequency", "nan"))
        if not math.isclose(freq, 50, rel_tol=1e-3):
            p.append(f"{name}: sampling_frequency {freq}, expected the recording's 50 Hz")
        scale = float(snap[f"in_{prefix}_scale"])
        samples, rest = capture.decode(os.path.join(ctx["results"], r[f"{name}_capture"]), snap, prefix)
        if len(samples) != r["n"] or rest:
            p.append(f"{name}: captured {len(samples)} samples (+{rest} bytes), expected {r['n']}")
        offset, bad, first = capture.compare(samples, rows, cols, scale)
        if offset != 0 or bad:
            p.append(f"{name}: {bad} samples differ from the recording (offset {offset}): {first}")
        ts = [s[0] for s in samples]
        lost = capture.gaps(ts, INTERVAL)
        if lost:
            p.append(f"{name}: {lost} samples missing (timestamp gaps)")
        worst = max((abs((b - a) - INTERVAL) for a, b in zip(ts, ts[1:])), default=0)
        figs[f"{name}_max_spacing_error_ns"] = worst
        if worst > 1000:
            p.append(f"{name}: hub timestamp spacing deviates from 20 ms by {worst} ns")
        figs["samples"] += len(samples)
        figs["lost_samples"] += lost
        figs["device_deliveries"] += sensors.get(iio, {}).get("bursts", 0)
        figs["process_wakeups"] += run.get("process_wakeups", 0)
        figs["cpu_time_s"] = round(figs["cpu_time_s"] + run.get("cpu_time_s", 0.0), 4)
    return p, figs
