#!/usr/bin/env bash
# Installs MotionBatch as a service on this machine (a Raspberry Pi, ...), from the source tree:
# the release binary (Swift runtime linked statically) to /usr/local/bin, the systemd unit to
# /usr/local/lib/systemd/system, the udev rule to /usr/local/lib/udev/rules.d (systemd's and udev's
# places for locally installed units and rules; /etc/systemd/system and /etc/udev/rules.d are left
# to your drop-ins and rules), the service's options file /etc/default/motionbatch (kept if
# present), the man pages (motionbatch(1), motionbatch-capture(1), ...) to
# /usr/local/share/man/man1, bash/zsh/fish completions, the README and docs/ to
# /usr/local/share/doc/motionbatch (the unit's Documentation=), the group "iio", the system user
# "motionbatch" (in that group) and its data directory /var/lib/motionbatch. Idempotent: a second
# run changes nothing that is already in place. Then: sudo systemctl enable --now motionbatch.
#
#   scripts/install.sh [--root DIR] [--binary PATH] [--uninstall [--purge]]
#     --root DIR     install below DIR instead of / (staging: no systemctl, no udevadm; without
#                    root the files are placed and the user, group and ownership are left out)
#     --binary PATH  install this binary instead of building one
#     --uninstall    stop and disable the service, remove the binary, unit, rule, man pages,
#                    completions, docs and an unchanged options file; the user, the group and
#                    the recordings stay (printed), and so do your drop-ins and rules in /etc
#     --purge        with --uninstall: also remove the user and /var/lib/motionbatch
# Without --binary the release build runs as the owner of the source tree (never as root in
# someone else's checkout), its progress shown. Needs root for / (sudo scripts/install.sh).
# A unit or rule an earlier install.sh put in /etc is removed if unchanged, else kept (printed).
# docs/session.md, "Installing".
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
BINARY=""
UNINSTALL=0
PURGE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a DIR" >&2; exit 64; }; ROOT=${2%/}; shift 2 ;;
        --binary) [ $# -ge 2 ] || { echo "install.sh: --binary needs a PATH" >&2; exit 64; }; BINARY=$2; shift 2 ;;
        --uninstall) UNINSTALL=1; shift ;;
        --purge) PURGE=1; shift ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
