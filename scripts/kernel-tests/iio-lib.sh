# Helpers for the IIO reader's guest tests (50-59), sourced after lib.sh inside the QEMU guest.

# The recording used by the reader tests: 100 Hz, values that differ sample to sample.
iio_make_recording() { # OUT SECONDS [--no-gyro]
    python3 "$MB_ROOT/scripts/kernel-tests/make-recording.py" "$1" --rate 100 --seconds "$2" ${3:-}
}

# proc_counters PID: "voluntary nonvoluntary utime_ticks stime_ticks cpu_ns" of the process's main thread.
proc_counters() {
    local v n
    v=$(sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
    n=$(sed -n 's/^nonvoluntary_ctxt_switches:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
    # /proc/PID/stat: fields after the ')' : state(3) ... utime(14) stime(15)
    local st
    st=($(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null))
    # /proc/PID/schedstat: nanoseconds spent on the CPU (precise, unlike the 10 ms ticks).
    local ns
    read -r ns _ <"/proc/$1/schedstat" 2>/dev/null
    echo "${v:-0} ${n:-0} ${st[11]:-0} ${st[12]:-0} ${ns:-0}"
}

# as_nobody CMD...: runs CMD as user/group 65534 without supplementary groups.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

# uptime_ns: CLOCK_BOOTTIME in ns from /proc/uptime (10 ms resolution; equals CLOCK_MONOTONIC in
# the guest, which never suspends), to relate a window to the IIO timestamps (monotonic clock).
uptime_ns() { local u _; read -r u _ </proc/uptime; echo "${u/./}0000000"; }

# window_json PID SECONDS: PID's counters over SECONDS; prints a JSON object
# {seconds, t0_ns, t1_ns, voluntary, nonvoluntary, cpu_ticks, user_ticks, system_ticks, cpu_ns, clk_tck, alive_at_end}. Device deliveries in the
# window are counted by the host-side checks from the captured timestamps.
window_json() {
    local a b t0 t1 alive=false
    a=$(proc_counters "$1"); t0=$(uptime_ns)
    sleep "$2"
    b=$(proc_counters "$1"); t1=$(uptime_ns)
    [ -d "/proc/$1" ] && alive=true
    set -- $a $b
    echo "{\"seconds\": $(( (t1 - t0) / 1000000 ))e-3, \"t0_ns\": $t0, \"t1_ns\": $t1, \"voluntary\": $(( $6 - $1 )), \"nonvoluntary\": $(( $7 - $2 )), \"cpu_ticks\": $(( $8 + $9 - $3 - $4 )), \"user_ticks\": $(( $8 - $3 )), \"system_ticks\": $(( $9 - $4 )), \"cpu_ns\": $(( ${10} - $5 )), \"clk_tck\": $(getconf CLK_TCK), \"alive_at_end\": $alive}"
}

# pair_windows CAP REF N SECONDS OUTCAP OUTREF OUTWIN: both processes' counters sampled at the
# same instants over N consecutive windows of SECONDS each. Writes the whole span as two
# window_json-style objects (OUTCAP, OUTREF) and the per-window CPU ns as a JSON array (OUTWIN)
# [{"seconds", "capture_cpu_ns", "readdev_cpu_ns", "capture_voluntary", "readdev_voluntary"}], so
# the checker can take the median window ratio (less sensitive to a burst of host load).
pair_windows() {
    local cap=$1 ref=$2 n=$3 w=$4 ocap=$5 oref=$6 owin=$7 i a0 b0 a b t0 t tp alive_a=false alive_b=false ca cb wins=""
    a0=$(proc_counters "$cap"); b0=$(proc_counters "$ref"); t0=$(uptime_ns)
    a=$a0; b=$b0; tp=$t0
    for ((i = 0; i < n; i++)); do
        sleep "$w"
        ca=$(proc_counters "$cap"); cb=$(proc_counters "$ref"); t=$(uptime_ns)
        set -- $a $ca $b $cb
        wins+="${wins:+, }{\"seconds\": $(( (t - tp) / 1000000 ))e-3, \"capture_cpu_ns\": $(( ${10} - $5 )), \"readdev_cpu_ns\": $(( ${20} - ${15} )), \"capture_voluntary\": $(( $6 - $1 )), \"readdev_voluntary\": $(( ${16} - ${11} ))}"
        a=$ca; b=$cb; tp=$t
    done
    [ -d "/proc/$cap" ] && alive_a=true
    [ -d "/proc/$ref" ] && alive_b=true
    _pw_json() { # BEFORE AFTER ALIVE
        set -- $1 $2 $3
        echo "{\"seconds\": $(( (t - t0) / 1000000 ))e-3, \"t0_ns\": $t0, \"t1_ns\": $t, \"voluntary\": $(( $6 - $1 )), \"nonvoluntary\": $(( $7 - $2 )), \"cpu_ticks\": $(( $8 + $9 - $3 - $4 )), \"user_ticks\": $(( $8 - $3 )), \"system_ticks\": $(( $9 - $4 )), \"cpu_ns\": $(( ${10} - $5 )), \"clk_tck\": $(getconf CLK_TCK), \"alive_at_end\": ${11}}"
    }
    _pw_json "$a0" "$a" "$alive_a" >"$ocap"
    _pw_json "$b0" "$b" "$alive_b" >"$oref"
    echo "[$wins]" >"$owin"
}

# capture_window OUT STATS [CAPTURE ARGS...]: one capture of cpu_ab's round (uses its b, w):
# started, measured over w s after 2 s (window_json into OUT), stopped by SIGINT; its statistics
# JSON in STATS. Returns the capture's exit status.
capture_window() {
    local out=$1 stats=$2 pid
    shift 2
    "$MB_BIN" capture --device accel_3d --rate 100 --batch "$b" --no-hwfifo "$@" --duration $((w + 30)) --stats-json "$stats" >/dev/null &
    pid=$!
    sleep 2; window_json "$pid" "$w" >"$out"
    kill -INT "$pid"; wait "$pid"
}

# cpu_ab BATCH ROUNDS SECONDS FLOOR [CAPTURE ARGS...]: reader CPU per sample, one reader at a
# time on accel_3d (100 Hz, no hardware FIFO): per round `motionbatch capture --batch BATCH
# --no-hwfifo [ARGS]`, with CPU_AB_ALT set the same capture with those arguments added (e.g.
# --no-analysis), then `iio_readdev -T 0 -b BATCH` (A B A B ...), and with FLOOR=1 the minimal
# Swift loop `floor-reader` (poll + read + one store, the same build; the buffer enabled through
# sysfs with watermark BATCH) after them. Each reader runs 2 s, then its counters are read over
# SECONDS (window_json), then it is stopped by SIGINT. Writes the test's result JSON {build,
# batch, design: "ab", capture_args, alt_args, exit, rounds: [{exit, capture, alt, alt_stats,
# readdev, floor, stats}]}.
cpu_ab() {
    local b=$1 n=$2 w=$3 floor=$4 accel dev pid rc arc alt alt_stats build round rounds="" worst=0 fl
    shift 4
    iio_make_recording "$TEST_TMP/rec.csv" 10
    start_emulator "$TEST_TMP/rec.csv" --loop --summary-json "$TEST_TMP/emu.json"
    accel=$(wait_iio accel_3d 10) || { echo "accel_3d did not appear"; return 1; }
    wait_iio gyro_3d 10 >/dev/null || { echo "gyro_3d did not appear"; return 1; }
    dev=/dev/$(basename "$accel")
    local floor_bin
    floor_bin="$(dirname "$MB_BIN")/floor-reader"
    for round in $(seq "$n"); do
        rm -f "$TEST_TMP/stats.json" "$TEST_TMP/cap.json" "$TEST_TMP/alt.json" "$TEST_TMP/alt-stats.json" "$TEST_TMP/ref.json" "$TEST_TMP/floor.json"
        capture_window "$TEST_TMP/cap.json" "$TEST_TMP/stats.json" "$@"; rc=$?
        [ $rc -ne 0 ] && worst=$rc
        alt=null; alt_stats=null
        if [ -n "${CPU_AB_ALT:-}" ]; then
            # shellcheck disable=SC2086 # CPU_AB_ALT is a list of arguments
            capture_window "$TEST_TMP/alt.json" "$TEST_TMP/alt-stats.json" "$@" $CPU_AB_ALT; arc=$?
            [ $arc -ne 0 ] && { worst=$arc; rc=$arc; }
            alt=$(file_or_null "$TEST_TMP/alt.json"); alt_stats=$(file_or_null "$TEST_TMP/alt-stats.json")
        fi
        echo 100 >"$accel/in_accel_sampling_frequency"; echo 0 >"$accel/buffer/hwfifo_timeout"
        iio_readdev -T 0 -b "$b" accel_3d >/dev/null 2>&1 &
        pid=$!
        sleep 2; window_json "$pid" "$w" >"$TEST_TMP/ref.json"
        kill -INT "$pid"; wait "$pid" 2>/dev/null
        fl=null
        if [ "$floor" = 1 ] && [ -x "$floor_bin" ]; then
            for e in "$accel"/scan_elements/*_en; do echo 1 >"$e"; done
            echo 128 >"$accel/buffer/length"; echo "$b" >"$accel/buffer/watermark"
            echo 100 >"$accel/in_accel_sampling_frequency"; echo 0 >"$accel/buffer/hwfifo_timeout"
            if echo 1 >"$accel/buffer/enable"; then
                "$floor_bin" "$dev" &
                pid=$!
                sleep 2; window_json "$pid" "$w" >"$TEST_TMP/floor.json"
                kill -INT "$pid"; wait "$pid" 2>/dev/null
                echo 0 >"$accel/buffer/enable"
                fl=$(file_or_null "$TEST_TMP/floor.json")
            fi
        fi
        echo "round $round: capture $(cat "$TEST_TMP/cap.json"); alt $alt; readdev $(cat "$TEST_TMP/ref.json"); floor $fl"
        rounds+="${rounds:+, }{\"exit\": $rc, \"capture\": $(file_or_null "$TEST_TMP/cap.json"), \"alt\": $alt, \"alt_stats\": $alt_stats, \"readdev\": $(file_or_null "$TEST_TMP/ref.json"), \"floor\": $fl, \"stats\": $(file_or_null "$TEST_TMP/stats.json")}"
    done
    stop_emulator TERM
    case "$MB_BIN" in */release/*) build=release ;; */debug/*) build=debug ;; *) build=unknown ;; esac
    write_result "{\"build\": \"$build\", \"batch\": $b, \"design\": \"ab\", \"capture_args\": \"$*\", \"alt_args\": \"${CPU_AB_ALT:-}\", \"exit\": $worst, \"rounds\": [$rounds]}"
}

# file_or_null FILE: the file's content (JSON) or null.
file_or_null() { if [ -s "$1" ]; then cat "$1"; else echo null; fi; }

