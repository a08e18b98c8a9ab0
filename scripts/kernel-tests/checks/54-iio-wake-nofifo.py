"""Checks 54-iio-wake-nofifo: without hardware FIFO, batch 100 (kernel watermark 100, the
reader's default timed wait) cuts userspace returns to <= ceil(N/100) + 2; watermark 1 is
reported beside it.

The bound follows from the timed wait's mechanism (BatchDueClock): one return per batch
interval on a fixed grid, whatever the producer does (a batch the emulator filled late is
handed over short and counted in `short_batches`), +1 for the deadline's wake-up and +1 for a
grid point crossed by the start. Returns caused by the outside (signals, any device's uevent:
`event_wakes`) are not the batching's and are subtracted; they are bounded at 5."""
import math


def check(r, ctx):
    p, figs = [], {}
    for key, n in (("watermark1", 1), ("watermark100", 100)):
        x = r.get(key) or {}
        st, w = x.get("stats") or {}, x.get("window") or {}
        if x.get("exit") != 0: p.append(f"{key}: capture exited {x.get('exit')}")
        if (w.get("seconds") or 0) < 30: p.append(f"{key}: window {w.get('seconds')} s < 30 s")
        samples = st.get("samples") or 0
        ret = st.get("userspace_returns")
        if samples < 2500: p.append(f"{key}: only {samples} samples")
        dev = (st.get("devices") or [{}])[0]
        if dev.get("watermark") != n: p.append(f"{key}: kernel watermark {dev.get('watermark')} != {n}")
        events = st.get("event_wakes") or 0
        if n == 100 and (ret is None or ret - events > math.ceil(samples / 100) + 2):
            p.append(f"{key}: userspace returns {ret} - event wake-ups {events} > ceil({samples}/100) + 2")
        if events > 5: p.append(f"{key}: {events} wake-ups by signals or device events (expected <= 5)")
        # The default wait without a FIFO is timed: one scheduler wake-up per batch, not per sample
        # (a reader waiting on the buffer is woken by every pushed sample: ~1000 per 1000 samples).
        sent_w = 100 * (w.get("seconds") or 0)
        if n == 100 and st.get("timed_wait") is not True:
            p.append(f"{key}: the default wait was not timed (timed_wait {st.get('timed_wait')})")
        if n == 100 and sent_w and (w.get("voluntary") or 0) > 3 * math.ceil(sent_w / 100) + 5:
            p.append(f"{key}: {w.get('voluntary')} voluntary switches for {sent_w:.0f} samples: more than ~1 per batch")
        if st.get("lost_samples"): p.append(f"{key}: {st.get('lost_samples')} samples lost")
        if not w.get("alive_at_end"): p.append(f"{key}: the reader ended before the window did")
        sent = 100 * (w.get("seconds") or 0)  # samples delivered in the window at 100 Hz
        figs.update({f"{key}_samples": samples, f"{key}_process_wakeups": ret,
                     f"{key}_window_voluntary_switches": w.get("voluntary"),
                     f"{key}_voluntary_per_1000_samples": round(1000 * w.get("voluntary", 0) / sent, 1) if sent else None,
                     f"{key}_window_cpu_ticks": w.get("cpu_ticks"), f"{key}_cpu_time_s": st.get("cpu_s"),
                     f"{key}_event_wakes": st.get("event_wakes"), f"{key}_short_batches": dev.get("short_batches")})
    figs["samples"] = figs.get("watermark1_samples", 0) + figs.get("watermark100_samples", 0)
    return p, figs
