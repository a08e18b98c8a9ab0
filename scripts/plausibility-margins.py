#!/usr/bin/env python3
"""How far the real datasets are from the plausibility rule's thresholds (docs/bad-input.md,
"Plausibility"): per manifest recording the median |a|, the mean vector's share of it, the rate
(samples over the span) and the gyroscope's 99th percentile |w|; prints the extremes of each.

    scripts/plausibility-margins.py [DATASETS_DIR]     # default ../shared/datasets

An offline check (standard library only), exact where the rule's histograms are within a bin.
"""
import csv, math, os, statistics, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets")
rows = list(csv.reader(open(os.path.join(root, "manifest.csv"), newline="")))[1:]
figures = []
for r in rows:
    path = r[0]
    t, a, g = [], [], []
    sx = sy = sz = 0.0
    with open(os.path.join(root, path), newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        gi = header.index("gyro_x") if "gyro_x" in header else None
        for row in reader:
            x, y, z = map(float, row[1:4])
            sx, sy, sz = sx + x, sy + y, sz + z
            t.append(float(row[0]))
            a.append(math.sqrt(x * x + y * y + z * z))
            if gi is not None:
                g.append(math.sqrt(sum(float(v) ** 2 for v in row[gi:gi + 3])))
    median = statistics.median(a)
    share = math.sqrt(sx * sx + sy * sy + sz * sz) / len(a) / median
    rate = (len(t) - 1) / (t[-1] - t[0])
    p99 = sorted(g)[int(len(g) * 0.99)] if g else 0.0
    figures.append((path, median, share, rate, p99))
print(f"{len(figures)} recordings")
for i, (name, limit) in enumerate([("median |a| m/s^2", "4.9-19.6"), ("mean vector / median", ">= 0.3"),
                                   ("rate Hz", "10-10000"), ("gyro p99 rad/s", "<= 34.9")], start=1):
    lo = min(figures, key=lambda f: f[i])
    hi = max(figures, key=lambda f: f[i])
    print(f"{name} (rule {limit}): min {lo[i]:.3f} ({lo[0]}), max {hi[i]:.3f} ({hi[0]})")
