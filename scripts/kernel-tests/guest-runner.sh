#!/bin/bash
# Runs inside the QEMU guest (chrooted into the host's read-only /). Loads the hid-sensor/IIO
# modules from the cached Debian kernel, then runs every scripts/kernel-tests/guest/NN-*.sh in
# order with a per-test timeout. Each test writes $MB_RESULTS/<test-name>.json; its stdout/stderr
# go to $MB_RESULTS/guest.log. Writes $MB_RESULTS/runner-done at the end.
# Environment from /init: MB_ROOT, MB_RESULTS, MB_BIN, MB_MODDIR, MB_ONLY.
export MB_ROOT MB_RESULTS MB_BIN MB_MODDIR
LOG="$MB_RESULTS/guest.log"
exec >>"$LOG" 2>&1
echo "guest: kernel $(uname -r), $(date -u +%FT%TZ)"
MODULES="uhid hid-sensor-hub hid-sensor-accel-3d hid-sensor-gyro-3d virtio_net"
if ! modprobe -a -d "$MB_MODDIR" $MODULES; then
    echo "guest: modprobe $MODULES failed"
fi
# The NIC for iiod (QEMU user networking: the guest is 10.0.2.15, nothing is reachable from it).
ip link set lo up
if ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0; then echo "guest: eth0 10.0.2.15/24"; else echo "guest: no eth0"; fi
export MB_TEST_LIB="$MB_ROOT/scripts/kernel-tests/lib.sh"
# --repeat N (kernel-tests.sh passes it on the kernel command line): the selected tests run N
# times in this boot, round by round; round r writes its results in $MB_RESULTS/round-r.
REPEAT=$(sed -n 's/.*mb\.repeat=\([0-9][0-9]*\).*/\1/p' /proc/cmdline 2>/dev/null)
REPEAT=${REPEAT:-1}
BASE_RESULTS=$MB_RESULTS
# selected NAME: whether MB_ONLY (one pattern, or several separated by commas) selects test NAME.
selected() {
    local p pats
    IFS=, read -ra pats <<<"$MB_ONLY"
    for p in "${pats[@]}"; do [ -n "$p" ] && [[ "$1" == *"$p"* ]] && return 0; done
    return 1
}
for round in $(seq "$REPEAT"); do
    if [ "$REPEAT" -gt 1 ]; then
        MB_RESULTS="$BASE_RESULTS/round-$round"
        mkdir -p "$MB_RESULTS"
        echo "===== round $round of $REPEAT ====="
    fi
    for t in "$MB_ROOT"/scripts/kernel-tests/guest/[0-9][0-9]-*.sh; do
        name=$(basename "$t" .sh)
        if [ "$MB_ONLY" != ALL ] && ! selected "$name"; then continue; fi
        # 90-99 are profiling tools (opt-in): run only when --only names them.
        if [ "$MB_ONLY" = ALL ] && [[ "$name" == 9[0-9]-* ]]; then continue; fi
        echo "===== $name ====="
        start=$(date +%s.%N)
        # A test may ask for a longer limit with a line '# timeout: SECONDS' (default 45 s).
        limit=$(sed -n 's/^# timeout: \([0-9]*\)$/\1/p' "$t" | head -1)
        timeout -k 3 "${limit:-${MB_TEST_TIMEOUT:-45}}" bash "$t"
        rc=$?
        end=$(date +%s.%N)
        echo "$name: exit $rc ($(awk "BEGIN{printf \"%.1f\", $end-$start}") s)"
        printf '{"name":"%s","exit":%d,"seconds":%s}\n' "$name" "$rc" "$(awk "BEGIN{printf \"%.2f\", $end-$start}")" >"$MB_RESULTS/$name.exit.json"
    done
done
MB_RESULTS=$BASE_RESULTS
dmesg >"$MB_RESULTS/dmesg.txt" 2>/dev/null
touch "$MB_RESULTS/runner-done"
echo "guest: done"
