"""Checks 50-iio-devices: discovery of accel_3d / gyro_3d, scale, rate, FIFO, access states."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    p = []
    if r.get("exit") != 0:
        p.append(f"devices --json exited {r.get('exit')}")
    root = r.get("root")
    expect = {"accel_3d": ("accelerometer", "accel", 0.00980665), "gyro_3d": ("gyroscope", "anglvel", 0.000174532)}
    for name, (kind, prefix, scale) in expect.items():
        d = c.device(root, name)
        if d is None:
            p.append(f"{name} not listed"); continue
        if d["kind"] != kind: p.append(f"{name}: kind {d['kind']} != {kind}")
        ids = [ch["id"] for ch in d["channels"]]
        for ax in "xyz":
            if f"{prefix}_{ax}" not in ids: p.append(f"{name}: channel {prefix}_{ax} missing")
        if not d["timestamp"]["channel"]: p.append(f"{name}: no timestamp channel")
        if not d["buffer_capable"]: p.append(f"{name}: not buffer capable")
        if not d["fifo"]["hwfifo_timeout"]: p.append(f"{name}: no buffer/hwfifo_timeout")
        if d["fifo"].get("enabled") is None: p.append(f"{name}: hwfifo_enabled not read")
        if not (d.get("sampling_frequency_hz") or 0) > 0: p.append(f"{name}: sampling frequency not read")
        sc = [ch["scale"] for ch in d["channels"] if ch["id"].startswith(prefix + "_")]
        if not sc or any(s is None or abs(s - scale) > scale * 1e-3 for s in sc):
            p.append(f"{name}: scale {sc} != {scale}")
        fm = [ch["format"] for ch in d["channels"] if ch["id"].startswith(prefix + "_")]
        if any(f != "le:s32/32>>0" for f in fm): p.append(f"{name}: formats {fm}")
        if (d.get("access") or {}).get("state") != "available":
            p.append(f"{name}: root access state {(d.get('access') or {}).get('state')} != available")
        nd = c.device(r.get("nobody"), name)
        acc = (nd or {}).get("access") or {}
        if acc.get("state") != "permission-denied":
            p.append(f"{name}: unprivileged access state {acc.get('state')} != permission-denied")
        elif "/dev/iio:device" not in acc.get("path", "") and "/sys/" not in acc.get("path", ""):
            p.append(f"{name}: permission-denied does not name the file ({acc.get('path')})")
        elif 'SUBSYSTEM=="iio"' not in acc.get("udev_rule", ""):
            p.append(f"{name}: no udev rule in the remedy")
    return p, {"devices": len((root or {}).get("devices", []))}
