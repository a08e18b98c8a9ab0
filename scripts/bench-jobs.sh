#!/usr/bin/env bash
# Throughput of `--jobs N` (several recordings on every core) against N and against file size,
# for the analysis-bound commands `activity` and `epochs` (release build).
#
#   scripts/bench-jobs.sh                 # RUNS=3, jobs 1 and 2 (this machine has 2 cores)
#   RUNS=5 JOBS="1 2 4" scripts/bench-jobs.sh
#
# Three sets, each run with --jobs 1, 2, ... interleaved (round 1: j1 j2, round 2: j1 j2, ...):
#  - small:  the 232 spsw recordings (9-15 s each, ~100 Hz, accel + gyro) of ../shared/datasets;
#  - medium: the 42 HAPT sequences (~5-10 min each, 50 Hz, accel + gyro);
#  - large:  4 one-day Axivity files (8.64 M samples each), cut from the 7-day file the tests'
#            writer makes (MOTIONBATCH_BENCH_DEVICE_DIR/week.cwa; made here when missing).
# Prints, per set and command: samples, the median wall time and samples/s per N, and the ratio
# of each N's throughput to --jobs 1 (median of the per-round ratios), plus the peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
JOBS="${JOBS:-1 2}"
DATA="${MOTIONBATCH_DATASETS:-../shared/datasets}"
DEV="${MOTIONBATCH_BENCH_DEVICE_DIR:-.build/bench/device}"
BIN=.build/release/motionbatch
swift build -c release --product motionbatch >/dev/null
mkdir -p .build/bench/jobs-large "$DEV"
if [ ! -f "$DEV/week.cwa" ]; then
  echo "making $DEV/week.cwa (the tests' CWA writer, about a minute)" >&2
  MOTIONBATCH_BENCH_DEVICE_DIR="$(cd "$DEV" && pwd)" swift test --filter 'DeviceBenchFileTests/writesASevenDayCWAFile' >/dev/null
fi
# One day = 72,000 blocks of 120 samples after the 1,024-byte header; four days cut at block
# boundaries, each a valid file of its own (its header copied).
for d in 0 1 2 3; do
  out=.build/bench/jobs-large/day$d.cwa
  [ -f "$out" ] && continue
  { dd if="$DEV/week.cwa" bs=512 count=2 status=none; dd if="$DEV/week.cwa" bs=512 skip=$((2 + d * 72000)) count=72000 status=none; } >"$out.tmp"
  mv "$out.tmp" "$out"
done

sets=()
[ -d "$DATA/activity/spsw" ] && sets+=("small:$DATA/activity/spsw")
[ -d "$DATA/activity/hapt" ] && sets+=("medium:$DATA/activity/hapt")
sets+=("large:.build/bench/jobs-large")

python3 - "$BIN" "$RUNS" "$JOBS" "${sets[@]}" <<'PY'
import os, resource, subprocess, sys, time, statistics, json
bin_, runs, jobs = sys.argv[1], int(sys.argv[2]), [int(j) for j in sys.argv[3].split()]
sets = [a.split(":", 1) for a in sys.argv[4:]]
def samples(path):
    out = subprocess.run([bin_, "replay", "--json", "--jobs", "2", path], capture_output=True, text=True).stdout
    return sum(json.loads(l)["samples"] for l in out.splitlines() if l.strip())
def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {p.stderr[-500:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_maxrss
print(f"{'set':7} {'command':9} {'files':>5} {'samples':>11} " + " ".join(f"{'j'+str(j)+' wall s':>10} {'j'+str(j)+' M/s':>8} {'x j1':>5}" for j in jobs) + f" {'peak RSS':>9}")
for name, path in sets:
    files = sum(1 for f in os.listdir(path) if not f.startswith("."))
    n = samples(path)
    for command in ["activity", "epochs"]:
        walls = {j: [] for j in jobs}
        rss = 0
        for _ in range(runs):
            for j in jobs:
                w, r = run([bin_, command, "--jobs", str(j), path])
                walls[j].append(w)
                rss = max(rss, r)
        ratios = {j: statistics.median(a / b for a, b in zip(walls[jobs[0]], walls[j])) for j in jobs}
        cells = " ".join(f"{statistics.median(walls[j]):10.2f} {n / statistics.median(walls[j]) / 1e6:8.2f} {ratios[j]:5.2f}" for j in jobs)
        print(f"{name:7} {command:9} {files:5d} {n:11d} {cells} {rss / 1024:7.0f} MiB", flush=True)
PY
