#!/usr/bin/env bash
# Builds a Debian package of MotionBatch for this machine's architecture with dpkg-deb: the
# release binary with the Swift runtime linked statically (--static-swift-stdlib: no Swift
# toolchain needed where it is installed), the systemd unit, the udev rule, the service's options
# file, the man pages, shell completions and docs, the copyright and changelog. Depends: is derived from the shared libraries
# the binary still needs (dpkg-shlibdeps: libiio0, libc6, ...), plus what the maintainer scripts use.
#
#   scripts/package-deb.sh [--out DIR] [--binary PATH] [--lintian]
#     --out DIR       where the .deb goes (default .build/package)
#     --binary PATH   package this binary instead of building one (tests)
#     --lintian       run lintian on the package and fail on any error or warning
#
# Install it with `sudo apt install ./motionbatch_VERSION_ARCH.deb`; on a Raspberry Pi (arm64) run
# this script on the Pi itself (with the Swift toolchain there): the package is built for the
# architecture it runs on. docs/session.md, "Installing".
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/.build/package"
BINARY=""
LINTIAN=0
while [ $# -gt 0 ]; do
    case "$1" in
        --out) OUT=$2; shift 2 ;;
        --binary) BINARY=$2; shift 2 ;;
        --lintian) LINTIAN=1; shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "package-deb.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
log() { echo "package-deb: $*" >&2; }
die() { echo "package-deb: FAILED: $*" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture gzip strip; do
    command -v "$tool" >/dev/null || die "$tool is missing (scripts/install-deps.sh --package installs dpkg-dev)"
done
cd "$ROOT"
VERSION=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/MotionCLI/MotionBatchCLI.swift)
[ -n "$VERSION" ] || die "no version in Sources/MotionCLI/MotionBatchCLI.swift"
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
if [ -z "$BINARY" ]; then
    # A build directory of its own: the static runtime must not replace the kernel tests' binary.
    log "swift build -c release --static-swift-stdlib (scratch path .build/package-build)"
    # Full RELRO (lintian's hardening-no-bindnow): relocations resolved at load time, then read-only.
    mkdir -p "$OUT"
    swift build -c release --static-swift-stdlib --product motionbatch --scratch-path .build/package-build \
        -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now >"$OUT.build.log" 2>&1 \
        || { tail -30 "$OUT.build.log" >&2; die "swift build failed (log: $OUT.build.log)"; }
    BINARY=$(swift build -c release --static-swift-stdlib --scratch-path .build/package-build --show-bin-path \
        -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)/motionbatch
fi
[ -x "$BINARY" ] || die "no binary at $BINARY"
if ldd "$BINARY" 2>/dev/null | grep -q 'libswift'; then
    die "$BINARY links the Swift runtime dynamically (build with --static-swift-stdlib)"
fi

