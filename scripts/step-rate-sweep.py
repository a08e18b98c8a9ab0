#!/usr/bin/env python3
"""What sampling rate does the step counter need?  Offline measurement (not used at runtime).

Each walking recording of ../shared/datasets (manifest activity "walking") is resampled to each
rate the way a sensor running at that rate delivers it: the mean of the samples in each 1/rate
slot of time (a box filter, standing in for the sensor's own decimation filter; taking one raw
sample per slot instead aliases the 100-500 Hz phone data). The resampled file is counted by
`motionbatch steps --json` and the error against the truth is summarised per data set and rate.

Usage (from the package root, after `swift build -c release`):
    scripts/step-rate-sweep.py [--rates 25,12.5,10,8,6.25] [--sets steps/oxford,steps/bangle]
                               [--binary .build/release/motionbatch] [DATASETS_DIR]
Prints one line per set and rate: files, MAPE, worst file error and total |error| in steps.
Recordings at or below a rate are counted as they are (labelled with their own rate).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile


def resample(path, rate, out_path):
    """Writes the slot means of `path` at `rate` Hz as plain CSV; returns (rows_in, rows_out)."""
    with open(path, newline="") as f:
        reader = csv.reader(row for row in f if not row.startswith("#"))
        header = next(reader)
        time_col = header.index("time_s")
        axes = [header.index(c) for c in ("accel_x", "accel_y", "accel_z")]
        rows_in = 0
        slot, t0, sums, n, out = None, None, [0.0, 0.0, 0.0], 0, []
        for row in reader:
            t = float(row[time_col])
            if t0 is None:
                t0 = t
            k = int((t - t0) * rate)
            if slot is not None and k != slot:
                out.append((t0 + slot / rate, [s / n for s in sums]))
                sums, n = [0.0, 0.0, 0.0], 0
            slot = k
            for i, c in enumerate(axes):
                sums[i] += float(row[c])
            n += 1
            rows_in += 1
        if n:
            out.append((t0 + slot / rate, [s / n for s in sums]))
    with open(out_path, "w") as f:
        f.write("time_s,accel_x,accel_y,accel_z\n")
        for t, v in out:
            f.write(f"{t:.6f},{v[0]:.6f},{v[1]:.6f},{v[2]:.6f}\n")
    return rows_in, len(out)


def own_rate(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")][1:]
    first, last = float(lines[0].split(",")[0]), float(lines[-1].split(",")[0])
    return (len(lines) - 1) / (last - first)


def count(binary, path):
    out = subprocess.run([binary, "steps", path, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["steps"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("datasets", nargs="?", default=os.path.join("..", "shared", "datasets"))
    p.add_argument("--rates", default="25,12.5,10,8,6.25")
    p.add_argument("--sets", default="steps/oxford,steps/bangle")
    p.add_argument("--binary", default=".build/release/motionbatch")
    a = p.parse_args()
    rates = [float(r) for r in a.rates.split(",")]
    manifest = list(csv.DictReader(open(os.path.join(a.datasets, "manifest.csv"))))
    with tempfile.TemporaryDirectory() as tmp:
        for s in a.sets.split(","):
            rows = [r for r in manifest if r["path"].startswith(s + "/") and r["activity"] == "walking" and r["steps_true"] not in ("", "0")]
            if not rows:
                print(f"{s}: no walking recordings with a step count", file=sys.stderr)
                continue
            for rate in rates:
                errors, total = [], 0
                for r in rows:
                    src = os.path.join(a.datasets, r["path"])
                    truth = int(r["steps_true"])
                    if own_rate(src) <= rate * 1.001:
                        steps = count(a.binary, src)
                    else:
                        dst = os.path.join(tmp, "resampled.csv")
                        resample(src, rate, dst)
                        steps = count(a.binary, dst)
                    errors.append(abs(steps - truth) / truth * 100)
                    total += abs(steps - truth)
                print(f"{s} at {rate:g} Hz: {len(rows)} files, MAPE {sum(errors) / len(errors):.2f} %, "
                      f"worst file {max(errors):.1f} %, total |error| {total} steps", flush=True)


if __name__ == "__main__":
    main()
