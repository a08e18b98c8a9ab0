"""Shared check for the CPU tests 55 (batch 100) and 58 (batch 1)."""


def check_pair(r, min_window, target):
    p = []
    cap, ref = r.get("capture") or {}, r.get("readdev") or {}
    if r.get("exit") != 0: p.append(f"capture exited {r.get('exit')}")
    for name, w in (("capture", cap), ("readdev", ref)):
        if (w.get("seconds") or 0) < min_window: p.append(f"{name} window {w.get('seconds')} s < {min_window} s")
        if not w.get("alive_at_end"): p.append(f"{name} ended before its window did")
    n = 100 * (cap.get("seconds") or 0)  # samples in the window at 100 Hz
    cns = (cap.get("cpu_ns") or 0) / n if n else None
    rn = 100 * (ref.get("seconds") or 0)
    rns = (ref.get("cpu_ns") or 0) / rn if rn else None
    whole = round(cns / rns, 2) if cns and rns else None
    # Per-window ratios (both readers sampled at the same instants); the median is judged, so one
    # window disturbed by host load (the guest's single vCPU is emulated) does not decide alone.
    wins = [round(w["capture_cpu_ns"] / w["readdev_cpu_ns"], 2) for w in (r.get("windows") or [])
            if w.get("capture_cpu_ns") and w.get("readdev_cpu_ns")]
    ratio = sorted(wins)[len(wins) // 2] if wins else whole
    # A speed target is a benchmark figure, not a pass/fail test (timing on a shared, emulated CPU
    # is noisy): the ratio and whether it met the target are reported in the summary.
    checked = r.get("build") == "release" and target is not None
    if ratio is None:
        p.append("no CPU figures were measured")
    target_met = (ratio <= target) if checked and ratio is not None else None
    # User/system split of each reader's CPU time (/proc/PID/stat ticks over the whole span,
    # 1/CLK_TCK s resolution): where the difference between the readers lies.
    def split(w, n):
        tck = w.get("clk_tck") or 100
        if not n or w.get("user_ticks") is None: return None, None
        return round(w["user_ticks"] / tck / n * 1e6, 1), round(w["system_ticks"] / tck / n * 1e6, 1)
    cu, cs = split(cap, n)
    ru, rs = split(ref, rn)
    return p, {"capture_user_us_per_sample": cu, "capture_system_us_per_sample": cs,
               "readdev_user_us_per_sample": ru, "readdev_system_us_per_sample": rs,
               "target_ratio": target, "target_met": target_met, "samples": int(n), "batch": r.get("batch"), "capture_us_per_sample": round(cns / 1000, 1) if cns else None,
               "readdev_us_per_sample": round(rns / 1000, 1) if rns else None, "ratio": ratio, "window_ratios": wins, "whole_window_ratio": whole,
               "capture_voluntary_switches": cap.get("voluntary"), "readdev_voluntary_switches": ref.get("voluntary"),
               "build": r.get("build"), "target_checked": checked}
