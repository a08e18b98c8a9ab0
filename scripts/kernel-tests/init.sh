#!/bin/sh
# /init of the kernel-tests initramfs (busybox). Loads the virtio/9p modules, mounts the host's /
# read-only and the results export writable, chroots into the host tree and runs the guest runner.
# Always ends with `poweroff -f`, so QEMU (-no-reboot) exits.
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
arg() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" /proc/cmdline; }
fail() { echo "init: FAILED: $*"; poweroff -f; }
for m in $(cat /modules/order); do
    insmod /modules/$m.ko || fail "insmod $m"
done
OPTS=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o ro,$OPTS,cache=loose hostroot /mnt/host || fail "mount hostroot"
H=/mnt/host
mount -t proc proc $H/proc
mount -t sysfs sys $H/sys
mount -t devtmpfs dev $H/dev
mkdir -p $H/dev/pts 2>/dev/null; mount -t devpts devpts $H/dev/pts 2>/dev/null
mount -t tmpfs tmp $H/tmp
mount -t tmpfs run $H/run 2>/dev/null
# The package itself is exported on its own: it may live below /tmp or /run, which the tmpfs
# mounts above hide in the host tree.
ROOT=$(arg mb.root)
mkdir -p $H$ROOT 2>/dev/null
mount -t 9p -o ro,$OPTS,cache=loose repo $H$ROOT || fail "mount repo at $ROOT"
RES=$(arg mb.results)
mount -t 9p -o $OPTS results $H$RES || fail "mount results at $RES"
chroot $H /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp \
    MB_ROOT="$ROOT" MB_RESULTS="$RES" MB_BIN="$(arg mb.bin)" MB_MODDIR="$(arg mb.moddir)" MB_ONLY="$(arg mb.only)" \
    /bin/bash "$ROOT/scripts/kernel-tests/guest-runner.sh"
echo "init: runner exited with $?"
sync
poweroff -f
