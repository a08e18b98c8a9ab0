"""Checks 52-iio-wake-fifo: hardware FIFO 1 s at 100 Hz — userspace returns <= bursts + 2 and
voluntary context switches <= 6 per burst over a >= 30 s window."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    p = []
    st, w = r.get("stats") or {}, r.get("window") or {}
    if r.get("exit") != 0: p.append(f"capture exited {r.get('exit')}")
    if (w.get("seconds") or 0) < 30: p.append(f"window {w.get('seconds')} s < 30 s")
    bursts_total = c.sensor(r.get("emulator"), "accel_3d").get("bursts", 0)
    ret = st.get("userspace_returns")
    if ret is None or ret > bursts_total + 2:
        p.append(f"userspace returns {ret} > bursts {bursts_total} + 2")
    wb = w.get("bursts") or 0
    if wb < 25: p.append(f"only {wb} bursts in the window (FIFO not batching?)")
    if w.get("voluntary", 1e9) > 6 * max(wb, 1):
        p.append(f"voluntary context switches {w.get('voluntary')} > 6 x {wb} bursts")
    if st.get("lost_samples"): p.append(f"{st.get('lost_samples')} samples lost")
    dev = (st.get("devices") or [{}])[0]
    if dev.get("wait_strategy") != "poll-drain": p.append(f"wait strategy {dev.get('wait_strategy')} != poll-drain")
    if abs((dev.get("hwfifo_timeout_s") or 0) - 1) > 0.01: p.append(f"hwfifo_timeout {dev.get('hwfifo_timeout_s')} != 1")
    samples = st.get("samples") or 0
    return p, {"samples": samples, "lost_samples": st.get("lost_samples"), "device_deliveries": bursts_total,
               "process_wakeups": ret, "cpu_time_s": st.get("cpu_s"),
               "window_s": round(w.get("seconds", 0), 1), "window_bursts": wb, "window_voluntary_switches": w.get("voluntary"),
               "window_cpu_ticks": w.get("cpu_ticks"), "window_samples_sent": w.get("samples_sent"),
               "cpu_us_per_sample": round(1e6 * (st.get("cpu_s") or 0) / samples, 2) if samples else None}
