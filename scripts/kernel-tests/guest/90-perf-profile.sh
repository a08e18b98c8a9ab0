#!/bin/bash
# Profiling tool (opt-in: runs only with `scripts/kernel-tests.sh --only 90-`): system calls
# (`strace -c -f` over PROFILE_SAMPLES=1000 samples, and a 200-sample sequence) and a `perf record`
# profile (8 s, both at once) of `capture --batch 1` vs `iio_readdev -b 1`, written to
# results/profile/ (strace-*.txt, perf-*.txt); nothing is judged. Needs the host's strace and perf
# (Debian: strace, linux-perf); `touch .build/no-strace` skips strace. See docs/iio-reader.md.
# timeout: 150
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
OUT="$MB_RESULTS/profile"; mkdir -p "$OUT"
cat /sys/devices/system/clocksource/clocksource0/current_clocksource /sys/devices/system/clocksource/clocksource0/available_clocksource >"$OUT/clocksource.txt"
iio_make_recording "$TEST_TMP/rec.csv" 10
start_emulator "$TEST_TMP/rec.csv" --loop
wait_iio accel_3d 10 >/dev/null
gyro=$(wait_iio gyro_3d 10)
echo 100 >"$gyro/in_anglvel_sampling_frequency"; echo 0 >"$gyro/buffer/hwfifo_timeout"
N=${PROFILE_SAMPLES:-1000}
if [ ! -e "$MB_ROOT/.build/no-strace" ]; then
strace -f -c -o "$OUT/strace-capture.txt" "$MB_BIN" capture --device accel_3d --rate 100 --batch 1 --no-hwfifo --samples $N --json >"$OUT/capture-strace.json" 2>"$OUT/capture-strace.err"
strace -f -c -o "$OUT/strace-readdev.txt" iio_readdev -T 0 -b 1 -s $N gyro_3d >/dev/null 2>"$OUT/readdev-strace.err"
# Per-sample syscall sequence (a short stretch)
strace -f -tt -o "$OUT/strace-capture-seq.txt" "$MB_BIN" capture --device accel_3d --rate 100 --batch 1 --no-hwfifo --samples 200 >/dev/null 2>&1
strace -f -tt -o "$OUT/strace-readdev-seq.txt" iio_readdev -T 0 -b 1 -s 200 gyro_3d >/dev/null 2>&1
fi
# perf profile of both at once
"$MB_BIN" capture --device accel_3d --rate 100 --batch 1 --no-hwfifo --duration 25 >/dev/null 2>&1 &
cap=$!
iio_readdev -T 0 -b 1 gyro_3d >/dev/null 2>&1 &
ref=$!
sleep 3
perf record -e cpu-clock -F 2000 -g -o "$TEST_TMP/cap.data" -p $cap -- sleep 8 >/dev/null 2>&1 &
p1=$!
perf record -e cpu-clock -F 2000 -g -o "$TEST_TMP/ref.data" -p $ref -- sleep 8 >/dev/null 2>&1 &
p2=$!
wait $p1 $p2
perf report -i "$TEST_TMP/cap.data" --stdio --no-children -g none --sort dso,sym --percent-limit 0.2 2>/dev/null | grep -E "^ +[0-9]" | head -200 >"$OUT/perf-capture.txt"
perf report -i "$TEST_TMP/cap.data" --stdio --no-children -g none --sort dso 2>/dev/null | grep -E "^ +[0-9]" >"$OUT/perf-capture-dso.txt"
perf report -i "$TEST_TMP/ref.data" --stdio --no-children -g none --sort dso,sym --percent-limit 0.2 2>/dev/null | grep -E "^ +[0-9]" | head -100 >"$OUT/perf-readdev.txt"
perf report -i "$TEST_TMP/ref.data" --stdio --no-children -g none --sort dso 2>/dev/null | grep -E "^ +[0-9]" >"$OUT/perf-readdev-dso.txt"
kill -INT $ref $cap; wait $ref; wait $cap
stop_emulator TERM
write_result '{"ok": true}'
