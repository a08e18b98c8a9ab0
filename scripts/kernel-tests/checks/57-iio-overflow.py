"""Checks 57-iio-overflow: a 5 s stall at 100 Hz with a kernel buffer of 200 scans (the kernel's
kfifo rounds it up to 256). The kernel drops the NEW samples once full, so the reader must report
about 500 - 256 lost samples, and the count must agree exactly with the hub timestamps: captured +
lost = samples in the recording's time span. (The emulator's own samples_sent also counts samples
sent outside the capture, while the sensor powers up and down, so it is reported, not compared.)"""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    p = []
    st = r.get("stats") or {}
    if r.get("exit") != 0: p.append(f"capture exited {r.get('exit')}")
    lost, samples = st.get("lost_samples") or 0, st.get("samples") or 0
    sent = c.sensor(r.get("emulator"), "accel_3d").get("samples_sent", 0)
    expected = 500 - 256
    if abs(lost - expected) > 25:
        p.append(f"{lost} samples reported lost; a 5 s stall with a 256-scan kfifo loses about {expected}")
    path = os.path.join(ctx["results"], "57-iio-overflow.csv")
    span = None
    if os.path.exists(path):
        _, rows = c.read_recording(path)
        if len(rows) != samples: p.append(f"recording has {len(rows)} rows, stats say {samples}")
        if rows:
            span = round((rows[-1][0] - rows[0][0]) / 10_000_000) + 1
            if span != samples + lost:
                p.append(f"captured {samples} + lost {lost} != {span} samples in the hub-timestamp span")
    else:
        p.append("no recording")
    dev = (st.get("devices") or [{}])[0]
    return p, {"samples": samples, "lost_samples": lost, "samples_in_span": span, "samples_sent": sent,
               "kernel_buffer_scans": dev.get("kernel_buffer_scans"), "gaps": dev.get("gaps")}
