"""Checks 55-iio-cpu: CPU ns per sample of `motionbatch capture` (converting to SI units, repairing
timestamps, detecting gaps) vs iio_readdev (raw bytes to /dev/null) at batch 1 and 100, same
settings, same run. Target: at batch 100 within 1.5x of iio_readdev — checked for optimized
(release) binaries only; a debug build's figures are reported with target_checked=false."""


def check(r, ctx):
    p, figs = [], {}
    for key in ("batch1", "batch100"):
        x = r.get(key) or {}
        cap, ref = x.get("capture") or {}, x.get("readdev") or {}
        if x.get("exit") != 0: p.append(f"{key}: capture exited {x.get('exit')}")
        for name, w in (("capture", cap), ("readdev", ref)):
            if (w.get("seconds") or 0) < 10: p.append(f"{key}: {name} window {w.get('seconds')} s < 10 s")
            if not w.get("alive_at_end"): p.append(f"{key}: {name} ended before its window did")
        n = 100 * (cap.get("seconds") or 0)  # samples in the window at 100 Hz
        cns = (cap.get("cpu_ns") or 0) / n if n else None
        rns = (ref.get("cpu_ns") or 0) / (100 * (ref.get("seconds") or 1))
        figs[f"{key}_capture_us_per_sample"] = round(cns / 1000, 1) if cns else None
        figs[f"{key}_readdev_us_per_sample"] = round(rns / 1000, 1)
        figs[f"{key}_ratio"] = round(cns / rns, 2) if cns and rns else None
    figs["build"] = r.get("build")
    figs["target_checked"] = r.get("build") == "release"
    if figs["target_checked"] and (figs.get("batch100_ratio") or 99) > 1.5:
        p.append(f"batch 100: capture uses {figs.get('batch100_ratio')}x iio_readdev's CPU per sample (target <= 1.5x)")
    figs["samples"] = int(100 * (((r.get("batch1") or {}).get("capture") or {}).get("seconds", 0) + (((r.get("batch100") or {}).get("capture") or {}).get("seconds", 0))))
    return p, figs
