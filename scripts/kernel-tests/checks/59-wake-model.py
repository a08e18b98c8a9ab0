"""Checks 59-wake-model: `motionbatch wakes --measured` on the captures of tests 52 (hardware FIFO)
and 54 (per-sample, watermark 100) and `motionbatch calibrate` from them. Asserts the counting laws
the model must reproduce from a real kernel: userspace returns = ceil(samples / batch) (+-2 for
start and stop, or 0.5 % for a per-sample reader that sometimes drains two), device deliveries
(where measured: the emulator's deliveries while the capture held the FIFO, between its
hwfifo_timeout write and its release) and scheduler wake-ups within 10 % (+-3) of the
prediction, and a finite calibration. CPU time is reported beside the prediction (the model's CPU
constants are estimates for real boards; emulated CPU time only calibrates)."""
import math


def rows(m):
    return {r["quantity"]: r for r in (m or {}).get("rows", [])}


def close(measured, predicted, rel, absolute):
    return measured is not None and predicted is not None and abs(measured - predicted) <= max(absolute, rel * abs(predicted))


def check(r, ctx):
    p, figs = [], {}
    if any(e != 0 for e in r.get("exits", [1])):
        p.append(f"a command failed: exit statuses {r.get('exits')}")
    for name in ("fifo", "per_sample", "watermark100"):
        rs = rows(r.get(name))
        if not rs:
            p.append(f"{name}: no measured-vs-model rows")
            continue
        for q in ("device_deliveries", "scheduler_wakeups", "userspace_returns", "cpu_time_s"):
            row = rs.get(q)
            if row is None:
                if q != "device_deliveries" or name == "fifo":
                    p.append(f"{name}: no row for {q}")
                continue
            figs[f"{name}_{q}_measured"] = row.get("measured")
            figs[f"{name}_{q}_model"] = row.get("predicted")
        ret = rs.get("userspace_returns", {})
        if not close(ret.get("measured"), ret.get("predicted"), 0.005, 2):
            p.append(f"{name}: userspace returns {ret.get('measured')} vs model {ret.get('predicted')} (law: ceil(samples/batch), +-2 or 0.5 %)")
        sch = rs.get("scheduler_wakeups", {})
        if not close(sch.get("measured"), sch.get("predicted"), 0.10, 3):
            p.append(f"{name}: scheduler wake-ups {sch.get('measured')} vs model {sch.get('predicted')} (more than 10 % apart)")
        dev = rs.get("device_deliveries")
        if dev is not None and dev.get("measured") is not None and not close(dev.get("measured"), dev.get("predicted"), 0.10, 3):
            p.append(f"{name}: device deliveries {dev.get('measured')} vs model {dev.get('predicted')} (more than 10 % apart)")
    cal = r.get("calibration") or {}
    for k in ("per_wake_cpu_s", "per_sample_cpu_s"):
        v = cal.get(k)
        if not isinstance(v, (int, float)) or not math.isfinite(v):
            p.append(f"calibration: {k} = {v!r}")
        figs[f"calibrated_{k}"] = v
    return p, figs
