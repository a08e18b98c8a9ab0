#!/bin/bash
# Wake-cost model against measurement (issue 6, measured mode): the captures of tests 52
# (hardware FIFO 1 s at 100 Hz) and 54 (no FIFO: per-sample, and kernel watermark 100) are put
# beside `motionbatch wakes`'s prediction for the same configuration, and `motionbatch calibrate`
# derives the per-wake and per-sample CPU cost from the per-sample and the batched capture.
# Runs after 52 and 54 in the same guest; fails when their results are missing.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
# extract RESULT_FILE OUT KEY.PATH: writes one member of a test's result JSON to OUT.
extract() {
    python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k in sys.argv[3].split("."):
    r = r[int(k)] if isinstance(r, list) else r[k]
json.dump(r, open(sys.argv[2], "w"))
PY
}
F52="$MB_RESULTS/52-iio-wake-fifo.json"; F54="$MB_RESULTS/54-iio-wake-nofifo.json"
extract "$F52" "$TEST_TMP/fifo.json" stats || { echo "no capture stats from test 52"; exit 1; }
# Device deliveries while the capture held the FIFO: the emulator's deliveries between the
# capture's hwfifo_timeout write (report latency 1 s) and its release (put back to 0). The emulator's own
# total also counts what it sends after the capture released the buffer (the kernel keeps the
# hub powered for its autosuspend delay, and the emulator is stopped only after the capture
# exited; under load that took long enough to add 7 deliveries and fail this test once).
python3 - "$F52" "$TEST_TMP/bursts.json" <<'PY' || { echo "no emulator bursts from test 52"; exit 1; }
import json, sys
s = json.load(open(sys.argv[1]))["emulator"]["sensors"][0]
on = next(h["t_s"] for h in s["history"] if h["property"] == "report_latency_ms" and h["value"] != 0)
off = next((h["t_s"] for h in s["history"] if h["property"] == "report_latency_ms" and h["value"] == 0 and h["t_s"] > on), None)
if off is None: sys.exit("the capture did not restore hwfifo_timeout")
json.dump(sum(1 for t in s["burst_times_s"] if on < t < off), open(sys.argv[2], "w"))
PY
extract "$F54" "$TEST_TMP/per-sample.json" watermark1.stats || { echo "no capture stats from test 54"; exit 1; }
extract "$F54" "$TEST_TMP/watermark100.json" watermark100.stats || { echo "no capture stats from test 54"; exit 1; }
# Device deliveries without a FIFO: one report per sample (the emulator sends each sample alone).
"$MB_BIN" wakes --measured "$TEST_TMP/fifo.json" --device-deliveries "$(cat "$TEST_TMP/bursts.json")" \
    --board rpi-zero-2w --json >"$TEST_TMP/m-fifo.json"; r1=$?
"$MB_BIN" wakes --measured "$TEST_TMP/per-sample.json" --board rpi-zero-2w --json >"$TEST_TMP/m-per-sample.json"; r2=$?
"$MB_BIN" wakes --measured "$TEST_TMP/watermark100.json" --board rpi-zero-2w --json >"$TEST_TMP/m-watermark100.json"; r3=$?
"$MB_BIN" calibrate --per-sample "$TEST_TMP/per-sample.json" --batched "$TEST_TMP/fifo.json" --board rpi-zero-2w --json >"$TEST_TMP/calibration.json"; r4=$?
"$MB_BIN" wakes --measured "$TEST_TMP/fifo.json" --device-deliveries "$(cat "$TEST_TMP/bursts.json")" --board rpi-zero-2w
write_result "{\"exits\": [$r1, $r2, $r3, $r4], \"fifo\": $(file_or_null "$TEST_TMP/m-fifo.json"),
 \"per_sample\": $(file_or_null "$TEST_TMP/m-per-sample.json"), \"watermark100\": $(file_or_null "$TEST_TMP/m-watermark100.json"),
 \"calibration\": $(file_or_null "$TEST_TMP/calibration.json")}"
