"""Checks 69-session-package (issue 15): `dpkg -i` of the package succeeds in the guest's overlay
root (Depends: satisfied, maintainer scripts run), group iio and user motionbatch (in it) exist,
the installed binary runs with the Swift toolchain hidden and links no Swift library, the installed
unit passes `systemd-analyze verify`, udevd applies the packaged rule so that user motionbatch
captures, and `dpkg --purge` removes every file it installed."""


def check(r, ctx):
    p = []
    if r.get("dpkg_exit") != 0: p.append(f"dpkg -i exited {r.get('dpkg_exit')}: {r.get('dpkg_log', '')[-600:]}")
    if r.get("swift_visible"): p.append(f"the Swift toolchain ({r.get('toolchain')}) was not hidden in the installed root")
    if r.get("version_exit") != 0 or not (r.get("version") or "").strip(): p.append(f"/usr/bin/motionbatch --version: {r.get('version')}")
    if "libswift" in (r.get("ldd") or "") or "not found" in (r.get("ldd") or ""): p.append(f"ldd /usr/bin/motionbatch: {r.get('ldd')}")
    if r.get("verify_exit") != 0 or (r.get("verify") or "").strip(): p.append(f"systemd-analyze verify: {r.get('verify')}")
    if not (r.get("group") or "").startswith("iio:"): p.append("no group iio after installing")
    elif "motionbatch" not in r["group"].split(":")[-1]: p.append(f"motionbatch is not in group iio: {r.get('group')}")
    if ":/var/lib/motionbatch:" not in (r.get("user") or ""): p.append(f"user motionbatch: {r.get('user')}")
    if r.get("capture_exit") != 0: p.append(f"the capture as motionbatch exited {r.get('capture_exit')}: {r.get('capture_stderr', '')[-500:]}")
    if (r.get("rows") or 0) < 150: p.append(f"the capture as motionbatch recorded {r.get('rows')} samples")
    if r.get("purge_exit") != 0: p.append(f"dpkg --purge exited {r.get('purge_exit')}")
    if (r.get("left") or "").strip(): p.append(f"left after the purge: {r.get('left')}")
    return p, {"samples": r.get("rows"), "version": (r.get("version") or "").strip()}
