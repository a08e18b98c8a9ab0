#!/usr/bin/env bash
# libFuzzer for MotionBatch's input parsers (targets in Sources/MotionFuzzTargets, executables in
# Fuzz/, committed corpus in Fuzz/Corpus/<target>/). See Fuzz/README.md.
#
#   scripts/fuzz.sh replay                 # deterministic, for CI: each target over its corpus,
#                                          # then RUNS (default 10000) mutations with -seed=1
#   scripts/fuzz.sh run [TARGET|all] [S]   # fuzz for S seconds per target (default 600), as long
#                                          # as you like; new inputs in .build/fuzz/corpus/TARGET,
#                                          # crashes in .build/fuzz/crashes/TARGET
#   scripts/fuzz.sh build                  # only build the executables
#
# The executables are built with -sanitize=fuzzer,address in their own package (Fuzz/) and scratch
# path (.build/fuzz), so the main package's products are never built with sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=(recording-reader recording-header number-parser board-profile option-parser fleet-payload zip-archive)
SCRATCH=.build/fuzz
RUNS="${RUNS:-10000}"
# The fuzzer reports crashes itself; the Swift runtime's backtracer can hang after a trap here.
export SWIFT_BACKTRACE=enable=no

build_one() {
    # The linker warns about every ASan symbol it cannot export; the warnings are harmless.
    swift build --package-path Fuzz --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer,address \
        --product "fuzz-$1" > "$SCRATCH/build-$1.log" 2>&1
}

build() {
    mkdir -p "$SCRATCH"
    for t in "${TARGETS[@]}"; do
        echo "building fuzz-$t..." >&2
        if ! build_one "$t"; then
            # After sources of the main package moved, the fuzz package's build plan can name
            # files that no longer exist ("missing inputs"): drop the plan and build again.
            if grep -q "missing inputs" "$SCRATCH/build-$t.log"; then
                rm -f "$SCRATCH"/*.yaml "$SCRATCH"/*/debug/description.json
                build_one "$t" || { grep -v "Cannot export local symbol" "$SCRATCH/build-$t.log" >&2; exit 1; }
            else
                grep -v "Cannot export local symbol" "$SCRATCH/build-$t.log" >&2
                exit 1
            fi
        fi
    done
}

binary() { echo "$SCRATCH/debug/fuzz-$1"; }

check_target() {
    for t in "${TARGETS[@]}"; do [ "$t" = "$1" ] && return 0; done
    echo "unknown fuzz target '$1' (targets: ${TARGETS[*]})" >&2
    exit 64
}

case "${1:-replay}" in
build)
    build
    ;;
replay)
    build
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # The same run every time: Swift's per-process hash seed changes the code paths (and so the
    # coverage that steers the mutations) of every Set and Dictionary; -reload=0 stops libFuzzer
    # from re-reading the corpus folders on a timer.
    export SWIFT_DETERMINISTIC_HASHING=1
    failed=0
    for t in "${TARGETS[@]}"; do
        mkdir -p "$work/$t"
        # New inputs go to the scratch folder (first corpus argument); the committed corpus is
        # only read. Per-input timeout generous, so that a slow machine never fails at random.
        if (cd "$work" && timeout 1800 "$OLDPWD/$(binary "$t")" -seed=1 -runs="$RUNS" -reload=0 -timeout=120 -rss_limit_mb=4096 \
                -max_len=16384 -artifact_prefix="$work/crash-$t-" "$work/$t" "$OLDPWD/Fuzz/Corpus/$t" > "$work/$t.log" 2>&1); then
            echo "fuzz-$t: $(grep -E '^Done' "$work/$t.log" | tail -1) (corpus $(ls "Fuzz/Corpus/$t" | wc -l) entries)"
        else
            failed=1
            echo "fuzz-$t: FAILED" >&2
            grep -E "invariant|Fatal error|ERROR|SUMMARY|Test unit written" "$work/$t.log" >&2 || tail -20 "$work/$t.log" >&2
            mkdir -p "$SCRATCH/crashes/$t"
            cp "$work"/crash-"$t"-* "$SCRATCH/crashes/$t/" 2>/dev/null || true
        fi
    done
    exit "$failed"
    ;;
run)
    target="${2:-all}"
    seconds="${3:-600}"
    build
    list=("${TARGETS[@]}")
    if [ "$target" != all ]; then check_target "$target"; list=("$target"); fi
    for t in "${list[@]}"; do
        mkdir -p "$SCRATCH/corpus/$t" "$SCRATCH/crashes/$t"
        echo "fuzzing $t for $seconds s (corpus $SCRATCH/corpus/$t, crashes $SCRATCH/crashes/$t)..." >&2
        status=0
        "$(binary "$t")" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -max_len=16384 \
            -artifact_prefix="$SCRATCH/crashes/$t/" "$SCRATCH/corpus/$t" "Fuzz/Corpus/$t" || status=$?
        if [ "$status" -ne 0 ]; then
            echo "fuzz-$t found a crash: see $SCRATCH/crashes/$t/. Minimise it with" >&2
            echo "  $(binary "$t") -minimize_crash=1 -runs=10000 $SCRATCH/crashes/$t/crash-..." >&2
            echo "then add it to Fuzz/Corpus/$t/ (crash-<what>) and a regression test (Fuzz/README.md)." >&2
            exit "$status"
        fi
    done
    ;;
*)
    echo "usage: scripts/fuzz.sh [replay | run [TARGET|all] [SECONDS] | build]" >&2
    exit 64
    ;;
esac
