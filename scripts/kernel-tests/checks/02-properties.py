"""Checks 02-properties: sampling_frequency -> report interval, hwfifo_timeout -> report latency,
hwfifo_enabled follows the latency; the emulator's status and summary record each request."""
import math

# label -> (sensor, expected interval ms, expected latency ms, sampling_frequency readback, hwfifo_timeout readback, hwfifo_enabled)
EXPECT = {
    "accel_50hz": ("accel", 20, 0, 50.0, 0.0, "0"),
    "accel_200hz": ("accel", 5, 0, 200.0, 0.0, "0"),
    "gyro_25hz": ("gyro", 40, 0, 25.0, 0.0, "0"),
    "accel_fifo_1s": ("accel", 5, 1000, 200.0, 1.0, "1"),
    "accel_fifo_0_25s": ("accel", 5, 250, 200.0, 0.25, "1"),
    "gyro_fifo_2s": ("gyro", 40, 2000, 25.0, 2.0, "1"),
    "accel_fifo_off": ("accel", 5, 0, 200.0, 0.0, "0"),
}
IIO = {"accel": "accel_3d", "gyro": "gyro_3d"}


def check(r, ctx):
    p = []
    seen = set()
    for st in r.get("steps", []):
        label = st["label"]
        seen.add(label)
        sensor, interval, latency, freq, timeout, enabled = EXPECT[label]
        if st.get("write_error"):
            p.append(f"{label}: writing {st['value']} to {st['file']} failed: {st['write_error']}")
        em = st.get("status", {}).get(IIO[sensor], {})
        if em.get("report_interval_ms") != interval:
            p.append(f"{label}: emulator report interval {em.get('report_interval_ms')} ms, expected {interval}")
        if em.get("report_latency_ms") != latency:
            p.append(f"{label}: emulator report latency {em.get('report_latency_ms')} ms, expected {latency}")
        sy = st["sysfs"][sensor]
        try:
            if not math.isclose(float(sy["sampling_frequency"]), freq, rel_tol=1e-3):
                p.append(f"{label}: sampling_frequency reads {sy['sampling_frequency']}, expected {freq}")
            if not math.isclose(float(sy["hwfifo_timeout"]), timeout, abs_tol=1e-6):
                p.append(f"{label}: hwfifo_timeout reads {sy['hwfifo_timeout']}, expected {timeout}")
        except (TypeError, ValueError):
            p.append(f"{label}: unreadable attributes {sy}")
        if sy.get("hwfifo_enabled") != enabled:
            p.append(f"{label}: hwfifo_enabled reads {sy.get('hwfifo_enabled')!r}, expected {enabled}")
    for label in EXPECT:
        if label not in seen:
            p.append(f"step {label} missing")
    s = r.get("summary") or {}
    sensors = {x["name"]: x for x in s.get("sensors", [])}
    hist = [(h["property"], h["value"]) for h in sensors.get("accel_3d", {}).get("history", [])]
    want = [("report_interval_ms", 20), ("report_interval_ms", 5), ("report_latency_ms", 1000),
            ("report_latency_ms", 250), ("report_latency_ms", 0)]
    got = [h for h in hist if h[0] in ("report_interval_ms", "report_latency_ms")]
    if got != want:
        p.append(f"accel_3d history {got}, expected {want}")
    if r.get("emulator_exit") != 0:
        p.append(f"emulator exited {r.get('emulator_exit')}")
    return p, {"steps": len(seen), "set_reports": sum(x.get("set_reports", 0) for x in sensors.values())}
