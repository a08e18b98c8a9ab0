#!/usr/bin/env bash
# The capture's whole per-wake-up path, measured natively (docs/iio-reader.md, "Batch 1, third
# round"): `motionbatch capture benchmark` over the simulated device, with the alloc-count shim
# (scripts/alloc-count/alloc-count.c, built here with gcc into a temporary directory and loaded
# with LD_PRELOAD) so that it reports allocations per wake-up; with --callgrind, also the
# instructions (Ir), retains, releases and mallocs per wake-up from callgrind (valgrind).
#
# Usage: scripts/capture-benchmark.sh [--binary PATH] [--batch 1,100] [--samples N] [--no-recording] [--callgrind]
#   --binary     the motionbatch to measure (default: .build/release/motionbatch, built with
#                `swift build -c release --product motionbatch`)
#   --batch      batch sizes (default 1,100)
#   --samples    scans in the measured window (default 100000)
#   --no-recording  no recording written (as kernel test 58's `capture --batch 1` without -o)
#   --callgrind  also profile each batch size with callgrind: two runs whose windows differ by
#                CALLGRIND_WAKEUPS wake-ups (default 2000); the difference divided by that is the
#                steady-state cost of one wake-up (start-up and warm-up cancel out)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BINARY="$ROOT/.build/release/motionbatch"
BATCHES=1,100
SAMPLES=100000
CALLGRIND=0
EXTRA_ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) BINARY=$2; shift 2 ;;
        --batch) BATCHES=$2; shift 2 ;;
        --samples) SAMPLES=$2; shift 2 ;;
        --callgrind) CALLGRIND=1; shift ;;
        --no-recording) EXTRA_ARGS+=(--no-recording); shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "capture-benchmark: unknown option $1" >&2; exit 64 ;;
    esac
done
[ -x "$BINARY" ] || { echo "capture-benchmark: $BINARY not found (swift build -c release --product motionbatch)" >&2; exit 1; }
command -v gcc >/dev/null || { echo "capture-benchmark: gcc is needed to build the shim (apt-get install gcc)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
gcc -O2 -Wall -shared -fPIC -o "$WORK/alloc-count.so" "$ROOT/scripts/alloc-count/alloc-count.c"

echo "== capture benchmark (native, alloc-count shim loaded)"
LD_PRELOAD="$WORK/alloc-count.so" "$BINARY" capture benchmark --batch "$BATCHES" --samples "$SAMPLES" ${EXTRA_ARGS[@]+"${EXTRA_ARGS[@]}"}

[ "$CALLGRIND" = 1 ] || exit 0
command -v valgrind >/dev/null || { echo "capture-benchmark: valgrind is needed for --callgrind" >&2; exit 1; }
# valgrind 3.19 cannot read the DWARF 5 that Swift emits: profile a copy without debug sections.
objcopy --strip-debug "$BINARY" "$WORK/motionbatch"
EXTRA=${CALLGRIND_WAKEUPS:-2000}
echo "== callgrind: per steady-state wake-up (difference of two runs, $EXTRA wake-ups apart)"
IFS=, read -ra LIST <<< "$BATCHES"
for b in "${LIST[@]}"; do
    small=$((b * 200)); large=$((b * (200 + EXTRA)))
    for n in $small $large; do
        valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.$b.$n" --compress-strings=no --compress-pos=no \
            "$WORK/motionbatch" capture benchmark --batch "$b" --samples "$n" --warmup $((b * 100)) ${EXTRA_ARGS[@]+"${EXTRA_ARGS[@]}"} > /dev/null 2> "$WORK/cg.$b.$n.log"
    done
    python3 - "$WORK/cg.$b.$small" "$WORK/cg.$b.$large" "$EXTRA" "$b" <<'EOF'
import re, sys
def totals(path):
    ir = 0
    calls = {"swift_retain": 0, "swift_release": 0, "malloc": 0, "swift_allocObject": 0, "swift_bridgeObjectRetain": 0, "swift_bridgeObjectRelease": 0}
    target = None
    with open(path) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                ir = int(line.split()[1])
            elif line.startswith("cfn="):
                name = line[4:].strip()
                name = re.sub(r"^\(\d+\)\s*", "", name)
                target = name if name in calls else None
            elif line.startswith("calls=") and target:
                calls[target] += int(line[6:].split()[0])
                target = None
    return ir, calls
a_ir, a = totals(sys.argv[1])
b_ir, b = totals(sys.argv[2])
n = int(sys.argv[3])
per = lambda x, y: (y - x) / n
print(f"batch {sys.argv[4]}: Ir {per(a_ir, b_ir):.0f}/wake-up ({per(a_ir, b_ir) / int(sys.argv[4]):.0f}/sample); "
      + ", ".join(f"{k} {per(a[k], b[k]):.2f}" for k in a) + " per wake-up")
EOF
done
