"""Checks 53-iio-wake-readdev: iio_readdev -b 100 on the same device and settings; the reader
(52) must have fewer voluntary context switches per burst than iio_readdev over the window."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    p = []
    w = r.get("window") or {}
    if (w.get("seconds") or 0) < 30: p.append(f"window {w.get('seconds')} s < 30 s")
    wb = w.get("bursts") or 0
    if wb < 25: p.append(f"only {wb} bursts in the window")
    ours = c.load_result(ctx, "52-iio-wake-fifo")
    ow = (ours or {}).get("window") or {}
    per_burst_ours = ow.get("voluntary", 0) / max(ow.get("bursts") or 0, 1)
    per_burst_ref = w.get("voluntary", 0) / max(wb, 1)
    if ours is None:
        p.append("no 52-iio-wake-fifo result to compare with")
    elif not per_burst_ours < per_burst_ref:
        p.append(f"motionbatch capture {per_burst_ours:.2f} voluntary switches/burst is not below iio_readdev -b 100's {per_burst_ref:.2f}")
    samples = r.get("bytes", 0) // 24
    return p, {"samples": samples, "device_deliveries": wb, "window_s": round(w.get("seconds", 0), 1),
               "readdev_voluntary_switches": w.get("voluntary"), "readdev_switches_per_burst": round(per_burst_ref, 2),
               "capture_switches_per_burst": round(per_burst_ours, 2),
               "readdev_cpu_ticks": w.get("cpu_ticks"), "capture_cpu_ticks": ow.get("cpu_ticks"), "clk_tck": w.get("clk_tck")}