[ "$PURGE" = 1 ] && [ "$UNINSTALL" = 0 ] && { echo "install.sh: --purge goes with --uninstall" >&2; exit 64; }
log() { echo "install.sh: $*"; }
die() { echo "install.sh: FAILED: $*" >&2; exit 1; }
[ -z "$ROOT" ] || [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
ISROOT=0
[ "$(id -u)" = 0 ] && ISROOT=1
if [ "$ISROOT" = 0 ] && [ -z "$ROOT" ]; then die "needs root to install onto this machine (sudo $0 $*), or --root DIR to stage"; fi

BIN=/usr/local/bin/motionbatch
UNIT=/usr/local/lib/systemd/system/motionbatch.service
RULE=/usr/local/lib/udev/rules.d/60-motionbatch-iio.rules
# Where install.sh put them before, the administrator's own places, and the sha256 of every unit
# and rule it wrote there: such a copy is removed (by an install or --uninstall), anything else
# there is yours and stays.
OLD_UNIT=/etc/systemd/system/motionbatch.service
OLD_RULE=/etc/udev/rules.d/60-motionbatch-iio.rules
OLD_SUMS="8d82f62b8879f618d4ed90c85a33e174d360d07104dcee20a0e7ec4f3a5a8779
bcd00ea03e9a65be6351cafe7bc8b8ba208efa72bcc2f3a6ffd4a4e1e747d857
333be5697bd5d2847aee6a2b3cf03fa39b027546ca07a0a10c283e30ce332b68
44337dab2bd1d135119819655aec87b000c35e9ef6619866a7685552f6990171
bff11e6fc0c1fae03f6bb0d413878aff3e25d4f8c33eab221e8a300efcb5899b"
DEFAULTS=/etc/default/motionbatch
DATA=/var/lib/motionbatch
MAN=/usr/local/share/man/man1
DOC=/usr/local/share/doc/motionbatch
BASH_COMPLETION=/usr/local/share/bash-completion/completions/motionbatch
ZSH_COMPLETION=/usr/local/share/zsh/site-functions/_motionbatch
FISH_COMPLETION=/usr/local/share/fish/vendor_completions.d/motionbatch.fish
SHADOW_ROOT=()
[ -n "$ROOT" ] && SHADOW_ROOT=(--root "$ROOT")
live() { [ -z "$ROOT" ]; }
systemd_running() { live && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; }
accounts() { [ "$ISROOT" = 1 ]; }

# Removes OLD (a path below /etc) if it is a copy an earlier install.sh wrote; else keeps it and
# says why (NOTE: what keeping it means). Returns 0 when it removed one.
retire_old() {
    local old=$1 note=$2 f=$ROOT$1
    [ -e "$f" ] || [ -L "$f" ] || return 1
    if [ -f "$f" ] && [ ! -L "$f" ] && printf '%s\n' "$OLD_SUMS" | grep -qxF "$(sha256sum <"$f" | cut -d' ' -f1)"; then
        rm -f -- "$f"; log "removed $old (an earlier install.sh's copy)"
        return 0
    fi
    log "note: kept $old: not what an earlier install.sh wrote there, so yours; $note"
    return 1
}

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
    if systemd_running && systemctl cat motionbatch.service >/dev/null 2>&1; then
        systemctl disable --now motionbatch.service >/dev/null 2>&1 || true
        log "stopped and disabled motionbatch.service"
    fi
    for f in "$BIN" "$UNIT" "$RULE" "$BASH_COMPLETION" "$ZSH_COMPLETION" "$FISH_COMPLETION" "$ROOT$MAN"/motionbatch.1 "$ROOT$MAN"/motionbatch-*.1; do
        f=${f#"$ROOT"}
        if [ -e "$ROOT$f" ]; then rm -f -- "$ROOT$f"; log "removed $f"; fi
    done
    retire_old "$OLD_UNIT" "remove it yourself if you no longer want it" || true
    retire_old "$OLD_RULE" "remove it yourself if you no longer want it" || true
    # What enabling it linked (systemctl disable does it when systemd runs; not with --root).
    for l in "$ROOT"/etc/systemd/system/*.wants/motionbatch.service "$ROOT"/etc/systemd/system/*.requires/motionbatch.service; do
        [ -L "$l" ] || continue
        t=$(readlink "$l")
        if [ "$t" = "$UNIT" ] || { [ "$t" = "$OLD_UNIT" ] && [ ! -e "$ROOT$OLD_UNIT" ]; }; then rm -f -- "$l"; log "removed ${l#"$ROOT"}"; fi
    done
    if [ -d "$ROOT$DOC" ]; then rm -rf -- "$ROOT$DOC"; log "removed $DOC"; fi
    if [ -f "$ROOT$DEFAULTS" ]; then
        if cmp -s "$SRC/contrib/default/motionbatch" "$ROOT$DEFAULTS"; then rm -f -- "$ROOT$DEFAULTS"; log "removed $DEFAULTS"
        else log "kept $DEFAULTS (changed by you)"; fi
    fi
    if [ "$PURGE" = 1 ]; then
        if grep -q '^motionbatch:' "$ROOT/etc/passwd" 2>/dev/null; then
            accounts || die "--purge of the user motionbatch needs root"
            userdel "${SHADOW_ROOT[@]}" motionbatch; log "removed user motionbatch"
        fi
        if [ -d "$ROOT$DATA" ]; then rm -rf -- "$ROOT$DATA"; log "removed $DATA"; fi
    else
        if grep -q '^motionbatch:' "$ROOT/etc/passwd" 2>/dev/null; then log "kept user motionbatch and $DATA (--purge removes them)"; fi
    fi
    if live; then
        if systemd_running; then systemctl daemon-reload || true; fi
        if command -v udevadm >/dev/null && [ -d /run/udev ]; then udevadm control --reload || true; fi
    fi
    log "uninstalled"
    exit 0
fi

# 1. The binary: a release build with the Swift runtime linked in (no toolchain needed to run it),
# built by the owner of the source tree (a root-owned .build/ in a user's checkout breaks their
# next build).
if [ -z "$BINARY" ]; then
    owner=$(stat -c %U "$SRC")
    as=()
    if [ "$ISROOT" = 1 ] && [ "$owner" != root ]; then
        command -v runuser >/dev/null || die "runuser is missing: build first and pass --binary PATH"
        as=(runuser -u "$owner" -- env "PATH=$PATH")
    elif [ "$(id -un)" != "$owner" ]; then
        die "the source tree belongs to $owner: build as $owner and pass --binary PATH"
    fi
    flags=(-c release --static-swift-stdlib --scratch-path .build/package-build -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
    log "swift build ${flags[*]} --product motionbatch, as $owner (minutes on a Pi; its progress follows)"
    (cd "$SRC" && "${as[@]}" swift build "${flags[@]}" --product motionbatch) >&2 || die "swift build failed (above)"
    BINARY=$(cd "$SRC" && "${as[@]}" swift build "${flags[@]}" --show-bin-path)/motionbatch
fi
[ -x "$BINARY" ] || die "no binary at $BINARY"
changed=0
place "$BINARY" "$BIN" 755 && changed=1 || true

# 2. Group, user, data directory (staging without root: left to the machine's own install).
if accounts; then
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
fi
if [ -d "$ROOT$DATA" ]; then log "unchanged $DATA"; else install -d -m 0750 "$ROOT$DATA"; log "created $DATA"; fi
if accounts; then
    [ "$(stat -c %u:%g "$ROOT$DATA")" = "$uid:$gid" ] || chown "$uid:$gid" "$ROOT$DATA"
else
    log "not root: group iio, user motionbatch and the owner of $DATA left out (run install.sh as root on the machine)"
fi

# 3. Unit (ExecStart on the installed binary, Documentation= on the installed docs), udev rule,
# options (never overwritten), man pages and completions (generated by the binary), docs.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sed "s|/usr/local/bin/motionbatch|$BIN|; s|file:///usr/share/doc/motionbatch|file://$DOC|" "$SRC/contrib/systemd/motionbatch.service" >"$tmp/unit"
place "$tmp/unit" "$UNIT" 644 && changed=1 || true
place "$SRC/contrib/udev/60-motionbatch-iio.rules" "$RULE" 644 && changed=1 || true
if retire_old "$OLD_UNIT" "systemd runs it instead of $UNIT"; then
    changed=1
    # Enabled before: its links now name the new place (systemctl reenable, without systemd).
    for l in "$ROOT"/etc/systemd/system/*.wants/motionbatch.service "$ROOT"/etc/systemd/system/*.requires/motionbatch.service; do
        if [ -L "$l" ] && [ "$(readlink "$l")" = "$OLD_UNIT" ]; then ln -sfn "$UNIT" "$l"; log "relinked ${l#"$ROOT"} to $UNIT"; fi
    done
fi
retire_old "$OLD_RULE" "udev reads it instead of $RULE" || true
if [ -f "$ROOT$DEFAULTS" ]; then log "unchanged $DEFAULTS (yours)"; else install -D -m 644 "$SRC/contrib/default/motionbatch" "$ROOT$DEFAULTS"; log "installed $DEFAULTS"; fi
mkdir -p "$tmp/man"
"$BINARY" --generate-manual "$tmp/man" >/dev/null || die "$BINARY --generate-manual failed"
for page in "$tmp"/man/*.1; do place "$page" "$MAN/$(basename "$page")" 644 || true; done
"$BINARY" --generate-completion-script bash >"$tmp/bash" && place "$tmp/bash" "$BASH_COMPLETION" 644 || true
"$BINARY" --generate-completion-script zsh >"$tmp/zsh" && place "$tmp/zsh" "$ZSH_COMPLETION" 644 || true
"$BINARY" --generate-completion-script fish >"$tmp/fish" && place "$tmp/fish" "$FISH_COMPLETION" 644 || true
place "$SRC/README.md" "$DOC/README.md" 644 || true
for f in "$SRC"/docs/*.md "$SRC"/docs/schemas/*.json; do
    [ -f "$f" ] && { place "$f" "$DOC/${f#"$SRC"/}" 644 || true; }
done
for f in "$SRC"/contrib/mosquitto/*; do
    [ -f "$f" ] && { place "$f" "$DOC/examples/mosquitto/$(basename "$f")" 644 || true; }
done

# 4. On this machine: reload systemd and udev, apply the rule to the devices already there.
if live; then
    if command -v udevadm >/dev/null && [ -d /run/udev ]; then
        udevadm control --reload && udevadm trigger --subsystem-match=iio --action=add && log "udev rule applied to the IIO devices"
    fi
    if systemd_running; then
        systemctl daemon-reload
        [ "$changed" = 1 ] && systemctl try-restart motionbatch.service || true
        log "start it with: sudo systemctl enable --now motionbatch (logs: journalctl -u motionbatch)"
    fi
fi
log "done"
