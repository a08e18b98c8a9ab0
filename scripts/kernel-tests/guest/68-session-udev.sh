#!/bin/bash
# Session test 6 (issue 15): the repository's udev rule (contrib/udev/60-motionbatch-iio.rules)
# applied by Debian's real systemd-udevd in the guest. The guest's root is the host's read-only /,
# so an edited /etc/group with an "iio" group is bind-mounted over it and the rule goes to
# /run/udev/rules.d. An unprivileged user (65534) in the group then captures; without the group the
# capture fails and its access state says permission denied, with the rule as the remedy.
# timeout: 90
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
UDEVD=/lib/systemd/systemd-udevd
[ -x "$UDEVD" ] || { echo "no $UDEVD (install Debian's udev package: scripts/install-deps.sh --kernel)"; exit 1; }
IIO_GID=990
cp /etc/group "$TEST_TMP/group"
grep -q '^iio:' "$TEST_TMP/group" || echo "iio:x:$IIO_GID:" >>"$TEST_TMP/group"
IIO_GID=$(sed -n 's/^iio:[^:]*:\([0-9]*\):.*/\1/p' "$TEST_TMP/group")
mount --bind "$TEST_TMP/group" /etc/group || { echo "cannot bind-mount /etc/group"; exit 1; }
mkdir -p /run/udev/rules.d
cp "$MB_ROOT/contrib/udev/60-motionbatch-iio.rules" /run/udev/rules.d/
"$UDEVD" --daemon 2>"$TEST_TMP/udevd.log" || { echo "systemd-udevd did not start"; cat "$TEST_TMP/udevd.log"; umount /etc/group; exit 1; }
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop
dev=$(wait_iio accel_3d 15) || { echo "accel_3d did not appear"; diagnose; }
udevadm settle --timeout=20
# The rule's RUN program may still be running (two execs, slow under TCG): wait for its last file.
for _ in $(seq 100); do [ "$(stat -c %G "$dev/in_accel_scale")" = iio ] && break; sleep 0.1; done
node="/dev/$(basename "$dev")"
ls -l "$node" "$dev/buffer/enable" "$dev/in_accel_sampling_frequency" "$dev/scan_elements/in_accel_x_en" 2>&1
chmod 755 "$TEST_TMP"; mkdir -p "$TEST_TMP/out" && chmod 777 "$TEST_TMP/out"
setpriv --reuid=65534 --regid=65534 --groups="$IIO_GID" -- "$MB_BIN" capture --device accel_3d --rate 100 --latency 1 --duration 3 \
    --output "$TEST_TMP/out/u.csv" --stats-json "$TEST_TMP/out/u.json" >/dev/null 2>"$TEST_TMP/in.err"; in_rc=$?
setpriv --reuid=65534 --regid=65534 --clear-groups -- "$MB_BIN" capture --device accel_3d --duration 2 >/dev/null 2>"$TEST_TMP/out.err"; out_rc=$?
setpriv --reuid=65534 --regid=65534 --clear-groups -- "$MB_BIN" devices --json >"$TEST_TMP/devices.json" 2>/dev/null
rows=$(grep -c '^[0-9]' "$TEST_TMP/out/u.csv" 2>/dev/null || echo 0)
perms=$(stat -c '%U:%G %a %n' "$node" "$dev/buffer/enable" "$dev/buffer/hwfifo_timeout" "$dev/in_accel_sampling_frequency" "$dev/scan_elements/in_accel_x_en" 2>&1 | tr '\n' ';')
stop_emulator TERM
udevadm control --exit 2>/dev/null
umount /etc/group
rm -f /run/udev/rules.d/60-motionbatch-iio.rules
cat "$TEST_TMP/in.err" "$TEST_TMP/out.err"
collect_json "$MB_RESULTS/$TEST_NAME.json" in_exit:="$in_rc" out_exit:="$out_rc" rows:="$rows" gid:="$IIO_GID" \
    perms:="$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$perms")" \
    in_stderr:="$(python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()[-1500:]))' "$TEST_TMP/in.err")" \
    out_stderr:="$(python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()[-2500:]))' "$TEST_TMP/out.err")" \
    stats="$TEST_TMP/out/u.json" devices="$TEST_TMP/devices.json"
