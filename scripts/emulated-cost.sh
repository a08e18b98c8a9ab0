#!/usr/bin/env bash
# What the kernel tests' emulated CPU charges for the capture machine and for the live analysis,
# against the same binary natively (docs/iio-reader.md, "What the emulator charges for floating
# point"): `motionbatch capture benchmark --machine-only` without and with `--analysis`, run
# natively and under QEMU's TCG in user mode (`qemu-x86_64 -cpu qemu64`, the CPU model the kernel
# tests' guest gets), RUNS times each; each figure is the median. The machine and decode are
# integer code; the analysis (the step counter and the activity features) is floating point,
# which TCG runs through its soft-float helpers.
#
# Usage: scripts/emulated-cost.sh [--binary PATH] [--runs N] [--samples N]
#   --binary   the motionbatch to measure (default .build/release/motionbatch)
#   --runs     runs per figure (default 3)
#   --samples  scans per run under the emulator (default 200000; natively 10x as many)
# Needs qemu-x86_64 (Debian package qemu-user): offline tooling, not part of the test command.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BINARY="$ROOT/.build/release/motionbatch"
RUNS=3
SAMPLES=200000
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) BINARY=$2; shift 2 ;;
        --runs) RUNS=$2; shift 2 ;;
        --samples) SAMPLES=$2; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "Error: unknown option '$1' (see --help)" >&2; exit 64 ;;
    esac
done
case "$RUNS" in ''|*[!0-9]*|0) echo "Error: --runs must be a positive integer, got '$RUNS'" >&2; exit 64 ;; esac
case "$SAMPLES" in ''|*[!0-9]*|0) echo "Error: --samples must be a positive integer, got '$SAMPLES'" >&2; exit 64 ;; esac
[ -x "$BINARY" ] || { echo "Error: $BINARY is not an executable (swift build -c release)" >&2; exit 1; }
command -v qemu-x86_64 >/dev/null || { echo "Error: qemu-x86_64 is missing (apt-get install qemu-user)" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() {  # run NAME COMMAND...: the command RUNS times with --json, each output in $TMP/NAME.K.json
    local name=$1 k; shift
    for k in $(seq "$RUNS"); do
        "$@" --json >"$TMP/$name.$k.json"
    done
}
for analysis in no yes; do
    extra=(); [ "$analysis" = yes ] && extra=(--analysis)
    run "native-$analysis" "$BINARY" capture benchmark --machine-only "${extra[@]}" --batch 1,100 --samples $((SAMPLES * 10))
    run "tcg-$analysis" qemu-x86_64 -cpu qemu64 "$BINARY" capture benchmark --machine-only "${extra[@]}" --batch 1,100 --samples "$SAMPLES"
done
python3 - "$TMP" "$RUNS" <<'EOF'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
def ns(name):
    per = {}
    for k in range(1, runs + 1):
        for r in json.load(open(f"{tmp}/{name}.{k}.json"))["results"]:
            per.setdefault(r["batch"], []).append(r["ns_per_sample"])
    return {b: statistics.median(v) for b, v in per.items()}
n0, n1, t0, t1 = ns("native-no"), ns("native-yes"), ns("tcg-no"), ns("tcg-yes")
print("ns per sample (median of %d runs)  native   emulated  emulated/native" % runs)
for b in sorted(n0):
    for label, n, t in (("machine and decode", n0[b], t0[b]), ("with the analysis", n1[b], t1[b]),
                        ("the analysis alone", n1[b] - n0[b], t1[b] - t0[b])):
        print(f"batch {b:<4} {label:<22} {n:8.1f} {t:9.1f} {t / n:9.1f}x")
EOF
