"""Checks 53-iio-wake-readdev: iio_readdev -T 0 -b 100 on the same device and settings; the reader
(52) must have fewer voluntary context switches per burst than iio_readdev over the window."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    p = []
    w = r.get("window") or {}
    if (w.get("seconds") or 0) < 30: p.append(f"window {w.get('seconds')} s < 30 s")
    if not w.get("alive_at_end"): p.append("iio_readdev ended before the window did")
    path = os.path.join(ctx["results"], "53-iio-wake-readdev.bin")
    ts = c.readdev_timestamps(path) if os.path.exists(path) else []
    runs = c.bursts(ts)
    wruns = c.in_window(runs, w)
    if len(wruns) < 25: p.append(f"only {len(wruns)} bursts in the window")
    ours = c.load_result(ctx, "52-iio-wake-fifo")
    ow = (ours or {}).get("window") or {}
    ocsv = os.path.join(ctx["results"], "52-iio-wake-fifo.csv")
    oruns = c.in_window(c.bursts([int(x[0]) for x in c.read_recording(ocsv)[1]]), ow) if os.path.exists(ocsv) else []
    per_burst_ours = ow.get("voluntary", 0) / max(len(oruns), 1)
    per_burst_ref = w.get("voluntary", 0) / max(len(wruns), 1)
    if ours is None:
        p.append("no 52-iio-wake-fifo result to compare with")
    elif not per_burst_ours < per_burst_ref:
        p.append(f"motionbatch capture {per_burst_ours:.2f} voluntary switches/burst is not below iio_readdev -b 100's {per_burst_ref:.2f}")
    return p, {"samples": len(ts), "device_deliveries": len(runs), "window_s": w.get("seconds"), "window_bursts": len(wruns),
               "readdev_voluntary_switches": w.get("voluntary"), "readdev_switches_per_burst": round(per_burst_ref, 2),
               "capture_voluntary_switches": ow.get("voluntary"), "capture_switches_per_burst": round(per_burst_ours, 2),
               "readdev_cpu_ticks": w.get("cpu_ticks"), "capture_cpu_ticks": ow.get("cpu_ticks"), "clk_tck": w.get("clk_tck")}
