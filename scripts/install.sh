#!/usr/bin/env bash
# Installs MotionBatch as a service on this machine (a Raspberry Pi, ...), from the source tree:
# the release binary (Swift runtime linked statically) to /usr/local/bin, the systemd unit to
# /etc/systemd/system, the udev rule to /etc/udev/rules.d, the service's options file
# /etc/default/motionbatch (kept if present), the group "iio", the system user "motionbatch" (in
# that group) and its data directory /var/lib/motionbatch. Idempotent: a second run changes
# nothing that is already in place. Then: sudo systemctl enable --now motionbatch.
#
#   scripts/install.sh [--root DIR] [--binary PATH] [--uninstall [--purge]]
#     --root DIR     install below DIR instead of / (a scratch root: no systemctl, no udevadm)
#     --binary PATH  install this binary instead of building one
#     --uninstall    remove the binary, unit, rule and an unchanged options file; the user, the
#                    group and the recordings stay (printed)
#     --purge        with --uninstall: also remove the user and /var/lib/motionbatch
# Needs root for / (sudo scripts/install.sh). docs/session.md, "Installing".
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
BINARY=""
UNINSTALL=0
PURGE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2%/}; shift 2 ;;
        --binary) BINARY=$2; shift 2 ;;
        --uninstall) UNINSTALL=1; shift ;;
        --purge) PURGE=1; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
