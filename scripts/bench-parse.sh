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
RUNS="${RUNS:-5}"
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

# Interleaved: each round runs ours (a fresh process) then pandas (in this process) on the same
# file, so both see the same machine load; the best round of each is reported (RUNS rounds).
python3 - "$BIN" "$BIG" "$SMALL" "$RUNS" <<'PY'
import json, os, resource, subprocess, sys, time
import pandas as pd
binary, big, small, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def ours(path):
    # Through sh, which forks: a child spawned directly by this (large) Python process would
    # inherit its memory high-water mark across exec and report pandas' peak as its own.
    out = subprocess.run(["sh", "-c", '"$0" "$@"', binary, "bench", "parse", path, "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)

def header_lines(path):
    n = 0
    with open(path) as f:
        for line in f:
            if not line.startswith("#"): break
            n += 1
    return n

def pandas_once(path, **kw):
    t0 = time.perf_counter()
    df = pd.read_csv(path, engine="c", **kw)
    t = time.perf_counter() - t0
    rows = len(df)
    del df
    return t, rows

base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
results = {}
for path in (small, big):
    skip = header_lines(path)
    best_ours, best_skip, best_comment, rows = None, float("inf"), float("inf"), None
    for _ in range(runs):
        o = ours(path)
        if best_ours is None or o["seconds"] < best_ours["seconds"]: best_ours = o
        t, rows = pandas_once(path, skiprows=skip); best_skip = min(best_skip, t)
        t, _ = pandas_once(path, comment="#"); best_comment = min(best_comment, t)
    assert rows == best_ours["samples"], f"sample counts differ: ours {best_ours['samples']} vs pandas {rows}"
    size = os.path.getsize(path)
    results[path] = dict(ours=best_ours, size=size, rows=rows, skip=size / 1e6 / best_skip, comment=size / 1e6 / best_comment,
                         pandas_rss=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)

r = results[big]
o = r["ours"]
pandas_best = max(r["skip"], r["comment"])
print(f"file: {big} ({r['size'] / 1e6:.1f} MB, {r['rows']} samples), best of {runs} interleaved rounds")
print(f"motionbatch bench parse : {o['mb_per_s']:7.1f} MB/s  {o['samples_per_s'] / 1e6:5.2f} M samples/s  peak RSS {o['peak_rss_mib']:6.1f} MiB")
print(f"pandas {pd.__version__:<6} read_csv  : {pandas_best:7.1f} MB/s  {pandas_best * 1e6 / r['size'] * r['rows'] / 1e6:5.2f} M samples/s  peak RSS {r['pandas_rss']:6.1f} MiB"
      f"  (skiprows: {r['skip']:.1f} MB/s, comment='#': {r['comment']:.1f} MB/s; {base_rss:.1f} MiB after import)")
print(f"ratio (ours / pandas best): {o['mb_per_s'] / pandas_best:.2f}x   (target >= 2x)")
s = results[small]
print(f"peak RSS vs file size: {s['size'] / 1e6:.0f} MB file -> ours {s['ours']['peak_rss_mib']} MiB, pandas {s['pandas_rss']:.1f} MiB; "
      f"{r['size'] / 1e6:.0f} MB file -> ours {o['peak_rss_mib']} MiB, pandas {r['pandas_rss']:.1f} MiB")
PY
