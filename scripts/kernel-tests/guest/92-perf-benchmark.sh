#!/bin/bash
# Profiling tool (opt-in: runs only with `scripts/kernel-tests.sh --only 92-`): `capture
# benchmark` (the capture's whole per-wake-up path over a simulated device, flat out) in the
# guest at batch 1 and 100 (bench*.json) with a `perf record` profile of it at batch 100
# (bench-perf*.txt), then the real capture as test 55 runs it, profiled (cap-perf*.txt,
# cap-perf-script.txt.gz: `perf script` for callers that `perf report` cannot attribute, e.g.
# below libc's `open`), all in results/profile/: where the guest's CPU per sample goes (the
# emulated CPU makes floating point and kernel text formatting far dearer than natively).
# Nothing is judged. See docs/iio-reader.md ("Batch 100: what the capture spends in the guest").
# timeout: 300
. "$MB_TEST_LIB"
OUT="$MB_RESULTS/profile"; mkdir -p "$OUT"
"$MB_BIN" capture benchmark --batch 1,100 --samples 20000 --warmup 2000 --no-recording --no-terminal --json >"$OUT/bench.json" 2>"$OUT/bench.err"
"$MB_BIN" capture benchmark --machine-only --analysis --batch 100 --samples 20000 --warmup 2000 --json >"$OUT/bench-machine.json" 2>>"$OUT/bench.err"
"$MB_BIN" capture benchmark --machine-only --batch 100 --samples 20000 --warmup 2000 --json >"$OUT/bench-machine-noanalysis.json" 2>>"$OUT/bench.err"
perf record -e cpu-clock -F 1000 -g -o "$TEST_TMP/bench.data" "$MB_BIN" capture benchmark --batch 100 --samples 20000 --warmup 2000 --no-recording --no-terminal >/dev/null 2>&1
perf report -i "$TEST_TMP/bench.data" --stdio --no-children -g none --sort dso,sym --percent-limit 0.3 2>/dev/null | grep -E "^ +[0-9]" | head -200 >"$OUT/bench-perf.txt"
perf report -i "$TEST_TMP/bench.data" --stdio --children -g none --sort sym --percent-limit 1 2>/dev/null | grep -E "^ +[0-9]" | head -120 >"$OUT/bench-perf-children.txt"
# The real capture as test 55 runs it (batch 100, accel_3d at 100 Hz, no hardware FIFO), profiled
# at 10 kHz over 40 s (its statistics, user and system CPU included, in cap-stats.json).
. "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
iio_make_recording "$TEST_TMP/rec.csv" 10
start_emulator "$TEST_TMP/rec.csv" --loop
wait_iio accel_3d 10 >/dev/null
"$MB_BIN" capture --device accel_3d --rate 100 --batch 100 --no-hwfifo --duration 60 --stats-json "$OUT/cap-stats.json" >/dev/null 2>"$OUT/cap.err" &
cap=$!
sleep 3
perf record -e cpu-clock -F 10000 -g -o "$TEST_TMP/cap.data" -p $cap -- sleep 40 >/dev/null 2>&1
kill -INT $cap; wait $cap
perf report -i "$TEST_TMP/cap.data" --stdio --no-children -g none --sort dso,sym --percent-limit 0.3 2>/dev/null | grep -E "^ +[0-9]" | head -200 >"$OUT/cap-perf.txt"
perf report -i "$TEST_TMP/cap.data" --stdio --children -g none --sort sym --percent-limit 1 2>/dev/null | grep -E "^ +[0-9]" | head -150 >"$OUT/cap-perf-children.txt"
perf report -i "$TEST_TMP/cap.data" --stdio --no-children -g caller --sort sym --percent-limit 2 2>/dev/null | head -400 >"$OUT/cap-perf-callers.txt"
perf script -i "$TEST_TMP/cap.data" 2>/dev/null | gzip >"$OUT/cap-perf-script.txt.gz"
stop_emulator TERM
write_result "{\"ok\": true, \"bench\": $(cat "$OUT/bench.json" 2>/dev/null || echo null)}"
