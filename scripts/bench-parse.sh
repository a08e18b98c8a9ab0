#!/usr/bin/env bash
# Parse benchmark: MotionBatch's RecordingReader (`motionbatch bench parse`) against
# pandas.read_csv (C engine) on the same synthetic recording, same machine, same run.
#
#   scripts/bench-parse.sh            # ~100 MB file (and a ~10 MB one to show memory stays flat)
#   SIZE_MB=300 scripts/bench-parse.sh
#
# The file is in MotionBatch format v1, accel + gyro, no labels, values `raw * scale` of an
# int16 IMU printed shortest-round-trip (16-17 significant digits: the writer's worst case).
# It is generated once into .build/bench/ (deterministic). pandas is pip-installed if missing.
# Prints MB/s (10^6 bytes/s) for both, the ratio, and both peak RSS (getrusage ru_maxrss).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB="${SIZE_MB:-100}"
RUNS="${RUNS:-3}"
DIR=.build/bench
mkdir -p "$DIR"
BIG="$DIR/synthetic-${SIZE_MB}MB.csv"
SMALL="$DIR/synthetic-$((SIZE_MB / 10))MB.csv"

python3 -c 'import pandas' 2>/dev/null || python3 -m pip install --quiet pandas || python3 -m pip install --quiet --break-system-packages pandas

generate() {  # generate FILE MEGABYTES
    [ -s "$1" ] && return 0
    echo "generating $1 (~$2 MB)..." >&2
    python3 - "$1" "$2" <<'PY'
import math, random, sys
path, mb = sys.argv[1], float(sys.argv[2])
rng = random.Random(1234)
accel_scale, gyro_scale = 0.000598550, 0.000152716   # LSM6DSL-like: 2 g and 250 dps full scale
t = 1_234_567_890_123                                 # CLOCK_BOOTTIME ns
with open(path + ".tmp", "w") as f:
    f.write("# motionbatch-recording: 1\n# device: synthetic-imu\n# source: scripts/bench-parse.sh (synthetic)\n"
            "# clock: CLOCK_BOOTTIME\n# channel.timestamp_ns: ns\n"
            "# channel.accel_x: m/s^2 scale=0.000598550\n# channel.accel_y: m/s^2 scale=0.000598550\n"
            "# channel.accel_z: m/s^2 scale=0.000598550\n# channel.gyro_x: rad/s scale=0.000152716\n"
            "# channel.gyro_y: rad/s scale=0.000152716\n# channel.gyro_z: rad/s scale=0.000152716\n"
            "# requested_hz: 104\n# actual_hz: 104.17\n# batching: samples 64\n# start_utc: 2026-11-29T00:00:00Z\n"
            "timestamp_ns,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z\n")
    written, target, i = 0, int(mb * 1e6), 0
    while written < target:
        rows = []
        for _ in range(10000):
            t += 9_600_000 + rng.randrange(-20_000, 20_000)
            ph = i * 0.12
            raw = (int(1500 * math.sin(ph)) + rng.randrange(-40, 40), int(800 * math.cos(ph)) + rng.randrange(-40, 40),
                   16384 + int(3000 * math.sin(2 * ph)) + rng.randrange(-40, 40))
            g = [rng.randrange(-2000, 2000) for _ in range(3)]
            rows.append("%d,%r,%r,%r,%r,%r,%r\n" % (t, raw[0] * accel_scale, raw[1] * accel_scale, raw[2] * accel_scale,
                                                  g[0] * gyro_scale, g[1] * gyro_scale, g[2] * gyro_scale))
            i += 1
        chunk = "".join(rows)
        f.write(chunk)
        written += len(chunk)
import os; os.replace(path + ".tmp", path)
PY
}
generate "$BIG" "$SIZE_MB"
generate "$SMALL" "$((SIZE_MB / 10))"

echo "building (release)..." >&2
swift build -c release --product motionbatch >&2
BIN="$(swift build -c release --show-bin-path)/motionbatch"

pandas_json() {  # pandas_json FILE -> one JSON object
    python3 - "$1" "$RUNS" <<'PY'
import json, os, resource, sys, time
import pandas as pd
path, runs = sys.argv[1], int(sys.argv[2])
base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
header_lines = 0
with open(path) as f:
    for line in f:
        if not line.startswith("#"): break
        header_lines += 1
best = {}
for mode, kw in (("comment", dict(comment="#")), ("skiprows", dict(skiprows=header_lines))):
    t = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        df = pd.read_csv(path, engine="c", **kw)
        t = min(t, time.perf_counter() - t0)
        rows = len(df)
        del df
    best[mode] = t
size = os.path.getsize(path)
t = min(best.values())
print(json.dumps({"bytes": size, "samples": rows, "seconds": round(t, 4), "mb_per_s": round(size / 1e6 / t, 1),
                  "mb_per_s_comment": round(size / 1e6 / best["comment"], 1), "mb_per_s_skiprows": round(size / 1e6 / best["skiprows"], 1),
                  "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                  "baseline_rss_mib": round(base_rss, 1), "pandas": pd.__version__}))
PY
}

OURS_BIG="$("$BIN" bench parse "$BIG" --repeat "$RUNS" --json)"
OURS_SMALL="$("$BIN" bench parse "$SMALL" --repeat "$RUNS" --json)"
PANDAS_BIG="$(pandas_json "$BIG")"
PANDAS_SMALL="$(pandas_json "$SMALL")"

python3 - "$OURS_BIG" "$OURS_SMALL" "$PANDAS_BIG" "$PANDAS_SMALL" <<'PY'
import json, sys
ob, os_, pb, ps = (json.loads(a) for a in sys.argv[1:5])
assert ob["samples"] == pb["samples"], f"sample counts differ: ours {ob['samples']} vs pandas {pb['samples']}"
print(f"file: {ob['file']} ({ob['bytes'] / 1e6:.1f} MB, {ob['samples']} samples)")
print(f"motionbatch bench parse : {ob['mb_per_s']:8.1f} MB/s  {ob['samples_per_s'] / 1e6:6.2f} M samples/s  peak RSS {ob['peak_rss_mib']:7.1f} MiB")
print(f"pandas {pb['pandas']:<8} read_csv : {pb['mb_per_s']:8.1f} MB/s  {pb['samples'] / pb['seconds'] / 1e6:6.2f} M samples/s  peak RSS {pb['peak_rss_mib']:7.1f} MiB"
      f"  (comment='#': {pb['mb_per_s_comment']} MB/s, skiprows: {pb['mb_per_s_skiprows']} MB/s; after import {pb['baseline_rss_mib']} MiB)")
print(f"ratio (ours / pandas best): {ob['mb_per_s'] / pb['mb_per_s']:.2f}x   (target >= 2x)")
print(f"peak RSS vs file size: {os_['bytes'] / 1e6:.0f} MB file -> ours {os_['peak_rss_mib']} MiB, pandas {ps['peak_rss_mib']} MiB; "
      f"{ob['bytes'] / 1e6:.0f} MB file -> ours {ob['peak_rss_mib']} MiB, pandas {pb['peak_rss_mib']} MiB")
PY
