"""Checks 68-session-udev (issue 15, session test 6): with the repository's udev rule applied by
the real systemd-udevd, the device node and the attributes a capture writes belong to group iio
and are group-writable; an unprivileged user in the group captures (exit 0, samples recorded);
without the group the capture fails with permission denied naming the file and giving the rule,
and `devices --json` shows the access state permission-denied with the rule."""


def check(r, ctx):
    p = []
    perms = r.get("perms") or ""
    for entry in [e for e in perms.split(";") if e.strip()]:
        owner, mode, name = entry.split(" ", 2)
        if not owner.endswith(":iio"): p.append(f"{name}: group {owner}, not iio")
        if len(mode) < 2 or int(mode[-2]) & 2 == 0: p.append(f"{name}: mode {mode} is not group-writable")
    if r.get("in_exit") != 0: p.append(f"in the group: capture exited {r.get('in_exit')}: {(r.get('in_stderr') or '')[-300:]}")
    if (r.get("rows") or 0) < 200: p.append(f"in the group: only {r.get('rows')} samples recorded")
    st = r.get("stats") or {}
    if st.get("samples", 0) < 200: p.append(f"in the group: statistics report {st.get('samples')} samples")
    err = r.get("out_stderr") or ""
    if r.get("out_exit") == 0: p.append("without the group: the capture succeeded")
    if "Permission denied" not in err: p.append("without the group: no 'Permission denied'")
    if "60-motionbatch-iio.rules" not in err or 'SUBSYSTEM=="iio"' not in err: p.append("without the group: the remedy does not give the rule")
    dev = next((d for d in (r.get("devices") or {}).get("devices", []) if d.get("name") == "accel_3d"), {})
    acc = dev.get("access") or {}
    if acc.get("state") != "permission-denied": p.append(f"without the group: devices says {acc.get('state')}")
    if 'SUBSYSTEM=="iio"' not in (acc.get("udev_rule") or ""): p.append("without the group: devices --json has no udev_rule")
    return p, {"samples": r.get("rows"), "iio_gid": r.get("gid"), "permissions": perms}
