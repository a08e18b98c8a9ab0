#!/bin/bash
# timeout: 75
# Remote boards over iiod: Debian's iiod (0.24) serves the emulated accel_3d/gyro_3d on the
# guest's 10.0.2.15:30431, forwarded by QEMU (restrict=on) to 127.0.0.1:PORT on the host, where
# scripts/kernel-tests/host/62-iiod.sh runs `motionbatch devices -u ip:127.0.0.1:PORT` and
# `capture -u ...` at 100 Hz, latency 1 s (phase 1), a capture during which this script kills
# iiod (phase 2: a dropped connection), and `devices -T 1500` against a server that accepts and
# never answers (phase 3: a hung iiod; the timeout must not hang). Ready files on the results share sequence the phases.
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
R="$MB_RESULTS/$TEST_NAME"
iio_make_recording "$TEST_TMP/rec.csv" 20
cp "$TEST_TMP/rec.csv" "$R.source.csv"
start_emulator "$TEST_TMP/rec.csv" --loop --timestamps hub --summary-json "$TEST_TMP/emu.json"
wait_iio accel_3d 10 >/dev/null && wait_iio gyro_3d 10 >/dev/null || { echo "devices did not appear"; exit 1; }
listening() { grep -q ':76DF .* 0A ' /proc/net/tcp /proc/net/tcp6 2>/dev/null; } # port 30431, state LISTEN
# Markers from the host exist (they may be empty).
wait_marker() { for _ in $(seq $(( $2 * 10 ))); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }
trap 'kill -CONT $IIOD $HUNG 2>/dev/null; kill -KILL $IIOD $HUNG 2>/dev/null; _mb_cleanup' EXIT
start_iiod() {
    iiod >>"$TEST_TMP/iiod.log" 2>&1 &
    IIOD=$!
    for _ in $(seq 100); do listening && return 0; sleep 0.1; done
    return 1
}
start_iiod || { echo "iiod did not listen"; cat "$TEST_TMP/iiod.log"; exit 1; }
ip addr show eth0 | grep inet
touch "$R.host-request"
phase=0
if wait_marker "$R.phase2-started" 40; then
    phase=1
    sleep 2
    kill -KILL "$IIOD"; wait "$IIOD" 2>/dev/null
    if wait_marker "$R.phase2-done" 25; then
        phase=2
        # A server that accepts connections and never answers (a hung iiod).
        python3 -c 'import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("0.0.0.0", 30431)); s.listen(8)
held = []
while True:
    c, _ = s.accept(); held.append(c)' &
        HUNG=$!
        for _ in $(seq 50); do listening && break; sleep 0.1; done
        touch "$R.phase3-ready"
        wait_marker "$R.host-done" 40 && phase=3
    fi
fi
wait_marker "$R.host-done" 40
stop_emulator TERM
cat "$TEST_TMP/iiod.log"
write_result "{\"guest_phases_done\": $phase, \"emulator\": $(file_or_null "$TEST_TMP/emu.json"), \"host\": $(file_or_null "$R.host.json")}"
