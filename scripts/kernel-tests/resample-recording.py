#!/usr/bin/env python3
"""Resamples a recording (MotionBatch format or dataset CSV) to a fixed rate by linear
interpolation and writes it as dataset CSV (time_s,accel_x,...[,gyro_x,...]), labels dropped.
Guest helper for the session tests: the emulator then plays it at its native rate, so a capture
can be compared with it sample by sample.

usage: resample-recording.py IN OUT [--rate HZ] [--seconds S]
"""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("inp")
ap.add_argument("out")
ap.add_argument("--rate", type=float, default=100.0)
ap.add_argument("--seconds", type=float, default=None)
a = ap.parse_args()
lines = [l.rstrip("\n") for l in open(a.inp) if not l.startswith("#")]
head = lines[0].split(",")
scale = 1e-9 if head[0] == "timestamp_ns" else 1.0
cols = [c for c in ["accel_x", "accel_y", "accel_z", "gyro_x", "gyro_y", "gyro_z"] if c in head]
idx = [head.index(c) for c in cols]
rows = []
for l in lines[1:]:
    f = l.split(",")
    rows.append([float(f[0]) * scale] + [float(f[i]) for i in idx])
t0 = rows[0][0]
span = rows[-1][0] - t0 if a.seconds is None else min(a.seconds, rows[-1][0] - t0)
n = int(span * a.rate)
with open(a.out, "w") as out:
    out.write(",".join(["time_s"] + cols) + "\n")
    j = 0
    for k in range(n):
        t = t0 + k / a.rate
        while j + 1 < len(rows) - 1 and rows[j + 1][0] <= t:
            j += 1
        r0, r1 = rows[j], rows[j + 1]
        w = 0.0 if r1[0] == r0[0] else (t - r0[0]) / (r1[0] - r0[0])
        vals = [r0[c] + (r1[c] - r0[c]) * w for c in range(1, len(r0))]
        out.write(",".join([f"{k / a.rate:.6f}"] + [f"{v:.5f}" for v in vals]) + "\n")
