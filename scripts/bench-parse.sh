#!/usr/bin/env bash
# Parse benchmark: MotionBatch's RecordingReader (`motionbatch bench parse`) against
# pandas.read_csv (C engine) on the same synthetic recordings, same machine, same run.
#
#   scripts/bench-parse.sh            # ~100 MB files (and ~10 MB ones to show memory stays flat)
#   SIZE_MB=300 RUNS=9 scripts/bench-parse.sh
#
# Two files per size, both MotionBatch format v1, accel + gyro, no labels, read by both parsers:
#  - full-precision: values `raw * scale` of an int16 IMU computed in binary floating point and
#    printed shortest-round-trip (16-17 significant digits for many of them): what a writer
#    without a declared scale produces, the parser's worst case;
#  - device-resolution: the same samples written by `motionbatch convert` (RecordingWriter): the
#    header declares each channel's `scale=`, so values are printed as the exact decimal
#    raw x scale (at most 9 decimals), as MotionBatch writes real device recordings.
# They are generated once into .build/bench/ (deterministic). pandas is pip-installed if missing.
# Each round runs ours (2 threads, the default), ours with --threads 1, and pandas (skiprows and
# comment='#') on the same file, interleaved; best and median of RUNS rounds are printed (MB/s =
# 10^6 bytes/s), the ratios, and peak memory (ours: VmHWM; pandas: ru_maxrss of its process).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB="${SIZE_MB:-100}"
RUNS="${RUNS:-5}"
DIR=.build/bench
mkdir -p "$DIR"
BIG="$DIR/synthetic-${SIZE_MB}MB.csv"
SMALL="$DIR/synthetic-$((SIZE_MB / 10))MB.csv"
BIG_DEV="$DIR/device-${SIZE_MB}MB.csv"
SMALL_DEV="$DIR/device-$((SIZE_MB / 10))MB.csv"

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
for pair in "$BIG:$BIG_DEV" "$SMALL:$SMALL_DEV"; do
    src="${pair%%:*}" dst="${pair#*:}"
    [ -s "$dst" ] || { echo "writing $dst with motionbatch convert..." >&2; "$BIN" convert "$src" "$dst" --force >&2; }
done

python3 - "$BIN" "$RUNS" "$BIG" "$BIG_DEV" "$SMALL" "$SMALL_DEV" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
import pandas as pd
binary, runs = sys.argv[1], int(sys.argv[2])
big, big_dev, small, small_dev = sys.argv[3:7]

def ours(path, threads):
    # Through sh, which forks: a child spawned directly by this (large) Python process would
    # inherit its memory high-water mark across exec and report pandas' peak as its own.
    out = subprocess.run(["sh", "-c", '"$0" "$@"', binary, "bench", "parse", path, "--json", "--threads", str(threads)],
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

def bench(path):
    size = os.path.getsize(path)
    skip = header_lines(path)
    r = dict(size=size, ours2=[], ours1=[], skip=[], comment=[], rss2=0, rss1=0)
    for _ in range(runs):
        o = ours(path, 2); r["ours2"].append(o["mb_per_s"]); r["rss2"] = max(r["rss2"], o["peak_rss_mib"]); r["samples"] = o["samples"]
        o = ours(path, 1); r["ours1"].append(o["mb_per_s"]); r["rss1"] = max(r["rss1"], o["peak_rss_mib"])
        t, rows = pandas_once(path, skiprows=skip); r["skip"].append(size / 1e6 / t)
        t, _ = pandas_once(path, comment="#"); r["comment"].append(size / 1e6 / t)
        assert rows == r["samples"], f"sample counts differ: ours {r['samples']} vs pandas {rows}"
    r["pandas"] = [max(a, b) for a, b in zip(r["skip"], r["comment"])]
    r["pandas_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return r

base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
results = {p: bench(p) for p in (small, small_dev, big, big_dev)}
fmt = lambda xs: f"best {max(xs):7.1f}  median {statistics.median(xs):7.1f}"
print(f"{runs} interleaved rounds per file; MB/s = 10^6 bytes/s; pandas {pd.__version__} C engine (best of skiprows / comment='#' per round)")
for label, path in (("full-precision", big), ("device-resolution", big_dev)):
    r = results[path]
    print(f"\n{label}: {path} ({r['size'] / 1e6:.1f} MB, {r['samples']} samples)")
    print(f"  motionbatch (2 threads) : {fmt(r['ours2'])} MB/s   peak RSS {r['rss2']:6.1f} MiB")
    print(f"  motionbatch (1 thread)  : {fmt(r['ours1'])} MB/s   peak RSS {r['rss1']:6.1f} MiB")
    print(f"  pandas read_csv         : {fmt(r['pandas'])} MB/s   (skiprows best {max(r['skip']):.1f}, comment='#' best {max(r['comment']):.1f})")
    print(f"  ratio ours/pandas       : best/best {max(r['ours2']) / max(r['pandas']):.2f}x  median/median {statistics.median(r['ours2']) / statistics.median(r['pandas']):.2f}x"
          f"  (1 thread: {max(r['ours1']) / max(r['pandas']):.2f}x / {statistics.median(r['ours1']) / statistics.median(r['pandas']):.2f}x)   target >= 2x")
s, b = results[small], results[big]
print(f"\npeak RSS vs file size: {s['size'] / 1e6:.0f} MB -> ours {s['rss2']:.1f} MiB; {b['size'] / 1e6:.0f} MB -> ours {b['rss2']:.1f} MiB "
      f"(flat); pandas process peak {results[big_dev]['pandas_rss']:.1f} MiB ({base_rss:.1f} MiB after import)")
PY
