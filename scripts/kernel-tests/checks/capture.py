"""Shared helpers for the host-side checks: decode iio_readdev captures, compare with recordings."""
import csv, os, struct


def scan_layout(snapshot, prefix):
    """(step, [(offset, fmt) for x, y, z], timestamp offset) from a sysfs snapshot of scan_elements."""
    chans = []
    for axis in "xyz":
        idx = int(snapshot[f"scan_elements/in_{prefix}_{axis}_index"])
        typ = snapshot[f"scan_elements/in_{prefix}_{axis}_type"]
        chans.append((idx, typ))
    chans.append((int(snapshot["scan_elements/in_timestamp_index"]), snapshot["scan_elements/in_timestamp_type"]))
    chans.sort()
    off, layout = 0, []
    for idx, typ in chans:
        bits = int(typ.split("/")[1].split(">>")[0])
        size = bits // 8
        off = (off + size - 1) // size * size
        layout.append((idx, typ, off))
        off += size
    big = max(int(t.split("/")[1].split(">>")[0]) // 8 for _, t, _ in layout)
    step = (off + big - 1) // big * big
    return step, layout


def decode(path, snapshot, prefix):
    """[(ts_ns, x_raw, y_raw, z_raw)] from an iio_readdev capture of all channels."""
    step, layout = scan_layout(snapshot, prefix)
    data = open(path, "rb").read()
    out = []
    for k in range(len(data) // step):
        base = k * step
        vals = []
        for idx, typ, off in layout:
            fmt = {"le:s32": "<i", "le:s64": "<q", "le:u32": "<I", "le:s16": "<h"}[typ.split("/")[0]]
            vals.append(struct.unpack_from(fmt, data, base + off)[0])
        out.append((vals[3], vals[0], vals[1], vals[2]))
    return out, len(data) % step


COLUMNS = ["accel_x", "accel_y", "accel_z", "gyro_x", "gyro_y", "gyro_z"]


def recording(path):
    """Rows [time, ax, ay, az, gx, gy, gz] (gyro columns only when present) of a dataset CSV
    (time_s,...) or a MotionBatch recording (# header lines, timestamp_ns,...); labels ignored."""
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    rows = list(csv.reader(lines))
    head = rows[0]
    cols = [0] + [head.index(c) for c in COLUMNS if c in head]
    return [[float(r[c]) for c in cols] for r in rows[1:] if r]


def compare(samples, rows, cols, scale, offset_limit=0):
    """Finds where the capture starts in the recording and counts mismatches.
    Returns (offset, mismatches, first_problem)."""
    # Half a raw step (rounding), plus the truncation of the scale sysfs prints (9 decimals).
    def match(i, j):
        return all(abs(samples[i][1 + a] * scale - rows[j][cols[a]]) <= scale * 0.5 + abs(samples[i][1 + a]) * 1e-9 + 1e-9
                   for a in range(3))
    offset = next((j for j in range(min(len(rows), offset_limit + 1)) if samples and match(0, j)), None)
    if offset is None:
        return None, len(samples), f"first sample {samples[0][1:] if samples else None} matches no recording row within {offset_limit}"
    bad, first = 0, None
    for i in range(len(samples)):
        j = offset + i
        if j >= len(rows) or not match(i, j):
            bad += 1
            if first is None:
                got = [round(v * scale, 5) for v in samples[i][1:]]
                want = [rows[j][c] for c in cols] if j < len(rows) else "past the end"
                first = f"sample {i}: {got} != recording row {j} {want}"
    return offset, bad, first


def gaps(ts, interval_ns):
    """Samples missing judging by timestamp gaps larger than 1.5 intervals."""
    lost = 0
    for a, b in zip(ts, ts[1:]):
        d = b - a
        if d > 1.5 * interval_ns:
            lost += round(d / interval_ns) - 1
    return lost


def rows_by_timestamp(samples, rows, cols, scale, interval_ns, search=200):
    """Maps each sample to the recording row its hub timestamp implies (first sample matched by
    value within `search` rows). Returns (row indices or None, mismatches, first_problem)."""
    tol = lambda raw: scale * 0.5 + abs(raw) * 1e-9 + 1e-9
    def match(i, j):
        return j < len(rows) and all(abs(samples[i][1 + a] * scale - rows[j][cols[a]]) <= tol(samples[i][1 + a]) for a in range(3))
    if not samples:
        return None, 0, "no samples"
    first = next((j for j in range(min(search, len(rows))) if match(0, j)), None)
    if first is None:
        return None, len(samples), f"first sample matches no row within {search}"
    idx, bad, problem = [], 0, None
    for i, s in enumerate(samples):
        j = first + round((s[0] - samples[0][0]) / interval_ns)
        idx.append(j)
        if not match(i, j):
            bad += 1
            problem = problem or f"sample {i} (row {j} by timestamp) differs from the recording"
    return idx, bad, problem
