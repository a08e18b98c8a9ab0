"""Checks 62-iiod: a board over iiod. From the host, through QEMU's forwarded port:
`devices -u ip:...` finds accel_3d and gyro_3d with the network backend; `capture -u ...` at
100 Hz, latency 1 s (blocking refills: the network backend has no poll fd) gets the emulator's
samples in order with none lost; killing iiod mid-capture ends it promptly as `lost`
(disconnected) with a remedy naming iiod; `devices -T 1500` against a server that accepts and
never answers fails in bounded time with the same remedy."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)
ACC_TOL = 0.0098 / 2 + 1e-6


def check(r, ctx):
    p, figs = [], {}
    h = r.get("host") or c.load_result(ctx, "62-iiod.host") or {}
    if not h: return ["the host side did not run (no 62-iiod.host.json)"], figs
    if r.get("guest_phases_done") != 3: p.append(f"the guest finished {r.get('guest_phases_done')} of 3 phases")
    d = h.get("devices") or {}
    dj = d.get("json") or {}
    if d.get("exit") != 0: p.append(f"devices exited {d.get('exit')}: {d.get('stderr', '')[-300:]}")
    if dj.get("backend") != "network": p.append(f"devices backend {dj.get('backend')} != network")
    names = sorted(x.get("name") for x in dj.get("devices", []))
    if "accel_3d" not in names or "gyro_3d" not in names: p.append(f"devices over iiod found {names}")
    cap = h.get("capture") or {}
    st = cap.get("stats") or {}
    if cap.get("exit") != 0: p.append(f"capture exited {cap.get('exit')}: {cap.get('stderr', '')[-300:]}")
    devs = st.get("devices") or []
    if any(x.get("wait_strategy") != "blocking-refill" for x in devs): p.append(f"wait strategies {[x.get('wait_strategy') for x in devs]}")
    n = st.get("samples") or 0
    if n < 400: p.append(f"only {n} samples in 6 s at 100 Hz over iiod")
    if st.get("lost_samples"): p.append(f"{st.get('lost_samples')} samples lost over iiod")
    path = os.path.join(ctx["results"], "62-iiod.capture.csv")
    bad = None
    if os.path.exists(path):
        _, rows = c.read_recording(path)
        src = c.read_source(os.path.join(ctx["results"], "62-iiod.source.csv"))
        if rows and src:
            m = len(src)
            starts = [k for k in range(m) if all(abs(rows[0][1 + a] - src[k][1 + a]) <= ACC_TOL for a in range(3))]
            best = None
            for k in starts:
                b = sum(1 for i, row in enumerate(rows) if any(abs(row[1 + a] - src[(k + i) % m][1 + a]) > ACC_TOL for a in range(3)))
                if best is None or b < best: best = b
            bad = best
            if best is None: p.append("the first captured sample is not in the source")
            elif best: p.append(f"{best} of {len(rows)} samples captured over iiod differ from the emulator's source in order")
            if len(rows) != n: p.append(f"recording has {len(rows)} rows, statistics say {n}")
    else:
        p.append("no recording of the iiod capture")
    drop = h.get("drop") or {}
    ds = drop.get("stats") or {}
    if drop.get("exit") == 0: p.append("the capture exited 0 after iiod was killed")
    if ds.get("stop_reason") != "lost": p.append(f"dropped connection: stop reason {ds.get('stop_reason')} != lost")
    if "iiod" not in drop.get("stderr", ""): p.append("dropped connection: no remedy naming iiod on stderr")
    if (drop.get("seconds") or 99) > 15: p.append(f"dropped connection: the capture took {drop.get('seconds'):.1f} s (iiod killed after ~3 s)")
    if (ds.get("samples") or 0) < 100: p.append(f"dropped connection: only {ds.get('samples')} samples saved")
    hang = h.get("hang") or {}
    if hang.get("exit") in (0, -1, 124): p.append(f"devices against a hung iiod: exit {hang.get('exit')} (124: it hung)")
    if (hang.get("seconds") or 99) > 15: p.append(f"devices against a hung iiod took {hang.get('seconds'):.1f} s")
    if "iiod" not in hang.get("stderr", ""): p.append("hung iiod: no remedy naming iiod")
    figs.update({"samples": n, "lost_samples": st.get("lost_samples"), "mismatched_samples": bad,
                 "batches": st.get("batches"), "userspace_returns": st.get("userspace_returns"),
                 "cpu_time_s": st.get("cpu_s"), "devices_seconds": round(d.get("seconds") or 0, 2),
                 "drop_capture_seconds": round(drop.get("seconds") or 0, 2), "drop_samples_saved": ds.get("samples"),
                 "hung_iiod_seconds": round(hang.get("seconds") or 0, 2)})
    return p, figs
