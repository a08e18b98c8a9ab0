"""Checks 57-iio-overflow: a 5 s stall with a 2 s kernel buffer; lost samples reported and
consistent with what the emulator sent."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    p = []
    st = r.get("stats") or {}
    if r.get("exit") != 0: p.append(f"capture exited {r.get('exit')}")
    lost, samples = st.get("lost_samples") or 0, st.get("samples") or 0
    sent = c.sensor(r.get("emulator"), "accel_3d").get("samples_sent", 0)
    if lost < 250: p.append(f"only {lost} samples reported lost after a 5 s stall with a 2 s buffer")
    if abs((sent - samples) - lost) > 10:
        p.append(f"reported lost {lost} but the emulator sent {sent} and {samples} were captured")
    dev = (st.get("devices") or [{}])[0]
    return p, {"samples": samples, "lost_samples": lost, "samples_sent": sent,
               "kernel_buffer_scans": dev.get("kernel_buffer_scans"), "gaps": dev.get("gaps")}
