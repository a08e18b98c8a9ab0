"""Checks 54-iio-wake-nofifo: without hardware FIFO, batch 100 (kernel watermark 100, the
reader's default timed wait) cuts userspace returns to <= ceil(N/100) + 2; watermark 1 is
reported beside it."""
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
        if n == 100 and (ret is None or ret > math.ceil(samples / 100) + 2):
            p.append(f"{key}: userspace returns {ret} > ceil({samples}/100) + 2")
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
                     f"{key}_window_cpu_ticks": w.get("cpu_ticks"), f"{key}_cpu_time_s": st.get("cpu_s")})
    figs["samples"] = figs.get("watermark1_samples", 0) + figs.get("watermark100_samples", 0)
    return p, figs
