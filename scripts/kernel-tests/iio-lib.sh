# Helpers for the IIO reader's guest tests (50-59), sourced after lib.sh inside the QEMU guest.

# The recording used by the reader tests: 100 Hz, values that differ sample to sample.
iio_make_recording() { # OUT SECONDS [--no-gyro]
    python3 "$MB_ROOT/scripts/kernel-tests/make-recording.py" "$1" --rate 100 --seconds "$2" ${3:-}
}

# proc_counters PID: "voluntary nonvoluntary utime_ticks stime_ticks" of the process's main thread.
proc_counters() {
    local v n
    v=$(sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
    n=$(sed -n 's/^nonvoluntary_ctxt_switches:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
    # /proc/PID/stat: fields after the ')' : state(3) ... utime(14) stime(15)
    read -r -a st < <(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null)
    echo "${v:-0} ${n:-0} ${st[11]:-0} ${st[12]:-0}"
}

# emu_bursts NAME: bursts and samples_sent of sensor NAME from the emulator's status file.
emu_counts() {
    python3 - "$TEST_TMP/status.json" "$1" <<'PY'
import json, sys
try:
    st = json.load(open(sys.argv[1]))
except Exception:
    print("0 0"); sys.exit()
for s in st.get("sensors", []):
    if s.get("name") == sys.argv[2]:
        print(s.get("bursts", 0), s.get("samples_sent", 0)); break
else:
    print("0 0")
PY
}

# as_nobody CMD...: runs CMD as user/group 65534 without supplementary groups.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

# window_json PID SECONDS SENSOR: measures PID's counters and the emulator's bursts over SECONDS;
# prints a JSON object {seconds, voluntary, nonvoluntary, cpu_ticks, bursts, samples_sent, hz}.
window_json() {
    local a b ea eb t0 t1
    a=$(proc_counters "$1"); ea=$(emu_counts "$3"); t0=$(date +%s.%N)
    sleep "$2"
    b=$(proc_counters "$1"); eb=$(emu_counts "$3"); t1=$(date +%s.%N)
    python3 - "$a" "$b" "$ea" "$eb" "$t0" "$t1" "$(getconf CLK_TCK)" <<'PY'
import json, sys
a = list(map(int, sys.argv[1].split())); b = list(map(int, sys.argv[2].split()))
ea = list(map(int, sys.argv[3].split())); eb = list(map(int, sys.argv[4].split()))
print(json.dumps({"seconds": float(sys.argv[6]) - float(sys.argv[5]),
    "voluntary": b[0] - a[0], "nonvoluntary": b[1] - a[1], "cpu_ticks": (b[2] + b[3]) - (a[2] + a[3]),
    "clk_tck": int(sys.argv[7]), "bursts": eb[0] - ea[0], "samples_sent": eb[1] - ea[1]}))
PY
}

# iio_dir NAME: sysfs directory of the IIO device NAME (after wait_iio).
iio_devnode() { echo "/dev/$(basename "$1")"; }

# file_or_null FILE: the file's content (JSON) or null.
file_or_null() { if [ -s "$1" ]; then cat "$1"; else echo null; fi; }
