#!/usr/bin/env python3
"""Writes a synthetic recording for the kernel tests (dataset CSV dialect):
time_s,accel_x,accel_y,accel_z[,gyro_x,gyro_y,gyro_z]

usage: make-recording.py OUT.csv [--rate HZ] [--seconds S] [--no-gyro]
Every sample differs from its neighbours by more than the emulator's raw resolution
(accel 1 milli-g, gyro 0.01 deg/s) so that missing or reordered samples are detectable.
"""
import argparse, math

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--rate", type=float, default=100.0)
ap.add_argument("--seconds", type=float, default=10.0)
ap.add_argument("--no-gyro", action="store_true")
a = ap.parse_args()
n = int(round(a.rate * a.seconds))
with open(a.out, "w") as f:
    cols = ["time_s", "accel_x", "accel_y", "accel_z"] + ([] if a.no_gyro else ["gyro_x", "gyro_y", "gyro_z"])
    f.write(",".join(cols) + "\n")
    for i in range(n):
        t = i / a.rate
        row = [f"{t:.6f}",
               f"{2.0 * math.sin(2 * math.pi * 1.3 * t):.5f}",
               f"{-1.5 + 3.0 * math.cos(2 * math.pi * 0.4 * t):.5f}",
               f"{8.0 + (i % 200) * 0.02:.5f}"]
        if not a.no_gyro:
            row += [f"{0.8 * math.sin(2 * math.pi * 0.9 * t):.6f}",
                    f"{-0.3 + 0.01 * (i % 50):.6f}",
                    f"{(i % 300) * 0.002:.6f}"]
        f.write(",".join(row) + "\n")
