"""Checks 52-iio-wake-fifo: hardware FIFO 1 s at 100 Hz — userspace returns <= bursts + 2 over the
capture, and voluntary context switches <= 6 per burst over a >= 30 s window. Bursts are counted
from the arrival timestamps the reader captured (see iio_common.bursts).

The bound follows from the mechanism: one return per burst, +2 for the start and the deadline.
The emulated FIFO pushes a burst sample by sample; when the emulator is descheduled mid-burst
for longer than the reader's yields last, the reader waits again before the burst is complete
(`split_bursts`, one more return each), and signals or any device's uevents wake it too
(`event_wakes`). Both are added to the bound and bounded themselves: split bursts at 10 % of
the bursts (+1), event wake-ups at 5, so batching that stops working still fails."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    p = []
    st, w = r.get("stats") or {}, r.get("window") or {}
    if r.get("exit") != 0: p.append(f"capture exited {r.get('exit')}")
    if (w.get("seconds") or 0) < 30: p.append(f"window {w.get('seconds')} s < 30 s")
    if not w.get("alive_at_end"): p.append("the reader ended before the window did")
    path = os.path.join(ctx["results"], "52-iio-wake-fifo.csv")
    runs = []
    if os.path.exists(path):
        _, rows = c.read_recording(path)
        runs = c.bursts([int(x[0]) for x in rows])
    else:
        p.append("no capture data")
    wruns = c.in_window(runs, w)
    ret = st.get("userspace_returns")
    split, events = st.get("split_bursts") or 0, st.get("event_wakes") or 0
    if ret is None or ret > len(runs) + 2 + split + events:
        p.append(f"userspace returns {ret} > bursts {len(runs)} + 2 + split bursts {split} + event wake-ups {events}")
    if split > 1 + len(runs) // 10: p.append(f"{split} of {len(runs)} bursts were split (> 10 % + 1)")
    if events > 5: p.append(f"{events} wake-ups by signals or device events (expected <= 5)")
    if len(wruns) < 25: p.append(f"only {len(wruns)} bursts in the window (FIFO not batching?)")
    vol = w.get("voluntary", 10**9)
    if vol > 6 * max(len(wruns), 1):
        p.append(f"voluntary context switches {vol} > 6 x {len(wruns)} bursts")
    # Sample integrity is checked by 51; here the reader keeps the raw bunched arrival stamps
    # (--no-repair) to expose the bursts, so its gap-based loss count is not meaningful.
    dev = (st.get("devices") or [{}])[0]
    if dev.get("wait_strategy") != "poll-drain": p.append(f"wait strategy {dev.get('wait_strategy')} != poll-drain")
    if abs((dev.get("hwfifo_timeout_s") or 0) - 1) > 0.01: p.append(f"hwfifo_timeout {dev.get('hwfifo_timeout_s')} != 1")
    samples = st.get("samples") or 0
    return p, {"samples": samples, "device_deliveries": len(runs), "yields": st.get("yields"),
               "split_bursts": split, "event_wakes": events,
               "process_wakeups": ret, "cpu_time_s": st.get("cpu_s"),
               "window_s": w.get("seconds"), "window_bursts": len(wruns), "window_voluntary_switches": vol,
               "voluntary_switches_per_burst": round(vol / max(len(wruns), 1), 2),
               "window_cpu_ticks": w.get("cpu_ticks"),
               "cpu_us_per_sample": round(1e6 * (st.get("cpu_s") or 0) / samples, 1) if samples else None}
