#!/usr/bin/env bash
# Tests of the service files and the installers, on this machine but never installing onto it:
#   1. systemd-analyze verify of contrib/systemd/motionbatch.service with ExecStart on the built
#      binary (verify fails on a missing one) and its man pages, and of a broken copy (the check
#      can fail); the restart policy, ordering and hardening settings; systemd-analyze security
#      --offline: exposure <= 2.5, clock_adjtime and Internet sockets allowed;
#   2. unit-filter: the binary under the unit's own seccomp filter and address families
#      (scripts/unit-sandbox.py, python3-seccomp): the clock-sync check (clock_adjtime) and a
#      loopback publish to a Mosquitto work; under the old filter order and families they fail;
#   3. udev-rule: the rule applies to accelerometers, gyroscopes, step counters and activity
#      devices, not to an ADC; its attribute script gives the group and fails loudly when it cannot;
#   4. man-and-completion: every generated man page renders within 80 columns without a warning;
#      the bash and fish completions complete subcommands, options and board names (zsh: syntax);
#   5. scripts/install.sh into scratch roots: files (the unit and the rule under /usr/local/lib,
#      nothing in /etc/systemd or /etc/udev; man pages, completions, docs), group, user, data
#      directory; a second run changes nothing; an edited options file is kept; the user's
#      drop-in and same-name udev rule in /etc survive a re-install and --uninstall; an upgrade
#      from the last install.sh that wrote to /etc; --uninstall and --purge; staging with --root
#      as an unprivileged user; the build runs as the owner of the source tree; install and
#      --uninstall --purge on a live system (a private mount namespace whose /etc, /var/lib and
#      /usr/local are scratch copies), where udev reads the installed rule;
#   6. scripts/package-deb.sh: the Debian package builds and is lintian-clean, with every man
#      page, the completions, the docs and the Mosquitto examples (kernel test 69-session-package
#      installs it into the QEMU guest);
#   7. docs-lint: README.md and docs/*.md name no internal issue number, their relative links
#      resolve, and README.md stays at most 700 words.
# Usage: scripts/contrib-tests.sh [--no-package] [--binary PATH] [--package-binary PATH]
#                                 [--only NAME[,NAME...]]   (needs root for install.sh)
#   --package-binary  package this static release binary (package-deb.sh --binary) instead of
#                     building one (minutes)
#   --only            run these checks alone: systemd-unit-verify, unit-filter, udev-rule,
#                     man-and-completion, install-scratch-root, debian-package, docs-lint
# Writes .build/contrib-tests/summary.json ({"passed", "tests": [{"name", "passed", "problems"}]}).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/.build/contrib-tests"
PACKAGE=1
BIN=""
PACKAGE_BIN=()
ONLY=""
CHECKS="systemd-unit-verify unit-filter udev-rule man-and-completion install-scratch-root debian-package docs-lint"
while [ $# -gt 0 ]; do
    case "$1" in
        --no-package) PACKAGE=0; shift ;;
        --binary) BIN=$2; shift 2 ;;
        --package-binary) PACKAGE_BIN=(--binary "$2"); shift 2 ;;
        --only) ONLY=$2; shift 2 ;;
        -h|--help) sed -n '2,/^# Writes/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "contrib-tests: unknown argument '$1'" >&2; exit 64 ;;
    esac
done
for c in ${ONLY//,/ }; do
    case " $CHECKS " in *" $c "*) ;; *) echo "contrib-tests: no check '$c' (checks: $CHECKS)" >&2; exit 64 ;; esac
done
want() { [ -z "$ONLY" ] || [[ ",$ONLY," == *",$1,"* ]]; } # NAME: whether to run that check
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
# Shared by the checks: the unit with ExecStart on the built binary, the generated man pages.
UNITSRC=contrib/systemd/motionbatch.service
sed "s|/usr/local/bin/motionbatch|$BIN|" "$UNITSRC" >"$TMP/motionbatch.service"
mkdir -p "$TMP/man/man1"
MANFAIL=""
"$BIN" --generate-manual "$TMP/man/man1" >/dev/null || MANFAIL="motionbatch --generate-manual failed"

