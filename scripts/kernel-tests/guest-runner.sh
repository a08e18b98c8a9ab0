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
MODULES="uhid hid-sensor-hub hid-sensor-accel-3d hid-sensor-gyro-3d"
if ! modprobe -a -d "$MB_MODDIR" $MODULES; then
    echo "guest: modprobe $MODULES failed"
fi
export MB_TEST_LIB="$MB_ROOT/scripts/kernel-tests/lib.sh"
for t in "$MB_ROOT"/scripts/kernel-tests/guest/[0-9][0-9]-*.sh; do
    name=$(basename "$t" .sh)
    if [ "$MB_ONLY" != ALL ] && [[ "$name" != *"$MB_ONLY"* ]]; then continue; fi
    echo "===== $name ====="
    start=$(date +%s.%N)
    timeout -k 3 "${MB_TEST_TIMEOUT:-45}" bash "$t"
    rc=$?
    end=$(date +%s.%N)
    echo "$name: exit $rc ($(awk "BEGIN{printf \"%.1f\", $end-$start}") s)"
    printf '{"name":"%s","exit":%d,"seconds":%s}\n' "$name" "$rc" "$(awk "BEGIN{printf \"%.2f\", $end-$start}")" >"$MB_RESULTS/$name.exit.json"
done
dmesg >"$MB_RESULTS/dmesg.txt" 2>/dev/null
touch "$MB_RESULTS/runner-done"
echo "guest: done"
