#!/bin/bash
# Kernel-in-the-loop tests: boots Debian's stock kernel in QEMU (TCG), runs every guest test in
# scripts/kernel-tests/guest/ against the host-built `motionbatch` over 9p, collects their JSON
# results through a writable 9p export, checks them on the host (scripts/kernel-tests/check.py) and
# writes .build/kernel-tests/summary.json. Exit status 0 only when every kernel test passed.
#
# Usage: scripts/kernel-tests.sh [--only PATTERN] [--repeat N] [--timeout SECONDS] [--no-build] [--debug|--dynamic]
#   --only PATTERN   run only guest tests whose file name contains PATTERN (e.g. --only 03-), or
#                    any of several: --only 52,55,58-;
#                    the profiling tools 90-99 run only when named here
#   --repeat N       run the selected tests N times (1-50) in one boot, round by round; every
#                    round must pass, and each figure's min/median/max is printed and kept in the
#                    summary (the default timeout grows with N)
#   --timeout S      hard limit for the whole QEMU run (default 1800 s x N; the IIO reader's
#                    wake-up tests measure 30 s windows, the CPU tests five rounds of 15 s windows
#                    per reader and the session tests run minute-long sessions: a full run takes
#                    about 22-24 minutes)
#   --no-build       skip `swift build` (use the binary already in .build)
#   --debug          test the debug build instead of the release build (CPU targets are only
#                    checked against a release build)
#   --dynamic        test the release build with the Swift runtime linked dynamically (.build/release)
#                    instead of the shipped configuration: release, Swift runtime linked statically
#                    (--static-swift-stdlib, scratch path .build/static)
# Environment: KERNEL_TESTS_CACHE (default .build/kernel-cache), KERNEL_TESTS_MEM (default 768M).
# See scripts/kernel-tests/README.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/.build/kernel-tests"
CACHE=${KERNEL_TESTS_CACHE:-$ROOT/.build/kernel-cache}
MEM=${KERNEL_TESTS_MEM:-768M}
TIMEOUT=""
REPEAT=1
CONFIG=release
STATIC=1
ONLY=""
BUILD=1
START=$(date +%s.%N)

while [ $# -gt 0 ]; do
    case "$1" in
        --only) ONLY=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --repeat) REPEAT=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --debug) CONFIG=debug; STATIC=0; shift ;;
        --dynamic) STATIC=0; shift ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "kernel-tests: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done

log() { echo "kernel-tests: $*" >&2; }
die() { echo "kernel-tests: FAILED: $*" >&2; exit 1; }
usage() { echo "kernel-tests: $* (see --help)" >&2; exit 64; }
case "$REPEAT" in ''|*[!0-9]*) usage "--repeat takes a whole number from 1 to 50, got '$REPEAT'" ;; esac
[ "$REPEAT" -ge 1 ] && [ "$REPEAT" -le 50 ] || usage "--repeat takes a whole number from 1 to 50, got '$REPEAT'"
if [ -z "$TIMEOUT" ]; then TIMEOUT=$((1800 * REPEAT)); fi
case "$TIMEOUT" in *[!0-9]*) usage "--timeout takes whole seconds, got '$TIMEOUT'" ;; esac