[ "$PURGE" = 1 ] && [ "$UNINSTALL" = 0 ] && { echo "install.sh: --purge goes with --uninstall" >&2; exit 64; }
log() { echo "install.sh: $*"; }
die() { echo "install.sh: FAILED: $*" >&2; exit 1; }
[ -z "$ROOT" ] || [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
if [ "$(id -u)" != 0 ]; then die "needs root (sudo $0 $*)"; fi

BIN=/usr/local/bin/motionbatch
UNIT=/etc/systemd/system/motionbatch.service
RULE=/etc/udev/rules.d/60-motionbatch-iio.rules
DEFAULTS=/etc/default/motionbatch
DATA=/var/lib/motionbatch
SHADOW_ROOT=()
[ -n "$ROOT" ] && SHADOW_ROOT=(--root "$ROOT")
live() { [ -z "$ROOT" ]; }

# Copies SRC to DEST (mode MODE) unless DEST already has that content; says which.
place() {
    local src=$1 dest=$ROOT$2 mode=$3
    if [ -f "$dest" ] && cmp -s "$src" "$dest"; then
        log "unchanged $2"
        [ "$(stat -c %a "$dest")" = "$mode" ] || chmod "$mode" "$dest"
        return 1
    fi
    install -D -m "$mode" "$src" "$dest"
    log "installed $2"
}

if [ "$UNINSTALL" = 1 ]; then
    for f in "$BIN" "$UNIT" "$RULE"; do
        if [ -e "$ROOT$f" ]; then rm -f "$ROOT$f"; log "removed $f"; fi
    done
    if [ -f "$ROOT$DEFAULTS" ]; then
        if cmp -s "$SRC/contrib/default/motionbatch" "$ROOT$DEFAULTS"; then rm -f "$ROOT$DEFAULTS"; log "removed $DEFAULTS"
        else log "kept $DEFAULTS (changed by you)"; fi
    fi
    if [ "$PURGE" = 1 ]; then
        if grep -q '^motionbatch:' "$ROOT/etc/passwd" 2>/dev/null; then userdel "${SHADOW_ROOT[@]}" motionbatch; log "removed user motionbatch"; fi
        if [ -d "$ROOT$DATA" ]; then rm -rf "${ROOT:?}$DATA" 2>/dev/null || rm -rf "$DATA"; log "removed $DATA"; fi
    else
        grep -q '^motionbatch:' "$ROOT/etc/passwd" 2>/dev/null && log "kept user motionbatch and $DATA (--purge removes them)"
    fi
    if live; then
        command -v systemctl >/dev/null && [ -d /run/systemd/system ] && systemctl daemon-reload || true
        command -v udevadm >/dev/null && [ -d /run/udev ] && udevadm control --reload || true
    fi
    log "uninstalled"
    exit 0
fi

# 1. The binary: a release build with the Swift runtime linked in (no toolchain needed to run it).
if [ -z "$BINARY" ]; then
    log "swift build -c release --static-swift-stdlib (scratch path .build/package-build)"
    flags=(-c release --static-swift-stdlib --scratch-path .build/package-build -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
    (cd "$SRC" && swift build "${flags[@]}" --product motionbatch) >/dev/null || die "swift build failed (run it in $SRC to see why)"
    BINARY=$(cd "$SRC" && swift build "${flags[@]}" --show-bin-path)/motionbatch
fi
[ -x "$BINARY" ] || die "no binary at $BINARY"
changed=0
place "$BINARY" "$BIN" 755 && changed=1 || true

# 2. Group, user, data directory.
if grep -q '^iio:' "$ROOT/etc/group" 2>/dev/null; then log "unchanged group iio"; else groupadd "${SHADOW_ROOT[@]}" --system iio; log "created group iio"; fi
if grep -q '^motionbatch:' "$ROOT/etc/passwd" 2>/dev/null; then
    log "unchanged user motionbatch"
else
    useradd "${SHADOW_ROOT[@]}" --system --user-group --no-create-home --home-dir "$DATA" --shell /usr/sbin/nologin \
        --comment "MotionBatch capture" motionbatch
    log "created user motionbatch"
fi
members=$(sed -n 's/^iio:[^:]*:[^:]*:\(.*\)$/\1/p' "$ROOT/etc/group")
if printf '%s' ",$members," | grep -q ',motionbatch,'; then log "unchanged: motionbatch is in group iio"; else
    usermod "${SHADOW_ROOT[@]}" -a -G iio motionbatch; log "added motionbatch to group iio"; fi
uid=$(sed -n 's/^motionbatch:[^:]*:\([0-9]*\):.*/\1/p' "$ROOT/etc/passwd")
gid=$(sed -n 's/^motionbatch:[^:]*:[0-9]*:\([0-9]*\):.*/\1/p' "$ROOT/etc/passwd")
if [ -d "$ROOT$DATA" ]; then log "unchanged $DATA"; else install -d -m 0750 "$ROOT$DATA"; log "created $DATA"; fi
[ "$(stat -c %u:%g "$ROOT$DATA")" = "$uid:$gid" ] || chown "$uid:$gid" "$ROOT$DATA"

# 3. Unit (ExecStart on the installed binary), udev rule, options (never overwritten).
unit=$(mktemp); trap 'rm -f "$unit"' EXIT
sed "s|/usr/local/bin/motionbatch|$BIN|" "$SRC/contrib/systemd/motionbatch.service" >"$unit"
place "$unit" "$UNIT" 644 && changed=1 || true
place "$SRC/contrib/udev/60-motionbatch-iio.rules" "$RULE" 644 && changed=1 || true
if [ -f "$ROOT$DEFAULTS" ]; then log "unchanged $DEFAULTS (yours)"; else install -D -m 644 "$SRC/contrib/default/motionbatch" "$ROOT$DEFAULTS"; log "installed $DEFAULTS"; fi

# 4. On this machine: reload systemd and udev, apply the rule to the devices already there.
if live; then
    if command -v udevadm >/dev/null && [ -d /run/udev ]; then
        udevadm control --reload && udevadm trigger --subsystem-match=iio --action=add && log "udev rule applied to the IIO devices"
    fi
    if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
        systemctl daemon-reload
        [ "$changed" = 1 ] && systemctl try-restart motionbatch.service || true
        log "start it with: sudo systemctl enable --now motionbatch (logs: journalctl -u motionbatch)"
    fi
fi
log "done"
