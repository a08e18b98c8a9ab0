#!/bin/bash
# Session test 7 (issue 15): the Debian package (scripts/package-deb.sh) installed for real in the
# guest, into an overlay of the host's read-only root (the host is never touched): dpkg resolves its
# Depends: against the installed packages, the maintainer scripts create group iio and user
# motionbatch; with the Swift toolchain hidden the installed binary runs (the runtime is linked in);
# systemd-udevd applies the packaged rule and user motionbatch captures; systemd-analyze verify
# accepts the installed unit; dpkg --purge removes the package.
# timeout: 300
. "$MB_TEST_LIB"; . "$MB_ROOT/scripts/kernel-tests/iio-lib.sh"
DEB=$(ls "$MB_ROOT"/.build/package/motionbatch_*.deb 2>/dev/null | head -1)
[ -n "$DEB" ] || { echo "no package in .build/package: scripts/package-deb.sh builds it (kernel-tests.sh runs it)"; exit 1; }
modprobe -d "$MB_MODDIR" overlay || { echo "no overlay module"; exit 1; }
O="$TEST_TMP/ov"; R="$O/root"
mkdir -p "$O/upper" "$O/work" "$R"
UDEVD_PID=""
# Everything mounted below $R is detached (lazily: busy or not) before lib.sh's cleanup removes
# $TEST_TMP, which must never descend into the bind-mounted /proc, /sys, /dev or /run.
unmount_root() {
    [ -n "$UDEVD_PID" ] && { kill "$UDEVD_PID" 2>/dev/null; wait "$UDEVD_PID" 2>/dev/null; UDEVD_PID=""; }
    [ -n "${SWIFT_TOOLCHAIN:-}" ] && umount -l "$R$SWIFT_TOOLCHAIN" 2>/dev/null
    for m in tmp run dev/pts dev sys proc; do umount -l "$R/$m" 2>/dev/null; done
    umount -l "$R" 2>/dev/null
    if grep -q " $R" /proc/mounts; then echo "still mounted below $R:"; grep " $R" /proc/mounts; return 1; fi
    return 0
}
trap 'unmount_root || exit 1; _mb_cleanup' EXIT
mount -t overlay overlay -o "lowerdir=/,upperdir=$O/upper,workdir=$O/work" "$R" || { echo "cannot mount the overlay"; exit 1; }
for m in proc sys dev dev/pts; do mount --bind "/$m" "$R/$m"; done
# A fresh /run and /tmp: udevd's control socket and database, and no rule left in /run/udev/rules.d
# by another test, so the rule udevd applies is the packaged one.
mount -t tmpfs run "$R/run"
mount -t tmpfs tmp "$R/tmp"
# The Swift toolchain the host's test binary was built with (where its libswiftCore.so lives),
# hidden in the installed root by an empty tmpfs.
# The test binary may itself be static (the harness's default): then the toolchain is found where
# Swift toolchains are installed.
SWIFT_TOOLCHAIN=$(ldd "$MB_BIN" | sed -n 's|.*=> \(.*\)/usr/lib/swift/linux/libswiftCore.so.*|\1|p' | head -1)
if [ -z "$SWIFT_TOOLCHAIN" ]; then
    for d in /opt/swift /usr/share/swift /opt/swift-*; do
        [ -e "$d/usr/lib/swift/linux/libswiftCore.so" ] && { SWIFT_TOOLCHAIN=$d; break; }
    done
fi
[ -n "$SWIFT_TOOLCHAIN" ] && [ -d "$R$SWIFT_TOOLCHAIN" ] && mount -t tmpfs hidden "$R$SWIFT_TOOLCHAIN"
cp "$DEB" "$R/tmp/motionbatch.deb"
# man-db's trigger would rebuild the manual page index of the whole (9p) root: off in the overlay.
rm -f "$R/var/lib/man-db/auto-update"
t() { echo "[$(cut -d' ' -f1 /proc/uptime)] $*"; }
t dpkg -i
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
in_root dpkg -i /tmp/motionbatch.deb >"$TEST_TMP/dpkg.log" 2>&1; dpkg_rc=$?
cat "$TEST_TMP/dpkg.log"
[ -n "$SWIFT_TOOLCHAIN" ] && [ ! -e "$R$SWIFT_TOOLCHAIN/usr/lib/swift/linux/libswiftCore.so" ] && swift_visible=false || swift_visible=true
in_root /usr/bin/motionbatch --version >"$TEST_TMP/version.txt" 2>&1; version_rc=$?
in_root ldd /usr/bin/motionbatch >"$TEST_TMP/ldd.txt" 2>&1
in_root systemd-analyze verify /lib/systemd/system/motionbatch.service >"$TEST_TMP/verify.txt" 2>&1; verify_rc=$?
group=$(in_root getent group iio); user=$(in_root getent passwd motionbatch)
# The packaged udev rule applied by udevd in the installed system, then a capture as the service's user.
t udevd
chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /lib/systemd/systemd-udevd 2>"$TEST_TMP/udevd.log" &
UDEVD_PID=$!
iio_make_recording "$TEST_TMP/rec.csv" 10 --no-gyro
start_emulator "$TEST_TMP/rec.csv" --loop
dev=$(wait_iio accel_3d 15) || { echo "accel_3d did not appear"; diagnose; }
t settle
in_root udevadm settle --timeout=20
t settled
for _ in $(seq 100); do [ "$(stat -c %G "$dev/in_accel_scale")" = iio ] && break; sleep 0.1; done
in_root setpriv --reuid=motionbatch --regid=motionbatch --init-groups -- /usr/bin/motionbatch capture --device accel_3d --rate 100 --latency 1 \
    --duration 3 --output /var/lib/motionbatch/p.csv >"$TEST_TMP/capture.out" 2>"$TEST_TMP/capture.err"; capture_rc=$?
rows=$(grep -c '^[0-9]' "$R/var/lib/motionbatch/p.csv" 2>/dev/null || echo 0)
t captured
stop_emulator TERM
kill "$UDEVD_PID" 2>/dev/null; wait "$UDEVD_PID" 2>/dev/null; UDEVD_PID=""
t purge
in_root dpkg --purge motionbatch >"$TEST_TMP/purge.log" 2>&1; purge_rc=$?
left=$(for f in usr/bin/motionbatch lib/systemd/system/motionbatch.service lib/udev/rules.d/60-motionbatch-iio.rules etc/default/motionbatch; do [ -e "$R/$f" ] && echo "$f"; done | tr '\n' ' ')
unmount_root || exit 1
j() { python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()[-2000:]))' "$1"; }
s() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }
collect_json "$MB_RESULTS/$TEST_NAME.json" dpkg_exit:="$dpkg_rc" dpkg_log:="$(j "$TEST_TMP/dpkg.log")" swift_visible:="$swift_visible" \
    version_exit:="$version_rc" version:="$(j "$TEST_TMP/version.txt")" ldd:="$(j "$TEST_TMP/ldd.txt")" verify_exit:="$verify_rc" \
    verify:="$(j "$TEST_TMP/verify.txt")" group:="$(s "$group")" user:="$(s "$user")" capture_exit:="$capture_rc" rows:="$rows" \
    capture_stderr:="$(j "$TEST_TMP/capture.err")" purge_exit:="$purge_rc" left:="$(s "$left")" toolchain:="$(s "$SWIFT_TOOLCHAIN")"