# 1. systemd-analyze verify (with the man pages the unit's Documentation= names) and security.
if want systemd-unit-verify; then
    [ -z "$MANFAIL" ] || fail "$MANFAIL"
    if command -v systemd-analyze >/dev/null; then
        MANPATH="$TMP/man" systemd-analyze verify "$TMP/motionbatch.service" >"$TMP/verify.log" 2>&1 || fail "systemd-analyze verify: $(tail -5 "$TMP/verify.log" | tr '\n' ' ')"
        [ -s "$TMP/verify.log" ] && fail "systemd-analyze verify printed: $(tail -5 "$TMP/verify.log" | tr '\n' ' ')"
        sed "s|/usr/local/bin/motionbatch|$TMP/no-such-binary|" "$UNITSRC" >"$TMP/broken.service"
        MANPATH="$TMP/man" systemd-analyze verify "$TMP/broken.service" >/dev/null 2>&1 && fail "systemd-analyze verify accepted a unit whose ExecStart does not exist"
        grep -q '^User=motionbatch$' "$UNITSRC" || fail "the unit does not run as user motionbatch"
        grep -q '^SupplementaryGroups=iio$' "$UNITSRC" || fail "the unit is not in group iio"
        for k in 'Restart=on-failure' 'RestartPreventExitStatus=64' 'ProtectSystem=strict' 'ReadWritePaths=/var/lib/motionbatch' \
                 'NoNewPrivileges=yes' 'ProtectProc=invisible' 'StartLimitBurst=[0-9]*' 'StartLimitIntervalSec=[0-9a-z]*' \
                 'After=.*time-sync.target.*' 'RestrictAddressFamilies=.*AF_INET AF_INET6.*'; do
            grep -q "^$k$" "$UNITSRC" || fail "the unit lacks $k"
        done
        grep -q '^ProcSubset=' "$UNITSRC" && fail "ProcSubset= hides /proc/sys/kernel/random/boot_id, which recordings are named by"
        for d in $(sed -n 's/^Documentation=//p' "$UNITSRC"); do
            case "$d" in
                man:*) page=${d#man:}; page=${page%(*}; [ -f "$TMP/man/man1/$page.1" ] || fail "Documentation=$d: no such generated man page" ;;
                file:///usr/share/doc/motionbatch/*) f=${d#file:///usr/share/doc/motionbatch/}; [ -f "$f" ] || [ "$f" = README.md ] || fail "Documentation=$d: $f is not in the tree" ;;
            esac
        done
        systemd-analyze security --offline=yes --no-pager "$TMP/motionbatch.service" >"$TMP/security.txt" 2>&1 || true
        exposure=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$TMP/security.txt")
        echo "      systemd-analyze security --offline: exposure $exposure"
        if [ -z "$exposure" ]; then fail "systemd-analyze security gave no exposure: $(tail -3 "$TMP/security.txt" | tr '\n' ' ')"
        elif python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 2.5 else 1)" "$exposure"; then :; else fail "exposure $exposure > 2.5"; fi
        grep -q 'SystemCallFilter=~@clock .*is included' "$TMP/security.txt" || fail "security: @clock not included (the clock-sync check's clock_adjtime is denied)"
        grep -q 'RestrictAddressFamilies=~AF_(INET|INET6) .*may allocate Internet sockets' "$TMP/security.txt" || fail "security: Internet sockets denied (--publish and ip: cannot work)"
        grep -q '✓ ProtectProc=' "$TMP/security.txt" || fail "security: ProtectProc not set"
        # @privileged is allowed only for the clock reading (systemd-analyze counts any member);
        # @resources stays allowed: --sched sets the scheduling policy (sched_setscheduler).
        if /usr/bin/python3 -c 'import seccomp' 2>/dev/null; then
            allowed=$(/usr/bin/python3 scripts/unit-sandbox.py "$UNITSRC" --print | sed -n 's/^calls: //p' | tr ' ' '\n' | sort)
            privileged=$(systemd-analyze syscall-filter --no-pager @privileged @raw-io @mount @module @reboot @swap @debug @obsolete @cpu-emulation | tr -d ' ' | grep -v '^[#@]' | grep . | sort -u)
            extra=$(comm -12 <(echo "$allowed") <(echo "$privileged") | grep -vxE 'adjtimex|clock_adjtime|clock_adjtime64' | tr '\n' ' ')
            [ -z "$extra" ] || fail "the unit's filter allows privileged calls besides the clock reading: $extra"
        fi
    else
        fail "systemd-analyze is missing (Debian package systemd: scripts/install-deps.sh --package)"
    fi
    finish "systemd-unit-verify"
fi

# 2. The binary under the unit's own system-call filter and address families.
if want unit-filter; then
    sandbox_run() { # UNIT LABEL: replay --publish to the broker under UNIT's filter, traced
        (cd "$TMP" && strace -f -o "$TMP/$2.strace" -e trace=clock_adjtime,adjtimex,socket \
            /usr/bin/python3 "$ROOT/scripts/unit-sandbox.py" "$1" -- timeout 60 "$BIN" replay --publish "mqtt://127.0.0.1:$PORT/contrib" \
            --ack broker --outbox "$TMP/$2.outbox" "$ROOT/Recordings/hapt-user01-walking.csv" >"$TMP/$2.out" 2>"$TMP/$2.err")
    }
    if ! /usr/bin/python3 -c 'import seccomp' 2>/dev/null; then
        fail "python3-seccomp is missing (scripts/install-deps.sh --package)"
    elif ! command -v mosquitto >/dev/null || ! command -v strace >/dev/null; then
        fail "mosquitto or strace is missing (scripts/install-deps.sh --package)"
    else
        PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$PORT" >"$TMP/mosquitto.conf"
        mosquitto -c "$TMP/mosquitto.conf" >"$TMP/mosquitto.log" 2>&1 &
        MOSQ=$!
        for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
        sandbox_run "$TMP/motionbatch.service" new
        rc=$?
        [ "$rc" = 0 ] || fail "replay --publish under the unit's filter exited $rc: $(tail -3 "$TMP/new.err" | tr '\n' ' ')"
        grep -q 'clock_adjtime(CLOCK_REALTIME, {modes=0' "$TMP/new.strace" || fail "the clock-sync check did not read clock_adjtime under the filter: $(grep clock "$TMP/new.strace" | head -2 | tr '\n' ' ')"
        grep -q 'clock_adjtime.*EPERM' "$TMP/new.strace" && fail "the unit's filter denies clock_adjtime (the clock-sync check)"
        grep -q 'socket(AF_INET, SOCK_STREAM.*= [0-9]' "$TMP/new.strace" || fail "no Internet socket under the unit's filter: $(grep socket "$TMP/new.strace" | head -2 | tr '\n' ' ')"
        grep -q 'not acknowledged\|cannot connect' "$TMP/new.err" && fail "the publish failed under the unit's filter: $(grep -m1 'not acknowledged\|cannot connect' "$TMP/new.err")"
        # The control: the filter order and families the unit had (adjtimex then ~@privileged, no AF_INET).
        sed 's/^RestrictAddressFamilies=.*/RestrictAddressFamilies=AF_UNIX AF_NETLINK/; /^SystemCallFilter=adjtimex/d; s/^SystemCallFilter=@system-service$/SystemCallFilter=@system-service adjtimex/' \
            "$TMP/motionbatch.service" >"$TMP/old.service"
        sandbox_run "$TMP/old.service" old
        grep -q 'clock_adjtime.*EPERM' "$TMP/old.strace" || fail "control: the old filter order did not deny clock_adjtime (the check cannot fail)"
        grep -q 'socket(AF_INET.*EAFNOSUPPORT' "$TMP/old.strace" || fail "control: the old families did not deny AF_INET (the check cannot fail)"
        kill "$MOSQ" 2>/dev/null; wait "$MOSQ" 2>/dev/null
    fi
    finish "unit-filter"
