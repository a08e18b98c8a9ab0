# Helpers sourced by the guest tests (scripts/kernel-tests/guest/NN-name.sh), inside the QEMU guest.
# Provided: MB_ROOT, MB_RESULTS, MB_BIN (motionbatch built on the host), MB_MODDIR.
TEST_NAME=$(basename "$0" .sh)
TEST_TMP=$(mktemp -d "/tmp/$TEST_NAME.XXXXXX")
EMU_PIDS=()

# write_result JSON: stores the test's result object as $MB_RESULTS/$TEST_NAME.json (checked on the host).
write_result() { printf '%s\n' "$1" >"$MB_RESULTS/$TEST_NAME.json"; }

# start_emulator ARGS...: runs `motionbatch emulate ARGS` in the background; sets EMU_PID.
# Its stdout/stderr go to $TEST_TMP/emulator.log (copied into the guest log at exit).
start_emulator() {
    "$MB_BIN" emulate "$@" >"$TEST_TMP/emulator.out" 2>"$TEST_TMP/emulator.log" &
    EMU_PID=$!
    EMU_PIDS+=("$EMU_PID")
}

# stop_emulator [SIGNAL]: signals the emulator (default TERM) and waits for it; sets EMU_STATUS.
stop_emulator() {
    kill -"${1:-TERM}" "$EMU_PID" 2>/dev/null
    wait "$EMU_PID"; EMU_STATUS=$?
}

# wait_iio NAME [SECONDS]: prints /sys/bus/iio/devices/iio:deviceN of the device named NAME
# once it has probed; returns 1 after SECONDS (default 10).
wait_iio() {
    local deadline=$(( $(date +%s) + ${2:-10} ))
    while [ "$(date +%s)" -le "$deadline" ]; do
        for d in /sys/bus/iio/devices/iio:device*; do
            [ -f "$d/name" ] && [ "$(cat "$d/name")" = "$1" ] && { echo "$d"; return 0; }
        done
        sleep 0.1
    done
    return 1
}

# wait_gone NAME [SECONDS]: waits until no IIO device is named NAME.
wait_gone() {
    local deadline=$(( $(date +%s) + ${2:-10} ))
    while [ "$(date +%s)" -le "$deadline" ]; do
        grep -qx "$1" /sys/bus/iio/devices/iio:device*/name 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}

# wait_file FILE [SECONDS]: waits until FILE exists and is non-empty.
wait_file() {
    local deadline=$(( $(date +%s) + ${2:-10} ))
    while [ "$(date +%s)" -le "$deadline" ]; do
        [ -s "$1" ] && return 0
        sleep 0.1
    done
    return 1
}

_mb_cleanup() {
    for p in "${EMU_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${EMU_PIDS[@]}"; do wait "$p" 2>/dev/null; done
    if [ -s "$TEST_TMP/emulator.log" ]; then echo "--- emulator stderr ---"; cat "$TEST_TMP/emulator.log"; fi
    rm -rf "$TEST_TMP"
}
trap _mb_cleanup EXIT

# diagnose: prints what the kernel made of the virtual hub (for failure messages).
diagnose() {
    echo "--- diagnose ---"
    echo "emulator pid $EMU_PID: $(kill -0 "$EMU_PID" 2>/dev/null && echo running || echo gone)"
    ls -l /sys/bus/hid/devices/ 2>&1
    for d in /sys/bus/hid/devices/*; do echo "$d: driver=$(readlink "$d/driver" 2>/dev/null | xargs -r basename)"; ls "$d" | tr '\n' ' '; echo; done
    cat /sys/bus/hid/devices/*/modalias; ls /sys/bus/hid/drivers/; lsmod 2>/dev/null | head -30
    ls /sys/bus/platform/devices/ | grep -i sensor
    ls /sys/bus/iio/devices/ 2>&1
    dmesg | grep -iE 'hid|sensor|iio|uhid' | tail -40
}

# snapshot DIR OUT: JSON snapshot of an IIO device's sysfs attributes (no *_raw reads).
snapshot() { python3 "$MB_ROOT/scripts/kernel-tests/iio-snapshot.py" "$1" >"$2"; }

# measured OUT.json [--stdout FILE] [--timeout S] -- CMD...: runs CMD, records exit/CPU/wake-ups.
measured() { python3 "$MB_ROOT/scripts/kernel-tests/run-measured.py" "$@"; }

# make_recording OUT [ARGS]: synthetic recording (see make-recording.py).
make_recording() { python3 "$MB_ROOT/scripts/kernel-tests/make-recording.py" "$@"; }

# monotonic: CLOCK_BOOTTIME seconds (equals CLOCK_MONOTONIC in the guest, which never suspends).
monotonic() { cut -d' ' -f1 /proc/uptime; }

# collect_json OUT KEY=FILE...: writes {"KEY": <parsed JSON of FILE or null>, ...} to OUT; a KEY
# given as KEY:=VALUE stores VALUE as a JSON literal (numbers, strings quoted by the caller).
collect_json() {
    local out=$1; shift
    python3 - "$@" >"$out" <<'PY'
import json, os, sys
res = {}
for a in sys.argv[1:]:
    if ":=" in a:
        k, v = a.split(":=", 1)
        res[k] = json.loads(v)
    else:
        k, f = a.split("=", 1)
        try:
            res[k] = json.load(open(f)) if os.path.exists(f) else None
        except ValueError as e:
            res[k] = {"invalid_json": str(e)}
print(json.dumps(res))
PY
}
