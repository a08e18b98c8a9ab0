"""Checks 01-devices: accel_3d/gyro_3d channels, scale, sampling frequency, iio_info, raw reads."""
import math


def check(r, ctx):
    p = []
    a, g = r.get("accel") or {}, r.get("gyro") or {}
    if a.get("name") != "accel_3d":
        p.append(f"accel device name {a.get('name')!r}, expected 'accel_3d'")
    if g.get("name") != "gyro_3d":
        p.append(f"gyro device name {g.get('name')!r}, expected 'gyro_3d'")
    for axis in "xyz":
        for dev, ch in ((a, "accel"), (g, "anglvel")):
            if f"scan_elements/in_{ch}_{axis}_en" not in dev:
                p.append(f"missing channel in_{ch}_{axis} (scan_elements/in_{ch}_{axis}_en)")
            t = dev.get(f"scan_elements/in_{ch}_{axis}_type")
            if t != "le:s32/32>>0":
                p.append(f"in_{ch}_{axis}_type is {t!r}, expected 'le:s32/32>>0'")
    for dev, ch in ((a, "accel"), (g, "anglvel")):
        if dev.get("scan_elements/in_timestamp_type") != "le:s64/64>>0":
            p.append(f"{ch}: timestamp channel type {dev.get('scan_elements/in_timestamp_type')!r}")
    ascale = float(a.get("in_accel_scale", "nan"))
    gscale = float(g.get("in_anglvel_scale", "nan"))
    if not math.isclose(ascale, 9.80665e-3, rel_tol=1e-5):
        p.append(f"in_accel_scale {ascale}, expected 0.00980665 (milli-g)")
    if not math.isclose(gscale, math.pi / 180 / 100, rel_tol=1e-4):
        p.append(f"in_anglvel_scale {gscale}, expected 0.000174533 (centi-deg/s)")
    afreq = float(a.get("in_accel_sampling_frequency", "nan"))
    gfreq = float(g.get("in_anglvel_sampling_frequency", "nan"))
    if not (math.isclose(afreq, 100, rel_tol=1e-3) and math.isclose(gfreq, 100, rel_tol=1e-3)):
        p.append(f"sampling_frequency accel {afreq} gyro {gfreq}, expected 100 (the recording's rate)")
    for dev, n in ((a, "accel"), (g, "gyro")):
        for attr in ("buffer/hwfifo_timeout", "buffer/hwfifo_enabled"):
            if attr not in dev:
                p.append(f"{n}: {attr} missing (report latency not recognised)")
        if dev.get("buffer/hwfifo_enabled") not in ("0", None):
            p.append(f"{n}: hwfifo_enabled {dev.get('buffer/hwfifo_enabled')!r} at start, expected 0")
    info = r.get("iio_info", "")
    if r.get("iio_info_exit") != 0:
        p.append(f"iio_info exited {r.get('iio_info_exit')}")
    for name in ("accel_3d", "gyro_3d"):
        if f": {name}" not in info:
            p.append(f"iio_info does not list {name}")
    # Raw reads (GET_REPORT input) return the sample the emulator is at: some recording row,
    # in raw units (the cursor advances while the sensor is powered, so not necessarily row 0).
    rows = r.get("recording_rows") or []
    raw = r.get("raw", {})
    try:
        for key, col, scale in (("accel_x", 1, ascale), ("accel_z", 3, ascale), ("anglvel_y", 5, gscale)):
            v = int(raw[key]) * scale
            if not any(abs(v - float(row[col])) <= scale * 0.51 + 1e-9 for row in rows):
                p.append(f"in_{key}_raw {raw[key]} x scale = {v:.5f} matches no recording value")
    except (KeyError, ValueError):
        p.append(f"raw reads failed: {raw}")
    s = r.get("summary") or {}
    if r.get("emulator_exit") != 0:
        p.append(f"emulator exited {r.get('emulator_exit')} after SIGTERM, expected 0")
    if s.get("exit_reason") != "signal":
        p.append(f"emulator summary exit_reason {s.get('exit_reason')!r}, expected 'signal'")
    sensors = {x["name"]: x for x in s.get("sensors", [])}
    if sensors.get("accel_3d", {}).get("get_reports", 0) < 1:
        p.append("emulator answered no GET_REPORT for accel_3d")
    return p, {"accel_scale": ascale, "anglvel_scale": gscale, "sampling_frequency": afreq,
               "get_reports": sum(x.get("get_reports", 0) for x in sensors.values()),
               "set_reports": sum(x.get("set_reports", 0) for x in sensors.values())}