# --- 1. host tools (installed from Debian when missing) -------------------------------------
need_pkgs=()
need() { command -v "$1" >/dev/null 2>&1 || need_pkgs+=("$2"); }
need qemu-system-x86_64 qemu-system-x86
need cpio cpio
need depmod kmod
need iio_readdev libiio-utils
need iiod iiod
[ -x /lib/systemd/systemd-udevd ] || need_pkgs+=(udev)
need python3 python3
[ -x /bin/busybox ] && file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' || need_static_busybox=1
[ "${need_static_busybox:-0}" = 1 ] && need_pkgs+=(busybox-static)
if [ ${#need_pkgs[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "missing ${need_pkgs[*]}; run as root or: sudo apt-get install --no-install-recommends ${need_pkgs[*]}"
    log "installing ${need_pkgs[*]}"
    apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" \
        || die "apt-get install ${need_pkgs[*]} failed"
fi
BUSYBOX=/bin/busybox

# --- 2. the binary under test ------------------------------------------------------------------
cd "$ROOT"
mkdir -p "$OUT"
# The shipped configuration by default: the Swift runtime linked statically (as a package is
# built), in a build directory of its own so that it does not replace .build/release.
BUILD_ARGS=(-c "$CONFIG")
[ "$STATIC" = 1 ] && BUILD_ARGS+=(--static-swift-stdlib --scratch-path "$ROOT/.build/static")
if [ "$BUILD" = 1 ]; then
    log "swift build ${BUILD_ARGS[*]} --product motionbatch"
    swift build "${BUILD_ARGS[@]}" --product motionbatch >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log" >&2; die "swift build failed (log: $OUT/build.log)"; }
    # The minimal Swift reader of the CPU tests (55, 58), built the same way.
    swift build "${BUILD_ARGS[@]}" --product floor-reader >>"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log" >&2; die "swift build failed (log: $OUT/build.log)"; }
fi
BIN="$(swift build "${BUILD_ARGS[@]}" --show-bin-path)/motionbatch"
[ -x "$BIN" ] || die "no binary at $BIN (run without --no-build)"
# only_selects NAME: whether --only selects the guest test NAME (any comma-separated pattern is
# part of the name; guest-runner.sh and check.py select the same way).
only_selects() {
    local p pats
    IFS=, read -ra pats <<<"$ONLY"
    for p in "${pats[@]}"; do [ -n "$p" ] && [[ "$1" == *"$p"* ]] && return 0; done
    return 1
}
# Test 69 installs the Debian package in the guest: build it (its own build directory, the Swift
# runtime linked statically) unless --no-build finds one.
if [ -z "$ONLY" ] || only_selects 69-session-package; then
    if [ "$BUILD" = 1 ] || ! ls "$ROOT"/.build/package/motionbatch_*.deb >/dev/null 2>&1; then
        log "scripts/package-deb.sh"
        "$ROOT/scripts/package-deb.sh" >"$OUT/package.log" 2>&1 || { tail -20 "$OUT/package.log" >&2; die "scripts/package-deb.sh failed (log: $OUT/package.log)"; }
    fi
fi

# --- 3. kernel: Debian's versioned linux-image package, cached --------------------------------
mkdir -p "$CACHE"
KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
if [ -z "$KPKG" ]; then
    # Offline / no apt lists: reuse whatever kernel is cached.
    KPKG=$(ls -d "$CACHE"/linux-image-*-amd64 2>/dev/null | sort -V | tail -1 | xargs -r basename)
    [ -n "$KPKG" ] || die "cannot resolve linux-image-amd64's kernel package (apt-get update?) and none is cached"
fi
KVER=${KPKG#linux-image-}
KDIR="$CACHE/$KPKG"
if [ ! -f "$KDIR/.complete" ]; then
    log "fetching $KPKG"
    rm -rf "$KDIR" "$CACHE/dl"; mkdir -p "$CACHE/dl"
    (cd "$CACHE/dl" && apt-get download "$KPKG" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2) || true
    deb=$(ls "$CACHE"/dl/"$KPKG"_*.deb 2>/dev/null | head -1)
    [ -n "$deb" ] || die "apt-get download $KPKG failed"
    dpkg -x "$deb" "$KDIR" || die "dpkg -x $deb failed"
    depmod -b "$KDIR" "$KVER" || die "depmod -b $KDIR $KVER failed"
    rm -rf "$CACHE/dl"
    touch "$KDIR/.complete"
fi
VMLINUZ="$KDIR/boot/vmlinuz-$KVER"
MODS="$KDIR/lib/modules/$KVER"

# --- 4. initramfs: busybox + virtio/9p modules + /init, cached by content ---------------------
INIT_SRC="$ROOT/scripts/kernel-tests/init.sh"
NINEP_MODS="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p"
key=$( (echo "$KVER $NINEP_MODS"; cat "$INIT_SRC"; sha256sum "$BUSYBOX") | sha256sum | cut -c1-16)
INITRD="$CACHE/initramfs-$KVER-$key.cpio.gz"
if [ ! -f "$INITRD" ]; then
    log "building initramfs"
    stage=$(mktemp -d "$CACHE/initramfs.XXXXXX")
    mkdir -p "$stage"/{bin,dev,proc,sys,mnt/host,modules}
    cp "$BUSYBOX" "$stage/bin/busybox"
    ln -s busybox "$stage/bin/sh"
    cp "$INIT_SRC" "$stage/init"; chmod +x "$stage/init"
    for m in $NINEP_MODS; do
        f=$(find "$MODS/kernel" -name "$m.ko" -o -name "$m.ko.xz" -o -name "$m.ko.zst" | head -1)
        [ -n "$f" ] || die "module $m not found in $MODS"
        case "$f" in *.xz) xz -dc "$f" >"$stage/modules/$m.ko" ;; *.zst) zstd -qdc "$f" >"$stage/modules/$m.ko" ;; *) cp "$f" "$stage/modules/$m.ko" ;; esac
    done
    echo "$NINEP_MODS" >"$stage/modules/order"
    (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1 >"$INITRD.tmp") || die "cpio failed"
    mv "$INITRD.tmp" "$INITRD"
    rm -rf "$stage"
    for f in "$CACHE"/initramfs-*.cpio.gz; do [ "$f" = "$INITRD" ] || rm -f "$f"; done
fi

# --- 5. boot --------------------------------------------------------------------------------------
RESULTS="$OUT/results"
rm -rf "$RESULTS"; mkdir -p "$RESULTS"
CONSOLE="$OUT/console.log"
# Parameters for the guest's /init and runner (kernel command line; no spaces in values).
for v in "$ROOT" "$BIN" "$MODS" "$ONLY"; do
    case "$v" in *[[:space:]]*) die "paths and --only must not contain spaces: '$v'" ;; esac
