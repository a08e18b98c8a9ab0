"""Checks 56-iio-access: permission denied (file + udev rule), busy, lost (prompt clean exit)."""


def check(r, ctx):
    p = []
    perm = r.get("permission") or {}
    if perm.get("exit") == 0: p.append("unprivileged capture succeeded")
    e = perm.get("stderr", "")
    if "Permission denied" not in e: p.append("unprivileged: no 'Permission denied' message")
    if "/dev/iio:device" not in e and "/sys/" not in e: p.append("unprivileged: the file is not named")
    if 'SUBSYSTEM=="iio"' not in e: p.append("unprivileged: no udev rule in the remedy")
    busy = r.get("busy") or {}
    if busy.get("exit") == 0: p.append("second reader succeeded while the buffer was held")
    if "busy" not in busy.get("stderr", ""): p.append("second reader: no 'busy' message")
    states = {d["name"]: (d.get("access") or {}).get("state") for d in (busy.get("devices") or {}).get("devices", [])}
    if states.get("accel_3d") != "busy": p.append(f"devices shows accel_3d as {states.get('accel_3d')} while held, not busy")
    lost = r.get("lost") or {}
    st = lost.get("stats") or {}
    if lost.get("exit") == 0: p.append("capture exited 0 after the device was removed")
    if st.get("stop_reason") != "lost": p.append(f"stop reason {st.get('stop_reason')} != lost")
    if "removed during capture" not in lost.get("stderr", ""): p.append("no 'removed during capture' message")
    if lost.get("exit_after_kill_s", 99) > 10: p.append(f"capture took {lost.get('exit_after_kill_s'):.1f} s to exit after removal")
    if lost.get("rows", 0) < 100: p.append(f"only {lost.get('rows')} samples saved before the removal")
    return p, {"samples": lost.get("rows"), "exit_after_removal_s": round(lost.get("exit_after_kill_s", -1), 2)}