fi

# 3. The udev rule: which devices it applies to (its GOTO/TEST chain, evaluated on fake sysfs
# directories), and its attribute script (run on a fake device directory).
RULES=contrib/udev/60-motionbatch-iio.rules
mkdev() { local d=$TMP/sys/$1; shift; mkdir -p "$d/buffer" "$d/scan_elements"; for f in "$@"; do mkdir -p "$(dirname "$d/$f")"; : >"$d/$f"; done; echo "$d"; }
matches() { # DIR: whether the rule's chain reaches its GROUP= assignment for this device
    python3 - "$RULES" "$1" <<'PY'
import os, re, sys
rules, dev = sys.argv[1], sys.argv[2]
text = open(rules).read().replace("\\\n", " ")
lines = [l.strip() for l in text.splitlines() if l.strip() and not l.strip().startswith("#")]
env = {"ACTION": "add", "SUBSYSTEM": "iio", "KERNEL": "iio:device0"}
i, labels = 0, {m.group(1): n for n, l in enumerate(lines) for m in [re.match(r'LABEL="([^"]+)"', l)] if m}
while i < len(lines):
    l, ok, goto = lines[i], True, None
    for key, op, val in re.findall(r'([A-Z]+(?:\{[^}]*\})?)([!=+]=|=)"([^"]*)"', l):
        if key == "GOTO": goto = val
        elif key == "LABEL": pass
        elif key == "TEST": ok &= os.path.exists(os.path.join(dev, val)) == (op == "==")
        elif op in ("==", "!="):
            import fnmatch
            ok &= fnmatch.fnmatch(env[key], val) == (op == "==")
        elif key == "GROUP" and ok: sys.exit(0)
    i = labels[goto] if ok and goto else i + 1
sys.exit(1)
PY
}
if want udev-rule; then
    for dev in "accel:in_accel_x_raw in_accel_y_raw in_accel_z_raw" "accel-buffer-only:scan_elements/in_accel_x_en" \
               "gyro:in_anglvel_x_raw" "steps:in_steps_input" "activity:in_activity_walking_input"; do
        d=$(mkdev "${dev%%:*}" ${dev#*:})
        matches "$d" || fail "the rule does not apply to a ${dev%%:*} device (${dev#*:})"
    done
    d=$(mkdev adc in_voltage0_raw in_voltage1_raw scan_elements/in_voltage0_en)
    matches "$d" && fail "the rule applies to an ADC (in_voltage0_raw)"
    grep -q '2>/dev/null; *true' "$RULES" && fail "the rule hides its failures (2>/dev/null; true)"
    # udev's own parser reads the rule (udevadm test on the loopback device, in a private mount
    # namespace whose /etc/udev/rules.d holds only this rule): nothing but the missing group here.
    if command -v udevadm >/dev/null && unshare --mount --propagation private true 2>/dev/null; then
        mkdir -p "$TMP/rules.d"; cp "$RULES" "$TMP/rules.d/"
        unshare --mount --propagation private bash -c 'mkdir -p /etc/udev/rules.d && mount --bind "$1" /etc/udev/rules.d && udevadm test --action=add /sys/class/net/lo' _ "$TMP/rules.d" >"$TMP/udevadm.log" 2>&1
        grep -q 'Reading rules file: /etc/udev/rules.d/60-motionbatch-iio.rules' "$TMP/udevadm.log" || fail "udevadm did not read the rule: $(tail -2 "$TMP/udevadm.log" | tr '\n' ' ')"
        bad=$(grep '60-motionbatch-iio.rules:' "$TMP/udevadm.log" | grep -v "Unknown group 'iio'")
        [ -z "$bad" ] && : || fail "udevadm: $bad"
    else
        fail "udevadm is missing (Debian package udev: scripts/install-deps.sh --package)"
    fi
    script=$(sed -n "s/.*RUN+=\"\/bin\/sh -c '\(.*\)'\".*/\1/p" "$RULES" | sed 's/\$\$/$/g')
    [ -n "$script" ] || fail "no RUN+= attribute script in the rule"
    d=$(mkdev run-ok in_accel_x_raw sampling_frequency in_accel_scale buffer/enable buffer/length scan_elements/in_accel_x_en)
    chmod 0644 "$d"/* "$d"/buffer/* "$d"/scan_elements/* 2>/dev/null
    me=$(id -gn)
    ok_script=$(printf '%s' "$script" | sed "s|/sys%p|$d|g; s|%k|iio:device0|g; s| iio | $me |g")
    sh -c "$ok_script" 2>"$TMP/run-ok.err" || fail "the attribute script failed where it can succeed: $(cat "$TMP/run-ok.err")"
    [ "$(stat -c %a "$d/buffer/enable")" = 664 ] && [ "$(stat -c %a "$d/sampling_frequency")" = 664 ] || fail "the attribute script did not make buffer/enable and sampling_frequency group-writable"
    d=$(mkdev run-bad in_accel_x_raw sampling_frequency buffer/enable)
    bad_script=$(printf '%s' "$script" | sed "s|/sys%p|$d|g; s|%k|iio:device0|g; s| iio | no-such-group-mb |g")
    if sh -c "$bad_script" 2>"$TMP/run-bad.err"; then fail "the attribute script exits 0 when chgrp fails (failures hidden)"; fi
    grep -q 'sampling_frequency' "$TMP/run-bad.err" || fail "the attribute script's failure does not name the attributes: $(cat "$TMP/run-bad.err")"
    finish "udev-rule"
fi

# 4. Man pages and completions generated by the binary: every page renders within 80 columns
# without a groff warning; the bash completion completes subcommands, options and board names.
if want man-and-completion; then
    [ -z "$MANFAIL" ] || fail "$MANFAIL"
    for page in "$TMP"/man/man1/*.1; do
        out=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$page" 2>"$TMP/man.err" | col -b 2>/dev/null || true)
        [ -s "$TMP/man.err" ] && fail "$(basename "$page"): man warns: $(head -2 "$TMP/man.err" | tr '\n' ' ')"
        long=$(printf '%s\n' "$out" | awk 'length($0) > 80' | head -1)
        [ -n "$long" ] && fail "$(basename "$page") is wider than 80 columns: $long"
    done
    [ "$(ls "$TMP"/man/man1/*.1 | wc -l)" -ge 14 ] || fail "fewer man pages than commands: $(ls "$TMP"/man/man1 | tr '\n' ' ')"
    "$BIN" --generate-completion-script bash >"$TMP/completion.bash"
    # (grep without -q below: under pipefail, grep -q's early exit would kill the writer with
    # SIGPIPE when the match is not its last line, and the check would fail at random.)
    complete_words() { # WORDS...: what the bash completion offers for the last word
        bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _motionbatch; printf "%s\n" "${COMPREPLY[@]}"' _ "$TMP/completion.bash" "$@"
    }
    [ "$(complete_words motionbatch wa)" = wakes ] || fail "bash completion of 'motionbatch wa': $(complete_words motionbatch wa | tr '\n' ' ')"
    complete_words motionbatch eval st | grep -x steps >/dev/null || fail "bash completion of 'motionbatch eval st' lacks steps"
    complete_words motionbatch wakes --bo | grep -x -- --board >/dev/null || fail "bash completion of 'wakes --bo' lacks --board"
    complete_words motionbatch wakes --board rpi | grep -x rpi-zero-2w >/dev/null || fail "bash completion of '--board rpi' lacks rpi-zero-2w"
    complete_words motionbatch capture -- | grep -x -- --version >/dev/null || fail "bash completion of 'capture --' lacks --version"
    complete_words motionbatch wakes --board rpi | grep -- '--' >/dev/null && fail "bash completion offers options as a board name"
    for sh in zsh fish; do
        "$BIN" --generate-completion-script "$sh" >"$TMP/completion.$sh" || fail "--generate-completion-script $sh failed"
        if command -v "$sh" >/dev/null; then "$sh" -n "$TMP/completion.$sh" 2>"$TMP/$sh.err" || fail "$sh -n: $(head -2 "$TMP/$sh.err" | tr '\n' ' ')"; fi
    done
    if command -v fish >/dev/null; then
        fish_complete() { fish -c "source $TMP/completion.fish; complete -C '$1'" 2>&1 | cut -f1; }
        fish_complete "motionbatch wa" | grep -x wakes >/dev/null || fail "fish completion of 'motionbatch wa' lacks wakes"
        fish_complete "motionbatch eval st" | grep -x steps >/dev/null || fail "fish completion of 'motionbatch eval st' lacks steps"
        fish_complete "motionbatch wakes --bo" | grep -x -- --board >/dev/null || fail "fish completion of 'wakes --bo' lacks --board"
    fi
    finish "man-and-completion"
fi

# 5. install.sh into scratch roots.
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
# Where install.sh puts the unit and the rule (systemd's and udev's places for local installs), where
# earlier versions put them (the administrator's own places), and the link systemctl enable makes.
UNIT=/usr/local/lib/systemd/system/motionbatch.service
RULE=/usr/local/lib/udev/rules.d/60-motionbatch-iio.rules
ETC_UNIT=/etc/systemd/system/motionbatch.service
ETC_RULE=/etc/udev/rules.d/60-motionbatch-iio.rules
WANTS=/etc/systemd/system/multi-user.target.wants/motionbatch.service
DROPIN=/etc/systemd/system/motionbatch.service.d/override.conf
# The last install.sh that wrote the unit and the rule into /etc (the upgrade test runs it).
OLDREV=de66b47
old_install() { # ROOT: the install.sh of $OLDREV into ROOT, then the service enabled
    "$TMP/old/scripts/install.sh" --root "$1" --binary "$BIN" >"$1.old.log" 2>&1 || fail "the install.sh of $OLDREV: $(tail -3 "$1.old.log" | tr '\n' ' ')"
    systemctl --root "$1" enable motionbatch.service >/dev/null 2>&1
    [ -f "$1$ETC_UNIT" ] && [ -f "$1$ETC_RULE" ] && [ "$(readlink "$1$WANTS")" = "$ETC_UNIT" ] || fail "the install.sh of $OLDREV did not put the unit and the rule in /etc (enabled)"
}
if want install-scratch-root; then
    R="$TMP/root"
    scratch_root "$R"
    if [ "$(id -u)" != 0 ]; then
        fail "install.sh needs root (run the tests as root)"
    else
        scripts/install.sh --root "$R" --binary "$BIN" >"$TMP/install1.log" 2>&1 || fail "install.sh: $(tail -5 "$TMP/install1.log" | tr '\n' ' ')"
        for f in usr/local/bin/motionbatch "${UNIT#/}" "${RULE#/}" etc/default/motionbatch \
                 usr/local/share/man/man1/motionbatch.1 usr/local/share/man/man1/motionbatch-capture.1 usr/local/share/man/man1/motionbatch-eval-steps.1 \
                 usr/local/share/bash-completion/completions/motionbatch usr/local/share/zsh/site-functions/_motionbatch \
                 usr/local/share/fish/vendor_completions.d/motionbatch.fish usr/local/share/doc/motionbatch/README.md \
                 usr/local/share/doc/motionbatch/docs/session.md; do
            [ -f "$R/$f" ] || fail "install.sh did not install /$f"
        done
        # /etc/systemd and /etc/udev are the administrator's (drop-ins, overriding rules): install.sh
        # writes nothing there.
        etcfiles=$(cd "$R/etc" && find systemd udev -mindepth 1 2>/dev/null | tr '\n' ' ')
        [ -z "$etcfiles" ] || fail "install.sh wrote into /etc/systemd or /etc/udev, the places for the administrator's drop-ins and rules: $etcfiles"
        [ "$(ls "$R/usr/local/share/man/man1" | wc -l)" = "$(ls "$TMP/man/man1" | wc -l)" ] || fail "install.sh installed $(ls "$R/usr/local/share/man/man1" | wc -l) man pages of $(ls "$TMP/man/man1" | wc -l)"
        for d in $(sed -n 's|^Documentation=||p' "$R$UNIT"); do
            case "$d" in
                file://*) [ -f "$R${d#file://}" ] || fail "the installed unit's Documentation=$d is not installed" ;;
                man:*) page=${d#man:}; [ -f "$R/usr/local/share/man/man1/${page%(*}.1" ] || fail "the installed unit's Documentation=$d is not installed" ;;
            esac
        done
        cmp -s "$BIN" "$R/usr/local/bin/motionbatch" || fail "the installed binary differs from the one given"
        cmp -s contrib/udev/60-motionbatch-iio.rules "$R$RULE" || fail "the installed udev rule differs from contrib/"
        grep -q '^ExecStart=/usr/local/bin/motionbatch capture' "$R$UNIT" || fail "the installed unit does not run /usr/local/bin/motionbatch"
        # systemd finds the unit there: systemctl --root enables it (the link names $UNIT).
        if systemctl --root "$R" enable motionbatch.service >"$TMP/enable.log" 2>&1; then
            [ "$(readlink "$R$WANTS")" = "$UNIT" ] || fail "systemctl --root enable did not link $UNIT: $(find "$R/etc/systemd" -type l -printf '%p -> %l ' 2>/dev/null)"
        else
            fail "systemctl --root enable motionbatch.service: $(tail -2 "$TMP/enable.log" | tr '\n' ' ')"
        fi
        grep -q '^iio:x:[0-9]*:.*motionbatch' "$R/etc/group" || fail "group iio missing or motionbatch not in it: $(grep iio "$R/etc/group")"
        grep -q '^motionbatch:x:[0-9]*:[0-9]*:.*:/var/lib/motionbatch:/usr/sbin/nologin$' "$R/etc/passwd" || fail "user motionbatch missing: $(grep motionbatch "$R/etc/passwd")"
        uid=$(sed -n 's/^motionbatch:[^:]*:\([0-9]*\):.*/\1/p' "$R/etc/passwd")
        [ -d "$R/var/lib/motionbatch" ] && [ "$(stat -c %u "$R/var/lib/motionbatch")" = "$uid" ] || fail "/var/lib/motionbatch missing or not owned by motionbatch"
        [ "$(stat -c %a "$R/usr/local/bin/motionbatch")" = 755 ] || fail "the binary is not mode 755"
        before=$(tree "$R")
        scripts/install.sh --root "$R" --binary "$BIN" >"$TMP/install2.log" 2>&1 || fail "install.sh (second run): $(tail -5 "$TMP/install2.log" | tr '\n' ' ')"
        [ "$before" = "$(tree "$R")" ] || fail "a second install.sh changed the scratch root"
        grep -qE 'installed|created|added' "$TMP/install2.log" && fail "a second install.sh says it changed something: $(grep -E 'installed|created|added' "$TMP/install2.log" | tr '\n' ' ')"
        # The administrator's own files in /etc, as docs/session.md tells them to make them: a drop-in
        # and a rule of the same name (which udev reads instead of the installed one). A re-install,
        # --uninstall and --purge leave them byte for byte.
        mkdir -p "$(dirname "$R$DROPIN")" "$(dirname "$R$ETC_RULE")"
        printf '[Service]\nNice=5\n' >"$R$DROPIN"
        { echo '# Mine: the IIO devices for group plugdev.'; sed 's/GROUP="iio"/GROUP="plugdev"/' contrib/udev/60-motionbatch-iio.rules; } >"$R$ETC_RULE"
        cp "$R$DROPIN" "$TMP/mine.conf"; cp "$R$ETC_RULE" "$TMP/mine.rules"
        mine_kept() { # WHAT: fails unless the drop-in and the rule in /etc are as the user wrote them
            cmp -s "$TMP/mine.conf" "$R$DROPIN" || fail "$1 changed or removed the user's drop-in $DROPIN"
            cmp -s "$TMP/mine.rules" "$R$ETC_RULE" || fail "$1 changed or removed the user's rule $ETC_RULE"
        }
        echo 'MOTIONBATCH_OPTIONS="--rate 50"' >"$R/etc/default/motionbatch"
        scripts/install.sh --root "$R" --binary "$BIN" >"$TMP/install3.log" 2>&1
        grep -q -- '--rate 50' "$R/etc/default/motionbatch" || fail "install.sh overwrote an edited /etc/default/motionbatch"
        mine_kept "a re-install"
        grep -q "note: kept $ETC_RULE" "$TMP/install3.log" || fail "a re-install does not say that the user's $ETC_RULE replaces the installed rule"
        scripts/install.sh --root "$R" --uninstall >"$TMP/uninstall.log" 2>&1 || fail "install.sh --uninstall: $(tail -3 "$TMP/uninstall.log" | tr '\n' ' ')"
        for f in /usr/local/bin/motionbatch "$UNIT" "$RULE" "$WANTS"; do
            [ -e "$R$f" ] || [ -L "$R$f" ] && fail "--uninstall left $f"
        done
        mine_kept "--uninstall"
        [ -f "$R/etc/default/motionbatch" ] || fail "--uninstall removed the edited options file"
        grep -q '^motionbatch:' "$R/etc/passwd" && [ -d "$R/var/lib/motionbatch" ] || fail "--uninstall removed the user or the recordings"
        scripts/install.sh --root "$R" --uninstall --purge >/dev/null 2>&1 || fail "install.sh --uninstall --purge failed"
        grep -q '^motionbatch:' "$R/etc/passwd" && fail "--purge kept the user"
        [ -d "$R/var/lib/motionbatch" ] && fail "--purge kept /var/lib/motionbatch"
        mine_kept "--uninstall --purge"
        scripts/install.sh --root "$R/none" --binary "$BIN" >/dev/null 2>&1 && fail "install.sh accepted a --root that does not exist"
        for f in usr/local/share/man/man1/motionbatch.1 usr/local/share/doc/motionbatch usr/local/share/bash-completion/completions/motionbatch; do
            [ -e "$R/$f" ] && fail "--uninstall left /$f"
        done

        # Upgrades from the install.sh of $OLDREV (the git history), which put the unit and the rule
        # in /etc: an install removes its unchanged copies there (the unit in /etc would run instead
        # of the new one) and relinks the enabled service, keeps a copy the user changed, with a
        # note; --uninstall alone removes the unchanged copies too.
        if git -C "$ROOT" cat-file -e "$OLDREV^{commit}" 2>/dev/null; then
            mkdir -p "$TMP/old"; git -C "$ROOT" archive "$OLDREV" scripts/install.sh contrib README.md docs | tar -x -C "$TMP/old"
            V="$TMP/upgrade"; scratch_root "$V"; old_install "$V"
            echo '# Mine.' >>"$V$ETC_RULE"; cp "$V$ETC_RULE" "$TMP/upgrade-mine.rules"
            scripts/install.sh --root "$V" --binary "$BIN" >"$TMP/upgrade.log" 2>&1 || fail "install.sh over $OLDREV's: $(tail -3 "$TMP/upgrade.log" | tr '\n' ' ')"
            [ -f "$V$UNIT" ] && [ -f "$V$RULE" ] || fail "an upgrade did not install $UNIT and $RULE"
            [ -e "$V$ETC_UNIT" ] && fail "an upgrade kept $ETC_UNIT as an earlier install.sh wrote it (systemd runs it instead of $UNIT)"
            [ "$(readlink "$V$WANTS")" = "$UNIT" ] || fail "an upgrade left the enabled service's link at '$(readlink "$V$WANTS")', not $UNIT"
            cmp -s "$TMP/upgrade-mine.rules" "$V$ETC_RULE" || fail "an upgrade changed or removed $ETC_RULE, which the user had edited"
            grep -q "note: kept $ETC_RULE" "$TMP/upgrade.log" || fail "an upgrade does not say it kept the edited $ETC_RULE"
            scripts/install.sh --root "$V" --uninstall >"$TMP/upgrade-uninstall.log" 2>&1 || fail "--uninstall after an upgrade: $(tail -3 "$TMP/upgrade-uninstall.log" | tr '\n' ' ')"
            cmp -s "$TMP/upgrade-mine.rules" "$V$ETC_RULE" || fail "--uninstall after an upgrade removed $ETC_RULE, which the user had edited"
            [ -e "$V$WANTS" ] || [ -L "$V$WANTS" ] && fail "--uninstall after an upgrade left $WANTS"
            V="$TMP/old-uninstall"; scratch_root "$V"; old_install "$V"
            scripts/install.sh --root "$V" --uninstall >"$TMP/old-uninstall.log" 2>&1 || fail "--uninstall over $OLDREV's install: $(tail -3 "$TMP/old-uninstall.log" | tr '\n' ' ')"
            for f in "$ETC_UNIT" "$ETC_RULE" "$WANTS"; do
                [ -e "$V$f" ] || [ -L "$V$f" ] && fail "--uninstall left $f, as the install.sh of $OLDREV wrote it"
            done
        else
            echo "      (no git history with $OLDREV here: the upgrade from it is not tested)"
        fi

        # Staging with --root as an unprivileged user (nobody): the files, no accounts.
        S="$TMP/stage"; mkdir -p "$S"; chown nobody "$S"; cp "$BIN" "$TMP/stage-bin"; chmod 755 "$TMP/stage-bin"; chmod o+x "$TMP"
        if runuser -u nobody -- "$ROOT/scripts/install.sh" --root "$S" --binary "$TMP/stage-bin" >"$TMP/stage.log" 2>&1; then
            [ -f "$S/usr/local/bin/motionbatch" ] && [ -f "$S$UNIT" ] && [ -f "$S$RULE" ] || fail "staging as nobody did not place the files"
            grep -q 'not root:' "$TMP/stage.log" || fail "staging as nobody does not say the accounts are left out"
        else
            fail "install.sh --root as an unprivileged user: $(tail -3 "$TMP/stage.log" | tr '\n' ' ')"
        fi

        # Without --binary, the build runs as the owner of the source tree (a fake swift records who).
        T="$TMP/tree"; mkdir -p "$T/scripts" "$TMP/fakebin"
        cp -r scripts/install.sh contrib README.md docs "$T/" 2>/dev/null; mv "$T/install.sh" "$T/scripts/"
        cat >"$TMP/fakebin/swift" <<EOF2
#!/bin/sh
case " \$* " in *" --show-bin-path "*) echo "$TMP/fakebuild"; exit 0 ;; esac
id -un >>"$TMP/builder"; mkdir -p "$TMP/fakebuild"; cp "$BIN" "$TMP/fakebuild/motionbatch"; chmod 755 "$TMP/fakebuild/motionbatch"
EOF2
        chmod 755 "$TMP/fakebin/swift"; chmod -R o+rX "$TMP/fakebin" "$T"; chown -R nobody "$T"; chmod 777 "$TMP"
        R2="$TMP/root2"; scratch_root "$R2"
        PATH="$TMP/fakebin:$PATH" "$T/scripts/install.sh" --root "$R2" >"$TMP/build-owner.log" 2>&1 || fail "install.sh (building): $(tail -3 "$TMP/build-owner.log" | tr '\n' ' ')"
        [ "$(cat "$TMP/builder" 2>/dev/null)" = nobody ] || fail "install.sh as root built as '$(cat "$TMP/builder" 2>/dev/null)', not as the tree's owner nobody"
        chmod 700 "$TMP"

        # On a live system: a private mount namespace whose /etc, /var/lib and /usr/local are copies.
        L="$TMP/live"; mkdir -p "$L/var-lib" "$L/usr-local"
        cp -a /etc "$L/etc"
        if unshare --mount --propagation private true 2>/dev/null; then
            unshare --mount --propagation private bash -c '
                set -e
                mount --bind "$1/etc" /etc; mount --bind "$1/var-lib" /var/lib; mount --bind "$1/usr-local" /usr/local
                "$2/scripts/install.sh" --binary "$3" >"$1/install.log" 2>&1
                getent passwd motionbatch >/dev/null && [ -d /var/lib/motionbatch ] && [ -f /usr/local/share/man/man1/motionbatch-capture.1 ] || { echo "live install incomplete" >>"$1/install.log"; exit 1; }
                # udev reads the rule where install.sh put it.
                if command -v udevadm >/dev/null; then
                    udevadm test --action=add /sys/class/net/lo >"$1/udevadm.log" 2>&1 || true
                    grep -q "Reading rules file: /usr/local/lib/udev/rules.d/60-motionbatch-iio.rules" "$1/udevadm.log" || { echo "udevadm test does not read /usr/local/lib/udev/rules.d/60-motionbatch-iio.rules" >>"$1/install.log"; exit 1; }
                fi
                "$2/scripts/install.sh" --uninstall --purge >"$1/uninstall.log" 2>&1
                ! getent passwd motionbatch >/dev/null && [ ! -e /var/lib/motionbatch ] && [ ! -e /usr/local/bin/motionbatch ] && [ ! -e /usr/local/lib/systemd/system/motionbatch.service ] || { echo "live purge left the user, data, binary or unit" >>"$1/uninstall.log"; exit 1; }
            ' live "$L" "$ROOT" "$BIN" || fail "install.sh on a live system: $(tail -q -n 3 "$L/install.log" "$L/uninstall.log" 2>/dev/null | tr '\n' ' ')"
        else
            fail "unshare --mount is not permitted here (the live install test needs it)"
        fi
    fi
    finish "install-scratch-root"
fi

# 6. The Debian package.
if [ "$PACKAGE" = 1 ] && want debian-package; then
    if deb=$(scripts/package-deb.sh --lintian "${PACKAGE_BIN[@]}" 2>"$TMP/package.log" | tail -1) && [ -f "$deb" ]; then
        dpkg-deb -I "$deb" >"$TMP/info.txt"
        grep -q '^ Depends: .*libiio0' "$TMP/info.txt" || fail "Depends: does not name libiio0: $(grep Depends "$TMP/info.txt")"
        dpkg-deb -c "$deb" >"$TMP/contents.txt"
        for f in ./usr/bin/motionbatch ./lib/systemd/system/motionbatch.service ./lib/udev/rules.d/60-motionbatch-iio.rules ./etc/default/motionbatch \
                 ./usr/share/doc/motionbatch/copyright ./usr/share/man/man1/motionbatch.1.gz ./usr/share/man/man1/motionbatch-capture.1.gz \
                 ./usr/share/man/man1/motionbatch-wakes.1.gz ./usr/share/bash-completion/completions/motionbatch \
                 ./usr/share/zsh/vendor-completions/_motionbatch ./usr/share/fish/vendor_completions.d/motionbatch.fish \
                 ./usr/share/doc/motionbatch/README.md ./usr/share/doc/motionbatch/docs/session.md ./usr/share/doc/motionbatch/docs/wake-cost.md \
                 ./usr/share/doc/motionbatch/examples/mosquitto/mosquitto.conf ./usr/share/doc/motionbatch/examples/mosquitto/acl; do
            grep -q " $f\$" "$TMP/contents.txt" || fail "the package lacks $f"
        done
        # The example broker configuration and scripts docs/fleet.md names: every file of contrib/mosquitto.
        for f in contrib/mosquitto/*; do
            [ -f "$f" ] || continue
            grep -q " ./usr/share/doc/motionbatch/examples/mosquitto/$(basename "$f")\$" "$TMP/contents.txt" || fail "the package lacks the example $f (/usr/share/doc/motionbatch/examples/mosquitto/)"
        done
        conffiles=$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)
        [ "$conffiles" = /etc/default/motionbatch ] || fail "conffiles are not exactly /etc/default/motionbatch: $(echo "$conffiles" | tr '\n' ' ')"
        [ "$(grep -c ' ./usr/share/man/man1/motionbatch.*\.1\.gz$' "$TMP/contents.txt")" = "$(ls "$TMP/man/man1" | wc -l)" ] || fail "the package lacks man pages of some subcommands"
        for doc in $(grep -oh 'docs/[a-z-]*\.md' Sources/MotionCLI/Commands/*.swift Sources/MotionCLI/*.swift | sort -u); do
            grep -q " ./usr/share/doc/motionbatch/$doc\$" "$TMP/contents.txt" || fail "help points to $doc, which the package does not ship"
        done
        echo "package: $deb"
    else
        fail "scripts/package-deb.sh --lintian: $(tail -15 "$TMP/package.log" | tr '\n' ' ')"
    fi
    finish "debian-package"
fi

# 7. The docs a user reads (README.md, docs/*.md; installed with the package and install.sh): no
# internal issue numbers, relative links that resolve, a README that is a short read.
docs_lint() { # FILES...: prints each problem, exits 1 if any
    python3 - "$@" <<'PY'
import os, re, sys
# "issue 12", "issue-4", "issue13-timestamp.csv", "issues #7" anywhere, code spans too (file names).
ISSUE = re.compile(r"\bissues?[ _-]?#?[0-9]+", re.I)
# "#12" in prose: not in code (#include, shell comments), not in "&#8212;", a path or a link's
# anchor ("file.md#6-reports"), nor a colour (#000000).
HASH = re.compile(r"(?:^|[^\w&/#])(#[0-9]+)(?![\w-])")
COLOUR = re.compile(r"#[0-9A-Fa-f]{6}\b")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
def slug(h): # GitHub's heading anchors
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", h.strip().lower()).replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", h).replace(" ", "-")
def anchors(path):
    seen, out, fence = {}, set(), False
    for line in open(path, encoding="utf-8"):
        if line.lstrip().startswith("```"): fence = not fence; continue
        m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1)); n = seen.get(s, 0); seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out
problems = []
for path in sys.argv[1:]:
    fence = False
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        for m in ISSUE.finditer(line):
            problems.append(f"{path}:{no}: names an internal issue: '{m.group(0)}'")
        if line.lstrip().startswith("```"): fence = not fence; continue
        if fence: continue
        prose = re.sub(r"`[^`]*`", "", line)
        for m in HASH.finditer(prose):
            if not COLOUR.match(prose, m.start(1)):
                problems.append(f"{path}:{no}: names an issue number: '{m.group(1)}'")
        for m in LINK.finditer(prose):
            t = m.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", t, re.I): continue
            target, _, frag = t.partition("#")
            f = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
            if not os.path.exists(f):
                problems.append(f"{path}:{no}: link ({t}): {f} does not exist")
            elif frag and f.endswith(".md") and frag not in anchors(f):
                problems.append(f"{path}:{no}: link ({t}): no heading '#{frag}' in {f}")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
}
if want docs-lint; then
    docs_lint README.md docs/*.md >"$TMP/docs-lint.txt" 2>&1 || while IFS= read -r line; do [ -n "$line" ] && fail "$line"; done <"$TMP/docs-lint.txt"
    words=$(wc -w <README.md)
    echo "      README.md: $words words"
    [ "$words" -le 700 ] || fail "README.md has $words words (at most 700, a two-minute read): move detail into docs/ and link it from \"Where to go next\""
    finish "docs-lint"
fi

ok=true
for r in "${results[@]}"; do case "$r" in *'"passed": false'*) ok=false ;; esac; done
printf '{"passed": %s, "tests": [%s]}\n' "$ok" "$(IFS=,; echo "${results[*]}")" >"$OUT/summary.json"
[ "$ok" = true ]