STAGE=$(mktemp -d "${TMPDIR:-/tmp}/motionbatch-deb.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
P="$STAGE/motionbatch_${VERSION}_$ARCH"
install -d "$P/DEBIAN" "$P/usr/bin" "$P/lib/systemd/system" "$P/lib/udev/rules.d" "$P/etc/default" \
    "$P/usr/share/doc/motionbatch" "$P/usr/share/man/man1"
install -m 0755 "$BINARY" "$P/usr/bin/motionbatch"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$P/usr/bin/motionbatch"
sed 's|/usr/local/bin/motionbatch|/usr/bin/motionbatch|' contrib/systemd/motionbatch.service >"$P/lib/systemd/system/motionbatch.service"
install -m 0644 contrib/udev/60-motionbatch-iio.rules "$P/lib/udev/rules.d/"
install -m 0644 contrib/default/motionbatch "$P/etc/default/motionbatch"
chmod 0644 "$P/lib/systemd/system/motionbatch.service"
install -m 0644 README.md "$P/usr/share/doc/motionbatch/README.md"
YEAR=$(date -u +%Y)
cat >"$P/usr/share/doc/motionbatch/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: motionbatch
Source: https://github.com/motionbatch/motionbatch

Files: *
Copyright: 2026-$YEAR MotionBatch developers
License: Apache-2.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License. You may obtain a copy of
 the License at http://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software
 distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
 License for the specific language governing permissions and limitations under
 the License.
 .
 On Debian systems, the complete text of the Apache License version 2.0 can be
 found in "/usr/share/common-licenses/Apache-2.0".
EOF
DATE=$(date -u -R)
printf 'motionbatch (%s) unstable; urgency=medium\n\n  * Release %s: capture as a service, man pages and shell completions.\n\n -- MotionBatch developers <motionbatch@users.noreply.github.com>  %s\n' \
    "$VERSION" "$VERSION" "$DATE" | gzip -9n >"$P/usr/share/doc/motionbatch/changelog.gz"
# The man pages (motionbatch(1), motionbatch-capture(1), ...) and the shell completions, generated
# by the binary from the same command specs as --help; the docs the help refers to.
mkdir -p "$STAGE/man"
"$BINARY" --generate-manual "$STAGE/man" >/dev/null || die "$BINARY --generate-manual failed"
for page in "$STAGE"/man/*.1; do gzip -9n <"$page" >"$P/usr/share/man/man1/$(basename "$page").gz"; done
install -d "$P/usr/share/bash-completion/completions" "$P/usr/share/zsh/vendor-completions" "$P/usr/share/fish/vendor_completions.d"
"$BINARY" --generate-completion-script bash >"$P/usr/share/bash-completion/completions/motionbatch"
"$BINARY" --generate-completion-script zsh >"$P/usr/share/zsh/vendor-completions/_motionbatch"
"$BINARY" --generate-completion-script fish >"$P/usr/share/fish/vendor_completions.d/motionbatch.fish"
install -d "$P/usr/share/doc/motionbatch/docs/schemas"
install -m 0644 docs/*.md "$P/usr/share/doc/motionbatch/docs/"
install -m 0644 docs/schemas/*.json "$P/usr/share/doc/motionbatch/docs/schemas/"
if [ -d contrib/mosquitto ]; then
    install -d "$P/usr/share/doc/motionbatch/examples/mosquitto"
    find contrib/mosquitto -maxdepth 1 -type f -exec install -m 0644 {} "$P/usr/share/doc/motionbatch/examples/mosquitto/" \;
fi
find "$P/usr/share" -type f -exec chmod 0644 {} +

# Maintainer scripts: the group and user the unit runs as, the udev rule applied to devices
# already there, the unit registered (not started: the sensor and options are the owner's choice).
cat >"$P/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    getent group iio >/dev/null || addgroup --system iio
    if ! getent passwd motionbatch >/dev/null; then
        mkdir -p /var/lib/motionbatch
        adduser --system --group --home /var/lib/motionbatch --no-create-home --gecos "MotionBatch capture" motionbatch
    fi
    adduser motionbatch iio >/dev/null
    if [ "$(stat -c %U /var/lib/motionbatch 2>/dev/null)" != motionbatch ]; then
        install -d -m 0750 -o motionbatch -g motionbatch /var/lib/motionbatch
    fi
    if [ -d /run/udev ] && command -v udevadm >/dev/null; then
        udevadm control --reload || true
        udevadm trigger --subsystem-match=iio --action=add || true
    fi
fi
if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]; then
    if deb-systemd-helper debian-installed motionbatch.service; then
        deb-systemd-helper update-state motionbatch.service >/dev/null || true
    fi
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        if [ -n "$2" ]; then deb-systemd-invoke try-restart motionbatch.service >/dev/null || true; fi
    fi
fi
EOF
cat >"$P/DEBIAN/prerm" <<'EOF'
#!/bin/sh
set -e
if [ -z "${DPKG_ROOT:-}" ] && [ "$1" = remove ] && [ -d /run/systemd/system ]; then
    deb-systemd-invoke stop motionbatch.service >/dev/null || true
fi
EOF
cat >"$P/DEBIAN/postrm" <<'EOF'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
fi
if [ "$1" = purge ]; then
    if command -v deb-systemd-helper >/dev/null; then
        deb-systemd-helper purge motionbatch.service >/dev/null || true
    fi
fi
EOF
chmod 0755 "$P/DEBIAN/postinst" "$P/DEBIAN/prerm" "$P/DEBIAN/postrm"
echo "/etc/default/motionbatch" >"$P/DEBIAN/conffiles"
(cd "$P" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum >DEBIAN/md5sums)

# Depends: from the shared libraries the binary needs, and what the scripts call.
mkdir -p "$STAGE/shlibs/debian"
printf 'Source: motionbatch\nMaintainer: x <x@example.org>\n\nPackage: motionbatch\nArchitecture: any\n' >"$STAGE/shlibs/debian/control"
SHLIBS=$(cd "$STAGE/shlibs" && dpkg-shlibdeps -O "$P/usr/bin/motionbatch" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$SHLIBS" ] || die "dpkg-shlibdeps found no dependencies for the binary"
DEPENDS="$SHLIBS, adduser, init-system-helpers (>= 1.52)"
SIZE=$(du -k -s --exclude=DEBIAN "$P" | cut -f1)
cat >"$P/DEBIAN/control" <<EOF
Package: motionbatch
Version: $VERSION
Architecture: $ARCH
Maintainer: MotionBatch developers <motionbatch@users.noreply.github.com>
Installed-Size: $SIZE
Depends: $DEPENDS
Recommends: udev
Section: science
Priority: optional
Homepage: https://github.com/motionbatch/motionbatch
Description: batched accelerometer capture with step counting and activity
 MotionBatch reads accelerometers and gyroscopes through the Linux IIO
 subsystem (libiio), lets the sensor's hardware FIFO batch the samples so
 that the CPU wakes once per batch, counts steps and classifies activity
 live, and reports the wake-ups, CPU time and battery life batching saves.
 .
 This package runs it as a service: recordings rotated and pruned in
 /var/lib/motionbatch, pauses and lost devices survived, crash-safe
 journals recovered at the next start. A udev rule gives group iio the
 IIO devices.
EOF
mkdir -p "$OUT"
DEB="$OUT/motionbatch_${VERSION}_$ARCH.deb"
dpkg-deb --root-owner-group -Zxz --build "$P" "$DEB" >/dev/null
log "built $DEB (Depends: $DEPENDS)"
if [ "$LINTIAN" = 1 ]; then
    command -v lintian >/dev/null || die "lintian is missing (scripts/install-deps.sh --package)"
    report=$(lintian --fail-on error,warning --display-level '>=warning' "$DEB" 2>&1) || { echo "$report" >&2; die "lintian found problems in $DEB"; }
    [ -z "$report" ] || echo "$report" >&2
    log "lintian: no errors or warnings"
fi
echo "$DEB"
