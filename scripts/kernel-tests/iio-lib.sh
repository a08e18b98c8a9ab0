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
# {seconds, t0_ns, t1_ns, voluntary, nonvoluntary, cpu_ticks, cpu_ns, clk_tck, alive_at_end}. Device deliveries in the
# window are counted by the host-side checks from the captured timestamps.
window_json() {
    local a b t0 t1 alive=false
    a=$(proc_counters "$1"); t0=$(uptime_ns)
    sleep "$2"
    b=$(proc_counters "$1"); t1=$(uptime_ns)
    [ -d "/proc/$1" ] && alive=true
    set -- $a $b
    echo "{\"seconds\": $(( (t1 - t0) / 1000000 ))e-3, \"t0_ns\": $t0, \"t1_ns\": $t1, \"voluntary\": $(( $6 - $1 )), \"nonvoluntary\": $(( $7 - $2 )), \"cpu_ticks\": $(( $8 + $9 - $3 - $4 )), \"cpu_ns\": $(( ${10} - $5 )), \"clk_tck\": $(getconf CLK_TCK), \"alive_at_end\": $alive}"
}

# file_or_null FILE: the file's content (JSON) or null.
file_or_null() { if [ -s "$1" ]; then cat "$1"; else echo null; fi; }
