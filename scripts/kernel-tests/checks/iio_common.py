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
