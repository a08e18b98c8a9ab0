#!/usr/bin/env bash
# Tests of the service files and the installers, on this machine but never installing onto it:
#   1. systemd-analyze verify of contrib/systemd/motionbatch.service with ExecStart on the built
#      binary (verify fails on a missing one), and of a broken copy (the check can fail);
#   2. scripts/install.sh into scratch roots: files, group, user, data directory; a second run
#      changes nothing; an edited options file is kept; --uninstall and --purge;
#   3. scripts/package-deb.sh: the Debian package builds and is lintian-clean (kernel test
#      69-session-package installs it into the QEMU guest).
# Usage: scripts/contrib-tests.sh [--no-package] [--binary PATH]   (needs root for install.sh)
# Writes .build/contrib-tests/summary.json ({"passed", "tests": [{"name", "passed", "problems"}]}).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/.build/contrib-tests"
PACKAGE=1
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --no-package) PACKAGE=0; shift ;;
        --binary) BIN=$2; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "contrib-tests: unknown argument '$1'" >&2; exit 64 ;;
    esac
done
cd "$ROOT"
mkdir -p "$OUT"
[ -n "$BIN" ] || BIN="$(swift build --show-bin-path)/motionbatch"
[ -x "$BIN" ] || { echo "contrib-tests: no binary at $BIN (swift build first)" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/motionbatch-contrib.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
results=()
problems=()
fail() { problems+=("$*"); }
finish() { # NAME
    local p=""
    for x in "${problems[@]}"; do p+="${p:+,}$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$x")"; done
    results+=("{\"name\": \"$1\", \"passed\": $([ ${#problems[@]} -eq 0 ] && echo true || echo false), \"problems\": [$p]}")
    if [ ${#problems[@]} -eq 0 ]; then echo "PASS  $1"; else echo "FAIL  $1"; for x in "${problems[@]}"; do echo "      - $x"; done; fi
    problems=()
}

# 1. systemd-analyze verify.
if command -v systemd-analyze >/dev/null; then
    sed "s|/usr/local/bin/motionbatch|$BIN|" contrib/systemd/motionbatch.service >"$TMP/motionbatch.service"
    systemd-analyze verify "$TMP/motionbatch.service" >"$TMP/verify.log" 2>&1 || fail "systemd-analyze verify: $(tail -5 "$TMP/verify.log" | tr '\n' ' ')"
    [ -s "$TMP/verify.log" ] && fail "systemd-analyze verify printed: $(tail -5 "$TMP/verify.log" | tr '\n' ' ')"
    sed "s|/usr/local/bin/motionbatch|$TMP/no-such-binary|" contrib/systemd/motionbatch.service >"$TMP/broken.service"
    systemd-analyze verify "$TMP/broken.service" >/dev/null 2>&1 && fail "systemd-analyze verify accepted a unit whose ExecStart does not exist"
    grep -q '^User=motionbatch$' contrib/systemd/motionbatch.service || fail "the unit does not run as user motionbatch"
    grep -q '^SupplementaryGroups=iio$' contrib/systemd/motionbatch.service || fail "the unit is not in group iio"
    for k in 'Restart=on-failure' 'ProtectSystem=strict' 'ReadWritePaths=/var/lib/motionbatch' 'NoNewPrivileges=yes'; do
        grep -q "^$k$" contrib/systemd/motionbatch.service || fail "the unit lacks $k"
    done
else
    fail "systemd-analyze is missing (Debian package systemd: scripts/install-deps.sh --package)"
fi
finish "systemd-unit-verify"

# 2. install.sh into scratch roots.
scratch_root() {
    local r=$1
    mkdir -p "$r/etc" "$r/var/lib" "$r/usr/local/bin"
    printf 'root:x:0:0:root:/root:/bin/sh\n' >"$r/etc/passwd"
    printf 'root:x:0:\n' >"$r/etc/group"
    printf 'root:*:19000:0:99999:7:::\n' >"$r/etc/shadow"
    printf 'root:*::\n' >"$r/etc/gshadow"
    chmod 640 "$r/etc/shadow" "$r/etc/gshadow"
}
tree() { (cd "$1" && find . -path ./proc -prune -o -type f -print0 | sort -z | xargs -0 sha256sum; find . -printf '%p %m %U:%G\n' | sort); }
R="$TMP/root"
scratch_root "$R"
if [ "$(id -u)" != 0 ]; then
    fail "install.sh needs root (run the tests as root)"
else
    scripts/install.sh --root "$R" --binary "$BIN" >"$TMP/install1.log" 2>&1 || fail "install.sh: $(tail -5 "$TMP/install1.log" | tr '\n' ' ')"
    for f in usr/local/bin/motionbatch etc/systemd/system/motionbatch.service etc/udev/rules.d/60-motionbatch-iio.rules etc/default/motionbatch; do
        [ -f "$R/$f" ] || fail "install.sh did not install /$f"
    done
    cmp -s "$BIN" "$R/usr/local/bin/motionbatch" || fail "the installed binary differs from the one given"
    cmp -s contrib/udev/60-motionbatch-iio.rules "$R/etc/udev/rules.d/60-motionbatch-iio.rules" || fail "the installed udev rule differs from contrib/"
    grep -q '^ExecStart=/usr/local/bin/motionbatch capture' "$R/etc/systemd/system/motionbatch.service" || fail "the installed unit does not run /usr/local/bin/motionbatch"
    grep -q '^iio:x:[0-9]*:.*motionbatch' "$R/etc/group" || fail "group iio missing or motionbatch not in it: $(grep iio "$R/etc/group")"
    grep -q '^motionbatch:x:[0-9]*:[0-9]*:.*:/var/lib/motionbatch:/usr/sbin/nologin$' "$R/etc/passwd" || fail "user motionbatch missing: $(grep motionbatch "$R/etc/passwd")"
    uid=$(sed -n 's/^motionbatch:[^:]*:\([0-9]*\):.*/\1/p' "$R/etc/passwd")
    [ -d "$R/var/lib/motionbatch" ] && [ "$(stat -c %u "$R/var/lib/motionbatch")" = "$uid" ] || fail "/var/lib/motionbatch missing or not owned by motionbatch"
    [ "$(stat -c %a "$R/usr/local/bin/motionbatch")" = 755 ] || fail "the binary is not mode 755"
    before=$(tree "$R")
    scripts/install.sh --root "$R" --binary "$BIN" >"$TMP/install2.log" 2>&1 || fail "install.sh (second run): $(tail -5 "$TMP/install2.log" | tr '\n' ' ')"
    [ "$before" = "$(tree "$R")" ] || fail "a second install.sh changed the scratch root"
    grep -qE 'installed|created|added' "$TMP/install2.log" && fail "a second install.sh says it changed something: $(grep -E 'installed|created|added' "$TMP/install2.log" | tr '\n' ' ')"
    echo 'MOTIONBATCH_OPTIONS="--rate 50"' >"$R/etc/default/motionbatch"
    scripts/install.sh --root "$R" --binary "$BIN" >/dev/null 2>&1
    grep -q -- '--rate 50' "$R/etc/default/motionbatch" || fail "install.sh overwrote an edited /etc/default/motionbatch"
    scripts/install.sh --root "$R" --uninstall >"$TMP/uninstall.log" 2>&1 || fail "install.sh --uninstall: $(tail -3 "$TMP/uninstall.log" | tr '\n' ' ')"
    for f in usr/local/bin/motionbatch etc/systemd/system/motionbatch.service etc/udev/rules.d/60-motionbatch-iio.rules; do
        [ -e "$R/$f" ] && fail "--uninstall left /$f"
    done
    [ -f "$R/etc/default/motionbatch" ] || fail "--uninstall removed the edited options file"
    grep -q '^motionbatch:' "$R/etc/passwd" && [ -d "$R/var/lib/motionbatch" ] || fail "--uninstall removed the user or the recordings"
    scripts/install.sh --root "$R" --uninstall --purge >/dev/null 2>&1 || fail "install.sh --uninstall --purge failed"
    grep -q '^motionbatch:' "$R/etc/passwd" && fail "--purge kept the user"
    [ -d "$R/var/lib/motionbatch" ] && fail "--purge kept /var/lib/motionbatch"
    scripts/install.sh --root "$R/none" --binary "$BIN" >/dev/null 2>&1 && fail "install.sh accepted a --root that does not exist"
fi
finish "install-scratch-root"

# 3. The Debian package.
if [ "$PACKAGE" = 1 ]; then
    if deb=$(scripts/package-deb.sh --lintian 2>"$TMP/package.log" | tail -1) && [ -f "$deb" ]; then
        dpkg-deb -I "$deb" >"$TMP/info.txt"
        grep -q '^ Depends: .*libiio0' "$TMP/info.txt" || fail "Depends: does not name libiio0: $(grep Depends "$TMP/info.txt")"
        dpkg-deb -c "$deb" >"$TMP/contents.txt"
        for f in ./usr/bin/motionbatch ./lib/systemd/system/motionbatch.service ./lib/udev/rules.d/60-motionbatch-iio.rules ./etc/default/motionbatch \
                 ./usr/share/doc/motionbatch/copyright ./usr/share/man/man1/motionbatch.1.gz; do
            grep -q " $f\$" "$TMP/contents.txt" || fail "the package lacks $f"
        done
        dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -qx /etc/default/motionbatch || fail "/etc/default/motionbatch is not a conffile"
        echo "package: $deb"
    else
        fail "scripts/package-deb.sh --lintian: $(tail -15 "$TMP/package.log" | tr '\n' ' ')"
    fi
    finish "debian-package"
fi

ok=true
for r in "${results[@]}"; do case "$r" in *'"passed": false'*) ok=false ;; esac; done
printf '{"passed": %s, "tests": [%s]}\n' "$ok" "$(IFS=,; echo "${results[*]}")" >"$OUT/summary.json"
[ "$ok" = true ]
