"""Shared check for the CPU tests 55 (batch 100) and 58 (batch 1): one reader at a time on
accel_3d, rounds of capture, iio_readdev (and floor-reader), judged by the median round ratio."""
import math


def _split(w, n):
    """User and system µs per sample of a window (/proc/PID/stat ticks, 1/CLK_TCK s resolution)."""
    tck = w.get("clk_tck") or 100
    if not n or w.get("user_ticks") is None:
        return None, None
    return w["user_ticks"] / tck / n * 1e6, w["system_ticks"] / tck / n * 1e6


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return round(sum(xs) / len(xs), 1) if xs else None


def _median(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    mid = len(xs) // 2
    return round(xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2, 2)


def _per_sample(w):
    """(cpu µs, user µs, system µs, voluntary switches) per sample of a solo window at 100 Hz."""
    n = 100 * (w.get("seconds") or 0)
    if not n or not w.get("cpu_ns"):
        return None, None, None, None
    u, s = _split(w, n)
    return w["cpu_ns"] / n / 1000, u, s, (w.get("voluntary") or 0) / n


def check_ab(r, min_window, min_rounds, target, enforce, alt_floor_bound=None, alt_target=None):
    """Tests 55/58, one reader at a time (cpu_ab): per round capture / iio_readdev CPU per sample
    (and floor-reader / iio_readdev, and the alternative capture (`alt`, e.g. --no-analysis) /
    iio_readdev and / floor-reader, when measured); the median over the rounds is judged. With
    `enforce`, a release build over the target fails the test; otherwise it is reported. With
    `alt_floor_bound`, a release build whose alternative capture costs more than that many times
    the floor reader (median of the rounds) fails. With `alt_target`, a release build whose
    alternative capture costs more than that many times `iio_readdev` (median of the rounds) fails."""
    p = []
    rounds = r.get("rounds") or []
    if len(rounds) < min_rounds:
        p.append(f"{len(rounds)} rounds measured, {min_rounds} expected")
    if r.get("exit") != 0: p.append(f"capture exited {r.get('exit')}")
    ratios, floors, vs_floor, rows = [], [], [], []
    alt_ratios, alt_vs_floor, alt_rows = [], [], []
    extra = []  # per round, the capture's µs per sample less the alternative's: what it leaves out
    for k, rd in enumerate(rounds, 1):
        if rd.get("exit") != 0: p.append(f"round {k}: capture exited {rd.get('exit')}")
        ws = {name: rd.get(name) for name in ("capture", "readdev", "floor", "alt")}
        for name, w in ws.items():
            if w is None:
                if name == "alt" and r.get("alt_args"): p.append(f"round {k}: no window of the capture with {r.get('alt_args')}")
                elif name not in ("floor", "alt"): p.append(f"round {k}: no {name} window")
                continue
            if (w.get("seconds") or 0) < min_window: p.append(f"round {k}: {name} window {w.get('seconds')} s < {min_window} s")
            if not w.get("alive_at_end"): p.append(f"round {k}: {name} ended before its window did")
        c = _per_sample(ws["capture"] or {})
        d = _per_sample(ws["readdev"] or {})
        f = _per_sample(ws["floor"] or {}) if ws["floor"] else (None,) * 4
        ratio = round(c[0] / d[0], 2) if c[0] and d[0] else None
        ratios.append(ratio)
        if f[0] and d[0]: floors.append(round(f[0] / d[0], 2))
        if f[0] and c[0]: vs_floor.append(round(c[0] / f[0], 2))
        rows.append((c, d, f))
        if ws["alt"]:
            a = _per_sample(ws["alt"])
            if a[0] and d[0]: alt_ratios.append(round(a[0] / d[0], 2))
            if a[0] and f[0]: alt_vs_floor.append(round(a[0] / f[0], 2))
            if a[0] and c[0]: extra.append(round(c[0] - a[0], 1))
            alt_rows.append(a)
    ratio = _median(ratios)
    if ratio is None: p.append("no CPU figures were measured")
    checked = r.get("build") == "release" and target is not None
    met = (ratio <= target) if checked and ratio is not None else None
    if enforce and met is False:
        p.append(f"capture / iio_readdev CPU per sample {ratio} (median of {ratios}) > target {target}")

    def alt_bound(values, bound, against):
        """(median of `values`, checked, met): the alternative capture's ratios to `against`,
        judged against `bound` in a release build (no figure fails)."""
        median = _median(values)
        checked = r.get("build") == "release" and bound is not None and bool(r.get("alt_args"))
        met = (median is not None and median <= bound) if checked else None
        if checked and not met:
            p.append(f"capture {r.get('alt_args')} / {against} CPU per sample {median} (median of {values}) > {bound}")
        return median, checked, met

    alt_floor, alt_checked, _ = alt_bound(alt_vs_floor, alt_floor_bound, "floor-reader")
    alt_ratio, alt_target_checked, alt_target_met = alt_bound(alt_ratios, alt_target, "iio_readdev")

    def alt_mean(j):
        xs = [a[j] for a in alt_rows if a[j] is not None]
        return round(sum(xs) / len(xs), 1) if xs else None

    def mean(i, j):
        xs = [row[i][j] for row in rows if row[i][j] is not None]
        return round(sum(xs) / len(xs), 1 if j < 3 else 3) if xs else None

    return p, {"target_ratio": target, "target_met": met, "target_checked": checked, "target_enforced": enforce and checked,
               "build": r.get("build"), "batch": r.get("batch"), "ratio": ratio, "round_ratios": ratios,
               "floor_ratio": _median(floors), "round_floor_ratios": floors, "capture_vs_floor": _median(vs_floor),
               "samples": int(sum(100 * ((rd.get("capture") or {}).get("seconds") or 0) for rd in rounds)),
               "capture_us_per_sample": mean(0, 0), "readdev_us_per_sample": mean(1, 0), "floor_us_per_sample": mean(2, 0),
               "capture_user_us_per_sample": mean(0, 1), "capture_system_us_per_sample": mean(0, 2),
               "readdev_user_us_per_sample": mean(1, 1), "readdev_system_us_per_sample": mean(1, 2),
               "floor_user_us_per_sample": mean(2, 1), "floor_system_us_per_sample": mean(2, 2),
               "capture_voluntary_per_sample": mean(0, 3), "readdev_voluntary_per_sample": mean(1, 3),
               "alt_args": r.get("alt_args") or None, "alt_ratio": alt_ratio, "round_alt_ratios": alt_ratios,
               "alt_target": alt_target if alt_target_checked else None, "alt_target_met": alt_target_met,
               "capture_minus_alt_us_per_sample": _median(extra), "round_capture_minus_alt_us_per_sample": extra,
               "alt_vs_floor": alt_floor, "round_alt_vs_floor": alt_vs_floor, "alt_floor_bound": alt_floor_bound if alt_checked else None,
               "alt_us_per_sample": alt_mean(0), "alt_user_us_per_sample": alt_mean(1), "alt_system_us_per_sample": alt_mean(2)}
