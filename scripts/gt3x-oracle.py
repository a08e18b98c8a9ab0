#!/usr/bin/env python3
"""Dump pygt3x's decoding of an ActiGraph .gt3x file as CSV: a test oracle, not a dependency.

    gt3x-oracle.py FILE.gt3x OUT.csv

OUT.csv has a header line `time,x,y,z,idle_sleep_mode` then one row per sample in pygt3x's
order: `time` is pygt3x's time index as it gives it (seconds of the device's local time for the
log.bin format; for the older NEO activity.bin format a sample counter on .NET ticks), `x,y,z`
its calibrated acceleration in g at full double precision (FileReader.calibrate_acceleration,
before to_pandas's cast to float32), `idle_sleep_mode` 1 for the samples it filled in during
idle sleep mode. Tests/MotionCoreTests/Dialects/GT3XDialectTests.swift compares MotionBatch's
decoding with it when the file exists (docs/research.md says how to make it).

pygt3x (PyPI, GPL-3.0) is installed in a virtual environment of its own, for example
`python3 -m venv /work/scratch/gt3xvenv && /work/scratch/gt3xvenv/bin/pip install pygt3x`.
"""
import sys

from pygt3x.reader import FileReader


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: gt3x-oracle.py FILE.gt3x OUT.csv", file=sys.stderr)
        return 64
    with FileReader(sys.argv[1]) as reader:
        acc = reader.acceleration
        values = acc[:, 1:4] if reader.nhanes else reader.calibrate_acceleration(acc[:, 1:4])
        with open(sys.argv[2], "w", encoding="ascii") as out:
            out.write("time,x,y,z,idle_sleep_mode\n")
            for row, v in zip(acc, values):
                out.write(f"{float(row[0])!r},{float(v[0])!r},{float(v[1])!r},{float(v[2])!r},{int(row[4])}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
