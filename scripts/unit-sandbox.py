#!/usr/bin/python3
"""Runs a command under the system-call filter and address families of a systemd unit, without
systemd: the unit's SystemCallFilter= lines are expanded with `systemd-analyze syscall-filter` and
applied in order as systemd does (an allow list, `~` entries removed from it, later entries added
back), SystemCallErrorNumber= is the answer to a denied call, and RestrictAddressFamilies= becomes
a filter on socket(2)'s family (EAFNOSUPPORT for the others, as systemd answers). The filter is
loaded with Debian's python3-seccomp (libseccomp), then the command is executed.

    scripts/unit-sandbox.py UNIT -- COMMAND [ARG...]
    scripts/unit-sandbox.py UNIT --print        the allowed system calls and families

Used by scripts/contrib-tests.sh ("unit-filter"): the clock-sync check (clock_adjtime) and a
loopback publish (AF_INET) must work under the unit's own filter. Neither this machine nor CI
runs systemd as PID 1, so the unit cannot be started for real here.
"""
import errno
import os
import re
import socket
import subprocess
import sys


def unit_settings(path):
    """The [Service] settings of `path` as (key, value) in file order (continuations joined)."""
    out, section, pending = [], None, ""
    for raw in open(path, encoding="utf-8"):
        line = pending + raw.rstrip("\n")
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        s = line.strip()
        if not s or s[0] in "#;":
            continue
        if s.startswith("["):
            section = s
            continue
        if section == "[Service]" and "=" in s:
            k, v = s.split("=", 1)
            out.append((k.strip(), v.strip()))
    return out


def syscall_sets():
    """Every named set of `systemd-analyze syscall-filter`: name -> its entries (calls and @sets)."""
    text = subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager"], check=True,
                          capture_output=True, text=True).stdout
    sets, current = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            current = line.split()[0]
            sets[current] = []
        elif current and line.strip() and not line.strip().startswith("#"):
            sets[current].append(line.split()[0])
    return sets


def expand(entry, sets, seen=None):
    """The system calls named by `entry` (a call or an @set, sets expanded recursively)."""
    if not entry.startswith("@"):
        return {entry}
    seen = seen or set()
    if entry in seen:
        return set()
    seen.add(entry)
    if entry not in sets:
        raise SystemExit(f"unit-sandbox: unknown system call set {entry}")
    calls = set()
    for e in sets[entry]:
        calls |= expand(e, sets, seen)
    return calls


def policy(path):
    """(allowed calls or None for no filter, errno of a denied call, allowed families or None)."""
    sets = syscall_sets()
    allowed, denied_errno, families = None, errno.EPERM, None
    for k, v in unit_settings(path):
        if k == "SystemCallFilter":
            if not v:
                allowed = None
                continue
            negate = v.startswith("~")
            names = v[1:].split() if negate else v.split()
            calls = set().union(*(expand(n, sets) for n in names))
            if allowed is None:
                # The first assignment decides the kind; only allow lists are used by our unit.
                if negate:
                    raise SystemExit("unit-sandbox: a deny list first is not supported")
                allowed = set(calls)
            elif negate:
                allowed -= calls
            else:
                allowed |= calls
        elif k == "SystemCallErrorNumber":
            denied_errno = getattr(errno, v) if not v.isdigit() else int(v)
        elif k == "RestrictAddressFamilies":
            negate = v.startswith("~")
            if negate:
                raise SystemExit("unit-sandbox: a family deny list is not supported")
            names = set(v.split())
            families = names if families is None else families | names
    return allowed, denied_errno, families


def load(allowed, denied_errno, families):
    import seccomp  # Debian's python3-seccomp
    f = seccomp.SyscallFilter(defaction=seccomp.ERRNO(denied_errno))
    for call in sorted(allowed):
        if call == "socket" and families is not None:
            continue
        try:
            f.add_rule(seccomp.ALLOW, call)
        except (RuntimeError, ValueError, OSError):
            pass  # not a call of this architecture
    if families is not None and "socket" in allowed:
        numbers = sorted(getattr(socket, fam) for fam in families)
        for n in numbers:
            f.add_rule(seccomp.ALLOW, "socket", seccomp.Arg(0, seccomp.EQ, n))
        # Other families: EAFNOSUPPORT, systemd's answer (AF_MAX is below 64 on Linux).
        for n in range(64):
            if n not in numbers:
                f.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, n))
        f.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.GE, 64))
    f.load()


def main(argv):
    if len(argv) < 3 or argv[2] not in ("--", "--print"):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    allowed, denied_errno, families = policy(argv[1])
    if argv[2] == "--print":
        print("calls:", " ".join(sorted(allowed or [])))
        print("families:", " ".join(sorted(families or [])))
        print("errno:", errno.errorcode.get(denied_errno, denied_errno))
        return 0
    if allowed is None or len(argv) < 4:
        print("unit-sandbox: the unit has no SystemCallFilter= (or no command given)", file=sys.stderr)
        return 64
    load(allowed, denied_errno, families)
    os.execvp(argv[3], argv[3:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
