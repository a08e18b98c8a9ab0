"""Shared helpers for the IIO reader's host-side checks (50-59)."""
import json, os


def sensor(summary, name):
    """The emulator summary's entry for sensor `name`, or {}."""
    for s in (summary or {}).get("sensors", []):
        if s.get("name") == name:
            return s
    return {}


def load_result(ctx, name):
    p = os.path.join(ctx["results"], name + ".json")
    try:
        return json.load(open(p))
    except Exception:
        return None


def read_recording(path):
    """Rows of a MotionBatch recording (header lines start with '#'): list of float lists."""
    rows, cols = [], None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if cols is None:
            cols = line.split(",")
            continue
        rows.append([float(x) for x in line.split(",")[:7]])
    return cols, rows


def read_source(path):
    rows = []
    for i, line in enumerate(open(path)):
        if i == 0:
            continue
        rows.append([float(x) for x in line.strip().split(",")[:7]])
    return rows


def device(devices_json, name):
    for d in (devices_json or {}).get("devices", []):
        if d.get("name") == name:
            return d
    return None


def bursts(timestamps, gap_ns=100_000_000):
    """Deliveries seen in arrival timestamps: runs separated by more than `gap_ns` (a burst from
    the hub arrives within milliseconds, even when the woken reader briefly preempts the hub).
    Returns [(first_ns, last_ns, count)]."""
    runs = []
    for t in timestamps:
        if runs and t - runs[-1][1] <= gap_ns:
            f, _, n = runs[-1]
            runs[-1] = (f, t, n + 1)
        else:
            runs.append((t, t, 1))
    return runs


def in_window(runs, window):
    t0, t1 = window.get("t0_ns", 0), window.get("t1_ns", 0)
    return [r for r in runs if t0 <= r[1] <= t1]


def readdev_timestamps(path):
    """Timestamps of iio_readdev's raw output for accel_3d (3 x le:s32, pad, le:s64: 24 bytes)."""
    import struct
    data = open(path, "rb").read()
    return [struct.unpack_from("<q", data, i + 16)[0] for i in range(0, len(data) - 23, 24)]