done
# iiod in the guest is reached from the host through QEMU user networking: restrict=on (the guest
# can reach nothing), the guest's port 30431 forwarded to a free port on the host's loopback
# (chosen now: other runs of the harness may be using one).
IIOD_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
APPEND="console=ttyS0 panic=-1 loglevel=4 mb.root=$ROOT mb.results=$RESULTS mb.bin=$BIN mb.moddir=$KDIR mb.only=${ONLY:-ALL} mb.repeat=$REPEAT"
log "booting $KPKG (tcg, timeout ${TIMEOUT}s, iiod on 127.0.0.1:$IIOD_PORT)"
# Host-side clients of guest tests run while the guest runs (ready-file handshake over the
# results share: scripts/kernel-tests/host-runner.sh).
MB_BIN="$BIN" MB_RESULTS="$RESULTS" MB_ROOT="$ROOT" MB_IIOD_PORT="$IIOD_PORT" \
    bash "$ROOT/scripts/kernel-tests/host-runner.sh" >"$OUT/host-runner.log" 2>&1 &
HOST_RUNNER=$!
# The fleet test (70): a Mosquitto broker on a free loopback port and `motionbatch collect` into the
# results, for the whole run; the guest reaches the broker as 10.0.2.100:1883 through guestfwd
# (a relay process per connection; restrict=on stays).
BROKER_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
BROKER_PID=""; COLLECT_PID=""
if command -v mosquitto >/dev/null; then
    printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$BROKER_PORT" >"$OUT/mosquitto.conf"
    mosquitto -c "$OUT/mosquitto.conf" >"$OUT/mosquitto.log" 2>&1 &
    BROKER_PID=$!
    sleep 0.3
    "$BIN" collect "mqtt://127.0.0.1:$BROKER_PORT/fleet" --output-dir "$RESULTS/fleet-collected" --client-id kernel-tests \
        --reconnect-max 2 --duration "$TIMEOUT" >"$OUT/collect.log" 2>&1 &
    COLLECT_PID=$!
fi
GUESTFWD=",guestfwd=tcp:10.0.2.100:1883-cmd:python3 $ROOT/scripts/kernel-tests/tcp-relay.py 127.0.0.1 $BROKER_PORT"
set +e
timeout --kill-after=5 "$TIMEOUT" qemu-system-x86_64 -accel tcg -m "$MEM" -smp 1 \
    -no-reboot -nographic -nodefaults -serial stdio -monitor none \
    -kernel "$VMLINUZ" -initrd "$INITRD" -append "$APPEND" \
    -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
    -virtfs "local,path=$ROOT,mount_tag=repo,security_model=none,readonly=on,multidevs=remap" \
    -virtfs "local,path=$RESULTS,mount_tag=results,security_model=none,multidevs=remap" \
    -netdev "user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:$IIOD_PORT-:30431$GUESTFWD" -device virtio-net-pci,netdev=n0 \
    </dev/null >"$CONSOLE" 2>&1
qrc=$?
touch "$RESULTS/qemu-exited"
kill "$HOST_RUNNER" 2>/dev/null; wait "$HOST_RUNNER" 2>/dev/null
if [ -n "$COLLECT_PID" ]; then kill -TERM "$COLLECT_PID" 2>/dev/null; wait "$COLLECT_PID" 2>/dev/null; fi
if [ -n "$BROKER_PID" ]; then kill -TERM "$BROKER_PID" 2>/dev/null; wait "$BROKER_PID" 2>/dev/null; fi
set -e
WALL=$(python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$START" "$(date +%s.%N)")

echo "===== guest log ($RESULTS/guest.log) =====" >&2
if [ -f "$RESULTS/guest.log" ]; then cat "$RESULTS/guest.log" >&2; else echo "(none)" >&2; fi
fail=""
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then fail="qemu timed out after ${TIMEOUT}s"
elif [ $qrc -ne 0 ]; then fail="qemu exited with status $qrc"
elif [ ! -f "$RESULTS/runner-done" ]; then fail="the guest runner did not finish"
fi
if [ -n "$fail" ]; then
    echo "===== console ($CONSOLE, last 80 lines) =====" >&2
    tail -80 "$CONSOLE" >&2
fi

# --- 6. host-side checks of the collected results -------------------------------------------------
set +e
python3 "$ROOT/scripts/kernel-tests/check.py" --results "$RESULTS" --tests "$ROOT/scripts/kernel-tests/guest" \
    --only "$ONLY" --repeat "$REPEAT" --summary "$OUT/summary.json" --wall "$WALL" ${fail:+--harness-error "$fail"}
crc=$?
set -e
log "wall time ${WALL}s; summary: $OUT/summary.json"
[ -n "$fail" ] && die "$fail"
[ $crc -eq 0 ] || die "some kernel tests failed (see above)"
log "all kernel tests passed"
